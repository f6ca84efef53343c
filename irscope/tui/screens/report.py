"""ReportScreen: ``irscope report`` of a program capture as a view of its own: the kernel table, and the highlighted
kernel's reason, verdict, loops and model lines below it.

Opened by ``irscope tui --report [PROGRAM]`` (irscope.tui.report_app); the report is ``irscope report``'s
(irscope.request.program_report), built before the screen opens, so the screen draws and computes nothing else.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from irscope.analysis.measured import MeasuredJoin
from irscope.analysis.report.results import KernelRow, ProgramReport
from irscope.views.measured_text import measured_line
from irscope.views.report_text import kernel_detail, report_heading, table_cells

__all__ = ["ReportScreen"]


class ReportScreen(Screen[None]):
    """The kernels of a program, longest predicted total first; the highlighted one's evidence below."""

    DEFAULT_CSS = """
    ReportScreen > #report-head { height: auto; padding: 0 1; }
    ReportScreen > DataTable { height: 1fr; }
    ReportScreen > #report-detail { height: auto; max-height: 14; padding: 0 1; border-top: solid $primary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,escape", "app.quit", "Quit")]

    def __init__(self, report: ProgramReport, measured: MeasuredJoin | None = None) -> None:
        super().__init__()
        self.report = report
        self.measured = measured

    def compose(self) -> ComposeResult:
        """Heading, table, detail, footer."""
        yield Header()
        yield Static("\n".join(report_heading(self.report)), id="report-head", markup=False)
        yield DataTable(id="report-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="report-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        """Fill the table; the first row's detail shows."""
        table = self.query_one(DataTable)
        heads, rows = table_cells(self.report, self.measured)
        table.add_columns(*heads)
        for i, cells in enumerate(rows):
            table.add_row(*cells, key=str(i))
        table.focus()
        if self.report.kernels:
            self._show(self.report.kernels[0], 1)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Show the highlighted kernel's evidence."""
        index = event.cursor_row
        if 0 <= index < len(self.report.kernels):
            self._show(self.report.kernels[index], index + 1)

    def _show(self, row: KernelRow, number: int) -> None:
        lines = kernel_detail(number, row) or [f"{number}. {row.name}: not modelled: {row.missing}"]
        if not row.reason and row.chosen is not None:
            lines.append("   (reasons and verdicts are given for the top rows: irscope tui --report --top N)")
        if self.measured is not None:
            lines.append(measured_line(self.measured, number))
        self.query_one("#report-detail", Static).update("\n".join(lines))

    @property
    def detail(self) -> str:
        """The detail pane's text (for the tests)."""
        return str(self.query_one("#report-detail", Static).render())
