"""ReportApp and ``make_report_app``: ``irscope tui --report``, a program capture's report as a view of its own."""

from __future__ import annotations

from textual.app import App
from textual.screen import Screen

from irscope.analysis.report.results import ProgramReport


class ReportApp(App[None]):
    """Holds one program's report; its screen shows it.

    Attributes:
        report: the report (``irscope.request.program_report``).
    """

    TITLE = "irscope report"

    def __init__(self, report: ProgramReport, theme: str | None = None) -> None:
        super().__init__()
        self.report = report
        self.sub_title = report.program
        if theme is not None:
            self.theme = theme

    def get_default_screen(self) -> Screen[None]:
        """The report screen."""
        from irscope.tui.screens.report import ReportScreen

        return ReportScreen(self.report)


def make_report_app(program: str | None, store_dir: str | None, top: int = 10, what_if: int = 3,
                    theme: str | None = None) -> ReportApp:
    """The report view of ``program`` (an id, a prefix or ``latest``; None: the latest), built before it opens."""
    from irscope.request.program_report import ReportOptions, program_report

    report = program_report(store_dir, ReportOptions(program=program, top=top, what_if=min(what_if, top)))
    return ReportApp(report, theme=theme)
