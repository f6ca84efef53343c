"""What a new user met in the TUI (issue #28), on real captures: two different kernels of one name, target and
config in the store (the TUI opens the one whose key is given), the what-if form's focus, hidden locations."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from irscope.store.store import Store
from irscope.tui.app import make_app
from irscope.tui.catalog import Catalog
from irscope.tui.screens.main import MainScreen
from irscope.tui.widgets.ir_view import IRView
from tests.conftest import DATA, REPO, invoke
from tests.test_tui_app import SIZE, screen_text, until

pytestmark = pytest.mark.compile

OPS = REPO / "docs" / "examples" / "ops.py"


@pytest.fixture(scope="module")
def two_adds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A store with docs/examples/ops.py's add_kernel and then two_kernels.py's (a recorded program); both keys."""
    store = tmp_path_factory.mktemp("two-adds")
    shown = invoke("show", f"{OPS}:add_kernel", "--args", "x=fp32[4096], y=fp32[4096], out=fp32[4096], n=4096",
                   "--constexpr", "BLOCK=1024", "--target", "sm90", "--stage", "ttir", store=store)
    assert shown.exit_code == 0, shown.output
    recorded = invoke("capture", "--store", str(store), "--target", "sm90", "--", sys.executable,
                      str(DATA / "programs" / "two_kernels.py"))
    assert recorded.exit_code == 0, recorded.output
    adds = [c.manifest for c in Store(store).captures() if c.manifest.kernel == "add_kernel"]
    assert [m.origin == "program" for m in adds] == [False, True]
    return store, adds[0].key, adds[1].key


def test_each_key_opens_its_own_capture(two_adds: tuple[Path, str, str]) -> None:
    store, first, second = two_adds

    async def run(key: str) -> None:
        app = make_app(key, None, 0, str(store), record_passes=False)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, MainScreen)
            await until(pilot, lambda: screen.current is not None, what="the capture")
            await pilot.pause()
            assert screen.current is not None and screen.current.key == key
            document = screen.query_one(IRView).document
            assert document is not None and document.ref.key == key  # the TTGIR on screen is this capture's
            assert "add_kernel (two_kernels.py)" in screen_text(app)  # the other is listed apart in the tree

    asyncio.run(run(first))
    asyncio.run(run(second))


def test_the_catalog_lists_both_and_what_ifs_follow_their_base(two_adds: tuple[Path, str, str]) -> None:
    store, first, second = two_adds
    catalog = Catalog.load(str(store))
    ids = [catalog.find(first), catalog.find(second)]
    assert None not in ids and ids[0] != ids[1]
    assert [catalog.key(cid) for cid in ids if cid is not None] == [first, second]
    assert sorted(n for n in catalog.names() if n.startswith("add_kernel")) == ["add_kernel",
                                                                                "add_kernel (two_kernels.py)"]


def test_the_what_if_form_opens_with_its_first_field_focused(two_adds: tuple[Path, str, str]) -> None:
    from textual.widgets import Input

    from irscope.tui.screens.what_if import WhatIfScreen

    store, first, _ = two_adds

    async def run() -> None:
        app = make_app(first, None, 0, str(store), record_passes=False)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, MainScreen)
            await until(pilot, lambda: screen.current is not None, what="the capture")
            await pilot.press("x")
            await until(pilot, lambda: isinstance(app.screen, WhatIfScreen), what="the what-if form")
            await pilot.pause()
            form = app.screen
            assert isinstance(form, WhatIfScreen)
            fields = [f for f in form.query(Input) if form.movable or str(f.id).startswith("set-")]
            assert fields and app.focused is fields[0], app.focused
            assert fields[0].value  # the capture's own value, selected: typing replaces it, no Tab first
            await pilot.press("7")
            assert fields[0].value == "7"

    asyncio.run(run())


def test_locations_are_hidden_and_hash_shows_them_with_the_stored_line_numbers(two_adds: tuple[Path, str, str]) -> None:
    from irscope.tui.linemap import line_map
    from irscope.tui.widgets.keys_footer import shown_keys
    from irscope.tui.widgets.side_panel import SidePanel
    from irscope.tui.widgets.text_view import TextView

    store, first, _ = two_adds
    stored = Store(store).get(first)
    assert stored is not None
    ttgir = (stored.path / stored.manifest.files["ttgir"]).read_text().rstrip("\n").split("\n")
    func = next(i for i, line in enumerate(ttgir) if "tt.func public @add_kernel" in line) + 1
    assert any(line.startswith("#loc") for line in ttgir[:func])  # the stored text names its file before the body

    async def run() -> None:
        app = make_app(first, None, 0, str(store), record_passes=False)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, MainScreen)
            await until(pilot, lambda: screen.current is not None, what="the capture")
            await pilot.pause()
            view = screen.query_one(TextView)
            text = screen_text(app)
            assert "#loc" not in text and " loc(" not in text  # hidden, as irscope show hides them on a terminal
            assert ("number_sign", "Locations") in [k[:2] for k in shown_keys(screen)]  # the footer names the key
            document = view.document
            assert document is not None and document.full is not None
            row = next(r for r, line in enumerate(document.lines) if "tt.func public @add_kernel" in line)
            assert row < func - 1 and view.row_label(row) == str(func)  # the stored text's number, not the row's
            # The source map, read from the stored text, points the same rows at the same kernel lines.
            shown, full = line_map(stored, document), line_map(stored, document.full)
            assert shown.to_source and all(full.to_source.get(document.number(r) - 1) == line
                                           for r, line in shown.to_source.items())
            assert len(shown.to_source) == len([r for r in full.to_source if not ttgir[r].startswith("#loc")])
            await until(pilot, lambda: bool(screen.query_one(SidePanel).line_map), what="the source map")
            assert screen.query_one(SidePanel).line_map.to_source == shown.to_source
            view.move_to(row)
            await pilot.press("number_sign")
            await pilot.pause()
            assert view.document is document.full and view.cursor == func - 1  # the cursor stayed on its line
            view.move_to(view.row_count - 1)  # the #loc definitions close the text (below a 160x45 screen's pane)
            await pilot.pause()
            text = screen_text(app)
            assert "#loc" in text and " loc(" in text
            view.move_to(func - 1)
            side = screen.query_one(SidePanel)
            await until(pilot, lambda: side.line_map.to_source == full.to_source, what="the map of the rows shown")
            await pilot.press("number_sign")
            await pilot.pause()
            assert "#loc" not in screen_text(app) and view.cursor == row
            await pilot.press("question_mark")
            await pilot.pause()
            assert "show or hide MLIR locations" in screen_text(app)

    asyncio.run(run())
