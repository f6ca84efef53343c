"""Getting around the TUI in its second hour (issue #43): the IR pane's width at 160 columns, stage keys, the
focus after the what-if form, and every capture of a kernel (targets, configs, variants) one key away."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from irscope.store.store import Capture
from irscope.tui.app import IrscopeApp, make_app
from irscope.tui.catalog import CaptureId, Catalog
from irscope.tui.screens.main import MainScreen
from irscope.tui.widgets.navigator import Navigator
from irscope.tui.widgets.side_panel import SidePanel
from irscope.tui.widgets.text_view import TextView
from tests.test_tui_app import opened, screen_text, until, walk_to, warm_matmul

pytestmark = pytest.mark.compile


@pytest.fixture(scope="module")
def store(captures: Callable[..., Capture], shared_store: Path) -> str:
    """The session store, holding matmul@sm90 with passes."""
    return warm_matmul(captures, shared_store)


@pytest.fixture(scope="module")
def two_targets(captures: Callable[..., Capture], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding matmul's config 0 for sm90 and for sm80, and nothing else."""
    store = tmp_path_factory.mktemp("two-targets")
    for target in ("sm90", "sm80"):
        capture = captures("matmul", target)
        shutil.copytree(capture.path, store / "captures" / capture.path.name)
    return store


def drive(store: str, size: tuple[int, int], steps: Callable[[Pilot[None], IrscopeApp, MainScreen], Awaitable[None]],
          target: str = "sm90") -> None:
    """Open matmul (for ``target``) from ``store`` at a terminal ``size``, wait for it, run the steps."""
    async def run() -> None:
        app = make_app("matmul", target, 0, store, record_passes=False)
        async with app.run_test(size=size) as pilot:
            screen = app.screen
            assert isinstance(screen, MainScreen)
            await until(pilot, lambda: screen.current is not None, what="the capture")
            await pilot.pause()
            await steps(pilot, app, screen)

    asyncio.run(run())


def text_columns(view: TextView) -> int:
    """The columns of IR a text view shows on a row (its gutter of line numbers left out)."""
    return view.scrollable_content_region.width - view.gutter_width


def test_at_160_columns_a_120_character_ttgir_line_fits(store: str) -> None:
    """At 160 columns the IR pane was 66 columns wide, a third of each TTGIR line cut off; the side panel now goes
    below the text (and the tree is narrower) until the terminal is wide enough for both beside the text."""
    async def at_160(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        view = screen.query_one(TextView)
        assert text_columns(view) >= 120, text_columns(view)
        assert view.document is not None
        row = next(i for i, t in enumerate(view.document.lines) if 110 <= len(t) <= 120 and t.startswith("    %"))
        view.move_to(row)
        await pilot.pause()
        assert view.document.lines[row] in screen_text(app)  # shown whole
        side = screen.query_one(SidePanel)
        assert side.region.y >= view.region.bottom  # below the text, across the screen
        assert side.region.width >= 120

    async def at_240(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        view = screen.query_one(TextView)
        side = screen.query_one(SidePanel)
        assert side.region.x >= view.region.right  # wide enough for the side panel beside the text
        assert text_columns(view) >= 120, text_columns(view)

    drive(store, (160, 50), at_160)
    drive(store, (240, 50), at_240)


def test_digit_keys_show_the_stages_wherever_the_tree_cursor_is(store: str) -> None:
    """Switching stage meant arrowing past every unfolded pass: 1 to 9 show the capture's stages in the tree's
    order (the tree numbers them), in diff mode too."""
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        screen = await opened(pilot, app)
        key = screen.current.key  # type: ignore[union-attr]
        names = [s.name for s in app.documents.stages(key)]
        assert names[:4] == ["source", "ttir", "ttgir", "llir"]
        nav = screen.query_one(Navigator)
        nav.focus()
        await walk_to(pilot, nav, "ttgir")
        await pilot.press("right")
        await walk_to(pilot, nav, "tritongpu-pipeline")  # deep in the unfolded passes
        assert screen.current is not None and screen.current.pass_index is not None
        await pilot.press("4")
        await pilot.pause()
        assert screen.current is not None and (screen.current.stage, screen.current.pass_index) == ("llir", None)
        node = nav.cursor_node
        assert node is not None and node.data is not None and node.data.ref == screen.current
        assert str(node.label).startswith("4 llir")
        await pilot.press("d", "2")  # ttir against the source stage before it: the diff stays on
        await pilot.pause()
        assert screen.current.stage == "ttir" and screen.query_one(TextView).diffing
        await pilot.press("9")  # more than the capture has: it says so and stays
        await pilot.pause()
        assert screen.current.stage == "ttir"
        assert any(f"This capture has {len(names)} stages" in n.message for n in app._notifications)
        assert "1-9 Stage" in screen_text(app).splitlines()[-1]

    drive(store, (160, 50), steps)


def test_escape_from_the_what_if_form_gives_the_focus_back(store: str) -> None:
    from irscope.tui.screens.what_if import WhatIfScreen

    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        for pane in (screen.query_one(TextView), screen.query_one(Navigator)):
            pane.focus()
            await pilot.pause()
            await pilot.press("x")
            await until(pilot, lambda: isinstance(app.screen, WhatIfScreen), what="the form")
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is screen, what="the main screen")
            await pilot.pause()
            assert screen.focused is pane and pane.has_focus

    drive(store, (160, 50), steps)


def test_a_lists_every_capture_of_the_kernel_and_opens_the_chosen_one(two_targets: Path) -> None:
    """``tui matmul`` showed one capture; a lists each target's and config's (and variant's) the store holds."""
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        assert "-sm90-" in screen.current.key  # type: ignore[union-attr]
        await pilot.press("a")
        await until(pilot, lambda: "Captures of matmul" in screen_text(app), what="the picker")
        await until(pilot, lambda: "sm80 · config 0 · 128x256x64 w8 s3" in screen_text(app), what="sm80 listed")
        text = screen_text(app)
        assert "sm90 · config 0 · 128x256x64 w8 s3" in text and "on screen · Hopper" in text
        assert "sm90 · config 1" not in text  # only what the store holds
        await pilot.press(*"sm80", "enter")
        await until(pilot, lambda: screen.current is not None and "-sm80-" in screen.current.key, what="sm80")
        await pilot.pause()
        assert screen.current is not None and screen.current.stage == "ttgir"
        assert not screen.jobs.states  # opened from the store, nothing compiled
        assert "matmul · sm80 · config 0 · TritonGPU IR (ttgir)" in screen_text(app)
        assert "versionMajor = 2" in screen_text(app)  # Ampere's mma.sync layout

    drive(str(two_targets), (160, 50), steps)


def test_tui_kernel_without_a_target_opens_what_the_store_holds(two_targets: Path, tmp_path: Path) -> None:
    """With no --target and no capture for the default target, ``tui matmul`` opens the store's capture (the
    same config) instead of compiling the default target's."""
    only = tmp_path / "store"
    shutil.copytree(two_targets, only)
    for folder in (only / "captures").glob("matmul-sm90-*"):
        shutil.rmtree(folder)
    app = make_app("matmul", None, 0, str(only), record_passes=False)
    assert app.state.start == CaptureId("matmul", "sm80", 0)
    assert "no matmul for sm90" in app.state.start_note and "showing sm80 config 0" in app.state.start_note
    both = make_app("matmul", None, 0, str(two_targets), record_passes=False)
    assert both.state.start == CaptureId("matmul", "sm90", 0) and not both.state.start_note  # the default held
    assert Catalog.load(str(two_targets)).captures_of("matmul") == [CaptureId("matmul", "sm80", 0),
                                                                     CaptureId("matmul", "sm90", 0)]
