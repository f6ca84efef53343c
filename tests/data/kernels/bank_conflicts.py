"""Kernels whose shared-memory accesses have known bank behaviour (tests/test_bank_conflicts.py)."""

import triton
import triton.language as tl


@triton.jit
def fma_dot_kernel(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    """A fp32 dot in full precision: Triton multiplies on the CUDA cores and stages A and B in unswizzled shared."""
    rows = tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    a = tl.load(a_ptr + rows * BLOCK + cols)
    b = tl.load(b_ptr + rows * BLOCK + cols)
    c = tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + rows * BLOCK + cols, c)


@triton.jit
def transpose_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    """y = x.T through registers: the layout change goes through shared memory."""
    rows = tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    x = tl.load(x_ptr + rows * BLOCK + cols)
    tl.store(y_ptr + rows * BLOCK + cols, tl.trans(x))


@triton.jit
def fma_dot_bt_kernel(a_ptr, bt_ptr, c_ptr, BLOCK: tl.constexpr):
    """c = a @ bt.T in full precision: B is staged K-contiguous, so threads reading along N hit one bank."""
    rows = tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    a = tl.load(a_ptr + rows * BLOCK + cols)
    bt = tl.load(bt_ptr + rows * BLOCK + cols)
    c = tl.dot(a, tl.trans(bt), input_precision="ieee")
    tl.store(c_ptr + rows * BLOCK + cols, c)


@triton.jit
def fma_dot_bt_wide_kernel(a_ptr, bt_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """c = a @ bt.T with a wide N (16x256x64): every lane of a warp walks N, none repeats another's address."""
    m = tl.arange(0, BM)
    n = tl.arange(0, BN)
    k = tl.arange(0, BK)
    a = tl.load(a_ptr + m[:, None] * BK + k[None, :])
    bt = tl.load(bt_ptr + n[:, None] * BK + k[None, :])
    c = tl.dot(a, tl.trans(bt), input_precision="ieee")
    tl.store(c_ptr + m[:, None] * BN + n[None, :], c)
