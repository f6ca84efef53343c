"""Two ``@triton.autotune`` kernels whose configs differ only in ``num_stages``.

``scale_kernel`` has no loop, so the pipeliner has nothing to do and every config makes the same
TTGIR; ``ksum_kernel`` multiplies tiles in a K-loop, which the pipeliner changes with ``num_stages``.
Run offline: ``irscope capture --target sm90 -- python stages_autotune.py``.
"""

import sys

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=4, num_stages=s) for s in (1, 2, 3, 4)],
                 key=["n"])
@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=4, num_stages=s) for s in (1, 3)], key=["K"])
@triton.jit
def ksum_kernel(a_ptr, b_ptr, c_ptr, K, BLOCK: tl.constexpr):
    rows = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, K, BLOCK):
        cols = k + tl.arange(0, BLOCK)
        a = tl.load(a_ptr + rows[:, None] * K + cols[None, :])
        b = tl.load(b_ptr + cols[:, None] * BLOCK + rows[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rows[:, None] * BLOCK + rows[None, :], acc)


def main() -> int:
    n = 4096
    x = torch.randn(n, device=DEVICE)
    scale_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, torch.empty_like(x), n)
    k = 256
    a = torch.randn(64, k, device=DEVICE, dtype=torch.float16)
    b = torch.randn(k, 64, device=DEVICE, dtype=torch.float16)
    ksum_kernel[(1,)](a, b, torch.empty(64, 64, device=DEVICE), k)
    return 0


if __name__ == "__main__":
    sys.exit(main())
