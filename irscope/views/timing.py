"""Render a compile-time breakdown: phases, stages, the MLIR-versus-assembler share, slowest passes."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from irscope.analysis.pass_numbers import UntimedPass, span
from irscope.analysis.timing import CompileTiming, PassTiming

_SLOWEST = 12


def render_timing(timing: CompileTiming, title: str, show_all: bool = False) -> Group:
    """Phases with seconds and shares, stages, the MLIR share against the assembler, and the slowest passes."""
    phases = Table(title=title, box=None, pad_edge=False, header_style="bold", title_justify="left")
    phases.add_column("phase")
    phases.add_column("seconds", justify="right")
    phases.add_column("share", justify="right")
    for p in timing.phases:
        phases.add_row(p.label, f"{p.seconds:.3f}", f"{100 * p.share:.0f}%")
    phases.add_row(Text("compile (median)", style="bold"), Text(f"{timing.total:.3f}", style="bold"), "100%")
    runs = ", ".join(f"{t:.2f}" for t in timing.totals)
    notes = Text(f"{timing.runs} compile(s): {runs} s; the first in a process pays one-time setup\n", style="dim")
    stages = Text("stages: " + ", ".join(f"{s} {sec:.3f}s" for s, sec in timing.stages) + "\n")
    mlir = timing.phase("mlir").seconds
    asm = timing.phase("assembler").seconds
    claim = Text()
    claim.append(f"MLIR pipeline {mlir:.3f}s vs {timing.assembler} {asm:.3f}s: ", style="bold")
    claim.append(f"MLIR takes {100 * timing.mlir_vs_assembler:.0f}% of the two "
                 f"({100 * timing.phase('mlir').share:.0f}% of the whole compile, "
                 f"{timing.assembler} {100 * timing.phase('assembler').share:.0f}%)\n")
    split = Text("MLIR by stage: " + ", ".join(f"{s} {sec:.3f}s" for s, sec in timing.mlir_stages) + "\n", style="dim")
    passes = Table(title="MLIR passes" + ("" if show_all else f" (slowest {_SLOWEST}; --all lists every one)"),
                   caption="# = the pass's number in `irscope passes` and `diff --pass N`", box=None,
                   pad_edge=False, header_style="bold", title_justify="left", caption_justify="left")
    passes.add_column("#", justify="right")
    passes.add_column("stage")
    passes.add_column("pass")
    passes.add_column("ms", justify="right")
    rows = list(timing.passes) if show_all else sorted(timing.passes, key=lambda p: -p.seconds)[:_SLOWEST]
    for row in _in_pass_order(rows, timing) if show_all else rows:
        if isinstance(row, PassTiming):
            name = Text(("  " * row.depth) + row.name)
            if len(row.runs) > 1:
                name.append(f" ({len(row.runs)} runs, one timer)", style="dim")
            if row.number is None:
                name.append(" (not in the pass dump: no number)", style="dim italic")
            passes.add_row(span(row.runs), row.stage, name, f"{1000 * row.seconds:.1f}")
        else:
            passes.add_row(str(row.number), row.stage,
                           Text(row.name).append(" (no row in MLIR's timing report)", style="dim italic"), "-")
    return Group(phases, notes, stages, claim, split, passes)


def _in_pass_order(rows: list[PassTiming], timing: CompileTiming) -> list[PassTiming | UntimedPass]:
    """Timed and untimed passes by their dump number; a row the dump lacks stays after the row before it."""
    keyed: list[tuple[tuple[float, int], PassTiming | UntimedPass]] = []
    last = -1.0
    for order, row in enumerate(rows):
        last = float(row.number) if row.number is not None else last
        keyed.append(((last if row.number is None else float(row.number), order + 1 if row.number is None else 0),
                      row))
    keyed.extend(((float(u.number), 0), u) for u in timing.untimed)
    return [row for _, row in sorted(keyed, key=lambda pair: pair[0])]
