"""Element-wise vector addition, the first official Triton tutorial: one program per block of elements."""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NAME = "vector_add"
KERNEL = "add_kernel"
DESCRIPTION = "out = x + y over a 1-D fp32 vector, BLOCK_SIZE elements per program"
DTYPE = "float32"
SIZES = {"n_elements": 98432}
TEST_SIZES = {"n_elements": 98431}
BENCH_SIZES = [{"n_elements": 1048576}, {"n_elements": 16777216}, {"n_elements": 67108864},
               {"n_elements": 268435456}]
# Config 0 is the tutorial's; the others give `irscope bench` wider tiles to choose from.
CONFIGS = [{"BLOCK_SIZE": 1024, "num_warps": 4}, {"BLOCK_SIZE": 2048, "num_warps": 8},
           {"BLOCK_SIZE": 4096, "num_warps": 8}, {"BLOCK_SIZE": 4096, "num_warps": 16}]
TOLERANCE = {"atol": 1e-6, "rtol": 1e-6}
PEER = "x + y (torch)"


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def make_tensors(sizes: dict[str, int], dtype: Any, new: Any) -> dict[str, Any]:
    """The kernel's tensors; ``new(shape, dtype, role)`` makes each (role: 'input' or 'output')."""
    n = sizes["n_elements"]
    return {"x": new((n,), dtype, "input"), "y": new((n,), dtype, "input"), "output": new((n,), dtype, "output")}


def kernel_args(t: dict[str, Any], sizes: dict[str, int], config: dict[str, Any],
                sm_count: int | None = None) -> tuple[list[Any], dict[str, Any]]:
    """Positional and keyword arguments of the launch, exactly as the launcher passes them."""
    return [t["x"], t["y"], t["output"], sizes["n_elements"]], dict(config)


def grid(sizes: dict[str, int], config: dict[str, Any], sm_count: int | None = None) -> tuple[int, ...]:
    """Launch grid: one program per BLOCK_SIZE elements."""
    return (triton.cdiv(sizes["n_elements"], config["BLOCK_SIZE"]),)


def reference(t: dict[str, Any]) -> Any:
    """What the kernel must compute, in torch."""
    return t["x"] + t["y"]


def peer(t: dict[str, Any]) -> Any:
    """PyTorch's own way."""
    import torch

    return torch.add(t["x"], t["y"], out=t["output"])


def work(sizes: dict[str, int], element_bytes: int = 4) -> dict[str, float]:
    """Compulsory DRAM traffic (two reads, one write per element) and arithmetic."""
    n = sizes["n_elements"]
    return {"bytes": float(3 * element_bytes * n), "flops": float(n)}
