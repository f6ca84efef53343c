"""Shared fixtures: every test runs with its own store, Triton cache and HOME, never the user's.

The tiers guard themselves: a test without the ``compile`` marker that compiles with Triton (in this process or
in a child), or one without ``slow`` that runs a kernel under Triton's interpreter, fails and says which marker
it lacks (tests/tier_guard/), so ``pytest -m "not compile"`` stays a quick tier that never compiles.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from irscope.request.captures import Request, get_capture, make_request
from irscope.store.store import Capture, Store
from tests.tier_guard import tier_guard

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
GUARD_SITE = Path(tier_guard.__file__).resolve().parent

tier_guard.install()


def repo_path(*more: object) -> str:
    """PYTHONPATH for a child irscope: this checkout (and ``more``) first, then what this process was given (a venv
    that reaches torch or a Triton through PYTHONPATH keeps them)."""
    return os.pathsep.join([str(REPO), *map(str, more), *filter(None, [os.environ.get("PYTHONPATH", "")])])


def invoke(*args: str | Path, store: str | Path | None = None) -> Result:
    """``irscope ARGS [--store STORE]`` run in-process; an exception that escapes the CLI fails the test."""
    from irscope.cli import cli

    return CliRunner().invoke(cli, [*map(str, args), *(["--store", str(store)] if store is not None else [])],
                              catch_exceptions=False)


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
    monkeypatch.delenv("IRSCOPE_RETRY", raising=False)
    monkeypatch.setenv("IRSCOPE_PRECOMPILE", "0")  # no background neighbour compiles unless a test asks for them
    yield tmp_path
    os.environ.pop("TRITON_INTERPRET", None)
    os.environ.pop("IRSCOPE_RETRY", None)  # set by --retry in-process
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


# Tier guard: while a test without a marker runs, its refused compiles (interpreter runs) are written to a file.
_GUARD_LOGS: list[Path] = []  # the session's folder of logs, made by the first guarded test
_GUARD_COUNT = itertools.count()
_GUARDS = (("compile", tier_guard.COMPILE_ENV), ("slow", tier_guard.INTERPRET_ENV))
_SAVED_ENV: dict[str, str | None] = {}


def _guard_start(item: pytest.Item) -> None:
    """Refuse what ``item``'s markers do not allow, here and in its child processes (PYTHONPATH)."""
    names = [env for marker, env in _GUARDS if item.get_closest_marker(marker) is None]
    if not names:
        return
    for env in (*names, "PYTHONPATH"):
        _SAVED_ENV[env] = os.environ.get(env)
    if not _GUARD_LOGS:
        _GUARD_LOGS.append(Path(tempfile.mkdtemp(prefix="irscope-tier-guard-")))
    n = next(_GUARD_COUNT)
    for env in names:
        os.environ[env] = str(_GUARD_LOGS[0] / f"{n}-{env}.log")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH", ""), str(GUARD_SITE)]))


def _guard_check(item: pytest.Item) -> None:
    """Fail ``item`` when it did what its markers do not allow (each refusal is reported once)."""
    for marker, env in _GUARDS:
        log = Path(os.environ[env]) if os.environ.get(env) else None
        if log is None or not log.is_file():
            continue
        done = sorted(set(log.read_text(encoding="utf-8").splitlines()))
        log.unlink()
        pytest.fail(f"{item.nodeid} is not marked `{marker}` but did: {'; '.join(done)}. Mark it "
                    f"(pytestmark = pytest.mark.{marker}, or @pytest.mark.{marker}), so that "
                    f"`pytest -m 'not {marker}'` stays free of it.", pytrace=False)


def _guard_stop() -> None:
    for env, value in _SAVED_ENV.items():
        if value is None:
            os.environ.pop(env, None)
        else:
            os.environ[env] = value
    _SAVED_ENV.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    _guard_start(item)  # before any fixture: a session fixture that compiles for this test counts
    try:
        return (yield)
    finally:
        _guard_check(item)  # raised here, it names the missing marker instead of the error the refusal caused


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    try:
        return (yield)
    finally:
        _guard_check(item)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    try:
        try:
            return (yield)
        finally:
            _guard_check(item)
    finally:
        _guard_stop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    for folder in _GUARD_LOGS:
        shutil.rmtree(folder, ignore_errors=True)


# The files that take a minute or more on one worker (seconds measured in a full run on 2 cores, 2026-12-07;
# test_perf_foreign.py: 361 before its tools' runs were committed, 70 after, measured in one process). xdist
# (--dist loadfile, --no-loadscope-reorder in pyproject.toml) hands out whole files in collection order, one to
# each worker that runs low: these go first, so that the last files handed out are short and both workers finish
# together (by default xdist puts the files with the most tests first, which left test_gather_model.py and
# test_corpus_slice.py, two tests and some 80 s each, among the last).
HEAVY_FILES = {
    "test_docs.py": 344, "test_perf_foreign.py": 70, "test_report.py": 160, "test_first_divergence.py": 122,
    "test_inductor_offline.py": 112, "test_ops_oracle.py": 101, "test_gather_model.py": 83,
    "test_corpus_slice.py": 80, "test_layouts_oracle.py": 69, "test_inductor_real_ops.py": 52,
    "test_html_browser.py": 51, "test_tritons.py": 48, "test_sdpa_choice.py": 46, "test_replay_in_module.py": 45,
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The heavy files first, longest first; within a file and among the others the order is pytest's."""
    order = {id(item): n for n, item in enumerate(items)}
    items.sort(key=lambda item: (-HEAVY_FILES.get(item.path.name, 0), order[id(item)]))


def pytest_configure(config: pytest.Config) -> None:
    """Triton's teardown report (nanobind's leak list after an in-process Gluon compile, irscope/cli/teardown.py)
    goes to a log in the temp dir, not after the summary: at exit, after pytest has restored its captured fds."""
    import atexit

    from irscope.cli.teardown import LOG_NAME, send_teardown_to

    atexit.register(send_teardown_to, Path(tempfile.gettempdir()) / f"irscope-tests-{LOG_NAME}")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """After the doc test: how many of the docs' commands it skipped, and why (their ``# needs ...``)."""
    from tests.browser import BROWSERLESS
    from tests.doc_commands import SKIPPED

    if BROWSERLESS:
        terminalreporter.section("browser tests not run")
        terminalreporter.write_line(BROWSERLESS[0])
    if SKIPPED:
        terminalreporter.section(f"doc commands skipped: {len(SKIPPED)}")
        for line in SKIPPED:
            terminalreporter.write_line(line)


@pytest.fixture(scope="module")
def foreign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, list[dict[str, Any]]]:
    """The foreign validation set's captures in a store of the module's own, and its measured entries."""
    import json

    from tests.derived_cache import open_with_derived
    from tests.perf_foreign_data import DATA

    store = Store(tmp_path_factory.mktemp("foreign") / "store")
    open_with_derived(DATA / "captures.tar.gz", store)
    return store, json.loads((DATA / "measurements.json").read_text())["entries"]


def _capture_program(store: Path, program: Path) -> Any:
    """``irscope capture --target sm90 -- python PROGRAM`` into ``store``, in a child process; its CompletedProcess."""
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": repo_path(), "IRSCOPE_HOME": str(store)}
    return subprocess.run([sys.executable, "-m", "irscope", "capture", "--target", "sm90", "--", sys.executable,
                           str(program)], capture_output=True, text=True, env=env, timeout=600)


@pytest.fixture(scope="session")
def train_program(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """The two-step training program (tests/data/programs/inductor_train_step.py) captured offline for sm90 once a
    session: (its store, the capture's CompletedProcess). About 20 s on two cores."""
    store = tmp_path_factory.mktemp("train-program")
    return store, _capture_program(store, DATA / "programs" / "inductor_train_step.py")


@pytest.fixture(scope="session")
def llama_program(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """Hugging Face's tiny Llama (tests/data/programs/inductor_hf_llama.py) captured offline for sm90 once a session:
    (its store, its ``ProgramRecord``). About 25 s on two cores."""
    from irscope.store.programs import read_program

    store = tmp_path_factory.mktemp("llama-program")
    proc = _capture_program(store, DATA / "programs" / "inductor_hf_llama.py")
    assert proc.returncode == 0, proc.stderr[-3000:]
    return store, read_program(store, "latest")
