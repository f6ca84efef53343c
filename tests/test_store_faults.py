"""A capture on disk is input too: every stored file missing, cut short, emptied, garbled, wrong-typed or
replaced by a directory, and a read-only store, each gives one line (or a healed capture), never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from irscope.request.captures import get_capture, make_request
from irscope.request.passdump import get_pass_dump
from irscope.store.passwrite import effects_path, index_path
from irscope.store.store import Store
from tests.conftest import invoke, repo_path

pytestmark = pytest.mark.compile

KERNEL, TARGET = "vector_add", "gfx942"


@pytest.fixture(scope="session")
def template(tmp_path_factory) -> tuple[Path, str]:
    """A store holding a real capture of vector_add for gfx942 with its per-pass dump and cached effects."""
    root = tmp_path_factory.mktemp("fault-template")
    request = make_request(KERNEL, TARGET)
    cap = get_capture(request, str(root))
    from irscope.request.passdump import cached_pass_table

    cached_pass_table(get_pass_dump(request, cap))
    assert effects_path(cap.path, "mlir").is_file()
    return root, cap.manifest.key


def fresh_store(template, tmp_path: Path) -> tuple[Path, Path]:
    root, key = template
    store = tmp_path / "store"
    shutil.copytree(root / "captures", store / "captures")
    return store, store / "captures" / key


def survived(result) -> None:
    """Exit 0, or exit 1/2 with one line; never a traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1, 2), result.output
    if result.exit_code:
        errors = [ln for ln in result.output.splitlines() if ln.startswith("irscope: error:")]
        assert len(errors) == 1, result.output


def kept(store: Path) -> dict[str, bytes]:
    """Every file of the store's captures except the per-pass dump files (derived data, rewritten on need)."""
    return {str(p.relative_to(store)): p.read_bytes() for p in sorted((store / "captures").rglob("*"))
            if p.is_file() and not p.name.startswith(("passes.", ".passes."))}


FAULTS = ("missing", "truncated", "empty", "garbage", "directory")


def apply(path: Path, fault: str) -> None:
    data = path.read_bytes()
    if fault == "missing":
        path.unlink()
    elif fault == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif fault == "empty":
        path.write_bytes(b"")
    elif fault == "garbage":
        path.write_bytes(bytes((b * 7 + 13) % 256 for b in data) or b"\xff")
    elif fault == "directory":  # fails for root too, unlike chmod 000
        path.unlink()
        path.mkdir()
        (path / "inner").write_text("x")


# Dump files (passes.*) get the passes command; the others show, layouts and list, read by key.
STORED_FILES = ["manifest.json", "add_kernel.amdgcn", "add_kernel.hsaco", "add_kernel.json", "add_kernel.llir",
                "add_kernel.source", "add_kernel.ttgir", "add_kernel.ttir", "compile.log", "source.py"]


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("name", STORED_FILES)
def test_store_fault_matrix_reads(template, tmp_path, name, fault):
    store, capdir = fresh_store(template, tmp_path)
    apply(capdir / name, fault)
    key = capdir.name
    before = kept(store)
    for args in (["show", key, "-s", "ttgir"], ["layouts", key], ["list"], ["resources", key]):
        survived(invoke(*args, store=store))
    assert kept(store) == before  # nothing lost: reading removes or rewrites nothing
    if name == "add_kernel.ttgir" and fault != "garbage":
        result = invoke("show", key, "-s", "ttgir", store=store)
        assert result.exit_code == 1 and f"capture {key} is damaged: add_kernel.ttgir" in result.output


DUMP_FAULTS = [(which, fault) for which in ("index", "effects", "dump") for fault in FAULTS] + [
    ("index", "wrong-typed"), ("effects", "wrong-typed")]


@pytest.mark.parametrize(("which", "fault"), DUMP_FAULTS)
def test_store_fault_matrix_pass_dump(template, tmp_path, which, fault):
    store, capdir = fresh_store(template, tmp_path)
    healthy = invoke("passes", KERNEL, "-t", TARGET, store=store)
    assert healthy.exit_code == 0, healthy.output
    path = {"index": index_path(capdir, "mlir"), "effects": effects_path(capdir, "mlir"),
            "dump": next(capdir.glob("passes.mlir.*.gz"))}[which]
    if fault == "wrong-typed":
        data = json.loads(path.read_text())
        data["rows" if which == "effects" else "sections"] = ([{"index": "one", "changes": 3}]
                                                              if which == "effects" else {"a": 1})
        path.write_text(json.dumps(data))
    else:
        apply(path, fault)
    before = kept(store)
    result = invoke("passes", KERNEL, "-t", TARGET, store=store)
    survived(result)
    assert kept(store) == before  # the capture's own files; the dump and its cache may be written anew
    if which == "effects" or (which == "index" and fault != "directory"):
        # The cache and the index are derived data: the table comes back the same, from the dump itself.
        assert result.exit_code == 0 and result.stdout == healthy.stdout, result.output


def test_a_malformed_effects_cache_gives_the_same_table(template, tmp_path):
    store, capdir = fresh_store(template, tmp_path)
    healthy = invoke("passes", KERNEL, "-t", TARGET, store=store)
    path = effects_path(capdir, "mlir")
    data = json.loads(path.read_text())
    data["rows"] = [{**row, "added": "many"} for row in data["rows"]]
    path.write_text(json.dumps(data))
    result = invoke("passes", KERNEL, "-t", TARGET, store=store)
    assert result.exit_code == 0 and result.stdout == healthy.stdout, result.output


MANIFEST_FIELDS = ["key", "kernel", "kernel_path", "function", "config_index", "config", "sizes", "dtype", "target",
                   "backend", "arch", "warp_size", "triton_version", "signature", "constexprs", "attrs", "options",
                   "metadata", "compile_seconds", "stage_seconds", "files", "created", "origin", "arguments",
                   "program", "replay", "checksums", "format"]


def _wrong(value: object) -> object:
    """A value of another JSON type."""
    return ["x"] if isinstance(value, (dict, str, int, float)) else {"x": 1}


@pytest.mark.parametrize("field", MANIFEST_FIELDS)
def test_a_wrong_typed_manifest_field_is_one_line_when_named_by_key(template, tmp_path, field):
    store, capdir = fresh_store(template, tmp_path)
    manifest = json.loads((capdir / "manifest.json").read_text())
    manifest[field] = _wrong(manifest.get(field))
    (capdir / "manifest.json").write_text(json.dumps(manifest))
    key = capdir.name
    before = kept(store)
    result = invoke("show", key, "-s", "ttgir", store=store)
    assert result.exit_code == 1 and f"capture {key} cannot be read: manifest.json: field {field!r}" in result.output
    assert Store(store).get(key) is None
    for args in (["list"], ["layouts", key]):
        survived(invoke(*args, store=store))
    assert kept(store) == before


@pytest.mark.parametrize("damage", ["files-list", "metadata-null", "not-an-object", "not-json", "capture-is-a-file"])
def test_a_damaged_capture_heals_when_irscope_can_compile_it(template, tmp_path, damage):
    store, capdir = fresh_store(template, tmp_path)
    key = capdir.name
    original = (capdir / "add_kernel.ttgir").read_bytes()
    manifest = json.loads((capdir / "manifest.json").read_text())
    if damage == "capture-is-a-file":
        shutil.rmtree(capdir)
        capdir.write_text("not a capture")
    else:
        text = {"files-list": json.dumps({**manifest, "files": list(manifest["files"].values())}),
                "metadata-null": json.dumps({**manifest, "metadata": None}),
                "not-an-object": "[1, 2, 3]", "not-json": "{"}[damage]
        (capdir / "manifest.json").write_text(text)
    result = invoke("show", KERNEL, "-t", TARGET, "-s", "ttgir", store=store)
    assert result.exit_code == 0, result.output
    assert f"irscope: capture {key} cannot be read" in result.stderr and "compiling it again" in result.stderr
    healed = Store(store).get(key)
    assert healed is not None and healed.read("ttgir").encode() == original
    again = invoke("show", KERNEL, "-t", TARGET, "-s", "ttgir", store=store)
    assert again.exit_code == 0 and "compiling" not in again.stderr


def test_a_files_entry_outside_the_capture_is_refused(template, tmp_path):
    store, capdir = fresh_store(template, tmp_path)
    (tmp_path / "secret.ttgir").write_text("SECRET")
    manifest = json.loads((capdir / "manifest.json").read_text())
    manifest["files"]["ttgir"] = "../../../secret.ttgir"
    (capdir / "manifest.json").write_text(json.dumps(manifest))
    result = invoke("show", capdir.name, "-s", "ttgir", store=store)
    assert result.exit_code == 1 and "only a plain file name inside the capture is allowed" in result.output
    assert "SECRET" not in result.output


def test_a_staging_path_that_is_a_file_is_one_line(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    (store / "staging").write_text("x")
    result = invoke("show", KERNEL, "-t", TARGET, "-s", "ttgir", store=store)
    assert result.exit_code == 1 and "staging is not a directory" in result.output
    assert "Traceback" not in result.output


def test_unreadable_files_as_a_normal_user(template, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads chmod-000 files; the 'directory' faults above cover unreadable files for root")
    store, capdir = fresh_store(template, tmp_path)
    (capdir / "add_kernel.ttgir").chmod(0)
    result = invoke("show", capdir.name, "-s", "ttgir", store=store)
    assert result.exit_code == 1 and "cannot be read" in result.output


def _read_only(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run irscope with the store mounted read-only (a user+mount namespace; fails for root as well)."""
    inner = (f'mount --bind "{store}" "{store}" && mount -o remount,bind,ro "{store}" && '
             f'exec "{sys.executable}" -m irscope "$@"')
    env = {**os.environ, "PYTHONPATH": repo_path()}
    return subprocess.run(["unshare", "-rm", "sh", "-c", inner, "sh", *args, "--store", str(store)],
                          capture_output=True, text=True, env=env, timeout=300)


def test_a_read_only_store_serves_reads_and_names_itself_for_compiles(template, tmp_path):
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"]).returncode != 0:
        pytest.skip("needs unshare -rm to mount the store read-only (root would write through chmod)")
    store, capdir = fresh_store(template, tmp_path)
    for name in ("passes.mlir.json", "passes.mlir.effects.json"):
        (capdir / name).unlink()
    for gz in capdir.glob("passes.mlir.*.gz"):
        gz.unlink()
    shown = _read_only(store, "show", KERNEL, "-t", TARGET, "-s", "ttgir")
    assert shown.returncode == 0 and shown.stdout.startswith("#"), shown.stderr
    for args in (["passes", KERNEL, "-t", TARGET], ["show", "softmax", "-t", TARGET]):
        done = _read_only(store, *args)
        assert done.returncode == 1, done.stderr
        assert "the store is read-only: use --store DIR" in done.stderr and "Traceback" not in done.stderr


def test_a_key_prefix_reaches_past_the_kernels_name(captures, tmp_path):
    """Issue 28 (walkthrough): `irscope show l` opened layernorm_fwd and `show mat` the matmul, silently: a bare
    prefix of a name is no name; a key prefix past the name still finds its capture."""
    import shutil

    from tests.conftest import invoke

    cap = captures("vector_add", "sm90")
    shutil.copytree(cap.path, tmp_path / "captures" / cap.manifest.key)
    key = cap.manifest.key
    for prefix in ("v", "vector", "vector_ad"):
        shown = invoke("show", prefix, "--stage", "ttgir", store=tmp_path)
        assert shown.exit_code == 2 and f"unknown kernel '{prefix}'" in shown.output, shown.output
    assert invoke("show", key[: len("vector_add-sm90-c0-") + 4], "--stage", "ttgir", store=tmp_path).exit_code == 0
    assert invoke("show", "vector_add-sm90", "--stage", "ttgir", store=tmp_path).exit_code == 0


def test_list_names_a_capture_missing_a_stage_file(captures, tmp_path):
    """Issue 28 (walkthrough): a capture whose .ptx was deleted was listed as healthy; only `show` said so."""
    import json
    import shutil

    from tests.conftest import invoke

    cap = captures("vector_add", "sm90")
    shutil.copytree(cap.path, tmp_path / "captures" / cap.manifest.key)
    (ptx,) = (tmp_path / "captures" / cap.manifest.key).glob("*.ptx")
    assert "DAMAGED" not in invoke("list", store=tmp_path).output
    ptx.unlink()
    listed = invoke("list", store=tmp_path)
    assert listed.exit_code == 0
    row = next(line for line in listed.output.splitlines() if cap.manifest.key in line)
    assert row.endswith(f"DAMAGED: {ptx.name} missing (irscope show {cap.manifest.key} says more)"), row
    data = json.loads(invoke("list", "--json", store=tmp_path).stdout)
    assert [c["missing"] for c in data["captures"]] == [[ptx.name]]
