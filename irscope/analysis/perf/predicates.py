"""The share of a CTA's threads that execute each predicated global load and store of a PTX listing.

A predicated ``@%p ld.global`` / ``st.global`` moves bytes only in the threads whose predicate holds: the masked-off
lanes of a block wider than its row (``arange(0, 16384) < 11008``) and the scalar stores Triton gives to one thread
(a row's mean and rstd). The predicate's definition is evaluated for every thread of CTA 0 from ``%tid.x``, the
kernel's parameters (integer arguments of the launch, by their position in the TTGIR signature) and immediates,
through the integer and predicate arithmetic PTX computes it with. A predicate that depends on anything else (a
loaded value, a register set in a loop) is not evaluated: its instruction counts for every thread.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from irscope.parse.lineinfo import Instruction

__all__ = ["active_shares"]

# Example: @%p6 st.global.b32 [ %rd5 + 0 ], { %r23 };   /   setp.lt.s32 	%p1, %r39, %r36;
_INSN = re.compile(r"^(?:@(?P<neg>!)?(?P<guard>%p\d+)\s+)?(?P<op>[a-z][\w.]*)\s+(?P<args>[^;]*);?")
# Example: [_rms_norm_forward_kernel_param_6]
_PARAM = re.compile(r"\[\s*\w+_param_(?P<index>\d+)\s*\]")
# Example: tt.func public @k(%Y_ptr: !tt.ptr<bf16> {...} loc("Y_ptr"(#loc)), %n_cols: i32 {...}, %eps: f32 ...
_TTGIR_ARG = re.compile(r"%(?P<name>[\w$.-]+):\s*(?P<type>[!\w.<>]+)")
_INT = re.compile(r"^-?(?:0[xX][0-9a-fA-F]+|\d+)$")

_Values = list[int]
_ALU: dict[str, Callable[[int, int], int]] = {
    "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b, "shl": lambda a, b: a << b,
    "shr": lambda a, b: a >> b, "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "min": min, "max": max, "rem": lambda a, b: a % b if b else 0, "div": lambda a, b: a // b if b else 0,
}
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lo": lambda a, b: a < b, "ls": lambda a, b: a <= b,
    "hi": lambda a, b: a > b, "hs": lambda a, b: a >= b,
}


def _signature(ttgir: str) -> list[str]:
    """The TTGIR function's arguments in order (the PTX parameters follow them)."""
    for line in ttgir.splitlines():
        if "tt.func" in line and "@" in line:
            head = line.split("(", 1)[1] if "(" in line else ""
            return [m["name"] for m in _TTGIR_ARG.finditer(re.sub(r"\{[^}]*\}|loc\([^)]*\)\)?", "", head))]
    return []


class _Evaluator:
    """Registers' values in every thread of CTA 0, from their single definition in the listing."""

    def __init__(self, instructions: list[Instruction], threads: int, params: dict[int, int]) -> None:
        self.threads = threads
        self.params = params
        self.defs: dict[str, list[tuple[str, list[str]]]] = {}
        for insn in instructions:
            match = _INSN.match(insn.text)
            if match is None or match["guard"]:
                if match is not None and match["op"].startswith(("ld.", "mov.")):
                    for dst in _dests(match["args"]):  # a guarded write makes the register unknowable
                        self.defs.setdefault(dst, []).extend([("?", []), ("?", [])])
                continue
            args = [a.strip() for a in match["args"].split(",")]
            if args and args[0].startswith("%"):
                self.defs.setdefault(args[0], []).append((match["op"], args[1:]))
        self.memo: dict[str, _Values | None] = {}

    def operand(self, text: str) -> _Values | None:
        text = text.strip()
        if text == "%tid.x":
            return list(range(self.threads))
        if text in ("%tid.y", "%tid.z") or text.startswith("%ctaid."):
            return [0] * self.threads
        if _INT.match(text):
            return [int(text, 0)] * self.threads
        if match := _PARAM.search(text):
            value = self.params.get(int(match["index"]))
            return None if value is None else [value] * self.threads
        if text.startswith("%"):
            return self.register(text)
        return None

    def register(self, name: str) -> _Values | None:
        if name in self.memo:
            return self.memo[name]
        self.memo[name] = None  # a cycle stays unknown
        defs = self.defs.get(name, [])
        value = self._define(*defs[0]) if len(defs) == 1 else None
        self.memo[name] = value
        return value

    def _define(self, op: str, args: list[str]) -> _Values | None:
        base, _, _rest = op.partition(".")
        if base in ("mov", "cvt", "ld") and args:
            if base == "ld" and not op.startswith("ld.param"):
                return None
            if op == "mov.pred" and _INT.match(args[0].strip()):
                return [1 if int(args[0], 0) else 0] * self.threads
            return self.operand(args[0])
        if base == "setp" and len(args) >= 2:
            compare = _COMPARE.get(op.split(".")[1])
            a, b = self.operand(args[0]), self.operand(args[1])
            if compare is None or a is None or b is None:
                return None
            return [1 if compare(x, y) else 0 for x, y in zip(a, b, strict=True)]
        if op in ("not.pred", "not.b32") and args:
            a = self.operand(args[0])
            return None if a is None else [0 if x else 1 for x in a] if op == "not.pred" else [~x for x in a]
        if base == "mad" and len(args) >= 3:
            a, b, c = (self.operand(x) for x in args[:3])
            if a is None or b is None or c is None:
                return None
            return [x * y + z for x, y, z in zip(a, b, c, strict=True)]
        if base == "selp" and len(args) >= 3:
            a, b, p = (self.operand(x) for x in args[:3])
            if a is None or b is None or p is None:
                return None
            return [x if q else y for x, y, q in zip(a, b, p, strict=True)]
        fn = _ALU.get(base)
        if fn is not None and len(args) >= 2 and ".hi." not in op:
            a, b = self.operand(args[0]), self.operand(args[1])
            if a is None or b is None:
                return None
            return [fn(x, y) for x, y in zip(a, b, strict=True)]
        return None


def _dests(args: str) -> list[str]:
    head = args.split(",", 1)[0] if not args.lstrip().startswith("{") else args.split("}", 1)[0]
    return re.findall(r"%\w+", head)


def active_shares(instructions: list[Instruction], ttgir: str, values: dict[str, int], threads: int
                  ) -> dict[int, float]:
    """Listing line -> share of the CTA's threads that run that predicated global load or store (only those known)."""
    names = _signature(ttgir)
    params = {i: int(values[name]) for i, name in enumerate(names) if name in values}
    evaluator = _Evaluator(instructions, threads, params)
    shares: dict[int, float] = {}
    for insn in instructions:
        match = _INSN.match(insn.text)
        if match is None or not match["guard"] or not match["op"].startswith(("ld.global", "st.global")):
            continue
        active = evaluator.register(match["guard"])
        if active is None or not threads:
            continue
        on = sum(1 for x in active if (not x) == bool(match["neg"]))
        shares[insn.number] = on / threads
    return shares
