"""DocInfo: two lines above the text saying what it is and, for a pass, what the pass did."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class DocInfo(Widget):
    """A fixed two-line header; changing it repaints only itself (no layout pass)."""

    DEFAULT_CSS = """
    DocInfo { height: 2; padding: 0 1; background: $boost; }
    """

    info: reactive[Text] = reactive(Text(), layout=False)

    def render(self) -> Text:
        """The two lines, each cut with an ellipsis when too long."""
        width = max(1, self.content_region.width)
        lines = self.info.split("\n")
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        return Text("\n").join(lines)

    def show_info(self, title: Text, detail: Text) -> None:
        """Set the first line (what is shown) and the second (what the pass did, or a hint)."""
        self.info = Text.assemble(title, "\n", detail)

    @property
    def plain(self) -> str:
        """The text shown."""
        return self.info.plain
