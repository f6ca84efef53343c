"""A Blackwell ``tcgen05.mma``'s shape, read from its instruction descriptor in the PTX.

Unlike ``mma.sync`` and ``wgmma``, a tcgen05 MMA's mnemonic names no shape
(``tcgen05.mma.cta_group::1.kind::f16 [ %r428 + 0 ], %rd53, %rd54, %r147, %p22;``): M and N sit in its
32-bit instruction descriptor, the first 32-bit operand after the A and B operands (``%r147``), which Triton's
lowering materialises as a constant (``mov.b32 %r147, 138477584;``). The descriptor's fields (PTX ISA,
"Instruction descriptor"; Triton's ``TCGen5InstructionDescriptor`` in MMAv5.cpp): D type in bits 4-5, A and B
types in 7-9 and 10-12, N >> 3 in bits 17-22, M >> 4 in bits 24-28. K is not in it: the kind fixes it, 256 bits
of A's element (16 for ``kind::f16``, 8 for ``kind::tf32``, 32 for ``kind::f8f6f4`` and ``kind::i8``, 64 for
the fp4 kinds). One thread of the CTA issues the instruction (an elected lane), so each one is issued once per
CTA; with ``cta_group::2`` one CTA issues it for the pair, whose M it names, so each CTA's share is half.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from irscope.parse.lineinfo import Instruction

__all__ = ["Tcgen05Shape", "decode_descriptor", "tcgen05_shapes"]

# Example: mov.b32 	%r147, 138477584;   |   mov.u32 %r9, 0x8410010;
_MOV = re.compile(r"^mov\.[bu]32\s+(?P<reg>%r\d+)\s*,\s*(?P<value>0[xX][0-9a-fA-F]+|\d+)\s*;?$")
# Example: tcgen05.mma.cta_group::1.kind::f16 | tcgen05.mma.sp.cta_group::2.kind::i8 | ...kind::mxf8f6f4.block_scale
_KIND = re.compile(r"\bkind::(?P<kind>\w+)")
_GROUP = re.compile(r"\bcta_group::(?P<group>[12])")
# K per instruction (256 bits of A's element) and the operand type, by kind; kind::f16 says f16 or bf16 in A's type.
_KINDS = {"f16": (16, "fp16"), "tf32": (8, "tf32"), "f8f6f4": (32, "fp8"), "i8": (32, "int8"),
          "mxf8f6f4": (32, "fp8"), "mxf4": (64, "fp4"), "mxf4nvf4": (64, "fp4")}


@dataclass(frozen=True)
class Tcgen05Shape:
    """One tcgen05 MMA instruction.

    Attributes:
        m, n, k: its shape (M and N from the descriptor, K from its kind).
        dtype: the operand type (``fp16``, ``bf16``, ``tf32``, ``fp8``, ``int8``, ``fp4``).
        ctas: 1, or 2 for ``cta_group::2`` (M spans the CTA pair; one CTA issues it).
        descriptor: the instruction descriptor's value.
    """

    m: int
    n: int
    k: int
    dtype: str
    ctas: int
    descriptor: int

    @property
    def flops_per_cta(self) -> float:
        """Multiply-adds times two, this CTA's share."""
        return 2.0 * self.m * self.n * self.k / self.ctas


def decode_descriptor(descriptor: int, kind: str, ctas: int = 1) -> Tcgen05Shape | None:
    """The shape a ``kind::KIND`` instruction descriptor names; None for a kind or a shape irscope does not know."""
    if kind not in _KINDS:
        return None
    k, dtype = _KINDS[kind]
    if kind == "f16" and (descriptor >> 7) & 0x7 == 1:  # A's type: 0 f16, 1 bf16
        dtype = "bf16"
    m, n = ((descriptor >> 24) & 0x1F) * 16, ((descriptor >> 17) & 0x3F) * 8
    if not m or not n:
        return None
    return Tcgen05Shape(m, n, k, dtype, ctas, descriptor)


def _operands(text: str) -> list[str]:
    """The operands of an instruction line (after the mnemonic, without its predicate), bracketed ones whole."""
    body = re.sub(r"^@!?%\w+\s+", "", text.strip()).rstrip(";").strip()
    _, _, rest = body.partition(" ")
    parts, depth, cur = [], 0, ""
    for ch in rest:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and not depth:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*parts, cur.strip()] if cur.strip() else parts


def tcgen05_shapes(instructions: Iterable[Instruction]) -> dict[int, Tcgen05Shape | None]:
    """Listing line -> the shape of each tcgen05 MMA there (None: its descriptor is no constant the PTX sets once)."""
    insns = list(instructions)
    values: dict[str, set[int]] = {}
    for insn in insns:
        if match := _MOV.match(insn.text.strip()):
            values.setdefault(match["reg"], set()).add(int(match["value"], 0))
    shapes: dict[int, Tcgen05Shape | None] = {}
    for insn in insns:
        match = _KIND.search(insn.opcode)
        if not insn.opcode.startswith("tcgen05.mma") or match is None:
            continue
        # [d], A ([tmem] or a descriptor), B, ([sparse metadata],) idesc: the first 32-bit register or literal after A
        rest = _operands(insn.text)[2:]
        found = next((o for o in rest if re.fullmatch(r"%r\d+|0[xX][0-9a-fA-F]+|\d+", o)), None)
        known = values.get(found, set()) if found and found.startswith("%") else {int(found, 0)} if found else set()
        group = _GROUP.search(insn.opcode)
        ctas = int(group["group"]) if group else 1
        shapes[insn.number] = decode_descriptor(next(iter(known)), match["kind"], ctas) if len(known) == 1 else None
    return shapes
