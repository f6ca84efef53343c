"""MainScreen: the navigator, the IR or diff in the middle, source / layouts / facts at the side.

The screen owns the key bindings and turns the widgets' messages into actions on the app's data
(irscope.tui.app.IrscopeApp holds the catalog and the documents). Work that takes longer than a
frame runs elsewhere: compiles in a child process (irscope.tui.jobs), big diffs, source maps and
layout analyses in threads.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Vertical
from textual.lazy import Lazy
from textual.reactive import Reactive, var
from textual.widget import Widget
from textual.widgets import ContentSwitcher

from irscope.errors import IrscopeError
from irscope.tui.catalog import CaptureId
from irscope.tui.documents import DocRef, Document
from irscope.tui.messages import (
    CursorMoved,
    DiffReady,
    MarkText,
    OpenCapture,
    ShowCapturePrompt,
    ShowDocument,
)
from irscope.tui.screens.what_if import WhatIfActions
from irscope.tui.widgets.doc_info import DocInfo
from irscope.tui.widgets.ir_view import IRView
from irscope.tui.widgets.jobs_bar import JobsBar
from irscope.tui.widgets.keys_footer import KeysFooter
from irscope.tui.widgets.navigator import Navigator
from irscope.tui.widgets.notice_view import NoticeView
from irscope.tui.widgets.prompt_bar import PromptBar
from irscope.tui.widgets.side_panel import SidePanel
from irscope.tui.widgets.text_view import TextView
from irscope.tui.workflow import JobBoard

if TYPE_CHECKING:
    from irscope.analysis.diff import DiffOptions
    from irscope.tui.app import IrscopeApp
    from irscope.tui.diff_choice import DiffChoice

# The stage a capture opens on: where Triton's decisions (layouts, pipelining, tensor cores) show.
OPEN_STAGE = "ttgir"
# Seconds the user rests on a text before its diff is computed ahead (moving on sooner computes nothing),
# and the size (both sides) from which that is worth it: smaller diffs take under 40 ms when d is pressed.
# Computing ahead shares the interpreter with the UI, so a key pressed meanwhile waits a little longer.
DIFF_AHEAD_AFTER = 0.6
DIFF_AHEAD_MIN_BYTES = 1_000_000


class MainScreen(WhatIfActions):
    """Browse captures: tree, IR or diff, and the side panels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("d", "toggle_diff", "Diff"),
        Binding("s", "toggle_side_by_side", "Side by side"),
        Binding("right_square_bracket", "change(1)", "Next change", key_display="]"),
        Binding("left_square_bracket", "change(-1)", "Prev change", key_display="[", show=False),
        Binding("r", "toggle_ssa", "Ignore renumbering", show=False),
        Binding("slash", "search", "Search", key_display="/"),
        Binding("n", "match(1)", "Next match", show=False),
        Binding("N", "match(-1)", "Previous match", show=False),
        Binding("g,colon", "goto", "Go to line", show=False),
        Binding("y", "copy(False)", "Copy line", show=False),
        Binding("Y", "copy(True)", "Copy all", show=False),
        Binding("o", "side('source')", "Source", show=False),
        Binding("L", "side('layouts')", "Layouts"),
        Binding("i", "side('facts')", "Facts", show=False),
        Binding("m", "tinted(1)", "Next tinted line", show=False),
        Binding("M", "tinted(-1)", "Previous tinted line", show=False),
        Binding("b", "toggle_side", "Side panel", show=False),
        Binding("z", "zoom_side", "Zoom side", show=False),
        Binding("v", "layout_view", "Tensor/hardware view", show=False),
        Binding("w", "layout_warp(1)", "Next warp", show=False),
        Binding("W", "layout_warp(-1)", "Previous warp", show=False),
        Binding("t", "focus_tree", "Tree", show=False),
        Binding("e", "focus_text", "Text", show=False),
        Binding("x", "what_if", "What if", show=False),
        Binding("c", "mark_compare", "Mark for compare", show=False),
        Binding("C", "compare", "Compare with marked", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    # Textual repaints the whole screen when the focus moves (60 ms here); the widgets whose look depends on
    # the focus restyle and repaint themselves anyway.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    # Screen state as ``var``: changing it runs its watcher but does not repaint the whole screen.
    diff_mode: var[bool] = var(False)
    side_by_side: var[bool] = var(False)
    # None: pass diffs ignore SSA numbers when renumbering is most of what changed (irscope.tui.diff_choice).
    ignore_ssa: var[bool | None] = var(None, init=False)

    def __init__(self) -> None:
        super().__init__(id="main")
        self.current: DocRef | None = None
        self.jobs = JobBoard(self)
        self._prompted: CaptureId | None = None
        self._failures: dict[CaptureId, str] = {}
        self._cids: dict[str, CaptureId] = {}
        self._shown_choice: DiffChoice | None = None

    @property
    def irapp(self) -> IrscopeApp:
        """The app, with its data."""
        from irscope.tui.app import IrscopeApp

        assert isinstance(self.app, IrscopeApp)
        return self.app

    # Layout ---------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Navigator | centre (info line, IR/diff/notice, prompt) | side tabs; jobs bar and footer below."""
        yield Navigator(self.irapp.catalog, id="nav")
        with Container(id="main-area"):
            with Vertical(id="center"):
                yield DocInfo(id="doc-info")
                with ContentSwitcher(initial="notice", id="views"):
                    yield TextView(id="text").data_bind(MainScreen.side_by_side)
                    yield NoticeView(id="notice")
                yield PromptBar(id="prompt")
            yield SidePanel(self.irapp.documents, id="side")
        yield Lazy(JobsBar(id="jobs"))
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        """Open what the command line asked for (or the latest capture), else say how to start."""
        self.notice("Choose a kernel, a target and a config in the tree on the left.",
                    "Captured configs are marked ✓; press Enter on one marked ○ to compile it (a few seconds, in the "
                    "background).\nThen move through its stages and passes with the arrow keys: d shows what each "
                    "one changed, L the layouts, ? every key.")
        nav = self.query_one(Navigator)
        nav.focus()
        start = self.irapp.start
        if start is not None:
            self.open_capture(start)
        else:
            self.call_after_refresh(self.irapp.settle_memory)

    def notice(self, title: str, body: str, error: bool = False) -> None:
        """Show a notice in the centre instead of IR."""
        self.query_one(NoticeView).show_notice(title, body, error)
        self.query_one("#views", ContentSwitcher).current = "notice"
        self.query_one(DocInfo).show_info(Text(title, style="bold red" if error else "bold"), Text())

    # Opening captures ------------------------------------------------------------------------------

    def open_capture(self, cid: CaptureId, stage: str = OPEN_STAGE) -> None:
        """Show a capture (compiling it first in the background when the store lacks it)."""
        capture = self.irapp.catalog.capture(cid)
        if capture is None:
            if not self.irapp.catalog.compilable(cid.kernel):
                self.notice(f"{cid} is not in the store", "irscope cannot compile this kernel itself.", error=True)
                return
            self.jobs.start(cid, capture=True, show=stage)
            self._prompted = cid
            self.query_one(Navigator).reveal("config", cid)
            self.notice(f"Compiling {cid}…", "Triton compiles it offline in a background process, with the "
                        "specialization its JIT would apply; the stages appear in the tree when it is done. The tree "
                        "and the other captures stay usable meanwhile.")
            return
        self.irapp.documents.add(capture)
        self.start_neighbours(capture)
        self.fill(cid, passes=False)
        stages = [s.name for s in self.irapp.documents.stages(capture.manifest.key)]
        chosen = stage if stage in stages else stages[0]
        ref = DocRef(capture.manifest.key, chosen)
        self.query_one(Navigator).reveal("stage", cid, ref)
        self.show_ref(ref)
        # The passes (read from the dump) fill in once the text is on screen.
        self.call_after_refresh(self._fill_passes, cid, capture.manifest.key)

    def _fill_passes(self, cid: CaptureId, key: str) -> None:
        self.fill(cid)
        self.jobs.follow_up(cid, key)
        self._warm_up(key)

    @work(thread=True, exclusive=True, group="warm-up", exit_on_error=False)
    def _warm_up(self, key: str) -> None:
        """After the first screen: load what the first pass, diff and stage switches need (imports, lexers)."""
        import irscope.request.compare  # noqa: F401  (pass texts and diffs)
        from irscope.tui.syntax import highlighter

        for stage in self.irapp.documents.stages(key):
            highlighter(stage.lexer).spans("%x = arith.constant 0 : i32 ; mov.u32 %r1, 0;")
        self.app.call_from_thread(self.irapp.settle_memory)

    def fill(self, cid: CaptureId, note: str = "", passes: bool = True) -> None:
        """Put a capture's stages (and its passes, unless ``passes`` is False) in the tree."""
        docs = self.irapp.documents
        key = self.irapp.catalog.key(cid)
        self._cids[key] = cid
        stages = docs.stages(key)
        if not passes:
            self.query_one(Navigator).fill_capture(cid, key, stages, {}, {}, None, "")
            return
        dump = docs.dump(key)
        by_stage = {s.name: docs.passes(key, s.name) for s in stages}
        steps = {p.index: dump.index.steps_of(p.index) for p in dump.index.passes} if dump is not None else {}
        if dump is None and not note and self.jobs.running(cid) is None and self.irapp.catalog.can_record_passes(cid):
            note = "passes not recorded (press Enter on the config to record them)"
        self.query_one(Navigator).fill_capture(cid, key, stages, by_stage, steps, docs.effects(key), note)

    def on_open_capture(self, message: OpenCapture) -> None:
        """Enter on a config: open it, compiling or recording passes as needed."""
        cid = message.cid
        capture = self.irapp.catalog.capture(cid)
        if capture is not None:
            self.irapp.documents.add(capture)
            if self.irapp.record_passes and self.irapp.documents.dump(capture.manifest.key) is None and \
                    self.irapp.catalog.can_record_passes(cid):
                self.jobs.start(cid, capture=False, show=None, passes=True)
        self.open_capture(cid)

    def on_show_capture_prompt(self, message: ShowCapturePrompt) -> None:
        """The tree's cursor rests on a config not captured yet: say what Enter does."""
        cid = message.cid
        self._prompted = cid
        running = self.jobs.running(cid)
        if cid in self._failures and running is None:
            self.notice(f"Triton could not compile {cid}", self._failures[cid] +
                        "\n\nPress Enter to try again.", error=True)
            return
        if running is not None:
            self.notice(f"Compiling {cid}…", "The capture runs in the background; the tree and the other captures "
                        "stay usable meanwhile.")
            return
        target = self.irapp.catalog.targets[cid.target]
        self.notice(f"{cid} has not been captured yet",
                    f"Press Enter to compile {cid.kernel} for {target.name} ({target.description}) with config "
                    f"{cid.config}, offline, with the specialization Triton's JIT would apply. It takes a few seconds "
                    "and runs in the background.")

    # Showing documents -------------------------------------------------------------------------------

    def on_show_document(self, message: ShowDocument) -> None:
        """The tree's cursor rests on a stage or pass: show it."""
        self.show_ref(message.ref)

    def show_ref(self, ref: DocRef, cursor: int = 0) -> None:
        """Show a stage or pass (and its diff, in diff mode)."""
        docs = self.irapp.documents
        if ref == self.current and self.query_one("#views", ContentSwitcher).current != "notice":
            return
        try:
            document = docs.document(ref)
        except IrscopeError as exc:
            self.notice("This text cannot be read", str(exc), error=True)
            return
        if self.diff_mode and ref != self.current and docs.cross_language(ref):
            # Moving on in diff mode to a stage whose diff compares two languages (PTX → SASS): show its text.
            self.diff_mode = False
            self.notify(f"Diff off: {docs.cross_language(ref)} compares two languages line by line. "
                        "d shows that diff anyway.", timeout=4)
        self.current = ref
        view = self.query_one(TextView)
        view.show_document(document, cursor)
        view.border_title = document.title.split(" · ", 3)[-1]
        self._info(document)
        self.query_one("#views", ContentSwitcher).current = "text"
        if self.diff_mode:
            self.refresh_diff()
        side = self.query_one(SidePanel)
        side.text_row, side.text_diffing = cursor, view.diffing
        self.call_after_refresh(self._side_follows, ref)  # the text is painted first, its side panels follow
        if not self.diff_mode:
            self._diff_ahead(ref, self.ignore_ssa)

    def _side_follows(self, ref: DocRef) -> None:
        if ref == self.current:  # not when the user has moved on already
            self.query_one(SidePanel).follow(ref)

    def reveal_ref(self, ref: DocRef) -> None:
        """Show a stage or pass and put the tree's cursor on it."""
        cid = self._cids.get(ref.key)
        if cid is not None:
            kind = "stage" if ref.pass_index is None else "step" if ref.step else "pass"
            self.query_one(Navigator).reveal(kind, cid, ref)
        self.show_ref(ref)

    def _info(self, document: Document) -> None:
        """The lines above the text: what it is, and what the pass did."""
        ref = document.ref
        title = Text(document.title, style="bold")
        # Lines, not bytes: byte counts change with the absolute paths in #loc lines.
        title.append(f"   {len(document.lines)} lines", style="dim")
        detail = Text()
        if ref.pass_index is not None:
            effects = self.irapp.documents.effects(ref.key) or {}
            effect = effects.get((ref.pass_index, ref.step))
            snap = self.irapp.documents.snapshot(ref)
            if effect is not None:
                what = effect.summary or ("changed nothing" if effect.status == "unchanged" else effect.status)
                detail.append(what, style="italic")
                detail.append("   d: its diff", style="dim")
            else:
                detail.append(f"{snap.pass_class}" + (f" {{{snap.options}}}" if snap.options else ""), style="dim")
        elif ref.stage != "source":
            detail.append("d: diff with the stage before   →: the passes that made it", style="dim")
        self.query_one(DocInfo).show_info(title, detail)

    # Diff -----------------------------------------------------------------------------------------------

    def watch_diff_mode(self, on: bool) -> None:
        """Switch between the text and its diff."""
        if self.current is None:
            return
        if on:
            self.refresh_diff()
            return
        view = self.query_one(TextView)
        view.show_text()
        view.border_title = self.irapp.documents.document(self.current).title.split(" · ", 3)[-1]
        view.border_subtitle = ""

    def refresh_diff(self) -> None:
        """Show the current reference against what came before it."""
        from irscope.tui.documents import BIG_DIFF_BYTES

        ref = self.current
        if ref is None:
            return
        view = self.query_one(TextView)
        docs = self.irapp.documents
        choice = self._shown_choice = self._diff_choice(ref, self.ignore_ssa)
        options = choice.options
        cached = docs.cached_diff(ref, options)
        size = docs.diff_size(ref) if cached is None else 0
        if size > BIG_DIFF_BYTES:
            view.show_note(f"Comparing the IR before and after ({size / 1e6:.1f} MB) in another process…")
            view.border_title = "diff"
            view.border_subtitle = ""
            self._diff_elsewhere(ref, options)
            return
        inputs = docs.diff_inputs(ref)
        if isinstance(inputs, str):
            view.show_note(inputs)
            view.border_title = "diff"
            view.border_subtitle = ""
            return
        if ref.pass_index is not None:
            snap = docs.snapshot(ref)
            view.border_title = f"diff of pass {snap.index} {snap.label}: its input → its output"
        else:
            view.border_title = f"{inputs.left.label}  →  {inputs.right.label}"
            if docs.cross_language(ref):
                view.border_title += " (two languages: few lines can match)"
        view.show_diff(cached or docs.diff(ref, inputs, options), inputs.left_lexer, inputs.right_lexer)
        self._diff_subtitle()

    @work(thread=True, exclusive=True, group="diff-ahead", exit_on_error=False)
    def _diff_ahead(self, ref: DocRef, ignore_ssa: bool | None) -> None:
        """Once the user has rested on a text for a moment, compute its diff, so that ``d`` only has to draw it."""
        from textual.worker import get_current_worker

        from irscope.tui.documents import BIG_DIFF_BYTES

        time.sleep(DIFF_AHEAD_AFTER)
        if get_current_worker().is_cancelled or ref != self.current or self.diff_mode:
            return
        docs = self.irapp.documents
        if not DIFF_AHEAD_MIN_BYTES <= docs.diff_size(ref) <= BIG_DIFF_BYTES:
            return
        options = self._diff_choice(ref, ignore_ssa).options
        if docs.cached_diff(ref, options) is not None:
            return
        inputs = docs.diff_inputs(ref)
        if not isinstance(inputs, str):
            docs.diff(ref, inputs, options)

    @work(exclusive=True, group="diff", exit_on_error=False)
    async def _diff_elsewhere(self, ref: DocRef, options: DiffOptions) -> None:
        from irscope.tui.jobs import run_diff_job

        result = await run_diff_job(str(self.irapp.catalog.store.root), ref, options)
        if isinstance(result, str):
            if ref == self.current and self.diff_mode:
                self.query_one(TextView).show_note(result)
            return
        self.irapp.documents.remember_diff(ref, options, result)
        self.post_message(DiffReady(ref, options, result))

    def on_diff_ready(self, message: DiffReady) -> None:
        """A big diff finished: show it if it is still wanted."""
        if message.ref == self.current and self.diff_mode:
            self.refresh_diff()

    def _diff_subtitle(self) -> None:
        view = self.query_one(TextView)
        if not view.diffing:
            return
        diff = view.diff
        if diff is None or not diff.changed:
            view.border_subtitle = ""
            return
        where = view.change_position()
        choice = self._shown_choice
        if choice is not None and choice.automatic and choice.options == diff.options:
            # Short enough for the text's border at 160 columns: the reason the diff looks small comes first.
            view.border_subtitle = (f"+{diff.added} -{diff.removed} · change {max(where, 1)}/{view.change_count} · "
                                    f"{choice.renumbered} renumbered lines hidden (r: show)")
            return
        if diff.options.normalize_ssa:
            noise = "locations and SSA numbers ignored (r: as printed)"
        else:
            noise = "locations stripped (r: ignore renumbering)"
        view.border_subtitle = (f"+{diff.added} -{diff.removed} · change {max(where, 1)}/{view.change_count} · "
                                f"{'side by side' if self.side_by_side else 'unified'} · {noise}")

    def action_toggle_diff(self) -> None:
        """Show or hide the diff against the previous stage or the pass's input."""
        if self.current is None:
            self.notify("Choose a stage or a pass first.", severity="warning")
            return
        self.diff_mode = not self.diff_mode

    def action_toggle_side_by_side(self) -> None:
        """Unified or side-by-side diff."""
        self.side_by_side = not self.side_by_side
        if not self.diff_mode and self.current is not None:
            self.diff_mode = True
        self._diff_subtitle()

    def action_toggle_ssa(self) -> None:
        """Compare with SSA numbers dropped (%x_12 and %x_13 compare equal) or as printed."""
        view = self.query_one(TextView)
        shown = view.diff.options.normalize_ssa if view.diffing and view.diff is not None else bool(self.ignore_ssa)
        self.ignore_ssa = not shown
        self.notify("Diffs ignore SSA renumbering." if self.ignore_ssa else "Diffs compare SSA names as printed.",
                    timeout=2)

    def _diff_choice(self, ref: DocRef, ignore_ssa: bool | None) -> DiffChoice:
        """Which diff of ``ref`` to show (the user's choice once r was pressed, else decided per pass)."""
        from irscope.tui.diff_choice import choose_diff

        return choose_diff(self.irapp.documents, ref, ignore_ssa)

    def watch_ignore_ssa(self) -> None:
        """Redo the diff on screen."""
        if self.diff_mode:
            self.refresh_diff()

    def action_change(self, step: int) -> None:
        """Go to the next or previous change of the diff."""
        if not self.diff_mode:
            self.diff_mode = True
        view = self.query_one(TextView)
        if not view.next_change(step > 0):
            self.notify("No changes here.", timeout=2)
        self._diff_subtitle()

    # Search, go to, copy -----------------------------------------------------------------------------

    def active_view(self) -> IRView:
        """The text in the centre (IR or diff), or the source view when it has the focus."""
        focused = self.focused
        if isinstance(focused, IRView) and focused.id == "source":
            return focused
        return self.query_one(TextView)

    def action_search(self) -> None:
        """Ask for a search pattern."""
        self._search_target = self.active_view()
        self.query_one(PromptBar).open("search")

    def action_goto(self) -> None:
        """Ask for a line number."""
        self._search_target = self.active_view()
        self.query_one(PromptBar).open("goto")

    @on(PromptBar.Typed)
    def _typed(self, message: PromptBar.Typed) -> None:
        view = getattr(self, "_search_target", None) or self.active_view()
        view.search(message.value)
        if view.match_count and view.cursor not in view._match_rows:
            view.next_match(True)
        self._search_subtitle(view)

    @on(PromptBar.Entered)
    def _entered(self, message: PromptBar.Entered) -> None:
        view = getattr(self, "_search_target", None) or self.active_view()
        view.focus()
        if message.mode == "goto":
            self._goto(view, message.value)
            return
        count = view.search(message.value)
        if count:
            if view.cursor not in view._match_rows:
                view.next_match(True)
        elif message.value:
            self.notify(f"Not found: {message.value}", severity="warning", timeout=3)
        self._search_subtitle(view)

    def _goto(self, view: IRView, value: str) -> None:
        try:
            line = int(value.strip())
        except ValueError:
            self.notify(f"Not a line number: {value!r}", severity="warning", timeout=3)
            return
        if isinstance(view, TextView) and view.diffing:
            row = next((i for i in range(view.row_count) if view.row_label(i).split()[-1:] == [str(line)]), None)
            if row is None:
                self.notify(f"Line {line} is not in the diff's context.", severity="warning", timeout=3)
                return
            view.move_to(row)
            return
        view.move_to(line - 1)

    def _search_subtitle(self, view: IRView) -> None:
        if view.match_count:
            view.border_subtitle = f"match {view.match_position()}/{view.match_count} · n next, N previous"
        else:
            view.border_subtitle = ""

    def action_match(self, step: int) -> None:
        """Go to the next or previous search match."""
        view = self.active_view()
        if not view.next_match(step > 0):
            self.notify("No search: press / to search.", timeout=2)
        self._search_subtitle(view)

    def action_copy(self, whole: bool) -> None:
        """Copy the cursor line (or the whole text) to the clipboard."""
        view = self.active_view()
        text = view.copy_text(whole)
        self.app.copy_to_clipboard(text)
        lines = text.count("\n") + 1 if text else 0
        self.notify(f"Copied {lines} line{'s' if lines != 1 else ''} to the clipboard.", timeout=2)

    def action_focus_tree(self) -> None:
        """Focus the navigator."""
        self.query_one(Navigator).focus()

    def action_focus_text(self) -> None:
        """Focus the text."""
        self.active_view().focus()

    def action_help(self) -> None:
        """Show every key."""
        from irscope.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    @on(CursorMoved)
    def _cursor_moved(self, message: CursorMoved) -> None:
        if message.view != "text":
            return
        view = self.query_one(TextView)
        if view.diffing:
            self._diff_subtitle()
        side = self.query_one(SidePanel)
        side.text_cursor(message.line, view.diffing)
        if not view.diffing and side.pinned_line is None and str(view.border_subtitle).startswith("line "):
            view.border_subtitle = ""  # the cursor left the rows m and M step through

    @on(MarkText)
    def _mark_text(self, message: MarkText) -> None:
        """The side panel tints the IR rows a source line produced (and may bring the first into view)."""
        view = self.query_one(TextView)
        if view.diffing:
            return
        view.set_marked(message.rows)
        if message.reveal is not None:
            top, height = view.scroll_offset.y, view.scrollable_content_region.height
            if not any(top <= r < top + height for r in message.rows):
                view.ensure_visible(message.reveal, center=True)

    # Jobs -------------------------------------------------------------------------------------------------

    def on_unmount(self) -> None:
        """Stop the background compiles."""
        self.jobs.cancel_all()
        self.stop_neighbours()

    def job_captured(self, cid: CaptureId, key: str, show: str | None) -> None:
        """A job stored a capture: list its stages, and open it when the user asked for it."""
        capture = self.irapp.catalog.capture(cid)
        if capture is None:
            return
        self.irapp.documents.add(capture)
        self.fill(cid)
        if show is not None and (self._prompted in (None, cid) or self.current is None):
            self.open_capture(cid, show)

    def job_passes(self, cid: CaptureId, error: str) -> None:
        """Recording passes ended: list them (or say why not)."""
        key = self.irapp.catalog.key(cid)
        self.irapp.documents.forget_dump(key)
        if error:
            self.notify(f"Recording the passes of {cid} failed:\n{error}", severity="error", timeout=10)
        self.fill(cid, note="passes could not be recorded: see the notice" if error and
                  self.irapp.documents.dump(key) is None else "")
        if self.current is not None and self.current.key == key:
            self.query_one(SidePanel).forget_facts()

    def job_effects(self, cid: CaptureId) -> None:
        """What each pass changed is known: mark changed passes, fold the others."""
        self.fill(cid)
        key = self.irapp.catalog.key(cid)
        if self.current is not None and self.current.key == key:
            side = self.query_one(SidePanel)
            side.forget_facts()
            self._info(self.irapp.documents.document(self.current))
            side.refresh_tab()

    def job_ended(self, cid: CaptureId, error: str, show: str | None) -> None:
        """A job ended; a failure shows Triton's message (the app stays up)."""
        nav = self.query_one(Navigator)
        nav.set_busy(cid, None, failed=bool(error) and self.irapp.catalog.capture(cid) is None)
        self.job_tick()
        if not error:
            return
        if self.irapp.catalog.capture(cid) is None:
            if show is not None or self._prompted == cid or self.current is None:
                self.notice(f"Triton could not compile {cid}", error, error=True)
            self.notify(f"Compiling {cid} failed: select it in the tree to read Triton's message.",
                        severity="error", timeout=6)
            self._failures[cid] = error
        else:
            self.notify(f"{cid}: {error}", severity="error", timeout=10)

    def job_tick(self) -> None:
        """Refresh the progress shown for running jobs."""
        lines = []
        nav = self.query_one(Navigator)
        for cid, state in self.jobs.states.items():
            seconds = time.monotonic() - state.started
            lines.append(f"{state.phase} {cid} … {seconds:.1f} s")
            nav.set_busy(cid, f"{state.phase} {seconds:.0f} s")
        for bar in self.query(JobsBar):
            bar.show_jobs(lines)
