"""FactsPanel: what the compiler made of the kernel, one labelled line per fact."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from irscope.tui.facts import Fact

# Facts the capture states itself (the rest the analyses derive).
_GIVEN = ("manifest", "Triton metadata")


def _table(facts: Sequence[Fact]) -> Table:
    table = Table.grid(padding=(0, 1), expand=True)
    table.add_column(style="bold", no_wrap=True)
    table.add_column(ratio=1)
    for fact in facts:
        table.add_row(fact.label, Text.assemble(fact.value, (f"  ({fact.source})", "dim")))
    return table


def render_facts(facts: Sequence[Fact], sections: Sequence[tuple[str, str]] = (), notes: Sequence[str] = ()) -> Group:
    """What the capture is (a table), the analyses' own paragraphs (loops, resources), then what the
    layouts and passes tell (a table); the source of each fact in its margin."""
    given = [f for f in facts if f.source in _GIVEN]
    derived = [f for f in facts if f.source not in _GIVEN]
    parts: list[Table | Text] = [_table(given)]
    for title, body in sections:
        parts.append(Text(f"\n{title}", style="bold underline"))
        parts.append(Text(body.rstrip("\n")))
    if derived:
        parts.append(Text("\nFrom the layouts and the passes", style="bold underline"))
        parts.append(_table(derived))
    for note in notes:
        parts.append(Text(note, style="dim italic"))
    return Group(*parts)


class FactsPanel(VerticalScroll):
    """A scrollable table of facts about the open capture."""

    DEFAULT_CSS = """
    FactsPanel { height: 1fr; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        """One static holding the table."""
        yield Static(Text("Open a capture to see its facts.", style="dim italic"), id="facts-table")

    def show_facts(self, facts: Sequence[Fact], sections: Sequence[tuple[str, str]] = (),
                   notes: Sequence[str] = ()) -> None:
        """Show these facts, then the sections (loops, resources) as their analyses word them."""
        self.query_one("#facts-table", Static).update(render_facts(facts, sections, notes))
