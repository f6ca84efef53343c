"""Offline torch.compile graphs whose compile runs real ops on the graph's GPU, and the launches of Inductor's
kernels (issue 26: the graphs not captured, and ``perf`` of an Inductor kernel without ``--grid``)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from irscope.store.store import Store
from tests.conftest import DATA, invoke
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile


@pytest.fixture(scope="module")
def real_ops(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, list]]:
    """One capture of inductor_real_ops.py for sm90: its store, the capture's stderr, its captures by kernel."""
    store = tmp_path_factory.mktemp("real-ops")
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(DATA / "programs" / "inductor_real_ops.py"),
                   store=store)
    assert proc.returncode == 0, proc.stderr
    assert "grown" in proc.stdout and "repeated" in proc.stdout  # the program ran on, eagerly
    found: dict[str, list] = {}
    for capture in Store(store).captures():
        found.setdefault(capture.manifest.kernel, []).append(capture)
    return store, proc.stderr, found


def _launches(capture) -> list[dict]:
    return json.loads((capture.path / capture.manifest.files["launches"]).read_text(encoding="utf-8"))


def test_no_graph_is_left_uncaptured(real_ops) -> None:
    _, stderr, found = real_ops
    assert "NOT captured" not in stderr
    assert set(found) == {"triton_poi_fused_mul_sin_0", "triton_poi_fused_add_clone_relu_transpose_0",
                          "triton_poi_fused_tanh_0", "triton_poi_fused_sin_0"}


def test_a_constant_moved_to_the_gpu_is_computed_on_the_cpu(real_ops) -> None:
    """``torch.tensor([], device=x.device)``: AOT autograd's tracer computed the constant for real on ``cuda``
    (``aten::empty_strided`` has no CUDA kernel in a CPU-only torch). The empty cache vanishes from the cat."""
    _, _, found = real_ops
    for capture in found["triton_poi_fused_mul_sin_0"]:
        assert _launches(capture)[0]["values"] == {"xnumel": 16 * 32}


def test_contiguous_of_a_transposed_fake_gpu_tensor(real_ops) -> None:
    """``x.transpose(0, 1).contiguous()``: the binding selected the CUDA device ("PyTorch is not linked with support
    for cuda devices"); the copy is a 2-D tiled kernel over the transposed shape."""
    _, _, found = real_ops
    (capture,) = found["triton_poi_fused_add_clone_relu_transpose_0"]
    assert _launches(capture)[0]["values"] == {"ynumel": 32, "xnumel": 16}
    assert {"YBLOCK", "XBLOCK"} <= set(capture.manifest.constexprs)


def test_an_unaligned_mm_is_not_timed_offline(real_ops) -> None:
    """K = 63: Inductor's pad_mm timed the padded and unpadded mm on real GPU tensors; offline it does not pad."""
    _, _, found = real_ops
    for capture in found["triton_poi_fused_tanh_0"]:
        ((name, nbytes, role),) = _launches(capture)[0]["tensors"]
        assert (name, nbytes, role) == ("in_out_ptr0", 32 * 64 * 4, "inout")  # the unpadded 32x64 result


def test_each_launch_has_the_grid_inductor_computes_for_its_config(real_ops) -> None:
    """The recorded grid is what Inductor's own grid expression gives for the config's blocks and the numels."""
    from torch._inductor.runtime.triton_heuristics import GridExpr

    _, _, found = real_ops
    for captures in found.values():
        for capture in captures:
            grid_type = re.search(r"'grid_type': '(\w+)'", capture.read("source")).group(1)
            blocks = {k: v for k, v in capture.manifest.constexprs.items() if k.endswith("BLOCK")}
            for launch in _launches(capture):
                expected = GridExpr.from_meta({"grid_type": grid_type}, blocks).eval_slow(launch["values"])
                assert tuple(launch["grid"]) == expected, capture.manifest.key
    assert {tuple(_launches(c)[0]["grid"]) for c in found["triton_poi_fused_tanh_0"]} == {(8, 1, 1), (16, 1, 1)}


def test_a_kernel_launched_twice_in_a_graph_run_counts_both(real_ops) -> None:
    """``sin`` of both mm operands: Inductor writes the kernel once and launches it twice a run of the graph."""
    _, _, found = real_ops
    for capture in found["triton_poi_fused_sin_0"]:
        launches = _launches(capture)
        assert len(launches) == 2 and {n["per_run"] for n in launches} == {2}
    assert all(n["per_run"] == 1 for c in found["triton_poi_fused_tanh_0"] for n in _launches(c))


def test_perf_of_an_inductor_kernel_needs_no_grid(real_ops, tmp_path: Path) -> None:
    store, _, found = real_ops
    capture = found["triton_poi_fused_tanh_0"][0]
    result = invoke("perf", capture.manifest.key, store=store)
    assert result.exit_code == 0, result.output
    grid = "x".join(map(str, _launches(capture)[0]["grid"]))
    assert f"the program's grid {grid}, its one launch" in result.output


def test_hugging_face_llama_is_captured_whole(llama_program) -> None:
    """Real foreign code: transformers' Llama, whose KV cache starts as ``torch.tensor([], device=...)`` and whose
    attention calls ``.transpose(1, 2).contiguous()``; both graphs used to be left uncaptured. It is one graph, as
    Dynamo traces it on a GPU (the stand-in's indexing broke it into 20 graphs, and GPT-2's forward into eager code
    that died: ``fake_indexing``), and its float32 attention
    (``scaled_dot_product_attention``) is the memory-efficient kernel torch picks on an H100 (``sdpa_choice``), not
    Triton's softmax."""
    assert importlib.util.find_spec("transformers") is not None, \
        "transformers is not installed: pip install -e '.[dev]' installs the pinned one"
    store, record = llama_program
    names = {c.manifest.kernel for c in Store(store).captures()}
    assert len(record.graphs) == 1 and any("rsqrt" in n for n in names), names  # RMSNorm
    assert not any("softmax" in n for n in names), names  # no math-fallback attention
    (graph,) = record.graphs
    assert {e.op for e in graph.externs} == {"aten.mm.out", "aten._scaled_dot_product_efficient_attention.default"}
