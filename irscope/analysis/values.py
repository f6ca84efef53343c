"""What a kernel's scalars are at run time: one evaluator of the TTGIR's scalar integer slice, per program id.

The loop bounds, early returns and ``scf.if`` conditions a launch decides are scalar integer SSA values computed
from the program id, the grid and the launch's integer arguments (``arith.addi``, ``arith.divsi``, ...) and, in
kernels that read their work from memory, from scalars loaded through a pointer argument: a paged-attention
kernel's ``seq_len = tl.load(seq_lens + seq)``, a varlen kernel's ``cu_seqlens[pid + 1]``, a MoE kernel's
``num_tokens_post_padded``. Such a load is evaluated from the launch's recorded tensor contents
(``LaunchShape.data``); without them its result is unknown, and every value computed from it remembers which
tensor would have decided it, so a caller can say so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

__all__ = ["PREDICATES", "ScalarProgram", "ScalarRun", "parse_scalar_program", "run_program"]

# Example: %num_pid_m_3 = arith.divsi %num_pid_m, %c128_i32 : i32 loc(#loc104)
_SCALAR_OP = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.(?P<op>\w+)\s+(?P<a>%[\w$.-]+)"
                        r"(?:\s*,\s*(?P<b>%[\w$.-]+))?"
                        r"\s*:\s*(?P<type>i\d+|index)\b(?!\s*to)")
# Example: %c63_i32 = arith.constant 63 : i32 loc(#loc1)
_CONSTANT = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.constant\s+(?P<value>-?\d+)\s*:\s*(?:i\d+|index)\b")
# Example: %0 = arith.extsi %K : i32 to i64 loc(#loc3)
_CAST = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.(?:extsi|extui|trunci|index_cast)\s+"
                   r"(?P<a>%[\w$.-]+)\s*:\s*i\d+")
# Example: %pid = tt.get_program_id x : i32 loc(#loc58)   /   %row_step = tt.get_num_programs x : i32
_PROGRAM = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*tt\.get_(?P<what>program_id|num_programs)\s+(?P<axis>[xyz])\b")
# Example: %acc:9 = scf.for %k = %c0_i32 to %1 step %c1_i32 iter_args(...)
_FOR = re.compile(r"scf\.for\s+(?P<iv>%[\w$.-]+)\s*=\s*(?P<lb>%[\w$.-]+)\s+to\s+(?P<ub>%[\w$.-]+)"
                  r"\s+step\s+(?P<st>%[\w$.-]+)")
# Example: tt.func public @matmul_kernel(%a_ptr: !tt.ptr<f16> {...} loc("a_ptr"(#loc)), %M: i32 loc("M"(#loc)), ...
_ARG = re.compile(r"%(?P<name>[\w$.-]+):\s*(?:i\d+)\b")
# Example: %seq_lens: !tt.ptr<i32> {tt.divisibility = 16 : i32} loc("seq_lens"(#loc))
_PTR_ARG = re.compile(r"%(?P<name>[\w$.-]+):\s*!tt\.ptr<(?P<elt>i\d+)>")
# Example: %seq_len = tt.addptr %seq_lens, %seq : !tt.ptr<i32>, i32 loc(#loc67)
_ADDPTR = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*tt\.addptr\s+(?P<p>%[\w$.-]+)\s*,\s*(?P<off>%[\w$.-]+)\s*:"
                     r"\s*!tt\.ptr<(?P<elt>i\d+)>\s*,\s*i\d+")
# Example: %seq_len_5 = tt.load %seq_len : !tt.ptr<i32> loc(#loc68)
#          %n = tt.load %p {cache = 1 : i32, evict = 1 : i32} : !tt.ptr<i64> loc(#loc9)
_LOAD = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*tt\.load\s+(?P<p>%[\w$.-]+)(?P<rest>[^:]*):\s*!tt\.ptr<(?P<elt>i\d+)>"
                   r"\s*(?:loc|$)")
# Example: %16 = arith.cmpi sle, %8, %9 : i32 loc(#loc18)
_CMPI = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.cmpi\s+(?P<pred>\w+),\s*(?P<a>%[\w$.-]+),\s*(?P<b>%[\w$.-]+)"
                   r"\s*:\s*(?:i\d+|index)\s")
# Example: %7 = arith.select %6, %4, %5 : i32 loc(#loc12)
_SELECT = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.select\s+(?P<c>%[\w$.-]+),\s*(?P<a>%[\w$.-]+),"
                     r"\s*(?P<b>%[\w$.-]+)\s*:\s*(?:i\d+|index)\s")

_BINARY: dict[str, Callable[[int, int], int | None]] = {
    "addi": lambda a, b: a + b, "subi": lambda a, b: a - b, "muli": lambda a, b: a * b,
    "divsi": lambda a, b: int(a / b) if b else None, "divui": lambda a, b: a // b if b else None,
    "floordivsi": lambda a, b: a // b if b else None, "ceildivsi": lambda a, b: -(-a // b) if b else None,
    "ceildivui": lambda a, b: -(-a // b) if b else None,
    "remsi": lambda a, b: (abs(a) % abs(b)) * (1 if a >= 0 else -1) if b else None,
    "remui": lambda a, b: a % b if b else None,
    "minsi": min, "maxsi": max, "minui": min, "maxui": max,
    "andi": lambda a, b: a & b, "ori": lambda a, b: a | b, "xori": lambda a, b: a ^ b,
    "shli": lambda a, b: a << b, "shrsi": lambda a, b: a >> b, "shrui": lambda a, b: a >> b,
}
PREDICATES: dict[str, Callable[[int, int], bool]] = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "slt": lambda a, b: a < b, "sle": lambda a, b: a <= b,
    "sgt": lambda a, b: a > b, "sge": lambda a, b: a >= b, "ult": lambda a, b: a < b, "ule": lambda a, b: a <= b,
    "ugt": lambda a, b: a > b, "uge": lambda a, b: a >= b,
}
_AXES = {"x": 0, "y": 1, "z": 2}


@dataclass(frozen=True)
class ScalarProgram:
    """The scalar integer slice of a TTGIR (or TTIR) module, in program order.

    Attributes:
        ops: each op as a tuple: (kind, result, operands...), kinds ``const``, ``op``, ``cast``, ``program_id``,
            ``num_programs``, ``addptr``, ``load``, ``cmpi``, ``select``.
        loops: each ``scf.for`` line (1-based) -> its (induction variable, lower bound, upper bound, step).
        args: the integer arguments' names (without ``%``).
        pointers: the integer-pointer arguments' names -> their element width in bits.
    """

    ops: tuple[tuple[str, ...], ...]
    loops: dict[int, tuple[str, str, str, str]]
    args: tuple[str, ...]
    pointers: dict[str, int] = field(default_factory=dict)


@dataclass
class ScalarRun:
    """The scalars of one program id.

    Attributes:
        values: SSA name -> its integer value, for every scalar the launch decides.
        loaded_from: SSA name -> the pointer arguments whose unrecorded contents it depends on (it has no value).
        read_from: SSA name -> the pointer arguments whose recorded contents its value was computed from.
    """

    values: dict[str, int]
    loaded_from: dict[str, frozenset[str]] = field(default_factory=dict)
    read_from: dict[str, frozenset[str]] = field(default_factory=dict)

    def sources(self, *names: str) -> frozenset[str]:
        """The pointer arguments whose recorded contents these values were computed from."""
        return frozenset().union(*(self.read_from.get(n, frozenset()) for n in names))


@lru_cache(maxsize=32)
def parse_scalar_program(text: str) -> ScalarProgram:
    """The scalar integer ops of a module (or of a loop body's lines), its loops' bounds by line, its arguments."""
    ops: list[tuple[str, ...]] = []
    loops: dict[int, tuple[str, str, str, str]] = {}
    args: list[str] = []
    pointers: dict[str, int] = {}
    header_seen = False
    for number, line in enumerate(text.splitlines(), 1):
        if "tt.func" in line and not header_seen:
            header_seen = True
            head = line.split(")", 1)[0] if ") attributes" not in line else line
            args = [m["name"] for m in _ARG.finditer(head)]
            pointers = {m["name"]: int(m["elt"][1:]) for m in _PTR_ARG.finditer(line)}
            continue
        if match := _CONSTANT.match(line):
            ops.append(("const", match["res"], match["value"]))
        elif match := _SCALAR_OP.match(line):
            ops.append(("op", match["res"], match["op"], match["a"], match["b"] or ""))
        elif match := _CAST.match(line):
            ops.append(("cast", match["res"], match["a"]))
        elif match := _PROGRAM.match(line):
            ops.append((match["what"], match["res"], match["axis"]))
        elif match := _ADDPTR.match(line):
            ops.append(("addptr", match["res"], match["p"], match["off"]))
        elif match := _LOAD.match(line):
            ops.append(("load", match["res"], match["p"], match["elt"]))
        elif match := _CMPI.match(line):
            ops.append(("cmpi", match["res"], match["pred"], match["a"], match["b"]))
        elif match := _SELECT.match(line):
            ops.append(("select", match["res"], match["c"], match["a"], match["b"]))
        if match := _FOR.search(line):
            loops[number] = (match["iv"], match["lb"], match["ub"], match["st"])
    return ScalarProgram(tuple(ops), loops, tuple(args), pointers)


def run_program(program: ScalarProgram, env: Mapping[str, int], pid: tuple[int, int, int],
                grid: tuple[int, int, int], data: Mapping[str, Sequence[int]] | None = None) -> ScalarRun:
    """Evaluate the program's scalars in order for one program id; loads read ``data`` (contents by argument)."""
    values = dict(env)
    pointers: dict[str, tuple[str, int]] = {f"%{name}": (name, 0) for name in program.pointers}
    taint: dict[str, frozenset[str]] = {}
    read: dict[str, frozenset[str]] = {}
    contents = data or {}

    def tainted(*names: str) -> frozenset[str]:
        return frozenset().union(*(taint.get(n, frozenset()) for n in names))

    def carry(res: str, *names: str) -> None:  # a known value computed from loaded ones remembers their tensors
        found = frozenset().union(*(read.get(n, frozenset()) for n in names))
        if found:
            read[res] = found

    for op in program.ops:
        kind, res = op[0], op[1]
        if kind == "const":
            values[res] = int(op[2])
        elif kind == "cast":
            if op[2] in values:
                values[res] = values[op[2]]
                carry(res, op[2])
            elif op[2] in taint:
                taint[res] = taint[op[2]]
        elif kind == "program_id":
            values[res] = pid[_AXES[op[2]]]
        elif kind == "num_programs":
            values[res] = grid[_AXES[op[2]]]
        elif kind == "addptr":
            base, offset = pointers.get(op[2]), values.get(op[3])
            if base is not None and offset is not None:
                pointers[res] = (base[0], base[1] + offset)
                carry(res, op[3])
            elif base is not None:
                taint[res] = tainted(op[3])
        elif kind == "load":
            at = pointers.get(op[2])
            found = contents.get(at[0]) if at is not None else None
            if at is not None and found is not None and 0 <= at[1] < len(found):
                values[res] = int(found[at[1]])
                read[res] = read.get(op[2], frozenset()) | {at[0]}
            elif at is not None:  # not recorded, or read past what was recorded: that tensor would decide it
                taint[res] = frozenset({at[0]})
            elif op[2] in taint:
                taint[res] = taint[op[2]]
        elif kind == "cmpi":
            a, b = values.get(op[3]), values.get(op[4])
            if a is not None and b is not None and op[2] in PREDICATES:
                values[res] = int(PREDICATES[op[2]](a, b))
                carry(res, op[3], op[4])
            elif found_taint := tainted(op[3], op[4]):
                taint[res] = found_taint
        elif kind == "select":
            cond = values.get(op[2])
            picked = op[3] if cond else op[4]
            if cond is not None and picked in values:
                values[res] = values[picked]
                carry(res, op[2], picked)
            elif found_taint := tainted(op[2], op[3], op[4]):
                taint[res] = found_taint
        else:
            fn = _BINARY.get(op[2])
            a, b = values.get(op[3]), values.get(op[4]) if op[4] else None
            result = fn(a, b) if fn is not None and a is not None and b is not None else None
            if result is not None:
                values[res] = int(result)
                carry(res, op[3], op[4])
            elif found_taint := tainted(op[3], op[4]):
                taint[res] = found_taint
    return ScalarRun(values, taint, read)
