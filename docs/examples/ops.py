"""A kernel file of yours, as `irscope show docs/examples/ops.py:add_kernel --args ...` reads it (user-kernels.md)."""

import triton
import triton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    tl.store(out + offsets, tl.load(x + offsets, mask=inside) + tl.load(y + offsets, mask=inside), mask=inside)
