"""Helpers and a constant the kernel imports from another module of its package."""

import triton
import triton.language as tl

OFFSET = tl.constexpr(3.0)


@triton.jit
def shifted_square(x):
    return x * x + OFFSET
