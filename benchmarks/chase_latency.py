"""Round-trip latency of one load by where its line lives, measured with a pointer chase (issue 40).

One program of one warp follows ``next = table[next]`` through a random cycle over a table of SIZE bytes, N steps,
each load waiting for the last: the time per step is the latency of a load whose address is a loaded value. A table
far larger than the L2 misses it on each step (the DRAM's round trip, the GPU otherwise idle); one that fits the L2
but not the L1, after a first pass, hits the L2; one of a few KiB hits the L1. Timed with CUDA events, the median of
five runs, against the same kernel with 0 steps. Run on the device: ``python3 benchmarks/chase_latency.py OUT.json``.
"""

from __future__ import annotations

import json
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def chase(table, out, steps, stride: tl.constexpr):
    at = tl.load(table).to(tl.int64)
    for _ in range(steps):
        at = tl.load(table + at * stride).to(tl.int64)
    tl.store(out, at)


def _cycle(entries: int, stride: int) -> torch.Tensor:
    order = torch.randperm(entries, generator=torch.Generator().manual_seed(0))
    nxt = torch.empty(entries, dtype=torch.int64)
    nxt[order] = torch.roll(order, -1)
    table = torch.zeros(entries * stride, dtype=torch.int64)
    table[::stride] = nxt
    return table.cuda()


def _time(table: torch.Tensor, steps: int, stride: int, flush: torch.Tensor | None) -> float:
    out = torch.empty(1, dtype=torch.int64, device="cuda")
    chase[(1,)](table, out, steps, stride, num_warps=1)
    times = []
    for _ in range(5):
        if flush is not None:  # evict the table's lines from the L2: each step misses it
            flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        chase[(1,)](table, out, steps, stride, num_warps=1)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1e6)  # ns
    return sorted(times)[2]


def main(path: str) -> int:
    results = {"gpu": torch.cuda.get_device_name(), "triton": triton.__version__, "torch": torch.__version__}
    stride = 16  # one entry per 128-byte line
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    for name, size, steps in (("dram", 256 << 20, 4000), ("l2", 4 << 20, 20000), ("l1", 8 << 10, 20000)):
        entries = size // (8 * stride)
        table = _cycle(entries, stride)
        evict = flush if name == "dram" else None
        base = _time(table, 0, stride, evict)
        total = _time(table, steps, stride, evict)
        results[name] = {"table_bytes": size, "steps": steps, "ns_per_step": (total - base) / steps,
                         "base_ns": base, "total_ns": total}
        print(name, results[name], flush=True)
        del table
        torch.cuda.empty_cache()
    with open(path, "w") as f:
        json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
