"""A training graph's joint-graph passes see the GPU offline (inductor_offline.gpu_joint_graph).

AOT autograd traces a training graph on the CPU offline (a CPU-only torch cannot run autograd on fake cuda
tensors), so Inductor's joint-graph passes read CPU tensors. On the H200 (torch 2.11, Hugging Face's Llama, one
training step: benchmarks/program_report/models.py --model llama) the post-grad graph has the rotary embedding's
batch-1 ``bmm`` as ``squeeze`` + ``mm`` (the ``bmm_to_mm`` pass), fused into the rotation's pointwise kernels
(``triton_poi_fused_..._bmm_cat_...``); offline it stayed a bmm and 4 of the step's 36 kernels were others.
"""

from __future__ import annotations

import pytest
import torch
from torch._inductor.fx_passes import joint_graph
from torch.fx.experimental.proxy_tensor import make_fx

from irscope.compile.inductor_offline import gpu_joint_graph


def _ops_after_joint_passes() -> set[str]:
    def freqs(inv_freq: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        return (inv_freq @ positions).cos()

    gm = make_fx(freqs, tracing_mode="fake")(torch.randn(1, 32, 1), torch.randn(1, 1, 512))
    joint_graph.joint_graph_passes(gm)
    return {str(n.target) for n in gm.graph.nodes if n.op == "call_function"}


def test_a_cpu_traced_joint_graph_gets_the_gpus_bmm_to_mm(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "aten.bmm.default" in _ops_after_joint_passes()  # torch's own pass on a CPU graph: not for the GPU
    monkeypatch.setattr(joint_graph, "check_device", joint_graph.check_device)  # restored after the test
    gpu_joint_graph(joint_graph)
    ops = _ops_after_joint_passes()
    assert "aten.bmm.default" not in ops and "aten.mm.default" in ops and "aten.squeeze.dim" in ops
