"""Reader: the centre of the main screen: the info line, the stage or pass (or its diff, or a notice), the prompt.

The screen tells the reader what to show (``show``, ``notice``) or to ask for (``ask``: a search, a line
number), and binds the diff's state to it (``diff_mode``, ``side_by_side``, ``ignore_ssa``: the screen's keys
change them, ``data_bind`` brings them here); the reader reads the documents, works out the diff (a big one
in a child process, a likely one ahead of time in a thread) and keeps the text's borders saying what is shown.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import var
from textual.widgets import ContentSwitcher

from irscope.errors import IrscopeError
from irscope.tui.documents import DocRef, Document, Documents
from irscope.tui.messages import DiffReady
from irscope.tui.widgets.doc_info import DocInfo
from irscope.tui.widgets.ir_view import IRView
from irscope.tui.widgets.notice_view import NoticeView
from irscope.tui.widgets.prompt_bar import PromptBar
from irscope.tui.widgets.text_view import TextView

if TYPE_CHECKING:
    from irscope.analysis.diff import DiffOptions
    from irscope.tui.diff_choice import DiffChoice

# Seconds the user rests on a text before its diff is computed ahead (moving on sooner computes nothing),
# and the size (both sides) from which that is worth it: smaller diffs take under 40 ms when d is pressed.
# Computing ahead shares the interpreter with the UI, so a key pressed meanwhile waits a little longer.
DIFF_AHEAD_AFTER = 0.6
DIFF_AHEAD_MIN_BYTES = 1_000_000


class Reader(Vertical):
    """The text on screen (a stage or pass, or its diff) with the line above it saying what it is."""

    # Bound to the screen's (irscope.tui.screens.main): the reader only reads them.
    diff_mode: var[bool] = var(False)
    side_by_side: var[bool] = var(False)
    # None: pass diffs ignore SSA numbers when renumbering is most of what changed (irscope.tui.diff_choice).
    ignore_ssa: var[bool | None] = var(None, init=False)

    def __init__(self, documents: Documents, store_root: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.documents = documents
        self.store_root = store_root
        self.current: DocRef | None = None
        self._shown_choice: DiffChoice | None = None
        self._search_view: IRView | None = None  # the view the prompt searches in (or goes to a line of)

    def compose(self) -> ComposeResult:
        """The info line, the text or a notice, and the prompt for search and go to line."""
        yield DocInfo(id="doc-info")
        with ContentSwitcher(initial="notice", id="views"):
            yield TextView(id="text").data_bind(Reader.side_by_side)
            yield NoticeView(id="notice")
        yield PromptBar(id="prompt")

    def notice(self, title: str, body: str, error: bool = False) -> None:
        """Show a notice instead of IR."""
        self.query_one(NoticeView).show_notice(title, body, error)
        self.query_one("#views", ContentSwitcher).current = "notice"
        self.query_one(DocInfo).show_info(Text(title, style="bold red" if error else "bold"), Text(), "notice")

    # Showing documents -------------------------------------------------------------------------------

    def readable(self, ref: DocRef) -> Document | None:
        """The document to show for ``ref``; None when it is on screen already or cannot be read (a notice says why)."""
        if ref == self.current and self.query_one("#views", ContentSwitcher).current != "notice":
            return None
        try:
            return self.documents.document(ref)
        except IrscopeError as exc:
            self.notice("This text cannot be read", str(exc), error=True)
            return None

    def show(self, document: Document, cursor: int = 0) -> None:
        """Show a stage or pass (and its diff, in diff mode; else its diff is worked out ahead once the user rests)."""
        ref = self.current = document.ref
        view = self.query_one(TextView)
        view.show_document(document, cursor)
        view.border_title = document.title.split(" · ", 3)[-1]
        self.show_info(document)
        self.query_one("#views", ContentSwitcher).current = "text"
        if self.diff_mode:
            self.refresh_diff()
        else:
            self._diff_ahead(ref, self.ignore_ssa)

    def show_info(self, document: Document) -> None:
        """The lines above the text: what it is, and what the pass did."""
        ref = document.ref
        title = Text(document.title, style="bold")
        # Lines, not bytes: byte counts change with the absolute paths in #loc lines.
        title.append(f"   {len(document.lines)} lines", style="dim")
        detail = Text()
        if ref.pass_index is not None:
            effects = self.documents.effects(ref.key) or {}
            effect = effects.get((ref.pass_index, ref.step))
            snap = self.documents.snapshot(ref)
            if effect is not None:
                what = effect.summary or ("changed nothing" if effect.status == "unchanged" else effect.status)
                detail.append(what, style="italic")
                detail.append("   d: its diff", style="dim")
            else:
                detail.append(f"{snap.pass_class}" + (f" {{{snap.options}}}" if snap.options else ""), style="dim")
        elif ref.stage != "source":
            detail.append("d: diff with the stage before   →: the passes that made it", style="dim")
        # A stage and its passes keep the header's height (walking them, the text does not jump); others reset it.
        self.query_one(DocInfo).show_info(title, detail, f"{ref.key} {ref.stage}")

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
        view.border_title = self.documents.document(self.current).title.split(" · ", 3)[-1]
        view.border_subtitle = ""

    def watch_ignore_ssa(self) -> None:
        """Redo the diff on screen."""
        if self.diff_mode:
            self.refresh_diff()

    def refresh_diff(self) -> None:
        """Show the current reference against what came before it."""
        from irscope.tui.documents import BIG_DIFF_BYTES

        ref = self.current
        if ref is None:
            return
        view = self.query_one(TextView)
        docs = self.documents
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
        self.diff_subtitle()

    @work(thread=True, exclusive=True, group="diff-ahead", exit_on_error=False)
    def _diff_ahead(self, ref: DocRef, ignore_ssa: bool | None) -> None:
        """Once the user has rested on a text for a moment, compute its diff, so that ``d`` only has to draw it."""
        from textual.worker import get_current_worker

        from irscope.tui.documents import BIG_DIFF_BYTES

        time.sleep(DIFF_AHEAD_AFTER)
        if get_current_worker().is_cancelled or ref != self.current or self.diff_mode:
            return
        docs = self.documents
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

        result = await run_diff_job(self.store_root, ref, options)
        if isinstance(result, str):
            if ref == self.current and self.diff_mode:
                self.query_one(TextView).show_note(result)
            return
        self.documents.remember_diff(ref, options, result)
        self.post_message(DiffReady(ref, options, result))

    def on_diff_ready(self, message: DiffReady) -> None:
        """A big diff finished: show it if it is still wanted."""
        message.stop()
        if message.ref == self.current and self.diff_mode:
            self.refresh_diff()

    def diff_subtitle(self) -> None:
        """Say below the diff how big it is, which change the cursor is on and what the diff ignores."""
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

    def _diff_choice(self, ref: DocRef, ignore_ssa: bool | None) -> DiffChoice:
        """Which diff of ``ref`` to show (the user's choice once r was pressed, else decided per pass)."""
        from irscope.tui.diff_choice import choose_diff

        return choose_diff(self.documents, ref, ignore_ssa)

    # Search and go to line ----------------------------------------------------------------------------------

    def ask(self, mode: str, view: IRView) -> None:
        """Open the prompt for ``search`` or ``goto`` in ``view`` (the text, or the source view beside it)."""
        self._search_view = view
        self.query_one(PromptBar).open(mode)

    @on(PromptBar.Typed)
    def _typed(self, message: PromptBar.Typed) -> None:
        view = self._search_view or self.query_one(TextView)
        view.find(message.value)
        view.show_match_position()

    @on(PromptBar.Entered)
    def _entered(self, message: PromptBar.Entered) -> None:
        view = self._search_view or self.query_one(TextView)
        view.focus()
        if message.mode == "goto":
            self._goto(view, message.value)
            return
        if not view.find(message.value) and message.value:
            self.notify(f"Not found: {message.value}", severity="warning", timeout=3)
        view.show_match_position()

    def _goto(self, view: IRView, value: str) -> None:
        try:
            line = int(value.strip())
        except ValueError:
            self.notify(f"Not a line number: {value!r}", severity="warning", timeout=3)
            return
        if not view.go_to_line(line):
            self.notify(f"Line {line} is not in the diff's context.", severity="warning", timeout=3)
