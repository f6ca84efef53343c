"""Which half of the compiler a moved fact follows: the LLVM IR (what Triton lowered) or the backend (LLVM's code
generator, and ptxas on NVIDIA) that turned it into machine code.

Given the facts of A, of B, of A's LLVM IR through B's backend (``a_ir``) and of B's LLVM IR through A's backend
(``b_ir``), a fact that moved from A to B *follows the backend* when A's IR through B's backend gives B's value
(and B's IR through A's backend gives A's); it *follows the IR* when each IR keeps its own value whichever
backend compiles it. Counts can land between (the backend's share of the move is how far the swapped result
went from the IR's side towards the backend's, averaged over the directions that compiled), or outside, when
the IR of one side and the backend of the other together give a third value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from irscope.store.store import Capture

__all__ = ["Attribution", "Swap", "SwapReport", "attribute", "exposed", "is_backend_fact"]

_WHOLE = 0.9  # a share at least this large (or this far from 1) is the whole move
# Facts the machine code gives (the rest are read from the MLIR stages, which a swap below them cannot move).
_LOWER_PREFIXES = ("registers", "spills", "shared_bytes", "occupancy.", "instructions.", "mma.")
# The resources a swap can bring out although the two sides agree on them (instruction counts nearly always move).
_RESOURCES = ("registers", "spills", "spills.sgpr", "shared_bytes", "occupancy.ctas_per_sm", "occupancy.warps_per_sm")


def is_backend_fact(name: str) -> bool:
    """Whether a fact is read from the stages a backend swap remakes (registers, instructions, ...)."""
    return name.startswith(_LOWER_PREFIXES)


@dataclass(frozen=True)
class Attribution:
    """One moved fact, with what each swap gave.

    Attributes:
        fact: the fact's name; ``a`` / ``b`` its values on the two sides.
        a_ir: A's LLVM IR through B's backend (None: that swap did not compile).
        b_ir: B's LLVM IR through A's backend (None: likewise).
        follows: ``backend``, ``ir``, ``both`` (part of the move each), ``swap only`` (the sides agree, a swap
            does not: one side's IR under the other's backend), ``neither`` (a swap lands outside the
            two sides' values: the IR and the backend interact), ``unknown`` (no swap compiled) or ``unsure`` (a
            side's own IR through its own backend does not give its own value).
        backend_share: for numbers, the part of the move the backend accounts for (0..1; None otherwise).
    """

    fact: str
    a: Any
    b: Any
    a_ir: Any
    b_ir: Any
    follows: str
    backend_share: float | None = None


@dataclass(frozen=True)
class Swap:
    """One side's IR through the other side's backend.

    Attributes:
        ir: the side whose LLVM IR went in (``A`` or ``B``); ``backend`` the side whose backend made the rest.
        triton_ir / triton_backend: the two Tritons' versions.
        capture: the capture that holds the result (None when the backend refused the IR).
        error: why there is no result (the backend's one line), else empty.
    """

    ir: str
    backend: str
    triton_ir: str
    triton_backend: str
    capture: Capture | None
    error: str = ""


@dataclass(frozen=True)
class SwapReport:
    """The two swaps and what each moved fact follows.

    Attributes:
        swaps: A's IR through B's backend, then B's IR through A's.
        rows: the moved facts the machine code gives, each with the swaps' values.
        unread: facts a swapped capture could not give (its own ``unread``).
        controls: where a side's own LLVM IR through its own backend does not give its own value (those facts
            are ``unsure``); empty when every control agreed.
    """

    swaps: tuple[Swap, Swap]
    rows: tuple[Attribution, ...]
    unread: tuple[str, ...] = ()
    controls: tuple[str, ...] = ()


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _one_way(start: Any, end: Any, swapped: Any) -> tuple[str, float | None]:
    """One swap: the IR of the side at ``start`` through the backend of the side at ``end``; what it followed.

    For numbers, also the backend's share of the move: 1 when the swap lands on ``end``, 0 on ``start``.
    """
    if swapped == end:
        return "backend", 1.0
    if swapped == start:
        return "ir", 0.0
    s, e, x = _number(start), _number(end), _number(swapped)
    if s is None or e is None or x is None or s == e:
        return "neither", None
    share = (x - s) / (e - s)
    if abs(share - 1) <= 1 - _WHOLE:
        return "backend", share
    if abs(share) <= 1 - _WHOLE:
        return "ir", share
    return ("both" if 0 < share < 1 else "neither"), share


def _combine(ways: list[tuple[str, float | None]]) -> tuple[str, float | None]:
    if not ways:
        return "unknown", None
    kinds = {k for k, _ in ways}
    shares = [s for _, s in ways if s is not None]
    share = sum(shares) / len(shares) if shares else None
    if len(kinds) == 1:
        return kinds.pop(), share
    return ("neither" if "neither" in kinds else "both"), share


def attribute(moved: list[tuple[str, Any, Any]], a_ir: dict[str, Any] | None,
              b_ir: dict[str, Any] | None) -> list[Attribution]:
    """Each moved ``(fact, a, b)`` the machine code gives, with the swaps' values and which half it follows.

    ``a_ir`` / ``b_ir``: the facts of A's IR through B's backend and of B's IR through A's (None: not compiled).
    """
    out = []
    for name, a, b in moved:
        if not is_backend_fact(name):
            continue
        x = a_ir.get(name) if a_ir is not None else None
        y = b_ir.get(name) if b_ir is not None else None
        ways = ([_one_way(a, b, x)] if a_ir is not None and name in a_ir else []) + \
               ([_one_way(b, a, y)] if b_ir is not None and name in b_ir else [])
        follows, share = _combine(ways)
        out.append(Attribution(fact=name, a=a, b=b, a_ir=x, b_ir=y, follows=follows,
                               backend_share=None if share is None else round(share, 3)))
    return out


def exposed(a_facts: dict[str, Any], b_facts: dict[str, Any], a_ir: dict[str, Any] | None,
            b_ir: dict[str, Any] | None) -> list[Attribution]:
    """The resources the two sides agree on and a swap does not (A's IR under B's backend spills where neither
    side does): the regression a report measured can be there, with IR one Triton makes and another's backend."""
    out = []
    for name in _RESOURCES:
        if name not in a_facts or a_facts.get(name) != b_facts.get(name):
            continue
        value = a_facts[name]
        x = a_ir.get(name) if a_ir is not None else None
        y = b_ir.get(name) if b_ir is not None else None
        if (a_ir is not None and name in a_ir and x != value) or (b_ir is not None and name in b_ir and y != value):
            out.append(Attribution(fact=name, a=value, b=value, a_ir=x, b_ir=y, follows="swap only"))
    return out
