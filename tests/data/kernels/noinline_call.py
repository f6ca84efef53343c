"""A kernel calling a ``noinline`` function: its cubin holds the call and a subroutine after the kernel's code."""

import triton
import triton.language as tl


@triton.jit(noinline=True)
def scale(x, factor):
    return x * factor


@triton.jit
def scaled_copy(src, dst, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(src + offs, mask=mask)
    tl.store(dst + offs, x * scale(factor, 3.0), mask=mask)
