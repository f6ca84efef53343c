"""IRView: one stage or pass snapshot (or the kernel's Python source), highlighted line by line as it scrolls."""

from __future__ import annotations

import bisect
import re

from rich.segment import Segment

from irscope.tui.documents import LRU, DocRef, Document
from irscope.tui.syntax import Span, SyntaxTheme, highlighter, line_segments
from irscope.tui.widgets.lines_view import MAX_COLUMNS, LinesView

# Texts this small are lexed whole (Python's strings span lines); larger ones a line at a time.
_WHOLE_TEXT_LEXERS = ("python",)
_WHOLE_TEXT_LIMIT = 200_000
# Whole-text spans of recent documents: the source pane and the source stage share them (30 ms to lex).
_WHOLE_SPANS: LRU[DocRef, list[list[Span]]] = LRU(8)


def _split_spans(spans: list[Span], lines: tuple[str, ...]) -> list[list[Span]]:
    """Cut spans of a whole text into per-line spans with line-relative offsets."""
    starts = []
    pos = 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    out: list[list[Span]] = [[] for _ in lines]
    row = 0
    for start, end, ttype in spans:
        while row + 1 < len(starts) and starts[row + 1] <= start:
            row += 1
        r = row
        while start < end and r < len(lines):
            line_end = starts[r] + len(lines[r])
            if start < line_end:
                out[r].append((start - starts[r], min(end, line_end) - starts[r], ttype))
            start = line_end + 1
            r += 1
    return out


class IRView(LinesView):
    """A highlighted text with line numbers; empty until given a Document."""

    DEFAULT_CSS = """
    IRView { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.document: Document | None = None
        self._width = 0
        self._whole: list[list[Span]] | None = None

    def show_document(self, document: Document | None, cursor: int = 0) -> None:
        """Show a document (None: nothing), the cursor on row ``cursor``."""
        self.set_document(document)
        self.reset_content(cursor, key=document.ref if document is not None else None)

    def set_document(self, document: Document | None) -> None:
        """Take a document without drawing it yet."""
        self.document = document
        self._whole = None
        self._width = 0
        if document is not None:
            self._width = min(MAX_COLUMNS, max((len(line) for line in document.lines), default=0))
            if document.lexer in _WHOLE_TEXT_LEXERS and document.size <= _WHOLE_TEXT_LIMIT:
                self._whole = _WHOLE_SPANS.get(document.ref)
                if self._whole is None:
                    self._whole = _split_spans(highlighter(document.lexer).spans(document.text), document.lines)
                    _WHOLE_SPANS.put(document.ref, self._whole)

    @property
    def row_count(self) -> int:
        """Lines of the document."""
        return len(self.document.lines) if self.document is not None else 0

    def row_text(self, row: int) -> str:
        """A line of the document."""
        return self.document.lines[row] if self.document is not None else ""

    def text_width(self) -> int:
        """The longest line."""
        return self._width

    def matching_rows(self, pattern: re.Pattern[str]) -> list[int]:
        """Rows with a match, found by scanning the whole text (a case-insensitive literal: 10x faster than by rows).

        A match that spans lines is checked against its first line alone, so the rows found are exactly those
        a row-by-row search finds.
        """
        document = self.document
        if document is None:
            return []
        text, starts = document.text, document.line_starts
        scan = re.compile(pattern.pattern, pattern.flags | re.MULTILINE)
        if pattern.flags & re.IGNORECASE and "\\" not in pattern.pattern and document.lowered is not None:
            # Python's case-insensitive search has no fast path for literals: search the lower-cased text instead
            text = document.lowered
            scan = re.compile(pattern.pattern.lower(), (pattern.flags & ~re.IGNORECASE) | re.MULTILINE)
        rows: list[int] = []
        pos = 0
        while pos <= len(text) and (found := scan.search(text, pos)) is not None:
            row = bisect.bisect_right(starts, found.start()) - 1
            within = text.find("\n", found.start(), found.end()) < 0
            if within or pattern.search(document.lines[row]):
                rows.append(row)
            if row + 1 >= len(starts):
                break
            pos = starts[row + 1]
        return rows

    def go_to_line(self, line: int) -> bool:
        """Put the cursor on a line (1-based) of the stored text (with locations hidden: the row showing it, or
        the next one); False when the text has no such line to go to."""
        self.move_to(self.document.row_of(line) if self.document is not None else line - 1)
        return True

    def row_label(self, row: int) -> str:
        """The row's line number in the stored text (the same with locations hidden or shown)."""
        if self.document is None or row >= len(self.document.lines):
            return str(row + 1)
        return str(self.document.number(row))

    def highlight_row(self, row: int, limit: int, theme: SyntaxTheme) -> list[Segment]:
        """A line with syntax colours."""
        assert self.document is not None
        line = self.document.lines[row]
        if len(line) > MAX_COLUMNS:
            line = line[:MAX_COLUMNS - 1] + "…"
        spans = self._whole[row] if self._whole is not None else highlighter(self.document.lexer).spans(line[:limit])
        return line_segments(line, spans, theme)
