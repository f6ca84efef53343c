"""Graphviz graphs of real captures: the TTGIR data flow, the pass pipeline, with and without ``dot``."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from irscope.analysis.dataflow import build_flow_graph
from irscope.analysis.passes import PassEffect
from irscope.cli import cli
from irscope.views import graph_dot
from irscope.views.graph_dot import PipelineStep, flow_dot, pipeline_dot, pipeline_steps, write_graph

pytestmark = pytest.mark.compile


def loop_line(capture) -> int:
    """The line of the matmul's K-loop in the capture's source."""
    lines = capture.read("source").splitlines()
    return next(i for i, text in enumerate(lines, start=1) if "for k in range" in text)


def test_matmul_sm90_data_flow_has_the_pipeline_nodes_and_layout_edges(captures):
    cap = captures("matmul", "sm90")
    graph = build_flow_graph(cap.read("ttgir"), cap.manifest.kernel_path)
    by_op: dict[str, list[str]] = {}
    for node in graph.nodes:
        by_op.setdefault(node.op, []).append(node.id)
    kinds = {node.op: node.kind for node in graph.nodes}
    assert kinds["ttng.warp_group_dot"] == "mma" and kinds["ttg.async_copy_global_to_local"] == "async_copy"
    assert kinds["ttg.local_alloc"] == "alloc" and kinds["ttg.convert_layout"] == "convert"
    assert kinds["ttg.async_wait"] == "wait" and "arith.constant" not in kinds
    assert len(by_op["ttg.async_copy_global_to_local"]) == 6  # 2 prologue rounds + 1 per iteration, A and B
    (loop,) = graph.clusters
    assert loop.label == f"scf.for, line {loop_line(cap)}" and loop.parent is None
    inside = {n.op for n in graph.nodes if n.cluster == loop.id}
    assert {"ttng.warp_group_dot", "ttg.async_copy_global_to_local", "ttg.async_wait", "scf.yield"} <= inside
    (dot_id,) = by_op["ttng.warp_group_dot"]
    into_dot = [e for e in graph.edges if e.target == dot_id]
    assert sum(e.memory for e in into_dot) == 2  # A and B come from shared memory
    assert any(e.layout == "#mma" for e in into_dot)  # the accumulator, carried by the loop
    assert any(e.source == dot_id and e.layout == "#mma" for e in graph.edges)
    assert any(e.back for e in graph.edges)
    (convert,) = by_op["ttg.convert_layout"]
    assert {e.layout for e in graph.edges if e.target == convert} == {"#mma"}
    assert {e.layout for e in graph.edges if e.source == convert} == {"#blocked"}
    assert any(n.op == "argument" and n.label == "%a_ptr" for n in graph.nodes)
    with_constants = build_flow_graph(cap.read("ttgir"), cap.manifest.kernel_path, constants=True)
    assert len(with_constants.nodes) > len(graph.nodes)


def test_dot_source_highlights_and_clusters(captures):
    cap = captures("matmul", "sm80")
    source = flow_dot(build_flow_graph(cap.read("ttgir"), cap.manifest.kernel_path), "matmul sm80").source
    assert "subgraph cluster_loop" in source and f'label="scf.for, line {loop_line(cap)}"' in source
    assert "fillcolor=\"#ff9896\"" in source  # convert_layout
    assert "fillcolor=\"#ffbb78\"" in source  # async copies
    assert "tt.dot\\n" in source and "dot_op(0, #mma)" in source
    assert "cluster_legend" in source and "#ttg.nvidia_mma&lt;{versionMajor = 2" in source


def test_svg_is_drawn_when_dot_is_installed(captures, tmp_path):
    assert graph_dot.dot_program() is not None, "Graphviz's dot is needed: apt-get install graphviz"
    out = tmp_path / "m.svg"
    result = CliRunner().invoke(cli, ["graph", "matmul", "--target", "sm90", "--out", str(out),
                                      "--store", str(captures.store)], catch_exceptions=False)
    assert result.exit_code == 0 and result.stdout == f"wrote {out}\n"
    svg = out.read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "ttng.warp_group_dot" in svg and f"scf.for, line {loop_line(captures('matmul', 'sm90'))}" in svg


def test_without_dot_the_dot_file_is_written_and_install_is_explained(captures, tmp_path, monkeypatch):
    monkeypatch.setattr(graph_dot, "dot_program", lambda: None)
    out = tmp_path / "m.png"
    result = CliRunner().invoke(cli, ["graph", "matmul", "--target", "sm80", "--out", str(out),
                                      "--store", str(captures.store)])
    assert result.exit_code == 1
    assert not out.exists() and (tmp_path / "m.dot").read_text().startswith("digraph dataflow {")
    assert "apt-get install graphviz" in result.output and f"dot -Tpng {tmp_path / 'm.dot'}" in result.output
    written = write_graph(pipeline_dot([], "empty"), tmp_path / "p.gv")
    assert written.path == tmp_path / "p.gv" and not written.rendered


def test_graph_usage_errors(captures):
    store = ["--store", str(captures.store)]
    for args, needle in ((["--stage", "ptx"], "graph --stage takes ttir or ttgir"),
                         (["--out", "x.jpeg"], "unknown picture format .jpeg")):
        result = CliRunner().invoke(cli, ["graph", "matmul", *args, *store])
        assert result.exit_code == 2 and needle in result.output and "Traceback" not in result.output


def _effect(index: int, stage: str, name: str, status: str, summary: str = "") -> PassEffect:
    return PassEffect(index=index, stage=stage, name=name, pass_class="", options="", ir="mlir", status=status,
                      added=3 if status == "changed" else 0, removed=1 if status == "changed" else 0,
                      summary=summary)


def test_pipeline_graph_folds_unchanged_passes_per_stage():
    rows = [_effect(0, "ttir", "inline", "unchanged"), _effect(1, "ttir", "canonicalize", "changed", "ops arith -18"),
            _effect(2, "ttgir", "tritongpu-coalesce", "changed", "+#blocked1: a \\ b"),
            _effect(3, "ttgir", "cse", "unchanged"), _effect(4, "ttgir", "symbol-dce", "unchanged"),
            _effect(5, "ttgir", "tritongpu-pipeline", "changed", "+4 async copies")]
    steps = pipeline_steps(rows)
    assert steps[0] == PipelineStep("ttir", "inline", False, "", 0, 0) and steps[1].changed
    source = pipeline_dot(steps, "t").source
    assert "subgraph cluster_ttir" in source and "subgraph cluster_ttgir" in source
    assert 'label="2 unchanged passes\\ncse, symbol-dce"' in source
    assert 'label="tritongpu-pipeline\\n+3 -1\\n+4 async copies"' in source
    assert "a \\\\ b" in source  # a backslash in a summary stays a backslash
    assert source.count(" -> ") == 4  # one chain through the five boxes (two of them folded runs)


def test_pipeline_graph_of_a_real_per_pass_dump(captures, tmp_path):
    out = tmp_path / "passes.dot"
    result = CliRunner().invoke(cli, ["graph", "vector_add", "--pipeline", "--target", "sm80", "--out", str(out),
                                      "--store", str(captures.store)], catch_exceptions=False)
    assert result.exit_code == 0
    source = out.read_text()
    for needle in ("cluster_ttir", "cluster_ttgir", "cluster_llir", "tritongpu-coalesce\\n",
                   "convert-triton-gpu-to-llvm\\n", "unchanged pass"):
        assert needle in source, needle
