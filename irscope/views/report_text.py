"""``irscope report`` as text and as JSON: the kernel table, the top kernels' reasons and verdicts, the calls outside
Triton, and what was not modelled."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from irscope.analysis.report.results import ExternRow, KernelRow, ProgramReport

__all__ = ["render_report", "report_json"]

_NAME_WIDTH = 52


def _us(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:.2f} s"
    if value >= 1e3:
        return f"{value / 1e3:.2f} ms"
    if 0 < value < 0.01:
        return f"{value * 1e3:.1f} ns"
    return f"{value:.2f} us"


def _count(value: float) -> str:
    return f"{value:.0f}" if value == int(value) else f"{value:.2f}"


def _short(name: str) -> str:
    return name if len(name) <= _NAME_WIDTH else name[:_NAME_WIDTH - 3] + "..."


def _distance(row: KernelRow) -> str:
    facts = row.chosen
    if facts is None or facts.floor_us <= 0:
        return "?"
    return f"{facts.distance:.0f}x" if facts.distance >= 10 else f"{facts.distance:.1f}x"


def _table(report: ProgramReport) -> list[str]:
    head = (f"{'#':>3}  {'kernel':<{_NAME_WIDTH}} {'graph':<9} {'/step':>6} {'config':>12} {'per launch':>11} "
            f"{'total':>11} {'share':>6} {'roofline':>8} {'DRAM':>6} {'bound':<8} spills loops")
    lines = [head, "-" * len(head)]
    for i, row in enumerate(report.kernels, 1):
        facts = row.chosen
        if facts is None:
            lines.append(f"{i:>3}  {_short(row.name):<{_NAME_WIDTH}} {row.kind:<9} {_count(row.per_step):>6} "
                         f"not modelled: {row.missing}")
            continue
        config = f"{row.config + 1} of {row.configs}"
        spills = f"{facts.spill_stores}/{facts.spill_loads}" if facts.spill_stores or facts.spill_loads else "-"
        loops = str(len(facts.loops)) if facts.loops else "-"
        lines.append(f"{i:>3}  {_short(row.name):<{_NAME_WIDTH}} {row.kind:<9} {_count(row.per_step):>6} "
                     f"{config:>12} {_us(row.per_launch_us):>11} {_us(row.total_us):>11} {row.share:>6.1%} "
                     f"{_distance(row):>8} {facts.dram_pct:>6.1%} {facts.bound:<8} {spills:>6} {loops:>5}")
    return lines


def _detail(i: int, row: KernelRow) -> list[str]:
    facts = row.chosen
    if facts is None:
        return []
    settings = ", ".join(f"{k}={v}" for k, v in facts.settings.items())
    out = [f"{i}. {row.name} ({row.kind})",
           f"   {_count(row.per_step)} launches per step, {row.launches} in the run; config {row.config + 1} of "
           f"{row.configs} ({settings}), the one the model predicts fastest; grid {'x'.join(map(str, facts.grid))} "
           f"({facts.launch_note})",
           f"   {_us(row.per_launch_us)} per launch"
           + (f" (range {_us(facts.low_us)} to {_us(facts.high_us)})" if facts.high_us > facts.low_us else "")
           + f", {_us(row.total_us)} in the run, {row.share:.1%} of the Triton time; roofline floor "
             f"{_us(facts.floor_us)} ({'DRAM' if facts.dram_floor_us >= facts.compute_floor_us else 'compute'})"]
    if row.reason:
        out.append(f"   why: {row.reason}")
    if row.verdict is not None:
        out.append(f"   verdict: {row.verdict.words}: {row.verdict.evidence}")
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


def _extern_line(row: ExternRow) -> str:
    shapes = ", ".join("x".join(map(str, s)) for s in row.shapes) or "?"
    work = [f"{row.flops / 1e6:.1f} MFLOP" if row.flops else "", f"{row.nbytes / 1e3:.1f} KB" if row.nbytes else ""]
    bound = f"at least {_us(row.bound_us)} per call at peak (a bound, not a prediction)" if row.bound_us else \
        "no bound (FLOPs and bytes unknown)"
    return (f"   {row.op} ({row.library}, {row.kind}) {_count(row.per_step)} per step, {row.calls} in the run; "
            f"{shapes} {row.dtype}; {', '.join(w for w in work if w) or 'work unknown'}; not modelled: {bound}")


def render_report(report: ProgramReport, top: int = 10) -> str:
    """The report as text."""
    modelled = sum(1 for r in report.kernels if r.modelled)
    out = [f"program {report.program}: {report.command}",
           f"{len(report.kernels)} Triton kernels ({modelled} modelled) for {report.target} on the {report.gpu}; "
           f"{report.steps} step(s): {report.steps_from}",
           f"predicted Triton time {_us(report.step_us)} per step, {_us(report.triton_us)} in the run"
           + (f"; {len(report.externs)} call(s) outside Triton not modelled" if report.externs else ""),
           "", *_table(report), ""]
    shown = [(i, r) for i, r in enumerate(report.kernels, 1) if r.reason or r.verdict][:top]
    if shown:
        out.append(f"top {len(shown)} by predicted total time:")
        for i, row in shown:
            out += _detail(i, row)
        out.append("")
    if report.externs:
        out.append("outside Triton (not modelled):")
        out += [_extern_line(r) for r in report.externs]
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
        if row.verdict is not None:
            plain["verdict"]["words"] = row.verdict.words
    return data
