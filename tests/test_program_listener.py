"""`irscope capture` keeps recording when the program sets its own compilation listener (as TritonParse does)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from irscope.store.store import Store
from tests.conftest import DATA, repo_path

pytestmark = pytest.mark.compile
SCRIPT = DATA / "programs" / "own_listener.py"


def capture(store, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": repo_path(), "IRSCOPE_HOME": str(store)}
    return subprocess.run([sys.executable, "-m", "irscope", "capture", "--target", "sm90", "--", sys.executable,
                           str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=600)


def line_of(text: str) -> int:
    return next(n for n, line in enumerate(SCRIPT.read_text().splitlines(), 1) if text in line)


def test_the_programs_listeners_are_chained_not_replacing_ours(tmp_path):
    proc = capture(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert sorted(c.manifest.kernel for c in Store(tmp_path).captures()) == [
        "first_kernel", "second_kernel", "third_kernel"]
    # Its listeners were still called, each once per compile, the chained one calling the one it found.
    assert "tracer saw first_kernel,second_kernel; counter saw second_kernel" in proc.stdout
    set_at = f"{SCRIPT}:{line_of('knobs.compilation.listener = tracer')}"
    assert f"irscope: note: the program set its own Triton compilation listener (tracer) at {set_at};" in proc.stderr
    assert f"cleared Triton's compilation listener at {SCRIPT}:{line_of('listener = None')}" in proc.stderr


def test_a_program_that_takes_our_listener_out_is_told_why_nothing_was_captured(tmp_path):
    proc = capture(tmp_path, "--new-knobs")
    assert proc.returncode == 1
    assert Store(tmp_path).captures() == []
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("irscope: the program compiled no Triton kernel; the program replaced irscope's "
                           "compilation listener"), proc.stderr
