"""``irscope report --html``: the report of a program capture as one self-contained page (the kernel table; a
kernel's reason, verdict and model lines when its row is clicked; the calls outside Triton; with ``--measured``, the
measured time and ratio columns and a tab of the profile joined to the model)."""

from __future__ import annotations

from typing import Any

from irscope.analysis.measured import MeasuredJoin
from irscope.analysis.report.results import ProgramReport
from irscope.views.html_page import page
from irscope.views.measured_text import render_measured
from irscope.views.report_text import extern_line, kernel_detail, report_heading, table_cells

__all__ = ["render_report_page", "report_page_data"]


def report_page_data(report: ProgramReport, measured: MeasuredJoin | None = None) -> dict[str, Any]:
    """What the page's script draws: the terminal report's own lines and cells, as JSON-ready data."""
    heads, rows = table_cells(report, measured)
    details = ["\n".join(kernel_detail(i, row) or [f"{i}. {row.name}: not modelled: {row.missing}"])
               for i, row in enumerate(report.kernels, 1)]
    return {"kind": "report", "heading": report_heading(report), "heads": list(heads), "rows": [list(r) for r in rows],
            "details": details, "externs": [extern_line(r).strip() for r in report.externs],
            "notes": list(report.notes),
            "measured": render_measured(measured) if measured is not None else []}


def render_report_page(report: ProgramReport, measured: MeasuredJoin | None = None) -> str:
    """The whole page."""
    return page(f"irscope report: {report.program}", report_page_data(report, measured))
