"""irscope.testing: the helpers users put in their own suites, run on real captures."""

from __future__ import annotations

import pytest

import irscope
from irscope.testing import assert_layout, assert_no_spills, assert_pass_ran, assert_pipelined, pass_names
from tests.conftest import DATA

pytestmark = pytest.mark.compile


def test_helpers_pass_on_the_tutorial_matmul(captures):
    cap = captures("matmul", "sm90")
    assert_pass_ran(cap, "tritongpu-pipeline", changed=True)
    assert_pass_ran(cap, "tritongpu-accelerate-matmul")
    assert_layout(cap, kind="nvidia_mma", version=3, instr_shape=(16, 256, 16), warps_per_cta=[8, 1])
    assert_layout(cap, kind="blocked", size_per_thread=(1, 8), threads_per_warp=(4, 8))
    assert_pipelined(cap, stages=3)
    assert_no_spills(cap)
    names = pass_names(cap)
    assert names.index("tritongpu-coalesce") < names.index("tritongpu-accelerate-matmul") < \
        names.index("tritongpu-pipeline") < names.index("convert-triton-gpu-to-llvm")


def test_failures_say_what_was_found(captures):
    cap = captures("matmul", "sm90")
    with pytest.raises(AssertionError, match=r"pass 'tritongpu-pipelin' did not run .*did you mean 'tritongpu-pipeline'"):
        assert_pass_ran(cap, "tritongpu-pipelin")
    with pytest.raises(AssertionError, match=r"no nvidia_mma layout with version_major=2; found #mma: version_major=3"):
        assert_layout(cap, kind="nvidia_mma", version_major=2)
    with pytest.raises(AssertionError, match=r"no amd_mfma layout .* layouts are of kind: blocked, .*nvidia_mma"):
        assert_layout(cap, kind="amd_mfma")
    with pytest.raises(AssertionError, match=r"is pipelined with 4 stages; found line \d+: 3 stage\(s\), asked 3"):
        assert_pipelined(cap, stages=4)


def test_a_user_kernel_object_end_to_end(tmp_path):
    """The flow docs/testing.md shows: a kernel object, example tensors, all four helpers."""
    import importlib.util

    import torch

    spec = importlib.util.spec_from_file_location("example_user_kernels", DATA / "user_tests" / "user_kernels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    a = torch.empty(512, 256, dtype=torch.float16)
    b = torch.empty(256, 512, dtype=torch.float16)
    c = torch.empty(512, 512, dtype=torch.float16)
    cap = irscope.capture(module.small_matmul, a, b, c, 512, 512, 256, a.stride(0), b.stride(0), c.stride(0),
                          BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=4, num_stages=3, target="sm80",
                          store=str(tmp_path))
    assert_layout(cap, kind="nvidia_mma", version=2)
    assert_pipelined(cap, stages=3)
    assert_pass_ran(cap, "tritongpu-pipeline", changed=True)
    assert_no_spills(cap)
    # A kernel with odd strides loses the 16-byte divisibility and so its async copies.
    odd = irscope.capture(module.small_matmul, a, b, c, 512, 512, 256, 257, 513, 513, BLOCK_M=128, BLOCK_N=128,
                          BLOCK_K=64, num_warps=4, num_stages=3, target="sm80", store=str(tmp_path))
    with pytest.raises(AssertionError, match="is pipelined with 3 stages; found"):
        assert_pipelined(odd, stages=3)
