"""Plain-text view of a bank-conflict report: one line per shared-memory access, then its evidence."""

from __future__ import annotations

from irscope.analysis.banks.conflicts import BankReport, SharedAccess

__all__ = ["render_bank_report"]

_COUNTERS = (("ld", "shared loads"), ("st", "shared stores"), ("ldgsts", "cp.async"))


def _instructions(access: SharedAccess) -> str:
    if not access.instructions:
        return "(no LSU instruction)"
    names = ", ".join(access.instructions[:2]) + (" ..." if len(access.instructions) > 2 else "")
    if access.ptx_count:
        names += f" x{access.ptx_count}" + (f" for {access.same_position} ops" if access.same_position > 1 else "")
    if access.sass:
        names += " (SASS " + ", ".join(access.sass) + ")"
    return names


def _count(access: SharedAccess) -> str:
    if access.kind == "unknown":
        return "conflicts unknown"
    if not access.counter:
        return "not counted by ncu's shared ld/st counters"
    loop = f", per iteration of the loop at TTGIR line {access.loop_line}" if access.loop_line else ""
    return f"+{access.conflicts_per_cta} wavefronts per CTA{loop}"


def render_bank_report(report: BankReport, title: str = "") -> str:
    """The report as text: a header, a line per access (`file.py:34  ttg.local_load  8-way ...`) and its reason."""
    head = title or "Shared-memory bank conflicts"
    lines = [f"{head} ({report.target or 'unknown target'}, {report.num_warps} warps; conflicts are extra "
             f"wavefronts per CTA for one execution of each op)"]
    if not report.accesses:
        lines.append("  no shared-memory access")
    for access in report.accesses:
        where = access.where or "?"
        line = f"  {where:<24} {access.op:<32} {access.verdict:<14} {_instructions(access)}"
        lines.append(line.rstrip())
        lines.append(f"      {_count(access)}; {access.reason}")
        if access.encoding:
            layout = f" <- {access.register_layout}" if access.register_layout else ""
            lines.append(f"      shared {access.encoding}{layout}")
    totals = []
    for counter, name in _COUNTERS:
        total = report.conflicts_per_cta(counter)
        if any(a.counter == counter for a in report.accesses):
            totals.append(f"{name} {'unknown' if total is None else f'+{total}'}")
    if totals:
        lines.append("Per CTA, each op once: " + ", ".join(totals))
    lines += [f"note: {problem}" for problem in report.problems]
    return "\n".join(lines)
