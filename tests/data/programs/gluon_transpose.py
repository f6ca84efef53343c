"""Gluon kernels in the style of Triton's Gluon tutorials: the layouts are constexpr arguments.

``transpose_kernel`` reads a tile of a row-major matrix with one blocked layout (threads along the
columns, so reads are coalesced), moves it to a second layout with ``gl.convert_layout`` (threads
along the rows) and writes the transposed tile, so the writes are coalesced too.
``double_rows_kernel`` reads a row with ``gl.CoalescedLayout()``, leaving the layout to the compiler,
and converts it to the layout it was given for the store. ``staged_copy_kernel`` passes a tile through
shared memory laid out as its ``gl.NVMMASharedLayout`` constexpr says.
Run offline: ``irscope capture --target sm90 -- python gluon_transpose.py``.
"""

import sys

import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@gluon.jit
def transpose_kernel(in_ptr, out_ptr, M, N, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr,
                     read_layout: gl.constexpr, write_layout: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    rows = pid_m * BLOCK_M + gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, read_layout))
    cols = pid_n * BLOCK_N + gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, read_layout))
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tile = gl.load(in_ptr + rows[:, None] * N + cols[None, :], mask=mask)
    tile = gl.convert_layout(tile, write_layout)
    out_rows = pid_m * BLOCK_M + gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, write_layout))
    out_cols = pid_n * BLOCK_N + gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, write_layout))
    out_mask = (out_rows[:, None] < M) & (out_cols[None, :] < N)
    gl.store(out_ptr + out_cols[None, :] * M + out_rows[:, None], tile, mask=out_mask)


@gluon.jit
def double_rows_kernel(x_ptr, out_ptr, n_cols, BLOCK: gl.constexpr, layout: gl.constexpr):
    row = gl.program_id(0)
    cols = gl.arange(0, BLOCK, layout=gl.CoalescedLayout())
    x = gl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols)
    y = gl.convert_layout(x, layout) * 2
    out_cols = gl.arange(0, BLOCK, layout=layout)
    gl.store(out_ptr + row * n_cols + out_cols, y, mask=out_cols < n_cols)


@gluon.jit
def staged_copy_kernel(in_ptr, out_ptr, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, layout: gl.constexpr,
                       smem_layout: gl.constexpr):
    rows = gl.program_id(0) * BLOCK_M + gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, layout))
    cols = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, layout))
    offsets = rows[:, None] * BLOCK_N + cols[None, :]
    staged = gl.allocate_shared_memory(gl.float16, [BLOCK_M, BLOCK_N], smem_layout)
    staged.store(gl.load(in_ptr + offsets))
    gl.store(out_ptr + offsets, staged.load(layout))


def transpose(x: torch.Tensor, num_warps: int = 4) -> torch.Tensor:
    """``x.T`` (contiguous) through the Gluon kernel."""
    M, N = x.shape
    out = torch.empty((N, M), device=x.device, dtype=x.dtype)
    read_layout = gl.BlockedLayout([1, 4], [4, 8], [num_warps, 1], [1, 0])
    write_layout = gl.BlockedLayout([4, 1], [8, 4], [1, num_warps], [0, 1])
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    transpose_kernel[grid](x, out, M, N, 64, 64, read_layout, write_layout, num_warps=num_warps)
    return out


def main() -> int:
    x = torch.randn(512, 256, device=DEVICE, dtype=torch.float16)
    transpose(x)
    rows = torch.randn(64, 1024, device=DEVICE)
    doubled = torch.empty_like(rows)
    double_rows_kernel[(64,)](rows, doubled, 1024, 1024, gl.BlockedLayout([1], [32], [4], [0]), num_warps=4)
    copied = torch.empty_like(x)
    smem_layout = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)
    staged_copy_kernel[(512 // 64,)](x, copied, 64, 256, gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0]),
                                     smem_layout, num_warps=4)
    return 0


if __name__ == "__main__":
    sys.exit(main())
