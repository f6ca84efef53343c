"""A program that picks its launch settings per vendor, as the Triton tutorials do with ``is_hip()``.

On AMD it launches with 32 warps (32 waves x 64 = 2048 work-items, over the 1024 a workgroup may
have on MI300X), on NVIDIA with 4. It prints which branch it took. The kernel also asks
``target_info.is_hip()`` at compile time and stores 2.0 on AMD, 1.0 elsewhere.
"""

import torch
import triton
import triton.language as tl
from triton.language.target_info import is_hip as target_is_hip


def is_hip():
    return triton.runtime.driver.active.get_current_target().backend == "hip"


DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def vendor_fill_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if target_is_hip():  # noqa: SIM108  (a compile-time branch, as kernels write it)
        value = 2.0
    else:
        value = 1.0
    tl.store(out_ptr + offs, tl.full((BLOCK,), value, tl.float32), mask=offs < n)


if __name__ == "__main__":
    n = 4096
    out = torch.empty(n, device=DEVICE)
    warps = 32 if is_hip() else 4
    print(f"backend {triton.runtime.driver.active.get_current_target().backend}, num_warps {warps}")
    vendor_fill_kernel[(triton.cdiv(n, 2048),)](out, n, BLOCK=2048, num_warps=warps)
