"""irscope.testing: the helpers users put in their own suites, run on real captures."""

from __future__ import annotations

import pytest

import irscope
from irscope.testing import assert_layout, assert_no_spills, assert_pass_ran, assert_pipelined, pass_names
from tests.conftest import REPO

DOCS_EXAMPLE = REPO / "docs" / "examples" / "test_pin_compiler.py"

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
    with pytest.raises(AssertionError,
                       match=r"pass 'tritongpu-pipelin' did not run .*did you mean 'tritongpu-pipeline'"):
        assert_pass_ran(cap, "tritongpu-pipelin")
    with pytest.raises(AssertionError, match=r"no nvidia_mma layout with version_major=2; found #mma: version_major=3"):
        assert_layout(cap, kind="nvidia_mma", version_major=2)
    with pytest.raises(AssertionError, match=r"no amd_mfma layout .* layouts are of kind: blocked, .*nvidia_mma"):
        assert_layout(cap, kind="amd_mfma")
    with pytest.raises(AssertionError, match=r"is pipelined with 4 stages; found line \d+: 3 stage\(s\), asked 3"):
        assert_pipelined(cap, stages=4)


def test_a_user_kernel_object_end_to_end(tmp_path):
    """The flow docs/testing.md shows, on the kernel of its example file, with a failure that matters."""
    import importlib.util

    import torch

    spec = importlib.util.spec_from_file_location("pin_compiler_example", DOCS_EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    a = torch.empty(512, 512, dtype=torch.float16)
    options = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "num_warps": 4, "num_stages": 3, "target": "sm80",
               "store": str(tmp_path)}
    cap = irscope.capture(module.scaled_matmul, a, a, a, 512, 512, 512, 512, 512, 512, 0.5, **options)
    assert_layout(cap, kind="nvidia_mma", version=2)
    assert_pipelined(cap, stages=3)
    assert_pass_ran(cap, "tritongpu-pipeline", changed=True)
    assert_no_spills(cap)
    # Every stage reads through the package's face, SASS too (made from the cubin: the store keeps no .sass).
    assert "mma.sync.aligned" in irscope.read_stage(cap, "ptx") and "sass" not in cap.manifest.files
    assert "HMMA" in irscope.read_stage(cap, "sass")
    # Odd strides lose the 16-byte divisibility, the loads become too narrow for async copies,
    # and the loop is no longer pipelined: exactly the regression these helpers exist to catch.
    odd = irscope.capture(module.scaled_matmul, a, a, a, 512, 512, 512, 257, 513, 513, 0.5, **options)
    with pytest.raises(AssertionError, match="is pipelined with 3 stages; found"):
        assert_pipelined(odd, stages=3)
