"""How fast the TUI's what-if answers, measured with Textual's Pilot on matmul@sm90 (issue 16).

    python benchmarks/whatif_speed.py [--store DIR]

Prints, side by side in one run:
* a precompiled neighbour (``num_stages=2``, compiled ahead by irscope.request.neighbours while the TUI shows its
  base, as it does for a user): milliseconds from Enter in the ``x`` form to the first frame of the
  variant's facts and TTGIR diff (target: 100 ms);
* any other variant (``BLOCK_SIZE_K=16``): the same time (the form used once its compile worker has
  started and compiled once, as it does while a user types), against the bare ``triton.compile`` time of
  that variant in that warm worker (the capture's ``compile_seconds``) as a ratio (target 1.1x); the
  report's first frame carries the facts the stored texts give, the tool-derived ones follow;
* keys while the neighbours compile in the background: milliseconds from a tree key to the frame that
  shows the new stage (timed as benchmarks/tui_speed.py times keys), median and worst of 10 (target: 100 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


async def _until(pilot: object, condition: object, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit("timed out")
        await pilot.pause(0.005)  # type: ignore[attr-defined]


async def _what_if(store: str, name: str, value: str, neighbour: str = "") -> float:
    """Seconds from Enter in the what-if form to the variant's report on screen.

    With ``neighbour`` (its capture key) the TUI runs as a user leaves it: it precompiles the neighbours in the
    background, and the form is used once it has read that neighbour's facts from the background process.
    """
    from textual.widgets import Input

    from irscope.tui.app import make_app
    from irscope.tui.screens import compare
    from irscope.tui.screens.compare import CompareScreen
    from irscope.tui.screens.what_if import WhatIfScreen

    os.environ["IRSCOPE_PRECOMPILE"] = "always"
    app = make_app("matmul", "sm90", 0, store, record_passes=False, precompile=bool(neighbour))
    async with app.run_test(size=(160, 45)) as pilot:
        await _until(pilot, lambda: getattr(app.screen, "current", None) is not None)
        if neighbour:
            await _until(pilot, lambda: neighbour in compare._FACTS)
        await pilot.press("x")
        await _until(pilot, lambda: isinstance(app.screen, WhatIfScreen))
        # The user types while the form's compile worker starts and compiles once (Triton's set-up).
        from irscope.compile import remote

        await _until(pilot, lambda: "sm90" in remote.worker(start=False).warmed)
        field = app.screen.query_one(f"#set-{name}", Input)
        field.value = value
        field.focus()
        await pilot.pause()
        painted: list[float] = []  # when the first frame showing the report (its "A: ..." line) was drawn
        show_text = CompareScreen.show_text

        def report_drawn(screen: CompareScreen) -> None:
            if screen.text.startswith("A: ") and not painted:
                screen.call_after_refresh(lambda: painted.append(time.perf_counter()))

        def on_mount(screen: CompareScreen) -> None:
            report_drawn(screen)

        def shown(screen: CompareScreen, text: str, title: str = "") -> None:
            show_text(screen, text, title)
            report_drawn(screen)

        CompareScreen.on_mount = on_mount  # type: ignore[attr-defined]
        CompareScreen.show_text = shown  # type: ignore[method-assign]
        start = time.perf_counter()
        await pilot.press("enter")
        await _until(pilot, lambda: bool(painted))
        CompareScreen.show_text = show_text  # type: ignore[method-assign]
        return painted[0] - start


async def _keys_while_compiling(store: str, precompile: bool = True) -> list[float]:
    """Seconds from a tree key to the frame showing the new stage (as benchmarks/tui_speed.py times keys),
    while the neighbours compile."""
    from tui_speed import Frames

    from irscope.tui.app import make_app
    from irscope.tui.widgets.navigator import Navigator

    os.environ["IRSCOPE_PRECOMPILE"] = "always"
    app = make_app("matmul", "sm90", 1, store, record_passes=False, precompile=precompile)  # neighbours: not made yet
    times: list[float] = []
    async with app.run_test(size=(160, 45)) as pilot:
        screen = app.screen
        await _until(pilot, lambda: getattr(screen, "current", None) is not None)
        nav = screen.query_one(Navigator)
        nav.focus()
        await pilot.pause(3.0)  # the neighbours' compiles are under way
        frames = Frames(screen)
        for i in range(10):
            before = screen.current  # type: ignore[attr-defined]
            frames.last = frames.shown = 0.0
            frames.probe = lambda was=before: screen.current != was  # type: ignore[attr-defined]
            start = time.perf_counter()
            await pilot.press("down" if i % 2 == 0 else "up")
            await _until(pilot, lambda: bool(frames.shown), timeout=30)
            times.append(frames.shown - start)
            await pilot.pause(0.2)  # the side panels' frames
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default=None, help="a store to use (default: a fresh temporary one)")
    args = parser.parse_args()
    store = args.store or tempfile.mkdtemp(prefix="irscope-whatif-")
    os.environ["IRSCOPE_HOME"] = store
    from irscope.request.captures import get_capture, make_request
    from irscope.request.neighbours import precompile
    from irscope.store.store import Store

    get_capture(make_request("matmul", "sm90", 0), store)
    get_capture(make_request("matmul", "sm90", 1), store)
    start = time.perf_counter()
    count = precompile({"kernel": "matmul", "target": "sm90", "config": 0}, Path(store), why=lambda: "")
    print(f"neighbours of matmul@sm90 c0 compiled ahead: {count} in {time.perf_counter() - start:.1f} s")
    near_key = next(c.manifest.key for c in Store(Path(store)).captures() if c.manifest.settings == {"num_stages": 2})
    near = asyncio.run(_what_if(store, "num_stages", "2", near_key))
    print(f"precompiled neighbour (num_stages=2): {near * 1000:.0f} ms to the report on screen (target 100 ms)")
    far = asyncio.run(_what_if(store, "BLOCK_SIZE_K", "16"))
    variant = next(c for c in Store(Path(store)).captures() if c.manifest.settings.get("BLOCK_SIZE_K") == 16)
    bare = variant.manifest.compile_seconds
    print(f"other variant (BLOCK_SIZE_K=16): {far:.2f} s on screen, bare triton.compile {bare:.2f} s, "
          f"ratio {far / bare:.2f}x (target 1.1x)")
    quiet = asyncio.run(_keys_while_compiling(store, precompile=False))
    print(f"tree keys with nothing in the background: median {statistics.median(quiet) * 1000:.0f} ms, "
          f"worst {max(quiet) * 1000:.0f} ms over {len(quiet)}")
    keys = asyncio.run(_keys_while_compiling(store))
    print(f"tree keys while the neighbours compile: median {statistics.median(keys) * 1000:.0f} ms, "
          f"worst {max(keys) * 1000:.0f} ms over {len(keys)} (target 100 ms)")


if __name__ == "__main__":
    main()
