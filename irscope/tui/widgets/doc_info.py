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

    The header grows to the lines the detail needs (up to MAX_DETAIL_LINES) and changes the layout only
    when that number changes; otherwise a new text repaints only the header.
    """

    DEFAULT_CSS = """
    DocInfo { height: 2; padding: 0 1; background: $boost; }
    """

    info: reactive[Text] = reactive(Text(), layout=False)

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

    def _fit(self) -> None:
        """Take as many lines as the detail needs at the present width."""
        width = self.content_region.width
        if width <= 0:
            return
        height = max(2, len(self._lines(width)))
        if self.styles.height is None or self.styles.height.value != height:
            self.styles.height = height

    def watch_info(self) -> None:
        """A new text may need another number of lines."""
        if self.is_mounted:
            self._fit()

    def on_resize(self, event: events.Resize) -> None:
        """Wrap again for the new width."""
        self._fit()

    def show_info(self, title: Text, detail: Text) -> None:
        """Set the first line (what is shown) and the rest (what the pass did, or a hint)."""
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
