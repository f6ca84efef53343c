"""A training graph's joint-graph passes see the GPU offline (inductor_offline.gpu_joint_graph).

AOT autograd traces a training graph on the CPU offline (a CPU-only torch cannot run autograd on fake cuda
tensors), so Inductor's joint-graph passes read CPU tensors. On the H200 (torch 2.11, Hugging Face's Llama, one
training step: benchmarks/program_report/models.py --model llama) the post-grad graph has the rotary embedding's
batch-1 ``bmm`` as ``squeeze`` + ``mm`` (the ``bmm_to_mm`` pass), fused into the rotation's pointwise kernels
(``triton_poi_fused_..._bmm_cat_...``); offline it stayed a bmm and 4 of the step's 36 kernels were others.
Torch's own pass runs in a child: it starts tqdm's monitor thread, after which this process would not fork.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import repo_path

_SCRIPT = """
import json, sys, torch
from torch._inductor.fx_passes import joint_graph
from torch.fx.experimental.proxy_tensor import make_fx
if sys.argv[1] == "offline":
    from irscope.compile.inductor_offline import gpu_joint_graph
    gpu_joint_graph(joint_graph)
gm = make_fx(lambda a, b: (a @ b).cos(), tracing_mode="fake")(torch.randn(1, 32, 1), torch.randn(1, 1, 512))
joint_graph.joint_graph_passes(gm)
print(json.dumps(sorted({str(n.target) for n in gm.graph.nodes if n.op == "call_function"})))
"""


def _ops(mode: str) -> set[str]:
    proc = subprocess.run([sys.executable, "-c", _SCRIPT, mode], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": repo_path()})
    assert proc.returncode == 0, proc.stderr[-2000:]
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


@pytest.mark.compile
def test_a_cpu_traced_joint_graph_gets_the_gpus_bmm_to_mm() -> None:
    assert "aten.bmm.default" in _ops("torch")  # torch's own pass on a CPU graph: not for the GPU
    ops = _ops("offline")
    assert "aten.bmm.default" not in ops and "aten.mm.default" in ops and "aten.squeeze.dim" in ops
