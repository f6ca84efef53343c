"""A kernel module that asks the GPU at import time and picks a math function with an ``if`` (as Liger and fla do)."""

import os

import torch
import triton
import triton.language as tl

from unbuilt_kernels.helpers import twice

if os.environ.get("UNBUILT_VENDOR") != "nvidia":  # set by the program, as flag-gems' GEMS_VENDOR is
    raise RuntimeError("no vendor detected")
SM_COUNT = torch.cuda.get_device_properties(0).multi_processor_count  # needs the device at import time

if hasattr(tl, "exp2"):  # noqa: SIM108  (an if statement, as the libraries write it)
    fast_exp = tl.exp2
else:  # pragma: no cover
    fast_exp = tl.exp


@triton.jit
def exp_twice_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, twice(fast_exp(tl.load(x_ptr + offs, mask=mask))), mask=mask)


@triton.jit
def twice_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, twice(tl.load(x_ptr + offs, mask=mask)), mask=mask)
