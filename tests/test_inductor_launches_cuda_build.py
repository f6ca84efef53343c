"""Offline, the wrapper Inductor generates runs on fake buffers in a torch built with CUDA too (inductor_launches).

The H200's stack (torch 2.11+cu130) on a machine without its GPU: the wrapper's ``empty_strided_cuda`` was torch's
own, which asks the driver ("Found no NVIDIA driver on your system"), so no launch of any graph was recorded and
``irscope report`` modelled none of its kernels. Measured with that torch here; this torch is a CPU build, so the
test makes it say it has CUDA.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")


def test_fake_buffers_replace_the_wrappers_allocator_in_a_cuda_build(monkeypatch: pytest.MonkeyPatch) -> None:
    from irscope.compile import inductor_launches

    guards = torch._C._dynamo.guards
    for name in ("_empty_strided_cuda", "_reinterpret_tensor", "copy_if_misaligned", "assert_alignment"):
        if hasattr(guards, name):
            monkeypatch.setattr(guards, name, getattr(guards, name))  # restored after the test
    monkeypatch.setattr(torch._C, "_has_cuda", True)
    real = guards._empty_strided_cuda
    inductor_launches._fake_buffers()
    assert guards._empty_strided_cuda is not real
    from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode

    with FakeTensorMode():
        buffer = guards._empty_strided_cuda((4, 8), (8, 1), torch.float16)
    assert isinstance(buffer, FakeTensor) and buffer.device.type == "cuda" and buffer.shape == (4, 8)
