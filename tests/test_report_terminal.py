"""Reports on a real terminal: every long report is paged, NO_COLOR and the themes colour text as they
say, and `show` hides MLIR locations on a terminal; piped, every report is exactly its text.

The terminal is a pseudo-terminal whose screen pyte keeps (tests/test_tui_terminal.py); the pager is
a stand-in on $PAGER that records what it was given.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from irscope.analysis.diff import hide_locations
from irscope.cli import cli
from irscope.store.store import Capture
from tests.conftest import REPO, repo_path
from tests.test_tui_app import warm_matmul
from tests.test_tui_terminal import Terminal

pytestmark = pytest.mark.compile

_ESC = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture(scope="module")
def store(captures: Callable[..., Capture], shared_store: Path) -> str:
    """The session store, holding matmul@sm90 with passes, and vector_add@sm90."""
    captures("vector_add", "sm90")
    return warm_matmul(captures, shared_store)


@pytest.fixture
def term() -> Iterator[Terminal]:
    """A pseudo-terminal, its program stopped afterwards."""
    terminal = Terminal()
    try:
        yield terminal
    finally:
        terminal.kill()


@pytest.fixture
def pager(tmp_path: Path) -> Path:
    """A stand-in pager: it writes what it was given to ``<its path>.saw``."""
    fake = tmp_path / "fake-pager"
    fake.write_text(f"#!{sys.executable}\nimport sys\n"
                    f"open({str(fake) + '.saw'!r}, 'wb').write(sys.stdin.buffer.read())\n")
    fake.chmod(0o755)
    return fake


def _on_terminal(term: Terminal, args: str, store: str, env: str = "", pager: Path | None = None,
                 width: int = 100, height: int = 30, timeout: float = 60.0) -> None:
    """Run irscope on the pseudo-terminal until it exits."""
    pager_env = f"PAGER={shlex.quote(str(pager))}" if pager else "PAGER=cat"
    command = (f"cd {shlex.quote(str(REPO))} && env -u COLUMNS -u LINES -u NO_COLOR -u IRSCOPE_THEME "
               f"IRSCOPE_HOME={shlex.quote(store)} PYTHONPATH={shlex.quote(repo_path())} TERM=xterm-256color "
               f"{pager_env} {env} {shlex.quote(sys.executable)} -m irscope {args}")
    term.kill()  # the fixture's terminal may have run an earlier command
    term.status = None
    term.start(command, width, height)
    deadline = time.monotonic() + timeout
    while term.running():
        assert time.monotonic() < deadline, f"irscope {args} still runs:\n{term.screen()}"
        time.sleep(0.1)
    drawn = ""
    while drawn != term.screen():  # what it wrote last reaches the screen
        drawn = term.screen()
        time.sleep(0.3)


def _piped(args: str, store: str, **env: str) -> str:
    """What irscope writes to a pipe."""
    import os

    run_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "IRSCOPE_THEME", "PAGER")}
    run_env.update({"IRSCOPE_HOME": store, "PYTHONPATH": repo_path(), **env})
    out = subprocess.run([sys.executable, "-m", "irscope", *shlex.split(args)], env=run_env, capture_output=True,
                         text=True, timeout=120, check=True)
    return out.stdout


# The reports the issue saw scroll away (passes 81 rows, layouts 77 lines, perf, map, verify -v),
# each with a line it must show.
LONG_REPORTS = [
    ("passes matmul --target sm90", "tritongpu-pipeline"),
    ("layouts matmul --target sm90", "#mma"),
    ("perf matmul --target sm90 --gpu h200 --explain", "Assumptions:"),
    ("map matmul --target sm90 --line 78", "tt.dot"),
    ("verify matmul --target sm90 -v", "agree"),
]


def test_perf_s_verdict_fits_one_screen_unpaged(term: Terminal, store: str, pager: Path):
    """Without --explain, perf's summary (verdict, bound, top change, a line each on launch, work and shared
    memory) fits the 30-line screen: written as is, with the verdict on the screen."""
    _on_terminal(term, "perf matmul --target sm90 --gpu h200", store, pager=pager)
    assert not Path(f"{pager}.saw").exists()
    screen = term.screen()
    assert "Verdict: compute-bound" in screen and "what would move it most:" in screen and "--explain" in screen


@pytest.mark.parametrize(("args", "shows"), LONG_REPORTS, ids=[a.split()[0] for a, _ in LONG_REPORTS])
def test_every_long_report_is_paged_on_a_terminal(term: Terminal, store: str, pager: Path, args: str, shows: str):
    _on_terminal(term, args, store, pager=pager)
    saw = Path(f"{pager}.saw")
    assert saw.exists(), f"irscope {args} wrote to the terminal without its pager:\n{term.screen()}"
    paged = saw.read_bytes()
    assert shows.encode() in paged
    assert paged.count(b"\n") >= 30  # taller than the screen, which is why it was paged
    if args.startswith(("perf", "verify")):  # reports that do not fit the terminal's width: exactly the piped text
        assert _ESC.sub(b"", paged).decode() == _piped(args, store)


def test_a_short_report_is_not_paged_and_piped_output_is_never_paged(term: Terminal, store: str, pager: Path):
    _on_terminal(term, "loops matmul --target sm90", store, pager=pager)  # 20 lines on a 30-line screen
    assert not Path(f"{pager}.saw").exists()
    assert "loop 1" in term.screen()
    piped = _piped("passes matmul --target sm90", store, PAGER=str(pager))
    assert not Path(f"{pager}.saw").exists() and "tritongpu-pipeline" in piped
    assert "\x1b[" not in piped


def _screen_colours(term: Terminal) -> set[str]:
    """Every foreground colour pyte drew a visible character in."""
    screen = term._screen
    return {char.fg for row in screen.buffer.values() for char in row.values() if char.data.strip()}


def test_no_color_is_honoured_on_a_terminal(term: Terminal, store: str):
    """https://no-color.org: any non-empty NO_COLOR turns colours off; --color still forces them."""
    args = "show vector_add --stage ttgir --target sm90 --no-pager"
    _on_terminal(term, args, store, env="NO_COLOR=1", height=60)
    assert "tt.func" in term.screen() and _screen_colours(term) == {"default"}
    _on_terminal(term, f"{args} --color", store, env="NO_COLOR=1", height=60)
    assert len(_screen_colours(term)) > 2
    _on_terminal(term, args, store, env="NO_COLOR=", height=60)  # empty: not set
    assert len(_screen_colours(term)) > 2


def _body_colours(term: Terminal, word: str) -> set[str]:
    """The foreground colours pyte drew the first screen line holding ``word`` in, over that word."""
    screen = term._screen
    for row in range(screen.lines):
        line = "".join(screen.buffer[row][col].data for col in range(screen.columns))
        at = line.find(word)
        if at >= 0:
            return {screen.buffer[row][col].fg for col in range(at, at + len(word))}
    raise AssertionError(f"{word!r} is not on the screen:\n{term.screen()}")


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_body_text_keeps_the_terminals_colour_in_both_themes(term: Terminal, store: str, theme: str):
    """Monokai painted plain text #f8f8f2 with no background: invisible on a light terminal."""
    _on_terminal(term, f"show vector_add --stage ttgir --target sm90 --no-pager --color --theme {theme}", store,
                 height=60)
    assert _body_colours(term, "x : ") == {"default"}  # a name and punctuation: the terminal's foreground
    coloured = _body_colours(term, "tensor")
    assert coloured != {"default"}  # types keep their theme's colour


def test_the_themes_differ_and_the_environment_chooses_one(store: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("IRSCOPE_HOME", store)
    runner = CliRunner()
    args = ["show", "vector_add", "--stage", "ttgir", "--target", "sm90", "--color"]
    dark = runner.invoke(cli, args)
    light = runner.invoke(cli, [*args, "--theme", "light"])
    from_env = runner.invoke(cli, args, env={"IRSCOPE_THEME": "light"})
    global_form = runner.invoke(cli, ["--theme", "light", *args])
    assert dark.exit_code == light.exit_code == from_env.exit_code == global_form.exit_code == 0, light.output
    assert "\x1b[38;5;" in dark.output and dark.output != light.output
    assert from_env.output == light.output == global_form.output
    # A bad IRSCOPE_THEME (a shell setting): one warning line where text is coloured, and the default theme.
    bad = runner.invoke(cli, args, env={"IRSCOPE_THEME": "blue"})
    assert bad.exit_code == 0 and bad.stdout == dark.stdout, bad.output
    assert bad.stderr.count("\n") == 1 and "IRSCOPE_THEME='blue' is not a theme (valid: dark, light); using dark" \
        in bad.stderr
    # A bad --theme (typed for this command): one line, what was wrong and what is valid, exit 2.
    typed = runner.invoke(cli, [*args, "--theme", "blue"])
    assert typed.exit_code == 2 and typed.stdout == ""
    assert typed.stderr == "irscope: error: --theme 'blue' is not a theme; valid: dark, light\n"


def test_a_bad_theme_in_the_environment_leaves_commands_that_never_colour_alone(store: str,
                                                                                monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("IRSCOPE_HOME", store)
    runner = CliRunner()
    for args in (["list"], ["show", "vector_add", "--stage", "ttir", "--target", "sm90", "--no-color"]):
        plain = runner.invoke(cli, args)
        bad = runner.invoke(cli, args, env={"IRSCOPE_THEME": "bogus"})
        assert bad.exit_code == plain.exit_code == 0 and bad.stdout == plain.stdout, bad.output
        assert "IRSCOPE_THEME" not in bad.stderr and "Usage:" not in bad.output


def test_show_hides_locations_on_a_terminal_and_keeps_them_piped(term: Terminal, store: str, pager: Path):
    args = "show matmul --stage ttgir --target sm90"
    _on_terminal(term, f"{args} --no-color", store, pager=pager)
    shown = Path(f"{pager}.saw").read_text()
    Path(f"{pager}.saw").unlink()
    assert "tt.func" in shown and " loc(" not in shown and "#loc" not in shown
    _on_terminal(term, f"{args} --no-color --locs", store, pager=pager)
    piped = _piped(args, store)
    assert Path(f"{pager}.saw").read_text() == piped  # --locs: the stored text
    assert piped.count(" loc(") > 200 and "\n#loc" in piped
    assert shown == hide_locations(piped)
    assert _piped(f"{args} --no-locs", store) == shown
    data = json.loads(_piped(f"{args} --json", store))
    assert data["text"] == piped and Path(data["path"]).read_text() == piped


def test_hide_locations_removes_only_locations() -> None:
    text = ('#blocked = #ttg.blocked<{sizePerThread = [1]}>\n'
            '%a = tt.load %p loc(#loc4)\n'
            '%b = arith.addi %a, %a loc(callsite(#loc3 at "k.py":12:5))\n'
            '  tt.return loc(#loc)\n'
            '#loc = loc("/abs/k.py":1:0)\n'
            '#loc4 = loc("/abs/k.py":12:5)\n'
            '%s = tt.splat "loc(x)" : i32\n')
    assert hide_locations(text) == ('#blocked = #ttg.blocked<{sizePerThread = [1]}>\n'
                                    '%a = tt.load %p\n'
                                    '%b = arith.addi %a, %a\n'
                                    '  tt.return\n'
                                    '%s = tt.splat "loc(x)" : i32\n')
