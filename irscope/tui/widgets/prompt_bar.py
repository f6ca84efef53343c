"""PromptBar: the one-line input under the text views, for search (``/``) and go to line (``g``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input


class PromptBar(Input):
    """Asks for a search pattern or a line number; Enter submits, Escape closes."""

    DEFAULT_CSS = """
    PromptBar, PromptBar:focus { dock: bottom; display: none; border: none; height: 1; padding: 0 1;
                                 background: $boost; }
    PromptBar.-open { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close", show=False)]

    @dataclass
    class Entered(Message):
        """The user entered a search or a line number."""

        mode: str
        value: str

    @dataclass
    class Typed(Message):
        """The search text changed (searches as you type); only the latest matters."""

        value: str

        def can_replace(self, message: Message) -> bool:
            """A newer edit replaces an older one."""
            return isinstance(message, PromptBar.Typed)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, placeholder="")
        self.mode = "search"

    def open(self, mode: str, value: str = "") -> None:
        """Show the bar for ``search`` or ``goto`` and focus it."""
        self.mode = mode
        self.placeholder = ("search: a regular expression (smart case); Enter to find, Esc to close"
                            if mode == "search" else "go to line: a number; Enter to go, Esc to close")
        self.value = value
        self.add_class("-open")
        self.focus()

    def action_close(self) -> None:
        """Hide the bar and give the focus back."""
        self.remove_class("-open")
        self.screen.focus_previous()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Pass the value on and close."""
        event.stop()
        self.post_message(self.Entered(self.mode, event.value))
        self.remove_class("-open")

    def on_input_changed(self, event: Input.Changed) -> None:
        """Search as the user types."""
        event.stop()
        if self.mode == "search" and self.has_class("-open"):
            self.post_message(self.Typed(event.value))
