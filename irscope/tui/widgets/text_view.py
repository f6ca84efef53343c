"""TextView: the centre of the screen, a stage or pass, or its diff (unified or side by side).

One widget shows both, so toggling the diff repaints this widget only: no layout pass, no
repaint of the rest of the screen.
"""

from __future__ import annotations

import re
import textwrap
from collections import OrderedDict

from rich.segment import Segment
from rich.style import Style
from textual.reactive import reactive
from textual.strip import Strip

from irscope.analysis.diff import TextDiff
from irscope.tui.diff_rows import DiffRow, DiffRows
from irscope.tui.documents import Document
from irscope.tui.syntax import SyntaxTheme, highlighter, line_segments
from irscope.tui.widgets.ir_view import IRView
from irscope.tui.widgets.lines_view import MAX_COLUMNS, LinesView, lex_limit

_SIGN = Style(bold=True)
# Diffs whose rows are kept built, so toggling back to a recent diff does not rebuild 14,000 rows.
_BUILT_DIFFS = 6


class Same:
    """A key equal only to keys of the very same object (which it keeps alive, so its id is not reused)."""

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj

    def __hash__(self) -> int:
        return id(self.obj)


class TextView(IRView):
    """The selected stage or pass; in diff mode, its diff against what came before it."""

    DEFAULT_CSS = """
    TextView { height: 1fr; }
    """

    side_by_side: reactive[bool] = reactive(False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.diffing = False
        self.diff: TextDiff | None = None
        self.left_lexer = "text"
        self.right_lexer = "text"
        self._rows: DiffRows | list[DiffRow] = [DiffRow("note", text="")]
        self._changes: list[int] = []
        self._diff_width = 0
        self._sides: OrderedDict[tuple[int, int, str], Strip] = OrderedDict()
        self._text_place = (0, 0)
        self._built: OrderedDict[tuple[str, Same, bool], tuple[DiffRows, list[int], int]] = OrderedDict()

    # Modes ----------------------------------------------------------------------------------------

    def show_document(self, document: Document | None, cursor: int = 0) -> None:
        """Show a document; in diff mode, only remember it (its diff follows)."""
        if not self.diffing:
            super().show_document(document, cursor)
            return
        self.set_document(document)
        self._text_place = (cursor, 0)

    def show_text(self) -> None:
        """Leave diff mode: the document again, where it was left."""
        if not self.diffing:
            return
        self.diffing = False
        self.diff = None
        cursor, top = self._text_place
        self.reset_content(cursor, key=self.document.ref if self.document is not None else None)
        self.scroll_to(0, top, animate=False, immediate=True)

    def _enter_diff(self) -> None:
        if not self.diffing:
            self._text_place = (self.cursor, self.scroll_offset.y)
            self.diffing = True

    def show_diff(self, diff: TextDiff, left_lexer: str, right_lexer: str) -> None:
        """Show a diff."""
        self._enter_diff()
        self.diff = diff
        self.left_lexer, self.right_lexer = left_lexer, right_lexer
        self._build()

    def show_note(self, note: str) -> None:
        """Show a sentence instead of a diff (nothing to compare, or still computing)."""
        self._enter_diff()
        self.diff = None
        width = max(40, self.scrollable_content_region.width - 6)
        lines = [part for line in note.splitlines() or [""] for part in textwrap.wrap(line, width) or [""]]
        self._rows = [DiffRow("note", text=line) for line in lines]
        self._changes = []
        self._diff_width = max(len(r.text) for r in self._rows)
        self._sides.clear()
        self.reset_content(0, key=("note", note))

    def _build(self) -> None:
        diff = self.diff
        if diff is None:
            return
        if not diff.changed:
            why = ("the two texts are identical" if diff.identical_raw else
                   "the texts differ only in locations and other stripped noise")
            self.show_note(f"No change from {diff.left} to {diff.right}: {why}.")
            self.diff = diff
            return
        key = ("diff", Same(diff), self.side_by_side)
        built = self._built.get(key)
        if built is None:
            rows = DiffRows(diff, self.side_by_side)
            self._rows, self._changes, self._diff_width = rows, rows.changes, min(MAX_COLUMNS, rows.width())
            self._built[key] = (rows, self._changes, self._diff_width)
            if len(self._built) > _BUILT_DIFFS:
                self._built.popitem(last=False)
        else:
            self._built.move_to_end(key)
            self._rows, self._changes, self._diff_width = built
        self._sides.clear()
        first = self._changes[0] if self._changes else 0
        self.reset_content(first, key=key)

    def watch_side_by_side(self) -> None:
        """Rebuild the rows in the other presentation, keeping the change in view."""
        if not self.diffing or self.diff is None:
            return
        change = self.change_position()
        self._build()
        if change and len(self._changes) >= change:
            self.move_to(self._changes[change - 1])

    # Rows ---------------------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        """Rows drawn."""
        return len(self._rows) if self.diffing else super().row_count

    def row_text(self, row: int) -> str:
        """A row as text: ``-``/``+``/`` `` and the line, or both sides joined by ``|``."""
        if not self.diffing:
            return super().row_text(row)
        r = self._rows[row]
        if r.kind != "line":
            return r.text
        if self.side_by_side:
            return f"{r.left.text if r.left else ''} | {r.right.text if r.right else ''}"
        assert r.left is not None
        return f"{r.left.tag}{r.left.text}"

    def matching_rows(self, pattern: re.Pattern[str]) -> list[int]:
        """Rows with a match: of the diff's rows in diff mode, else of the document."""
        if self.diffing:
            return LinesView.matching_rows(self, pattern)
        return super().matching_rows(pattern)

    def row_label(self, row: int) -> str:
        """Old and new line numbers."""
        if not self.diffing:
            return super().row_label(row)
        r = self._rows[row]
        if r.kind != "line" or r.left is None:
            return ""
        old = str(r.left.old) if r.left.old is not None else ""
        new = str(r.left.new) if r.left.new is not None else ""
        return f"{old:>{self._digits}} {new:>{self._digits}}"

    @property
    def _digits(self) -> int:
        diff = self.diff
        if diff is None or not diff.hunks:
            return 1
        last = diff.hunks[-1]
        return len(str(max(last.old_start + last.old_len, last.new_start + last.new_len)))

    @property
    def gutter_width(self) -> int:
        """Two line numbers in unified mode; one per side when side by side."""
        if not self.diffing:
            return super().gutter_width
        if self.side_by_side:
            return 0
        return 2 * self._digits + 3

    def row_style(self, row: int) -> Style | None:
        """Green for added lines, red for removed ones, a tint for hunk headers."""
        if not self.diffing:
            return None
        r = self._rows[row]
        if r.kind == "hunk":
            return self.get_component_rich_style("lines-view--hunk")
        if r.kind == "note":
            return self.get_component_rich_style("lines-view--note")
        tag = r.tag
        if tag == "+":
            return self.get_component_rich_style("lines-view--added")
        if tag == "-":
            return self.get_component_rich_style("lines-view--removed")
        return None

    def text_width(self) -> int:
        """The widest row."""
        return self._diff_width if self.diffing else super().text_width()

    def _colour(self, line: str, lexer: str, limit: int, theme: SyntaxTheme) -> list[Segment]:
        if len(line) > MAX_COLUMNS:
            line = line[:MAX_COLUMNS - 1] + "…"
        return line_segments(line, highlighter(lexer).spans(line[:limit]), theme)

    def highlight_row(self, row: int, limit: int, theme: SyntaxTheme) -> list[Segment]:
        """A unified row: its sign, then the line coloured with its side's lexer."""
        if not self.diffing:
            return super().highlight_row(row, limit, theme)
        r = self._rows[row]
        if r.kind != "line" or r.left is None:
            return [Segment(r.text)]
        lexer = self.left_lexer if r.left.tag == "-" else self.right_lexer
        return [Segment(r.left.tag, _SIGN), *self._colour(r.left.text, lexer, limit, theme)]

    # Side by side --------------------------------------------------------------------------------

    def _side(self, row: int, side: str, limit: int) -> Strip:
        key = (row, limit, side)
        found = self._sides.get(key)
        if found is None:
            r = self._rows[row]
            line = r.left if side == "left" else r.right
            if line is None:
                found = Strip([])
            else:
                segments = self._colour(line.text, self.left_lexer if side == "left" else self.right_lexer, limit,
                                        self.theme_syntax)
                found = self.strip_of(segments, row in self._match_rows)
            self._sides[key] = found
            if len(self._sides) > 4000:
                self._sides.popitem(last=False)
        else:
            self._sides.move_to_end(key)
        return found

    def forget_rows(self, refresh: bool = True) -> None:
        """Forget drawn sides too."""
        self._sides.clear()
        super().forget_rows(refresh)

    def _half(self, row: int, side: str, scroll_x: int, width: int) -> Strip:
        r = self._rows[row]
        line = r.left if side == "left" else r.right
        number = ""
        if line is not None:
            value = line.old if side == "left" else line.new
            number = str(value) if value is not None else ""
        gutter_style = self.get_component_rich_style(
            "lines-view--cursor-gutter" if row == self.cursor else "lines-view--gutter")
        digits = self._digits
        gutter = Strip([Segment(f"{number:>{digits}} ", gutter_style)], digits + 1)
        room = max(1, width - digits - 1)
        strip = self._side(row, side, lex_limit(scroll_x, room)).crop_extend(scroll_x, scroll_x + room, None)
        if row == self.cursor:
            background: Style | None = self.get_component_rich_style("lines-view--cursor")
        elif line is None or line.tag == " ":
            background = None
        else:
            background = self.get_component_rich_style(
                "lines-view--removed" if line.tag == "-" else "lines-view--added")
        strip = strip.apply_style(self.base_style + background if background else self.base_style)
        return Strip.join([gutter, strip])

    def render_row(self, row: int, scroll_x: int, width: int) -> Strip:
        """Unified rows as usual; side-by-side rows as two halves around a rule."""
        if not self.diffing or not self.side_by_side or self._rows[row].kind != "line":
            return super().render_row(row, scroll_x, width)
        half = max(1, (width - 1) // 2)
        rule = Strip([Segment("│", self.get_component_rich_style("lines-view--gutter"))], 1)
        right_width = max(1, width - half - 1)
        return Strip.join([self._half(row, "left", scroll_x, half), rule,
                           self._half(row, "right", scroll_x, right_width)])

    def go_to_line(self, line: int) -> bool:
        """Put the cursor on a line of the text; in diff mode on the row that line number labels (the new side's,
        a removed line's old one), False when the diff's context does not show it."""
        if not self.diffing:
            return super().go_to_line(line)
        row = next((i for i in range(self.row_count) if self.row_label(i).split()[-1:] == [str(line)]), None)
        if row is None:
            return False
        self.move_to(row)
        return True

    # Changes ---------------------------------------------------------------------------------------

    @property
    def change_count(self) -> int:
        """Runs of changed rows."""
        return len(self._changes) if self.diffing else 0

    def change_position(self) -> int:
        """1-based index of the change at or before the cursor (0 before the first)."""
        if not self.diffing:
            return 0
        return sum(1 for r in self._changes if r <= self.cursor)

    def next_change(self, forward: bool = True) -> bool:
        """Move to the next (or previous) run of changed rows, wrapping; False when there is none."""
        if not self.diffing or not self._changes:
            return False
        if forward:
            after = [r for r in self._changes if r > self.cursor]
            row = after[0] if after else self._changes[0]
        else:
            before = [r for r in self._changes if r < self.cursor]
            row = before[-1] if before else self._changes[-1]
        self.move_to(row)
        return True
