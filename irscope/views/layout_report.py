"""Render a LayoutReport: readable text for the terminal, plain data for `--json`."""

from __future__ import annotations

import textwrap
from collections import Counter
from dataclasses import fields, is_dataclass
from typing import Any

from rich.text import Text

from irscope.analysis.layouts.conversions import Provenance
from irscope.analysis.layouts.explain import LayoutInfo, LayoutReport, RegisterUse
from irscope.parse.layouts import Layout

__all__ = ["layout_report_data", "render_layout_report"]


def _uses_line(info: LayoutInfo) -> str:
    ops = Counter(u.op for u in info.uses)
    listed = ", ".join(f"{op} x{n}" if n > 1 else op for op, n in ops.most_common(6))
    more = f", +{len(ops) - 6} more" if len(ops) > 6 else ""
    shapes = ", ".join("x".join(str(s) for s in shape) for shape in info.shapes[:4])
    return f"used {len(info.uses)} times ({listed}{more}); shapes {shapes}"


def _first_lines(info: LayoutInfo) -> str:
    lines = sorted({u.line for u in info.uses})[:6]
    locs = []
    for use in info.uses:
        if use.loc and str(use.loc) not in locs:
            locs.append(str(use.loc))
    text = "ttgir lines " + ", ".join(str(n) for n in lines) + (" ..." if len(info.uses) > len(lines) else "")
    if locs:
        text += "; source " + ", ".join(loc.rsplit("/", 1)[-1] for loc in locs[:3])
    return text


def _registers_lines(info: LayoutInfo) -> list[str]:
    """One line per shape: elements per thread, and the 32-bit registers each element type takes."""
    by_shape: dict[tuple[int, ...], list[RegisterUse]] = {}
    for reg in info.registers:
        by_shape.setdefault(reg.shape, []).append(reg)
    lines = []
    for shape, regs in by_shape.items():
        first = regs[0]
        dup = f" ({first.unique_per_thread} distinct)" if first.unique_per_thread != first.elements_per_thread else ""
        costs = ", ".join(f"{r.element} {r.registers}" for r in regs)
        lines.append(
            f"{'x'.join(str(s) for s in shape)}: {first.elements_per_thread} elements per thread{dup}; "
            f"32-bit registers: {costs}"
        )
    return lines


def render_layout_report(report: LayoutReport, width: int = 100) -> Text:
    """The report as the terminal shows it: one block per layout, then conversions and problems."""
    out = Text()

    def para(text: str, style: str = "", indent: str = "  ") -> None:
        # Break at spaces only: a path (often with hyphens) stays whole, even past the width.
        wrapped = textwrap.fill(text, width=width, initial_indent=indent, subsequent_indent=indent + "  ",
                                break_on_hyphens=False, break_long_words=False)
        out.append(wrapped + "\n", style=style)

    m = report.module
    header = ", ".join(
        part for part in (
            m.target and f"target {m.target}",
            m.num_warps is not None and f"{m.num_warps} warps",
            m.threads_per_warp is not None and f"{m.threads_per_warp} threads per warp",
            m.num_ctas not in (None, 1) and f"{m.num_ctas} CTAs",
        ) if part
    )
    if header:
        out.append(header + "\n\n", style="bold")
    for info in report.layouts:
        out.append(info.label, style="bold cyan")
        out.append(f"  [{info.layout.kind}]\n", style="dim")
        para(info.explanation.removeprefix(f"{info.label}: "))
        if info.uses:
            para(_uses_line(info), "dim")
            para(_first_lines(info), "dim")
        else:
            para("not used by any op", "dim")
        for line in _registers_lines(info):
            para(line, "green")
        out.append("\n")
    origin = report.provenance
    if origin is not None:
        for line in _provenance_lines(origin):
            para(line, "bold", indent="")
        out.append("\n")
    if report.conversions:
        out.append(f"convert_layout ops: {len(report.conversions)}\n", style="bold")
        for i, conv in enumerate(report.conversions):
            shape = "x".join(str(s) for s in conv.shape)
            where = f" ({conv.loc})" if conv.loc else ""
            # One line, never wrapped: where it came from is a path to copy, however long the checkout's path.
            out.append(f"  line {conv.line}: {conv.result} {shape}x{conv.element}  {conv.source} -> "
                       f"{conv.dest}{where}\n")
            if origin is not None and i < len(origin.authored):
                para(_conversion_origin(origin, i), "dim", indent="    ")
            if conv.cost is not None:
                para(f"cost: {conv.cost.sentence()}", "yellow" if conv.cost.mechanism == "shared memory" else "",
                     indent="    ")
    else:
        out.append("no convert_layout ops\n", style="bold")
    for problem in report.problems:
        para(f"problem: {problem}", "yellow", indent="")
    return out


def _provenance_lines(origin: Provenance) -> list[str]:
    """Which layouts the first IR already had and which the compiler chose, and how many conversions it inserted."""
    inserted = sum(not a for a in origin.authored)
    if origin.stage == "ttir":
        return [f"layouts: all {len(origin.chosen)} chosen by the compiler (a Triton kernel's TTIR has none); "
                f"conversions it inserted: {inserted}"]
    lines = [f"layouts the author wrote (in the Gluon IR before any pass): {', '.join(origin.written) or 'none'}",
             f"layouts the compiler chose: {', '.join(origin.chosen) or 'none'}"]
    lines.append(f"conversions: {len(origin.authored) - inserted} written by the author (gl.convert_layout), "
                 f"{inserted} inserted by the compiler")
    return lines


def _conversion_origin(origin: Provenance, index: int) -> str:
    if origin.authored[index]:
        return "written by the author: a gl.convert_layout at this source line in the Gluon IR"
    return "inserted by the compiler: the first IR has no such conversion" + (
        " (a Triton kernel's TTIR has no layouts)" if origin.stage == "ttir" else "")


def _plain(value: Any) -> Any:
    """Dataclasses, tuples and dicts as JSON-ready values."""
    if isinstance(value, Layout):
        data = {"kind": value.kind, "label": value.label}
        data.update({f.name: _plain(getattr(value, f.name)) for f in fields(value) if f.name not in ("name", "text")})
        data["text"] = value.text
        return data
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)


def layout_report_data(report: LayoutReport) -> dict[str, Any]:
    """The report as plain data for `--json`; source locations become `file:line:col` strings."""
    return {
        "module": _plain(report.module),
        "layouts": [
            {
                "label": info.label,
                "kind": info.layout.kind,
                "explanation": info.explanation,
                "layout": _plain(info.layout),
                "shapes": [list(s) for s in info.shapes],
                "registers": _plain(info.registers),
                "uses": [
                    {"op": u.op, "results": list(u.results), "role": u.role, "type": u.type.text, "line": u.line,
                     "loc": str(u.loc) if u.loc else None}
                    for u in info.uses
                ],
            }
            for info in report.layouts
        ],
        "accesses": [
            {**_plain(a), "loc": str(a.loc) if a.loc else None, "machine_bytes": a.machine_bytes, "agrees": a.agrees}
            for a in report.accesses
        ],
        "conversions": [
            {"result": c.result, "source": c.source, "dest": c.dest, "shape": list(c.shape), "element": c.element,
             "line": c.line, "loc": str(c.loc) if c.loc else None, "cost": _plain(c.cost),
             "authored": report.provenance.authored[i] if report.provenance is not None else None}
            for i, c in enumerate(report.conversions)
        ],
        "provenance": _plain(report.provenance),
        "problems": list(report.problems),
    }
