"""Early returns the program id decides: ``if i_i <= i_j: return`` at a kernel's top leaves some programs idle.

Triton lowers an early ``return`` to a ``cf.cond_br`` into a block holding only ``tt.return``. When the branch's
condition is an ``arith.cmpi`` of scalars computed from the program id, the grid and the launch's integer arguments,
it is evaluated for every program (an even sample of large grids): the share of programs that get past every such
branch is the share of the grid that does the kernel's work; the others leave at once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from irscope.analysis.perf.work import program_sample
from irscope.analysis.values import PREDICATES, parse_scalar_program, run_program

__all__ = ["Exits", "early_exits"]

# Example: %16 = arith.cmpi sle, %8, %9 : i64 loc(#loc18)
_CMPI = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.cmpi\s+(?P<pred>\w+),\s*(?P<a>%[\w$.-]+),\s*(?P<b>%[\w$.-]+)"
                   r"\s*:\s*(?:i\d+|index)\s")
# Example: %17 = arith.ori %15, %16 : i1 loc(#loc18)
_LOGIC = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.(?P<op>andi|ori|xori)\s+(?P<a>%[\w$.-]+),\s*(?P<b>%[\w$.-]+)"
                    r"\s*:\s*i1\s")
# Example: cf.cond_br %15, ^bb1, ^bb2 loc(#loc16)   /   cf.br ^bb3
_COND_BR = re.compile(r"^\s*cf\.cond_br\s+(?P<cond>%[\w$.-]+),\s*\^(?P<a>\w+)[^,]*,\s*\^(?P<b>\w+)")
_BR = re.compile(r"^\s*cf\.br\s+\^(?P<a>\w+)")
# Example:   ^bb1:  // 2 preds: ^bb0, ^bb2
_BLOCK = re.compile(r"^(?P<indent>\s*)\^(?P<name>\w+)(?:\([^)]*\))?:")
_LOGIC_OPS = {"andi": lambda a, b: a and b, "ori": lambda a, b: a or b, "xori": lambda a, b: a != b}


@dataclass(frozen=True)
class Exits:
    """The early returns the launch decides per program.

    Attributes:
        share: the share of the grid's programs that run past every such return (1.0: all of them).
        branches: the TTGIR lines of the ``cf.cond_br`` the program id and the launch decide.
        why: what the model took from them, in words ("" when the kernel has none).
    """

    share: float = 1.0
    branches: tuple[int, ...] = ()
    why: str = ""


def _blocks(lines: list[str]) -> tuple[dict[str, list[int]], list[int]]:
    """The function-level blocks by name -> their line indices (0-based), and the entry block's."""
    blocks: dict[str, list[int]] = {}
    entry: list[int] = []
    indent: int | None = None  # the function's: its blocks' labels and its closing brace sit there
    current = entry
    for i, line in enumerate(lines):
        if indent is None:
            if "tt.func" in line and line.rstrip().endswith("{"):
                indent = len(line) - len(line.lstrip())
            continue
        match = _BLOCK.match(line)
        if match and len(match["indent"]) == indent:  # not a region's block (a reduction's combine)
            current = blocks.setdefault(match["name"], [])
            continue
        if line.strip() == "}" and len(line) - len(line.lstrip()) == indent:
            break
        current.append(i)
    return blocks, entry


def _terminator(lines: list[str], body: list[int]) -> tuple[int, re.Match[str] | None, re.Match[str] | None]:
    """The block's last branch: its line index, and the conditional or unconditional branch it is."""
    for i in reversed(body):
        if (cond := _COND_BR.match(lines[i])) or (plain := _BR.match(lines[i])):
            return i, cond, None if cond else plain
    return -1, None, None


def _returns_only(lines: list[str], body: list[int]) -> bool:
    ops = [lines[i].strip() for i in body if lines[i].strip()]
    return len(ops) == 1 and ops[0].startswith("tt.return")


def _conditions(lines: list[str], last: int, scalars: dict[str, int]) -> dict[str, bool]:
    """The i1 scalars (comparisons of known integers, and/or of those) up to line index ``last``."""
    known: dict[str, bool] = {}
    for line in lines[:last + 1]:
        if (m := _CMPI.match(line)) and m["a"] in scalars and m["b"] in scalars and m["pred"] in PREDICATES:
            known[m["res"]] = bool(PREDICATES[m["pred"]](scalars[m["a"]], scalars[m["b"]]))
        elif (m := _LOGIC.match(line)) and m["a"] in known and m["b"] in known:
            known[m["res"]] = bool(_LOGIC_OPS[m["op"]](known[m["a"]], known[m["b"]]))
    return known


def _walk(lines: list[str], blocks: dict[str, list[int]], entry: list[int], known: dict[str, bool],
          decided: set[int]) -> bool | None:
    """Whether the program gets past every early return (None: a branch it meets is not decided by the launch)."""
    body = entry
    for _step in range(len(blocks) + 1):
        at, cond, plain = _terminator(lines, body)
        if plain is not None:
            body = blocks.get(plain["a"], [])
            continue
        if cond is None:
            return True
        if cond["cond"] not in known:
            return None
        decided.add(at + 1)
        target = blocks.get(cond["a"] if known[cond["cond"]] else cond["b"], [])
        if _returns_only(lines, target):
            return False
        body = target
    return None


def early_exits(ttgir: str, values: dict[str, int], grid: tuple[int, int, int],
                data: Mapping[str, Sequence[int]] | None = None) -> Exits:
    """The share of programs that run past the early returns their program id (and the scalars it loads from recorded
    tensor contents, ``data``) decides, for this launch."""
    lines = ttgir.splitlines()
    branches = [i for i, line in enumerate(lines) if _COND_BR.match(line)]
    if not branches:
        return Exits()
    blocks, entry = _blocks(lines)
    if not any(_returns_only(lines, body) for body in blocks.values()):
        return Exits()
    last = max(branches)
    program = parse_scalar_program("\n".join(lines[:last + 1]))
    env = program.env(values)
    decided: set[int] = set()
    runs = exits = 0
    for pid in program_sample(grid):
        known = _conditions(lines, last, run_program(program, env, pid, grid, data).values)
        past = _walk(lines, blocks, entry, known, decided)
        if past is None:  # a branch on a loaded value (or one irscope does not evaluate) decides it
            return Exits()
        runs += 1
        exits += not past
    if not runs or not decided:
        return Exits()
    share = (runs - exits) / runs
    where = ", ".join(str(line) for line in sorted(decided))
    why = (f"the early return(s) at TTGIR line(s) {where} depend only on the program id and the launch's arguments: "
           f"{share:.1%} of the programs get past them and do the kernel's work, the others return at once"
           + (f" (evaluated on {runs} of the grid's programs)" if runs < grid[0] * grid[1] * grid[2] else ""))
    return Exits(share, tuple(sorted(decided)), why if exits else "")
