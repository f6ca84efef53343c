"""The terminal UI after the review of issue 14: what a user reading PTX, long pass summaries, layout maps,
source tints and pass diffs met, driven with Textual's Pilot on real captures."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from irscope.store.store import Capture
from irscope.tui.app import IrscopeApp
from irscope.tui.documents import DocRef
from irscope.tui.screens.main import MainScreen
from irscope.tui.widgets.ir_view import IRView
from irscope.tui.widgets.layouts_panel import LayoutsPanel
from irscope.tui.widgets.navigator import Navigator
from irscope.tui.widgets.side_panel import SidePanel
from irscope.tui.widgets.text_view import TextView
from tests.test_tui_app import app_for, opened, screen_text, until, warm_matmul

pytestmark = pytest.mark.compile


@pytest.fixture(scope="module")
def store(captures: Callable[..., Capture], shared_store: Path) -> str:
    """The session store, holding matmul@sm90 with passes."""
    return warm_matmul(captures, shared_store)


def drive(store: str, steps: Callable[[Pilot[None], IrscopeApp, MainScreen], object],
          size: tuple[int, int] = (160, 45)) -> None:
    """Open matmul@sm90 as ``irscope tui matmul`` does at ``size``, wait for its passes, run the steps."""
    async def run() -> None:
        app = app_for(store)
        async with app.run_test(size=size) as pilot:
            await steps(pilot, app, await opened(pilot, app))  # type: ignore[misc]

    asyncio.run(run())


def drawn_segments(app: IrscopeApp) -> list[str]:
    """The text of every segment the screen would send to the terminal."""
    update = app.screen._compositor.render_full_update()
    return [seg.text for line in update.strips for strip in line for seg in strip]


def pass_ref(app: IrscopeApp, screen: MainScreen, name: str) -> DocRef:
    """The first pass of matmul's dump called ``name``."""
    key = screen.current.key  # type: ignore[union-attr]
    dump = app.documents.dump(key)
    assert dump is not None
    found = next(p for p in dump.index.passes if p.name == name)
    return DocRef(key, found.stage, found.index)


# Tabs ------------------------------------------------------------------------------------------------------

def test_ptx_diff_rows_have_their_tabs_expanded(store: str) -> None:
    """PTX indents with tabs (``\\t.reg .pred \\t%p<41>;``); a tab sent to the terminal shifts the row and leaves
    stale cells, so the diff draws the line as the text view does, tabs expanded to 8-column stops."""
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        key = screen.current.key  # type: ignore[union-attr]
        raw = app.documents.captures[key].read("ptx")
        pred = next(line for line in raw.splitlines() if ".reg .pred" in line)
        assert "\t" in pred  # Triton's PTX as printed: a tab before the directive and one before the operand
        screen.reveal_ref(DocRef(key, "ptx"))
        await pilot.pause()
        view = screen.query_one(TextView)
        view.focus()
        await pilot.press("d")
        assert view.diffing and view.diff is not None and view.diff.changed
        row = next(i for i in range(view.row_count) if ".reg .pred" in view.row_text(i))
        view.move_to(row)
        await pilot.pause()
        assert view.row_text(row)[1:] == pred.expandtabs(8)
        assert pred.expandtabs(8).strip() in screen_text(app)
        assert not any("\t" in text for text in drawn_segments(app))
        await pilot.press("s")  # side by side draws each half the same way
        view.move_to(next(i for i in range(view.row_count) if ".reg .pred" in view.row_text(i)))
        await pilot.pause()
        assert not any("\t" in text for text in drawn_segments(app))
        assert pred.expandtabs(8).strip()[:20] in screen_text(app)  # the half is narrow: the start of the line

    drive(store, steps)


# The header -----------------------------------------------------------------------------------------------

def test_a_long_pass_summary_wraps_in_the_header_at_160_columns(store: str) -> None:
    """tritongpu-pipeline's summary runs to ~250 characters; at 160 columns the header showed its first 70."""
    from irscope.tui.widgets.doc_info import DocInfo

    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        screen.reveal_ref(pass_ref(app, screen, "tritongpu-pipeline"))
        await pilot.pause()
        await pilot.pause()
        info = screen.query_one(DocInfo)
        assert "loop pipelined: 3 stages" in info.plain  # the summary itself (irscope.analysis.passes)
        shown = [line.rstrip() for line in screen_text(app).splitlines()]
        region = info.content_region
        rows = [shown[y][region.x:region.right].strip() for y in range(region.y, region.bottom)]
        assert " ".join(rows).find("loop pipelined: 3 stages") >= 0, rows
        assert info.size.height == len(rows) >= 3
        screen.reveal_ref(DocRef(screen.current.key, "ttgir"))  # type: ignore[union-attr]
        await pilot.pause()
        await pilot.pause()
        # The header keeps its height (walking the passes, the text under it must not jump up and down): the
        # stage's hint on the second line, blank lines under it.
        assert info.size.height == len(rows)
        assert "d: diff with the stage before" in screen_text(app)

    drive(store, steps)


# Layouts: keys from anywhere, the map at full width ----------------------------------------------------------

async def _layouts_ready(pilot: Pilot[None], screen: MainScreen) -> LayoutsPanel:
    await until(pilot, lambda: bool(screen.query(LayoutsPanel)) and screen.query_one(LayoutsPanel).settled,
                what="the layout map")
    return screen.query_one(LayoutsPanel)


def columns_shown(picture: str) -> int:
    """How many of the tile's columns a folded map draws (``showing columns 0-8 and 248-255 of 256``)."""
    import re

    found = re.search(r"showing columns 0-(\d+) and (\d+)-(\d+) of", picture)
    assert found is not None, picture
    return int(found[1]) + 1 + int(found[3]) - int(found[2]) + 1


def test_layout_keys_act_from_the_tree_and_the_text(store: str) -> None:
    """v and w worked only once the layout list had the focus; from the tree or the text they did nothing."""
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        await pilot.press("L")
        panel = await _layouts_ready(pilot, screen)
        assert panel.selected is not None and panel.selected.label == "#mma"
        await pilot.press("t")  # the focus back in the tree, the layouts still in front
        assert isinstance(screen.focused, Navigator)
        await pilot.press("v")
        await until(pilot, lambda: panel.view == "hardware" and "hardware view" in panel.map_text,
                    what="the hardware view")
        await pilot.press("e")
        assert isinstance(screen.focused, TextView)
        before = panel.warp
        await pilot.press("w")
        await until(pilot, lambda: panel.warp == before + 1 and panel.settled, what="the next warp")
        assert f"warp {before + 1}" in panel.map_text
        await pilot.press("W")
        await until(pilot, lambda: panel.warp == before and panel.settled, what="the previous warp")
        await pilot.press("o")  # another tab in front: v brings the layouts back and acts
        await pilot.press("t", "v")
        await until(pilot, lambda: screen.query_one(SidePanel).active_tab == "layouts" and panel.view == "tensor",
                    what="the tensor view again")

    drive(store, steps)


def test_w_in_the_tensor_view_switches_to_the_hardware_view(store: str) -> None:
    """The tensor view shows every warp at once, so w there used to change nothing on screen."""
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        await pilot.press("L")
        panel = await _layouts_ready(pilot, screen)
        await pilot.press("t", "w")
        await until(pilot, lambda: panel.view == "hardware" and panel.settled, what="the hardware view")
        assert "hardware view" in panel.map_text

    drive(store, steps)


def test_z_gives_the_layout_map_the_whole_width(store: str) -> None:
    """In the side panel beside the text (a 240-column terminal) the mma map folds its 256 columns to a few; z
    draws it across the screen."""
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        await pilot.press("L")
        panel = await _layouts_ready(pilot, screen)
        narrow_width, narrow_map = panel.size.width, panel.map_text
        await pilot.press("z")
        await until(pilot, lambda: panel.size.width > 230 and panel.settled, what="the wide map")
        assert not screen.query_one(Navigator).display or not screen.query_one(Navigator).region
        wide_map = panel.map_text
        assert "T0:0" in wide_map
        assert columns_shown(wide_map) > 2 * columns_shown(narrow_map), (narrow_map, wide_map)
        await pilot.press("z")
        await until(pilot, lambda: panel.size.width == narrow_width and panel.settled, what="the panel back")
        assert screen.query_one(TextView).region.width > 0

    drive(store, steps, size=(240, 45))


# Focus -------------------------------------------------------------------------------------------------------

def test_o_and_l_focus_what_is_typed_next(store: str) -> None:
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        await pilot.press("o")
        source = screen.query_one("#source", IRView)
        await until(pilot, lambda: screen.focused is source, what="the source focused")
        await pilot.press("L")
        await _layouts_ready(pilot, screen)
        await until(pilot, lambda: screen.focused is screen.query_one("#layout-list"), what="the list focused")
        first = screen.query_one(LayoutsPanel).selected
        await pilot.press("down")  # moves in the list of layouts, not in the tree
        assert screen.query_one(LayoutsPanel).selected is not first

    drive(store, steps)


# Stepping through the tinted lines -----------------------------------------------------------------------------

def test_m_and_shift_m_step_through_the_rows_of_the_tinted_source_line(store: str) -> None:
    """A kernel line makes several TTGIR rows, spread over the text (the K-loop's load of ``a``: address
    arithmetic, the load, its mask); m / M walk them, wrapping."""
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        view = screen.query_one(TextView)
        side = screen.query_one(SidePanel)
        await until(pilot, lambda: bool(side.line_map), what="the source map")
        await pilot.press("o")
        source = screen.query_one("#source", IRView)
        await until(pilot, lambda: screen.focused is source, what="the source focused")
        store_line = next(i for i in range(source.row_count) if "a = tl.load(a_ptrs" in source.row_text(i))
        source.move_to(store_line)
        await pilot.pause()
        tinted = sorted(view.marked)
        assert len(tinted) >= 3 and any("async_copy_global_to_local" in view.row_text(r) for r in tinted), tinted
        assert view.cursor < tinted[0]
        visited = []
        for _ in range(len(tinted) + 1):
            await pilot.press("m")
            await pilot.pause()
            visited.append(view.cursor)
            assert sorted(view.marked) == tinted  # the tints stay on tl.store's rows while stepping
        assert visited == [*tinted, tinted[0]]  # in order, then round to the first
        assert f"IR line 1/{len(tinted)}" in str(view.border_subtitle)
        await pilot.press("M")
        assert view.cursor == tinted[-1]
        assert source.marked == frozenset({store_line})
        view.focus()
        await pilot.press("home")  # the cursor leaves the rows: the subtitle goes
        await pilot.pause()
        assert "IR line" not in str(view.border_subtitle)

    drive(store, steps)


# Diff mode across languages ------------------------------------------------------------------------------------

def test_moving_on_to_a_stage_in_another_language_turns_the_diff_off(store: str) -> None:
    """Diff mode on at the PTX, ↓ to the SASS in the tree: a line diff of PTX against SASS says nothing."""
    from tests.test_tui_app import walk_to

    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        nav = screen.query_one(Navigator)
        view = screen.query_one(TextView)
        nav.focus()
        await walk_to(pilot, nav, "ttgir", top=True)
        await pilot.press("d")
        assert screen.diff_mode and "ttir  →  ttgir" in str(view.border_title)  # the same language: a diff
        await pilot.press("down")  # llir: LLVM IR against TTGIR
        await pilot.pause()
        assert not screen.diff_mode and not view.diffing
        assert screen.current is not None and screen.current.stage == "llir"
        assert any("Diff off: TritonGPU IR → LLVM IR compares two languages" in n.message for n in app._notifications)
        await walk_to(pilot, nav, "ptx")
        await pilot.press("d")  # asked for explicitly, the diff is drawn, and says what it compares
        assert view.diffing and "two languages" in str(view.border_title)
        await pilot.press("down")
        await pilot.pause()
        assert screen.current is not None and screen.current.stage == "sass"
        assert not screen.diff_mode and not view.diffing
        assert "ptx  →  sass" not in screen_text(app)
        assert any("HMMA" in view.row_text(i) or "HGMMA" in view.row_text(i) for i in range(view.row_count))
        await walk_to(pilot, nav, "ttgir", top=True)  # and a pass diff walks on to the next pass in diff mode
        await pilot.press("right")
        await walk_to(pilot, nav, "tritongpu-pipeline")
        await pilot.press("d", "down")
        await pilot.pause()
        assert screen.diff_mode and view.diffing

    drive(store, steps)


# Pass diffs that are mostly renumbering ----------------------------------------------------------------------------

def test_a_pass_diff_that_is_mostly_renumbering_opens_without_ssa_numbers(store: str) -> None:
    """triton-licm hoists two ops out of the K-loop and MLIR's printer renumbers the values after them: the diff as
    printed is 68 lines, 64 of them renamed values. It opens with SSA numbers ignored, says so, and r shows it as
    printed; a pass whose diff is mostly real changes (convert-triton-to-tritongpu) opens as printed."""
    from irscope.analysis.diff import DiffOptions

    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        ref = pass_ref(app, screen, "triton-licm")
        effect = (app.documents.effects(ref.key) or {})[(ref.pass_index, "")]  # type: ignore[index]
        inputs = app.documents.diff_inputs(ref)
        assert not isinstance(inputs, str)
        printed = app.documents.diff(ref, inputs, DiffOptions())
        numbered = app.documents.diff(ref, inputs, DiffOptions(normalize_ssa=True))
        assert (printed.added, printed.removed) == (effect.added, effect.removed)
        assert 2 * (numbered.added + numbered.removed) <= printed.added + printed.removed  # renumbering is most of it
        screen.reveal_ref(ref)
        view = screen.query_one(TextView)
        view.focus()
        await pilot.press("d")
        assert view.diffing and view.diff is not None and view.diff.options.normalize_ssa
        assert (view.diff.added, view.diff.removed) == (numbered.added, numbered.removed)
        renamed = printed.added + printed.removed - numbered.added - numbered.removed
        total = printed.added + printed.removed
        assert total - renamed == numbered.added + numbered.removed
        assert f"+{numbered.added} -{numbered.removed} · change 1/" in screen_text(app)
        assert f"· {renamed} renumbered lines hidden (r: show)" in screen_text(app)
        await pilot.press("r")
        assert not view.diff.options.normalize_ssa and (view.diff.added, view.diff.removed) == (
            printed.added, printed.removed)
        assert "r: ignore renumbering" in str(view.border_subtitle)
        await pilot.press("r")  # the user's choice from now on
        assert view.diff.options.normalize_ssa and "only renumbered" not in str(view.border_subtitle)
        assert screen.ignore_ssa is True

    drive(store, steps)


def test_a_pass_diff_of_real_changes_opens_as_printed(store: str) -> None:
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        ref = pass_ref(app, screen, "convert-triton-to-tritongpu")
        screen.reveal_ref(ref)
        view = screen.query_one(TextView)
        view.focus()
        await pilot.press("d")
        assert view.diffing and view.diff is not None and not view.diff.options.normalize_ssa
        assert "r: ignore renumbering" in str(view.border_subtitle)

    drive(store, steps)
