"""Per-pass dumps of recorded kernels: a failed compile is never the dump, and the replay runs no program code."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from irscope.store.passdump import load_dump, load_failed_dump
from irscope.store.passwrite import FAILED, index_path, write_dump
from irscope.store.store import Store
from tests.conftest import DATA, repo_path

pytestmark = pytest.mark.compile
PROGRAMS = DATA / "programs"
# Kills the per-pass worker as the kernel's OOM killer would, before it prints anything: the worker
# runs in a directory named irscope-worker-*.
KILLER = '''import os, signal
if os.environ.get("IRSCOPE_TEST_KILL_WORKER") and "irscope-worker-" in os.getcwd():
    os.kill(os.getpid(), signal.SIGKILL)
'''


def run(store: Path, *args: str, env: dict[str, str] | None = None,
        path: tuple[Path, ...] = ()) -> subprocess.CompletedProcess[str]:
    """``python -m irscope ARGS`` on ``store``, with ``path`` on PYTHONPATH after the repository."""
    full = {k: v for k, v in os.environ.items() if k != "IRSCOPE_HOME"}
    full.update({"PYTHONPATH": repo_path(*path), "IRSCOPE_HOME": str(store), **(env or {})})
    return subprocess.run([sys.executable, "-m", "irscope", *args], capture_output=True, text=True, env=full,
                          cwd=store.parent, timeout=600)


def last_ttgir_pass(passes_json: str) -> int:
    rows = json.loads(passes_json)["passes"]
    return [r["index"] for r in rows if r["stage"] == "ttgir"][-1]


def test_a_failed_per_pass_compile_is_not_the_dump_and_is_retried(tmp_path: Path) -> None:
    store = tmp_path / "store"
    killer = tmp_path / "killer"
    killer.mkdir()
    (killer / "sitecustomize.py").write_text(KILLER)
    proc = run(store, "capture", "--target", "sm90", "--", sys.executable, str(PROGRAMS / "two_kernels.py"))
    assert proc.returncode == 0, proc.stderr
    (capture,) = [c for c in Store(store).captures() if c.manifest.kernel == "add_kernel"]

    died = run(store, "passes", "add_kernel", "--json", env={"IRSCOPE_TEST_KILL_WORKER": "1"}, path=(killer,))
    assert died.returncode == 1, died.stdout + died.stderr
    assert "the compile process died" in died.stderr and "nothing is stored as its dump" in died.stderr
    assert "Traceback" not in died.stderr
    assert not index_path(capture.path, "mlir").exists() and load_dump(capture.path) is None
    failed = load_failed_dump(capture.path)
    assert failed is not None and "died" in failed.info.error

    # Each request compiles again until one succeeds; nothing answers "0 passes" from the failure.
    again = run(store, "diff", "add_kernel", "--pass", "tritongpu-coalesce", env={"IRSCOPE_TEST_KILL_WORKER": "1"},
                path=(killer,))
    assert again.returncode == 1 and "again with per-pass dumps" in again.stderr, again.stderr
    assert "unknown pass" not in again.stderr
    healed = run(store, "passes", "add_kernel", "--json")
    assert healed.returncode == 0, healed.stderr
    assert "again with per-pass dumps" in healed.stderr
    data = json.loads(healed.stdout)
    assert len(data["passes"]) > 20 and not data["problems"] and data["complete"]
    assert not index_path(capture.path, "mlir", FAILED).exists()
    diff = run(store, "diff", "add_kernel", "--pass", "tritongpu-coalesce")
    assert diff.returncode == 0, diff.stderr

    # --recapture of a recorded kernel compiles its per-pass dump again (its artifacts come from the program).
    before = load_dump(capture.path)
    assert before is not None
    redo = run(store, "passes", "add_kernel", "--recapture", "--json")
    assert redo.returncode == 0, redo.stderr
    after = load_dump(capture.path)
    assert after is not None and after.info.file != before.info.file
    assert [p.name for p in after.index.passes] == [p.name for p in before.index.passes]


def test_a_failed_dump_never_reads_as_the_dump(tmp_path: Path) -> None:
    text = (b"\n// -----// irscope stage-begin ttir t=0.1\n"
            b"// -----// IR Dump Before Inliner (inline) ('builtin.module' operation) //----- //\nmodule {\n}\n")

    def meta(error: str) -> object:
        return lambda: {"triton_version": "3.9.0", "error": error, "compile_seconds": 1.0, "created": ""}

    write_dump(tmp_path, "mlir", [text], meta("the compile process died (exit status -9)"))
    assert load_dump(tmp_path) is None
    failed = load_failed_dump(tmp_path)
    assert failed is not None and [p.name for p in failed.index.passes] == ["inline"]
    assert not list(tmp_path.glob("passes.mlir.*"))  # nothing an older irscope would read as the dump either
    # An index an older irscope wrote for a failed compile counts as no dump.
    write_dump(tmp_path, "mlir", [text], meta(""))
    good = load_dump(tmp_path)
    assert good is not None and load_failed_dump(tmp_path) is None
    index = index_path(tmp_path, "mlir")
    data = json.loads(index.read_text())
    index.write_text(json.dumps({**data, "error": "Triton could not compile the kernel"}))
    assert load_dump(tmp_path) is None


def test_a_recorded_package_kernel_replays_without_its_package(tmp_path: Path) -> None:
    packages = tmp_path / "site"
    shutil.copytree(DATA / "pkgs" / "setup_kernels", packages / "setup_kernels")
    marker = tmp_path / "imports.txt"
    store = tmp_path / "store"
    env = {"IRSCOPE_TEST_MARKER": str(marker)}
    proc = run(store, "capture", "--target", "sm90", "--", sys.executable, str(PROGRAMS / "package_program.py"),
               env=env, path=(packages,))
    assert proc.returncode == 0, proc.stderr
    assert marker.read_text() == "imported\n"
    # The package is gone (and would refuse to import anyway): the replay needs only the store.
    shutil.rmtree(packages)
    env["SETUP_KERNELS_BROKEN"] = "1"
    passes = run(store, "passes", "square_shift_kernel", "--json", env=env, path=(packages,))
    assert passes.returncode == 0, passes.stderr
    assert marker.read_text() == "imported\n"
    rows = json.loads(passes.stdout)["passes"]
    assert [r["name"] for r in rows[:2]] == ["inline", "canonicalize"] and not json.loads(passes.stdout)["problems"]
    # The replay is the recorded compile: the last TTGIR pass's output is the stored TTGIR, locations and all
    # (the helper from the other module is inlined with its own file and line).
    diff = run(store, "diff", "square_shift_kernel", "--keep-locs", "--from", "ttgir", "--to",
               str(last_ttgir_pass(passes.stdout)), env=env, path=(packages,))
    assert diff.returncode == 0 and "are identical after normalisation" in diff.stdout, diff.stdout + diff.stderr
    (capture,) = Store(store).captures()
    assert "helpers.py" in next(capture.path.glob("*.ttgir")).read_text()
