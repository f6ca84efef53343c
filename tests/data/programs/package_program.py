"""A program whose kernel lives in a package with set-up code (tests/data/pkgs/setup_kernels)."""

import sys

import torch
import triton
from setup_kernels.ops import square_shift_kernel

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def main() -> int:
    n = 2048
    x = torch.randn(n, device=DEVICE)
    out = torch.empty_like(x)
    square_shift_kernel[(triton.cdiv(n, 512),)](x, out, n, BLOCK=512)
    return 0


if __name__ == "__main__":
    sys.exit(main())
