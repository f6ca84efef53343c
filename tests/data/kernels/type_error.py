"""A kernel Triton refuses to compile: it adds a pointer to a pointer (line 21)."""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NAME = "type_error"
KERNEL = "bad_kernel"
DTYPE = "float32"
SIZES = {"n_elements": 4096}
CONFIGS = [{"BLOCK_SIZE": 256, "num_warps": 4}]


@triton.jit
def bad_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    wrong = x_ptr + out_ptr
    tl.store(out_ptr + offsets, tl.load(wrong + offsets))


def make_tensors(sizes: dict[str, int], dtype: Any, new: Any) -> dict[str, Any]:
    n = sizes["n_elements"]
    return {"x": new((n,), dtype, "input"), "out": new((n,), dtype, "output")}


def kernel_args(t: dict[str, Any], sizes: dict[str, int], config: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    return [t["x"], t["out"], sizes["n_elements"]], dict(config)


def grid(sizes: dict[str, int], config: dict[str, Any], sm_count: int | None = None) -> tuple[int, ...]:
    return (triton.cdiv(sizes["n_elements"], config["BLOCK_SIZE"]),)


def reference(t: dict[str, Any]) -> Any:
    return t["x"]
