"""ReportApp and ``make_report_app``: ``irscope tui --report``, a program capture's report as a view of its own."""

from __future__ import annotations

from textual.app import App
from textual.screen import Screen

from irscope.analysis.measured import MeasuredJoin
from irscope.analysis.report.results import ProgramReport


class ReportApp(App[None]):
    """Holds one program's report; its screen shows it.

    Attributes:
        report: the report (``irscope.request.program_report``).
        measured: a profile joined to it (``--measured``), None without one.
    """

    TITLE = "irscope report"

    def __init__(self, report: ProgramReport, theme: str | None = None, measured: MeasuredJoin | None = None) -> None:
        super().__init__()
        self.report = report
        self.measured = measured
        self.sub_title = report.program
        if theme is not None:
            self.theme = theme

    def get_default_screen(self) -> Screen[None]:
        """The report screen."""
        from irscope.tui.screens.report import ReportScreen

        return ReportScreen(self.report, self.measured)


def make_report_app(program: str | None, store_dir: str | None, top: int = 10, what_if: int = 3,
                    theme: str | None = None, measured: str | None = None) -> ReportApp:
    """The report view of ``program`` (an id, a prefix or ``latest``; None: the latest), built before it opens;
    ``measured``: a profile's path, joined to it (``--measured``)."""
    from irscope.analysis.measured import join_report
    from irscope.parse.profiles import read_profile
    from irscope.request.program_report import ReportOptions, program_report

    profile = read_profile(measured) if measured is not None else None
    report = program_report(store_dir, ReportOptions(program=program, top=top, what_if=min(what_if, top)))
    return ReportApp(report, theme=theme, measured=join_report(profile, report) if profile is not None else None)
