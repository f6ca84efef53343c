"""Comparing two captures in the TUI (c marks one, C compares it with the capture on screen)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from irscope.analysis.facts import capture_facts, compare_facts
from irscope.store import Capture
from irscope.tui.app import IrscopeApp
from irscope.tui.catalog import CaptureId
from irscope.tui.screens.compare import CompareScreen
from irscope.tui.screens.main import MainScreen
from tests.test_tui_app import drive, screen_text, until, warm_matmul

pytestmark = pytest.mark.compile


@pytest.fixture(scope="module")
def store(captures: Callable[..., Capture], shared_store: Path) -> str:
    """matmul@sm90 with passes, and matmul@sm80 (the other side)."""
    captures("matmul", "sm80")
    return warm_matmul(captures, shared_store)


def test_mark_one_capture_and_compare_it_with_another(store: str, captures: Callable[..., Capture]) -> None:
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        await pilot.press("C")  # nothing marked yet: a notice, no screen
        await pilot.pause()
        assert not isinstance(app.screen, CompareScreen)
        await pilot.press("c")  # mark matmul@sm90
        screen.open_capture(CaptureId("matmul", "sm80"))
        await until(pilot, lambda: screen.current is not None and "sm80" in screen.current.key, what="sm80 open")
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, CompareScreen), what="the comparison", timeout=60)
        await pilot.pause()
        text = screen_text(app)
        assert "A: matmul sm90 c0" in text and "B: matmul sm80 c0" in text
        assert "mma.kind" in text and "+ mma.sync" in text and "- wgmma" in text
        # Every changed fact the screen lists is one irscope compare finds.
        a, b = capture_facts(captures("matmul", "sm90")), capture_facts(captures("matmul", "sm80"))
        changed = compare_facts(a.values, b.values)
        assert f"{len(changed)} facts differ" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)

    drive(store, steps)
