"""Offline captures: a config whose TTGIR another config already made stops after TTGIR (``same_code_as``).

Each such capture must hold exactly what a full compile of its own config writes: every stage file and
Triton's metadata JSON (its own hash and num_stages) are compared with ``--no-same-code`` captures.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from irscope.compile import program, same_code
from irscope.compile.records import LaunchRecord, RecordRefused, SameCodeNote
from irscope.compile.same_code_ingest import AliasRefused, alias_capture_record
from irscope.errors import StoreError
from irscope.store.store import Capture, Manifest, Store
from tests.conftest import DATA
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile
PROGRAM = DATA / "programs" / "stages_autotune.py"


def _capture(store: Path, *options: str) -> str:
    proc = irscope("capture", "--target", "sm90", *options, "--", sys.executable, str(PROGRAM), store=store)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout + proc.stderr


def _by_key(store: Path) -> dict[str, Capture]:
    return {c.manifest.key: c for c in Store(store).captures()}


def _files(capture: Capture) -> dict[str, bytes]:
    """Every file of the capture but its manifest, by name."""
    return {p.name: p.read_bytes() for p in capture.path.iterdir() if p.name != "manifest.json"}


_TIMING = ("created", "compile_seconds", "stage_seconds", "same_code_as")


def _comparable(m: Manifest) -> dict[str, Any]:
    return {k: v for k, v in m.to_json().items() if k not in _TIMING}


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("same-code")
    out = {"full": _capture(root / "full", "--no-same-code", "-j", "1"),
           "two": _capture(root / "two", "-j", "2"),
           "one": _capture(root / "one", "-j", "1")}
    return {"root": root, "output": out}


def test_num_stages_only_configs_of_a_loop_free_kernel_share_code_and_equal_full_compiles(
        stores: dict[str, Any]) -> None:
    root = stores["root"]
    full, shared = _by_key(root / "full"), _by_key(root / "two")
    assert set(full) == set(shared)  # the same captures, keyed by each config's own Triton hash
    scale = {k: c for k, c in shared.items() if c.manifest.kernel == "scale_kernel"}
    assert len(scale) == 4
    owners = [c for c in scale.values() if not c.manifest.same_code_as]
    assert len(owners) == 1
    assert all(c.manifest.same_code_as == owners[0].manifest.key for c in scale.values() if c is not owners[0])
    for key, capture in shared.items():
        assert _files(capture) == _files(full[key]), key  # every stage file and the metadata JSON, byte for byte
        assert _comparable(capture.manifest) == _comparable(full[key].manifest), key
        assert not full[key].manifest.same_code_as
    for capture in scale.values():
        meta = json.loads(capture.path.joinpath("scale_kernel.json").read_text(encoding="utf-8"))
        assert meta["hash"] == capture.manifest.metadata["hash"] and capture.manifest.key.endswith(meta["hash"][:20])
        assert meta["num_stages"] == capture.manifest.config["num_stages"]
    assert sorted(c.manifest.config["num_stages"] for c in scale.values()) == [1, 2, 3, 4]
    # A stopped compile ran only up to TTGIR, and its manifest says so.
    assert all(set(c.manifest.stage_seconds) <= {"ir_init", "ttir", "ttgir"} for c in scale.values()
               if c.manifest.same_code_as)
    text = stores["output"]["two"]
    assert "  autotune scale_kernel: 4 configs, 4 compiled; 3 of them the same code as another config: stopped " \
           "after TTGIR\n" in text
    assert text.count(f"(same code as config {owners[0].manifest.config_index}: num_stages changes nothing here "
                      "(equal TTGIR))") == 3
    assert "same code" not in stores["output"]["full"]


def test_a_k_loop_that_num_stages_pipelines_is_compiled_in_full_for_each_config(stores: dict[str, Any]) -> None:
    ksum = [c for c in Store(stores["root"] / "two").captures() if c.manifest.kernel == "ksum_kernel"]
    assert len(ksum) == 2 and not any(c.manifest.same_code_as for c in ksum)
    assert ksum[0].read("ttgir") != ksum[1].read("ttgir")  # the pipeliner made different code
    assert all({"llir", "ptx", "cubin"} <= set(c.manifest.stage_seconds) for c in ksum)
    assert "autotune ksum_kernel: 2 configs, 2 compiled\n" in stores["output"]["two"]


def test_one_job_and_two_jobs_store_the_same_captures(stores: dict[str, Any]) -> None:
    one, two = _by_key(stores["root"] / "one"), _by_key(stores["root"] / "two")
    assert set(one) == set(two)
    assert sum(1 for c in one.values() if c.manifest.same_code_as) == 3
    assert sum(1 for c in two.values() if c.manifest.same_code_as) == 3
    for key in one:
        assert _files(one[key]) == _files(two[key]), key


def test_list_names_the_config_whose_code_a_capture_shares(stores: dict[str, Any]) -> None:
    listing = irscope("list", "scale_kernel", store=stores["root"] / "two")
    assert listing.returncode == 0, listing.stderr
    assert listing.stdout.count("same code as config ") == 3


# ---- ingest of damaged or forged alias records ----


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A real session of the program (records, aliases, Triton's cache) kept before ingest removes it, and its path."""
    root = tmp_path_factory.mktemp("session")
    kept = root / "session"
    original = program._store_records
    where: list[str] = []

    def keep(folder: Path, store: Store, command: str, **kwargs: Any) -> Any:
        shutil.copytree(folder, kept, symlinks=True)
        where.append(str(folder))
        return original(folder, store, command, **kwargs)

    from irscope.model.targets import resolve_target

    mp = pytest.MonkeyPatch()
    mp.setattr(program, "_store_records", keep)
    try:
        report = program.run_program([sys.executable, str(PROGRAM)], Store(root / "store"), resolve_target("sm90"),
                                     jobs=1)
    finally:
        mp.undo()
    assert report.exit_code == 0 and sum(1 for c in report.captures if c.manifest.same_code_as) == 3
    return kept, where[0]


def _aliases(folder: Path) -> list[Path]:
    return sorted((folder / "aliases").glob("*.json"))


def _copy(session: tuple[Path, str], tmp_path: Path) -> Path:
    """A copy of the kept session whose records name their files in the copy."""
    copy = tmp_path / "session"
    shutil.copytree(session[0], copy, symlinks=True)
    for kind in ("records", "aliases"):
        for path in (copy / kind).glob("*.json"):
            path.write_text(path.read_text(encoding="utf-8").replace(session[1], str(copy)), encoding="utf-8")
    return copy


def _forge(session: tuple[Path, str], tmp_path: Path, change: Any) -> tuple[list[Capture], list[str], Path]:
    """Copy the session, change its first alias record, ingest it into a fresh store."""
    copy = _copy(session, tmp_path)
    path = _aliases(copy)[0]
    rec = json.loads(path.read_text(encoding="utf-8"))
    change(rec, copy)
    path.write_text(json.dumps(rec) if not isinstance(rec, str) else rec, encoding="utf-8")
    store = Store(tmp_path / "store")
    captures, failures = program._store_records(copy, store, "prog")
    return captures, failures, path


@pytest.mark.parametrize(("name", "change", "why"), [
    ("ttgir", lambda r, s: Path(r["same_code"]["ttgir"]).write_text("module {}\n"), "its TTGIR differs"),
    ("owner", lambda r, s: r["same_code"].update(owner="0" * 64), "which was not captured"),
    ("file", lambda r, s: r["files"].update({next(iter(r["files"])): "/etc/passwd"}),
     "is not one of its own early stages"),
    ("ttgir-outside", lambda r, s: r["same_code"].update(ttgir="/etc/hostname"), "TTGIR or the owner's is missing"),
    ("metadata", lambda r, s: r["metadata"].update(num_ctas=2), "its metadata 'num_ctas' differs"),
    ("hash", lambda r, s: r.update(hash="../../x"), "lacks its compile hash"),
])
def test_a_forged_alias_is_refused_and_the_rest_is_stored(session: tuple[Path, str], tmp_path: Path, name: str,
                                                         change: Any, why: str) -> None:
    captures, failures, _ = _forge(session, tmp_path, change)
    assert len(captures) == 5  # 1 + 2 of scale_kernel's aliases, 2 of ksum_kernel
    assert len(failures) == 1 and why in failures[0] and "stopped after TTGIR" in failures[0], failures
    assert "scale_kernel config " in failures[0]
    for capture in Store(tmp_path / "store").captures():  # what was stored reads back whole
        assert capture.read("ttgir") and capture.manifest.kernel in ("scale_kernel", "ksum_kernel")


def test_the_kept_session_ingests_whole(session: tuple[Path, str], tmp_path: Path) -> None:
    captures, failures = program._store_records(_copy(session, tmp_path), Store(tmp_path / "store"), "prog")
    assert len(captures) == 6 and failures == []
    assert sum(1 for c in captures if c.manifest.same_code_as) == 3


def test_an_unreadable_alias_record_is_skipped(session: tuple[Path, str], tmp_path: Path) -> None:
    copy = _copy(session, tmp_path)
    _aliases(copy)[0].write_text("{not json", encoding="utf-8")
    _aliases(copy)[1].write_text("[1, 2]", encoding="utf-8")
    captures, failures = program._store_records(copy, Store(tmp_path / "store"), "prog")
    assert len(captures) == 4 and failures == []


def test_the_alias_refusal_checks_types_first(tmp_path: Path) -> None:
    with pytest.raises(RecordRefused, match="not an object"):
        LaunchRecord.from_json([1])
    with pytest.raises(RecordRefused, match="'same_code' must be an"):
        LaunchRecord.from_json({"version": 1, "name": "k", "hash": "a" * 64, "same_code": {"owner": "a" * 64}})
    alias = LaunchRecord(name="k", hash="a" * 64, target=None,
                         same_code=SameCodeNote(owner="a" * 64, key="b" * 64, ttgir=str(tmp_path / "k.ttgir")))
    with pytest.raises(AliasRefused, match="no other compile"):
        alias_capture_record(alias, {}, tmp_path)


# ---- the manifest field ----


def _manifest(**extra: Any) -> dict[str, Any]:
    base = {"key": "k-sm90-c0-p-0123456789abcdef0123", "kernel": "k", "kernel_path": "", "function": "k",
            "config_index": 0, "config": {}, "sizes": {}, "dtype": "", "target": "sm90", "backend": "cuda",
            "arch": 90, "warp_size": 32, "triton_version": "3.9.0", "signature": {}, "constexprs": {}, "attrs": {},
            "options": {}, "metadata": {}, "compile_seconds": 0.1}
    return {**base, **extra}


def test_same_code_as_is_optional_checked_and_written_only_when_set() -> None:
    old = Manifest.from_json(_manifest())  # a manifest from before the field still loads
    assert old.same_code_as == "" and "same_code_as" not in old.to_json()
    alias = Manifest.from_json(_manifest(same_code_as="k-sm90-c1-p-0123456789abcdef0124"))
    assert alias.to_json()["same_code_as"] == "k-sm90-c1-p-0123456789abcdef0124"
    with pytest.raises(StoreError, match="'same_code_as' must be a capture key or empty"):
        Manifest.from_json(_manifest(same_code_as=5))
    with pytest.raises(StoreError, match="'same_code_as'"):
        Manifest.from_json(_manifest(same_code_as="../../etc"))


# ---- which backends' later stages may be shared ----


def test_triton_39_backends_read_num_stages_only_before_ttgir() -> None:
    from triton.backends.amd.compiler import HIPBackend
    from triton.backends.nvidia.compiler import CUDABackend

    assert not same_code.later_stages_read_num_stages(CUDABackend)
    assert not same_code.later_stages_read_num_stages(HIPBackend)


class _Amd36Like:
    """As Triton 3.5/3.6's AMD backend: its make_llir lowers the scheduling hints with num_stages."""

    @staticmethod
    def make_llir(src: Any, metadata: Any, options: Any) -> Any:
        pm: Any = None
        return (src, pm, options.arch, options.num_stages)  # lower_instruction_sched_hints(pm, arch, num_stages)


def test_a_backend_whose_later_stage_reads_num_stages_is_never_shared() -> None:
    assert same_code.later_stages_read_num_stages(_Amd36Like)


def test_a_program_that_calls_triton_compile_itself_gets_every_kernel_whole(tmp_path: Path) -> None:
    # Only the launches irscope compiles may stop after TTGIR: the program's own triton.compile needs its cubin.
    program = DATA / "programs" / "direct_compile.py"
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(program), store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "num_stages=1: 1 stages" in proc.stdout and "num_stages=2: 2 stages" in proc.stdout
    captures = Store(tmp_path).captures()
    assert len(captures) == 2 and not any(c.manifest.same_code_as for c in captures)
    assert all({"llir", "ptx", "cubin"} <= set(c.manifest.stage_seconds) for c in captures)


def test_amd_captures_that_share_code_equal_full_compiles(tmp_path: Path) -> None:
    for store, options in (("shared", ()), ("full", ("--no-same-code",))):
        proc = irscope("capture", "--target", "gfx942", "-j", "2", *options, "--", sys.executable, str(PROGRAM),
                       store=tmp_path / store)
        assert proc.returncode == 0, proc.stderr
    shared, full = _by_key(tmp_path / "shared"), _by_key(tmp_path / "full")
    assert set(shared) == set(full) and sum(1 for c in shared.values() if c.manifest.same_code_as) == 3
    for key, capture in shared.items():
        assert {"amdgcn", "hsaco"} <= set(capture.manifest.files)
        assert _files(capture) == _files(full[key]), key
        assert _comparable(capture.manifest) == _comparable(full[key].manifest), key


def test_the_tui_facts_name_the_config_whose_code_a_capture_shares(tmp_path: Path) -> None:
    from irscope.tui.facts import capture_facts

    owner_key = "k-sm90-c3-p-0123456789abcdef0124"
    alias = Capture(tmp_path, Manifest.from_json(_manifest(same_code_as=owner_key)))
    facts = {f.label: f.value for f in capture_facts(alias)}
    assert facts["same code as"].startswith("config 3: num_stages changes nothing here (equal TTGIR")
    assert owner_key in facts["same code as"]
    assert "same code as" not in {f.label for f in capture_facts(Capture(tmp_path, Manifest.from_json(_manifest())))}
