"""The data flow of a TTGIR function as a graph: ops as nodes, SSA values as edges carrying their layout.

Loops become clusters holding their body; a loop-carried value enters the loop's node and
``scf.yield`` feeds it back, so the software pipeline's structure stays visible. Ops are tagged
with the instruction classes of irscope.analysis.instructions (plus ``alloc`` for shared-memory
allocations and views) so a renderer can highlight conversions, allocations and async copies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from irscope.analysis.instructions import classify
from irscope.parse.mlir_locs import innermost_in
from irscope.parse.mlir_ops import MlirModule, MlirOp, parse_module
from irscope.parse.ttgir_ops import TensorType, parse_types

__all__ = ["FlowCluster", "FlowEdge", "FlowGraph", "FlowNode", "build_flow_graph"]

_HIDDEN = frozenset({"module", "tt.func", "tt.return"})
_LOOPS = frozenset({"scf.for", "scf.while"})
_ALLOC = frozenset({"ttg.local_alloc", "ttg.local_dealloc", "ttg.memdesc_index", "ttg.memdesc_subview",
                    "ttg.memdesc_trans", "ttg.memdesc_reshape"})
# Example: %accumulator_77#0   (a use of one result of a multi-result op)
_USE = re.compile(r"(%[\w$.-]+)(?:#(\d+))?")
# Example: -> (tensor<128x256xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked1>, i32)   (a loop's result types)
_LOOP_TYPES = re.compile(r"->\s*\((?P<types>.*)\)\s*(?::\s*\w+\s*)?\{?\s*$")


@dataclass(frozen=True)
class FlowNode:
    """One op (or function argument) of the graph.

    Attributes:
        id: unique id (``op12``, ``arg_a_ptr``).
        op: the op name, or ``argument``.
        label: what to print: the op, its result shape and layout, the source line.
        kind: ``mma``, ``async_copy``, ``wait``, ``convert``, ``alloc``, ``shared_load``, ``shared_store``,
            ``global_load``, ``global_store``, ``barrier``, ``loop``, ``yield``, ``constant``, ``argument``, or "".
        line: the kernel source line, or None.
        cluster: id of the loop cluster it sits in, or None.
    """

    id: str
    op: str
    label: str
    kind: str
    line: int | None
    cluster: str | None


@dataclass(frozen=True)
class FlowEdge:
    """One SSA value flowing from its definition to a use.

    Attributes:
        source / target: node ids.
        value: the SSA name.
        layout: the value's layout as printed (``#blocked1``, ``#mma``, an inline ``#ttg.dot_op<...>``),
            "" for scalars.
        memory: whether the value is a shared-memory descriptor (memdesc) rather than registers.
        back: whether it feeds a value back to the loop's next iteration (from ``scf.yield``).
    """

    source: str
    target: str
    value: str
    layout: str
    memory: bool = False
    back: bool = False


@dataclass(frozen=True)
class FlowCluster:
    """A loop: the nodes of its body.

    Attributes:
        id: ``loop<op index>``.
        label: ``scf.for, line 74``.
        parent: the enclosing loop's id, or None.
    """

    id: str
    label: str
    parent: str | None


@dataclass(frozen=True)
class FlowGraph:
    """A function's data flow.

    Attributes:
        nodes: every node, in text order.
        edges: every def-use edge.
        clusters: the loops, outermost first.
        layouts: layout alias -> its definition, for a legend.
        problems: what could not be read.
    """

    nodes: tuple[FlowNode, ...]
    edges: tuple[FlowEdge, ...]
    clusters: tuple[FlowCluster, ...]
    layouts: dict[str, str] = field(default_factory=dict)
    problems: tuple[str, ...] = ()


def _kind(op: MlirOp) -> str:
    if op.name in _LOOPS:
        return "loop"
    if op.name in _ALLOC:
        return "alloc"
    if op.name == "scf.yield":
        return "yield"
    if op.name == "arith.constant":
        return "constant"
    return classify(op.name) or ""


def _short(layout: str) -> str:
    """``#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>`` -> ``dot_op(0, #mma)``; aliases unchanged."""
    match = re.match(r"#(?:ttg|triton_gpu)\.dot_op<\{opIdx = (\d+), parent = (#[\w$.-]+)", layout)
    if match:
        return f"dot_op({match.group(1)}, {match.group(2)})"
    match = re.match(r"#(?:ttg|triton_gpu)\.slice<\{dim = (\d+), parent = (#[\w$.-]+)", layout)
    if match:
        return f"slice({match.group(1)}, {match.group(2)})"
    return layout if len(layout) <= 24 else layout[:23] + "…"


def _result_types(op: MlirOp) -> list[TensorType | None]:
    """The types of an op's results, by position, as far as the line shows them (None for scalars)."""
    types = parse_types(op.text)
    if op.name in _LOOPS:
        match = _LOOP_TYPES.search(op.text.split("{tt.", 1)[0])
        if match is None:
            return []
        parts = [p.strip() for p in _split(match["types"])]
        return [next((t for _, t in parse_types(p)), None) for p in parts]
    arrow = op.text.rfind("->")
    after: list[TensorType | None] = [t for start, t in types if start > arrow or arrow < 0]
    if not after:
        return [None] * len(op.results)
    return after[: max(1, len(op.results))]


def _split(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}" and not (ch == ">" and text[i - 1] == "-"):
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _label(op: MlirOp, types: list[TensorType | None], line: int | None) -> str:
    shown = next((t for t in types if t is not None), None)
    parts = [op.name]
    if shown is not None:
        kind = "smem " if shown.kind == "memdesc" else ""
        parts.append(f"{kind}{shown.shape_text}x{shown.element} {_short(shown.encoding)}".strip())
    if line is not None:
        parts.append(f"line {line}")
    return "\n".join(parts)


def build_flow_graph(ttgir: str, kernel_file: str = "", constants: bool = False) -> FlowGraph:
    """The data-flow graph of the module's functions (constants left out unless asked)."""
    module: MlirModule = parse_module(ttgir)
    layouts = {m.group(1): m.group(2) for m in re.finditer(r"^#(?!loc)([\w$.-]+) = (#.*)$", ttgir, re.M)}
    clusters = {op.index: FlowCluster(f"loop{op.index}", "", None) for op in module.ops if op.name in _LOOPS}

    def cluster_of(op: MlirOp) -> str | None:
        parent = op.parent
        while parent is not None:
            if parent in clusters:
                return clusters[parent].id
            parent = module.ops[parent].parent
        return None

    nodes: dict[int, FlowNode] = {}
    result_types: dict[int, list[TensorType | None]] = {}
    for op in module.ops:
        if op.name in _HIDDEN or (op.name == "arith.constant" and not constants):
            continue
        frame = innermost_in(op.location.frames, kernel_file) if kernel_file else None
        line = frame.line if frame else None
        types = _result_types(op)
        result_types[op.index] = types
        nodes[op.index] = FlowNode(f"op{op.index}", op.name, _label(op, types, line), _kind(op), line, cluster_of(op))
        if op.index in clusters:
            where = f", line {line}" if line else ""
            clusters[op.index] = FlowCluster(f"loop{op.index}", f"{op.name}{where}", cluster_of(op))
    args: dict[str, FlowNode] = {}
    edges: list[FlowEdge] = []
    for op in module.ops:
        if op.index not in nodes:
            continue
        target = nodes[op.index].id
        body = op.text.split("=", 1)[1] if op.results else op.text
        if op.name in _LOOPS:
            body = " ".join(init for _, init in op.bindings) + " " + body.split("iter_args", 1)[0]
        seen: set[str] = set()
        for match in _USE.finditer(body):
            name, index = match.group(1), int(match.group(2) or 0)
            if name in seen or name in op.defines:
                continue
            seen.add(name)
            source_index = module.source(name, op.index)
            if source_index is None:
                continue
            source = module.ops[source_index]
            if source.name in ("tt.func", "func.func"):
                node = args.setdefault(name, FlowNode(f"arg_{name[1:]}", "argument", name, "argument", None, None))
                edges.append(FlowEdge(node.id, target, name, ""))
                continue
            if source_index not in nodes:
                continue
            typ = _edge_type(source, name, index, result_types.get(source_index, []))
            edges.append(FlowEdge(nodes[source_index].id, target, name, typ.encoding if typ else "",
                                  memory=bool(typ and typ.kind == "memdesc")))
        if op.name == "scf.yield" and op.parent in clusters:
            edges.append(FlowEdge(target, clusters[op.parent].id.replace("loop", "op"), "next iteration", "",
                                  back=True))
    ordered = sorted(clusters.values(), key=lambda c: int(c.id[4:]))
    return FlowGraph(nodes=(*args.values(), *nodes.values()), edges=tuple(edges), clusters=tuple(ordered),
                     layouts=layouts, problems=module.problems)


def _edge_type(source: MlirOp, name: str, index: int, types: list[TensorType | None]) -> TensorType | None:
    """The type of the value ``name`` (result ``index``) as its defining op prints it."""
    if source.name in _LOOPS and name in source.defines:
        position = [arg for arg, _ in source.bindings].index(name) if name in dict(source.bindings) else -1
        # scf.for's bindings start with the loop variable, which the result types do not list.
        index = position - (1 if source.name == "scf.for" else 0)
        if index < 0:
            return None
    return types[index] if 0 <= index < len(types) else None
