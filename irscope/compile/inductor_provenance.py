"""Inside an offline ``irscope capture``: where each Inductor kernel came from (its FX nodes, ATen ops, model lines).

Inductor names each Triton kernel in ``TritonScheduling.define_kernel(src_code, node_schedule, kernel)``; the
scheduler nodes it is given hold IR nodes whose ``origins`` are the FX nodes of the post-grad graph they were
lowered from. Each FX node carries the ATen op it was decomposed from (``meta["original_aten"]``) and the stack
trace Dynamo recorded when it traced the model line (``meta["stack_trace"]``; AOT autograd copies a forward
node's trace onto the backward nodes made from it). The model line is the innermost frame outside torch's own
package. Collected only while a graph compiles for the target (``collecting``); reading never fails a compile.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from irscope.model.program_record import Provenance, SourceLine
from irscope.parse.stack_trace import frames, model_line

_STATE = threading.local()
_LAYOUT_OPS = frozenset({"clone", "copy", "copy_", "permute", "transpose", "view", "_unsafe_view", "reshape",
                         "expand", "t", "cat", "constant_pad_nd", "as_strided", "slice", "select", "unsqueeze",
                         "squeeze", "alias", "contiguous"})
NO_TRACE = "the installed torch recorded no stack trace for its FX nodes ({nodes})"
LAYOUT = "Inductor made it to lay out the graph's inputs or outputs ({nodes}), from no model line"


def install(module: Any) -> None:
    """Make ``TritonScheduling.define_kernel`` note each kernel's scheduler nodes while a graph is collected."""
    scheduling = module.TritonScheduling
    real = scheduling.define_kernel
    if getattr(real, "_irscope_offline", False):
        return

    def define_kernel(self: Any, src_code: Any, node_schedule: Any, kernel: Any) -> Any:
        name = real(self, src_code, node_schedule, kernel)
        kernels = getattr(_STATE, "kernels", None)
        if kernels is not None:
            try:
                _note(kernels, str(name), node_schedule)
            except Exception as exc:  # provenance is a note: it never fails the compile
                _STATE.errors.append(f"{name}: {type(exc).__name__}: {exc}")
        return name

    define_kernel._irscope_offline = True  # type: ignore[attr-defined]
    scheduling.define_kernel = define_kernel


@dataclass
class Collected:
    """What one graph's compile noted: each kernel's FX nodes (by kernel name), and what could not be read."""

    kernels: dict[str, list[Any]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


@contextlib.contextmanager
def collecting() -> Iterator[Collected]:
    """Collect, while the block compiles a graph, each kernel's FX nodes."""
    outer = getattr(_STATE, "kernels", None), getattr(_STATE, "errors", None)
    collected = Collected()
    _STATE.kernels, _STATE.errors = collected.kernels, collected.errors
    try:
        yield collected
    finally:
        _STATE.kernels, _STATE.errors = outer


def _scheduler_nodes(node_schedule: Any) -> Iterator[Any]:
    """The scheduler nodes of a kernel's schedule (fused and combo nodes opened; reduction markers skipped)."""
    for item in node_schedule if isinstance(node_schedule, (list, tuple)) else [node_schedule]:
        if isinstance(item, type):  # EnableReduction / DisableReduction markers
            continue
        inner = item.get_nodes() if hasattr(item, "get_nodes") else [item]
        for snode in inner:
            if getattr(snode, "node", None) is not None:
                yield snode


def _note(kernels: dict[str, list[Any]], name: str, node_schedule: Any) -> None:
    """Add the FX nodes behind ``node_schedule`` to kernel ``name``'s (a kernel made twice from one source: both)."""
    found = kernels.setdefault(name, [])
    seen = {id(n) for n in found}
    for snode in _scheduler_nodes(node_schedule):
        for origin in getattr(snode.node, "origins", ()) or ():
            if id(origin) not in seen:
                seen.add(id(origin))
                found.append(origin)


def _graph_order(nodes: list[Any]) -> list[Any]:
    """The nodes in their graph's order (nodes of no graph last, as found)."""
    order: dict[int, int] = {}
    for node in nodes:
        graph = getattr(node, "graph", None)
        if graph is not None and id(graph) not in order:
            for i, other in enumerate(graph.nodes):
                order.setdefault(id(other), i)
    return sorted(nodes, key=lambda n: order.get(id(n), len(order)))


def _aten_name(node: Any) -> str:
    """``aten.native_layer_norm``: the ATen op a post-grad node was decomposed from (its own target if none)."""
    op = node.meta.get("original_aten") if isinstance(getattr(node, "meta", None), dict) else None
    if op is None and getattr(node, "op", "") == "call_function":
        op = node.target
    packet = getattr(op, "overloadpacket", op)
    text = str(packet) if packet is not None else ""
    return text if text.startswith(("aten.", "prims.", "quantized.")) else ""


def _trace_of(node: Any, by_name: dict[str, Any]) -> str:
    """The node's stack trace, else that of the node of its graph it was made from (``meta["from_node"]``)."""
    meta = getattr(node, "meta", None)
    if not isinstance(meta, dict):
        return ""
    trace = meta.get("stack_trace") or getattr(node, "stack_trace", None)
    if isinstance(trace, str) and trace:
        return trace
    todo = list(meta.get("from_node") or [])
    while todo:
        source = todo.pop(0)
        other = by_name.get(str(getattr(source, "name", "")))
        other_trace = getattr(other, "meta", {}).get("stack_trace") if other is not None else None
        if isinstance(other_trace, str) and other_trace:
            return other_trace
        todo.extend(getattr(source, "from_node", None) or [])
    return ""


def provenance(nodes: list[Any], skip: tuple[str, ...] = ()) -> Provenance:
    """A kernel's provenance from its FX nodes: their ATen ops and model lines, distinct, in graph order."""
    ordered = _graph_order(nodes)
    by_name: dict[str, Any] = {}
    for node in ordered:
        for other in getattr(getattr(node, "graph", None), "nodes", ()):
            by_name.setdefault(str(other.name), other)
    aten: list[str] = []
    lines: list[SourceLine] = []
    traced = 0
    inner: SourceLine | None = None  # the innermost frame of a trace that has no model line
    for node in ordered:
        name = _aten_name(node)
        if name and name not in aten:
            aten.append(name)
        trace = _trace_of(node, by_name)
        traced += bool(trace)
        line = model_line(trace, skip) if trace else None
        if line is not None and line not in lines:
            lines.append(line)
        elif line is None and trace and inner is None:
            inner = next(reversed(frames(trace)), None)
    names = tuple(str(getattr(n, "name", "?")) for n in ordered)
    missing = ""
    if not lines:
        listed = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "") or "none"
        ops = {a.split(".", 1)[-1] for a in aten}
        if ops and ops <= _LAYOUT_OPS:
            missing = LAYOUT.format(nodes=listed)
        elif not traced:
            missing = NO_TRACE.format(nodes=listed)
        else:
            where = f"; innermost {inner.file.rsplit('/', 1)[-1]}:{inner.line} in {inner.function}" if inner else ""
            missing = (f"its FX nodes' stack traces ({listed}) hold no frame outside torch's and irscope's packages"
                       f"{where} (Dynamo traced the graph from a frame inside them)")
    return Provenance(aten=tuple(aten), nodes=names, lines=tuple(lines), missing=missing)


def provenance_json(nodes: list[Any]) -> dict[str, Any]:
    """``provenance(nodes)`` as JSON data: model lines outside torch's package and irscope's (its torch stand-in's
    dispatch mode is a frame Dynamo traced through)."""
    import os
    from pathlib import Path

    import torch

    irscope_root = str(Path(__file__).resolve().parents[1])
    return asdict(provenance(nodes, (os.path.dirname(torch.__file__), irscope_root)))
