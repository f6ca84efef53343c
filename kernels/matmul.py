"""Tiled matrix multiplication, the third official Triton tutorial.

C = A @ B for fp16 A (M x K) and B (K x N), accumulated in fp32 and stored as fp16. Programs are
ordered in groups of GROUP_SIZE_M rows of tiles so that neighbouring programs reuse the same
A and B tiles from L2. The K-loop is what Triton software-pipelines (cp.async on Ampere, TMA-free
async copies + wgmma on Hopper) and what turns tl.dot into tensor-core instructions.
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NAME = "matmul"
KERNEL = "matmul_kernel"
DESCRIPTION = "fp16 C = A @ B with fp32 accumulation, grouped tile order for L2 reuse"
DTYPE = "float16"
SIZES = {"M": 4096, "N": 4096, "K": 4096}
TEST_SIZES = {"M": 257, "N": 301, "K": 193}
BENCH_SIZES = [{"M": 4096, "N": 4096, "K": 4096}, {"M": 8192, "N": 8192, "K": 8192}]
TOLERANCE = {"atol": 1e-2, "rtol": 1e-2}
PEER = "torch.matmul (cuBLAS)"


# The autotuning space of the tutorial, per backend (tile sizes, pipeline depth, warps), as plain data
# so that irscope can list configs without importing Triton.
CONFIGS = {
    "cuda": [
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "num_stages": 3, "num_warps": 8},
        {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8, "num_stages": 4, "num_warps": 4},
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8, "num_stages": 4, "num_warps": 4},
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8, "num_stages": 4, "num_warps": 4},
        {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8, "num_stages": 4, "num_warps": 4},
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8, "num_stages": 4, "num_warps": 4},
        {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8, "num_stages": 5, "num_warps": 2},
        {"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8, "num_stages": 5, "num_warps": 2},
    ],
    "hip": [
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 16, "GROUP_SIZE_M": 1, "waves_per_eu": 2, "num_stages": 2, "num_warps": 4},
        {"BLOCK_SIZE_M": 256, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 16, "GROUP_SIZE_M": 4, "waves_per_eu": 2, "num_stages": 2, "num_warps": 8},
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 1, "waves_per_eu": 2, "num_stages": 2, "num_warps": 8},
        {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8, "waves_per_eu": 3, "num_stages": 2, "num_warps": 4},
        {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 1, "waves_per_eu": 8, "num_stages": 2, "num_warps": 4},
    ],
}


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr, ACTIVATION: tl.constexpr):
    # Map the program id to the tile of C it computes, in grouped order.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    # Pointers to the first K-tiles of A and B; rows past M and columns past N wrap around.
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    # The K-loop: accumulate BLOCK_SIZE_M x BLOCK_SIZE_N in fp32.
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    if ACTIVATION == "leaky_relu":
        accumulator = leaky_relu(accumulator)
    c = accumulator.to(tl.float16)

    # Write back the tile, masked at the edges of C.
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


def make_tensors(sizes: dict[str, int], dtype: Any, new: Any) -> dict[str, Any]:
    """The kernel's tensors; ``new(shape, dtype, role)`` makes each (role: 'input' or 'output')."""
    m, n, k = sizes["M"], sizes["N"], sizes["K"]
    return {"a": new((m, k), dtype, "input"), "b": new((k, n), dtype, "input"), "c": new((m, n), dtype, "output")}


def kernel_args(t: dict[str, Any], sizes: dict[str, int], config: dict[str, Any],
                sm_count: int | None = None) -> tuple[list[Any], dict[str, Any]]:
    """Positional and keyword arguments of the launch, exactly as the launcher passes them."""
    a, b, c = t["a"], t["b"], t["c"]
    args = [a, b, c, sizes["M"], sizes["N"], sizes["K"],
            a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1)]
    return args, {**config, "ACTIVATION": ""}


def grid(sizes: dict[str, int], config: dict[str, Any], sm_count: int | None = None) -> tuple[int, ...]:
    """One program per BLOCK_SIZE_M x BLOCK_SIZE_N tile of C."""
    return (triton.cdiv(sizes["M"], config["BLOCK_SIZE_M"]) * triton.cdiv(sizes["N"], config["BLOCK_SIZE_N"]),)


def reference(t: dict[str, Any]) -> Any:
    """What the kernel must compute, in torch (fp32 product rounded to fp16)."""
    return (t["a"].float() @ t["b"].float()).to(t["c"].dtype)


def peer(t: dict[str, Any]) -> Any:
    """PyTorch's own way: cuBLAS."""
    import torch

    return torch.matmul(t["a"], t["b"], out=t["c"])


def work(sizes: dict[str, int], element_bytes: int = 2) -> dict[str, float]:
    """Compulsory DRAM traffic and arithmetic of one product."""
    m, n, k = sizes["M"], sizes["N"], sizes["K"]
    return {"bytes": float(element_bytes * (m * k + k * n + m * n)), "flops": 2.0 * m * n * k}
