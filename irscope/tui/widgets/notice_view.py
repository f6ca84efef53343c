"""NoticeView: what the centre shows instead of IR: how to start, a capture in progress, or Triton's error."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static


class NoticeView(VerticalScroll, can_focus=True):
    """A heading and a body of text; red when it carries an error."""

    DEFAULT_CSS = """
    NoticeView { height: 1fr; padding: 1 2; background: $surface; }
    NoticeView > #notice-title { text-style: bold; margin-bottom: 1; }
    NoticeView.-error > #notice-title { color: $text-error; }
    NoticeView > #notice-body { width: 100%; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.title_text = ""
        self.body_text = ""

    def compose(self) -> ComposeResult:
        """Title and body."""
        yield Static(id="notice-title")
        yield Static(id="notice-body")

    def show_notice(self, title: str, body: str, error: bool = False) -> None:
        """Show a notice (Triton's messages are kept verbatim: no markup is read from them)."""
        self.title_text, self.body_text = title, body
        self.set_class(error, "-error")
        self.query_one("#notice-title", Static).update(Text(title))
        self.query_one("#notice-body", Static).update(Text(body))
        self.scroll_home(animate=False)
