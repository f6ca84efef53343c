"""Fact comparisons and snapshots as text: what changed first, one line per fact."""

from __future__ import annotations

from collections.abc import Sequence

from irscope.analysis.facts import Delta, Facts, show_value


def _list_change(before: object, after: object) -> str | None:
    """``+ x; - y`` for list facts (layouts), or None when either side is not a list."""
    if not isinstance(before, list) or not isinstance(after, list):
        return None
    added = [x for x in after if x not in before]
    removed = [x for x in before if x not in after]
    return "; ".join([f"+ {x}" for x in added] + [f"- {x}" for x in removed])


def render_deltas(deltas: Sequence[Delta], left: str = "A", right: str = "B") -> list[str]:
    """One line per changed fact (list facts: one line per added or removed item)."""
    if not deltas:
        return []
    width = max(len(d.name) for d in deltas)
    lines = [f"  {'fact':<{width}}  {left} -> {right}"]
    for d in deltas:
        note = "  (within tolerance)" if d.allowed else ""
        listed = _list_change(d.before, d.after)
        if listed is not None:
            items = listed.split("; ")
            lines.append(f"  {d.name:<{width}}  {items[0]}{note}")
            lines += [f"  {'':<{width}}  {item}" for item in items[1:]]
            continue
        lines.append(f"  {d.name:<{width}}  {show_value(d.before)} -> {show_value(d.after)}{note}")
    return lines


def render_comparison(a: Facts, b: Facts, deltas: Sequence[Delta], show_all: bool = False,
                      first: Sequence[str] = ()) -> str:
    """The ``compare`` report: both sides, ``first`` (the first divergence's lines), then the facts that changed
    (and with --all the rest)."""
    lines = [f"A: {a.label}  ({a.key})", f"B: {b.label}  ({b.key})", ""]
    if first:
        lines += [*first, ""]
    changed = {d.name for d in deltas}
    if deltas:
        lines.append(f"{len(deltas)} facts differ:")
        lines += render_deltas(deltas)
    else:
        lines.append("no fact differs")
    equal = [n for n in a.values if n not in changed and n in b.values]
    if show_all and equal:
        width = max(len(n) for n in equal)
        lines += ["", f"{len(equal)} facts are equal:"]
        lines += [f"  {n:<{width}}  {show_value(a.values[n])}" for n in equal]
    elif equal:
        lines += ["", f"{len(equal)} other facts are equal (--all lists them)"]
    for side, facts in (("A", a), ("B", b)):
        for why in facts.unread:
            lines.append(f"note: {side}: not read: {why}")
    return "\n".join(lines)
