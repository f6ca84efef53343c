"""How fast the TUI answers, measured with Textual's Pilot on matmul@sm90 (its largest artifacts included).

    python benchmarks/tui_speed.py [--store DIR] [--repeat N]

Prints, in milliseconds:
* first paint on a warm store: a fresh ``python`` process importing irscope's TUI, building the app
  with ``make_app("matmul")``, until the first frame that shows the TTGIR (the layouts and facts
  panels and the list of passes arrive in the frames after it); also the process's whole wall time;
* switching the shown stage or pass (cursor key in the tree, or a jump) until the last frame it
  causes: first visit (text read from the store) and later visits (cached);
* toggling the diff view on and off, including matmul's LLVM IR, PTX and its biggest pass snapshots
  (4.5 MB of LLVM-dialect MLIR). Diffs over 1.5 MB are computed in a worker process: for those the
  toggle paints a placeholder at once and the table also gives the time until the diff is drawn.

Wall times are to the last frame a key causes (Pilot's own wait for idleness is left out); CPU
times are this process's, which the machine's other work inflates less than wall times.

The store must hold matmul@sm90 config 0 and its per-pass dump (the script makes them when missing,
which compiles). Targets from issue 5: first paint 1.5 s, switches and toggles 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from irscope.captures import get_capture, make_request
from irscope.passdump import cached_pass_table, get_pass_dump

FIRST_PAINT = """
import time
t0, c0 = time.perf_counter(), time.process_time()
import asyncio, sys
from textual.screen import Screen
from irscope.tui.app import make_app
first = []
paint = Screen._compositor_refresh
def timed_paint(self):
    paint(self)
    if not first and getattr(self, "current", None) is not None:
        first.append(((time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000))
Screen._compositor_refresh = timed_paint
async def main():
    app = make_app("matmul", "sm90", 0, sys.argv[1], record_passes=False)
    async with app.run_test(size=(160, 45)) as pilot:
        while not first:
            await pilot.pause()
        print(f"{first[0][0]:.1f} {first[0][1]:.1f}")
asyncio.run(main())
"""


def ensure_store(store: str) -> None:
    """Capture matmul@sm90 config 0 with its passes and their effects, when the store lacks them."""
    request = make_request("matmul", "sm90", 0, store_dir=store)
    capture = get_capture(request, store, on_compile=lambda r: print("capturing matmul@sm90 (compiles)...",
                                                                    file=sys.stderr))
    dump = get_pass_dump(request, capture, on_compile=lambda c: print("recording its passes (compiles)...",
                                                                      file=sys.stderr))
    cached_pass_table(dump)


def first_paint(store: str, repeat: int) -> tuple[list[float], list[float], list[float]]:
    """Milliseconds from a fresh process's start to the first frame showing the TTGIR: wall and CPU inside the
    process, and the process's whole wall time (interpreter start to exit)."""
    inside, cpu, wall = [], [], []
    for _ in range(repeat):
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", FIRST_PAINT, store], capture_output=True, text=True, check=True)
        wall.append((time.perf_counter() - start) * 1000)
        first, used = out.stdout.strip().splitlines()[-1].split()
        inside.append(float(first))
        cpu.append(float(used))
    return inside, cpu, wall


class Frames:
    """Records when the screen last finished painting, to time a key press up to its last frame.

    Pilot's ``press`` returns only once the app has been idle for a while, which adds a constant
    wait; the latency a user sees ends with the last frame the key caused.
    """

    def __init__(self, screen: object) -> None:
        self.last = 0.0
        paint = screen._compositor_refresh  # type: ignore[attr-defined]

        def timed_paint() -> None:
            paint()
            self.last = time.perf_counter()

        screen._compositor_refresh = timed_paint  # type: ignore[attr-defined]


async def interactive(store: str, repeat: int) -> list[tuple[str, list[float], list[float]]]:
    """Switch and toggle timings inside one app session: (label, wall ms to last frame, CPU ms)."""
    from irscope.tui.app import make_app
    from irscope.tui.documents import DocRef
    from irscope.tui.widgets.navigator import Navigator
    from irscope.tui.widgets.text_view import TextView

    rows: list[tuple[str, list[float], list[float]]] = []
    app = make_app("matmul", "sm90", 0, store, record_passes=False)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = app.screen
        while screen.current is None:
            await pilot.pause()
        await pilot.pause()
        frames = Frames(screen)
        key = screen.current.key
        dump = app.documents.dump(key)
        assert dump is not None, "the store lacks matmul's pass dump"
        biggest = max(dump.index.passes, key=lambda p: dump.index.sections[p.output or p.section].size)
        pipeline = next(p for p in dump.index.passes if p.name == "tritongpu-pipeline")

        async def timed(act: object) -> tuple[float, float]:
            """Run an action (a key name, or a callable); wall ms to its last frame and CPU ms."""
            frames.last = 0.0
            cpu, start = time.process_time(), time.perf_counter()
            if isinstance(act, str):
                await pilot.press(act)
            else:
                assert callable(act)
                act()
                await pilot.pause()
            cpu = (time.process_time() - cpu) * 1000
            return (max(frames.last, start) - start) * 1000, cpu

        def add(label: str, results: list[tuple[float, float]]) -> None:
            rows.append((label, [w for w, _ in results], [c for _, c in results]))
            print(f"measured: {label}", file=sys.stderr)

        nav = screen.query_one(Navigator)
        stage_refs = [DocRef(key, s.name) for s in app.documents.stages(key)]
        for visit in ("first visit", "cached"):
            await timed(lambda: screen.reveal_ref(stage_refs[0]))
            nav.focus()
            add(f"tree cursor down through the 6 stages ({visit})", [await timed("down") for _ in stage_refs[1:]])

        for stage in ("ttgir", "llir"):  # unfold the stages that hold the passes (a one-off growth of the tree)
            node = nav.find("stage", screen._cids[key], DocRef(key, stage))
            assert node is not None
            add(f"unfold {stage}'s passes in the tree", [await timed(node.expand)])
        targets = [
            ("jump to llir (840 KB)", DocRef(key, "llir")),
            ("jump to ptx", DocRef(key, "ptx")),
            (f"jump to pass {pipeline.index} {pipeline.name}", DocRef(key, pipeline.stage, pipeline.index)),
            (f"jump to pass {biggest.index} {biggest.name} (biggest snapshot, "
             f"{dump.index.sections[biggest.output or biggest.section].size / 1e6:.1f} MB)",
             DocRef(key, biggest.stage, biggest.index)),
        ]
        for label, ref in targets:
            add(f"{label}: first visit", [await timed(lambda ref=ref: screen.reveal_ref(ref))])
            again = []
            for _ in range(repeat):
                await timed(lambda: screen.reveal_ref(stage_refs[0]))
                again.append(await timed(lambda ref=ref: screen.reveal_ref(ref)))
            add(f"{label}: again", again)

        view = screen.query_one(TextView)
        diff_targets = [("ttgir vs ttir", DocRef(key, "ttgir")), ("llir vs ttgir", DocRef(key, "llir")),
                        ("ptx vs llir", DocRef(key, "ptx")), ("sass vs ptx", DocRef(key, "sass")),
                        (f"pass {pipeline.index} {pipeline.name}", DocRef(key, pipeline.stage, pipeline.index)),
                        (f"pass {biggest.index} {biggest.name} (biggest)", DocRef(key, biggest.stage, biggest.index))]
        view.focus()
        for label, ref in diff_targets:
            await timed(lambda ref=ref: screen.reveal_ref(ref))
            start = time.perf_counter()
            first = await timed("d")
            while view.diff is None and view.row_count and view.row_text(0).startswith("Comparing"):
                await pilot.pause(0.01)
            drawn = (frames.last - start) * 1000
            off = await timed("d")
            again_on, again_off = [], []
            for _ in range(repeat):
                again_on.append(await timed("d"))
                again_off.append(await timed("d"))
            add(f"diff on, {label}: first (placeholder or diff painted)", [first])
            if drawn > first[0] + 1:
                rows.append((f"diff on, {label}: first, until the diff is drawn", [drawn], [float("nan")]))
            add(f"diff off, {label}: first", [off])
            add(f"diff on, {label}: again", again_on)
            add(f"diff off, {label}: again", again_off)
    return rows


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", default=None, help="a warm store (default: a temporary one, filled first)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    load = f"{os.getloadavg()[0]:.2f}"
    with tempfile.TemporaryDirectory(prefix="irscope-tui-speed-") as tmp:
        store = args.store or str(Path(tmp) / "store")
        ensure_store(store)
        inside, cpu, wall = first_paint(store, args.repeat)
        rows = [("first paint: first frame showing the TTGIR, fresh process, imports included", inside, cpu),
                ("first paint: that process's whole wall time (interpreter start to exit)", wall, [float("nan")])]
        rows += asyncio.run(interactive(store, args.repeat))
    width = max(len(label) for label, _, _ in rows)
    print(f"load average before: {load}; after: {os.getloadavg()[0]:.2f} (the machine's other work slows "
          "the wall times; CPU ms is this process's own time)")
    print(f"{'what (matmul@sm90 config 0, 160x45 terminal)':<{width}}  wall median   wall max   CPU median")
    for label, wall_ms, cpu_ms in rows:
        cpu = statistics.median(cpu_ms)
        print(f"{label:<{width}}  {statistics.median(wall_ms):11.1f} {max(wall_ms):10.1f} "
              f"{'' if cpu != cpu else f'{cpu:12.1f}'}")


if __name__ == "__main__":
    main()
