"""A kernel that imports its helper with ``from .consts import ...``."""

import triton
import triton.language as tl

from .consts import scaled


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, scaled(tl.load(x_ptr + offs, mask=mask)), mask=mask)
