"""Snapshots of the TUI's main views at fixed terminal sizes (pytest-textual-snapshot; Textual is pinned).

The app reads a store holding only matmul@sm90 config 0 (copied from the session store), so the tree
looks the same whatever other tests captured. The views avoid the few lines that print absolute
paths (the ``#loc`` definitions), so the pictures do not depend on where the repository lives.
Regenerate with ``pytest tests/test_tui_snapshots.py --snapshot-update`` after a deliberate change
(or when Triton, the bundled kernels or their list change), and look at the SVGs before committing.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from irscope.store.store import Capture
from irscope.tui.app import make_app
from irscope.tui.catalog import CaptureId
from irscope.tui.screens.main import MainScreen
from irscope.tui.widgets.layouts_panel import LayoutsPanel
from irscope.tui.widgets.navigator import Navigator
from irscope.tui.widgets.text_view import TextView
from tests.test_tui_app import until, walk_to, warm_matmul

pytestmark = pytest.mark.compile

WIDE = (160, 45)
NARROW = (100, 30)


@pytest.fixture(scope="module")
def snap_store(captures: Callable[..., Capture], shared_store: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A store with matmul@sm90 config 0, its passes and their effects, and nothing else."""
    warm_matmul(captures, shared_store)
    capture = captures("matmul", "sm90")
    store = tmp_path_factory.mktemp("snap-store")
    shutil.copytree(capture.path, store / "captures" / capture.path.name)
    return str(store)


async def _ready(pilot: object) -> MainScreen:
    app = pilot.app  # type: ignore[attr-defined]
    screen = app.screen
    assert isinstance(screen, MainScreen)
    nav = screen.query_one(Navigator)
    await until(pilot, lambda: screen.current is not None and nav.find("pass", CaptureId("matmul", "sm90")) is not None,
                what="the capture")
    return screen


async def _at_loop(pilot: object) -> None:
    """The TTGIR with the cursor on the K-loop (away from the lines that print file paths)."""
    screen = await _ready(pilot)
    view = screen.query_one(TextView)
    row = next(i for i in range(view.row_count) if "scf.for" in view.row_text(i))
    view.focus()
    view.move_to(row)
    await until(pilot, lambda: bool(screen.query_one("#source").marked), what="the source map")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def _pipeline_diff(pilot: object) -> None:
    """The diff of the pass that software-pipelined the K-loop."""
    screen = await _ready(pilot)
    nav = screen.query_one(Navigator)
    nav.focus()
    await walk_to(pilot, nav, "ttgir")
    await pilot.press("right")  # type: ignore[attr-defined]
    await walk_to(pilot, nav, "tritongpu-pipeline")
    await pilot.press("d")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def _side_by_side(pilot: object) -> None:
    await _pipeline_diff(pilot)
    await pilot.press("s", "right_square_bracket")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def _mma_map(pilot: object) -> None:
    """The layouts panel on the TTGIR, with the mma layout's tile-to-warp map."""
    screen = await _ready(pilot)
    view = screen.query_one(TextView)
    view.focus()
    view.move_to(next(i for i in range(view.row_count) if "ttng.warp_group_dot " in view.row_text(i)))
    await until(pilot, lambda: bool(view.marked), what="the source map")
    await pilot.press("L")  # type: ignore[attr-defined]
    await until(pilot, lambda: bool(screen.query(LayoutsPanel)) and screen.query_one(LayoutsPanel).settled,
                what="the map")
    await pilot.pause(0.2)  # type: ignore[attr-defined]
    assert "T0:0" in screen.query_one(LayoutsPanel).map_text
    await pilot.pause()  # type: ignore[attr-defined]


async def _map_zoomed(pilot: object) -> None:
    """The mma map with the side panel zoomed (z) over the whole screen."""
    await _mma_map(pilot)
    screen = pilot.app.screen  # type: ignore[attr-defined]
    panel = screen.query_one(LayoutsPanel)
    await pilot.press("z")  # type: ignore[attr-defined]
    await until(pilot, lambda: panel.size.width > 150 and panel.settled, what="the wide map")
    await pilot.pause(0.2)  # type: ignore[attr-defined]


async def _sass_mapped(pilot: object) -> None:
    """The SASS, its cursor on a tensor-core HGMMA, the tl.dot line tinted in the source pane."""
    screen = await _ready(pilot)
    ref = screen.current
    assert ref is not None
    screen.reveal_ref(type(ref)(ref.key, "sass"))
    view = screen.query_one(TextView)
    view.focus()
    side = screen.query_one("#side")
    await until(pilot, lambda: bool(side.line_map), what="the SASS source map")  # type: ignore[attr-defined]
    hgmma = [r for r in range(view.row_count) if "HGMMA" in view.row_text(r)]
    view.move_to(hgmma[-1])
    await until(pilot, lambda: bool(screen.query_one("#source").marked), what="the tinted source line")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def _help(pilot: object) -> None:
    """The help screen, over the TTGIR scrolled to the K-loop (the top of the file prints paths)."""
    await _at_loop(pilot)
    await pilot.press("question_mark")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


def test_main_view_ttgir_with_source(snap_compare: Callable[..., bool], snap_store: str) -> None:
    """matmul@sm90's TTGIR at the K-loop; the loop's kernel line tinted in the source pane."""
    assert snap_compare(make_app("matmul", "sm90", 0, snap_store, record_passes=False), terminal_size=WIDE,
                        run_before=_at_loop)


def test_pass_diff_unified(snap_compare: Callable[..., bool], snap_store: str) -> None:
    """tritongpu-pipeline selected in the tree, its diff on: async copies and waits added."""
    assert snap_compare(make_app("matmul", "sm90", 0, snap_store, record_passes=False), terminal_size=WIDE,
                        run_before=_pipeline_diff)


def test_pass_diff_side_by_side(snap_compare: Callable[..., bool], snap_store: str) -> None:
    """The same diff side by side, at its second change."""
    assert snap_compare(make_app("matmul", "sm90", 0, snap_store, record_passes=False), terminal_size=WIDE,
                        run_before=_side_by_side)


def test_layouts_and_mma_map(snap_compare: Callable[..., bool], snap_store: str) -> None:
    """The layouts panel: #mma explained and drawn (warps as colours, lane:register in each cell)."""
    assert snap_compare(make_app("matmul", "sm90", 0, snap_store, record_passes=False), terminal_size=WIDE,
                        run_before=_mma_map)


def test_layout_map_zoomed_to_the_whole_screen(snap_compare: Callable[..., bool], snap_store: str) -> None:
    """z: the layouts panel over the whole screen, the mma map drawn with as many columns as fit."""
    assert snap_compare(make_app("matmul", "sm90", 0, snap_store, record_passes=False), terminal_size=WIDE,
                        run_before=_map_zoomed)


def test_narrow_terminal_puts_the_side_panel_below(snap_compare: Callable[..., bool], snap_store: str) -> None:
    """At 100x30 the source pane sits under the text."""
    assert snap_compare(make_app("matmul", "sm90", 0, snap_store, record_passes=False), terminal_size=NARROW,
                        run_before=_at_loop)


def test_sass_mapped_to_the_source(snap_compare: Callable[..., bool], snap_store: str) -> None:
    """Triton's SASS with the kernel line of the instruction under the cursor (through nvdisasm -gi)."""
    assert snap_compare(make_app("matmul", "sm90", 0, snap_store, record_passes=False), terminal_size=WIDE,
                        run_before=_sass_mapped)


def test_help_screen(snap_compare: Callable[..., bool], snap_store: str) -> None:
    """? lists every key."""
    assert snap_compare(make_app("matmul", "sm90", 0, snap_store, record_passes=False), terminal_size=NARROW,
                        run_before=_help)


def test_light_theme(snap_compare: Callable[..., bool], snap_store: str) -> None:
    """The pipelining diff on a light terminal theme."""
    assert snap_compare(make_app("matmul", "sm90", 0, snap_store, record_passes=False, theme="textual-light"),
                        terminal_size=WIDE, run_before=_pipeline_diff)


@pytest.fixture()
def own_store(snap_store: str, tmp_path: Path) -> str:
    """A copy of the snapshot store that a test may add variants to (the others must not see them)."""
    shutil.copytree(snap_store, tmp_path / "store")
    return str(tmp_path / "store")


async def _what_if(pilot: object, name: str, value: str) -> object:
    """x on the K-loop, ``name`` set to ``value`` in the form and Enter pressed; the app."""
    from textual.widgets import Input

    from irscope.tui.screens.what_if import WhatIfScreen

    await _at_loop(pilot)
    app = pilot.app  # type: ignore[attr-defined]
    await pilot.press("x")  # type: ignore[attr-defined]
    await until(pilot, lambda: isinstance(app.screen, WhatIfScreen), what="the form")
    field = app.screen.query_one(f"#set-{name}", Input)
    field.value = value
    field.focus()
    await pilot.press("enter")  # type: ignore[attr-defined]
    return app


async def _what_if_refused(pilot: object) -> None:
    """num_warps=3 in the what-if form: the form says why, nothing compiles."""
    app: Any = await _what_if(pilot, "num_warps", "3")
    await until(pilot, lambda: "power of two" in str(app.screen.query_one("#what-if-error").render()),
                what="the form's message")
    app.screen.query_one("#what-if-error").scroll_visible(animate=False)  # the message, at the form's end
    # The focused field's cursor blinks (0.5 s on, 0.5 s off): held on, as the reference shows it, so a slow
    # machine's frame does not catch it off.
    from textual.widgets import Input

    for field in app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause(0.2)  # type: ignore[attr-defined]


async def _variant_in_the_tree(pilot: object) -> None:
    """num_stages=2 compiled from the form, its report closed: the variant below its config in the tree."""
    from irscope.tui.screens.compare import CompareScreen

    app: Any = await _what_if(pilot, "num_stages", "2")
    await until(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.text.startswith("A: "),
                what="the variant's report", timeout=180)
    await pilot.press("escape")  # type: ignore[attr-defined]
    screen = app.screen
    assert isinstance(screen, MainScreen)
    variant = CaptureId("matmul", "sm90", 0, "num_stages=2")
    await until(pilot, lambda: screen.query_one(Navigator).config_node(variant) is not None, what="the variant's node")
    screen.query_one(TextView).focus()
    await pilot.pause(0.3)  # type: ignore[attr-defined]


def test_what_if_form_refuses_a_bad_value(snap_compare: Callable[..., bool], own_store: str) -> None:
    """The x form: settable names with their values, target and Triton; num_warps=3 refused in the form."""
    assert snap_compare(make_app("matmul", "sm90", 0, own_store, record_passes=False), terminal_size=WIDE,
                        run_before=_what_if_refused)
    assert len(list(Path(own_store, "captures").iterdir())) == 1  # nothing compiled


def test_what_if_variant_joins_the_tree(snap_compare: Callable[..., bool], own_store: str) -> None:
    """After a what-if on num_stages: `c0 ↳ num_stages=2` right below config 0."""
    assert snap_compare(make_app("matmul", "sm90", 0, own_store, record_passes=False), terminal_size=WIDE,
                        run_before=_variant_in_the_tree)
