"""Op lines of a TTGIR module with their tensor / memdesc types and resolved source locations."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from irscope.parse.mlir_attrs import AttrParseError, AttrValue, matching_close, parse_attr_body
from irscope.parse.mlir_text import WARP_REGION, logical_lines

__all__ = [
    "ModuleInfo",
    "OpLine",
    "SourceLoc",
    "TensorType",
    "element_bits",
    "parse_locations",
    "parse_module_info",
    "parse_types",
    "scan_ops",
    "unnamed_result_count",
]

# Example: #loc3 = loc("/work/k.py":12:5)
_LOC_DEF = re.compile(r"^\s*#(?P<name>loc\d*)\s*=\s*loc\((?P<body>.*)\)\s*$")
# Example: "/work/k.py":12:5
_FILE_LOC = re.compile(r'^"(?P<file>(?:[^"\\]|\\.)*)":(?P<line>\d+):(?P<col>\d+)')
# Example: "a_ptrs"(#loc25)      (a NameLoc wrapping another location)
_NAME_LOC = re.compile(r'^"(?:[^"\\]|\\.)*"\((?P<inner>.*)\)$')
# Example: callsite(#loc3 at #loc28)
_CALLSITE = re.compile(r"^callsite\((?P<callee>.*) at (?P<caller>.*)\)$")
# Example: fused[#loc1, #loc2]    or    fused<#di>[#loc1, "k.py":3:4]
_FUSED = re.compile(r"^fused(?:<[^>]*>)?\[(?P<items>.*)\]$")
# Example: %12 = tt.load %11, %mask : tensor<128x64x!tt.ptr<f16>, #blocked1> loc(#loc12)
_OP_LINE = re.compile(r"^\s*(?:(?P<results>%[^=]*?)\s*=\s*)?(?P<op>\"?[A-Za-z_][\w.$]*\"?)(?P<rest>.*)$")
# Example: ... loc(#loc12)   or   ... loc("k.py":3:4) at the end of an op line
_TRAILING_LOC = re.compile(r"\sloc\((?P<body>[^()]*(?:\([^()]*\))?[^()]*)\)\s*\{?\s*$")
# Example: tensor<128x64xf16, #blocked1>  /  !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>  /  -> <128x64xf16, ..>
_TYPE_START = re.compile(r"(?P<kind>tensor|memdesc)<|->\s*(?P<bare><)")
# Example: 128x64x!tt.ptr<f16>
_DIMS = re.compile(r"^(?P<dims>(?:\d+x)*)(?P<element>.+)$")
# Example: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", ...} {
_MODULE_ATTRS = re.compile(r"^\s*module\b.*?attributes\s*(?P<attrs>\{.*\})\s*\{\s*$")
# Example: f16, bf16, f32, i1, i32, f8E4M3FN, f8E5M2, i64, f64
_SCALAR_BITS = re.compile(r"^[a-z]*?(?P<bits>\d+)")


@dataclass(frozen=True)
class SourceLoc:
    """A source position a TTGIR location resolves to.

    Attributes:
        file: the source file as printed.
        line: 1-based line.
        col: 1-based column.
    """

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class TensorType:
    """A `tensor<...>` or `memdesc<...>` type as printed on an op line.

    Attributes:
        kind: "tensor" (registers) or "memdesc" (shared or tensor memory).
        shape: dims of the tensor.
        element: element type as printed (`f16`, `!tt.ptr<f16>`, `i1`).
        encoding: the layout as printed: an alias `#blocked1` or an inline attribute; "" if none.
        memory_space: memdesc only: `#smem` / `#ttng.tensor_memory`, else "".
        text: the type as printed.
    """

    kind: str
    shape: tuple[int, ...]
    element: str
    encoding: str
    memory_space: str
    text: str

    @property
    def shape_text(self) -> str:
        """`128x64`."""
        return "x".join(str(s) for s in self.shape)


@dataclass(frozen=True)
class OpLine:
    """One op of a TTGIR module and the tensor types it mentions.

    Attributes:
        line: 1-based line number in the module text.
        op: op name (`tt.load`, `ttg.convert_layout`, `tt.func` for a signature).
        results: SSA names of the results (`%12`), empty for ops without results.
        result_types: tensor/memdesc types of the results (as far as the line shows them).
        operand_types: the other tensor/memdesc types on the line (operands, arguments).
        loc: resolved source location, or None.
        text: the line, stripped.
    """

    line: int
    op: str
    results: tuple[str, ...]
    result_types: tuple[TensorType, ...]
    operand_types: tuple[TensorType, ...]
    loc: SourceLoc | None
    text: str


@dataclass(frozen=True)
class ModuleInfo:
    """Module-level attributes that matter for layouts.

    Attributes:
        num_warps: `ttg.num-warps`, or None.
        threads_per_warp: `ttg.threads-per-warp` (32 on NVIDIA, 64 on CDNA), or None.
        num_ctas: `ttg.num-ctas`, or None.
        target: `ttg.target` such as `cuda:90` or `hip:gfx942`, or "".
    """

    num_warps: int | None
    threads_per_warp: int | None
    num_ctas: int | None
    target: str


def element_bits(element: str) -> int:
    """Bits per element of a printed element type (pointers are 64-bit, i1 counts as 1)."""
    if element.startswith("!tt.ptr") or element == "index":
        return 64
    match = _SCALAR_BITS.match(element)
    return int(match.group("bits")) if match else 32


def split_top_level(text: str) -> list[str]:
    """Split on commas that are not inside brackets (``[{(<``, an ``->`` arrow's ``>`` aside)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<[{(":
            depth += 1
        elif ch in ">]})" and not (ch == ">" and i > 0 and text[i - 1] == "-"):
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _type_at(text: str, kind: str, open_at: int, start: int) -> tuple[TensorType | None, int]:
    """Read the type whose `<` is at `open_at`; return it (None if unreadable) and the end index."""
    try:
        close = matching_close(text, open_at)
    except AttrParseError:
        return None, len(text)
    parts = split_top_level(text[open_at + 1 : close])
    if not parts:
        return None, close + 1
    dims = _DIMS.match(parts[0])
    if dims is None:
        return None, close + 1
    shape = tuple(int(d) for d in dims.group("dims").split("x") if d)
    encoding = parts[1] if len(parts) > 1 and parts[1].startswith("#") else ""
    space = ""
    if kind == "memdesc" and len(parts) > 2 and parts[2].startswith("#"):
        space = parts[2]
    return TensorType(kind, shape, dims.group("element"), encoding, space, text[start : close + 1]), close + 1


def _type_depth(text: str, start: int, end: int, depth: int) -> int:
    """`depth` updated by the `<`/`>` and `[`/`]` of text[start:end] (`->` arrows skipped)."""
    for i in range(start, end):
        ch = text[i]
        if ch in "<[":
            depth += 1
        elif ch == "]" or (ch == ">" and not (i > 0 and text[i - 1] == "-")):
            depth = max(0, depth - 1)
    return depth


def parse_types(text: str) -> list[tuple[int, TensorType]]:
    """Every tensor/memdesc type on a line, with the index where it starts.

    A type nested in another type (the memdescs of `!nvws.aref<[!ttg.memdesc<...>, ...]>`) is part of
    that type, not one of its own.
    """
    found: list[tuple[int, TensorType]] = []
    pos = 0
    depth = 0
    while True:
        match = _TYPE_START.search(text, pos)
        if match is None:
            return found
        depth = _type_depth(text, pos, match.start(), depth)
        if depth:
            pos = match.start() + 1
            continue
        if match.group("kind"):
            kind, open_at, start = match.group("kind"), match.end() - 1, match.start()
            if kind == "memdesc" and text[max(0, start - 5) : start].endswith("."):
                start = text.rfind("!", 0, start)
        else:
            kind, open_at = "memdesc", match.start("bare")
            start = open_at
        typ, pos = _type_at(text, kind, open_at, max(start, 0))
        if typ is not None:
            found.append((start, typ))


def parse_locations(text: str) -> dict[str, SourceLoc | None]:
    """Resolve every `#locN = loc(...)` definition of a module to a file position (or None)."""
    raw: dict[str, str] = {}
    for line in text.splitlines():
        match = _LOC_DEF.match(line)
        if match:
            raw[match.group("name")] = match.group("body").strip()
    resolved: dict[str, SourceLoc | None] = {}

    def resolve(body: str, depth: int = 0) -> SourceLoc | None:
        body = body.strip()
        if depth > 64:
            return None
        if body.startswith("#"):
            name = body[1:]
            if name not in resolved:
                resolved[name] = None  # guards against cycles while resolving
                resolved[name] = resolve(raw.get(name, "unknown"), depth + 1)
            return resolved[name]
        file_loc = _FILE_LOC.match(body)
        if file_loc:
            return SourceLoc(file_loc.group("file"), int(file_loc.group("line")), int(file_loc.group("col")))
        call = _CALLSITE.match(body)
        if call:  # the caller is the kernel's own line; the callee is inside Triton's library
            return resolve(call.group("caller"), depth + 1) or resolve(call.group("callee"), depth + 1)
        named = _NAME_LOC.match(body)
        if named:
            return resolve(named.group("inner"), depth + 1)
        fused = _FUSED.match(body)
        if fused:
            for item in split_top_level(fused.group("items")):
                found = resolve(item, depth + 1)
                if found:
                    return found
        return None

    for name in raw:
        resolve("#" + name)
    return resolved


def _int_attr(params: dict[str, AttrValue], suffix: str) -> int | None:
    """`ttg.<suffix>` (or the older `triton_gpu.<suffix>`) as an int, if present."""
    for prefix in ("ttg.", "triton_gpu."):
        value = params.get(prefix + suffix)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def parse_module_info(text: str) -> ModuleInfo:
    """Read num-warps, threads-per-warp, num-ctas and target from the `module attributes` line."""
    for _, line in logical_lines(text):
        match = _MODULE_ATTRS.match(line)
        if not match:
            continue
        try:
            params, _ = parse_attr_body(match.group("attrs"))
        except AttrParseError:
            break
        target = params.get("ttg.target", params.get("triton_gpu.target", ""))
        return ModuleInfo(
            num_warps=_int_attr(params, "num-warps"),
            threads_per_warp=_int_attr(params, "threads-per-warp"),
            num_ctas=_int_attr(params, "num-ctas"),
            target=target if isinstance(target, str) else "",
        )
    return ModuleInfo(None, None, None, "")


def _result_names(results: str) -> tuple[str, ...]:
    """`%a, %b:2` -> ('%a', '%b')."""
    return tuple(part.strip().split(":")[0] for part in results.split(",") if part.strip())


# Ops whose type after `->` is an operand they write, not a result (Triton prints their result, a token
# or nothing, without a type). Checked against Triton's own parser by tests/test_ops_oracle.py.
_ARROW_NAMES_OPERAND = frozenset({
    "ttg.async_copy_global_to_local", "triton_gpu.async_copy_global_to_local",
    "ttg.local_store", "triton_gpu.local_store",
    "amdg.buffer_load_to_local", "amdgpu.buffer_load_to_local",
    "amdg.buffer_store", "amdgpu.buffer_store",  # amdg.buffer_store %v, %base[%offsets] : !tt.ptr<f16> -> tensor<..>
    # ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %true : !tt.tensordesc<..>, !ttg.memdesc<..> -> ..
    "ttng.async_tma_copy_global_to_local", "triton_nvidia_gpu.async_tma_copy_global_to_local",
    # %tok = ttng.tmem_store %v, %tmem[%t], %true : tensor<..> -> !ttg.memdesc<..>
    "ttng.tmem_store", "triton_nvidia_gpu.tmem_store",
})
# Ops printed without `->` whose result type is not simply the one type they print (Triton infers it
# from their operands): which printed type it follows, or how it is derived. Checked the same way.
_RESULT_RULES = {
    "tt.addptr": "first",  # %p = tt.addptr %ptrs, %offsets : tensor<..x!tt.ptr<f16>>, tensor<..xi32>
    "arith.select": "last",  # %v = arith.select %mask, %a, %b : tensor<..xi1>, tensor<..xf32>
    "arith.cmpi": "i1",  # %m = arith.cmpi slt, %a, %b : tensor<..xi32>   (the result is i1)
    "arith.cmpf": "i1",
    "tt.load": "pointee",  # %x = tt.load %ptrs : tensor<..x!tt.ptr<f16>>   (the result is f16)
    # %tok = ttng.tc_gen5_mma %a, %b, %acc[%t], %true, %true : !ttg.memdesc<..>, !ttg.memdesc<..>, !ttg.memdesc<..>
    "ttng.tc_gen5_mma": "token", "triton_nvidia_gpu.tc_gen5_mma": "token",  # (the result is a token)
}
# Function-like ops: the types on their line belong to their arguments and declared results.
_FUNCTIONS = frozenset({"tt.func", "func.func", "llvm.func"})


def _result_start(line: str, op: str, named: bool) -> int:
    """Index from which the types on an op line are its results; -1: none are; 0: all are.

    `%r = op %a : A -> B` and `%r = op %a : A to B` put the results after the arrow or `to`; an op whose
    results are unnamed (`ttg.local_load %0 : A -> B`) still has the results after the arrow.
    """
    if op in _FUNCTIONS:
        return -1
    colon = _first_top_level(line, " : ")
    to = _first_top_level(line, " to ", colon) if colon >= 0 else -1
    if to >= 0:
        return to
    arrow = _last_top_level_arrow(line)
    if op in _ARROW_NAMES_OPERAND:
        return -1
    if arrow >= 0:
        return arrow
    return 0 if named else -1


def unnamed_result_count(line: str, op: str) -> int:
    """How many results an op line printed without `%x =` names has (`ttg.local_load %0 : A -> B`: 1)."""
    if op in _FUNCTIONS or op in _ARROW_NAMES_OPERAND:
        return 0
    split = _result_start(line, op, named=False)
    if split < 0:
        return 0
    tail = _TRAILING_LOC.sub("", line[split:]).strip()
    tail = tail[2:] if tail.startswith("->") else tail[3:]  # past `->` or ` to`
    tail = tail.strip().removesuffix("{").strip()
    if tail.startswith("(") and tail.endswith(")"):
        tail = tail[1:-1]
    return len(split_top_level(tail))


def _derived_result(rule: str, types: list[TensorType]) -> TensorType | None:
    """The result type an op with a `_RESULT_RULES` entry has, from the types it prints."""
    if not types or rule == "token":
        return None
    if rule == "first":
        return types[0]
    if rule == "last":
        return types[-1]
    base = types[0]
    if rule == "i1":
        element = "i1"
    elif base.element.startswith("!tt.ptr<") and base.element.endswith(">"):
        element = base.element[len("!tt.ptr<"):-1].split(",")[0].strip()
    else:
        return None
    dims = "".join(f"{d}x" for d in base.shape)
    encoding = f", {base.encoding}" if base.encoding else ""
    return replace(base, element=element, text=f"{base.kind}<{dims}{element}{encoding}>")


def scan_ops(text: str, first_line: int = 1) -> list[OpLine]:
    """Every op line that mentions a tensor or memdesc type, in text order.

    Ops broken over several lines are read whole (see irscope.parse.mlir_text.logical_lines). Line
    numbers count from `first_line` (pass the module's position when it is part of a larger file).
    """
    locs = parse_locations(text)
    ops: list[OpLine] = []
    pending: list[tuple[int, str, tuple[str, ...]]] = []  # generic ops whose types follow their region
    for number, line in logical_lines(text):
        number += first_line - 1
        if line.startswith(("#", "//")):
            continue
        closing_region = line.startswith("})")
        if not closing_region and line.endswith("({"):
            match = _OP_LINE.match(line)
            if match:
                pending.append((number, match.group("op").strip('"'), _result_names(match.group("results") or "")))
            continue
        types = parse_types(line)
        op_line = number
        if closing_region and pending:
            op_line, op, results = pending.pop()
        else:
            match = _OP_LINE.match(line)
            if match is None or line.startswith(("^", "}")) or WARP_REGION.match(line):
                if not types:
                    continue
                op, results = ("region" if line.startswith("}") else "block-argument"), ()
            else:
                op, results = match.group("op").strip('"'), _result_names(match.group("results") or "")
        if not types:
            continue
        loc_match = _TRAILING_LOC.search(line)
        loc = None
        if loc_match:
            body = loc_match.group("body").strip()
            loc = locs.get(body[1:]) if body.startswith("#") else _direct_loc(body)
        if op in ("block-argument", "region"):
            split = -1
        else:
            split = _result_start("  " + line[2:] if closing_region else line, op, bool(results))
        result_types: list[TensorType] = []
        operand_types: list[TensorType] = []
        for start, typ in types:
            (result_types if split >= 0 and start >= split else operand_types).append(typ)
        rule = _RESULT_RULES.get(op)
        if rule and split == 0:  # the printed types are the operands'; the result follows from them
            derived = _derived_result(rule, result_types)
            operand_types, result_types = result_types, [derived] if derived else []
        ops.append(OpLine(op_line, op, results, tuple(result_types), tuple(operand_types), loc, line))
    return ops


def _first_top_level(line: str, needle: str, start: int = 0) -> int:
    """Index of the first `needle` at bracket depth 0 at or after `start`, or -1."""
    depth = 0
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == '"':
            end = line.find('"', i + 1)
            while end > 0 and line[end - 1] == "\\":
                end = line.find('"', end + 1)
            i = len(line) if end < 0 else end + 1
            continue
        if ch == "-" and line.startswith("->", i):
            i += 2
            continue
        if depth == 0 and i >= start and line.startswith(needle, i):
            return i
        if ch in "<[{(":
            depth += 1
        elif ch in ">]})":
            depth -= 1
        i += 1
    return -1


def _direct_loc(body: str) -> SourceLoc | None:
    match = _FILE_LOC.match(body)
    if match is None:
        return None
    return SourceLoc(match.group("file"), int(match.group("line")), int(match.group("col")))


def _last_top_level_arrow(line: str) -> int:
    """Index of the last `->` outside brackets (the result-type arrow), or -1."""
    depth, last = 0, -1
    for i, ch in enumerate(line):
        if ch == "-" and line.startswith("->", i):
            if depth == 0:
                last = i
            continue
        if ch in "<[{(":
            depth += 1
        elif ch in ">]})" and not (ch == ">" and i > 0 and line[i - 1] == "-"):
            depth -= 1
    return last
