"""IRView: one stage or pass snapshot (or the kernel's Python source), highlighted line by line as it scrolls."""

from __future__ import annotations

from rich.segment import Segment

from irscope.tui.documents import Document
from irscope.tui.syntax import Span, SyntaxTheme, highlighter, line_segments
from irscope.tui.widgets.lines_view import MAX_COLUMNS, LinesView

# Texts this small are lexed whole (Python's strings span lines); larger ones a line at a time.
_WHOLE_TEXT_LEXERS = ("python",)
_WHOLE_TEXT_LIMIT = 200_000


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
                self._whole = _split_spans(highlighter(document.lexer).spans(document.text), document.lines)

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

    def highlight_row(self, row: int, limit: int, theme: SyntaxTheme) -> list[Segment]:
        """A line with syntax colours."""
        assert self.document is not None
        line = self.document.lines[row]
        if len(line) > MAX_COLUMNS:
            line = line[:MAX_COLUMNS - 1] + "…"
        if self._whole is not None:
            spans = self._whole[row]
        else:
            spans = highlighter(self.document.lexer).spans(line[:limit])
        return line_segments(line, spans, theme)
