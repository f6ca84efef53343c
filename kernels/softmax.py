"""Fused row softmax, the second official Triton tutorial: persistent programs striding over rows.

Each program keeps a whole row in registers (BLOCK_SIZE is the next power of two of n_cols, the
padding loaded as -inf so it vanishes after exp), subtracts the row max for stability, and walks
rows start, start + grid, ... with a software-pipelined ``tl.range``.
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NAME = "softmax"
KERNEL = "softmax_kernel"
DESCRIPTION = "row-wise softmax of an fp32 matrix, one row per loop step of a persistent program"
DTYPE = "float32"
SIZES = {"n_rows": 4096, "n_cols": 4096}
TEST_SIZES = {"n_rows": 1823, "n_cols": 781}
BENCH_SIZES = [{"n_rows": 4096, "n_cols": 4096}, {"n_rows": 32768, "n_cols": 1024}, {"n_rows": 4096, "n_cols": 16384}]
# Config 0 is the tutorial's; narrow rows run better with fewer warps per row (more rows in flight).
CONFIGS = [{"num_warps": 8, "num_stages": 4}, {"num_warps": 4, "num_stages": 4}, {"num_warps": 4, "num_stages": 2},
           {"num_warps": 2, "num_stages": 4}, {"num_warps": 16, "num_stages": 2}]
TOLERANCE = {"atol": 1e-6, "rtol": 1e-5}
PEER = "torch.softmax"
# Programs launched when no GPU says how many fit at once (interpreter runs, offline captures).
OFFLINE_PROGRAMS = 4


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float("inf"))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


def make_tensors(sizes: dict[str, int], dtype: Any, new: Any) -> dict[str, Any]:
    """The kernel's tensors; ``new(shape, dtype, role)`` makes each (role: 'input' or 'output')."""
    shape = (sizes["n_rows"], sizes["n_cols"])
    return {"x": new(shape, dtype, "input"), "y": new(shape, dtype, "output")}


def kernel_args(t: dict[str, Any], sizes: dict[str, int], config: dict[str, Any],
                sm_count: int | None = None) -> tuple[list[Any], dict[str, Any]]:
    """Positional and keyword arguments of the launch, exactly as the launcher passes them."""
    x, y = t["x"], t["y"]
    block = triton.next_power_of_2(sizes["n_cols"])
    return ([y, x, x.stride(0), y.stride(0), sizes["n_rows"], sizes["n_cols"]],
            {"BLOCK_SIZE": block, **config})


def grid(sizes: dict[str, int], config: dict[str, Any], sm_count: int | None = None) -> tuple[int, ...]:
    """Persistent grid: a few programs per SM (OFFLINE_PROGRAMS without a GPU), at most one per row."""
    programs = OFFLINE_PROGRAMS if sm_count is None else 2 * sm_count
    return (min(sizes["n_rows"], programs),)


def reference(t: dict[str, Any]) -> Any:
    """What the kernel must compute, in torch."""
    import torch

    return torch.softmax(t["x"], dim=1)


def peer(t: dict[str, Any]) -> Any:
    """PyTorch's own way."""
    import torch

    return torch.softmax(t["x"], dim=1)


def work(sizes: dict[str, int], element_bytes: int = 4) -> dict[str, float]:
    """Compulsory DRAM traffic (one read, one write per element) and arithmetic (max, sub, exp, sum, div)."""
    n = sizes["n_rows"] * sizes["n_cols"]
    return {"bytes": float(2 * element_bytes * n), "flops": float(5 * n)}


def occupancy_grid(compiled: Any, sizes: dict[str, int], config: dict[str, Any], props: dict[str, int]) -> tuple[int]:
    """Persistent grid sized by occupancy: as many programs as fit on all SMs at once.

    Registers per SM and shared memory per SM bound how many programs of this compiled kernel
    are resident together; launching exactly that many avoids both idle SMs and a second wave.
    """
    regs_per_program = max(1, compiled.n_regs) * props["warpSize"] * config["num_warps"]
    by_regs = props["max_num_regs"] // regs_per_program
    shared = compiled.metadata.shared
    by_smem = props["max_shared_mem"] // shared if shared else by_regs
    per_sm = max(1, min(by_regs, by_smem))
    return (min(sizes["n_rows"], props["multiprocessor_count"] * per_sm),)
