"""A kernel for the TTGIR corpus only: a bf16 dot, a custom tl.reduce, a cumsum, a transpose, an atomic.

Its shapes make Triton print ops the bundled kernels lack (a generic `"tt.reduce"` / `"tt.scan"` with a
combine region, `tt.trans`, `tt.atomic_rmw`, 3-D blocked layouts, `tt.broadcast` / `tt.expand_dims`).
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NAME = "corpus_mix"
KERNEL = "mix_kernel"
DESCRIPTION = "dot + custom reduce + cumsum + transpose + atomic (corpus only)"
DTYPE = "bfloat16"
SIZES = {"N": 128}
CONFIGS = [{"BLOCK": 64, "num_warps": 4, "num_stages": 2}, {"BLOCK": 128, "num_warps": 8, "num_stages": 3},
           {"BLOCK": 32, "num_warps": 2, "num_stages": 1}]
TOLERANCE = {"atol": 1e-1, "rtol": 1e-1}


@triton.jit
def _max_abs(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))


@triton.jit
def mix_kernel(a_ptr, b_ptr, out_ptr, total_ptr, N, BLOCK: tl.constexpr):
    rows = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + rows[:, None] * N + rows[None, :])
    b = tl.load(b_ptr + rows[:, None] * N + rows[None, :])
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, N, BLOCK):
        acc = tl.dot(a, tl.trans(b), acc)
        a = tl.load(a_ptr + rows[:, None] * N + rows[None, :] + k)
    peak = tl.reduce(acc, 1, _max_abs)
    running = tl.cumsum(peak, 0)
    cube = tl.reshape(acc, (BLOCK, 2, BLOCK // 2))
    halves = tl.sum(cube, 1)
    tl.store(out_ptr + rows[:, None] * BLOCK // 2 + tl.arange(0, BLOCK // 2)[None, :], halves.to(tl.bfloat16))
    tl.atomic_add(total_ptr + rows, running)


def make_tensors(sizes: dict[str, int], dtype: Any, new: Any) -> dict[str, Any]:
    """A and B are N x N bf16, out is N x N/2, total is N fp32."""
    n = sizes["N"]
    return {"a": new((n, n), dtype, "input"), "b": new((n, n), dtype, "input"),
            "out": new((n, n // 2), dtype, "output"), "total": new((n,), "float32", "output")}


def kernel_args(t: dict[str, Any], sizes: dict[str, int], config: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """Positional and keyword arguments of the launch."""
    return [t["a"], t["b"], t["out"], t["total"], sizes["N"]], dict(config)


def grid(sizes: dict[str, int], config: dict[str, Any], sm_count: int | None = None) -> tuple[int, ...]:
    """One program."""
    return (1,)


def reference(t: dict[str, Any]) -> Any:
    """Not checked: the corpus only needs the compiled IR."""
    return t["out"]
