"""JobBoard: the background captures of the main screen, one child process per capture id.

A job captures a config (when the store lacks it), records its per-pass IR and works out what each pass
changed; each step it reports is handed to the screen as it happens, so the tree fills in while
the user keeps reading.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from textual.timer import Timer

from irscope.tui.capture_job import JobSpec
from irscope.tui.catalog import CaptureId
from irscope.tui.jobs import Event, Job
from irscope.tui.state import AppState

_PHASES = {"compiling": "compiling", "passes": "recording passes of", "effects": "measuring passes of"}


@dataclass
class JobState:
    """A running job.

    Attributes:
        job: the child process.
        phase: what it does now, in words.
        started: when the phase began (monotonic seconds).
        show: the stage to open once captured, or None to leave the screen as it is.
    """

    job: Job
    phase: str
    started: float
    show: str | None


class JobScreen(Protocol):
    """What the board needs of the screen it reports to (the main screen)."""

    def run_worker(self, work: Coroutine[Any, Any, None], *, group: str, exit_on_error: bool) -> object:
        """Run a coroutine in the screen's workers."""

    def set_interval(self, interval: float, callback: Callable[[], None]) -> Timer:
        """Call ``callback`` every ``interval`` seconds."""

    def job_captured(self, cid: CaptureId, key: str, show: str | None) -> None:
        """A job stored a capture."""

    def job_passes(self, cid: CaptureId, error: str) -> None:
        """Recording passes ended."""

    def job_effects(self, cid: CaptureId) -> None:
        """What each pass changed is known."""

    def job_ended(self, cid: CaptureId, error: str, show: str | None) -> None:
        """A job ended."""

    def job_tick(self) -> None:
        """Refresh the progress shown for running jobs."""


class JobBoard:
    """Starts jobs, follows their progress, and tells the screen what they produced."""

    def __init__(self, screen: JobScreen, state: AppState) -> None:
        self.screen = screen
        self.state = state
        self.states: dict[CaptureId, JobState] = {}
        self._timer: Timer | None = None

    def running(self, cid: CaptureId) -> JobState | None:
        """The job of a capture id, when one runs."""
        return self.states.get(cid)

    def start(self, cid: CaptureId, capture: bool, show: str | None, passes: bool = True) -> None:
        """Start a job for a capture id (unless one runs already)."""
        if cid in self.states:
            if show is not None:
                self.states[cid].show = show
            return
        catalog = self.state.catalog
        spec = JobSpec(kernel=catalog.kernel_arg(cid.kernel) if catalog.compilable(cid.kernel) else cid.kernel,
                       target=cid.target, config=cid.config, store=str(catalog.store.root), capture=capture,
                       passes=passes and self.state.record_passes, effects=True,
                       key=catalog.key(cid) if cid.variant else "")
        state = JobState(Job(spec), "compiling" if capture else "starting", time.monotonic(), show)
        self.states[cid] = state
        self.screen.run_worker(self._run(cid, state), group="jobs", exit_on_error=False)
        if self._timer is None:
            self._timer = self.screen.set_interval(0.25, self.screen.job_tick)
        self.screen.job_tick()

    def follow_up(self, cid: CaptureId, key: str) -> None:
        """After opening a capture: record its passes, or measure them, when that is still to do."""
        state = self.state
        if cid in self.states or not state.catalog.can_record_passes(cid):
            return
        dump = state.documents.dump(key)
        if dump is None:
            if state.record_passes:
                self.start(cid, capture=False, show=None, passes=True)
        elif state.documents.effects(key) is None:
            self.start(cid, capture=False, show=None, passes=False)

    async def _run(self, cid: CaptureId, state: JobState) -> None:
        def on_event(event: Event) -> None:
            name = str(event.get("event", ""))
            if name in _PHASES:
                state.phase, state.started = _PHASES[name], time.monotonic()
            elif name == "captured":
                self.screen.job_captured(cid, str(event.get("key", "")), state.show)
                state.show = None
            elif name == "passes-done":
                self.screen.job_passes(cid, str(event.get("error", "")))
            elif name == "effects-done":
                self.screen.job_effects(cid)
            self.screen.job_tick()

        try:
            result = await state.job.run(on_event)
        finally:
            self.states.pop(cid, None)
            if not self.states and self._timer is not None:
                self._timer.stop()
                self._timer = None
        self.screen.job_ended(cid, result.error, state.show)

    def cancel_all(self) -> None:
        """End every child process."""
        for state in self.states.values():
            state.job.cancel()
