"""The real ``irscope tui`` (and bare ``irscope``) in a pseudo-terminal: tmux runs it, the test reads the screen.

Needs tmux (Debian: ``apt-get install tmux``). Each test starts its own tmux server on a socket in
its temporary directory and kills that server at the end.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from irscope.store import Capture
from tests.conftest import REPO
from tests.test_tui_app import warm_matmul

pytestmark = pytest.mark.compile


class Tmux:
    """One private tmux server with one session running a command."""

    def __init__(self, socket: Path) -> None:
        binary = shutil.which("tmux")
        if binary is None:
            pytest.fail("these tests need tmux on the PATH (Debian: apt-get install tmux)")
        self.binary = binary
        self.socket = socket

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """A tmux command on our server."""
        return subprocess.run([self.binary, "-S", str(self.socket), *args], capture_output=True, text=True, check=check)

    def start(self, command: str, width: int = 160, height: int = 45) -> None:
        """Run ``command`` in a detached session of the given size."""
        self.run("new-session", "-d", "-s", "tui", "-x", str(width), "-y", str(height), command)

    def screen(self) -> str:
        """The session's screen as text."""
        return self.run("capture-pane", "-p", "-t", "tui", check=False).stdout

    def keys(self, *keys: str) -> None:
        """Type keys (tmux key names: Escape, Enter, ...)."""
        self.run("send-keys", "-t", "tui", *keys)

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
        """Whether the session still exists (the program has not exited)."""
        return self.run("has-session", "-t", "tui", check=False).returncode == 0

    def kill(self) -> None:
        """Stop this server (only ours: it has its own socket)."""
        self.run("kill-server", check=False)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    """A private tmux server (its socket in the test's directory), killed afterwards."""
    server = Tmux(tmp_path / "tmux.sock")
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture(scope="module")
def store(captures: Callable[..., Capture], shared_store: Path) -> str:
    """The session store, holding matmul@sm90 with passes."""
    return warm_matmul(captures, shared_store)


def _command(args: str, store: str) -> str:
    # COLUMNS/LINES can leak in from the test process's environment; the program must read the pty's size.
    env = (f"env -u COLUMNS -u LINES IRSCOPE_HOME={shlex.quote(store)} PYTHONPATH={shlex.quote(str(REPO))} "
           "TERM=xterm-256color")
    return f"cd {shlex.quote(str(REPO))} && {env} {shlex.quote(sys.executable)} -m irscope {args}"


def test_irscope_tui_matmul_in_a_terminal(tmux: Tmux, store: str) -> None:
    tmux.start(_command(f"tui matmul --target sm90 --store {shlex.quote(store)} --no-passes", store))
    screen = tmux.wait_for("matmul · sm90 · config 0 · TritonGPU IR (ttgir)")
    assert "#mma = #ttg.nvidia_mma<{versionMajor = 3" in screen
    screen = tmux.wait_for("? Help")  # key help in the footer (drawn in the frames after the text)
    assert "d Diff" in screen and "q Quit" in screen
    tmux.keys("d")
    screen = tmux.wait_for("ttir  →  ttgir")
    assert "@@ -" in screen
    tmux.keys("?")
    tmux.wait_for("irscope: keys")
    tmux.keys("Escape")  # alone: Escape followed at once by a key would read as Alt+key
    tmux.wait_gone("irscope: keys")
    tmux.keys("q")
    deadline = time.monotonic() + 15
    while tmux.running() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not tmux.running(), tmux.screen()


def test_bare_irscope_on_a_terminal_opens_the_tui(tmux: Tmux, store: str) -> None:
    tmux.start(_command("", store), width=100, height=30)
    screen = tmux.wait_for("TritonGPU IR")
    assert "Source" in screen and "Layouts" in screen
    tmux.keys("q")
