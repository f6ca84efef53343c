"""Constants and helpers the kernels import relatively."""

import triton
import triton.language as tl

SCALE = tl.constexpr(5.0)


@triton.jit
def scaled(x):
    return x * SCALE
