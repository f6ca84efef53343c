"""LinesView: the base of the TUI's text views, a virtual list of rows drawn only when they are visible.

Rows are highlighted when first drawn and kept in a small cache, so an 840 KB LLVM IR opens as fast as
a 3 KB TTIR. The base class owns the cursor, the line-number gutter, search (``/``, ``n``, ``N``),
marked rows (the lines a source line produced) and copying; subclasses say what a row is.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from irscope.tui.messages import CursorMoved
from irscope.tui.syntax import SyntaxTheme, syntax_theme

# Widest row drawn, in cells: lines beyond it end in an ellipsis (LLVM debug metadata can be enormous).
MAX_COLUMNS = 4000
_CACHE_ROWS = 4000
_KEPT_CONTENTS = 8
DrawnKey = tuple[int, int, int, bool, bool]
_LEX_STEP = 64


def lex_limit(scroll_x: int, width: int) -> int:
    """How many leading characters of a row to lex so that everything visible is coloured as in the whole line.

    A token cut by the limit may lex differently, so the limit lies at least one step past the visible
    columns; rounding to steps lets a row's colours be reused while scrolling sideways.
    """
    need = scroll_x + width + _LEX_STEP
    return min(MAX_COLUMNS, ((need // _LEX_STEP) + 1) * _LEX_STEP)


class LinesView(ScrollView, can_focus=True):
    """A scrollable, searchable list of text rows with a cursor and a gutter."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "lines-view--gutter", "lines-view--cursor", "lines-view--cursor-gutter", "lines-view--match",
        "lines-view--marked", "lines-view--added", "lines-view--removed", "lines-view--hunk",
        "lines-view--note",
    }
    DEFAULT_CSS = """
    LinesView {
        background: $surface;
        scrollbar-size-vertical: 1;
        & > .lines-view--gutter { color: $text-muted; background: $surface; }
        & > .lines-view--cursor { background: $primary 25%; }
        & > .lines-view--cursor-gutter { color: $text; background: $primary 40%; text-style: bold; }
        & > .lines-view--match { background: $warning 55%; }
        & > .lines-view--marked { background: $accent 25%; }
        & > .lines-view--added { background: $success 18%; }
        & > .lines-view--removed { background: $error 18%; }
        & > .lines-view--hunk { color: $text-accent; background: $accent 10%; text-style: bold; }
        & > .lines-view--note { color: $text-muted; text-style: italic; }
    }
    LinesView:focus { background-tint: $foreground 3%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor(-1)", "Up", show=False),
        Binding("down,j", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown,space", "page(1)", "Page down", show=False),
        Binding("home", "top", "Top", show=False),
        Binding("end,G", "bottom", "Bottom", show=False),
    ]

    cursor: reactive[int] = reactive(0, always_update=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._cache: OrderedDict[tuple[int, int], Strip] = OrderedDict()
        self._kept: OrderedDict[object, tuple[OrderedDict[tuple[int, int], Strip], dict[DrawnKey, Strip]]] = \
            OrderedDict()
        self._pattern: re.Pattern[str] | None = None
        self._matches: list[int] = []
        self._match_rows: set[int] = set()
        self._marked: frozenset[int] = frozenset()
        self._base_style: Style | None = None
        self._drawn: dict[DrawnKey, Strip] = {}

    # What subclasses provide -------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        """Number of rows."""
        return 0

    def row_text(self, row: int) -> str:
        """A row's plain text (what search looks at and copy takes)."""
        return ""

    def row_label(self, row: int) -> str:
        """The gutter text of a row (its line number)."""
        return str(row + 1)

    def row_style(self, row: int) -> Style | None:
        """A background for the whole row (diff colours), or None."""
        return None

    def highlight_row(self, row: int, limit: int, theme: SyntaxTheme) -> list[Segment]:
        """A row's text as segments, with syntax colours for its first ``limit`` characters."""
        return [Segment(self.row_text(row)[:MAX_COLUMNS])]

    def text_width(self) -> int:
        """Cells of the widest row (up to MAX_COLUMNS)."""
        return 0

    # State -------------------------------------------------------------------------------------

    @property
    def gutter_width(self) -> int:
        """Cells of the line-number gutter, its padding included."""
        return len(self.row_label(max(0, self.row_count - 1))) + 2

    @property
    def theme_syntax(self) -> SyntaxTheme:
        """Syntax colours for the app's current theme."""
        return syntax_theme(self.app.current_theme.dark)

    def on_mount(self) -> None:
        """Redraw with the right colours when the theme changes."""
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.forget_rows())

    def notify_style_update(self) -> None:
        """Styles changed (focus, theme): recompute the base style and redraw the rows on it.

        The rows' syntax colours stay (a theme change forgets them through the theme signal), so a focus
        change repaints without lexing again.
        """
        super().notify_style_update()
        self._base_style = None
        for _cache, drawn in self._kept.values():
            drawn.clear()
        self._drawn.clear()

    @property
    def base_style(self) -> Style:
        """The widget's own rich style (cached: computing it walks the DOM)."""
        if self._base_style is None:
            self._base_style = self.rich_style
        return self._base_style

    def forget_rows(self, refresh: bool = True) -> None:
        """Forget every drawn row of every content kept (the theme, styles or search changed)."""
        self._kept.clear()
        self._cache.clear()
        self._drawn.clear()
        if refresh:
            self.reset_rows()

    def keep_rows(self, key: object) -> None:
        """Draw from the rows kept for content ``key`` (a few recent contents keep theirs, so going back is cheap)."""
        kept = self._kept.get(key)
        if kept is None:
            kept = (OrderedDict(), {})
            self._kept[key] = kept
            if len(self._kept) > _KEPT_CONTENTS:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(key)
        self._cache, self._drawn = kept

    def reset_rows(self) -> None:
        """The rows changed in number or width: recompute the scroll area and redraw."""
        self._set_virtual_size(Size(self.gutter_width + self.text_width() + 1, self.row_count))
        self.refresh()

    def _set_virtual_size(self, size: Size) -> None:
        """Set the scrollable size; a layout pass (a repaint of the whole screen) only when scrollbars come or go."""
        if size == self.virtual_size:
            return
        if not self.is_mounted or not self.container_size:
            self.virtual_size = size
            return
        bars = (self.show_horizontal_scrollbar, self.show_vertical_scrollbar)
        self.set_reactive(ScrollView.virtual_size, size)
        self._refresh_scrollbars()
        if (self.show_horizontal_scrollbar, self.show_vertical_scrollbar) != bars:
            self.refresh(layout=True)
        else:
            self._scroll_update(size)

    def reset_content(self, cursor: int = 0, key: object = None) -> None:
        """New content (``key`` names it, for its kept rows): search it again, drop marks, cursor on ``cursor``."""
        self.keep_rows(key if key is not None else object())
        self._matches = []
        self._match_rows = set()
        self._marked = frozenset()
        self.set_reactive(LinesView.cursor, max(0, min(cursor, self.row_count - 1)))
        if self._pattern is not None:
            self._find_matches()
        self.reset_rows()
        self.scroll_to(0, max(0, cursor - self.size.height // 3), animate=False, immediate=True)

    # Drawing -----------------------------------------------------------------------------------

    def _row_strip(self, row: int, limit: int) -> Strip:
        """A row's coloured content (search hits marked), before scrolling and background; cached."""
        key = (row, limit)
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
            return found
        segments = self.highlight_row(row, limit, self.theme_syntax)
        found = self.strip_of(segments, row in self._match_rows)
        self._cache[key] = found
        if len(self._cache) > _CACHE_ROWS:
            self._cache.popitem(last=False)
        return found

    def strip_of(self, segments: list[Segment], matched: bool) -> Strip:
        """Segments as a strip, with the search hits marked when the row has any."""
        if not matched:
            return Strip(segments)
        text = Text(end="")
        for seg in segments:
            text.append(seg.text, seg.style)
        self.mark_matches(text)
        return Strip(list(text.render(self.app.console)))

    def mark_matches(self, text: Text) -> None:
        """Colour what the current search finds in a drawn text."""
        if self._pattern is None:
            return
        style = self.get_component_rich_style("lines-view--match")
        for m in self._pattern.finditer(text.plain):
            if m.end() > m.start():
                text.stylize(style, m.start(), m.end())

    def render_line(self, y: int) -> Strip:
        """Draw one visible line: gutter, then the row scrolled horizontally (cached per row and state)."""
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        if row >= self.row_count:
            return Strip.blank(width, self.base_style)
        key = (row, scroll_x, width, row == self.cursor, row in self._marked)
        found = self._drawn.get(key)
        if found is None:
            found = self._drawn[key] = self.render_row(row, scroll_x, width)
            if len(self._drawn) > _CACHE_ROWS:
                self._drawn.pop(next(iter(self._drawn)))
        return found

    def row_background(self, row: int) -> Style | None:
        """The background of a row: cursor over marks over the subclass's own colour."""
        if row == self.cursor:
            return self.get_component_rich_style("lines-view--cursor")
        if row in self._marked:
            return self.get_component_rich_style("lines-view--marked")
        return self.row_style(row)

    def gutter_strip(self, row: int, width: int) -> Strip:
        """The gutter of a row."""
        name = "lines-view--cursor-gutter" if row == self.cursor else "lines-view--gutter"
        label = self.row_label(row)
        return Strip([Segment(f" {label.rjust(width - 2)} ", self.get_component_rich_style(name))], width)

    def render_row(self, row: int, scroll_x: int, width: int) -> Strip:
        """A full visible line for a row."""
        gutter_width = self.gutter_width
        room = max(1, width - gutter_width)
        strip = self._row_strip(row, lex_limit(scroll_x, room)).crop_extend(scroll_x, scroll_x + room, None)
        background = self.row_background(row)
        strip = strip.apply_style(self.base_style + background if background else self.base_style)
        return Strip.join([self.gutter_strip(row, gutter_width), strip])

    # Cursor and scrolling ----------------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        """Redraw the two rows and tell the screen."""
        self.refresh_lines(old)  # ScrollView.refresh_lines takes rows and subtracts the scroll offset itself
        self.refresh_lines(new)
        self.post_message(CursorMoved(self.id or "", new))

    def validate_cursor(self, value: int) -> int:
        """Keep the cursor on a row."""
        return max(0, min(value, self.row_count - 1))

    def ensure_visible(self, row: int, center: bool = False) -> None:
        """Scroll so the row is on screen (in the middle when ``center``)."""
        height = self.scrollable_content_region.height or 1
        top = self.scroll_offset.y
        if center and not top <= row < top + height:
            self.scroll_to(y=max(0, row - height // 3), animate=False, immediate=True)
        elif row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    def move_to(self, row: int, center: bool = True) -> None:
        """Put the cursor on a row and show it."""
        self.cursor = row
        self.ensure_visible(self.cursor, center=center)

    def action_cursor(self, delta: int) -> None:
        """Move the cursor by rows."""
        self.move_to(self.cursor + delta, center=False)

    def action_page(self, direction: int) -> None:
        """Move the cursor by a screenful."""
        height = max(1, self.scrollable_content_region.height - 1)
        self.move_to(self.cursor + direction * height, center=False)
        self.scroll_to(y=self.scroll_offset.y + direction * height, animate=False, immediate=True)

    def action_top(self) -> None:
        """Go to the first row."""
        self.move_to(0, center=False)

    def action_bottom(self) -> None:
        """Go to the last row."""
        self.move_to(self.row_count - 1, center=False)

    def on_click(self, event: events.Click) -> None:
        """A click puts the cursor on the clicked row."""
        offset = event.get_content_offset(self)
        if offset is not None:
            self.cursor = self.scroll_offset.y + offset.y

    # Search, marks, copy -----------------------------------------------------------------------

    def _find_matches(self) -> None:
        pattern = self._pattern
        self._matches = [] if pattern is None else self.matching_rows(pattern)
        self._match_rows = set(self._matches)

    def matching_rows(self, pattern: re.Pattern[str]) -> list[int]:
        """The rows whose text the pattern finds something in, in order."""
        return [row for row in range(self.row_count) if pattern.search(self.row_text(row))]

    def search(self, query: str) -> int:
        """Highlight every row matching ``query`` (a regular expression when valid, else literal); return the count.

        Upper-case letters make the search case-sensitive, as in less and vim's smartcase.
        """
        if not query:
            self._pattern = None
            self._matches = []
            self._match_rows = set()
            self.forget_rows()
            return 0
        flags = 0 if any(c.isupper() for c in query) else re.IGNORECASE
        try:
            self._pattern = re.compile(query, flags)
        except re.error:
            self._pattern = re.compile(re.escape(query), flags)
        self._find_matches()
        self.forget_rows()
        return len(self._matches)

    def find(self, query: str) -> int:
        """Search for ``query`` and put the cursor on a match unless it is on one already; return the count."""
        count = self.search(query)
        if count and self.cursor not in self._match_rows:
            self.next_match(True)
        return count

    def show_match_position(self) -> None:
        """Say in the bottom border which match the cursor is on (nothing while there is no match)."""
        if self.match_count:
            self.border_subtitle = f"match {self.match_position()}/{self.match_count} · n next, N previous"
        else:
            self.border_subtitle = ""

    @property
    def match_count(self) -> int:
        """Rows matching the current search."""
        return len(self._matches)

    def match_position(self) -> int:
        """1-based index of the match at or before the cursor (0 when none)."""
        return sum(1 for r in self._matches if r <= self.cursor)

    def next_match(self, forward: bool = True) -> bool:
        """Move to the next (or previous) matching row, wrapping around; False when nothing matches."""
        if not self._matches:
            return False
        if forward:
            after = [r for r in self._matches if r > self.cursor]
            row = after[0] if after else self._matches[0]
        else:
            before = [r for r in self._matches if r < self.cursor]
            row = before[-1] if before else self._matches[-1]
        self.move_to(row)
        return True

    def set_marked(self, rows: frozenset[int]) -> None:
        """Tint these rows (the IR a source line produced, or the source line of an IR row)."""
        if rows != self._marked:
            changed = self._marked ^ rows
            self._marked = rows
            if len(changed) > 64:
                self.refresh()
                return
            for row in changed:
                self.refresh_lines(row)

    @property
    def marked(self) -> frozenset[int]:
        """The tinted rows."""
        return self._marked

    def copy_text(self, whole: bool) -> str:
        """The cursor row, or every row."""
        if whole:
            return "\n".join(self.row_text(r) for r in range(self.row_count))
        return self.row_text(self.cursor) if self.row_count else ""
