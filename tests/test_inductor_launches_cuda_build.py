"""Offline, the wrapper Inductor generates runs on fake buffers in a torch built with CUDA too (inductor_launches).

The H200's stack (torch 2.11+cu130) on a machine without its GPU: the wrapper's ``empty_strided_cuda`` was torch's
own, which asks the driver ("Found no NVIDIA driver on your system"), so no launch of any graph was recorded and
``irscope report`` modelled none of its kernels. Measured with that torch here; this torch is a CPU build, so the
test makes it say it has CUDA.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")


_CHILD = """
import torch
from irscope.compile import inductor_launches

torch._C._has_cuda = True
guards = torch._C._dynamo.guards
real = guards._empty_strided_cuda
inductor_launches._fake_buffers()
assert guards._empty_strided_cuda is not real
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode

with FakeTensorMode():
    buffer = guards._empty_strided_cuda((4, 8), (8, 1), torch.float16)
print(type(buffer).__name__, buffer.device.type, tuple(buffer.shape))
"""


def test_fake_buffers_replace_the_wrappers_allocator_in_a_cuda_build() -> None:
    """In a fresh process: irscope's torch stand-in, which another test of this process may have installed, would
    keep every tensor on the CPU."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["FakeTensor", "cuda", "(4,", "8)"], out.stdout
