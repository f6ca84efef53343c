"""Every op of a TTIR / TTGIR module as printed: results, operands, regions and source location.

The scan follows MLIR's pretty-printer: one op per (logical) line, a region op's line ends with ``{`` and its
regions close on a line starting with ``}`` that carries the op's location (and, for ``scf.for``,
its attributes such as ``{tt.num_stages = 3 : i32}``). Lines it cannot read are recorded, not raised.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable
from dataclasses import dataclass, field

from irscope.parse.mlir_locs import UNKNOWN, Location, LocationTable, parse_location_table, trailing_location
from irscope.parse.mlir_text import WARP_REGION, logical_lines
from irscope.parse.ttgir_ops import unnamed_result_count

__all__ = ["MlirModule", "MlirOp", "parse_module"]

# Example: %accumulator_77:9 = scf.for %accumulator_94 = %c0_i32 to %1 step %c1_i32 iter_args(...) -> (...) {
_OP = re.compile(r'^(?:(?P<results>%[^=]*?)\s*=\s*)?(?P<op>"[^"]+"|[A-Za-z_][\w.]*)(?P<rest>.*)$')
# Example: %a_ptrs_114    or    %accumulator_77#0   (a use of result 0 of a multi-result op)
_SSA = re.compile(r"%[\w$.-]+(?:#\d+)?")
# Example: %accumulator_94 = %c0_i32     (a block argument defined inside an op line: loop variable, iter_args)
_DEF_EQ = re.compile(r"(%[\w$.-]+)\s*=(?!=)")
# Example: %a_ptrs_96 = %a_ptrs_58       (an iter_args binding: the block argument and its initial value)
_BINDING = re.compile(r"(%[\w$.-]+)\s*=\s*(%[\w$.-]+)")
# Example: %a_ptr: !tt.ptr<f16>          (a function or block argument with its type)
_DEF_COLON = re.compile(r"(%[\w$.-]+)\s*:")
# Example: } {tt.num_stages = 3 : i32}   (the attributes a region op prints after its regions)
_CLOSING_ATTRS = re.compile(r"^\}\)?\s*(?P<attrs>\{.*\})")


@dataclass(frozen=True)
class MlirOp:
    """One op of a module.

    Attributes:
        index: position in the module's op list (text order).
        line: 1-based line of the op; for a region op, the line that opens it.
        end_line: the line closing its last region, or ``line`` for ops without regions.
        name: the op name (``tt.load``, ``scf.for``, ``ttng.warp_group_dot``).
        results: SSA names of its results (``%a_47``).
        operands: SSA names it uses, in order, each once; a use of ``%x#1`` counts as ``%x``.
        defines: block arguments it defines (loop variable, ``iter_args``, function arguments).
        bindings: for loops, (block argument, its initial value) pairs: the loop variable and its
            lower bound, each ``iter_args`` entry and its init.
        result_count: how many results the op has (``%x:3 = ...`` names three as ``%x``).
        region: which region of its parent holds it, from 0 (``scf.if``: 0 then, 1 else).
        parent: index of the region op it is nested in, or None at module level.
        depth: how many region ops enclose it.
        location: where it came from.
        text: the op's line without its location (for a region op, with the attributes printed at
            its closing brace appended).
    """

    index: int
    line: int
    end_line: int
    name: str
    results: tuple[str, ...]
    operands: tuple[str, ...]
    defines: tuple[str, ...]
    parent: int | None
    depth: int
    location: Location
    text: str
    bindings: tuple[tuple[str, str], ...] = ()
    result_count: int = 0
    region: int = 0

    @property
    def has_regions(self) -> bool:
        """Whether the op holds regions (loops, ifs, functions, reductions)."""
        return self.end_line != self.line


@dataclass(frozen=True)
class MlirModule:
    """A parsed module.

    Attributes:
        ops: every op, in text order.
        locations: the module's resolved `#loc` aliases.
        problems: what could not be read, one sentence each.
    """

    ops: tuple[MlirOp, ...]
    locations: LocationTable
    problems: tuple[str, ...] = ()
    _definitions: dict[str, list[tuple[int, bool]]] | None = field(default=None, repr=False, compare=False)

    def children(self, index: int) -> list[MlirOp]:
        """The ops directly inside the regions of op ``index``."""
        return [op for op in self.ops if op.parent == index]

    def inside(self, index: int) -> list[MlirOp]:
        """Every op nested, at any depth, inside op ``index``."""
        outer = self.ops[index]
        return [op for op in self.ops[index + 1:] if outer.line < op.line <= outer.end_line]

    def definer(self) -> dict[str, int]:
        """SSA name -> index of the op that first defines it (as a result or block argument).

        Sibling regions may reuse a name (each reduce combine region has its `%arg5`); `source`
        resolves a use through the scopes that enclose it.
        """
        found: dict[str, int] = {}
        for op in self.ops:
            for name in (*op.results, *op.defines):
                found.setdefault(name, op.index)
        return found

    def arguments_feeding(self, names: Iterable[str], arguments: Container[str], through_yields: bool = False,
                          limit: int = 5000) -> list[str]:
        """The function arguments (among ``arguments``) the values ``names`` are computed from, as found.

        Walks the defining ops back; a loop's block argument follows its initial value and, with
        ``through_yields``, also what each ``scf.for`` iteration yields for it. Stops after ``limit`` names.
        """
        definer = self.definer()
        todo = list(names)
        seen: set[str] = set()
        found: list[str] = []
        while todo and len(seen) < limit:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            if name in arguments:
                found.append(name)
                continue
            at = definer.get(name)
            if at is None:
                continue
            op = self.ops[at]
            if name not in op.defines:  # a result: what it is computed from
                todo.extend(op.operands)
                continue
            todo.extend(init for arg, init in op.bindings if arg == name)
            if through_yields and op.name == "scf.for":
                carried = [arg for arg, _ in op.bindings[1:]]
                yields = [child for child in self.children(at) if child.name == "scf.yield"]
                if name in carried and yields and carried.index(name) < len(yields[-1].operands):
                    todo.append(yields[-1].operands[carried.index(name)])
        return found

    def source(self, name: str, user: int) -> int | None:
        """Index of the op whose result or block argument `name` is, as seen from op ``user``."""
        if self._definitions is None:
            table: dict[str, list[tuple[int, bool]]] = {}
            for op in self.ops:
                for result in op.results:
                    table.setdefault(result, []).append((op.index, False))
                for arg in op.defines:
                    table.setdefault(arg, []).append((op.index, True))
            object.__setattr__(self, "_definitions", table)
        enclosing: set[tuple[int, int]] = set()  # (op, which of its regions) around the user
        op = self.ops[user]
        while op.parent is not None:
            enclosing.add((op.parent, op.region))
            op = self.ops[op.parent]
        around = {parent for parent, _ in enclosing}
        best = None
        for index, is_argument in self._definitions.get(name, ()):  # type: ignore[union-attr]
            definer = self.ops[index]
            if is_argument:  # a block argument: seen inside its op
                visible = index in around
            else:  # a result: seen in the region that holds its op (and the regions nested in it)
                visible = definer.parent is None or (definer.parent, definer.region) in enclosing
            before = is_argument or index < user or definer.parent is None  # module-level ops may come later
            if visible and before and (best is None or index > best):
                best = index
        return best


@dataclass
class _Open:
    """An op being read: region ops stay open until their closing brace."""

    line: int
    name: str
    results: tuple[str, ...]
    operands: list[str]
    defines: list[str]
    parent: int | None
    depth: int
    location: Location
    text: str
    end_line: int = 0
    extra: list[str] = field(default_factory=list)
    result_count: int = 0
    region: int = 0
    regions: int = 1  # how many of its regions have been opened so far


_LOOPS = frozenset({"scf.for", "scf.while", "scf.forall", "scf.parallel"})


def _names(results: str) -> tuple[str, ...]:
    """``%a, %b:2`` -> ('%a', '%b')."""
    return tuple(part.strip().split(":")[0] for part in results.split(",") if part.strip().startswith("%"))


def _count(results: str) -> int:
    """``%a, %b:2`` -> 3."""
    total = 0
    for part in results.split(","):
        name, _, count = part.strip().partition(":")
        if name.startswith("%"):
            total += int(count) if count.strip().isdigit() else 1
    return total


def _base(name: str) -> str:
    return name.split("#", 1)[0]


def _uses_and_defs(op: str, rest: str) -> tuple[list[str], list[str]]:
    """SSA names an op line uses and the block arguments it defines."""
    defines: list[str] = []
    if op in ("tt.func", "func.func", "llvm.func"):
        defines = _DEF_COLON.findall(rest)
    elif op in _LOOPS:
        defines = _DEF_EQ.findall(rest)
    uses = [_base(m) for m in _SSA.findall(rest)]
    skip = set(defines)
    return list(dict.fromkeys(u for u in uses if u not in skip)), defines


_PARTITIONS = ".warp_specialize.partitions"


def _open_warp_region(order: list[_Open], stack: list[int], warp: int, number: int, index: str | None, args: str,
                      line: str) -> None:
    """Open the region a `default {` or `partitionN(...) num_warps(K) {` line starts.

    `ttg.warp_specialize` holds its default region and a `ttg.warp_specialize.partitions` op, which
    the printer shows only through its regions; the parser rebuilds that op, as Triton's parser does.
    `nvws.warp_group` prints its own regions the same way.
    """
    owner = order[warp]
    if index is None or not owner.name.endswith(".warp_specialize"):  # `default {`; nvws.warp_group's own regions
        owner.end_line = 0
        owner.regions += 1
        owner.defines.extend(_DEF_COLON.findall(args))
        stack.append(warp)
        return
    partitions = next((i for i in range(len(order) - 1, warp, -1)
                       if order[i].parent == warp and order[i].name.endswith(_PARTITIONS)), None)
    if partitions is None:  # it takes the values the warp op captures, and is the warp op's second region
        order.append(_Open(number, owner.name + ".partitions", (), owner.operands, [], warp, owner.depth + 1,
                           owner.location, line.removesuffix("{").strip(), region=1, regions=0))
        owner.operands = []
        partitions = len(order) - 1
    owner.end_line = 0
    order[partitions].end_line = 0
    order[partitions].regions += 1
    order[partitions].defines.extend(_DEF_COLON.findall(args))
    if not stack or stack[-1] != warp:
        stack.append(warp)
    stack.append(partitions)


def parse_module(text: str) -> MlirModule:
    """Read every op of a TTIR or TTGIR module (or Triton's initial ``.source`` IR)."""
    table = parse_location_table(text)
    order: list[_Open] = []
    stack: list[int] = []
    warp_ops: list[int] = []  # `ttg.warp_specialize` / `nvws.warp_group` ops, whose regions follow their line
    problems: list[str] = list(table.problems)
    for number, line in logical_lines(text):
        if line.startswith("#"):
            continue
        if line.startswith("}"):
            if not stack:
                problems.append(f"line {number}: a closing brace with no open region")
                continue
            if line.endswith("{"):  # `} else {`, `} do {`: the same op's next region
                order[stack[-1]].regions += 1
                continue
            opened = order[stack.pop()]
            opened.end_line = number
            if opened.name.endswith(_PARTITIONS) and opened.parent is not None:  # it closes its op too
                order[opened.parent].end_line = number
                if stack and stack[-1] == opened.parent:
                    stack.pop()
            split = trailing_location(line)
            body = split[0] if split else line
            if split and not opened.location.known:
                opened.location = table.resolve(split[1])
            if body.startswith("})"):
                opened.extra.append(body[2:].strip())
            elif attrs := _CLOSING_ATTRS.match(body):
                opened.extra.append(attrs["attrs"])
            continue
        if line.startswith("^"):  # a block label defines block arguments of the enclosing op
            if stack:
                order[stack[-1]].defines.extend(_DEF_COLON.findall(line))
            continue
        if (region := WARP_REGION.match(line)) and warp_ops:
            _open_warp_region(order, stack, warp_ops[-1], number, region["index"], region["args"] or "", line)
            continue
        split = trailing_location(line)
        body, location = (split[0], table.resolve(split[1])) if split else (line, UNKNOWN)
        match = _OP.match(body)
        if match is None:
            problems.append(f"line {number}: not an op: {line[:80]!r}")
            continue
        name = match["op"].strip('"')
        uses, defines = _uses_and_defs(name, match["rest"])
        opened = _Open(number, name, _names(match["results"] or ""), uses, defines,
                       stack[-1] if stack else None, len(stack), location, body.strip(),
                       result_count=_count(match["results"]) if match["results"] else
                       unnamed_result_count(body, name), region=order[stack[-1]].regions - 1 if stack else 0)
        order.append(opened)
        if name.endswith((".warp_specialize", ".warp_group")) and not line.endswith("{"):
            warp_ops.append(len(order) - 1)
            opened.regions = 0
        if line.endswith("{") and not split:
            stack.append(len(order) - 1)
        else:
            opened.end_line = number
    for index in stack:
        order[index].end_line = order[index].end_line or order[index].line
        problems.append(f"line {order[index].line}: {order[index].name} is never closed")
    ops = tuple(
        MlirOp(index=i, line=o.line, end_line=o.end_line or o.line, name=o.name, results=o.results,
               operands=tuple(o.operands), defines=tuple(dict.fromkeys(o.defines)), parent=o.parent,
               depth=o.depth, location=o.location, text=" ".join([o.text, *o.extra]),
               bindings=tuple(_BINDING.findall(o.text)) if o.name in _LOOPS else (), result_count=o.result_count,
               region=o.region)
        for i, o in enumerate(order)
    )
    return MlirModule(ops=ops, locations=table, problems=tuple(problems))
