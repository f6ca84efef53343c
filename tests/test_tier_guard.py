"""The quick tier guards itself: a compile (an interpreter run) where the test's markers do not allow one is refused.

These tests start irscope in a child process with the guard's variables pointing at their own log, so the refusal
they provoke is theirs to check, not a failure of this test (tests/conftest.py reads only the test's own log).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import GUARD_SITE, repo_path
from tests.tier_guard import tier_guard


def _irscope(tmp_path: Path, env_name: str, *args: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """``python -m irscope ARGS`` with the guard ``env_name`` set to a log of its own; the run and the log's lines."""
    log = tmp_path / "refused.log"
    env = {k: v for k, v in os.environ.items() if k not in (tier_guard.COMPILE_ENV, tier_guard.INTERPRET_ENV)}
    env.update({"PYTHONPATH": repo_path(GUARD_SITE), "IRSCOPE_HOME": str(tmp_path / "store"), env_name: str(log)})
    done = subprocess.run([sys.executable, "-m", "irscope", *args], capture_output=True, text=True, env=env,
                          timeout=300)
    return done, log.read_text(encoding="utf-8").splitlines() if log.is_file() else []


def test_a_compile_in_a_child_process_is_refused_and_named(tmp_path: Path) -> None:
    done, refused = _irscope(tmp_path, tier_guard.COMPILE_ENV, "show", "vector_add", "--target", "sm80")
    assert done.returncode == 1, done.stderr
    assert "in a test without the `compile` marker" in done.stderr
    assert len(refused) == 1 and refused[0].startswith("triton.compile of add_kernel (pid ")
    assert not list((tmp_path / "store").glob("captures/*")), "a refused compile stores nothing"


def test_an_interpreter_run_in_a_child_process_is_refused_and_named(tmp_path: Path) -> None:
    done, refused = _irscope(tmp_path, tier_guard.INTERPRET_ENV, "run", "vector_add", "--device", "interpreter")
    assert done.returncode != 0
    assert refused and all(r.startswith("an interpreter run of add_kernel (pid ") for r in refused)


def test_the_guard_only_refuses_while_its_variable_is_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def compile(src: object) -> str:
        calls.append(str(src))
        return "compiled"

    guarded = tier_guard._guarded(compile, "IRSCOPE_TEST_SAMPLE_GUARD", "compile", "triton.compile of", 0)
    assert tier_guard._guarded(guarded, "IRSCOPE_TEST_SAMPLE_GUARD", "compile", "again", 0) is guarded
    monkeypatch.delenv("IRSCOPE_TEST_SAMPLE_GUARD", raising=False)
    assert guarded("k") == "compiled" and calls == ["k"]
    monkeypatch.setenv("IRSCOPE_TEST_SAMPLE_GUARD", str(tmp_path / "log"))
    with pytest.raises(RuntimeError, match="without the `compile` marker"):
        guarded("k")
    assert calls == ["k"]
    assert (tmp_path / "log").read_text(encoding="utf-8").startswith("triton.compile of str (pid ")
