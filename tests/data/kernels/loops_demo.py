"""Loops for irscope's loop and source-map tests: one that cannot be pipelined, one without loads.

``loops_kernel`` multiplies a BLOCK x K tile of A by a K x BLOCK tile of B. A's row stride is K,
and K = 100 is not a multiple of 16, so the JIT gives ``stride_am`` no divisibility: every row of
A may start at any 2-byte address, the loads of A are one fp16 (2 bytes) wide, too narrow for
cp.async, and those loads stay in their iteration although the loop asks for 3 stages (B's loads
are pipelined). The second loop has no loads at all; it calls ``halve``, a helper in this file, so
its ops carry a callsite location. The last two loops are nested.
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NAME = "loops_demo"
KERNEL = "loops_kernel"
DESCRIPTION = "an unpipelinable K-loop (unaligned rows) and a loop without loads"
DTYPE = "float16"
SIZES = {"K": 100}
# Config 1 caps registers at 32 per thread (Triton's maxnreg option), so ptxas must spill.
CONFIGS = [{"BLOCK": 64, "BLOCK_K": 32, "num_warps": 4, "num_stages": 3},
           {"BLOCK": 64, "BLOCK_K": 32, "num_warps": 4, "num_stages": 3, "maxnreg": 32}]
TOLERANCE = {"atol": 1e-2, "rtol": 1e-2}


@triton.jit
def halve(x):
    return x * 0.5


@triton.jit
def loops_kernel(a_ptr, b_ptr, c_ptr, K, stride_am, stride_bk, BLOCK: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, BLOCK)
    offs_n = tl.arange(0, BLOCK)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in tl.range(0, K, BLOCK_K, num_stages=3):
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + (k + offs_k)[None, :], mask=(k + offs_k)[None, :] < K)
        b = tl.load(b_ptr + (k + offs_k)[:, None] * stride_bk + offs_n[None, :], mask=(k + offs_k)[:, None] < K)
        acc = tl.dot(a, b, acc)
    for _ in range(2):
        acc = halve(acc)
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, K, BLOCK_K):
        for j in range(i, K):
            total += tl.load(b_ptr + j * stride_bk + offs_n).to(tl.float32)
    acc += total[None, :]
    tl.store(c_ptr + offs_m[:, None] * BLOCK + offs_n[None, :], acc.to(tl.float16))


def make_tensors(sizes: dict[str, int], dtype: Any, new: Any) -> dict[str, Any]:
    """A is 64 x K, B is K x 64, C is 64 x 64."""
    k = sizes["K"]
    return {"a": new((64, k), dtype, "input"), "b": new((k, 64), dtype, "input"), "c": new((64, 64), dtype, "output")}


def kernel_args(t: dict[str, Any], sizes: dict[str, int], config: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """Positional and keyword arguments of the launch."""
    return [t["a"], t["b"], t["c"], sizes["K"], t["a"].stride(0), t["b"].stride(0)], dict(config)


def grid(sizes: dict[str, int], config: dict[str, Any], sm_count: int | None = None) -> tuple[int, ...]:
    """One program."""
    return (1,)


def reference(t: dict[str, Any]) -> Any:
    """A @ B, halved twice, plus for each column the sum over i of B[i:, column] (i = 0, 32, 64, 96)."""
    b = t["b"].float()
    total = sum(b[i:].sum(dim=0) for i in range(0, b.shape[0], 32))
    return ((t["a"].float() @ b) * 0.25 + total[None, :]).to(t["c"].dtype)
