"""A kernel whose @triton.heuristics looks at a tensor's dtype, as many library kernels do."""

import torch
import triton
import triton.language as tl


@triton.heuristics({"IS_FP16": lambda args: args["x_ptr"].dtype == torch.float16,
                    "WIDE": lambda args: args["x_ptr"].dtype in {torch.float32: True}})
@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, IS_FP16: tl.constexpr, WIDE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if IS_FP16:
        x = x * 2
    if WIDE:
        x = x + 1
    tl.store(out_ptr + offs, x, mask=mask)


@triton.jit
def cast_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, compute_type: tl.constexpr):
    """A dtype constexpr, as a MoE kernel's ``compute_type``: the loaded values rounded to that type."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(compute_type)
    tl.store(out_ptr + offs, x.to(out_ptr.dtype.element_ty), mask=mask)
