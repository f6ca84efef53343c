"""Docs stay tied to the code: every command is in the CLI reference, and the README's commands are real."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from irscope.cli import COMMANDS
from irscope.cli.reference import render_reference
from tests.conftest import REPO, repo_path
from tests.doc_commands import (
    GENERATED,
    RUN_KINDS,
    SESSION_KINDS,
    SKIPPED,
    DocCommand,
    blocks,
    collect,
    documents,
    mismatch,
    reference_examples,
    unmarked_needs,
)


def test_cli_reference_is_current():
    on_disk = (REPO / "docs" / "cli-reference.md").read_text()
    assert on_disk == render_reference(), "regenerate: python -m irscope.cli.reference > docs/cli-reference.md"
    for name in COMMANDS:
        assert f"## irscope {name}\n" in on_disk


def test_readme_starts_with_two_setup_commands_and_the_main_job():
    readme = (REPO / "README.md").read_text()
    blocks = re.findall(r"```(?:bash|sh)?\n(.*?)```", readme, re.S)
    setup = [line for line in blocks[0].splitlines() if line.strip() and not line.startswith("#")]
    assert len(setup) == 2
    assert "pip install" in setup[0] and setup[1].strip() == "python -m pytest"
    assert "irscope show matmul --stage ttgir" in blocks[1]
    ci = (REPO / ".ci" / "run").read_text()
    assert setup[0] in ci and setup[1] in ci


@pytest.mark.compile
def test_the_testing_guide_example_passes(tmp_path):
    """docs/examples/test_pin_compiler.py is the file users copy: it must pass as written."""
    env = {**os.environ, "IRSCOPE_HOME": str(tmp_path), "PYTHONPATH": repo_path()}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(REPO / "docs" / "examples" / "test_pin_compiler.py")],
                          capture_output=True, text=True, env=env, timeout=900, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "3 passed" in proc.stdout


# ---- the docs' commands, run as written (tests/doc_commands.py describes the convention) ----

SHOWN_TRITON = "3.9."  # the Triton whose output the docs show
_TIMEOUT = 600  # one command; the slowest (resources --all-configs: 8 compiles) takes about a minute here


@dataclass(frozen=True)
class Sandbox:
    """A copy of the repository to run the docs' commands in, with one store for the whole session."""

    repo: Path
    env: dict[str, str]


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Sandbox:
    """A copy of the repository, an ``irscope`` on PATH that runs the copy's code, a fresh store and HOME."""
    root = tmp_path_factory.mktemp("docs-run")
    repo = root / "repo"
    shutil.copytree(REPO, repo, ignore=shutil.ignore_patterns(
        ".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", "*.egg-info", "build", "dist"))
    bin_dir = root / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "irscope"
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m irscope "$@"\n')
    shim.chmod(0o755)
    (root / "home").mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "IRSCOPE_TARGET", "TRITON_INTERPRET", "IRSCOPE_DEBUG", "PAGER")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(repo), HOME=str(root / "home"),
               IRSCOPE_HOME=str(root / "store"), TRITON_CACHE_DIR=str(root / "triton-cache"),
               TRITON_HOME=str(root / "home"))
    return Sandbox(repo, env)


def _run_plain(command: DocCommand, box: Sandbox) -> tuple[int, str]:
    """Run a command line through bash in the copy, stdin and stdout not a terminal; its status and output."""
    proc = subprocess.run(["bash", "-c", command.text], cwd=box.repo, env=box.env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=_TIMEOUT)
    return proc.returncode, proc.stdout


def _tui_title(command: DocCommand) -> str:
    """What the TUI's title shows for ``irscope tui KERNEL [--target T] [--config N]``: ``matmul · sm80 · config 2``.

    Bare ``irscope`` and ``irscope tui`` open the newest capture, whichever it is: `` · config ``.
    """
    words = shlex.split(command.text, comments=True)[1:]
    if words[:1] == ["tui"]:
        words = words[1:]
    if "--report" in words:
        return "irscope report"  # the report view's title (irscope.tui.report_app)
    if not words or words[0].startswith("-"):
        return " · config "
    options = dict(zip(words[1::2], words[2::2], strict=False))
    target = options.get("--target", options.get("-t"))
    config = options.get("--config", options.get("-c"))
    title = f"{words[0]} · " + (f"{target} · " if target else "")
    return title + (f"config {config}" if config and target else "")


def _run_tui(command: DocCommand, box: Sandbox) -> tuple[int, str]:
    """Run a TUI command on a pseudo-terminal, wait until it shows its kernel, quit with q; status and screen."""
    from tests.test_tui_terminal import Terminal

    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in box.env.items() if re.fullmatch(r"\w+", k))
    term = Terminal()
    try:
        term.start(f"cd {shlex.quote(str(box.repo))} && exec env -i {env} TERM=xterm-256color "
                   f"bash -c {shlex.quote(command.text)}")
        screen = term.wait_for(_tui_title(command), timeout=120)
        deadline = time.monotonic() + 60
        while term.running() and time.monotonic() < deadline:
            term.keys("q")  # again until it quits: the first may come before the app listens for keys
            time.sleep(1)
        if term.running():
            return -1, f"still running 60 s after q; the screen:\n{term.screen()}"
        return term.status if term.status is not None else -1, screen
    finally:
        term.kill()


def _triton_version() -> str:
    """The installed Triton's version, read without importing it."""
    from importlib.metadata import version

    return version("triton")


def _is_tui(command: DocCommand) -> bool:
    """Whether the command opens the terminal UI (`irscope tui ...`, or bare `irscope`)."""
    words = shlex.split(command.text, comments=True)
    return words == ["irscope"] or words[1:2] == ["tui"]


@pytest.mark.compile
@pytest.mark.parametrize("doc", documents(REPO))
def test_the_docs_commands_run_as_written(doc: str, sandbox: Sandbox) -> None:
    """Every irscope command of the doc exits as documented and prints the output the doc shows.

    The docs run in order, README.md first, in one store, as a reader would follow them: a doc run alone
    (``-k user-kernels``) may miss a capture an earlier one made. The output the docs show is Triton
    3.9's (SSA names, line numbers); with another Triton only the exit statuses are checked, and the
    run says so.
    """
    commands, problems = collect(REPO, doc)
    failures = list(problems)
    triton = _triton_version()
    compare = triton.startswith(SHOWN_TRITON)
    if not compare and any(c.expected for c in commands):
        SKIPPED.append(f"{doc}: shown output not compared: the docs show Triton {SHOWN_TRITON}'s, this is {triton}")
    for command in commands:
        if command.needs:
            SKIPPED.append(f"{command.where}: needs {command.needs}: {command.text.split('#')[0].strip()}")
            continue
        if "without Graphviz's dot" in command.text and shutil.which("dot"):
            SKIPPED.append(f"{command.where}: shows what happens without Graphviz's dot, which is installed here")
            continue
        try:
            status, output = (_run_tui if _is_tui(command) else _run_plain)(command, box=sandbox)
        except (subprocess.TimeoutExpired, AssertionError) as exc:
            failures.append(f"{command.where}: {command.text}\n  did not finish: {exc}")
            continue
        if status != command.status:
            failures.append(f"{command.where}: {command.text}\n  exit status {status}, the doc says "
                            f"{command.status}; output:\n{output[-2000:]}")
        elif compare and command.expected and (problem := mismatch(command.expected, output)):
            failures.append(f"{command.where}: {command.text}\n  the doc shows output that is {problem}")
    assert not failures, "\n\n".join(failures)


def test_every_doc_command_is_in_a_block_the_doc_test_runs() -> None:
    """No irscope command hides in a block kind the collector skips; the generated reference has no shell blocks."""
    problems = [p for doc in documents(REPO) for p in collect(REPO, doc)[1]]
    assert not problems, "\n".join(problems)
    for generated in GENERATED:
        kinds = {b.kind for b in blocks((REPO / generated).read_text())}
        assert not kinds & {*RUN_KINDS, *SESSION_KINDS}, f"{generated} now has shell blocks: run them too"
    commands = [c for doc in documents(REPO) for c in collect(REPO, doc)[0]]
    assert len([c for c in commands if not c.needs]) > 50


def test_the_collector_and_matcher_catch_drift(tmp_path: Path) -> None:
    """A stale line, a command in an ignored block and a wrong status are caught; elisions are honoured."""
    (tmp_path / "d.md").write_text(
        "```\nirscope show matmul\n```\n\n"
        "```console\n$ irscope layouts matmul  # exit 2\n  line 185: ... (/.../matmul.py:89:5)\n...\nend\n```\n"
        "```bash\nirscope bench   # needs a GPU: timing\nirscope list\n```\n")
    commands, problems = collect(tmp_path, "d.md")
    assert problems == ["d.md:2: an irscope command in a ``` block, which the doc test does not run "
                        "(use ```bash, or ```console with its output)"]
    layouts, bench, listing = commands
    assert (layouts.line, layouts.status, layouts.needs) == (6, 2, None)
    assert (bench.needs, listing.needs, listing.expected) == ("a GPU", None, ())
    real = "x\n  line 185: %2 #mma -> #blocked (/tmp/r/kernels/matmul.py:90:5)\na\nb\nend\n"
    assert mismatch(layouts.expected, real) is not None  # 89:5 shown, 90:5 printed
    assert mismatch(layouts.expected, real.replace("90:5", "89:5")) is None
    assert mismatch(("a", "end"), real) is not None  # consecutive unless a `...` line separates them
    assert mismatch(("a", "...", "end"), real) is None
    assert mismatch(("end", "...", "a"), real) is not None  # in order
    assert mismatch(("b   ",), real) is None  # trailing spaces do not count


def test_commands_that_need_another_triton_say_so() -> None:
    """A command of the docs or of a --help example that names a Triton not installed here carries ``# needs``."""
    installed = _triton_version()
    commands = [c for doc in documents(REPO) for c in collect(REPO, doc)[0]]
    examples = [c for doc in GENERATED for c in reference_examples(REPO, doc)]
    assert len(examples) > 30 and any("--triton" in c.text for c in examples)
    problems = [f"{c.where}: {c.text}\n  {why}" for c in [*commands, *examples]
                if (why := unmarked_needs(c, installed))]
    assert not problems, "\n".join(problems)


def test_the_needs_check_reads_wrapped_examples_and_versions(tmp_path: Path) -> None:
    """A wrapped --help example is read whole; another Triton or an install without ``# needs`` is caught."""
    (tmp_path / "r.md").write_text(
        "```\n  Example:\n\n      irscope show k.py:f --args \"x=fp32[4],\n      n=4\" --constexpr B=4\n\n"
        "      irscope --triton 3.6.0 check facts.json\n\n      irscope compare m --triton=3.9.0 --vs-triton 3.5.1"
        "   # needs Triton 3.5.1\n\n      irscope triton install 3.9.0\n```\n")
    show, check, compare, install = reference_examples(tmp_path, "r.md")
    assert show.text == 'irscope show k.py:f --args "x=fp32[4], n=4" --constexpr B=4' and show.line == 4
    assert [unmarked_needs(c, "3.9.0") is None for c in (show, check, compare, install)] == [True, False, True, False]
    assert "Triton 3.6.0" in (unmarked_needs(check, "3.9.0") or "")
    assert unmarked_needs(check, "3.6.0") is None


def test_reference_examples_that_cannot_run_from_a_clone_say_so(tmp_path: Path) -> None:
    """A --help example on a GPU (`irscope bench`), or reading the reader's file or an archive the repository lacks,
    carries ``# needs``: `bench ... --plot`, `trust captures.tar.gz`, `show my_kernels.py:...`, `capture -- python
    my_script.py` failed on a fresh clone unmarked."""
    installed = _triton_version()
    examples = [c for doc in GENERATED for c in reference_examples(REPO, doc)]
    problems = [f"{c.where}: {c.text}\n  {why}" for c in examples if (why := unmarked_needs(c, installed, REPO))]
    assert not problems, "\n".join(problems)
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels" / "k.py").write_text("")
    (tmp_path / "r.md").write_text(
        "```\n      irscope bench matmul --plot m.png\n\n      irscope trust captures.tar.gz\n\n"
        "      irscope show mine.py:add --args \"n=4\"\n\n      irscope capture -- python my_script.py --size 4\n\n"
        "      irscope show kernels/k.py:add --args \"n=4\"\n\n      irscope export m -o a.tar.gz && "
        "irscope open a.tar.gz\n\n"
        "      irscope perf matmul --gpu native\n\n      irscope trust captures.tar.gz   # needs an archive\n```\n")
    whys = [unmarked_needs(c, "3.9.0", tmp_path) for c in reference_examples(tmp_path, "r.md")]
    assert [w is None for w in whys] == [False, False, False, False, True, True, False, True]
    assert "GPU" in (whys[0] or "") and "captures.tar.gz" in (whys[1] or "") and "mine.py" in (whys[2] or "")
    assert "my_script.py" in (whys[3] or "") and "GPU" in (whys[6] or "")
