"""On a terminal, `show` and `diff` page coloured text through less: the colours must reach the screen
whatever LESS says (Debian leaves it unset, and less then prints escape codes as text)."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import shutil
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.compile

_NO_LESS = shutil.which("less") is None


def _page(args: list[str], env: dict[str, str], seconds: float = 8.0) -> bytes:
    """Run irscope on a pseudo-terminal, read what less draws, then quit it with q."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(sys.executable, [sys.executable, "-m", "irscope", *args], env)
    out = b""
    deadline = time.monotonic() + seconds
    quit_sent = False
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        elif out and not quit_sent and b"tt.func" in out:
            os.write(fd, b"q")
            quit_sent = True
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
    else:
        os.kill(pid, 9)
    with contextlib.suppress(ChildProcessError):  # already reaped when it quit by itself
        os.waitpid(pid, 0)
    os.close(fd)
    return out


@pytest.mark.skipif(_NO_LESS, reason="no system less: the stand-in test below checks the same contract")
@pytest.mark.parametrize("less", [None, "-i", "FX"])
def test_show_pages_colours_through_less_with_any_less_setting(captures, shared_store: Path, less: str | None):
    captures("vector_add", "sm90")
    env = {k: v for k, v in os.environ.items() if k not in ("LESS", "PAGER", "MANPAGER")}
    env.update({"TERM": "xterm-256color", "LINES": "20", "COLUMNS": "100", "IRSCOPE_HOME": str(shared_store)})
    if less is not None:
        env["LESS"] = less
    out = _page(["show", "vector_add", "--stage", "ttgir", "--target", "sm90"], env)
    assert b"tt.func" in out, out[-500:]
    assert b"ESC[" not in out, "less printed the escape codes as text"
    assert b"\x1b[38;5;" in out  # the 256-colour codes reached the terminal


def test_show_gives_less_the_r_flag_even_without_a_system_less(captures, shared_store: Path, tmp_path: Path):
    """The same contract with a stand-in ``less`` on PATH (a fresh machine may have no less): it records
    the LESS it was started with and the bytes it was given."""
    captures("vector_add", "sm90")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "less-saw"
    fake = bin_dir / "less"
    fake.write_text(f"#!{sys.executable}\nimport os, sys\n"
                    f"data = sys.stdin.buffer.read()\n"
                    f"open({str(record)!r}, 'wb').write(os.environ.get('LESS', '<unset>').encode() + b'\\n' + data)\n")
    fake.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("LESS", "PAGER", "MANPAGER")}
    env.update({"TERM": "xterm-256color", "LINES": "20", "IRSCOPE_HOME": str(shared_store),
                "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"})
    _page(["show", "vector_add", "--stage", "ttgir", "--target", "sm90"], env, seconds=30)
    less_env, _, shown = record.read_bytes().partition(b"\n")
    assert b"R" in less_env.upper() and less_env != b"<unset>"
    assert b"\x1b[38;5;" in shown and b"tt.func" in shown
