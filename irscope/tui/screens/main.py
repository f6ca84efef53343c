"""MainScreen: the navigator, the IR or diff in the middle, source / layouts / facts at the side.

The screen owns the key bindings and turns the widgets' messages into actions on the session's data
(irscope.tui.state.AppState, handed down by the app: the catalog and the documents). Its parts are
composed, not inherited: the centre is a widget (irscope.tui.widgets.reader), the side panel another;
background captures, comparisons and what-if variants are helpers the screen holds (irscope.tui.workflow,
irscope.tui.comparing, irscope.tui.variants). Work that takes longer than a frame runs elsewhere: compiles
in a child process (irscope.tui.jobs), big diffs, source maps and layout analyses in threads.
"""

from __future__ import annotations

import time
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.lazy import Lazy
from textual.reactive import Reactive, var
from textual.screen import Screen
from textual.widget import Widget

from irscope.store.store import Capture
from irscope.tui.catalog import CaptureId
from irscope.tui.comparing import Comparisons
from irscope.tui.documents import DocRef
from irscope.tui.messages import (
    CursorMoved,
    MarkText,
    OpenCapture,
    ShowCapturePrompt,
    ShowDocument,
)
from irscope.tui.state import AppState
from irscope.tui.variants import Variants
from irscope.tui.widgets.ir_view import IRView
from irscope.tui.widgets.jobs_bar import JobsBar
from irscope.tui.widgets.keys_footer import KeysFooter
from irscope.tui.widgets.navigator import Navigator
from irscope.tui.widgets.reader import Reader
from irscope.tui.widgets.side_panel import SidePanel
from irscope.tui.widgets.text_view import TextView
from irscope.tui.workflow import JobBoard

# The stage a capture opens on: where Triton's decisions (layouts, pipelining, tensor cores) show.
OPEN_STAGE = "ttgir"


class MainScreen(Screen[None]):
    """Browse captures: tree, IR or diff, and the side panels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("d", "toggle_diff", "Diff"),
        Binding("s", "toggle_side_by_side", "Side by side"),
        Binding("right_square_bracket", "change(1)", "Next change", key_display="]"),
        Binding("left_square_bracket", "change(-1)", "Prev change", key_display="[", show=False),
        Binding("r", "toggle_ssa", "Ignore renumbering", show=False),
        Binding("slash", "search", "Search", key_display="/"),
        Binding("p", "go_to_pass", "Pass"),
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
        Binding("c", "mark_compare", "Compare", key_display="c C"),
        Binding("C", "compare", "Compare with marked", show=False),
        Binding("q", "app.quit", "Quit"),
        # After Quit: a narrow footer drops these (and #) before the keys above; ? lists them.
        *(Binding(str(n), f"stage({n})", "Stage", key_display="1-9", show=n == 1) for n in range(1, 10)),
        Binding("a", "captures", "Captures"),
        # last: a narrow footer drops it first
        Binding("number_sign", "toggle_locations", "Locations", key_display="#"),
    ]

    # Textual repaints the whole screen when the focus moves (60 ms here); the widgets whose look depends on
    # the focus restyle and repaint themselves anyway.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    # Screen state as ``var``: changing it runs its watcher but does not repaint the whole screen. The diff's
    # state goes down to the reader (``data_bind``), which redraws the text.
    diff_mode: var[bool] = var(False)
    side_by_side: var[bool] = var(False)
    # None: pass diffs ignore SSA numbers when renumbering is most of what changed (irscope.tui.diff_choice).
    ignore_ssa: var[bool | None] = var(None, init=False)
    side_visible: var[bool] = var(True, init=False)
    side_zoomed: var[bool] = var(False, init=False)

    def __init__(self, state: AppState) -> None:
        super().__init__(id="main")
        self.state = state
        self.reader = Reader(state.documents, str(state.catalog.store.root), id="center")
        self.jobs = JobBoard(self, state)
        self.comparisons = Comparisons(self, state)
        self.variants = Variants(self, state, self._stage)
        self._prompted: CaptureId | None = None
        self._failures: dict[CaptureId, str] = {}
        self._cids: dict[str, CaptureId] = {}

    @property
    def current(self) -> DocRef | None:
        """The stage or pass on screen."""
        return self.reader.current

    def _stage(self) -> str:
        """The stage on screen (a what-if's report diffs it)."""
        return self.current.stage if self.current is not None else OPEN_STAGE

    # Layout ---------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Navigator | centre (info line, IR/diff/notice, prompt) | side tabs; jobs bar and footer below."""
        yield Navigator(self.state.catalog, id="nav")
        with Container(id="main-area"):
            yield self.reader.data_bind(MainScreen.diff_mode, MainScreen.side_by_side, MainScreen.ignore_ssa)
            yield SidePanel(self.state.documents, id="side")
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
        start = self.state.start
        if start is not None:
            self.open_capture(start)
            if self.state.start_note:
                self.notify(self.state.start_note, timeout=6)
        else:
            self.call_after_refresh(self.state.settle_memory)

    def notice(self, title: str, body: str, error: bool = False) -> None:
        """Show a notice in the centre instead of IR."""
        self.reader.notice(title, body, error)

    # Opening captures ------------------------------------------------------------------------------

    def open_capture(self, cid: CaptureId, stage: str = OPEN_STAGE) -> None:
        """Show a capture (compiling it first in the background when the store lacks it)."""
        capture = self.state.catalog.capture(cid)
        if capture is None:
            if not self.state.catalog.compilable(cid.kernel):
                self.notice(f"{cid} is not in the store", "irscope cannot compile this kernel itself.", error=True)
                return
            self.jobs.start(cid, capture=True, show=stage)
            self._prompted = cid
            self.query_one(Navigator).reveal("config", cid)
            self.notice(f"Compiling {cid}…", "Triton compiles it offline in a background process, with the "
                        "specialization its JIT would apply; the stages appear in the tree when it is done. The tree "
                        "and the other captures stay usable meanwhile.")
            return
        self.state.documents.add(capture)
        self.variants.start_neighbours(capture)
        self.fill(cid, passes=False)
        stages = [s.name for s in self.state.documents.stages(capture.manifest.key)]
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

        for stage in self.state.documents.stages(key):
            highlighter(stage.lexer).spans("%x = arith.constant 0 : i32 ; mov.u32 %r1, 0;")
        self.app.call_from_thread(self.state.settle_memory)

    def fill(self, cid: CaptureId, note: str = "", passes: bool = True) -> None:
        """Put a capture's stages (and its passes, unless ``passes`` is False) in the tree."""
        docs = self.state.documents
        key = self.state.catalog.key(cid)
        self._cids[key] = cid
        stages = docs.stages(key)
        if not passes:
            self.query_one(Navigator).fill_capture(cid, key, stages, {}, {}, None, "")
            return
        dump = docs.dump(key)
        by_stage = {s.name: docs.passes(key, s.name) for s in stages}
        steps = {p.index: dump.index.steps_of(p.index) for p in dump.index.passes} if dump is not None else {}
        if dump is None and not note and self.jobs.running(cid) is None and self.state.catalog.can_record_passes(cid):
            note = "passes not recorded (press Enter on the config to record them)"
        self.query_one(Navigator).fill_capture(cid, key, stages, by_stage, steps, docs.effects(key), note)

    def on_open_capture(self, message: OpenCapture) -> None:
        """Enter on a config: open it, compiling or recording passes as needed."""
        self.choose_capture(message.cid)

    def choose_capture(self, cid: CaptureId, stage: str = OPEN_STAGE) -> None:
        """Open a capture the user chose (in the tree or the captures picker), recording its passes when needed."""
        capture = self.state.catalog.capture(cid)
        if capture is not None:
            self.state.documents.add(capture)
            if self.state.record_passes and self.state.documents.dump(capture.manifest.key) is None and \
                    self.state.catalog.can_record_passes(cid):
                self.jobs.start(cid, capture=False, show=None, passes=True)
        self.open_capture(cid, stage)

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
        target = self.state.catalog.targets[cid.target]
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
        reader = self.reader
        document = reader.readable(ref)
        if document is None:
            return
        docs = self.state.documents
        if self.diff_mode and ref != reader.current and docs.cross_language(ref):
            # Moving on in diff mode to a stage whose diff compares two languages (PTX → SASS): show its text.
            self.diff_mode = False
            self.notify(f"Diff off: {docs.cross_language(ref)} compares two languages line by line. "
                        "d shows that diff anyway.", timeout=4)
        reader.show(document, cursor)
        side = self.query_one(SidePanel)
        side.text_row, side.text_diffing = cursor, self.query_one(TextView).diffing
        self.call_after_refresh(self._side_follows, ref)  # the text is painted first, its side panels follow

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

    # Diff keys (the reader redraws: it is bound to diff_mode, side_by_side and ignore_ssa) -----------------

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
        self.reader.diff_subtitle()

    def action_toggle_ssa(self) -> None:
        """Compare with SSA numbers dropped (%x_12 and %x_13 compare equal) or as printed."""
        view = self.query_one(TextView)
        shown = view.diff.options.normalize_ssa if view.diffing and view.diff is not None else bool(self.ignore_ssa)
        self.ignore_ssa = not shown
        self.notify("Diffs ignore SSA renumbering." if self.ignore_ssa else "Diffs compare SSA names as printed.",
                    timeout=2)

    def action_toggle_locations(self) -> None:
        """Show or hide MLIR locations (``#loc`` lines, ``loc(...)``); the cursor stays on its line."""
        docs = self.state.documents
        view = self.query_one(TextView)
        shown = view.document if not view.diffing else None
        line = shown.number(view.cursor) if shown is not None and view.cursor < len(shown.lines) else 1
        docs.show_locations = not docs.show_locations
        self.query_one(SidePanel).forget_maps()
        ref = self.current
        if ref is not None:  # the same ref, another text: show it again (show_ref skips the one on screen)
            document = docs.document(ref)
            self.reader.show(document, document.row_of(line) if shown is not None else 0)
            self.call_after_refresh(self._side_follows, ref)
        self.notify("Locations shown (#loc lines, loc(...))." if docs.show_locations else
                    "Locations hidden; line numbers stay those of the stored text.", timeout=2)

    def action_change(self, step: int) -> None:
        """Go to the next or previous change of the diff."""
        if not self.diff_mode:
            self.diff_mode = True
        if not self.query_one(TextView).next_change(step > 0):
            self.notify("No changes here.", timeout=2)
        self.reader.diff_subtitle()

    # Search, go to, copy -----------------------------------------------------------------------------

    def active_view(self) -> IRView:
        """The text in the centre (IR or diff), or the source view when it has the focus."""
        focused = self.focused
        if isinstance(focused, IRView) and focused.id == "source":
            return focused
        return self.query_one(TextView)

    def action_search(self) -> None:
        """Ask for a search pattern."""
        self.reader.ask("search", self.active_view())

    def action_goto(self) -> None:
        """Ask for a line number."""
        self.reader.ask("goto", self.active_view())

    def action_match(self, step: int) -> None:
        """Go to the next or previous search match."""
        view = self.active_view()
        if not view.next_match(step > 0):
            self.notify("No search: press / to search.", timeout=2)
        view.show_match_position()

    def action_copy(self, whole: bool) -> None:
        """Copy the cursor line (or the whole text) to the clipboard."""
        view = self.active_view()
        text = view.copy_text(whole)
        self.app.copy_to_clipboard(text)
        lines = text.count("\n") + 1 if text else 0
        self.notify(f"Copied {lines} line{'s' if lines != 1 else ''} to the clipboard.", timeout=2)

    def action_go_to_pass(self) -> None:
        """Choose a pass of the capture on screen by typing part of its name (Textual's command palette)."""
        from irscope.tui.pass_commands import pass_commands

        current = self.current
        docs = self.state.documents
        commands = pass_commands(docs, current.key, self.reveal_ref) if current and current.key in docs.captures else []
        if not commands:
            self.notify("Open a capture whose passes are recorded first: p then jumps to one by name.", timeout=3)
            return
        self.app.search_commands(commands, placeholder="Go to pass: type part of its name, then Enter…")

    def action_stage(self, number: int) -> None:
        """Show the capture's stage ``number`` (1: the first, as the tree lists them), the pass's or stage's diff
        mode kept."""
        current = self.current
        stages = self.state.documents.stages(current.key) if current and current.key in self.state.documents.captures \
            else []
        if not 0 < number <= len(stages):
            self.notify(f"This capture has {len(stages)} stages: 1 to {len(stages)} show them." if stages else
                        "Open a capture first: 1 to 9 then show its stages.", timeout=3)
            return
        assert current is not None
        self.reveal_ref(DocRef(current.key, stages[number - 1].name))

    def action_captures(self) -> None:
        """Choose another capture of the kernel on screen (a target, config or what-if variant the store holds)."""
        from irscope.tui.capture_commands import capture_commands

        current = self.current
        cid = self._cids.get(current.key) if current is not None else self.query_one(Navigator).cursor_capture()
        kernel = cid.kernel if cid is not None else self.state.start.kernel if self.state.start else None
        commands = capture_commands(self.state.catalog, kernel, current.key if current else None,
                                    lambda chosen: self.choose_capture(chosen, self._stage())) if kernel else []
        if not commands:
            self.notify("The store holds no capture of this kernel yet: press Enter on a config in the tree.",
                        timeout=3)
            return
        self.app.search_commands(commands, placeholder=f"Captures of {kernel}: type a target, config or setting…")

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
            self.reader.diff_subtitle()
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

    # Side panel keys --------------------------------------------------------------------------------------

    def action_side(self, which: str) -> None:
        """Show a side panel (source, layouts or facts) and give it the focus: its keys are the next ones typed."""
        self.side_visible = True
        side = self.query_one(SidePanel)
        side.show_tab(which)
        self.call_after_refresh(side.focus_tab)  # the layouts panel mounts just after the first frame

    def action_tinted(self, step: int) -> None:
        """Move the text's cursor to the next (or previous) row tinted for the current source line, wrapping."""
        view = self.query_one(TextView)
        side = self.query_one(SidePanel)
        line, rows = side.tinted_rows(view.diffing)
        if not rows:
            why = ("the diff's rows are not mapped to the source: d shows the text again" if view.diffing else
                   "put the cursor on an IR line that came from the kernel, or on a kernel line in the source (o)")
            self.notify(f"No tinted lines: {why}.", timeout=3)
            return
        if step > 0:
            row = next((r for r in rows if r > view.cursor), rows[0])
        else:
            row = next((r for r in reversed(rows) if r < view.cursor), rows[-1])
        side.pinned_line = line
        view.move_to(row)
        view.border_subtitle = (f"line {line} of the kernel: IR line {rows.index(row) + 1}/{len(rows)} · "
                                "m next, M previous")

    def action_layout_view(self) -> None:
        """Tensor or hardware view of the layout map (from anywhere: the layouts come forward)."""
        if self._layouts_forward():
            self.query_one(SidePanel).toggle_layout_view()

    def action_layout_warp(self, step: int) -> None:
        """Another warp in the layout map's hardware view (the tensor view switches to it first)."""
        if self._layouts_forward():
            self.query_one(SidePanel).step_warp(step)

    def _layouts_forward(self) -> bool:
        """Bring the layouts tab forward; False (and say so) while it has nothing to draw."""
        side = self.query_one(SidePanel)
        if not self.side_visible or side.active_tab != "layouts":
            self.action_side("layouts")
        why = side.layouts_missing()
        if why:
            self.notify(why, timeout=3)
        return not why

    def action_toggle_side(self) -> None:
        """Hide or show the side panels."""
        self.side_visible = not self.side_visible

    def watch_side_visible(self, visible: bool) -> None:
        """Give the text the whole width when the side panels are hidden."""
        side = self.query_one(SidePanel)
        side.display = visible
        if visible:
            side.refresh_tab()
        else:
            self.side_zoomed = False

    def action_zoom_side(self) -> None:
        """Give the side panel the whole screen (a layout map at full width), or give it back."""
        self.side_zoomed = not self.side_zoomed

    def watch_side_zoomed(self, zoomed: bool) -> None:
        """Hide the tree and the text while the side panel is zoomed."""
        if zoomed and not self.side_visible:
            self.side_visible = True
        self.set_class(zoomed, "-side-zoom")
        side = self.query_one(SidePanel)
        if zoomed:
            side.focus_tab()
        elif self.focused is None or not self.focused.display:
            self.query_one(TextView).focus()

    # Compare and what if ------------------------------------------------------------------------------------

    def shown_capture(self) -> Capture | None:
        """The capture on screen, or None."""
        return self.state.documents.captures.get(self.current.key) if self.current is not None else None

    def action_mark_compare(self) -> None:
        """Remember a capture as side A of a comparison (the one under the tree's cursor, or on screen)."""
        shown = self.current.key if self.current is not None else None
        self.comparisons.mark_chosen(shown, self._cids.get(shown) if shown is not None else None)

    def action_compare(self) -> None:
        """Show the facts of the marked capture against the chosen one."""
        self.comparisons.compare_chosen(self.current.key if self.current is not None else None)

    def action_what_if(self) -> None:
        """Open the what-if form for the capture on screen."""
        self.variants.open_form(self.shown_capture())

    # Jobs -------------------------------------------------------------------------------------------------

    def on_unmount(self) -> None:
        """Stop the background compiles."""
        self.jobs.cancel_all()
        self.variants.stop_neighbours()

    def job_captured(self, cid: CaptureId, key: str, show: str | None) -> None:
        """A job stored a capture: list its stages, and open it when the user asked for it."""
        capture = self.state.catalog.capture(cid)
        if capture is None:
            return
        self.state.documents.add(capture)
        self.fill(cid)
        if show is not None and (self._prompted in (None, cid) or self.current is None):
            self.open_capture(cid, show)

    def job_passes(self, cid: CaptureId, error: str) -> None:
        """Recording passes ended: list them (or say why not)."""
        key = self.state.catalog.key(cid)
        self.state.documents.forget_dump(key)
        if error:
            self.notify(f"Recording the passes of {cid} failed:\n{error}", severity="error", timeout=10)
        self.fill(cid, note="passes could not be recorded: see the notice" if error and
                  self.state.documents.dump(key) is None else "")
        if self.current is not None and self.current.key == key:
            self.query_one(SidePanel).forget_facts()

    def job_effects(self, cid: CaptureId) -> None:
        """What each pass changed is known: mark changed passes, fold the others."""
        self.fill(cid)
        key = self.state.catalog.key(cid)
        if self.current is not None and self.current.key == key:
            side = self.query_one(SidePanel)
            side.forget_facts()
            self.reader.show_info(self.state.documents.document(self.current))
            side.refresh_tab()

    def job_ended(self, cid: CaptureId, error: str, show: str | None) -> None:
        """A job ended; a failure shows Triton's message (the app stays up)."""
        nav = self.query_one(Navigator)
        nav.set_busy(cid, None, failed=bool(error) and self.state.catalog.capture(cid) is None)
        self.job_tick()
        if not error:
            return
        if self.state.catalog.capture(cid) is None:
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
