"""A program that imports a package whose kernel module runs nvidia-smi / rocm-smi at import (FlagGems' way)."""

import sys
from pathlib import Path

import torch
import triton

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "pkgs"))

from probed_kernels.ops import VENDOR, vendor_scale_kernel

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def main() -> int:
    print(f"vendor {VENDOR}")
    x = torch.ones(1024, device=DEVICE)
    vendor_scale_kernel[(4,)](x, 1024, BLOCK=256)
    return 0


if __name__ == "__main__":
    sys.exit(main())
