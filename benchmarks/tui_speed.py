"""How fast the TUI answers, measured with Textual's Pilot on matmul@sm90 (its largest artifacts included).

    python benchmarks/tui_speed.py [--store DIR] [--repeat N]

Prints, in milliseconds:
* first paint on a warm store: a fresh ``python`` process importing irscope's TUI (with the garbage
  collector off, as ``irscope tui`` starts), building the app with ``make_app("matmul")``, until the
  first frame that shows the TTGIR (the layouts and facts panels and the list of passes arrive in the
  frames after it); also the process's whole wall time;
* switching the shown stage or pass (cursor key in the tree, or a jump): first visit (text read from
  the store) and later visits (cached); unfolding a stage's passes; moving the focus;
* toggling the diff view on and off, including matmul's LLVM IR, PTX and its biggest pass snapshots
  (4.6 MB of LLVM-dialect MLIR): ``d`` pressed as soon as the text shows (the diff computed on the
  key, earlier results forgotten), again (cached), and 1 s after the text showed (computed ahead);
* paging, jumping to the end and searching as you type in the biggest snapshot; side by side; ``]``.

For each action: *shown*, the time to the first frame with the new text or diff, and *settled*,
the time to the last frame it caused (the source pane's tints and the side panels follow the text),
and this process's CPU time (its threads included). Pilot's own wait for idleness is left out; the
machine's other work inflates wall times more than CPU times.

With TUI_SPEED_VERBOSE=1 it also says, on stderr, where the tree walk went and whether the diffs
timed "1 s after" were indeed computed ahead.

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
from collections.abc import Callable
from pathlib import Path

from irscope.request.captures import get_capture, make_request
from irscope.request.passdump import cached_pass_table, get_pass_dump

FIRST_PAINT = """
import time
t0, c0 = time.perf_counter(), time.process_time()
import gc
gc.disable()  # as ``irscope tui`` starts
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
    """Records when the screen finishes painting, to time a key press up to the frames it causes.

    Pilot's ``press`` returns only once the app has been idle for a while, which adds a constant
    wait; the latency a user sees ends with a frame. ``shown`` is the first frame in which ``probe``
    holds (the new text or diff is on screen); ``last`` is the last frame the key caused (the side
    panels, the source map's tints and the layouts follow the text in later frames).
    """

    def __init__(self, screen: object) -> None:
        self.last = 0.0
        self.shown = 0.0
        self.probe: Callable[[], bool] = lambda: True
        paint = screen._compositor_refresh  # type: ignore[attr-defined]

        def timed_paint() -> None:
            paint()
            self.last = time.perf_counter()
            if not self.shown and self.probe():
                self.shown = self.last

        screen._compositor_refresh = timed_paint  # type: ignore[attr-defined]


Row = tuple[str, list[float], list[float], list[float]]  # label, shown ms, settled ms, CPU ms


async def interactive(store: str, repeat: int) -> list[Row]:
    """Switch and toggle timings inside one app session."""
    from textual.widgets import ContentSwitcher

    from irscope.tui.app import make_app
    from irscope.tui.documents import DocRef
    from irscope.tui.widgets.navigator import Navigator
    from irscope.tui.widgets.text_view import TextView

    rows: list[Row] = []
    app = make_app("matmul", "sm90", 0, store, record_passes=False)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = app.screen
        while screen.current is None:
            await pilot.pause()
        await pilot.pause(0.5)
        frames = Frames(screen)
        key = screen.current.key
        dump = app.documents.dump(key)
        assert dump is not None, "the store lacks matmul's pass dump"
        biggest = max(dump.index.passes, key=lambda p: dump.index.sections[p.output or p.section].size)
        pipeline = next(p for p in dump.index.passes if p.name == "tritongpu-pipeline")
        view = screen.query_one(TextView)
        views = screen.query_one("#views", ContentSwitcher)
        nav = screen.query_one(Navigator)

        def showing(ref: DocRef | None = None) -> Callable[[], bool]:
            """The text of ``ref`` (default: what the tree's cursor is on) is on screen."""
            def probe() -> bool:
                node = nav.cursor_node
                want = ref or (node.data.ref if node is not None and node.data is not None else None)
                if want is None:  # a folded run of unchanged passes: the text stays, the tree's cursor moved
                    return True
                return (views.current == "text" and not view.diffing and view.document is not None
                        and view.document.ref == want)
            return probe

        def diff_drawn() -> bool:
            return view.diffing and view.row_count > 0 and not view.row_text(0).startswith("Comparing")

        async def timed(act: object, probe: Callable[[], bool] = lambda: True,
                        settle: float = 0.2) -> tuple[float, float, float]:
            """Run an action (a key name, or a callable): ms to the frame showing it, to its last frame; CPU ms.

            ``settle`` seconds after the frame showing it are waited for the frames of work it started.
            """
            frames.last = frames.shown = 0.0
            frames.probe = probe
            cpu, start = time.process_time(), time.perf_counter()
            if isinstance(act, str):
                await pilot.press(act)
            else:
                assert callable(act)
                act()
                await pilot.pause()
            while not frames.shown and time.perf_counter() - start < 10:
                await pilot.pause(0.01)
            await pilot.pause(settle)  # frames caused by work the action started (side panels) land in here
            cpu = (time.process_time() - cpu) * 1000
            return (frames.shown - start) * 1000, (max(frames.last, start) - start) * 1000, cpu

        def add(label: str, results: list[tuple[float, float, float]]) -> None:
            rows.append((label, [r[0] for r in results], [r[1] for r in results], [r[2] for r in results]))
            print(f"measured: {label}", file=sys.stderr)

        stage_refs = [DocRef(key, s.name) for s in app.documents.stages(key)]
        for visit in ("first visit", "cached"):
            await timed(lambda: screen.reveal_ref(stage_refs[0]), showing(stage_refs[0]))
            nav.focus()
            await pilot.pause(0.3)
            add(f"tree cursor down through the 6 stages ({visit})",
                [await timed("down", showing(ref)) for ref in stage_refs[1:]])

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
            add(f"{label}: first visit", [await timed(lambda ref=ref: screen.reveal_ref(ref), showing(ref))])
            again = []
            for _ in range(repeat):
                await timed(lambda: screen.reveal_ref(stage_refs[0]), showing(stage_refs[0]))
                again.append(await timed(lambda ref=ref: screen.reveal_ref(ref), showing(ref)))
            add(f"{label}: again", again)

        diff_targets = [("ttgir vs ttir", DocRef(key, "ttgir")), ("llir vs ttgir", DocRef(key, "llir")),
                        ("ptx vs llir", DocRef(key, "ptx")), ("sass vs ptx", DocRef(key, "sass")),
                        (f"pass {pipeline.index} {pipeline.name}", DocRef(key, pipeline.stage, pipeline.index)),
                        (f"pass {biggest.index} {biggest.name} (biggest)", DocRef(key, biggest.stage, biggest.index))]
        add("focus the text (e)", [await timed("e")])
        add("focus the tree (t)", [await timed("t")])
        view.focus()
        await pilot.pause(0.3)
        for label, ref in diff_targets:  # d pressed as soon as the text shows: the diff is computed on the key
            await timed(lambda ref=ref: screen.reveal_ref(ref), showing(ref), settle=0.0)
            app.documents.forget_diffs()  # earlier visits rested on these texts long enough to compute them ahead
            add(f"diff on, {label}: first, d at once", [await timed("d", diff_drawn)])
            add(f"diff off, {label}: first", [await timed("d", showing(ref))])
            again_on, again_off = [], []
            for _ in range(repeat):
                again_on.append(await timed("d", diff_drawn))
                again_off.append(await timed("d", showing(ref)))
            add(f"diff on, {label}: again", again_on)
            add(f"diff off, {label}: again", again_off)
        # After resting on a text, its diff has been computed ahead in a thread: d only draws it.
        effects = app.documents.effects(key) or {}
        changed = [p for p in dump.index.passes if p.input is not None and p.output is not None
                   and getattr(effects.get((p.index, "")), "status", "") == "changed"]
        for p in sorted(changed, key=lambda p: -dump.index.sections[p.output or p.section].size)[1:3]:
            ref = DocRef(key, p.stage, p.index)
            await timed(lambda ref=ref: screen.reveal_ref(ref), showing(ref), settle=1.0)
            if os.environ.get("TUI_SPEED_VERBOSE"):
                from irscope.analysis.diff import DiffOptions
                print("computed ahead:", app.documents.cached_diff(ref, DiffOptions()) is not None, file=sys.stderr)
            size = (dump.index.sections[p.output or p.section].size + dump.index.sections[p.input or p.section].size)
            add(f"diff on, pass {p.index} {p.name} ({size / 1e6:.1f} MB), 1 s after the text showed",
                [await timed("d", diff_drawn)])
            await timed("d", showing(ref))
        big_ref = DocRef(key, biggest.stage, biggest.index)
        await timed(lambda: screen.reveal_ref(big_ref), showing(big_ref))
        lines = len(app.documents.document(big_ref).lines)
        add(f"page down in pass {biggest.index}'s snapshot ({lines} lines)",
            [await timed("pagedown") for _ in range(5)])
        add("jump to its last line (G)", [await timed("G")])
        add("search it for 'nvvm.wgmma' (/ then typing, each key re-searches)",
            [await timed(lambda: screen.action_search())] + [await timed(k) for k in "nvvm.wgmma"])
        add("next match (n)", [await timed("enter")] + [await timed("n") for _ in range(3)])
        screen.reveal_ref(DocRef(key, pipeline.stage, pipeline.index))
        await pilot.pause(0.2)
        await timed("d", diff_drawn)
        add(f"side by side on, pass {pipeline.index} diff", [await timed("s", diff_drawn)])
        add("next change in the diff (])", [await timed("right_square_bracket")])
        await timed("d", showing())
        nav.focus()
        await pilot.pause(0.3)
        walk = []
        for _ in range(12):
            walk.append(await timed("down", showing()))
            if os.environ.get("TUI_SPEED_VERBOSE"):
                print(nav.cursor_node.label, walk[-1], file=sys.stderr)
        add("tree cursor down through ttgir's passes (diff off)", walk)
    return rows


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", default=None, help="a warm store (default: a temporary one, filled first)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    load = f"{os.getloadavg()[0]:.2f}"
    nan = [float("nan")]
    with tempfile.TemporaryDirectory(prefix="irscope-tui-speed-") as tmp:
        store = args.store or str(Path(tmp) / "store")
        ensure_store(store)
        inside, cpu, wall = first_paint(store, args.repeat)
        rows: list[Row] = [
            ("first paint: first frame showing the TTGIR, fresh process, imports included", inside, nan, cpu),
            ("first paint: that process's whole wall time (interpreter start to exit)", wall, nan, nan)]
        rows += asyncio.run(interactive(store, args.repeat))
    width = max(len(label) for label, *_ in rows)
    print(f"load average before: {load}; after: {os.getloadavg()[0]:.2f} (the machine's other work slows the wall "
          "times; CPU ms is this process's own, its background threads and the 0.2 s after each action included)")
    print("shown: the first frame with the new text or diff; settled: the last frame the action caused (side panels, "
          "source-map tints)")
    print(f"{'what (matmul@sm90 config 0, 160x45 terminal)':<{width}}  shown med   max   settled med   max   CPU med")

    def cell(values: list[float], digits: int) -> str:
        return f"{'':>{digits}}" if values[0] != values[0] else f"{statistics.median(values):{digits}.1f}"

    def top(values: list[float]) -> str:
        return f"{'':>6}" if values[0] != values[0] else f"{max(values):6.1f}"

    for label, shown, settled, cpu_ms in rows:
        print(f"{label:<{width}}  {cell(shown, 9)} {top(shown)}   {cell(settled, 11)} {top(settled)}   "
              f"{cell(cpu_ms, 7)}")


if __name__ == "__main__":
    main()
