"""What a loop's bounds come from, when the launch's integer arguments do not decide its trips.

A paged-attention kernel's KV loop runs to ``tl.load(seq_lens + pid)``: its trips are the data's. This follows the
``scf.for``'s lower bound, upper bound and step back through the ops that compute them and names the first thing
that decides them: a global load (``loaded:<the tensor argument it reads>``), an integer argument the launch did
not record (``argument:<name>``) or a value carried by an enclosing loop (``loop``).
"""

from __future__ import annotations

from collections.abc import Container

from irscope.analysis.perf.atomics import pointer_base
from irscope.analysis.perf.dependent import GLOBAL_LOADS
from irscope.parse.mlir_ops import MlirModule, parse_module

__all__ = ["bound_source", "bound_sources"]


def bound_source(module: MlirModule, for_index: int, known: Container[str], limit: int = 5000) -> str:
    """What the bounds of the ``scf.for`` op at ``for_index`` come from (see the module's docstring); "" when none
    of those (ops the evaluator does not follow)."""
    op = module.ops[for_index]
    todo = [(name, for_index) for name in op.operands[:3]]
    seen: set[int] = set()
    found = ""
    while todo and len(seen) < limit:
        value, at = todo.pop(0)
        index = module.source(value, at)
        if index is None or index in seen:
            continue
        source = module.ops[index]
        if value in source.defines:  # a block argument: the function's, or a loop's induction / carried value
            if source.name == "tt.func":
                name = value.lstrip("%")
                if name not in known and not found:
                    found = f"argument:{name}"
            elif source.name in ("scf.for", "scf.while") and not found:
                found = "loop"
            continue
        seen.add(index)
        if source.name in GLOBAL_LOADS:
            base = pointer_base(module, source.operands[0], index) if source.operands else ""
            return f"loaded:{base.lstrip('%')}" if base else "loaded:"
        todo.extend((operand, index) for operand in source.operands)
    return found


def bound_sources(ttgir: str, lines: list[int], known: Container[str]) -> dict[int, str]:
    """Per TTGIR line of an ``scf.for`` in ``lines``, what its bounds come from (``bound_source``)."""
    if not lines:
        return {}
    module = parse_module(ttgir)
    wanted = set(lines)
    return {op.line: bound_source(module, op.index, known) for op in module.ops
            if op.name == "scf.for" and op.line in wanted}
