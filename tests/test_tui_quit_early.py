"""Quitting the TUI before its first screen has finished mounting is a normal exit, not a crash."""

from __future__ import annotations

import asyncio
from pathlib import Path

from irscope.tui.app import make_app


def test_q_pressed_at_once_quits_without_a_crash(tmp_path: Path) -> None:
    """``q`` as the first key: the lazily mounted widgets arrive after their screen is gone (Textual's MountError).

    Found by the doc test: ``irscope`` on a terminal, quit at once, exited with status 70 and a crash log.
    """

    async def run() -> None:
        app = make_app(None, None, 0, str(tmp_path / "store"), record_passes=False)
        async with app.run_test(size=(160, 45)) as pilot:
            await pilot.press("q")
        assert app.crash is None
        assert app.return_code == 0

    for _ in range(3):
        asyncio.run(run())
