"""Shared fixtures: every test runs with its own store, Triton cache and HOME, never the user's."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from irscope.request.captures import Request, get_capture, make_request
from irscope.store.store import Capture

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def repo_path(*more: object) -> str:
    """PYTHONPATH for a child irscope: this checkout (and ``more``) first, then what this process was given (a venv
    that reaches torch or a Triton through PYTHONPATH keeps them)."""
    return os.pathsep.join([str(REPO), *map(str, more), *filter(None, [os.environ.get("PYTHONPATH", "")])])


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point IRSCOPE_HOME, TRITON_CACHE_DIR, TRITON_HOME and HOME into the test's tmp dir.

    ``irscope run`` in-process (CliRunner) sets TRITON_INTERPRET for the rest of the process, as the CLI
    does for its own; it is removed after each test so session fixtures that compile never see it.
    """
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("IRSCOPE_HOME", str(tmp_path / "irscope-home"))
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "user-triton-cache"))
    monkeypatch.setenv("TRITON_HOME", str(home))
    monkeypatch.delenv("IRSCOPE_TARGET", raising=False)
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    monkeypatch.delenv("IRSCOPE_TRITON", raising=False)
    monkeypatch.setenv("IRSCOPE_PRECOMPILE", "0")  # no background neighbour compiles unless a test asks for them
    yield tmp_path
    os.environ.pop("TRITON_INTERPRET", None)
    os.environ.pop("IRSCOPE_TRITON", None)  # set by tritons.select() in a test, after monkeypatch looked
    from irscope.toolchain import tritons
    tritons.reset()  # a test that chose another Triton (--triton in-process) leaves no choice behind


@pytest.fixture(scope="session")
def shared_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One store for the whole session, so each kernel/target is compiled once."""
    return tmp_path_factory.mktemp("shared-store")


class Captures:
    """Gets captures from the session store, compiling each kernel/target/config once."""

    def __init__(self, store: Path) -> None:
        self.store = store

    def request(self, kernel: str, target: str, config: int = 0) -> Request:
        return make_request(kernel, target, config)

    def __call__(self, kernel: str, target: str, config: int = 0) -> Capture:
        return get_capture(self.request(kernel, target, config), str(self.store))


@pytest.fixture(scope="session")
def captures(shared_store: Path) -> Captures:
    """``captures("matmul", "sm90")`` -> a real capture made offline with the installed Triton."""
    return Captures(shared_store)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """After the doc test: how many of the docs' commands it skipped, and why (their ``# needs ...``)."""
    from tests.doc_commands import SKIPPED

    if SKIPPED:
        terminalreporter.section(f"doc commands skipped: {len(SKIPPED)}")
        for line in SKIPPED:
            terminalreporter.write_line(line)
