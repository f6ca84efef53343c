"""A tutorial-style script: it launches its kernel at module level (no ``main`` guard).

Importing this file runs it again, so a replay of its kernel (``irscope passes``) must compile
the kernel from the recorded source without importing the script. Each run appends one line to
the file named by ``IRSCOPE_TEST_MARKER`` (when set), so a test can count how often it ran.
The kernel calls a ``@triton.jit`` helper that reads a ``tl.constexpr`` module constant.
"""

import os

import torch
import triton
import triton.language as tl

try:
    from triton.language.extra import libdevice
except ImportError:
    libdevice = None

SCALE = tl.constexpr(3.0)
DEVICE = triton.runtime.driver.active.get_active_torch_device()

if os.environ.get("IRSCOPE_TEST_MARKER"):
    with open(os.environ["IRSCOPE_TEST_MARKER"], "a", encoding="utf-8") as marker:
        marker.write("ran\n")


@triton.jit
def _scaled(x):
    return x * SCALE


@triton.autotune(configs=[triton.Config({"BLOCK": 128}, num_warps=2), triton.Config({"BLOCK": 512}, num_warps=4)],
                 key=["n"])
@triton.jit
def scaled_copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, _scaled(tl.load(x_ptr + offs, mask=mask)), mask=mask)


n = 4096
x = torch.randn(n, device=DEVICE)
out = torch.empty_like(x)
scaled_copy_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n)
