"""An example of pinning what Triton does to your kernel, in your own pytest suite.

Run it with `python -m pytest docs/examples/test_pin_compiler.py`: no GPU is needed, irscope
compiles for the target offline. When a Triton upgrade stops pipelining the loop, swaps the
tensor-core layout or starts spilling, these tests fail and say what they found instead.
"""

import pytest
import torch
import triton
import triton.language as tl

import irscope
from irscope.testing import assert_layout, assert_no_spills, assert_pass_ran, assert_pipelined


@triton.jit
def scaled_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, scale,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0) // tl.cdiv(N, BLOCK_N)
    pid_n = tl.program_id(0) % tl.cdiv(N, BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], (acc * scale).to(tl.float16))


def capture(target: str, **options):
    """The kernel as the JIT would compile it for 2048x2048x2048 fp16 inputs (CPU tensors: only
    dtype, shape and 16-byte alignment matter)."""
    a = torch.empty(2048, 2048, dtype=torch.float16)
    return irscope.capture(scaled_matmul, a, a, a, 2048, 2048, 2048, 2048, 2048, 2048, 0.5,
                           BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, target=target, **options)


@pytest.fixture(scope="module")
def hopper():
    return capture("sm90", num_warps=8, num_stages=3)


def test_hopper_uses_wgmma_and_a_three_stage_pipeline(hopper):
    assert_layout(hopper, kind="nvidia_mma", version=3)
    assert_pass_ran(hopper, "tritongpu-pipeline", changed=True)
    assert_pipelined(hopper, stages=3)
    assert_no_spills(hopper)


def test_ampere_uses_mma_v2():
    ampere = capture("sm80", num_warps=4, num_stages=3)
    assert_layout(ampere, kind="nvidia_mma", version=2, instr_shape=(16, 8))
    assert_pipelined(ampere, stages=3)


def test_mi300_uses_mfma():
    mi300 = capture("gfx942", num_warps=8, num_stages=2)
    assert_layout(mi300, kind="amd_mfma", version=3)
