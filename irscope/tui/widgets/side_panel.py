"""SidePanel: the tabs beside the text: the kernel's source (mapped to the IR), the layouts, the facts.

The screen tells the panel which text is shown (``follow``) and where the text's cursor is
(``text_cursor``); the panel keeps its tabs up to date, working in threads, and asks the screen to
tint IR rows with a ``MarkText`` message when the source cursor moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.lazy import Lazy
from textual.widgets import TabbedContent, TabPane

from irscope.errors import IrscopeError
from irscope.tui.documents import DocRef, Documents
from irscope.tui.linemap import EMPTY, LineMap, line_map
from irscope.tui.messages import CursorMoved, MarkText
from irscope.tui.widgets.facts_panel import FactsPanel
from irscope.tui.widgets.ir_view import IRView
from irscope.tui.widgets.layouts_panel import LayoutsPanel

if TYPE_CHECKING:
    from irscope.analysis.layouts.explain import LayoutReport

# Layouts are analysed in texts up to this size (the LLVM-dialect snapshots after lowering have none left).
_LAYOUT_TEXT_LIMIT = 2_000_000
# Source mapping runs in a thread, which shares the interpreter with the UI: only for texts up to this size.
_MAP_TEXT_LIMIT = 2_000_000
TABS = ("source", "layouts", "facts")


class SidePanel(Vertical):
    """Source, Layouts and Facts tabs for the text on screen."""

    DEFAULT_CSS = """
    SidePanel { height: 1fr; }
    SidePanel > TabbedContent { height: 1fr; }
    SidePanel TabPane { padding: 0; height: 1fr; }
    SidePanel #source { border: none; }
    """

    def __init__(self, documents: Documents, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.documents = documents
        self.current: DocRef | None = None
        self.text_row = 0
        self.text_diffing = False
        self._maps: dict[DocRef, LineMap] = {}
        self.line_map: LineMap = EMPTY
        self._source_key = ""
        self.layouts: dict[DocRef, LayoutReport | None] = {}
        self._layout_ref: DocRef | None = None
        self._facts_key = ""
        self.tinted_line: int | None = None  # the source line (1-based) whose IR rows are tinted
        self.pinned_line: int | None = None  # kept tinted while the text's cursor steps through its rows

    def compose(self) -> ComposeResult:
        """The tabs; layouts and facts mount just after the first frame."""
        with TabbedContent(initial="tab-source"):
            with TabPane("Source", id="tab-source"):
                yield IRView(id="source")
            with TabPane("Layouts", id="tab-layouts"):
                yield Lazy(LayoutsPanel(id="layouts"))
            with TabPane("Facts", id="tab-facts"):
                yield Lazy(FactsPanel(id="facts"))

    # What the screen tells the panel ------------------------------------------------------------------------

    def follow(self, ref: DocRef) -> None:
        """The text on screen changed."""
        if self.current is None or self.current.key != ref.key:
            self._facts_key = ""
        self.current = ref
        self.refresh_tab()

    def text_cursor(self, row: int, diffing: bool) -> None:
        """The text's cursor moved (or the text switched to a diff, where rows do not map)."""
        self.text_row, self.text_diffing = row, diffing
        self._sync_from_text()

    def show_tab(self, name: str) -> None:
        """Bring a tab forward: ``source``, ``layouts`` or ``facts``."""
        self.query_one(TabbedContent).active = f"tab-{name}"

    def focus_tab(self) -> None:
        """Focus what the tab in front is used with: the source's lines, the list of layouts."""
        tab = self.active_tab
        if tab == "source":
            self.query_one("#source", IRView).focus()
        elif tab == "layouts":
            for options in self.query("#layout-list"):
                options.focus()

    @property
    def layouts_pending(self) -> bool:
        """Whether the layouts of the text on screen are being read (or not asked for yet)."""
        return self._layout_ref is None or self._layout_ref not in self.layouts

    @property
    def active_tab(self) -> str:
        """The tab in front."""
        return self.query_one(TabbedContent).active.removeprefix("tab-")

    def forget_maps(self) -> None:
        """The text's rows changed (locations hidden or shown): map them again."""
        self._maps.clear()

    def forget_facts(self) -> None:
        """The passes' effects arrived: gather the facts again."""
        self._facts_key = ""

    def tinted_rows(self, diffing: bool) -> tuple[int | None, list[int]]:
        """The source line whose IR rows are tinted, and those rows in order (none while the text is a diff)."""
        line = self.tinted_line
        return line, sorted(self.line_map.from_source.get(line, ())) if line is not None and not diffing else []

    def layouts_missing(self) -> str:
        """Why the layouts tab has no map to draw now, in a sentence; '' when it has one."""
        panels = list(self.query(LayoutsPanel))
        if panels and panels[0].selected is None:
            if self.layouts_pending:
                return "The layouts are still being read: press the key again in a moment."
            return "No layout to draw here: the layouts panel says why."
        return ""

    def toggle_layout_view(self) -> None:
        """The layout map's tensor or hardware view."""
        for panel in self.query(LayoutsPanel):
            panel.action_toggle_view()

    def step_warp(self, step: int) -> None:
        """Another warp in the layout map's hardware view (the tensor view switches to it first)."""
        for panel in self.query(LayoutsPanel):
            if panel.view != "hardware":
                panel.view = "hardware"
                self.notify("The hardware view draws one warp at a time: w / W step through them.", timeout=3)
                continue
            panel.action_warp(step)

    @on(TabbedContent.TabActivated)
    def _tab(self, event: TabbedContent.TabActivated) -> None:
        event.stop()
        self.refresh_tab()

    def refresh_tab(self) -> None:
        """Bring the tab in front up to date with the text on screen."""
        if self.current is None or not self.display:
            return
        tab = self.active_tab
        if tab == "source":
            self._refresh_source()
        elif tab == "layouts":
            self._refresh_layouts()
        elif tab == "facts":
            self._refresh_facts()

    # Source ---------------------------------------------------------------------------------------------

    def _refresh_source(self) -> None:
        ref = self.current
        assert ref is not None
        view = self.query_one("#source", IRView)
        if self._source_key != ref.key:
            self._source_key = ref.key
            try:
                view.show_document(self.documents.document(DocRef(ref.key, "source")))
            except IrscopeError as exc:
                view.show_document(None)
                view.border_title = str(exc)
                return
            m = self.documents.captures[ref.key].manifest
            view.border_title = m.kernel_path.rsplit("/", 1)[-1]
            start = next((i for i in range(view.row_count)
                          if view.row_text(i).lstrip().startswith(f"def {m.function}(")),
                         0)
            view.scroll_to(y=max(0, start - 2), animate=False, immediate=True)
        self.line_map = self._maps.get(ref, EMPTY)
        view.border_subtitle = ""
        if ref in self._maps:
            self._sync_from_text()
        elif self.documents.document(ref).size > _MAP_TEXT_LIMIT:
            self._maps[ref] = EMPTY  # mapping 4 MB of lowered IR would hold the UI for half a second
            view.border_subtitle = "lines not mapped: the text is over 2 MB"
        elif ref.stage != "source":
            self._map_in_thread(ref)

    @work(thread=True, exclusive=True, group="source-map", exit_on_error=False)
    def _map_in_thread(self, ref: DocRef) -> None:
        why = ""
        try:
            found = line_map(self.documents.captures[ref.key], self.documents.document(ref))
        except IrscopeError as exc:
            found, why = EMPTY, str(exc)
        except Exception as exc:  # the source map is another module's: a bug there must not close the UI
            found, why = EMPTY, f"the source map failed ({type(exc).__name__}: {exc})"
        self.app.call_from_thread(self._map_ready, ref, found, why)

    def _map_ready(self, ref: DocRef, found: LineMap, why: str = "") -> None:
        self._maps[ref] = found
        if ref != self.current:
            return
        if why:
            self.query_one("#source", IRView).border_subtitle = f"lines not mapped: {why}"[:120]
        self.line_map = found
        self._sync_from_text()

    def _sync_from_text(self) -> None:
        """Tint the Python line the text's cursor row came from, and (through the screen) the IR that line made."""
        source = self.query_one("#source", IRView)
        line = None if self.text_diffing else self.line_map.to_source.get(self.text_row)
        pinned = self.pinned_line
        if pinned is not None and not self.text_diffing and self.text_row in self.line_map.from_source.get(pinned, ()):
            line = pinned  # a row a call inlined counts for its own line too: stepping keeps the line it started on
        else:
            self.pinned_line = None
        self.tinted_line = line
        if line is None:
            source.set_marked(frozenset())
            self.post_message(MarkText(frozenset(), None))
            return
        source.set_marked(frozenset({line - 1}))
        source.ensure_visible(line - 1, center=True)
        self.post_message(MarkText(frozenset(self.line_map.from_source.get(line, ())), None))

    @on(CursorMoved)
    def _source_cursor(self, message: CursorMoved) -> None:
        """The source cursor moved: tint that line's IR rows and bring the first into view."""
        if message.view != "source":
            return
        message.stop()
        if self.text_diffing:
            return
        rows = self.line_map.from_source.get(message.line + 1, ())
        self.tinted_line = message.line + 1 if rows else None
        self.pinned_line = None
        self.query_one("#source", IRView).set_marked(frozenset({message.line}) if rows else frozenset())
        self.post_message(MarkText(frozenset(rows), rows[0] if rows else None))

    # Layouts -------------------------------------------------------------------------------------------------

    def _layout_source(self) -> DocRef:
        """The TTGIR to read: the text on screen when it is TTGIR (a pass snapshot), else the capture's TTGIR."""
        ref = self.current
        assert ref is not None
        if ref.pass_index is not None:
            doc = self.documents.document(ref)
            if doc.ir == "mlir" and doc.size <= _LAYOUT_TEXT_LIMIT and ref.stage in ("ttgir", "llir"):
                return ref
        return DocRef(ref.key, "ttgir")

    def _refresh_layouts(self) -> None:
        if not self.query(LayoutsPanel):
            self.call_after_refresh(self.refresh_tab)  # mounted just after the first frame
            return
        source = self._layout_source()
        if source == self._layout_ref:
            return
        self._layout_ref = source
        if source in self.layouts:
            self._show_layouts(source, self.layouts[source])
            return
        self.query_one(LayoutsPanel).show_report(None, "", "reading the layouts…")
        self._layouts_in_thread(source)

    @work(thread=True, exclusive=True, group="layouts", exit_on_error=False)
    def _layouts_in_thread(self, source: DocRef) -> None:
        from irscope.analysis.layouts.explain import analyze_layouts

        why = ""
        try:
            report: LayoutReport | None = analyze_layouts(self.documents.stored(source).text)
        except IrscopeError as exc:
            report, why = None, str(exc)
        except Exception as exc:  # the layout analysis is another module's: report its failure, keep the UI up
            report, why = None, f"the layout analysis failed ({type(exc).__name__}: {exc})"
        self.app.call_from_thread(self._show_layouts, source, report, why)

    def _show_layouts(self, source: DocRef, report: LayoutReport | None, why: str = "") -> None:
        self.layouts[source] = report
        if source != self._layout_ref:
            return
        title = self.documents.title(source)
        panel = self.query_one(LayoutsPanel)
        panel.border_title = title.split(" · ", 3)[-1]
        panel.show_report(report, title, "" if report is not None else (why or "This TTGIR cannot be read."))

    # Facts -----------------------------------------------------------------------------------------------------

    def _refresh_facts(self) -> None:
        ref = self.current
        assert ref is not None
        if not self.query(FactsPanel):
            self.call_after_refresh(self.refresh_tab)
            return
        if self._facts_key == ref.key:
            return
        self._facts_key = ref.key
        self._facts_in_thread(ref.key)

    @work(thread=True, exclusive=True, group="facts", exit_on_error=False)
    def _facts_in_thread(self, key: str) -> None:
        from irscope.tui.facts import gather_facts

        facts, sections, notes = gather_facts(self.documents, key, self.layouts.get(DocRef(key, "ttgir")))
        for panel in self.query(FactsPanel):
            self.app.call_from_thread(panel.show_facts, facts, sections, notes)
