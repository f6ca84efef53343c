"""The shared-memory address every thread uses, evaluated from the PTX's own integer arithmetic.

Triton computes shared addresses from `%tid.x` with plain integer instructions (`and`, `shl`, `bfe`,
`xor`, `mad.lo`, `shfl.sync.idx` to make the warp id uniform ...). Evaluating the chain that feeds
one `ld.shared` / `st.shared` / `ldmatrix` for every thread of a CTA gives its addresses without
any layout theory: a check of the layout model, and the only source for scratch buffers (layout
conversions, reductions) whose layout the TTGIR does not print. The evaluation follows text order:
a register takes its last definition above the instruction (the first iteration of a loop); a value
that depends on memory, kernel arguments or anything unsupported makes the address unknown. The
shared window's base symbol (`global_smem`) counts as address 0 (it is aligned far beyond 128 bytes,
so banks do not move).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from irscope.parse.lineinfo import Instruction
from irscope.parse.ttgir_ops import split_top_level

__all__ = ["ThreadAddresses", "evaluate_addresses"]

Values = list[int]

# Example: @!%p3 st.shared.v4.b32 [%r352], {%r266, %r268, %r270, %r272};
_PRED = re.compile(r"^@(?P<neg>!?)(?P<reg>%\w+)\s+")
# Example: [%r84+4096]   /   [ %r29 + 0 ]   /   [global_smem+16]
_ADDRESS = re.compile(r"^\[\s*(?P<base>[%\w.$]+)\s*(?:\+\s*(?P<off>-?(?:0x[0-9a-fA-F]+|\d+)))?\s*\]$")
# Example: 0x10   /   -1   /   8224
_IMMEDIATE = re.compile(r"^-?(?:0[xX][0-9a-fA-F]+|\d+)$")
_SPECIAL_ZERO = ("%ctaid.", "%clusterid.", "%cluster_ctaid.")
_LIMIT = 400  # definitions followed per address before giving up


@dataclass(frozen=True)
class ThreadAddresses:
    """Byte addresses of one shared-memory instruction for every thread of a CTA.

    Attributes:
        number: 1-based line of the instruction in the PTX.
        opcode: its mnemonic.
        addresses: per thread (thread id = index), the byte address, or None where the thread's
            predicate is false.
        predicate_known: False when the instruction's guard could not be evaluated (all threads
            are then taken as active).
    """

    number: int
    opcode: str
    addresses: tuple[int | None, ...]
    predicate_known: bool = True


def _parts(insn: Instruction) -> tuple[str, str, list[str], tuple[bool, str] | None]:
    """(the line without predicate, opcode, operands, (negated, predicate register) or None)."""
    text = insn.text.strip().rstrip(";").strip()
    guard = None
    if match := _PRED.match(text):
        guard = (bool(match["neg"]), match["reg"])
        text = text[match.end():]
    opcode, _, rest = text.partition(" ")
    return text, opcode, split_top_level(rest.replace("\t", " ")), guard


def _bits(opcode: str) -> int:
    return 64 if re.search(r"\.[bsu]64\b", opcode) else 32


def _signed(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


class _Unknown(Exception):
    """A value the evaluator cannot compute."""


class _Evaluator:
    """Evaluates registers for every thread, following each register's last definition above a line."""

    def __init__(self, insns: Sequence[Instruction], threads: int) -> None:
        self.insns = insns
        self.threads = threads
        self.defs: dict[str, list[int]] = {}
        for index, insn in enumerate(insns):
            _, opcode, ops, _ = _parts(insn)
            if not ops or opcode.startswith(("st.", "bar", "cp.async", "red.", "ret", "bra", "@")):
                continue
            if ops[0].startswith("["):
                continue  # a memory destination (tcgen05.alloc [addr], ...) defines no register
            for name in re.findall(r"%[\w.]+", ops[0]):
                self.defs.setdefault(name, []).append(index)
        self.cache: dict[tuple[str, int], Values] = {}
        self.steps = 0

    def operand(self, text: str, before: int) -> Values:
        text = text.strip()
        if _IMMEDIATE.match(text):
            return [int(text, 0)] * self.threads
        if text == "%tid.x":
            return list(range(self.threads))
        if text in ("%tid.y", "%tid.z") or text.startswith(_SPECIAL_ZERO):
            return [0] * self.threads
        if text == "%laneid":
            return [t % 32 for t in range(self.threads)]
        if text.startswith("%"):
            return self.register(text, before)
        if re.fullmatch(r"[A-Za-z_$][\w$]*", text):  # the shared window's symbol
            return [0] * self.threads
        raise _Unknown(text)

    def register(self, name: str, before: int) -> Values:
        earlier = [i for i in self.defs.get(name, ()) if i < before]
        if not earlier:
            raise _Unknown(name)
        index = earlier[-1]
        key = (name, index)
        if key not in self.cache:
            self.steps += 1
            if self.steps > _LIMIT:
                raise _Unknown("too many definitions")
            self.cache[key] = self.define(index)
        return self.cache[key]

    def define(self, index: int) -> Values:
        _, opcode, ops, guard = _parts(self.insns[index])
        if guard is not None:
            raise _Unknown(f"predicated definition {opcode}")
        return _OPS.get(opcode.split(".")[0], _unsupported)(self, opcode, ops, index)

    def predicate(self, guard: tuple[bool, str] | None, index: int) -> list[bool]:
        if guard is None:
            return [True] * self.threads
        negated, name = guard
        return [bool(v) != negated for v in self.register(name, index)]


def _unsupported(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
    raise _Unknown(opcode)


def _args(ev: _Evaluator, ops: list[str], index: int, count: int) -> list[Values]:
    if len(ops) < count + 1:
        raise _Unknown("operands")
    return [ev.operand(op, index) for op in ops[1:count + 1]]


def _binary(fn: Callable[[int, int, int], int]) -> Callable[[_Evaluator, str, list[str], int], Values]:
    def run(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
        a, b = _args(ev, ops, index, 2)
        bits = _bits(opcode)
        signed = ".s" in opcode
        mask = (1 << bits) - 1
        out = []
        for x, y in zip(a, b, strict=True):
            if signed:
                x, y = _signed(x, bits), _signed(y, bits)
            out.append(fn(x & mask if not signed else x, y & mask if not signed else y, bits) & mask)
        return out
    return run


def _mov(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
    return _args(ev, ops, index, 1)[0]


def _cvt(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
    types = re.findall(r"\.([bsu])(\d+)", opcode)
    if len(types) != 2 or any(t == "f" for t, _ in types):
        raise _Unknown(opcode)
    (_, dst_bits), (src_kind, src_bits) = types
    values = _args(ev, ops, index, 1)[0]
    if src_kind == "s":
        values = [_signed(v, int(src_bits)) for v in values]
    return [v & ((1 << int(dst_bits)) - 1) for v in values]


def _mul(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
    a, b = _args(ev, ops, index, 2)
    if ".hi" in opcode:
        raise _Unknown(opcode)
    wide = ".wide" in opcode
    bits = 32 if wide or "32" in opcode else 64
    signed = ".s" in opcode
    conv = (lambda v: _signed(v, bits)) if signed else (lambda v: v & ((1 << bits) - 1))
    out_bits = 64 if wide or bits == 64 else 32
    return [(conv(x) * conv(y)) & ((1 << out_bits) - 1) for x, y in zip(a, b, strict=True)]


def _mad(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
    c = _args(ev, ops, index, 3)[2]
    product = _mul(ev, opcode, [ops[0], ops[1], ops[2]], index)
    bits = 64 if ".wide" in opcode or "64" in opcode else 32
    return [(p + z) & ((1 << bits) - 1) for p, z in zip(product, c, strict=True)]


def _bfe(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
    a, start, length = _args(ev, ops, index, 3)
    bits = _bits(opcode)
    out = []
    for x, s, n in zip(a, start, length, strict=True):
        s, n = s & 0xFF, n & 0xFF
        field = (x >> s) & ((1 << n) - 1) if n else 0
        if ".s" in opcode and n and field >> (n - 1):
            field -= 1 << n
        out.append(field & ((1 << bits) - 1))
    return out


def _bfi(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
    a, b, start, length = _args(ev, ops, index, 4)
    out = []
    for x, y, s, n in zip(a, b, start, length, strict=True):
        mask = ((1 << (n & 0xFF)) - 1) << (s & 0xFF)
        out.append(((y & ~mask) | ((x << (s & 0xFF)) & mask)) & 0xFFFFFFFF)
    return out


def _selp(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
    a, b, p = _args(ev, ops, index, 3)
    return [x if q else y for x, y, q in zip(a, b, p, strict=True)]


_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "lt": lambda x, y: x < y, "le": lambda x, y: x <= y, "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y,
    "eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "lo": lambda x, y: x < y, "ls": lambda x, y: x <= y,
    "hi": lambda x, y: x > y, "hs": lambda x, y: x >= y,
}


def _setp(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
    parts = opcode.split(".")
    if len(parts) < 3 or parts[1] not in _COMPARE or parts[2][0] not in "bsu" or "|" in ops[0] or len(parts) > 3:
        raise _Unknown(opcode)
    a, b = _args(ev, ops, index, 2)
    bits = int(parts[2][1:])
    conv = (lambda v: _signed(v, bits)) if parts[2][0] == "s" else (lambda v: v & ((1 << bits) - 1))
    return [int(_COMPARE[parts[1]](conv(x), conv(y))) for x, y in zip(a, b, strict=True)]


def _logic(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
    name = opcode.split(".")[0]
    if name == "not":
        (a,) = _args(ev, ops, index, 1)
        return [int(not x) for x in a] if opcode.endswith(".pred") else [~x & ((1 << _bits(opcode)) - 1) for x in a]
    a, b = _args(ev, ops, index, 2)
    fn = {"and": lambda x, y: x & y, "or": lambda x, y: x | y, "xor": lambda x, y: x ^ y}[name]
    return [fn(x, y) for x, y in zip(a, b, strict=True)]


def _neg(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
    bits = _bits(opcode)
    return [-x & ((1 << bits) - 1) for x in _args(ev, ops, index, 1)[0]]


def _shfl(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
    if not opcode.startswith("shfl.sync.idx") or len(ops) < 5:
        raise _Unknown(opcode)
    value, lane, clamp = (ev.operand(op, index) for op in ops[1:4])
    if any(c & 0x1F != 0x1F or c >> 8 for c in clamp):
        raise _Unknown("segmented shuffle")
    return [value[t - t % 32 + (lane[t] & 31)] if t - t % 32 + (lane[t] & 31) < ev.threads else value[t]
            for t in range(ev.threads)]


def _shift(left: bool) -> Callable[[_Evaluator, str, list[str], int], Values]:
    def run(ev: _Evaluator, opcode: str, ops: list[str], index: int) -> Values:
        a, b = _args(ev, ops, index, 2)
        bits = _bits(opcode)
        mask = (1 << bits) - 1
        if left:
            return [(x << min(s, bits)) & mask for x, s in zip(a, b, strict=True)]
        if ".s" in opcode:
            return [(_signed(x, bits) >> min(s, bits)) & mask for x, s in zip(a, b, strict=True)]
        return [((x & mask) >> min(s, bits)) for x, s in zip(a, b, strict=True)]
    return run


def _div(op: str) -> Callable[[int, int, int], int]:
    def fn(x: int, y: int, bits: int) -> int:
        if y == 0:
            raise _Unknown("division by zero")
        q = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)
        return q if op == "div" else x - q * y
    return fn


_OPS: dict[str, Callable[[_Evaluator, str, list[str], int], Values]] = {
    "mov": _mov, "cvt": _cvt, "mul": _mul, "mad": _mad, "bfe": _bfe, "bfi": _bfi, "selp": _selp, "setp": _setp,
    "and": _logic, "or": _logic, "xor": _logic, "not": _logic, "shfl": _shfl, "shl": _shift(True),
    "shr": _shift(False), "neg": _neg,
    "add": _binary(lambda x, y, bits: x + y), "sub": _binary(lambda x, y, bits: x - y),
    "min": _binary(lambda x, y, bits: min(x, y)), "max": _binary(lambda x, y, bits: max(x, y)),
    "div": _binary(_div("div")), "rem": _binary(_div("rem")),
}


def _address_operand(opcode: str, ops: list[str]) -> str | None:
    """The `[...]` operand that names shared memory (the destination of stores and cp.async)."""
    candidates = [op for op in ops if op.startswith("[")]
    if not candidates:
        return None
    return candidates[0]


def evaluate_addresses(instructions: Sequence[Instruction], numbers: Sequence[int], threads: int
                       ) -> dict[int, ThreadAddresses | str]:
    """For each PTX line in `numbers`: its shared address per thread of a `threads`-thread CTA, or why not."""
    evaluator = _Evaluator(instructions, threads)
    position = {insn.number: i for i, insn in enumerate(instructions)}
    out: dict[int, ThreadAddresses | str] = {}
    for number in numbers:
        index = position.get(number)
        if index is None:
            out[number] = f"PTX line {number} is not an instruction"
            continue
        _, opcode, ops, guard = _parts(instructions[index])
        operand = _address_operand(opcode, ops)
        match = _ADDRESS.match(operand) if operand else None
        if match is None:
            out[number] = f"no address operand on PTX line {number}"
            continue
        evaluator.steps = 0
        try:
            base = evaluator.operand(match["base"], index)
        except _Unknown as exc:
            out[number] = f"the address on PTX line {number} depends on {exc}, which irscope does not evaluate"
            continue
        known = True
        try:
            active = evaluator.predicate(guard, index)
        except _Unknown:
            active, known = [True] * threads, False
        offset = int(match["off"] or "0", 0)
        out[number] = ThreadAddresses(number, opcode, tuple(
            ((b + offset) & 0xFFFFFFFF) if on else None for b, on in zip(base, active, strict=True)), known)
    return out
