"""Comparing two captures in the TUI: mark one (``c``), open another, and ``C`` shows their facts side by side.

The same comparison as ``irscope compare`` (irscope.analysis.facts): loops and pipelining, tensor-core
instructions, layouts, registers, spills, shared memory, occupancy and the instruction mix, the
facts that differ first. The facts are read in a thread (ptxas -v may run once per capture).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from irscope.store import Capture
from irscope.tui.screens.side_actions import SideActions

# Facts by capture key: a capture never changes, so the facts read once (often ahead: what_if.warm) stay true.
_FACTS: dict[str, Any] = {}


def facts_of(capture: Capture) -> Any:
    """A capture's facts (irscope.analysis.facts), read once per TUI session."""
    from irscope.analysis.facts import capture_facts

    found = _FACTS.get(capture.manifest.key)
    if found is None:
        found = _FACTS[capture.manifest.key] = capture_facts(capture)
    return found


def comparison_text(left: Capture, right: Capture) -> str:
    """The ``irscope compare`` report of two captures."""
    from irscope.analysis.facts import compare_facts
    from irscope.views.facts_text import render_comparison

    a, b = facts_of(left), facts_of(right)
    return render_comparison(a, b, compare_facts(a.values, b.values), show_all=True)


class CompareScreen(ModalScreen[None]):
    """Two captures' facts; Escape, q or C closes it."""

    DEFAULT_CSS = """
    CompareScreen { align: center middle; }
    CompareScreen > VerticalScroll {
        width: 95%; height: 90%; border: round $primary; background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,C", "dismiss", "Close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        """The report, scrollable."""
        with VerticalScroll() as scroll:
            scroll.border_title = "compare: A is the marked capture, B the one on screen (Escape closes)"
            yield Static(Text(self.text), id="compare-text")


class CompareActions(SideActions):
    """The compare keys of the main screen (a base class of MainScreen, which declares the bindings)."""

    compare_mark: str | None = None

    def _opened(self, key: str | None) -> Capture | None:
        """A capture the TUI has opened, by key."""
        from irscope.tui.app import IrscopeApp

        app = self.app
        return app.documents.captures.get(key) if key and isinstance(app, IrscopeApp) else None

    def _shown_capture(self) -> Capture | None:
        current = getattr(self, "current", None)
        return self._opened(current.key) if current is not None else None

    def action_mark_compare(self) -> None:
        """Remember the capture on screen as side A of a comparison."""
        capture = self._shown_capture()
        if capture is None:
            self.notify("Open a capture first: c marks the capture on screen for a comparison.", timeout=3)
            return
        self.compare_mark = capture.manifest.key
        m = capture.manifest
        self.notify(f"Marked {m.kernel} {m.target} config {m.config_index} for a comparison: open another "
                    "capture (another target, config, Triton or --set variant) and press C.", timeout=5)

    def action_compare(self) -> None:
        """Show the facts of the marked capture against the capture on screen."""
        right = self._shown_capture()
        left = self._opened(self.compare_mark)
        if left is None or right is None:
            self.notify("Nothing to compare yet: press c on one capture, then C on another.", timeout=3)
            return
        if left.manifest.key == right.manifest.key:
            self.notify("The marked capture is the one on screen: open another capture, then press C.", timeout=3)
            return
        self.notify("Comparing the two captures' facts…", timeout=2)

        def work() -> None:
            text = comparison_text(left, right)
            self.app.call_from_thread(self.app.push_screen, CompareScreen(text))

        self.run_worker(work, thread=True, exclusive=True, group="compare")
