"""CompareScreen: two captures' facts side by side (``c`` marks one, ``C`` compares: irscope.tui.comparing).

The same comparison as ``irscope compare`` (irscope.analysis.facts): loops and pipelining, tensor-core
instructions, layouts, registers, spills, shared memory, occupancy and the instruction mix, the
facts that differ first. The facts are read once per capture and session (ptxas -v may run once per capture).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Log

from irscope.store.store import Capture

# Facts by capture key: a capture never changes, so the facts read once (often ahead, irscope.tui.variants.warm)
# stay true.
_FACTS: dict[str, Any] = {}


def facts_of(capture: Capture) -> Any:
    """A capture's facts (irscope.analysis.facts), read once per TUI session."""
    from irscope.analysis.facts import capture_facts

    found = _FACTS.get(capture.manifest.key)
    if found is None:
        found = _FACTS[capture.manifest.key] = capture_facts(capture)
    return found


def hold_facts(result: dict[str, Any]) -> None:
    """Keep facts another irscope process worked out for a capture (``run_job``'s result) for this session."""
    from irscope.analysis.facts import Facts

    key = result.get("key")
    if isinstance(key, str) and key not in _FACTS and isinstance(result.get("facts"), dict):
        _FACTS[key] = Facts(key=key, label=str(result.get("label", "")), values=result["facts"],
                            unread=tuple(str(u) for u in result.get("unread", ())))


def comparison_text(left: Capture, right: Capture, quick: bool = False, first: Sequence[str] = ()) -> str:
    """The ``irscope compare`` report of two captures (``first``: the first divergence's lines, below the sides).

    ``quick``: when the right side's facts have not been read yet, compare only those its stored texts give
    (``capture_facts(quick=True)``) and say that the rest follows.
    """
    from irscope.analysis.facts import SLOW_FACTS, Facts, capture_facts, compare_facts
    from irscope.views.facts_text import render_comparison

    a = facts_of(left)
    if quick and right.manifest.key not in _FACTS:
        b = capture_facts(right, quick=True)
        a = Facts(a.key, a.label, {k: v for k, v in a.values.items() if k in b.values}, a.unread)
        note = (f"\n(reading the rest: {', '.join(SLOW_FACTS)} come from the bundled NVIDIA tools and appear here "
                "in a moment)") if len(b.values) < len(facts_of(left).values) else ""
        return render_comparison(a, b, compare_facts(a.values, b.values), show_all=True, first=first) + note
    b = facts_of(right)
    return render_comparison(a, b, compare_facts(a.values, b.values), show_all=True, first=first)


class CompareScreen(ModalScreen[None]):
    """Two captures' facts (and a stage's diff); Escape, q or C closes it.

    The report is a Log: it draws only the rows on screen, so a long diff costs no more to show than a short one.
    """

    DEFAULT_CSS = """
    /* Opaque: a translucent modal makes Textual draw the main screen dimmed beneath it on every frame,
       which is most of the time it takes to show the report. */
    CompareScreen { align: center middle; background: $background; }
    CompareScreen > Log {
        width: 95%; height: 90%; border: round $primary; background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,C", "dismiss", "Close"),
                                             Binding("p", "passes", "Passes at the first divergence")]

    def __init__(self, text: str, title: str = "", divergence: tuple[str, Any, Any] | None = None) -> None:
        super().__init__()
        self.text = text
        self.divergence = divergence
        self.title_text = title or "compare: A is the marked capture, B the one on screen"

    def compose(self) -> ComposeResult:
        """The report, scrollable."""
        log = Log(auto_scroll=False, id="compare-text")
        log.border_title = f"{self.title_text} (Escape closes)"
        log.write_lines(self.text.splitlines())
        yield log

    def action_passes(self) -> None:
        """The two pass lists side by side at the first divergent pass (when both dumps are stored)."""
        if self.divergence is None:
            self.notify("The pass lists need both captures' per-pass dumps: open each one's passes first.", timeout=4)
            return
        from irscope.tui.screens.divergence import DivergenceScreen

        self.app.push_screen(DivergenceScreen(*self.divergence))

    def show_text(self, text: str, title: str = "") -> None:
        """Replace the report (the variant's once it compiled; the whole one, once the slower facts are read)."""
        self.text = text
        log = self.query_one("#compare-text", Log)
        if title:
            self.title_text = title
            log.border_title = f"{title} (Escape closes)"
        log.clear()
        log.write_lines(text.splitlines())
        log.scroll_home(animate=False)


def capture_name(capture: Capture) -> str:
    """``matmul sm90 c0 (num_stages=2, Triton 3.6.0)``: which capture a side of a comparison is."""
    m = capture.manifest
    extra = [f"{k}={v}" for k, v in m.settings.items()]
    if m.triton_version:
        extra.append(f"Triton {m.triton_version}")
    return f"{m.kernel} {m.target} c{m.config_index}" + (f" ({', '.join(extra)})" if extra else "")
