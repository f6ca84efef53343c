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

# An SSA value an op reads: a name, or one result of a multi-result op (``%right_22#0``)
_V = r"%[\w$.-]+(?:#\d+)?"
# Example: %num_pid_m_3 = arith.divsi %num_pid_m, %c128_i32 : i32 loc(#loc104)
_SCALAR_OP = re.compile(rf"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.(?P<op>\w+)\s+(?P<a>{_V})(?:\s*,\s*(?P<b>{_V}))?"
                        r"\s*:\s*(?P<type>i\d+|index)\b(?!\s*to)")
# Example: %c63_i32 = arith.constant 63 : i32 loc(#loc1)
_CONSTANT = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.constant\s+(?P<value>-?\d+)\s*:\s*(?:i\d+|index)\b")
# Example: %0 = arith.extsi %K : i32 to i64 loc(#loc3)
_CAST = re.compile(rf"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.(?:extsi|extui|trunci|index_cast)\s+(?P<a>{_V})\s*:\s*i\d+")
# Example: %pid = tt.get_program_id x : i32 loc(#loc58)   /   %row_step = tt.get_num_programs x : i32
_PROGRAM = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*tt\.get_(?P<what>program_id|num_programs)\s+(?P<axis>[xyz])\b")
# Example: %acc:9 = scf.for %k = %c0_i32 to %1 step %c1_i32 iter_args(...)
_FOR = re.compile(r"scf\.for\s+(?P<iv>%[\w$.-]+)\s*=\s*(?P<lb>%[\w$.-]+)\s+to\s+(?P<ub>%[\w$.-]+)"
                  r"\s+step\s+(?P<st>%[\w$.-]+)")
# Example: tt.func public @matmul_kernel(%a_ptr: !tt.ptr<f16> {...} loc("a_ptr"(#loc)), %M: i32 loc("M"(#loc)), ...
_ARG = re.compile(r"%(?P<name>[\w$.-]+):\s*(?:i\d+)\b")
# An argument's SSA name and its location: %right: i32 {tt.divisibility = 16 : i32} loc("right"(#loc154))
_ARG_LOC = re.compile(r"%(?P<name>[\w$.-]+):\s*[^,]*?loc\(\"[\w$.-]+\"\((?P<loc>#loc\d+)\)\)")
# Example: #loc154 = loc("num_seqs"(#loc)): a name given at the function's own location (a parameter's)
_PARAM_LOC = re.compile(r"^(?P<loc>#loc\d+) = loc\(\"(?P<name>[\w$.-]+)\"\(#loc\)\)")
# Example: %seq_lens: !tt.ptr<i32> {tt.divisibility = 16 : i32} loc("seq_lens"(#loc))
_PTR_ARG = re.compile(r"%(?P<name>[\w$.-]+):\s*!tt\.ptr<(?P<elt>i\d+)>")  # i1: a bool tensor
# Example: %seq_len = tt.addptr %seq_lens, %seq : !tt.ptr<i32>, i32 loc(#loc67)
_ADDPTR = re.compile(rf"^\s*(?P<res>%[\w$.-]+)\s*=\s*tt\.addptr\s+(?P<p>%[\w$.-]+)\s*,\s*(?P<off>{_V})\s*:"
                     r"\s*!tt\.ptr<(?P<elt>i\d+)>\s*,\s*i\d+")
# Example: %is_greedy_0 = tt.bitcast %is_greedy : !tt.ptr<i1> -> !tt.ptr<i8> (a bool tensor is loaded as bytes)
_PTR_CAST = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*tt\.bitcast\s+(?P<p>%[\w$.-]+)\s*:\s*!tt\.ptr<(?:i1|i8)>\s*->"
                       r"\s*!tt\.ptr<(?:i1|i8)>")
# Example: %seq_len_5 = tt.load %seq_len : !tt.ptr<i32> loc(#loc68)
#          %n = tt.load %p {cache = 1 : i32, evict = 1 : i32} : !tt.ptr<i64> loc(#loc9)
_LOAD = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*tt\.load\s+(?P<p>%[\w$.-]+)(?P<rest>[^:]*):\s*!tt\.ptr<(?P<elt>i\d+)>"
                   r"\s*(?:loc|$)")
# Example: %16 = arith.cmpi sle, %8, %9 : i32 loc(#loc18)
_CMPI = re.compile(rf"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.cmpi\s+(?P<pred>\w+),\s*(?P<a>{_V}),\s*(?P<b>{_V})"
                   r"\s*:\s*(?:i\d+|index)\s")
# Example: %7 = arith.select %6, %4, %5 : i32 loc(#loc12)
_SELECT = re.compile(rf"^\s*(?P<res>%[\w$.-]+)\s*=\s*arith\.select\s+(?P<c>{_V}),\s*(?P<a>{_V}),\s*(?P<b>{_V})"
                     r"\s*:\s*(?:i\d+|index)\s")
# Example: %right_22:2 = scf.while (%left = %c0_i32, %right_163 = %right) : (i32, i32) -> (i32, i32) {
_WHILE = re.compile(r"^\s*(?P<res>%[\w$.-]+)(?::(?P<n>\d+))?\s*=\s*scf\.while\s*\((?P<inits>[^)]*)\)\s*:"
                    r"\s*\((?P<types>[^)]*)\).*\{\s*$")
# Example: %8 = scf.if %6 -> (i32) {   /   %8:2 = scf.if %6 -> (i32, i32) {
_IF = re.compile(rf"^\s*(?P<res>%[\w$.-]+)(?::(?P<n>\d+))?\s*=\s*scf\.if\s+(?P<c>{_V})\s*->\s*\((?P<types>[^)]*)\)"
                 r"\s*\{\s*$")
# Example: scf.condition(%6) %left, %right_163 : i32, i32 loc(#loc5)   /   scf.yield %8, %7 : i32, i32 loc(#loc17)
_CONDITION = re.compile(rf"^\s*scf\.condition\((?P<c>{_V})\)\s*(?P<args>[^:]*)")
_YIELD = re.compile(r"^\s*scf\.yield\s*(?P<args>[^:]*)")
# Example: ^bb0(%left: i32 loc("left"(#loc6)), %right_163: i32 loc("right"(#loc7))):
_BLOCK_ARG = re.compile(r"(%[\w$.-]+):\s*[\w<>]+")
# The most iterations an scf.while is followed for (a binary search over a batch takes tens)
WHILE_LIMIT = 4096

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


Op = tuple[str, ...]


@dataclass(frozen=True)
class WhileOp:
    """An ``scf.while`` over scalars: its before region computes ``cond`` and passes ``passed`` on (the results,
    once ``cond`` is false), its after region takes them as ``after_args`` and yields the next ``before_args``."""

    results: tuple[str, ...]
    inits: tuple[str, ...]
    before_args: tuple[str, ...]
    before: tuple[Op, ...]
    cond: str
    passed: tuple[str, ...]
    after_args: tuple[str, ...]
    after: tuple[Op, ...]
    yields: tuple[str, ...]


@dataclass(frozen=True)
class IfOp:
    """An ``scf.if`` with scalar results: the region ``cond`` picks runs, its ``scf.yield`` gives the results."""

    results: tuple[str, ...]
    cond: str
    then: tuple[Op, ...]
    then_yields: tuple[str, ...]
    orelse: tuple[Op, ...]
    else_yields: tuple[str, ...]


@dataclass(frozen=True)
class ScalarProgram:
    """The scalar integer slice of a TTGIR (or TTIR) module, in program order.

    Attributes:
        ops: each op as a tuple: (kind, result, operands...), kinds ``const``, ``op``, ``cast``, ``program_id``,
            ``num_programs``, ``addptr``, ``load``, ``cmpi``, ``select``, and ``region`` (its third field indexes
            ``regions``: an ``scf.while`` or an ``scf.if`` with results, after the ops of its regions).
        loops: each ``scf.for`` line (1-based) -> its (induction variable, lower bound, upper bound, step).
        args: the integer arguments' names (without ``%``).
        pointers: the integer-pointer arguments' names -> their element width in bits.
        regions: the ``scf.while`` and ``scf.if`` ops the ``region`` ops name.
        params: an argument's SSA name -> the kernel's parameter name, where they differ (Triton names an argument
            after a later variable holding it: ``right = num_seqs`` makes ``%right`` of ``num_seqs``).
    """

    ops: tuple[Op, ...]
    loops: dict[int, tuple[str, str, str, str]]
    args: tuple[str, ...]
    pointers: dict[str, int] = field(default_factory=dict)
    regions: tuple[WhileOp | IfOp, ...] = ()
    params: dict[str, str] = field(default_factory=dict)

    def env(self, values: Mapping[str, int]) -> dict[str, int]:
        """The integer arguments' SSA values from the launch's values by parameter name."""
        out: dict[str, int] = {}
        for name in self.args:
            param = self.params.get(name, name)
            if name in values or param in values:
                out[f"%{name}"] = int(values[name] if name in values else values[param])
        return out

    def missing(self, values: Mapping[str, int]) -> list[str]:
        """The integer parameters the launch's values do not give."""
        return [self.params.get(n, n) for n in self.args if n not in values and self.params.get(n, n) not in values]


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


def _line_op(line: str) -> Op | None:
    if match := _CONSTANT.match(line):
        return ("const", match["res"], match["value"])
    if match := _SCALAR_OP.match(line):
        return ("op", match["res"], match["op"], match["a"], match["b"] or "")
    if match := _CAST.match(line):
        return ("cast", match["res"], match["a"])
    if match := _PROGRAM.match(line):
        return (match["what"], match["res"], match["axis"])
    if match := _ADDPTR.match(line):
        return ("addptr", match["res"], match["p"], match["off"])
    if match := _LOAD.match(line):
        return ("load", match["res"], match["p"], match["elt"])
    if match := _PTR_CAST.match(line):
        return ("ptrcast", match["res"], match["p"])
    if match := _CMPI.match(line):
        return ("cmpi", match["res"], match["pred"], match["a"], match["b"])
    if match := _SELECT.match(line):
        return ("select", match["res"], match["c"], match["a"], match["b"])
    return None


def _names(text: str) -> tuple[str, ...]:
    return tuple(re.findall(_V, text))


def _results(res: str, count: str | None) -> tuple[str, ...]:
    return tuple(f"{res}#{i}" for i in range(int(count))) if count else (res,)


def _region_parts(lines: list[str], at: int) -> tuple[list[tuple[int, int]], int]:
    """The line spans (exclusive of the braces) of the regions of the op at ``at``, and its closing line: the lines
    at the op's own indentation that start with ``}``."""
    indent = len(lines[at]) - len(lines[at].lstrip())
    parts: list[tuple[int, int]] = []
    begin = at + 1
    for i in range(at + 1, len(lines)):
        line = lines[i]
        if line.lstrip().startswith("}") and len(line) - len(line.lstrip()) == indent:
            parts.append((begin, i))
            if not line.rstrip().endswith("{"):
                return parts, i
            begin = i + 1
    return parts, len(lines) - 1


def _terminator_args(lines: list[str], span: tuple[int, int], pattern: re.Pattern[str]) -> re.Match[str] | None:
    for i in range(span[1] - 1, span[0] - 1, -1):
        if match := pattern.match(lines[i]):
            return match
    return None


def _scalar_ops(lines: list[str], lo: int, hi: int, regions: list[WhileOp | IfOp]) -> tuple[Op, ...]:
    """The scalar ops of lines ``lo``..``hi`` (exclusive), each ``scf.while`` and ``scf.if`` with results as a
    ``region`` op after the ops of its regions."""
    ops: list[Op] = []
    closing: dict[int, Op] = {}
    for i in range(lo, hi):
        line = lines[i]
        if (op := _line_op(line)) is not None:
            ops.append(op)
        elif (w := _WHILE.match(line)) is not None:
            parts, end = _region_parts(lines, i)
            if len(parts) == 2:
                before, after = parts
                cond = _terminator_args(lines, before, _CONDITION)
                yielded = _terminator_args(lines, after, _YIELD)
                head = next((j for j in range(after[0], after[1]) if lines[j].lstrip().startswith("^")), None)
                inits = re.findall(rf"({_V})\s*=\s*({_V})", w["inits"])
                if cond is not None and yielded is not None and head is not None:
                    regions.append(WhileOp(
                        _results(w["res"], w["n"]), tuple(b for _a, b in inits), tuple(a for a, _b in inits),
                        _scalar_ops(lines, before[0], before[1], regions), cond["c"], _names(cond["args"]),
                        tuple(_BLOCK_ARG.findall(lines[head])), _scalar_ops(lines, head + 1, after[1], regions),
                        _names(yielded["args"])))
                    closing[end] = ("region", w["res"], str(len(regions) - 1))
        elif (f := _IF.match(line)) is not None:
            parts, end = _region_parts(lines, i)
            yields = [_terminator_args(lines, part, _YIELD) for part in parts]
            if len(parts) == 2 and all(y is not None for y in yields):
                regions.append(IfOp(_results(f["res"], f["n"]), f["c"],
                                    _scalar_ops(lines, parts[0][0], parts[0][1], regions),
                                    _names(yields[0]["args"]) if yields[0] else (),
                                    _scalar_ops(lines, parts[1][0], parts[1][1], regions),
                                    _names(yields[1]["args"]) if yields[1] else ()))
                closing[end] = ("region", f["res"], str(len(regions) - 1))
        if i in closing:
            ops.append(closing.pop(i))
    return tuple(ops)


def _params(lines: list[str], head: str) -> dict[str, str]:
    """Each argument's parameter name where Triton named its SSA value after another variable: its location is a
    name over a location that names the parameter at the function's own (``loc("right"(#loc154))``, ``#loc154 =
    loc("num_seqs"(#loc))``)."""
    named = {m["loc"]: m["name"] for line in lines if (m := _PARAM_LOC.match(line))}
    return {m["name"]: named[m["loc"]] for m in _ARG_LOC.finditer(head)
            if m["loc"] in named and named[m["loc"]] != m["name"]}


@lru_cache(maxsize=32)
def parse_scalar_program(text: str) -> ScalarProgram:
    """The scalar integer ops of a module (or of a loop body's lines), its loops' bounds by line, its arguments."""
    lines = text.splitlines()
    loops: dict[int, tuple[str, str, str, str]] = {}
    args: list[str] = []
    pointers: dict[str, int] = {}
    params: dict[str, str] = {}
    first = 0
    for number, line in enumerate(lines, 1):
        if "tt.func" in line:
            head = line.split(")", 1)[0] if ") attributes" not in line else line
            args = [m["name"] for m in _ARG.finditer(head)]
            pointers = {m["name"]: int(m["elt"][1:]) for m in _PTR_ARG.finditer(line)}
            params = _params(lines, line)
            first = number
            break
    for number, line in enumerate(lines, 1):
        if match := _FOR.search(line):
            loops[number] = (match["iv"], match["lb"], match["ub"], match["st"])
    regions: list[WhileOp | IfOp] = []
    ops = _scalar_ops(lines, first, len(lines), regions)
    return ScalarProgram(ops, loops, tuple(args), pointers, tuple(regions), params)


def run_program(program: ScalarProgram, env: Mapping[str, int], pid: tuple[int, int, int],
                grid: tuple[int, int, int], data: Mapping[str, Sequence[int]] | None = None) -> ScalarRun:
    """Evaluate the program's scalars in order for one program id; loads read ``data`` (contents by argument)."""
    run = _Interpreter(program, env, pid, grid, data or {})
    run.execute(program.ops)
    return ScalarRun(run.values, run.taint, run.read)


class _Interpreter:
    """One program id's walk: known values, the tensors an unknown one waits on (``taint``), and the recorded
    tensors a known one was computed from (``read``)."""

    def __init__(self, program: ScalarProgram, env: Mapping[str, int], pid: tuple[int, int, int],
                 grid: tuple[int, int, int], contents: Mapping[str, Sequence[int]]) -> None:
        self.program, self.pid, self.grid, self.contents = program, pid, grid, contents
        self.values: dict[str, int] = dict(env)
        self.pointers: dict[str, tuple[str, int]] = {f"%{name}": (program.params.get(name, name), 0)
                                                     for name in program.pointers}
        self.taint: dict[str, frozenset[str]] = {}
        self.read: dict[str, frozenset[str]] = {}

    def tainted(self, *names: str) -> frozenset[str]:
        return frozenset().union(*(self.taint.get(n, frozenset()) for n in names))

    def carry(self, res: str, *names: str) -> None:
        """A known value computed from loaded ones remembers their tensors."""
        found = frozenset().union(*(self.read.get(n, frozenset()) for n in names))
        if found:
            self.read[res] = found

    def bind(self, names: tuple[str, ...], sources: tuple[str, ...], known: list[int | None]) -> None:
        for name, source, value in zip(names, sources, known, strict=False):
            if value is None:
                self.values.pop(name, None)
                self.taint[name] = self.tainted(source) if source else frozenset()
            else:
                self.values[name] = value
                if source:
                    self.carry(name, source)

    def unknown(self, results: tuple[str, ...], *why: str) -> None:
        for name in results:
            self.values.pop(name, None)
            if found := self.tainted(*why):
                self.taint[name] = found

    def execute(self, ops: tuple[Op, ...]) -> None:
        for op in ops:
            self.step(op)

    def branch(self, r: IfOp) -> None:
        cond = self.values.get(r.cond)
        if cond is None:
            self.unknown(r.results, r.cond)
            return
        self.execute(r.then if cond else r.orelse)
        picked = r.then_yields if cond else r.else_yields
        self.bind(r.results, picked, [self.values.get(n) for n in picked])
        for name in r.results:
            self.carry(name, r.cond, *picked)

    def loop(self, r: WhileOp) -> None:
        self.bind(r.before_args, r.inits, [self.values.get(n) for n in r.inits])
        for _ in range(WHILE_LIMIT):
            self.execute(r.before)
            cond = self.values.get(r.cond)
            if cond is None:
                self.unknown(r.results, r.cond, *r.passed)
                return
            passed = [self.values.get(n) for n in r.passed]
            if not cond:
                self.bind(r.results, r.passed, passed)
                for name in r.results:
                    self.carry(name, r.cond)
                return
            self.bind(r.after_args, r.passed, passed)
            self.execute(r.after)
            self.bind(r.before_args, r.yields, [self.values.get(n) for n in r.yields])
        self.unknown(r.results)

    def step(self, op: Op) -> None:
        kind, res = op[0], op[1]
        if kind == "region":
            r = self.program.regions[int(op[2])]
            self.branch(r) if isinstance(r, IfOp) else self.loop(r)
            return
        for table in (self.values, self.taint, self.read, self.pointers):  # a region's op runs on each iteration
            table.pop(res, None)
        if kind == "const":
            self.values[res] = int(op[2])
        elif kind == "program_id":
            self.values[res] = self.pid[_AXES[op[2]]]
        elif kind == "num_programs":
            self.values[res] = self.grid[_AXES[op[2]]]
        elif kind in ("cast", "ptrcast", "addptr", "load"):
            self.memory(kind, res, op)
        else:
            self.arith(kind, res, op)

    def memory(self, kind: str, res: str, op: Op) -> None:
        """Casts, pointer offsets and loads: a load of a recorded tensor reads its contents."""
        if kind == "cast" and op[2] in self.values:
            self.values[res] = self.values[op[2]]
            self.carry(res, op[2])
        elif kind == "ptrcast" and op[2] in self.pointers:  # the same bytes: an i1 tensor's elements are its bytes
            self.pointers[res] = self.pointers[op[2]]
            self.carry(res, op[2])
        elif kind == "addptr" and op[2] in self.pointers:
            base, offset = self.pointers[op[2]], self.values.get(op[3])
            if offset is not None:
                self.pointers[res] = (base[0], base[1] + offset)
                self.carry(res, op[3])
            else:
                self.taint[res] = self.tainted(op[3])
        elif kind == "load" and op[2] in self.pointers:
            at = self.pointers[op[2]]
            found = self.contents.get(at[0])
            if found is not None and 0 <= at[1] < len(found):
                self.values[res] = int(found[at[1]])
                self.read[res] = self.read.get(op[2], frozenset()) | {at[0]}
            else:  # not recorded, or read past what was recorded: that tensor would decide it
                self.taint[res] = frozenset({at[0]})
        elif kind in ("cast", "ptrcast", "load") and op[2] in self.taint:
            self.taint[res] = self.taint[op[2]]

    def arith(self, kind: str, res: str, op: Op) -> None:
        """Comparisons, selects and binary integer ops on known values; an unknown operand passes on its taint."""
        if kind == "cmpi":
            a, b = self.values.get(op[3]), self.values.get(op[4])
            known = a is not None and b is not None and op[2] in PREDICATES
            result = int(PREDICATES[op[2]](a, b)) if known else None  # type: ignore[arg-type]
            operands: tuple[str, ...] = (op[3], op[4])
        elif kind == "select":
            cond = self.values.get(op[2])
            picked = op[3] if cond else op[4]
            result = self.values[picked] if cond is not None and picked in self.values else None
            operands = (op[2], picked) if result is not None else (op[2], op[3], op[4])
        else:
            fn = _BINARY.get(op[2])
            a, b = self.values.get(op[3]), self.values.get(op[4]) if op[4] else None
            value = fn(a, b) if fn is not None and a is not None and b is not None else None
            result = int(value) if value is not None else None
            operands = (op[3], op[4])
        if result is not None:
            self.values[res] = result
            self.carry(res, *operands)
        elif found := self.tainted(*operands):
            self.taint[res] = found
