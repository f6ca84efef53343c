"""Comparing two captures in the TUI: c marks one (in the tree or on screen), C compares it with another;
what-if variants join the tree and compare like any capture."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from irscope.analysis.facts import capture_facts, compare_facts
from irscope.store.store import Capture, Store
from irscope.tui.app import IrscopeApp
from irscope.tui.catalog import CaptureId
from irscope.tui.screens.compare import CompareScreen
from irscope.tui.screens.main import MainScreen
from irscope.tui.widgets.navigator import Navigator
from irscope.tui.widgets.text_view import TextView
from tests.test_tui_app import drive, only_config_0, screen_text, until, warm_matmul

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


def test_what_if_compiles_a_variant_and_shows_it_against_the_base(store: str) -> None:
    from textual.widgets import Input, Static

    from irscope.tui.screens.what_if import WhatIfScreen

    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, WhatIfScreen), what="the what-if form")
        form = app.screen
        assert isinstance(form, WhatIfScreen)
        assert form.query_one("#set-num_stages", Input).value == "3"  # current values, from the capture
        assert form.query_one("#set-BLOCK_SIZE_K", Input).value == "64"
        before = len(list(Path(store, "captures").iterdir()))
        # A value Triton would refuse: said in the form, nothing compiles.
        form.query_one("#set-num_warps", Input).value = "3"
        form.query_one("#set-num_warps", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        said = str(form.query_one("#what-if-error", Static).render())
        assert "num_warps must be a power of two" in said and app.screen is form
        assert len(list(Path(store, "captures").iterdir())) == before
        form.query_one("#set-num_warps", Input).value = "8"
        form.query_one("#set-num_stages", Input).value = "2"
        form.query_one("#set-num_stages", Input).focus()
        made_before = any(c.manifest.kernel == "matmul" and c.manifest.target == "sm90" and
                          c.manifest.settings == {"num_stages": 2} for c in Store(Path(store)).captures())
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, CompareScreen), what="the report's screen", timeout=10)
        if not made_before:  # the screen opens at once and fills in when the compile lands
            assert app.screen.text.startswith("Compiling matmul with num_stages=2")
        await until(pilot, lambda: app.screen.text.startswith("A: "), what="the variant's report", timeout=120)
        await pilot.pause()
        text = app.screen.text
        assert "loop1.stages" in text and "3 -> 2" in text
        assert "memdesc<2x128x64xf16" in text  # the TTGIR diff: 2-deep buffers in the variant
        assert "set num_stages=2" in text
        await pilot.press("escape")
        await pilot.pause()
        # The variant joined the tree, right below its config, and opens like any capture.
        nav = screen.query_one(Navigator)
        variant = CaptureId("matmul", "sm90", 0, "num_stages=2")  # num_warps=8 is the config's own
        node = nav.config_node(variant)
        assert node is not None, [str(n.label) for n in nav.find("target", CaptureId("matmul", "sm90")).children]
        siblings = [n.data.cid for n in node.parent.children]
        above = siblings[:siblings.index(variant)]
        while above and above[-1].variant:  # other variants of config 0 made earlier (by other tests) may come first
            assert above.pop().base == CaptureId("matmul", "sm90", 0)
        assert above[-1] == CaptureId("matmul", "sm90", 0)
        assert "↳ num_stages=2" in str(node.label)
        screen.open_capture(variant)
        await until(pilot, lambda: screen.current is not None and screen.current.key == app.catalog.key(variant),
                    what="the variant on screen")
        assert "memdesc<2x128x64xf16" in screen.query_one(TextView).document.text
        # A variant compares like any capture: marked in the tree, then C on its config.
        nav.focus()
        assert nav.reveal("config", variant)
        await until(pilot, lambda: nav.cursor_capture() == variant, what="the cursor on the variant")
        await pilot.press("c")
        assert nav.reveal("config", CaptureId("matmul", "sm90", 0))
        await until(pilot, lambda: nav.cursor_capture() == CaptureId("matmul", "sm90", 0), what="the cursor on c0")
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, CompareScreen), what="variant against config", timeout=60)
        text = app.screen.text
        assert "set num_stages=2" in text.splitlines()[0] and "loop1.stages" in text and "2 -> 3" in text

    drive(store, steps)


def test_compare_any_two_captures_from_the_tree(store: str, captures: Callable[..., Capture], tmp_path: Path) -> None:
    """c and C act on the capture under the tree's cursor: no need to open either side."""
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        nav = screen.query_one(Navigator)
        nav.focus()
        sm80 = CaptureId("matmul", "sm80")
        assert nav.reveal("config", sm80)
        await until(pilot, lambda: nav.cursor_capture() == sm80, what="the cursor on matmul sm80")
        await pilot.press("c")
        await pilot.pause()
        assert nav.marked == sm80 and str(nav.config_node(sm80).label).endswith("A")
        assert nav.reveal("config", CaptureId("matmul", "sm90"))
        await until(pilot, lambda: nav.cursor_capture() == CaptureId("matmul", "sm90"), what="the cursor on sm90")
        assert "sm80" not in (screen.current.key if screen.current else "sm80")  # sm80 was never opened
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, CompareScreen), what="the comparison", timeout=60)
        await pilot.pause()
        text = screen_text(app)
        assert "A matmul sm80 c0" in text and "B matmul sm90 c0" in text
        assert "- mma.sync" in text and "+ wgmma" in text
        # A config not captured yet cannot be a side: a notice says what to do, and nothing opens.
        await pilot.press("escape")
        await pilot.pause()
        missing = CaptureId("matmul", "sm90", 3)
        assert app.catalog.capture(missing) is None
        nav.focus()
        assert nav.reveal("config", missing)
        await until(pilot, lambda: nav.cursor_capture() == missing, what="the cursor on config 3")
        await pilot.press("C")
        await pilot.pause(0.3)
        assert isinstance(app.screen, MainScreen)
        assert any("has not been captured" in str(n.message) for n in app._notifications)

    drive(only_config_0(store, tmp_path), steps)


def test_what_if_on_another_target_and_a_bad_target(store: str) -> None:
    """The form's target field compiles the capture for another target; a target irscope lacks stays in the form."""
    from textual.widgets import Input, Static

    from irscope.tui.screens.what_if import WhatIfScreen

    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, WhatIfScreen), what="the what-if form")
        form = app.screen
        assert form.query_one("#where-target", Input).value == "sm90"
        assert form.query_one("#where-triton", Input).value == app.catalog.triton_version
        form.query_one("#where-target", Input).value = "sm99"
        form.query_one("#where-target", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        said = str(form.query_one("#what-if-error", Static).render())
        assert "sm99" in said and "sm80" in said and app.screen is form  # names the valid targets
        form.query_one("#where-triton", Input).value = "9.9.9"
        form.query_one("#where-target", Input).value = "sm80"
        await pilot.press("enter")
        await pilot.pause()
        said = str(form.query_one("#what-if-error", Static).render())
        assert "9.9.9" in said and app.screen is form
        form.query_one("#where-triton", Input).value = app.catalog.triton_version
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.text.startswith("A: "),
                    what="the sm80 report", timeout=120)
        await pilot.pause()
        text = app.screen.text
        assert "+ mma.sync" in text and "- wgmma" in text

    drive(store, steps)


def test_the_tui_precompiles_the_neighbours_and_a_what_if_on_one_is_a_store_hit(tmp_path: Path, monkeypatch) -> None:
    import asyncio

    from textual.widgets import Input

    from irscope.store.store import Store
    from irscope.tui.app import make_app
    from irscope.tui.screens.what_if import WhatIfScreen

    monkeypatch.setenv("IRSCOPE_PRECOMPILE", "always")  # regardless of this machine's load
    store = tmp_path / "store"

    async def run() -> None:
        app = make_app("vector_add", "sm80", 0, str(store), record_passes=False, precompile=True)
        async with app.run_test(size=(160, 45)) as pilot:
            screen = app.screen
            assert isinstance(screen, MainScreen)
            # config 0: BLOCK_SIZE=1024, num_warps=4, num_stages=3 -> six neighbours, compiled in the background
            await until(pilot, lambda: len(Store(store).captures()) >= 7, what="the neighbours", timeout=240)
            await until(pilot, lambda: screen.current is not None, what="the capture on screen")
            made = {c.manifest.key for c in Store(store).captures()}
            # The background process hands each neighbour's facts over: the same facts as reading the capture.
            from irscope.tui.screens import compare

            wider = next(c for c in Store(store).captures() if c.manifest.settings == {"num_warps": 8})
            await until(pilot, lambda: wider.manifest.key in compare._FACTS, what="the neighbour's facts", timeout=60)
            assert compare._FACTS[wider.manifest.key].values == capture_facts(wider).values
            await pilot.press("x")
            await until(pilot, lambda: isinstance(app.screen, WhatIfScreen), what="the form")
            field = app.screen.query_one("#set-num_warps", Input)
            field.value = "8"
            field.focus()
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.text.startswith("A: "),
                        what="the variant", timeout=120)
            assert {c.manifest.key for c in Store(store).captures()} == made  # a store hit: nothing compiled

    asyncio.run(run())


def test_compare_opens_both_pass_lists_at_the_first_divergent_pass(store: str, captures: Callable[..., Capture],
                                                                   shared_store: Path) -> None:
    """With both per-pass dumps stored, C's report names the first divergence and p shows A's and B's passes side
    by side, each list's cursor on that pass (num_stages=3 against 2: the pass that assigns latencies)."""
    from textual.widgets import OptionList

    from irscope.request.captures import LaunchSpec, get_capture, make_request
    from irscope.request.passdump import get_pass_dump
    from irscope.tui.screens.divergence import DivergenceScreen

    request = make_request("matmul", "sm90", 0, launch=LaunchSpec(settings=("num_stages=2",)), store_dir=store)
    get_pass_dump(request, get_capture(request, store))

    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        nav = screen.query_one(Navigator)
        nav.focus()
        variant = CaptureId("matmul", "sm90", 0, "num_stages=2")
        assert nav.reveal("config", CaptureId("matmul", "sm90", 0))
        await until(pilot, lambda: nav.cursor_capture() == CaptureId("matmul", "sm90", 0), what="the cursor on c0")
        await pilot.press("c")
        assert nav.reveal("config", variant)
        await until(pilot, lambda: nav.cursor_capture() == variant, what="the cursor on the variant")
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, CompareScreen), what="the comparison", timeout=60)
        text = app.screen.text
        assert "First divergence: pass tritongpu-assign-latencies" in text and "num-stages=3 -> num-stages=2" in text
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, DivergenceScreen), what="the pass lists")
        await pilot.pause()
        lists = [app.screen.query_one(f"#passes-{k}", OptionList) for k in "ab"]
        for listing in lists:
            assert listing.highlighted is not None
            label = str(listing.get_option_at_index(listing.highlighted).prompt)
            assert label.split()[-1] == "tritongpu-assign-latencies"
        assert "tritongpu-assign-latencies" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CompareScreen)

    drive(store, steps)
