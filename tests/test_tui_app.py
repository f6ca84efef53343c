"""The terminal UI driven with Textual's Pilot on real captures: what a user does, and what the screen shows."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from pygments.token import Token, Whitespace
from textual.pilot import Pilot

from irscope.analysis.diff import TextDiff
from irscope.request.passdump import cached_pass_table, get_pass_dump
from irscope.store.store import Capture
from irscope.toolchain.stages import read_stage
from irscope.tui.app import IrscopeApp, make_app
from irscope.tui.catalog import CaptureId, Catalog
from irscope.tui.documents import DocRef
from irscope.tui.screens.main import MainScreen
from irscope.tui.syntax import LineHighlighter
from irscope.tui.widgets.doc_info import DocInfo
from irscope.tui.widgets.ir_view import IRView
from irscope.tui.widgets.layouts_panel import LayoutsPanel
from irscope.tui.widgets.navigator import Navigator
from irscope.tui.widgets.notice_view import NoticeView
from irscope.tui.widgets.side_panel import SidePanel
from irscope.tui.widgets.text_view import TextView
from irscope.views.highlight import lexer_for
from tests.conftest import DATA, REPO

pytestmark = pytest.mark.compile

SIZE = (160, 45)


# Helpers shared with test_tui_snapshots.py and test_tui_terminal.py ---------------------------------------

def warm_matmul(captures: Callable[..., Capture], shared_store: Path) -> str:
    """matmul@sm90 config 0 in the session store with its per-pass dump and the passes' effects; the store path."""
    request = captures.request("matmul", "sm90")  # type: ignore[attr-defined]
    capture = captures("matmul", "sm90")
    cached_pass_table(get_pass_dump(request, capture))
    return str(shared_store)


def only_config_0(store: str, tmp_path: Path) -> str:
    """A copy of the session store holding matmul@sm90's config 0 and no other: a test that needs a config not
    captured yet cannot rely on the session's order (other test files capture every config)."""
    import shutil

    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    for folder in (copy / "captures").glob("matmul-sm90-c*"):
        if not folder.name.startswith("matmul-sm90-c0-"):
            shutil.rmtree(folder)
    return str(copy)


def screen_text(app: IrscopeApp) -> str:
    """What the terminal shows now, as plain text (one line per row)."""
    update = app.screen._compositor.render_full_update()
    return "\n".join("".join(seg.text for strip in line for seg in strip) for line in update.strips)


async def until(pilot: object, condition: Callable[[], bool], timeout: float = 20.0, what: str = "") -> None:
    """Let the app run until ``condition`` holds (a background job or worker finished)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await pilot.pause(0.05)  # type: ignore[attr-defined]


async def opened(pilot: object, app: IrscopeApp) -> MainScreen:
    """The main screen once the first capture shows and its passes are in the tree."""
    screen = app.screen
    assert isinstance(screen, MainScreen)
    nav = screen.query_one(Navigator)
    await until(pilot, lambda: screen.current is not None and nav.find("pass", CaptureId("matmul", "sm90")) is not None,
                what="the capture and its passes")
    await pilot.pause()  # type: ignore[attr-defined]
    return screen


async def walk_to(pilot: object, nav: Navigator, needle: str, limit: int = 200, top: bool = False) -> None:
    """Press down in the tree (from the top, with ``top``) until the cursor rests on a node whose label has
    ``needle``."""
    if top:
        nav.cursor_line = 0
        await pilot.pause()  # type: ignore[attr-defined]
    for _ in range(limit):
        node = nav.cursor_node
        if node is not None and needle in node.label.plain:
            return
        await pilot.press("down")  # type: ignore[attr-defined]
    raise AssertionError(f"no tree node with {needle!r}")


@pytest.fixture(scope="module")
def store(captures: Callable[..., Capture], shared_store: Path) -> str:
    """The session store, holding matmul@sm90 with passes."""
    return warm_matmul(captures, shared_store)


def app_for(store: str, kernel: str | None = "matmul", target: str | None = "sm90") -> IrscopeApp:
    """The app as ``irscope tui`` builds it, without background pass recording."""
    return make_app(kernel, target, 0, store, record_passes=False)


def drive(store: str, steps: Callable[[Pilot[None], IrscopeApp, MainScreen], Awaitable[None]]) -> None:
    """Open matmul@sm90 from the store as ``irscope tui matmul`` does, wait for it and its passes, run the steps."""
    async def run() -> None:
        app = app_for(store)
        async with app.run_test(size=SIZE) as pilot:
            await steps(pilot, app, await opened(pilot, app))

    asyncio.run(run())


# Behaviour -----------------------------------------------------------------------------------------------

def test_opens_on_the_ttgir_with_passes_in_the_tree(store: str, tmp_path: Path) -> None:
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        assert screen.current is not None and screen.current.stage == "ttgir"
        text = screen_text(app)
        assert "TritonGPU IR (ttgir)" in text
        assert "#mma = #ttg.nvidia_mma<{versionMajor = 3" in text
        assert re.search(r"3 ttgir \d+/\d+ changed", text)  # the stage nodes: their keys, how many passes changed
        assert "✓ c0 128x256x64 w8 s3" in text
        assert "○ c1 64x256x32 w4 s4" in text  # a config not captured yet, offered in the tree

    drive(only_config_0(store, tmp_path), steps)


def test_find_the_pipelining_pass_and_read_its_diff(store: str) -> None:
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        nav = screen.query_one(Navigator)
        nav.focus()
        await walk_to(pilot, nav, "ttgir")
        await pilot.press("right")  # unfold the passes that made the TTGIR
        await walk_to(pilot, nav, "tritongpu-pipeline")
        await pilot.pause()
        info = screen.query_one(DocInfo).plain
        assert "after tritongpu-pipeline" in info
        assert "async copies" in info  # the pass summary from irscope.analysis.passes
        text = screen_text(app)
        label = nav.cursor_node.label.plain  # type: ignore[union-attr]
        assert "● " in text and re.search(r"tritongpu-pipeline \+\d+ -\d+", label)  # a changed pass, its counts
        assert "unchanged" in text  # runs of passes that changed nothing are folded

        await pilot.press("d")
        view = screen.query_one(TextView)
        assert view.diffing and view.diff is not None and view.diff.changed
        text = screen_text(app)
        dump = app.documents.dump(screen.current.key)  # type: ignore[union-attr]
        assert dump is not None
        pipeline = next(p for p in dump.index.passes if p.name == "tritongpu-pipeline")  # 36 on 3.9, 34 on 3.6
        assert f"diff of pass {pipeline.index} tritongpu-pipeline: its input → its output" in text
        added = [view.row_text(i) for i in range(view.row_count) if view.row_text(i).startswith("+")]
        assert any("ttg.async_copy_global_to_local" in line for line in added)
        assert all("loc(" not in view.row_text(i) for i in range(view.row_count))  # locations stripped
        assert "change 1/" in str(view.border_subtitle)

        first = view.cursor
        await pilot.press("right_square_bracket")
        assert view.cursor > first and "change 2/" in str(view.border_subtitle)

        await pilot.press("s")
        assert view.side_by_side
        assert " │ " in screen_text(app) or "│" in screen_text(app)
        await pilot.press("s")
        await pilot.press("d")
        assert not view.diffing
        assert "%a = ttg.local_alloc" in "\n".join(view.row_text(i) for i in range(view.row_count))

    drive(store, steps)


def test_huge_diffs_are_computed_in_a_child_process(store: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over BIG_DIFF_BYTES a placeholder shows at once and the child's diff replaces it, equal to the in-process one."""
    import irscope.tui.documents as documents
    from irscope.analysis.diff import DiffOptions

    monkeypatch.setattr(documents, "BIG_DIFF_BYTES", 1_000_000)  # matmul's biggest pass diff is 4.6 MB

    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        key = screen.current.key  # type: ignore[union-attr]
        dump = app.documents.dump(key)
        assert dump is not None
        biggest = max(dump.index.passes, key=lambda p: dump.index.sections[p.output or p.section].size)
        ref = DocRef(key, biggest.stage, biggest.index)
        screen.reveal_ref(ref)
        view = screen.query_one(TextView)
        view.focus()
        await pilot.press("d")
        assert view.diffing and view.diff is None and view.row_text(0).startswith("Comparing the IR")
        await until(pilot, lambda: view.diff is not None, what="the child's diff")
        child = view.diff
        assert child is not None and child.changed
        inputs = app.documents.diff_inputs(ref)
        assert not isinstance(inputs, str)
        app.documents.forget_diffs()
        here = app.documents.diff(ref, inputs, DiffOptions())
        assert (child.added, child.removed, len(child.hunks)) == (here.added, here.removed, len(here.hunks))
        assert [view.row_text(i) for i in range(min(view.row_count, 200))] == _unified_text(here)[:200]

    drive(store, steps)


def _unified_text(diff: TextDiff) -> list[str]:
    """A diff's unified rows as the text view prints them."""
    from irscope.tui.diff_rows import DiffRows

    return [r.text if r.left is None else f"{r.left.tag}{r.left.text}" for r in DiffRows(diff, side_by_side=False)]


def test_stage_diff_and_the_first_stage_has_none(store: str) -> None:
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        await pilot.press("d")
        view = screen.query_one(TextView)
        assert view.diffing and "ttir  →  ttgir" in screen_text(app)
        screen.reveal_ref(DocRef(screen.current.key, "source"))  # type: ignore[union-attr]
        await pilot.pause()
        assert "is the first stage: there is nothing" in screen_text(app)

    drive(store, steps)


def test_search_next_previous_and_go_to_line(store: str) -> None:
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        view = screen.query_one(TextView)
        await pilot.press("slash")
        await pilot.press(*"warp_group_dot ")
        await pilot.press("backspace", "enter")
        assert view.match_count >= 2
        first = view.cursor
        assert "warp_group_dot" in view.row_text(first)
        assert f"match 1/{view.match_count}" in screen_text(app)
        await pilot.press("n")
        assert view.cursor > first and "warp_group_dot" in view.row_text(view.cursor)
        await pilot.press("N")
        assert view.cursor == first
        await pilot.press("g")
        await pilot.press("1", "2", "0", "enter")
        assert view.row_label(view.cursor) == "120"  # line 120 of the stored text (its #loc lines hidden above it)
        assert view.document is not None and view.document.full is not None
        assert view.document.full.lines[119].startswith(view.row_text(view.cursor).split(" loc(")[0])
        assert " 120 " in screen_text(app)

    drive(store, steps)


def test_switch_target_to_ampere(store: str, captures: Callable[..., Capture]) -> None:
    captures("matmul", "sm80")

    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        nav = screen.query_one(Navigator)
        nav.focus()
        await walk_to(pilot, nav, "sm80", top=True)
        await pilot.press("right")  # unfold the configs
        await walk_to(pilot, nav, "c0")
        await pilot.press("enter")  # open it (captured: it opens at once)
        await until(pilot, lambda: screen.current is not None and "-sm80-" in screen.current.key, what="sm80")
        await pilot.pause()
        text = screen_text(app)
        assert "matmul · sm80 · config 0 · TritonGPU IR (ttgir)" in text
        assert "versionMajor = 2" in text  # Ampere's mma.sync layout

    drive(store, steps)


def test_layouts_panel_explains_mma_and_draws_its_map(store: str) -> None:
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        await pilot.press("L")
        await until(pilot, lambda: bool(screen.query(LayoutsPanel)) and
                    screen.query_one(LayoutsPanel).selected is not None, what="layouts")
        panel = screen.query_one(LayoutsPanel)
        assert panel.selected is not None and panel.selected.label == "#mma"
        await until(pilot, lambda: "T0:0" in panel.map_text, what="the map")
        text = screen_text(app)
        assert "Hopper wgmma" in text and "warps" in text
        panel.query_one("#layout-list").focus()
        await pilot.press("v")
        await until(pilot, lambda: "hardware view" in screen_text(app), what="the hardware view")

    drive(store, steps)


def test_source_lines_map_to_ir_rows_both_ways(store: str) -> None:
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        view = screen.query_one(TextView)
        source = screen.query_one("#source", IRView)
        await until(pilot, lambda: bool(screen.query_one(SidePanel).line_map), what="the source map")
        dot = next(i for i in range(view.row_count) if "ttng.warp_group_dot " in view.row_text(i))
        view.move_to(dot)
        await pilot.pause()
        marked = sorted(source.marked)
        assert len(marked) == 1 and "tl.dot" in source.row_text(marked[0])
        assert dot in view.marked
        source.focus()
        store_line = next(i for i in range(source.row_count) if "tl.store(c_ptrs" in source.row_text(i))
        source.move_to(store_line)
        await pilot.pause()
        assert view.marked and all(view.row_text(r).strip() for r in view.marked)
        assert any("tt.store" in view.row_text(r) for r in view.marked)

    drive(store, steps)


def test_sass_rows_map_to_source_through_nvdisasm(store: str) -> None:
    """Triton's .sass has no line info: its rows are matched to nvdisasm -gi's listing of the same cubin."""
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        key = screen.current.key  # type: ignore[union-attr]
        screen.reveal_ref(DocRef(key, "sass"))
        side = screen.query_one(SidePanel)
        await until(pilot, lambda: side.current == DocRef(key, "sass") and bool(side.line_map),
                    what="the SASS source map")
        view = screen.query_one(TextView)
        source = screen.query_one("#source", IRView)
        instructions = [r for r in range(view.row_count) if ";" in view.row_text(r)]
        assert len(side.line_map.to_source) >= 0.95 * len(instructions), "most SASS rows should be mapped"
        hgmmas = [r for r in instructions if "HGMMA.64x256x16.F32" in view.row_text(r)]
        dot_line = next(i for i in range(source.row_count) if "tl.dot(" in source.row_text(i))
        # ptxas attributes some of a K-step's wgmma instructions to the loads before the dot; one at least is the dot's
        hgmma = next(r for r in hgmmas if side.line_map.to_source.get(r) == dot_line + 1)
        view.move_to(hgmma)
        await pilot.pause()
        assert source.marked == frozenset({dot_line})
        source.focus()
        source.move_to(dot_line)
        await pilot.pause()
        assert hgmma in view.marked
        assert all(view.row_text(r).strip() for r in view.marked)

    drive(store, steps)


def test_whole_text_search_finds_the_rows_a_row_by_row_search_finds(store: str) -> None:
    """Search scans the whole text (lower-cased for case-insensitive queries); the rows must be the same."""
    import re

    from irscope.tui.documents import Documents

    capture = Catalog.load(store, "matmul").capture(CaptureId("matmul", "sm90", 0))
    assert capture is not None
    docs = Documents()
    docs.add(capture)
    view = IRView()
    key = capture.manifest.key
    dump = docs.dump(key)
    assert dump is not None
    biggest = max(dump.index.passes, key=lambda p: dump.index.sections[p.output or p.section].size)
    refs = [DocRef(key, stage) for stage in ("source", "ttgir", "llir", "ptx")]
    refs.append(DocRef(key, biggest.stage, biggest.index))
    queries = ["nvvm.wgmma", "^ *%", r"loc\(", r"\s+llvm", "}$", "no such text", r"%1\n", "MMA", "[A-Z]+_",
               "Warp_Group", r"[^x]{3}$", "tl\\.dot"]
    for ref in refs:
        view.document = docs.document(ref)
        for query in queries:
            pattern = re.compile(query, 0 if any(c.isupper() for c in query) else re.IGNORECASE)
            want = [row for row, line in enumerate(view.document.lines) if pattern.search(line)]
            assert view.matching_rows(pattern) == want, (ref, query)
    assert view.matching_rows(re.compile("nvvm.wgmma", re.IGNORECASE)), "the lowered snapshot calls wgmma"


def test_sass_without_nvdisasm_says_why_it_is_not_mapped(store: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import irscope.analysis.sourcemap as sourcemap

    monkeypatch.setattr(sourcemap, "sass_listing", lambda capture: (None, "nvdisasm was not found"))

    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        screen.reveal_ref(DocRef(screen.current.key, "sass"))  # type: ignore[union-attr]
        source = screen.query_one("#source", IRView)
        await until(pilot, lambda: "not mapped" in str(source.border_subtitle), what="the reason")
        assert "nvdisasm was not found" in str(source.border_subtitle)
        assert not screen.query_one(SidePanel).line_map

    drive(store, steps)


def test_help_screen_and_command_palette(store: str) -> None:
    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        await pilot.press("question_mark")
        assert "tritongpu-pipeline" in screen_text(app) and "Ctrl+P" in screen_text(app)
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("ctrl+p")
        await pilot.press(*"toggle diff")
        await until(pilot, lambda: "Toggle diff" in screen_text(app), what="the palette hit")
        await pilot.press("enter")
        await until(pilot, lambda: screen.diff_mode, what="diff mode")
        assert screen.query_one(TextView).diffing

    drive(store, steps)


def test_pass_names_fit_the_tree_and_p_goes_to_a_pass_by_name(store: str) -> None:
    """Long pass names keep both ends in the tree (it never scrolls sideways); p, part of a name and Enter open
    that pass; the header the pipeliner's summary made tall is two lines again for a stage; ? tells how to
    scroll sideways and the footer names the compare keys."""
    from irscope.tui.widgets.navigator import elide_middle

    assert elide_middle("tritongpu-remove-layout-conversions", 22) == "tritongpu-…conversions"

    async def steps(pilot: Pilot[None], app: IrscopeApp, screen: MainScreen) -> None:
        nav = screen.query_one(Navigator)
        dump = app.documents.dump(screen.current.key)  # type: ignore[union-attr]
        assert dump is not None
        pipeline = next(p for p in dump.index.passes if p.name == "tritongpu-pipeline")
        await pilot.press("p")
        await pilot.press(*"pipeli")
        await until(pilot, lambda: f"{pipeline.index} tritongpu-pipeline" in screen_text(app), what="the pass")
        await pilot.press("enter")
        await until(pilot, lambda: screen.current is not None and screen.current.pass_index == pipeline.index,
                    what="the pipelining pass")
        await pilot.pause()
        info = screen.query_one(DocInfo)
        assert "after tritongpu-pipeline" in info.plain and info.size.height > 2  # its summary wraps
        node = nav.cursor_node
        assert node is not None and node.data is not None and node.data.ref == screen.current

        text = screen_text(app)
        rows = [row.split("▕", 1)[0] for row in text.splitlines()]
        long = next(p for p in dump.index.passes if p.name == "tritongpu-remove-layout-conversions")
        row = next(r for r in rows if f" {long.index} tritong" in r)
        assert "…" in row and "versions" in row, row  # both ends of the name
        assert nav.virtual_size.width <= nav.size.width  # nothing in the tree needs sideways scrolling
        assert "c C Compare" in text.splitlines()[-1] and "p Pass" in text.splitlines()[-1]

        await walk_to(pilot, nav, "llir")  # a stage: the header takes two lines again
        await pilot.pause()
        assert "LLVM IR (llir)" in info.plain and info.size.height == 2

        view = screen.query_one(TextView)
        view.focus()
        await pilot.press("right", "right")
        assert view.scroll_x == 2  # → scrolls the text sideways, as ? says
        await pilot.press("question_mark")
        help_text = screen_text(app)
        assert "scroll sideways" in help_text and "go to a pass by name" in help_text

    drive(store, steps)


def test_capture_runs_in_the_background_and_opens(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app("vector_add", "sm80", 0, str(tmp_path / "store"), record_passes=False)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, MainScreen)
            await until(pilot, lambda: "Compiling vector_add@sm80 config 0" in screen_text(app), what="the notice")
            assert screen.jobs.states  # the compile runs in a child process; the UI keeps answering keys
            await pilot.press("question_mark")
            await pilot.press("escape")
            await until(pilot, lambda: screen.current is not None, timeout=60, what="the capture")
            await pilot.pause()
            assert "vector_add · sm80 · config 0 · TritonGPU IR (ttgir)" in screen_text(app)

    asyncio.run(run())


def test_a_failed_compile_shows_tritons_message(tmp_path: Path) -> None:
    async def run() -> None:
        kernel = str(DATA / "kernels" / "type_error.py")
        app = make_app(kernel, "sm90", 0, str(tmp_path / "store"), record_passes=False)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, MainScreen)
            notice = screen.query_one(NoticeView)
            await until(pilot, lambda: "could not compile" in notice.title_text, timeout=60, what="the failure")
            assert "type_error@sm90 config 0" in notice.title_text
            assert "type_error.py:" in notice.body_text  # Triton's message, led by the kernel's file:line
            assert app.is_running
            assert "Triton could not compile type_error@sm90" in screen_text(app)
            assert "✗ c0" in screen_text(app)

    asyncio.run(run())


def test_bad_kernel_name_is_a_usage_error_before_the_screen_opens(tmp_path: Path) -> None:
    from irscope.errors import UsageError

    with pytest.raises(UsageError, match="did you mean 'matmul'"):
        make_app("matmull", "sm90", 0, str(tmp_path))


# Units -------------------------------------------------------------------------------------------------

def test_catalog_keys_are_the_request_keys(store: str) -> None:
    catalog = Catalog.load(store)
    for name in ("matmul", "vector_add"):
        for target in ("sm90", "gfx942"):
            for index, _ in enumerate(catalog.configs(name, target)):
                cid = CaptureId(name, target, index)
                assert catalog.key(cid) == catalog.request(cid).key()
    assert catalog.capture(CaptureId("matmul", "sm90")) is not None


@pytest.mark.parametrize("lexer", ["mlir", "llvm", "ptx", "sass"])
def test_line_highlighter_agrees_with_pygments(lexer: str, store: str) -> None:
    capture = Catalog.load(store).capture(CaptureId("matmul", "sm90"))
    assert capture is not None
    stage = {"mlir": "ttgir", "llvm": "llir", "ptx": "ptx", "sass": "sass"}[lexer]
    fast, slow = LineHighlighter(lexer), lexer_for(lexer)
    for line in read_stage(capture, stage).splitlines()[:400]:
        expected = [(s, s + len(v), t) for s, t, v in slow.get_tokens_unprocessed(line)
                    if v and t is not Token.Text and t is not Whitespace]
        assert fast.spans(line) == expected, line


def test_cli_help_and_piped_bare_irscope_keep_printing_usage() -> None:
    out = subprocess.run([sys.executable, "-m", "irscope", "tui", "--help"], capture_output=True, text=True,
                         cwd=REPO, check=False)
    assert out.returncode == 0 and "irscope tui matmul --target sm90" in out.stdout
    bare = subprocess.run([sys.executable, "-m", "irscope"], capture_output=True, text=True, cwd=REPO,
                          stdin=subprocess.DEVNULL, check=False)
    assert "Usage: irscope" in bare.stdout + bare.stderr
    assert "tui" in bare.stdout + bare.stderr


def test_show_does_not_import_textual(store: str) -> None:
    code = ("import sys, runpy\nsys.argv = ['irscope', 'show', 'matmul', '-t', 'sm90', '--store', sys.argv[1], "
            "'--no-pager']\ntry:\n    runpy.run_module('irscope', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print('textual' in sys.modules, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code, store], capture_output=True, text=True, cwd=REPO, check=False)
    assert out.stderr.strip().splitlines()[-1] == "False"


def test_a_job_reported_before_the_jobs_bar_mounts_is_said_once_it_does() -> None:
    """A background compile can report before the bar's children exist (seen under load: the app crashed with
    NoMatches on '#jobs-text')."""
    from textual.app import App, ComposeResult
    from textual.widgets import Label

    from irscope.tui.widgets.jobs_bar import JobsBar

    bar = JobsBar(id="jobs")
    bar.show_jobs(["compiling matmul for sm90"])  # not mounted: nothing to query yet

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield bar

    async def run() -> None:
        app = One()
        async with app.run_test() as pilot:
            await pilot.pause()
            assert bar.has_class("-busy")
            assert str(app.query_one("#jobs-text", Label).render()) == "compiling matmul for sm90"
            bar.show_jobs([])
            await pilot.pause()
            assert not bar.has_class("-busy")

    asyncio.run(run())
