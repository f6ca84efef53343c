"""A helper the kernel imports from a sibling module of the package."""

import triton


@triton.jit
def twice(x):
    return x * 2
