"""A tl.dot on BLOCK x BLOCK tiles: Triton rejects BLOCK 8 (K must be >= 16) and compiles BLOCK 16."""

import triton
import triton.language as tl


@triton.jit
def tiny_dot(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
    b = tl.load(b_ptr + offs[:, None] * BLOCK + offs[None, :])
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], tl.dot(a, b))
