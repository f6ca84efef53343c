"""A capture's layout report as ``irscope layouts`` gives it: checked against machine code, traced to the first IR."""

from __future__ import annotations

from irscope.analysis.layouts.explain import LayoutReport
from irscope.store.store import Capture

__all__ = ["capture_layout_report", "layout_report_with_machine_code"]


def layout_report_with_machine_code(text: str, capture: Capture) -> LayoutReport:
    """The report of a capture's TTGIR (``text``), each global access checked against the PTX / AMDGCN widths,
    each conversion against the PTX, and each layout and conversion traced to the first IR (the author's, for
    Gluon)."""
    from irscope.analysis.layouts.access_widths import access_widths
    from irscope.analysis.layouts.explain import analyze_layouts
    from irscope.analysis.layouts.provenance import with_provenance
    from irscope.errors import StoreError
    from irscope.parse.lineinfo import parse_ptx

    try:
        listing = parse_ptx(capture.read("ptx")) if capture.manifest.backend == "cuda" else None
        accesses = access_widths(capture, listing)
    except StoreError:
        listing, accesses = None, []
    report = analyze_layouts(text, accesses=accesses, listing=listing)
    for stage in ("glir", "ttir"):  # a Gluon kernel's first IR, else a Triton kernel's
        if stage in capture.manifest.files:
            try:
                return with_provenance(report, text, capture.read(stage), stage)
            except StoreError:
                break
    return report


def capture_layout_report(capture: Capture) -> LayoutReport:
    """The layout report of the capture's own TTGIR."""
    return layout_report_with_machine_code(capture.read("ttgir"), capture)
