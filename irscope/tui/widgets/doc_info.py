"""DocInfo: the lines above the text saying what it is and, for a pass, what the pass did."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

# Lines the pass summary may wrap to (tritongpu-pipeline's runs to ~250 characters: "... loop pipelined: 3 stages").
MAX_DETAIL_LINES = 4


class DocInfo(Widget):
    """A header: the title on one line, the detail (a pass's summary) wrapped below it.

    The header grows to the lines the detail needs (up to MAX_DETAIL_LINES) and does not shrink again while
    the texts shown belong together (a stage and its passes) or until the terminal is resized: walking the
    passes with the header changing height would make the text under it jump, and each change of height
    costs a layout of the whole screen; a text that fits repaints only the header. A text of another group
    (another stage or its passes, a notice) takes only the lines it needs.
    """

    DEFAULT_CSS = """
    DocInfo { height: 2; padding: 0 1; background: $boost; }
    """

    info: reactive[Text] = reactive(Text(), layout=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._fitted_width = -1
        self._group = ""
        self._regrouped = False

    def _lines(self, width: int) -> list[Text]:
        """The title cut to one line, then the detail wrapped (the last line cut with an ellipsis)."""
        title, detail = _split(self.info)
        title.truncate(width, overflow="ellipsis")
        if not detail.plain:
            return [title, detail]
        wrapped = list(detail.wrap(self.app.console, width, overflow="fold"))
        if len(wrapped) > MAX_DETAIL_LINES:
            wrapped = wrapped[:MAX_DETAIL_LINES]
            last = wrapped[-1]
            last.append(" …")
            last.truncate(width, overflow="ellipsis")
        return [title, *wrapped]

    def render(self) -> Text:
        """The title and the wrapped detail."""
        return Text("\n").join(self._lines(max(1, self.content_region.width)))

    def _fit(self, shrink: bool = False) -> None:
        """Take as many lines as the detail needs at the present width (fewer only when ``shrink``)."""
        width = self.content_region.width
        if width <= 0:
            return
        height = max(2, len(self._lines(width)))
        now = int(self.styles.height.value) if self.styles.height is not None else 2
        if height > now or (shrink and height != now):
            self.styles.height = height

    def watch_info(self) -> None:
        """A new text may need more lines (another group's: fewer too)."""
        if self.is_mounted:
            self._fit(shrink=self._regrouped)

    def on_resize(self, event: events.Resize) -> None:
        """Wrap again for the new width, taking only the lines the text on screen needs."""
        if event.size.width != self._fitted_width:
            self._fitted_width = event.size.width
            self._fit(shrink=True)

    def show_info(self, title: Text, detail: Text, group: str = "") -> None:
        """Set the first line (what is shown) and the rest (what the pass did, or a hint).

        ``group``: which texts the one shown belongs with (the header keeps its height within a group).
        """
        self._regrouped = group != self._group
        self._group = group
        self.info = Text.assemble(title, "\n", detail)

    @property
    def plain(self) -> str:
        """The text shown."""
        return self.info.plain


def _split(info: Text) -> tuple[Text, Text]:
    """The title and the detail of a header text (copies: wrapping and cutting change them)."""
    parts = info.split("\n", allow_blank=True)
    title = parts[0].copy() if parts else Text()
    detail = Text("\n").join(parts[1:]) if len(parts) > 1 else Text()
    return title, detail
