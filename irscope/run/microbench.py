"""Triton microbenchmarks for ``--gpu native``: access patterns a torch call does not reproduce.

A torch strided copy (``dst.copy_(src[::16])``) ran at the full copy bandwidth on the H200, while a
Triton kernel reading one fp32 from each 64-byte segment ran at 75% of it (ncu: the same 64 bytes per
element moved by the DRAM), and less the further apart the segments lie (54-57% from 256 B on). The device model
needs those figures, so they are measured with the kind of kernel Triton makes.
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

SPAN = 2**28  # fp32 elements (1 GiB): the gathers wrap around in it, far beyond any L2


@triton.jit
def _segment_gather(x_ptr, y_ptr, n, STRIDE: tl.constexpr, SPAN_: tl.constexpr, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
    """y[i] = x[i * STRIDE] in a SPAN_-element buffer: neighbouring lanes read segments STRIDE elements apart, one
    sector of each. Past the buffer's end the addresses wrap around, each pass 64 bytes further into the step,
    so every segment read is a new one."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    addr = offs.to(tl.int64) * STRIDE
    addr = addr % SPAN_ + (addr // SPAN_ * 16) % STRIDE
    tl.store(y_ptr + offs, tl.load(x_ptr + addr, mask=mask), mask=mask)


def gather_ms(torch: Any, do_bench: Any, stride: int, n: int) -> float:
    """Median milliseconds of the gather of ``n`` fp32 ``stride`` elements apart (4 warps, 1024 per program)."""
    x = torch.empty(min(SPAN, n * stride), dtype=torch.float32, device="cuda")
    y = torch.empty(n, dtype=torch.float32, device="cuda")
    block = 1024
    grid = (triton.cdiv(n, block),)
    return float(do_bench(lambda: _segment_gather[grid](x, y, n, STRIDE=stride, SPAN_=SPAN, BLOCK=block,
                                                        num_warps=4), return_mode="median"))


def gather_rates(torch: Any, do_bench: Any, copy_gbps: float) -> dict[int, float]:
    """DRAM segment bytes per second (GB/s) of the gather at each step the performance model uses.

    Each step reads 2^24 fp32 (1 GiB of segments, long enough that launch and ramp do not count) in a 1 GiB
    buffer; the written 64 MiB are taken out at the copy's rate.
    """
    from irscope.analysis.perf.device import GATHER_STEPS

    rates: dict[int, float] = {}
    n = 2**24
    for step in GATHER_STEPS:
        ms = gather_ms(torch, do_bench, step // 4, n)
        read_seconds = ms * 1e-3 - n * 4 / (copy_gbps * 1e9)
        if read_seconds > 0:
            rates[step] = n * 64 / read_seconds / 1e9
    return rates
