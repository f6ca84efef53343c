"""The first divergence of a comparison as text (one screen) and as JSON (``first_divergence``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from irscope.analysis.divergence import Divergence, LineDelta
from irscope.analysis.facts import Delta, show_value
from irscope.analysis.target_lines import TargetComparison

_MOVED_SHOWN = 8


def _where(div: Divergence) -> str:
    """``pass 34 tritongpu-assign-latencies (ttgir; B: pass 33)`` / ``stage llir`` / ``nowhere``."""
    if div.level == "pass":
        sides = []
        if div.index_a is not None:
            sides.append(f"A: pass {div.index_a}")
        if div.index_b is not None:
            sides.append(f"B: pass {div.index_b}")
        llvm = " of the --llvm dump" if div.dump == "llvm" else ""  # LLVM's own pass, numbered as passes --llvm does
        return f"pass {div.pass_name} ({div.stage or 'stage ?'}; {', '.join(sides)}{llvm})"
    if div.level == "stage":
        return f"stage {div.stage}"
    if div.level == "unknown":
        return "not found"
    return "nowhere: the two compile to the same code"


def _line(d: LineDelta) -> str:
    where = f"line {d.line}" if d.line is not None else "no kernel line"
    source = f" ({d.source[:56]})" if d.source else ""
    return f"    {d.stage:<6} {where}{source}: {', '.join(d.changes)}"


def _moved(d: Delta) -> str:
    """``registers 208 -> 160``; a list fact by its counts (``layouts +7 -5``)."""
    if isinstance(d.before, list) and isinstance(d.after, list):
        added = sum(1 for x in d.after if x not in d.before)
        removed = sum(1 for x in d.before if x not in d.after)
        if added + removed > 2:
            return f"{d.name} +{added} -{removed}"
    return f"{d.name} {show_value(d.before)} -> {show_value(d.after)}"


def render_divergence(div: Divergence, moved: Sequence[Delta], see: Sequence[str]) -> list[str]:
    """The divergence block of ``compare``: where, what differs there, per kernel line, what moved, how to look."""
    lines = [f"First divergence: {_where(div)}", f"  {div.note}"]
    if div.effect:
        lines.append("  there, B against A:")
        lines += [f"    {e}" for e in div.effect]
    if div.lines:
        lines.append("  per kernel line (instructions by class, A -> B):")
        lines += [_line(d) for d in div.lines]
    if moved:
        shown = ", ".join(_moved(d) for d in moved[:_MOVED_SHOWN])
        more = f" and {len(moved) - _MOVED_SHOWN} more" if len(moved) > _MOVED_SHOWN else ""
        lines.append(f"  moved: {shown}{more}")
    for command in see:
        lines.append(f"  see: {command}")
    return lines


def divergence_json(div: Divergence, moved: Sequence[Delta], see: Sequence[str]) -> dict[str, Any]:
    """The ``first_divergence`` object of ``compare --json``."""
    return {"level": div.level, "stage": div.stage, "pass": div.pass_name, "index_a": div.index_a,
            "index_b": div.index_b, "dump": div.dump, "effect": list(div.effect),
            "moved": [{"fact": d.name, "a": d.before, "b": d.after} for d in moved],
            "see": " ; ".join(see), "see_commands": list(see), "note": div.note, "compared_passes": div.compared,
            "lines": [{"stage": d.stage, "line": d.line, "source": d.source, "changes": list(d.changes)}
                      for d in div.lines]}


def render_targets(found: TargetComparison, a: str, b: str, limit: int = 10) -> list[str]:
    """The per-line comparison of two targets: whole-kernel differences, then the costliest lines."""
    lines = [f"Across targets, A ({a}) -> B ({b}):"]
    lines += [f"  {w}" for w in found.whole]
    lines.append(f"  per kernel line, {found.ranked}:")
    for t in found.lines[:limit]:
        where = f"line {t.line}" if t.line is not None else "no kernel line"
        source = f" ({t.source[:56]})" if t.source else ""
        lines.append(f"    {where}{source}: {'; '.join(t.differs)}")
    if len(found.lines) > limit:
        lines.append(f"    and {len(found.lines) - limit} more lines (--json lists them)")
    return lines


def targets_json(found: TargetComparison) -> dict[str, Any]:
    """The ``targets`` object of ``compare --json`` across targets."""
    def side(p: Any) -> dict[str, Any] | None:
        return None if p is None else {"instructions": p.instructions, "dynamic": p.dynamic,
                                       "mma": dict(p.mma), "buffer_ops": p.buffer_ops, "widths": list(p.widths)}

    return {"whole": list(found.whole), "ranked": found.ranked,
            "lines": [{"line": t.line, "source": t.source, "differs": list(t.differs), "cost": t.cost,
                       "a": side(t.a), "b": side(t.b)} for t in found.lines]}
