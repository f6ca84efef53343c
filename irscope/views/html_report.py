"""``irscope report --html``: the report of a program capture as one self-contained page (the kernel table; a
kernel's reason, verdict and model lines when its row is clicked; the calls outside Triton)."""

from __future__ import annotations

from typing import Any

from irscope.analysis.report.results import ProgramReport
from irscope.views.html_page import page
from irscope.views.report_text import extern_line, kernel_detail, report_heading, table_cells

__all__ = ["render_report_page", "report_page_data"]


def report_page_data(report: ProgramReport) -> dict[str, Any]:
    """What the page's script draws: the terminal report's own lines and cells, as JSON-ready data."""
    heads, rows = table_cells(report)
    details = ["\n".join(kernel_detail(i, row) or [f"{i}. {row.name}: not modelled: {row.missing}"])
               for i, row in enumerate(report.kernels, 1)]
    return {"kind": "report", "heading": report_heading(report), "heads": list(heads), "rows": [list(r) for r in rows],
            "details": details, "externs": [extern_line(r).strip() for r in report.externs],
            "notes": list(report.notes)}


def render_report_page(report: ProgramReport) -> str:
    """The whole page."""
    return page(f"irscope report: {report.program}", report_page_data(report))
