"""Global loads that wait for other loads: a load whose address, mask or fill value is computed from a loaded value
cannot be issued before that value arrives, so a CTA waits a DRAM round trip for each load in such a chain.

Inductor's cross-entropy reads the labels, then the logit at each label (``tl.load(in_ptr1 + (label + 8192 * r))``);
an embedding reads the token ids, then their rows. The depth of a loop's body is the longest chain of global loads
among the loads inside it (one for loads that only depend on indices and arguments); values loaded before the loop
or carried by it from an earlier iteration do not count, since they arrived before the iteration started.
"""

from __future__ import annotations

import re

from irscope.parse.mlir_ops import MlirModule, parse_module

__all__ = ["GLOBAL_LOADS", "drained_loops", "load_depths"]

GLOBAL_LOADS = frozenset({"tt.load", "amdgpu.buffer_load", "ttg.async_copy_global_to_local",
                          "amdgpu.buffer_load_to_local", "tt.gather"})
_LOOPS = frozenset({"scf.for", "scf.while"})


def _innermost(module: MlirModule, index: int) -> int | None:
    """The loop op directly enclosing op ``index``, or None outside any loop."""
    parent = module.ops[index].parent
    while parent is not None and module.ops[parent].name not in _LOOPS:
        parent = module.ops[parent].parent
    return parent


def load_depths(ttgir: str) -> tuple[int, dict[int, int]]:
    """(the depth of the loads outside every loop, per loop's TTGIR line the depth of its body's loads).

    A depth is 0 where there are no global loads, 1 where none waits for another, 2 for a load that waits for one.
    One pass in text order: SSA values are defined before their uses, an ``scf.if``'s results by its yields.
    """
    module = parse_module(ttgir)
    ops = module.ops
    if not any(op.name in GLOBAL_LOADS for op in ops):
        return 0, {}
    scope = [_innermost(module, op.index) for op in ops]
    value: list[int] = [0] * len(ops)  # per op: the deepest same-scope load its results are computed from
    outside, per_loop = 0, dict[int, int]()
    for op in ops:
        best = 0
        for name in op.operands:
            at = module.source(name, op.index)
            if at is None or at >= op.index or scope[at] != scope[op.index] or name in ops[at].defines:
                continue  # defined later (a region op's yield), in another loop's scope, or a block argument
            best = max(best, _result(module, at, value))
        value[op.index] = best
        if op.name in GLOBAL_LOADS:
            value[op.index] = best + 1
            if scope[op.index] is None:
                outside = max(outside, best + 1)
            else:
                line = ops[scope[op.index]].line  # type: ignore[index]
                per_loop[line] = max(per_loop.get(line, 0), best + 1)
    return outside, per_loop


def _result(module: MlirModule, at: int, value: list[int]) -> int:
    """How deep in loads op ``at``'s result is: a load's own depth, an ``scf.if``'s deepest yield, a loop's none (its
    body ran before the use)."""
    op = module.ops[at]
    if op.name in _LOOPS:
        return 0
    if op.name == "scf.if":
        return max((value[child.index] for child in module.inside(at) if child.name == "scf.yield"), default=0)
    return value[at]


def drained_loops(ttgir: str, spans: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """The loops whose body waits for every async copy issued (``ttg.async_wait ... {num = 0}``, outside any inner
    loop): the copies the previous iteration issued for this one are waited for before its work, so nothing they
    load stays in flight across an iteration, whatever stages the prologue issued ahead."""
    lines = ttgir.splitlines()
    out: set[tuple[int, int]] = set()
    for lo, hi in spans:
        inner = [sp for sp in spans if lo < sp[0] and sp[1] <= hi]
        for number in range(lo + 1, min(hi, len(lines))):
            if any(a <= number <= b for a, b in inner):
                continue
            line = lines[number - 1]
            if "ttg.async_wait" in line and re.search(r"\{num = 0 : i32\}", line):
                out.add((lo, hi))
                break
    return out
