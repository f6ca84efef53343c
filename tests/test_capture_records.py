"""What a capture is keyed and described by (``store/manifest.py``), and the typed records that cross the process
boundary of ``irscope capture`` (``compile/records.py``): the hook's settings and the launch records."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from irscope.compile import program
from irscope.compile.records import (
    SETTINGS_ENV,
    GpuTarget,
    HookSettings,
    LaunchRecord,
    OfflineTarget,
    RecordRefused,
    SameCodeNote,
)
from irscope.model.targets import TARGETS
from irscope.store.manifest import METADATA_KEYS, capture_key, new_manifest
from irscope.store.manifest_fields import KEY_RE
from irscope.store.store import Store
from tests.conftest import REPO, repo_path

# The key payload of the bundled matmul for sm90, config 0, as kernels/matmul.py was at ef5514b.
MATMUL_PAYLOAD = {
    "kernel_sha": "55bd5b5248713f1a86d2bc15a09b19742930182022a36be55c6368a0952c3c66", "function": "matmul_kernel",
    "config": {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "num_stages": 3,
               "num_warps": 8},
    "sizes": {"M": 4096, "N": 4096, "K": 4096}, "dtype": "float16"}


@pytest.fixture
def no_compile_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No environment variable that enters capture keys (the suite's own TRITON_CACHE_DIR/HOME do not)."""
    for name in list(os.environ):
        if name.startswith(("TRITON_", "MLIR_", "LLVM_", "AMDGCN_", "NVPTX_", "DISABLE_", "ENABLE_")):
            monkeypatch.delenv(name)


def test_capture_keys_are_those_irscope_made_before(no_compile_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # Pinned: computed with irscope at ef5514b (store.capture_key, and program.py's own f-string for programs).
    sm90, gfx942 = TARGETS["sm90"], TARGETS["gfx942"]
    assert capture_key("matmul", MATMUL_PAYLOAD, sm90, 0, version="3.9.0") == "matmul-sm90-c0-98b146d8164907ca754e"
    variant = {"variant_of": "add_kernel-sm90-c0-p-0123456789abcdef0123", "set": {"num_warps": 8}}
    assert capture_key("add_kernel", variant, gfx942, 2, version="3.9.0") == "add_kernel-gfx942-c2-ba68a7b0010d88a07547"
    triton_hash = "5516bf368d6bc6957d6267c968da09a17024d536ac7609c9268ad342971ff0e7"
    assert capture_key("add_kernel", {}, sm90, 0, triton_hash=triton_hash) == \
        "add_kernel-sm90-c0-p-5516bf368d6bc6957d62"
    monkeypatch.setenv("TRITON_DEFAULT_FP_FUSION", "0")  # a variable that changes what Triton compiles
    assert capture_key("matmul", MATMUL_PAYLOAD, sm90, 0, version="3.9.0") == "matmul-sm90-c0-232defe81ce90a625695"
    assert capture_key("add_kernel", {}, sm90, 0, triton_hash=triton_hash) == \
        "add_kernel-sm90-c0-p-5516bf368d6bc6957d62"


def test_the_bundled_matmul_key_is_its_payloads() -> None:
    from irscope.compile.job import CaptureJob
    from irscope.model.kernels import bundled_dir, read_kernel

    matmul = read_kernel(bundled_dir() / "matmul.py", bundled=True)
    job = CaptureJob(kernel=matmul, target=TARGETS["sm90"], config_index=0, sizes=dict(matmul.sizes))
    assert job.key() == capture_key("matmul", matmul.key_payload("cuda", 0, dict(matmul.sizes)), TARGETS["sm90"], 0)
    assert KEY_RE.match(job.key())


def test_the_metadata_keys_are_written_once() -> None:
    defined = [p for p in (REPO / "irscope").rglob("*.py") if "METADATA_KEYS = " in p.read_text(encoding="utf-8")]
    assert defined == [REPO / "irscope" / "store" / "manifest.py"]


def test_new_manifest_keeps_tritons_metadata_keys_as_plain_json() -> None:
    meta = {"name": "k", "hash": "ab" * 32, "num_warps": 4, "cluster_dims": (1, 1, 1), "profile_scratch_size": 0,
            "target": object(), "extern_libs": [["libdevice", "/x"]]}
    m = new_manifest(key="k-sm90-c0-p-" + "ab" * 10, kernel="k", kernel_path="k.py", function="k",
                     target=TARGETS["sm90"], config_index=0, config={"BLOCK": 64}, triton_version="3.9.0",
                     signature={}, constexprs={}, attrs={}, options={"num_warps": 4}, metadata=meta,
                     compile_seconds=0.123456, stage_seconds={"ttir": 0.011111}, files={}, origin="program")
    assert m.metadata == {"name": "k", "hash": "ab" * 32, "num_warps": 4, "cluster_dims": [1, 1, 1],
                          "profile_scratch_size": 0}
    assert list(m.metadata) == [k for k in METADATA_KEYS if k in m.metadata]
    assert (m.compile_seconds, m.stage_seconds) == (0.1235, {"ttir": 0.0111})
    assert (m.target, m.backend, m.arch, m.warp_size) == ("sm90", "cuda", 90, 32) and m.created


# ---- the hook's settings ----


def test_the_settings_travel_as_one_json_value_and_come_back_equal() -> None:
    settings = HookSettings(session="/tmp/s", target=OfflineTarget(backend="hip", arch="gfx942", warp_size=64,
                                                                   gpu="mi300x"), autotune="all", jobs=3,
                            same_code=False)
    assert HookSettings.from_env(settings.to_env()) == settings
    online = HookSettings(session="/tmp/s")
    assert HookSettings.from_env(online.to_env()) == online and online.target is None


@pytest.mark.parametrize(("text", "why"), [
    ('{"version": 2, "session": "/tmp/s"}', "is of version 2; this irscope reads version 1"),
    ('{"session": "/tmp/s"}', "is of no version; this irscope reads version 1"),
    ("[1]", "holds a list, not an object"),
    ("{not json", "is not JSON"),
    ('{"version": 1, "session": "/tmp/s", "jobs": 0}', "field 'jobs' must be an integer >= 1, not an integer"),
    ('{"version": 1, "session": "/tmp/s", "target": {"backend": "cuda", "arch": 90}}', "field 'target.warp_size'"),
])
def test_settings_of_another_version_or_damaged_are_refused_with_one_line(text: str, why: str) -> None:
    with pytest.raises(RecordRefused) as caught:
        HookSettings.from_env(text)
    assert why in str(caught.value) and "\n" not in str(caught.value)


def _run_under_hook(tmp_path: Path, settings: str, code: str) -> subprocess.CompletedProcess[str]:
    site = REPO / "irscope" / "compile" / "_site"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), repo_path()]),
           SETTINGS_ENV: settings}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                          cwd=tmp_path)


def test_a_process_given_settings_of_another_version_runs_unrecorded_and_says_so_in_one_line(tmp_path: Path) -> None:
    proc = _run_under_hook(tmp_path, json.dumps({"version": 7, "session": str(tmp_path)}),
                           "import sys; print('ran', 'triton' in sys.modules)")
    assert proc.returncode == 0 and proc.stdout == "ran False\n"  # refused before Triton was imported
    assert proc.stderr.count("\n") == 1 and "hooks not installed" in proc.stderr
    assert "the capture settings record ($IRSCOPE_CAPTURE) is of version 7; this irscope reads version 1" in proc.stderr


@pytest.mark.compile
def test_the_program_gets_one_variable_for_the_hook(tmp_path: Path) -> None:
    script = tmp_path / "env.py"
    script.write_text("import json, os, sys\n"
                      "print(json.dumps(sorted(k for k in os.environ if k.startswith('IRSCOPE_CAPTURE'))))\n"
                      "print(os.environ['IRSCOPE_CAPTURE'], file=sys.stderr)\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": repo_path(), "IRSCOPE_HOME": str(tmp_path / "store")}
    proc = subprocess.run([sys.executable, "-m", "irscope", "capture", "--target", "gfx942", "--gpu", "mi300x",
                           "--autotune", "first", "-j", "3", "--no-same-code", "--", sys.executable, str(script)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert json.loads(proc.stdout.splitlines()[0]) == ["IRSCOPE_CAPTURE"]
    line = next(text for text in proc.stderr.splitlines() if text.startswith("{"))
    settings = HookSettings.from_env(line)
    assert settings.target == OfflineTarget(backend="hip", arch="gfx942", warp_size=64, gpu="mi300x")
    assert (settings.autotune, settings.jobs, settings.same_code) == ("first", 3, False)
    assert "compiled no Triton kernel" in proc.stderr


# ---- the launch records ----


def _record(**changes: object) -> LaunchRecord:
    base = LaunchRecord(name="k", hash="ab" * 32, target=GpuTarget(backend="cuda", arch=90, warp_size=32),
                        config_index=1, config={"BLOCK": 64}, signature={"x": "*fp32"}, metadata={"num_stages": 2},
                        stage_seconds={"ttir": 0.5}, same_code=SameCodeNote(owner="cd" * 32, key="e" * 64,
                                                                            ttgir="/s/t.ttgir"))
    return LaunchRecord.from_json({**base.to_json(), **changes})


def test_a_launch_record_comes_back_equal_from_its_json() -> None:
    record = _record()
    assert LaunchRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert record.same_code == SameCodeNote(owner="cd" * 32, key="e" * 64, ttgir="/s/t.ttgir")
    plain = LaunchRecord(name="k", hash="ab" * 32, target=None)
    assert "same_code" not in plain.to_json() and LaunchRecord.from_json(plain.to_json()) == plain


@pytest.mark.parametrize(("changes", "why"), [
    ({"version": 2}, "the launch record is of version 2; this irscope reads version 1"),
    ({"config_index": "1"}, "field 'config_index' must be an integer >= 0 or null, not a string"),
    ({"files": {"k.ttir": 3}}, "field 'files' must be an object of file paths"),
    ({"target": {"backend": "cuda", "arch": 90, "warp_size": "32"}}, "field 'target.warp_size' must be an integer"),
    ({"same_code": {"owner": "x"}}, "field 'same_code' must be an {owner, key, ttgir} object"),
])
def test_a_launch_record_of_another_version_or_damaged_is_refused_with_one_line(changes: dict[str, object],
                                                                                why: str) -> None:
    with pytest.raises(RecordRefused) as caught:
        _record(**changes)
    assert why in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(RecordRefused, match="holds a list, not an object"):
        LaunchRecord.from_json([1])


def test_ingest_refuses_a_record_of_another_version_with_one_line(tmp_path: Path) -> None:
    session = tmp_path / "session"
    (session / "records").mkdir(parents=True)
    (session / "records" / "1.json").write_text(json.dumps({**_record().to_json(), "version": 9}), encoding="utf-8")
    (session / "records" / "2.json").write_text("[1, 2]", encoding="utf-8")  # not a record: skipped
    captures, failures = program._store_records(session, Store(tmp_path / "store"), "prog")
    assert captures == []
    assert failures == ["k: not stored: the launch record is of version 9; this irscope reads version 1 (written "
                        "by another irscope?)"]


@pytest.mark.parametrize("length", [55, 58, 75])
def test_a_program_kernel_with_a_long_name_is_stored(tmp_path: Path, length: int) -> None:
    # Inductor names kernels after the ops they fuse (triton_per_fused__native_batch_norm_legit_functional_add_0 is
    # 58 characters); keys kept names of at most 55 before the config index went into program keys' grammar.
    session = tmp_path / "session"
    (session / "records").mkdir(parents=True)
    name = ("triton_per_fused_" + "x" * 80)[:length]
    record = LaunchRecord(name=name, hash="ab" * 32, target=GpuTarget(backend="cuda", arch=90, warp_size=32))
    (session / "records" / "1.json").write_text(json.dumps(record.to_json()), encoding="utf-8")
    captures, failures = program._store_records(session, Store(tmp_path / "store"), "prog")
    assert failures == [] and [c.manifest.key for c in captures] == [f"{name[:60]}-sm90-c0-p-{'ab' * 10}"]
    assert [c.manifest.kernel for c in Store(tmp_path / "store").captures()] == [name]
