"""Atomics that land on the same address wait for one another: the L2 applies one read-modify-write to an address at
a time, so a launch takes at least as long as its busiest address's atomics in turn.

How many land on each address is known without the data where it matters most: a launch that issues ``N`` atomics
into a tensor of ``M`` elements puts at least ``N / M`` on some address (the pigeonhole bound, reached when they
spread evenly). Inductor's embedding backward adds each token's gradient row into the table's row of its index: BERT's
token-type table has 2 rows, so 4096 tokens x 512 columns of atomics fall on 1024 addresses, 2048 on each at least.
Where the addresses are computed from loaded values (indices), repeated indices concentrate them further, and the
time is a lower bound; where they are affine in the program id (a split-K sum), the spread is even.

``ATOMIC_SAME_ADDRESS_NS`` is measured on the H200 (``benchmarks/program_report/launch_cost.py``, committed in
tests/data/program_report/launch_cost.json): 262144 relaxed fp32 atomic adds, warps adding to 32 consecutive addresses,
took 1.18 us on distinct addresses and 5.47 us on 512 addresses (512 on each): 8.4 ns for each further atomic on one
address.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from irscope.analysis.perf.dependent import GLOBAL_LOADS
from irscope.analysis.perf.roles import POINTER_FORWARD
from irscope.model.launch import TensorBytes
from irscope.parse.mlir_ops import MlirModule, parse_module
from irscope.parse.ttgir_ops import element_bits

__all__ = ["ATOMICS", "ATOMIC_SAME_ADDRESS_NS", "Contention", "atomic_contention", "pointer_base", "same_address_ns"]

ATOMIC_SAME_ADDRESS_NS = 8.4  # same_address_ns() of the committed H200 measurement (tests/test_report_launch.py)
ATOMICS = frozenset({"tt.atomic_rmw", "amdgpu.buffer_atomic_rmw"})
# Example: (tensor<2x512x!tt.ptr<f32>, #blocked1>, tensor<2x512xf32, #blocked1>, ...) -> tensor<2x512xf32, #blocked1>
_POINTER = re.compile(r":\s*\(?\s*(?:tensor<(?P<shape>[\dx]+)x)?!tt\.ptr<(?P<elem>\w+)>")


@dataclass(frozen=True)
class Contention:
    """The atomic op whose addresses take the most atomics each.

    Attributes:
        line: its TTGIR line; ``argument`` the pointer argument it adds into.
        atomics: how many the launch issues; ``addresses`` the argument's elements; ``per_address`` at least
            ``atomics / addresses``.
        indirect: the addresses are computed from loaded values (indices): the spread is the data's.
        us: the busiest address's atomics in turn, ``ATOMIC_SAME_ADDRESS_NS`` each after the first.
    """

    line: int
    argument: str
    atomics: float
    addresses: int
    per_address: float
    indirect: bool
    us: float

    def sentence(self) -> str:
        spread = ("its addresses are computed from loaded values (indices), which may repeat and concentrate them "
                  "further: a lower bound" if self.indirect else "its addresses are affine in the program id and the "
                  "sizes: evenly spread, if they cover the tensor")
        return (f"the atomics at TTGIR line {self.line} put {self.atomics:.0f} read-modify-writes on the "
                f"{self.addresses} elements of {self.argument}, at least {self.per_address:.0f} on each; an address "
                f"takes one at a time, {ATOMIC_SAME_ADDRESS_NS:g} ns each (measured on the H200): {self.us:.1f} us "
                f"({spread})")


def same_address_ns(launches: Iterable[dict[str, object]]) -> float:
    """The extra time per atomic on one address: between the measured atomic kernel on distinct addresses and on
    fewer (``rows``), over the same elements."""
    rows = {(int(str(r["n_elements"])), int(str(r["rows"]))): float(str(r["median_us"]))
            for r in launches if r.get("kernel") == "atomic_kernel"}
    slopes = [(us - rows[(n, n)]) * 1e3 / (n / shared - 1) for (n, shared), us in rows.items()
              if shared < n and (n, n) in rows]
    if not slopes:
        raise ValueError("no measured atomic kernel on both distinct and shared addresses")
    return round(sum(slopes) / len(slopes), 1)


def _reads_loaded(module: MlirModule, name: str, user: int, limit: int = 5000) -> bool:
    """Whether value ``name`` (used by op ``user``) is computed from a global load."""
    todo, seen = [(name, user)], set[int]()
    while todo and len(seen) < limit:
        value, at = todo.pop()
        index = module.source(value, at)
        if index is None or index in seen or value in module.ops[index].defines:
            continue
        seen.add(index)
        op = module.ops[index]
        if op.name in GLOBAL_LOADS:
            return True
        todo.extend((operand, index) for operand in op.operands)
    return False


def pointer_base(module: MlirModule, name: str, user: int) -> str:
    """The function argument a pointer value offsets (through ``tt.addptr``'s pointer operand and its splats), or ""."""
    for _ in range(1000):
        index = module.source(name, user)
        if index is None:
            return ""
        op = module.ops[index]
        if name in op.defines:
            return name if op.name == "tt.func" else ""
        if op.name not in POINTER_FORWARD or not op.operands:
            return ""
        name, user = op.operands[0], index
    return ""


def atomic_contention(ttgir: str, tensors: tuple[TensorBytes, ...], programs: float,
                      executions: Callable[[int], float]) -> Contention | None:
    """The atomic op of the launch with the most atomics per address (at least 2), or None.

    ``programs``: the CTAs that do the work; ``executions``: per TTGIR line, how often a CTA runs it (its loops'
    trips). Atomics under a mask are all counted (the mask's share is not known): the bound is on the issued ones.
    """
    if not any(op in ttgir for op in ATOMICS):
        return None
    module = parse_module(ttgir)
    sizes = {f"%{t.name}": t.nbytes for t in tensors}
    worst: Contention | None = None
    for op in module.ops:
        if op.name not in ATOMICS or not op.operands:
            continue
        match = _POINTER.search(op.text.split(" loc(", 1)[0])
        if match is None:
            continue
        elements = 1
        for dim in (match["shape"] or "1").split("x"):
            elements *= int(dim)
        pointer = op.operands[0]
        target = pointer_base(module, pointer, op.index)
        if target not in sizes:
            continue
        addresses = sizes[target] // max(1, element_bits(match["elem"]) // 8)
        atomics = elements * executions(op.line) * programs
        if not addresses or atomics <= addresses:
            continue
        per_address = atomics / addresses
        us = (per_address - 1) * ATOMIC_SAME_ADDRESS_NS * 1e-3
        if worst is None or us > worst.us:
            worst = Contention(op.line, target.lstrip("%"), atomics, addresses, per_address,
                               _reads_loaded(module, pointer, op.index), us)
    return worst
