"""JobsBar: a line above the footer saying what is compiling in the background, and for how long."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, ProgressBar


class JobsBar(Horizontal):
    """Visible only while a background capture runs."""

    DEFAULT_CSS = """
    JobsBar { dock: bottom; height: 1; display: none; background: $warning 15%; padding: 0 1; }
    JobsBar.-busy { display: block; }
    JobsBar > ProgressBar { width: 16; }
    JobsBar > ProgressBar > Bar { width: 14; }
    JobsBar > Label { width: 1fr; margin-left: 1; }
    """

    _text = ""  # what runs, kept for a sentence not mounted yet (a job can report before the bar's children mount)

    def compose(self) -> ComposeResult:
        """An indeterminate bar and a sentence."""
        yield ProgressBar(total=None, show_eta=False, show_percentage=False)
        yield Label(self._text, id="jobs-text")

    def on_mount(self) -> None:
        """Say what was reported while the children mounted."""
        self._say()

    def show_jobs(self, lines: list[str]) -> None:
        """Say what runs (nothing: hide)."""
        self._text = "; ".join(lines)
        self.set_class(bool(lines), "-busy")
        self._say()

    def _say(self) -> None:
        for label in self.query("#jobs-text").results(Label):  # none before the children mount
            label.update(self._text)
