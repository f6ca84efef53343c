"""Triton microbenchmarks for ``--gpu native``: access patterns a torch call does not reproduce.

A torch strided copy (``dst.copy_(src[::16])``) ran at the full copy bandwidth on the H200, while a
Triton kernel reading one fp32 from each 64-byte segment ran at 75% of it (ncu: the same 64 bytes per
element moved by the DRAM). The device model needs the second figure, so it is measured with the kernel
Triton kernels are made of.
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

GATHER_STRIDE = 16  # fp32 elements: one 4-byte element of each 64-byte DRAM segment


@triton.jit
def _segment_gather(x_ptr, y_ptr, n, STRIDE: tl.constexpr, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
    """y[i] = x[i * STRIDE]: neighbouring lanes read neighbouring 64-byte segments, one sector of each."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs * STRIDE, mask=mask), mask=mask)


def segment_gather_ms(torch: Any, do_bench: Any) -> float:
    """Median milliseconds of reading one fp32 per 64-byte segment of 1 GiB (and writing 64 MiB)."""
    n = 2**30 // (4 * GATHER_STRIDE)
    x = torch.empty(n * GATHER_STRIDE, dtype=torch.float32, device="cuda")
    y = torch.empty(n, dtype=torch.float32, device="cuda")
    block = 1024
    grid = (triton.cdiv(n, block),)
    return float(do_bench(lambda: _segment_gather[grid](x, y, n, STRIDE=GATHER_STRIDE, BLOCK=block, num_warps=4),
                          return_mode="median"))
