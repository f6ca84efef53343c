"""A deliberately wrong vector add: its mask drops the last element, so `irscope run` must fail it."""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NAME = "off_by_one_add"
KERNEL = "add_kernel"
DTYPE = "float32"
SIZES = {"n_elements": 4096}
TEST_SIZES = {"n_elements": 1000}
CONFIGS = [{"BLOCK_SIZE": 256, "num_warps": 4}]
TOLERANCE = {"atol": 1e-6, "rtol": 1e-6}


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements - 1
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def make_tensors(sizes: dict[str, int], dtype: Any, new: Any) -> dict[str, Any]:
    n = sizes["n_elements"]
    return {"x": new((n,), dtype, "input"), "y": new((n,), dtype, "input"), "out": new((n,), dtype, "output")}


def kernel_args(t: dict[str, Any], sizes: dict[str, int], config: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    return [t["x"], t["y"], t["out"], sizes["n_elements"]], dict(config)


def grid(sizes: dict[str, int], config: dict[str, Any], sm_count: int | None = None) -> tuple[int, ...]:
    return (triton.cdiv(sizes["n_elements"], config["BLOCK_SIZE"]),)


def reference(t: dict[str, Any]) -> Any:
    return t["x"] + t["y"]
