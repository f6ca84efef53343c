"""A kernel calling a helper from another module of the package."""

import triton
import triton.language as tl

from .helpers import shifted_square


@triton.jit
def square_shift_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, shifted_square(tl.load(x_ptr + offs, mask=mask)), mask=mask)
