"""A program that launches its own @triton.jit kernels (one plain, one autotuned, one three times) and a
torch.compile'd function, whose Triton kernel Inductor writes: ``irscope report`` covers all of them.

Tensors live on ``triton.runtime.driver.active.get_active_torch_device()``, so the same script runs on a GPU and
under ``irscope capture --target ...`` on a machine without one.
"""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=2), triton.Config({"BLOCK": 1024}, num_warps=4)],
                 key=["n"])
@triton.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * factor, mask=mask)


@triton.jit
def square_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * x, mask=mask)


def gelu_residual(x, w):
    return torch.nn.functional.gelu(x @ w) + x


def main():
    n = 1 << 16
    x = torch.randn(n, device=DEVICE)
    y = torch.randn(n, device=DEVICE)
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    scale_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n, 2.0)
    for _ in range(3):
        square_kernel[(triton.cdiv(n, 512),)](x, out, n, BLOCK=512)
    a = torch.randn(256, 256, device=DEVICE)
    b = torch.randn(256, 256, device=DEVICE)
    torch.compile(gelu_residual)(a, b)


if __name__ == "__main__":
    main()
