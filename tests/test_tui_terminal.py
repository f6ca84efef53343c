"""The real ``irscope tui`` (and bare ``irscope``) in a pseudo-terminal: the test reads the screen.

The terminal is Python's own (``pty``) and the screen is kept by the ``pyte`` emulator, so nothing
beyond the Python packages is needed (no tmux).
"""

from __future__ import annotations

import fcntl
import os
import pty
import shlex
import signal
import struct
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pyte
import pytest

from irscope.store.store import Capture
from tests.conftest import REPO
from tests.test_tui_app import warm_matmul

pytestmark = pytest.mark.compile

# Key names the tests use (tmux's names) -> the bytes a terminal sends.
_KEYS = {"Escape": b"\x1b", "Enter": b"\r", "Tab": b"\t", "Up": b"\x1b[A", "Down": b"\x1b[B",
         "Right": b"\x1b[C", "Left": b"\x1b[D", "C-c": b"\x03"}


class Terminal:
    """One program on a pseudo-terminal of a given size, its screen emulated by pyte."""

    def __init__(self) -> None:
        self.pid = 0
        self.fd = -1
        self.status: int | None = None
        self._lock = threading.Lock()
        self._screen = pyte.Screen(160, 45)
        self._stream = pyte.ByteStream(self._screen)

    def start(self, command: str, width: int = 160, height: int = 45) -> None:
        """Run ``command`` (a shell line) on a fresh terminal of ``width`` x ``height``."""
        self._screen = pyte.Screen(width, height)
        self._stream = pyte.ByteStream(self._screen)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the program, on the terminal's slave side
            os.execvp("/bin/sh", ["/bin/sh", "-c", command])
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                self._stream.feed(data)

    def screen(self) -> str:
        """The screen as text."""
        with self._lock:
            return "\n".join(self._screen.display)

    def keys(self, *keys: str) -> None:
        """Type keys: tmux-style names (Escape, Enter, ...) or literal text."""
        for key in keys:
            os.write(self.fd, _KEYS.get(key, key.encode()))

    def wait_for(self, text: str, timeout: float = 40.0) -> str:
        """The screen once it shows ``text``."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"the screen never showed {text!r}; it shows:\n{screen}")

    def wait_gone(self, text: str, timeout: float = 20.0) -> str:
        """The screen once ``text`` is no longer on it."""
        deadline = time.monotonic() + timeout
        screen = self.screen()
        while text in screen:
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen kept showing {text!r}:\n{screen}")
            time.sleep(0.2)
            screen = self.screen()
        return screen

    def running(self) -> bool:
        """Whether the program has not exited yet."""
        if self.status is None and self.pid:
            done, code = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.status = os.waitstatus_to_exitcode(code)
        return self.status is None

    def kill(self) -> None:
        """Stop the program if it still runs; close the terminal."""
        if self.pid and self.running():
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


@pytest.fixture
def term() -> Iterator[Terminal]:
    """A pseudo-terminal for one program, stopped afterwards."""
    term = Terminal()
    try:
        yield term
    finally:
        term.kill()


@pytest.fixture(scope="module")
def store(captures: Callable[..., Capture], shared_store: Path) -> str:
    """The session store, holding matmul@sm90 with passes."""
    return warm_matmul(captures, shared_store)


def _command(args: str, store: str) -> str:
    # COLUMNS/LINES can leak in from the test process's environment; the program must read the pty's size.
    env = (f"env -u COLUMNS -u LINES IRSCOPE_HOME={shlex.quote(store)} PYTHONPATH={shlex.quote(str(REPO))} "
           "TERM=xterm-256color")
    return f"cd {shlex.quote(str(REPO))} && {env} {shlex.quote(sys.executable)} -m irscope {args}"


def test_irscope_tui_matmul_in_a_terminal(term: Terminal, store: str) -> None:
    term.start(_command(f"tui matmul --target sm90 --store {shlex.quote(store)} --no-passes", store))
    # a frame may show the header before the text below it: wait for each (a screen that never shows one fails)
    term.wait_for("matmul · sm90 · config 0 · TritonGPU IR (ttgir)")
    term.wait_for("#mma = #ttg.nvidia_mma<{versionMajor = 3")
    # key help in the footer, drawn in the frames after the text, not all in one frame (CI once caught "? Help"
    # on screen before "d Diff"): each must appear
    for key in ("? Help", "d Diff", "q Quit"):
        term.wait_for(key)
    term.keys("d")
    term.wait_for("ttir  →  ttgir")
    term.wait_for("@@ -")
    term.keys("?")
    term.wait_for("irscope: keys")
    term.keys("Escape")  # alone: Escape followed at once by a key would read as Alt+key
    term.wait_gone("irscope: keys")
    term.keys("q")
    deadline = time.monotonic() + 15
    while term.running() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not term.running(), term.screen()


def test_bare_irscope_on_a_terminal_opens_the_tui(term: Terminal, store: str) -> None:
    term.start(_command("", store), width=100, height=30)
    for text in ("TritonGPU IR", "Source", "Layouts"):  # drawn over several frames: each must appear
        term.wait_for(text)
    term.keys("q")


def test_a_ptx_diff_leaves_no_stale_cells(term: Terminal, store: str) -> None:
    """PTX indents with tabs; drawn as they are, the terminal jumps to its tab stops and the row keeps cells of
    the row drawn there before (``.reg .pred 2 = a%p<41>;``). The diff draws them expanded, as the text view does."""
    term.start(_command(f"tui matmul --target sm90 --store {shlex.quote(store)} --no-passes", store))
    term.wait_for("matmul · sm90 · config 0 · TritonGPU IR (ttgir)")
    term.wait_for("? Help")
    term.keys("Down", "Down")  # the tree's cursor from ttgir to llir, then ptx
    term.wait_for("matmul · sm90 · config 0 · PTX (ptx)")
    term.keys("e", "d")
    term.wait_for("llir  →  ptx")
    term.wait_for("change 1/")  # the diff itself is on screen (it is computed in a worker after the title)
    term.keys("/")
    term.wait_for("search: a regular expression")  # the prompt is open and has the focus
    term.keys("reg .pred")
    term.wait_for("▕ reg .pred ")  # typed into the prompt (it searches as you type) before Enter
    term.keys("Enter")
    term.wait_for("match 1/")
    term.wait_for("+        .reg .pred      %p<41>;")


def test_go_to_a_pass_by_name_and_the_header_shrinks_after_it(term: Terminal, store: str) -> None:
    """At 100x30: p then part of a pass's name opens that pass; the tree keeps both ends of a long pass name, the
    footer names the compare keys, and the stage after the pipeliner's tall summary gets a two-line header back."""
    term.start(_command(f"tui matmul --target sm90 --store {shlex.quote(store)} --no-passes", store),
               width=100, height=30)
    term.wait_for("matmul · sm90 · config 0 · TritonGPU IR (ttgir)")
    term.wait_for("c C Compare")
    term.wait_for("p Pass")
    term.keys("p")
    term.wait_for("Go to pass")
    term.keys("pipeline")
    term.wait_for("tritongpu-pipeline")
    term.keys("Enter")
    screen = term.wait_for("after tritongpu-pipeline")
    term.wait_for("▶ ● 36 tritongpu-pipeline")  # the tree's cursor went there too
    screen = term.wait_for("● 17 tritongpu-…")  # tritongpu-remove-layout-conversions: both ends kept
    rows = screen.splitlines()
    assert any("● 17 tritongpu-…" in row and "versions  ▕" in row for row in rows), screen
    assert "╭─" not in rows[2] and "╭─" not in rows[3], screen  # the pipeliner's summary is tall
    for _ in range(12):  # down the tree to the LLVM IR stage
        if "LLVM IR (llir)   " in term.screen():
            break
        term.keys("Down")
        time.sleep(0.4)
    screen = term.wait_for("LLVM IR (llir)   ")
    time.sleep(0.5)
    rows = term.screen().splitlines()
    assert "╭─ LLVM IR (llir)" in rows[2], "\n".join(rows)  # a stage's header: two lines again
