"""``irscope report`` as text and as JSON: the kernel table, the top kernels' reasons and verdicts, the calls outside
Triton, and what was not modelled."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from irscope.analysis.report.results import ExternRow, KernelRow, ProgramReport
from irscope.views.words import us_text

if TYPE_CHECKING:
    from irscope.analysis.measured import MeasuredJoin

__all__ = ["TABLE_HEADS", "extern_line", "kernel_detail", "render_report", "report_heading", "report_json",
           "table_cells"]

_NAME_WIDTH = 52


def _count(value: float) -> str:
    return f"{value:.0f}" if value == int(value) else f"{value:.2f}"


def _short(name: str) -> str:
    return name if len(name) <= _NAME_WIDTH else name[:_NAME_WIDTH - 3] + "..."


def _distance(row: KernelRow) -> str:
    facts = row.chosen
    if facts is None or facts.floor_us <= 0:
        return "?"
    return f"{facts.distance:.0f}x" if facts.distance >= 10 else f"{facts.distance:.1f}x"


TABLE_HEADS = ("#", "kernel", "graph", "/step", "config", "per launch", "total", "share", "roofline", "DRAM",
               "bound", "spills", "loops")


def table_cells(report: ProgramReport, measured: MeasuredJoin | None = None
                ) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The kernel table's heads and one row of cells per kernel (the text table, the TUI's and the page's); with
    ``measured`` (``--measured``), two more columns: the measured time per launch and measured over predicted."""
    heads, rows = TABLE_HEADS, _cells(report)
    if measured is None:
        return heads, rows
    from irscope.views.measured_text import MEASURED_HEADS, measured_cells

    extra = measured_cells(measured, len(rows))
    return heads + MEASURED_HEADS, [cells + more for cells, more in zip(rows, extra, strict=True)]


def _cells(report: ProgramReport) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for i, row in enumerate(report.kernels, 1):
        facts = row.chosen
        if facts is None:
            rows.append((str(i), row.name, row.kind, _count(row.per_step), "", "not modelled", "", "", "", "", "",
                         "", ""))
            continue
        spills = f"{facts.spill_stores}/{facts.spill_loads}" if facts.spill_stores or facts.spill_loads else "-"
        rows.append((str(i), row.name, row.kind, _count(row.per_step), f"{row.config} of {row.configs}",
                     _at_least(row) + us_text(row.per_launch_us), _at_least(row) + us_text(row.total_us),
                     f"{row.share:.1%}",
                     _distance(row),
                     f"{facts.dram_pct:.1%}", facts.bound, spills, str(len(facts.loops)) if facts.loops else "-"))
    return rows


def _at_least(row: KernelRow) -> str:
    return ">=" if row.time_kind == "lower_bound" else ""


def _table(report: ProgramReport) -> list[str]:
    head = (f"{'#':>3}  {'kernel':<{_NAME_WIDTH}} {'graph':<9} {'/step':>6} {'config':>12} {'per launch':>11} "
            f"{'total':>11} {'share':>6} {'roofline':>8} {'DRAM':>6} {'bound':<8} spills loops")
    lines = [head, "-" * len(head)]
    for row, cells in zip(report.kernels, table_cells(report)[1], strict=True):
        number, name, kind, per_step = cells[:4]
        if row.chosen is None:
            lines.append(f"{number:>3}  {_short(name):<{_NAME_WIDTH}} {kind:<9} {per_step:>6} "
                         f"not modelled: {row.missing}")
            continue
        config, per_launch, total, share, distance, dram, bound, spills, loops = cells[4:]
        lines.append(f"{number:>3}  {_short(name):<{_NAME_WIDTH}} {kind:<9} {per_step:>6} {config:>12} "
                     f"{per_launch:>11} {total:>11} {share:>6} {distance:>8} {dram:>6} {bound:<8} {spills:>6} "
                     f"{loops:>5}")
    return lines


def kernel_detail(i: int, row: KernelRow) -> list[str]:
    facts = row.chosen
    if facts is None:
        return []
    settings = ", ".join(f"{k}={v}" for k, v in facts.settings.items())
    out = [f"{i}. {row.name} ({row.kind})",
           f"   {_count(row.per_step)} launches per step, {row.launches} in the run; config {row.config} of "
           f"{row.configs} ({settings}), the one the model predicts fastest; grid {'x'.join(map(str, facts.grid))} "
           f"({facts.launch_note})",
           f"   {'at least ' if row.time_kind == 'lower_bound' else ''}{us_text(row.per_launch_us)} per launch"
           + (f" (range {us_text(facts.low_us)} to {us_text(facts.high_us)})" if facts.high_us > facts.low_us else "")
           + f", {us_text(row.total_us)} in the run, {row.share:.1%} of the Triton time; roofline floor "
             f"{us_text(facts.floor_us)} ({'DRAM' if facts.dram_floor_us >= facts.compute_floor_us else 'compute'})"]
    if row.reason:
        out.append(f"   why: {row.reason}")
    if row.verdict is not None:
        out.append(f"   verdict: {row.verdict_words}: {row.verdict.evidence}")
    for loop in facts.loops:
        why = "; ".join(loop.reasons) or (f"num_stages={loop.requested} asked" if loop.requested else "no reason given")
        out.append(f"   loop at line {loop.line} not pipelined: {why}")
    if row.lines:
        out.append("   from: " + ", ".join(f"{ln.short()}" + (f" {ln.code}" if ln.code else "") for ln in row.lines[:4])
                   + (f" (+{len(row.lines) - 4} more)" if len(row.lines) > 4 else ""))
    elif row.aten:
        out.append("   from: " + ", ".join(row.aten[:6]) + (f"; no model lines: {row.provenance_missing}"
                                                          if row.provenance_missing else ""))
    elif row.provenance_missing:
        out.append(f"   from: unknown ({row.provenance_missing})")
    if facts.uncertain:
        out.append(f"   not modelled: {'; '.join(facts.uncertain[:3])}"
                   + (f" (+{len(facts.uncertain) - 3} more)" if len(facts.uncertain) > 3 else ""))
    return out


def extern_line(row: ExternRow) -> str:
    shapes = ", ".join("x".join(map(str, s)) for s in row.shapes) or "?"
    work = [f"{row.flops / 1e6:.1f} MFLOP" if row.flops else "", f"{row.nbytes / 1e3:.1f} KB" if row.nbytes else ""]
    bound = f"at least {us_text(row.bound_us)} per call at peak (a bound, not a prediction)" if row.bound_us else \
        "no bound (FLOPs and bytes unknown)"
    return (f"   {row.op} ({row.library}, {row.kind}) {_count(row.per_step)} per step, {row.calls} in the run; "
            f"{shapes} {row.dtype}; {', '.join(w for w in work if w) or 'work unknown'}; not modelled: {bound}")


def report_heading(report: ProgramReport) -> list[str]:
    """The report's first lines: the program, its kernels and steps, its predicted Triton time."""
    modelled = sum(1 for r in report.kernels if r.modelled)
    bound = sum(r.per_step * r.bound_us for r in report.externs)
    outside = (f"; {sum(r.calls for r in report.externs)} call(s) outside Triton, not modelled (at least "
               f"{us_text(bound)} per step at peak, a bound)" if report.externs else "")
    return [f"program {report.program}: {report.command}",
            f"{len(report.kernels)} Triton kernels ({modelled} modelled) for {report.target} on the {report.gpu}; "
            f"{report.steps} step(s): {report.steps_from}",
            f"predicted Triton time {us_text(report.step_us)} per step, {us_text(report.triton_us)} in the run"
            + (f" (of the {modelled} modelled kernels; the {len(report.kernels) - modelled} not modelled are not in it)"
               if modelled < len(report.kernels) else "") + outside]


def render_report(report: ProgramReport, top: int = 10) -> str:
    """The report as text."""
    out = [*report_heading(report), "", *_table(report), ""]
    shown = [(i, r) for i, r in enumerate(report.kernels, 1) if r.reason or r.verdict][:top]
    if shown:
        out.append(f"top {len(shown)} by predicted total time:")
        for i, row in shown:
            out += kernel_detail(i, row)
        out.append("")
    if report.externs:
        out.append("outside Triton (not modelled):")
        out += [extern_line(r) for r in report.externs]
        out.append("")
    for note in report.notes:
        out.append(f"note: {note}")
    if not report.what_if:
        out.append("note: no variants were compiled (--what-if 0): a verdict of 'tune it' needs one")
    return "\n".join(out).rstrip() + "\n"


def report_json(report: ProgramReport) -> dict[str, Any]:
    """The report as JSON data: every field, each kernel's distance and verdict words included."""
    data = asdict(report)
    for row, plain in zip(report.kernels, data["kernels"], strict=True):
        plain["configs"] = row.configs
        plain["config"] = row.config
        plain["modelled"] = row.modelled
        if row.chosen is not None:
            plain["chosen"]["distance"] = row.chosen.distance if row.chosen.floor_us > 0 else None
            plain["time_us"] = {"low": row.low_us, "high": None if row.time_kind == "lower_bound" else row.high_us,
                                "kind": row.time_kind}
        if row.verdict is not None:
            plain["verdict"]["words"] = row.verdict_words
    return data
