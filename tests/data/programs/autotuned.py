"""A program launching one ``@triton.autotune`` kernel with four configs (tile shape, warps, stages).

Run it on a GPU, or under ``irscope capture --target sm90 -- python autotuned.py`` without one:
offline, every config is compiled and recorded as its own capture.
"""

import sys

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()

CONFIGS = [
    triton.Config({"BLOCK_M": 16, "BLOCK_N": 32}, num_warps=1, num_stages=1),
    triton.Config({"BLOCK_M": 32, "BLOCK_N": 64}, num_warps=2, num_stages=2),
    triton.Config({"BLOCK_M": 64, "BLOCK_N": 32}, num_warps=4, num_stages=3),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_warps=8, num_stages=4),
]


@triton.autotune(configs=CONFIGS, key=["M", "N"])
@triton.jit
def tile_scale_kernel(x_ptr, out_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs = rows[:, None] * stride + cols[None, :]
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


def main() -> int:
    m, n = 512, 256
    x = torch.randn(m, n, device=DEVICE)
    out = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(m, meta["BLOCK_M"]), triton.cdiv(n, meta["BLOCK_N"]))  # noqa: E731
    tile_scale_kernel[grid](x, out, m, n, x.stride(0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
