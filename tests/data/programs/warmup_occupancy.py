"""A program shaped like Triton's fused-softmax tutorial: warmup(), _init_handles(), n_regs and shared size a grid."""

import torch
import triton
import triton.language as tl
from triton.runtime import driver


@triton.jit
def row_softmax_kernel(out_ptr, in_ptr, stride, n_rows, n_cols, BLOCK: tl.constexpr, num_stages: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=num_stages):
        cols = tl.arange(0, BLOCK)
        x = tl.load(in_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
        y = tl.exp(x - tl.max(x, axis=0))
        tl.store(out_ptr + row * stride + cols, y / tl.sum(y, axis=0), mask=cols < n_cols)


device = driver.active.get_active_torch_device()
props = driver.active.utils.get_device_properties(device.index)
x = torch.randn(1823, 781, device=device)
y = torch.empty_like(x)
kernel = row_softmax_kernel.warmup(y, x, x.stride(0), x.shape[0], x.shape[1], BLOCK=1024, num_stages=2,
                                   num_warps=8, grid=(1, ))
kernel._init_handles()
occupancy = props["max_num_regs"] // (kernel.n_regs * props["warpSize"] * 8)
if kernel.metadata.shared:
    occupancy = min(occupancy, props["max_shared_mem"] // kernel.metadata.shared)
programs = min(props["multiprocessor_count"] * occupancy, x.shape[0])
kernel[(programs, 1, 1)](y, x, x.stride(0), x.shape[0], x.shape[1], 1024, 2)
print(f"n_regs {kernel.n_regs} n_spills {kernel.n_spills} threads {kernel.n_max_threads} "
      f"shared {kernel.metadata.shared} programs {programs}")
