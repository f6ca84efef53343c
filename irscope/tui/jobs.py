"""Run the TUI's child processes (irscope.tui.capture_job, irscope.tui.diff_job) without blocking the UI."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from irscope.analysis.diff import DiffOptions, TextDiff
from irscope.tui.capture_job import JobSpec
from irscope.tui.documents import DocRef

Event = dict[str, Any]


@dataclass
class JobResult:
    """What a child process reported.

    Attributes:
        events: every event, in order.
        returncode: its exit status.
        stderr: what it printed on stderr (shown when it died without saying why).
    """

    events: list[Event] = field(default_factory=list)
    returncode: int = 0
    stderr: str = ""

    def last(self, name: str) -> Event | None:
        """The last event of that name."""
        return next((e for e in reversed(self.events) if e.get("event") == name), None)

    @property
    def error(self) -> str:
        """Why the job failed, or '' when it did not."""
        failed = self.last("failed")
        if failed is not None:
            return str(failed.get("message", "the capture failed"))
        if self.returncode != 0:
            tail = self.stderr.strip().splitlines()[-12:]
            return f"the capture process ended with status {self.returncode}" + (
                ":\n" + "\n".join(tail) if tail else "")
        return ""


def _child_env() -> dict[str, str]:
    """Our environment, with this checkout first on the path (so the child runs the same irscope)."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env


class Job:
    """One child process; ``cancel`` ends it (the TUI does so when it quits)."""

    def __init__(self, spec: JobSpec) -> None:
        self.spec = spec
        self._proc: asyncio.subprocess.Process | None = None

    async def run(self, on_event: Callable[[Event], Awaitable[None] | None]) -> JobResult:
        """Start the child, hand each event to ``on_event`` as it comes, return everything it said."""
        env = _child_env()
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "irscope.tui.capture_job", self.spec.to_json(),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=env, start_new_session=True,
        )
        result = JobResult()
        assert self._proc.stdout is not None and self._proc.stderr is not None
        stderr_task = asyncio.ensure_future(self._proc.stderr.read())
        try:
            while line := await self._proc.stdout.readline():
                try:
                    event = json.loads(line)
                except ValueError:
                    continue  # something the compiler printed on stdout
                if not isinstance(event, dict):
                    continue
                result.events.append(event)
                outcome = on_event(event)
                if outcome is not None:
                    await outcome
            result.returncode = await self._proc.wait()
            result.stderr = (await stderr_task).decode("utf-8", errors="replace")
        finally:
            if self._proc.returncode is None:
                self.cancel()
                stderr_task.cancel()
        return result

    def cancel(self) -> None:
        """End the child process (and the compile it started, in its process group) if still running."""
        proc = self._proc
        if proc is not None and proc.returncode is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                return


async def run_diff_job(store: str, ref: DocRef, options: DiffOptions) -> TextDiff | str:
    """Compute a big diff in a child process (irscope.tui.diff_job); a sentence instead when that fails."""
    import pickle

    from irscope.tui.diff_job import spec_json

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "irscope.tui.diff_job", spec_json(store, ref, options),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env=_child_env(), start_new_session=True,
    )
    try:
        out, err = await proc.communicate()
    except asyncio.CancelledError:
        if proc.returncode is None:
            proc.kill()
        raise
    if proc.returncode != 0 or not out:
        tail = err.decode("utf-8", errors="replace").strip().splitlines()[-6:]
        return f"the diff process failed (status {proc.returncode})" + (":\n" + "\n".join(tail) if tail else "")
    result = pickle.loads(out)  # our own child's output
    if isinstance(result, (TextDiff, str)):
        return result
    return "the diff process answered something unexpected"
