"""A program that loads a package's Triton modules by path, skipping its unbuilt extension (mamba-ssm's way)."""

import os
import sys
import types
from pathlib import Path

import torch
import triton

ROOT = Path(__file__).resolve().parent.parent / "pkgs" / "unbuilt_kernels"
package = types.ModuleType("unbuilt_kernels")
package.__path__ = [str(ROOT)]
sys.modules["unbuilt_kernels"] = package
os.environ.setdefault("UNBUILT_VENDOR", "nvidia")

from unbuilt_kernels.ops import exp_twice_kernel, twice_kernel  # noqa: E402

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def main() -> int:
    n = 2048
    x = torch.randn(n, device=DEVICE)
    out = torch.empty_like(x)
    exp_twice_kernel[(triton.cdiv(n, 512),)](x, out, n, BLOCK=512)
    twice_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
    return 0


if __name__ == "__main__":
    sys.exit(main())
