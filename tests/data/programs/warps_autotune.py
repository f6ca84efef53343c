"""An autotuner whose configs differ only in num_warps (Triton's dump folder is named without it).

Written as fla writes its kernels: one ``triton.Config({}, num_warps=w)`` per width.
"""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.autotune(configs=[triton.Config({}, num_warps=w) for w in (1, 2, 4)], key=["n"])
@triton.jit
def warps_scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 3.0, mask=mask)


n = 4096
x = torch.randn(n, device=DEVICE)
out = torch.empty_like(x)
warps_scale_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
