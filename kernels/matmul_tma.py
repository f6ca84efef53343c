"""Hopper matmul: persistent programs, TMA tensor descriptors, optionally warp-specialized.

The same product as ``matmul`` (fp16 C = A @ B, fp32 accumulation, grouped tile order), written
the way Hopper wants it: one program per SM walks over output tiles (no launch tail, no
re-launch cost), A and B tiles arrive through the Tensor Memory Accelerator (``tl`` descriptor
loads become ``cp.async.bulk.tensor``) and the K-loop feeds ``wgmma``. With WARP_SPECIALIZE the
compiler splits producer (TMA) and consumer (wgmma) work across warp groups.
Compare its IR with the tutorial kernel: ``irscope diff`` / ``irscope show matmul_tma``.
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NAME = "matmul_tma"
KERNEL = "matmul_tma_kernel"
DESCRIPTION = "Hopper fp16 matmul: persistent, TMA descriptors, warp specialization (sm90+)"
DTYPE = "float16"
SIZES = {"M": 4096, "N": 4096, "K": 4096}
TEST_SIZES = {"M": 257, "N": 320, "K": 192}
BENCH_SIZES = [{"M": 4096, "N": 4096, "K": 4096}, {"M": 8192, "N": 8192, "K": 8192}]
TOLERANCE = {"atol": 1e-2, "rtol": 1e-2}
PEER = "torch.matmul (cuBLAS)"
# Programs of a persistent launch when no GPU is there to count SMs (H100/H200 have 132).
OFFLINE_SMS = 132
# Tile shapes, pipeline depth and warp specialization tried by `irscope bench`.
CONFIGS = {
    "cuda": [
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "WARP_SPECIALIZE": False,
         "num_stages": 3, "num_warps": 8},
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "WARP_SPECIALIZE": False,
         "num_stages": 4, "num_warps": 8},
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "WARP_SPECIALIZE": True,
         "num_stages": 3, "num_warps": 8},
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "WARP_SPECIALIZE": False,
         "num_stages": 4, "num_warps": 4},
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "WARP_SPECIALIZE": True,
         "num_stages": 4, "num_warps": 4},
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 8, "WARP_SPECIALIZE": False,
         "num_stages": 2, "num_warps": 8},
    ],
    "hip": [
        {"BLOCK_SIZE_M": 256, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "WARP_SPECIALIZE": False,
         "num_stages": 2, "num_warps": 8},
    ],
}


@triton.jit
def _tile_coords(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M: tl.constexpr):
    # Grouped order: GROUP_SIZE_M rows of tiles are swept column by column, for L2 reuse.
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def matmul_tma_kernel(a_desc, b_desc, c_desc, M, N, K,
                      BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                      GROUP_SIZE_M: tl.constexpr, NUM_SMS: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    # Each program walks tiles start_pid, start_pid + NUM_SMS, ...; the tile loop and the K-loop
    # are flattened into one software pipeline.
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True, warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _tile_coords(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_am = pid_m * BLOCK_SIZE_M
        offs_bn = pid_n * BLOCK_SIZE_N
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_k, offs_bn])
            accumulator = tl.dot(a, b, accumulator)
        c_desc.store([offs_am, offs_bn], accumulator.to(tl.float16))


def make_tensors(sizes: dict[str, int], dtype: Any, new: Any) -> dict[str, Any]:
    """The kernel's tensors; ``new(shape, dtype, role)`` makes each (role: 'input' or 'output')."""
    m, n, k = sizes["M"], sizes["N"], sizes["K"]
    return {"a": new((m, k), dtype, "input"), "b": new((k, n), dtype, "input"), "c": new((m, n), dtype, "output")}


def kernel_args(t: dict[str, Any], sizes: dict[str, int], config: dict[str, Any],
                sm_count: int | None = None) -> tuple[list[Any], dict[str, Any]]:
    """Descriptors over A (MxK), B (KxN) and C (MxN) with the config's block shapes."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    bm, bn, bk = config["BLOCK_SIZE_M"], config["BLOCK_SIZE_N"], config["BLOCK_SIZE_K"]
    m, n, k = sizes["M"], sizes["N"], sizes["K"]
    a_desc = TensorDescriptor(t["a"], [m, k], [k, 1], [bm, bk])
    b_desc = TensorDescriptor(t["b"], [k, n], [n, 1], [bk, bn])
    c_desc = TensorDescriptor(t["c"], [m, n], [n, 1], [bm, bn])
    return [a_desc, b_desc, c_desc, m, n, k], {**config, "NUM_SMS": sm_count or OFFLINE_SMS}


def grid(sizes: dict[str, int], config: dict[str, Any], sm_count: int | None = None) -> tuple[int, ...]:
    """One program per SM, at most one per tile."""
    tiles = triton.cdiv(sizes["M"], config["BLOCK_SIZE_M"]) * triton.cdiv(sizes["N"], config["BLOCK_SIZE_N"])
    return (min(sm_count or OFFLINE_SMS, tiles),)


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
