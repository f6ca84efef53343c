"""Control flow the launch decides: ``scf.if`` regions that cannot run for its integer arguments, conditional stores.

An ``scf.if`` on a scalar ``arith.cmpi`` of values known at launch (``k_tiles == 0`` in the persistent matmul) runs
one of its regions only; loops in the other do no work. A ``tt.store`` under an ``scf.if`` inside a loop (the
epilogue ``flatten=True`` moves into the flattened loop) runs on some iterations only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from irscope.analysis.perf.facts import Unknown
from irscope.analysis.values import PREDICATES

__all__ = ["Region", "assumed_branches", "conditional_store_loops", "dead_regions", "unmodelled", "unmodelled_facts"]

# Example: %accumulator = arith.cmpi eq, %k_tiles_7, %c0_i32 : i32 loc(#loc94)
_CMPI = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.cmpi\s+(?P<pred>\w+),\s*(?P<a>%[\w$.-]+),\s*(?P<b>%[\w$.-]+)"
                   r"\s*:\s*(?:i\d+|index)\b")
# Example: scf.if %accumulator {   /   %tile_id_c_140 = scf.if %tile_id_c_138 -> (i32) {
_IF = re.compile(r"scf\.if\s+(?P<cond>%[\w$.-]+)")


@dataclass(frozen=True)
class Region:
    """TTGIR lines ``start``..``end`` that do not run for this launch, and why in words."""

    start: int
    end: int
    why: str


def _conditions(lines: list[str], scalars: dict[str, int]) -> dict[str, bool]:
    found: dict[str, bool] = {}
    for line in lines:
        if (m := _CMPI.match(line)) and m["a"] in scalars and m["b"] in scalars and m["pred"] in PREDICATES:
            found[m["res"]] = bool(PREDICATES[m["pred"]](scalars[m["a"]], scalars[m["b"]]))
    return found


def _ifs(lines: list[str]) -> list[tuple[int, str, int, int | None]]:
    """Every ``scf.if``: (its line, its condition, its last line, the ``} else {`` line or None), 1-based."""
    found = []
    for i, line in enumerate(lines):
        match = _IF.search(line)
        if match is None or not line.rstrip().endswith("{"):
            continue
        depth, split, end = 0, None, None
        for j in range(i, len(lines)):
            text = re.sub(r"\{[^{}]*\}", "", lines[j]) if j != i else lines[j].split("scf.if", 1)[1]
            if j > i and text.strip().startswith("} else {") and depth == 1:
                split = j + 1
                continue
            depth += text.count("{") - text.count("}")
            if depth <= 0:
                end = j + 1
                break
        if end is not None:
            found.append((i + 1, match["cond"], end, split))
    return found


def dead_regions(ttgir: str, scalars: dict[str, int]) -> list[Region]:
    """The ``scf.if`` regions whose scalar condition, evaluated with the launch's values, says they do not run."""
    lines = ttgir.splitlines()
    known = _conditions(lines, scalars)
    dead = []
    for line, cond, end, split in _ifs(lines):
        if cond not in known:
            continue
        if not known[cond]:
            dead.append(Region(line, (split or end) - 1 if split else end,
                               f"the scf.if at TTGIR line {line} is false for this launch"))
        elif split:
            dead.append(Region(split, end, f"the else of the scf.if at TTGIR line {line} does not run for this launch"))
    return dead


# Example: cf.cond_br %1, ^bb1, ^bb2 loc(#loc8)
_COND_BR = re.compile(r"cf\.cond_br\s+(?P<cond>%[\w$.-]+),\s*\^(?P<a>\w+)[^,]*,\s*\^(?P<b>\w+)")
# Example:   ^bb1:  // pred: ^bb0
_BLOCK = re.compile(r"^(?P<indent>\s*)\^(?P<name>\w+)(?:\([^)]*\))?:")


def _blocks(lines: list[str], indent: int) -> dict[str, tuple[int, int]]:
    """The function-level blocks (at this indentation) by name -> their first and last line, 1-based."""
    spans: dict[str, tuple[int, int]] = {}
    current: tuple[str, int] | None = None
    for i, line in enumerate(lines, 1):
        match = _BLOCK.match(line)
        closing = line.startswith(" " * (indent - 2) + "}") and not line.startswith(" " * indent)
        if (match and len(match["indent"]) == indent) or closing:
            if current is not None:
                spans[current[0]] = (current[1], i - 1)
            current = (match["name"], i) if match and not closing else None
    return spans


def assumed_branches(ttgir: str, scalars: dict[str, int], decided: tuple[int, ...] = ()) -> list[Region]:
    """Branches on values known only at run time (a loaded label): the shorter path is assumed not taken.

    ``decided``: the lines of branches the program id and the launch decide (``irscope.analysis.perf.exits``).

    Triton emits ``cf.cond_br`` for an early ``return`` (Liger's cross entropy skips an ignored row): the path
    with the kernel's main work is the common one; the report says what the other would cost.
    """
    lines = ttgir.splitlines()
    found = []
    for number, line in enumerate(lines, 1):
        match = _COND_BR.search(line)
        if match is None or match["cond"] in scalars or number in decided:
            continue
        indent = next((len(m["indent"]) for text in lines[number:] if (m := _BLOCK.match(text))), 0)
        blocks = _blocks(lines, indent)
        a, b = blocks.get(match["a"]), blocks.get(match["b"])
        if a is None or b is None:
            continue
        short = min((a, b), key=lambda span: span[1] - span[0])
        found.append(Region(short[0], short[1], f"the branch at TTGIR line {number} depends on values known only "
                                                f"when it runs: its shorter path (lines {short[0]}-{short[1]}) is "
                                                "assumed not taken"))
    return found


def conditional_store_loops(ttgir: str, loops: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The loop spans (innermost) holding a ``tt.store`` under an ``scf.if`` inside them: it runs on some trips only."""
    lines = ttgir.splitlines()
    ifs = _ifs(lines)
    found = []
    for number, line in enumerate(lines, 1):
        if "tt.store" not in line:
            continue
        holding = [span for span in loops if span[0] < number <= span[1]]
        if not holding:
            continue
        inner = max(holding, key=lambda span: span[0])
        if any(inner[0] < start < number <= end for start, _c, end, _s in ifs) and inner not in found:
            found.append(inner)
    return found


def unmodelled(ttgir: str, decided: tuple[int, ...] = ()) -> list[str]:
    """``unmodelled_facts``' sentences."""
    return [u.what for u in unmodelled_facts(ttgir, decided)]


def unmodelled_facts(ttgir: str, decided: tuple[int, ...] = ()) -> list[Unknown]:
    """What the model cannot weigh in this module: atomics (contention, spin locks: the time is a lower bound) and
    branches on loaded values (which way each program goes; not the ``decided`` lines, which the program id
    decides)."""
    found: list[Unknown] = []
    for number, line in enumerate(ttgir.splitlines(), 1):
        if ("tt.atomic_cas" in line or "tt.atomic_rmw" in line) and not any(u.kind == "contention" for u in found):
            op = "tt.atomic_cas" if "tt.atomic_cas" in line else "tt.atomic_rmw"
            found.append(Unknown("contention", number, "", True,
                         f"the {op} at TTGIR line {number}: a lock spun on is not modelled, and atomics on one "
                         "address only as many as spreading them evenly over their tensor puts there (indices that "
                         "repeat put more), so the time is a lower bound" if op == "tt.atomic_rmw" else
                         f"the {op} at TTGIR line {number}: contention between CTAs (a lock spun on, atomics on "
                         "one address) is not modelled, so the time is a lower bound"))
        if "cf.cond_br" in line and number not in decided and not any(u.kind == "branch" for u in found):
            found.append(Unknown("branch", number, "", False,
                         f"the branch at TTGIR line {number} depends on values known only when it runs (which way "
                         "each program goes): its shorter path is assumed not taken, its machine code outside "
                         "loops is still counted"))
    return found
