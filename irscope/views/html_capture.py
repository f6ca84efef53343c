"""One capture as a self-contained HTML page: stages with their source map, passes with diffs, layouts,
loops, resources, perf and verify, drawn from the same typed results the terminal views draw."""

from __future__ import annotations

import html
from typing import Any

from irscope.analysis.diff import TextDiff
from irscope.analysis.layouts.explain import LayoutReport
from irscope.analysis.share import SharedCapture
from irscope.analysis.sourcemap import SourceMap
from irscope.views.diff import pair_lines
from irscope.views.html_page import highlight_lines, page, rich_html

__all__ = ["MAX_DIFF_LINES", "capture_page", "capture_page_data", "diff_data"]

# A lowering pass's diff can hold ~15,000 lines; the page keeps the first this many of each and says so.
MAX_DIFF_LINES = 3000
_MAP_ROWS, _MAP_COLS = 16, 12


def source_map_data(smap: SourceMap) -> dict[str, dict[str, list[int]]]:
    """Stage -> kernel line -> the stage's line numbers it became (``irscope map``'s lines, calls included)."""
    out: dict[str, dict[str, list[int]]] = {}
    for stage in smap.stages:
        lines: dict[str, list[int]] = {}
        for m in stage.lines:
            for line in dict.fromkeys(x for x in (m.line, *m.via) if x is not None):
                lines.setdefault(str(line), []).append(m.number)
        out[stage.stage] = lines
    return out


def diff_data(diff: TextDiff, side_by_side: bool = False) -> dict[str, Any]:
    """A diff's hunks as rows: unified ``[tag, old, new, text]``, or side by side ``[[old, text, tag], [new, ...]]``."""
    hunks, shown, cut = [], 0, False
    for hunk in diff.hunks:
        if shown >= MAX_DIFF_LINES:
            cut = True
            break
        header = f"@@ -{hunk.old_start},{hunk.old_len} +{hunk.new_start},{hunk.new_len} @@"
        if side_by_side:
            rows: list[Any] = [[None if a is None else [a.old, a.text, a.tag],
                                None if b is None else [b.new, b.text, b.tag]]
                               for a, b in pair_lines(hunk)]
        else:
            rows = [[line.tag, line.old, line.new, line.text] for line in hunk.lines]
        if shown + len(rows) > MAX_DIFF_LINES:
            rows, cut = rows[:MAX_DIFF_LINES - shown], True
        shown += len(rows)
        hunks.append({"header": header, "rows": rows})
    return {"left": diff.left, "right": diff.right, "added": diff.added, "removed": diff.removed,
            "changed": diff.changed, "hunks": hunks,
            "cut": f"the first {MAX_DIFF_LINES} lines of the diff are shown (irscope diff shows all)" if cut else ""}


def _map_data(view: Any) -> dict[str, Any]:
    """A MapView (irscope.views.layout_map) as table rows: each cell its label (warp named) and its warp."""
    return {"title": view.title, "rows": list(view.row_labels), "cols": list(view.col_labels),
            "cells": [[None if c is None else [c.text, c.warp] for c in row] for row in view.cells],
            "warps": list(view.warps), "notes": list(view.notes)}


def layouts_data(report: LayoutReport) -> list[dict[str, Any]]:
    """Each layout with its explanation, uses, and its tile-to-warp maps (tensor and hardware view)."""
    from irscope.analysis.layouts.to_linear import UnsupportedLayout, to_linear_layout
    from irscope.parse.layouts import OpaqueLayout
    from irscope.views.layout_map import build_map

    out = []
    for info in report.layouts:
        entry: dict[str, Any] = {"label": info.label, "explanation": info.explanation, "uses": len(info.uses),
                                 "shapes": ["x".join(map(str, s)) for s in info.shapes], "maps": [], "why": ""}
        if isinstance(info.layout, OpaqueLayout):
            entry["why"] = info.layout.reason
        elif not info.layout.distributed:
            entry["why"] = f"a {info.layout.kind} layout (memory, not registers): no warp map"
        elif not info.shapes:
            entry["why"] = "used by no op: no shape to map"
        else:
            try:
                linear = to_linear_layout(info.layout, info.shapes[0])
                for view in ("tensor", "hardware"):
                    entry["maps"].append(_map_data(build_map(linear, info.shapes[0], view, max_rows=_MAP_ROWS,
                                                             max_cols=_MAP_COLS, label=info.label, plain=True)))
            except (UnsupportedLayout, ValueError) as exc:
                entry["why"] = str(exc)
        out.append(entry)
    return out


def _pre(text: str) -> str:
    return f"<pre>{html.escape(text)}</pre>"


def _sections(shared: SharedCapture) -> list[dict[str, str]]:
    """The report parts drawn by the terminal's own text views, as escaped HTML."""
    from irscope.views.layout_report import render_layout_report
    from irscope.views.loops_text import render_loops
    from irscope.views.perf_text import render_perf
    from irscope.views.resources_text import render_resources

    parts = []
    if shared.layouts is not None:
        parts.append({"id": "layout-report", "title": "Layout report",
                      "html": rich_html(render_layout_report(shared.layouts))})
    if shared.loops is not None:
        parts.append({"id": "loops", "title": "Loops",
                      "html": _pre(render_loops(list(shared.loops), shared.title, shared.loops_missing))})
    if shared.resources is not None:
        parts.append({"id": "resources", "title": "Resources",
                      "html": _pre(render_resources(shared.resources, shared.title))})
    if shared.perf is not None:
        parts.append({"id": "perf", "title": "Performance model",
                      "html": _pre(render_perf(shared.perf, shared.title, explain=True))})
    return parts


def _verify_data(shared: SharedCapture) -> dict[str, Any] | None:
    v = shared.verification
    if v is None:
        return None
    return {"agree": sum(1 for f in v.findings if f.status == "agree"), "disagree": len(v.disagreements),
            "unchecked": len(v.unchecked),
            "findings": [[f.status, f.topic, f.claim, f.evidence] for f in v.findings]}


def _passes_data(shared: SharedCapture) -> dict[str, Any] | None:
    from irscope.views.passes import shown_options

    table = shared.passes
    if table is None:
        return None
    rows = [{"index": r.index, "stage": r.stage, "name": r.label, "options": shown_options(r), "status": r.status,
             "added": r.added, "removed": r.removed, "summary": r.summary, "step": bool(r.step),
             "diff": r.index in shared.pass_diffs and not r.step} for r in table.rows]
    return {"rows": rows, "unchanged": table.unchanged, "problems": [str(p) for p in table.problems],
            "diffs": {str(i): diff_data(d) for i, d in shared.pass_diffs.items()}}


def capture_page_data(shared: SharedCapture) -> dict[str, Any]:
    """Everything the page's script draws, as JSON-ready data."""
    stages = [{"name": s.name, "display": s.display, **highlight_lines(s.text, s.lexer)} for s in shared.stages]
    smap = shared.source_map
    return {
        "kind": "capture", "title": shared.title, "facts": [list(f) for f in shared.facts], "stages": stages,
        "map": source_map_data(smap) if smap is not None else {},
        "map_origin": {s.stage: s.origin for s in smap.stages} if smap is not None else {},
        "map_problems": {s.stage: list(s.problems) for s in smap.stages if s.problems} if smap is not None else {},
        "passes": _passes_data(shared),
        "layouts": layouts_data(shared.layouts) if shared.layouts is not None else None,
        "sections": _sections(shared), "verify": _verify_data(shared), "missing": shared.missing,
    }


def capture_page(shared: SharedCapture) -> str:
    """The capture's page, one self-contained HTML document."""
    return page(f"irscope: {shared.title}", capture_page_data(shared))
