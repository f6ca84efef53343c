"""DRAM efficiency of a one-fp32-per-lane gather against the lanes' address step, on this GPU.

``y[i] = x[i * STRIDE]`` for strides from 16 fp32 (64 B: neighbouring lanes read neighbouring 64-byte
segments) up to 4096 fp32 (16 KB: every lane in another DRAM page). The DRAM moves a whole 64-byte
segment per element (the addresses wrap around in a 1 GiB buffer, each pass 64 bytes further on, so
no segment is read twice); the rate printed counts those segments, against a 1 GiB copy measured in the same
run, so the ratio is the efficiency the performance model uses for each kind of gather.

    python3 benchmarks/dram_gather_sweep.py        # needs a GPU
"""

from __future__ import annotations

import json
import sys
from typing import Any


def _copy_gbps(torch: Any, do_bench: Any) -> float:
    src = torch.empty(2**28, dtype=torch.float32, device="cuda")  # 1 GiB
    dst = torch.empty_like(src)
    ms = do_bench(lambda: dst.copy_(src), return_mode="median")
    return 2 * 2**30 / (ms * 1e-3) / 1e9


def main() -> int:
    import torch

    if not torch.cuda.is_available():
        print("dram_gather_sweep: no GPU visible to torch; this needs one", file=sys.stderr)
        return 2
    from triton.testing import do_bench

    from irscope.run.microbench import gather_ms

    copy = _copy_gbps(torch, do_bench)
    rows = []
    print(f"{torch.cuda.get_device_name(0)}: copy {copy:.0f} GB/s")
    print(f"{'step':>8} {'elements':>10} {'us':>9} {'segment GB/s':>13} {'of copy':>8}")
    for stride in (16, 32, 64, 128, 256, 512, 1024, 2048, 4096):
        n = 2**24  # 1 GiB of segments, in a 1 GiB buffer the addresses wrap around in
        ms = gather_ms(torch, do_bench, stride, n)
        read_s = ms * 1e-3 - n * 4 / (copy * 1e9)
        rate = n * 64 / read_s / 1e9 if read_s > 0 else 0.0
        rows.append({"stride_bytes": stride * 4, "elements": n, "us": ms * 1e3, "segment_gbps": rate,
                     "of_copy": rate / copy})
        print(f"{stride * 4:>7}B {n:>10} {ms * 1e3:>9.1f} {rate:>13.0f} {rate / copy:>8.0%}")
    print(json.dumps({"copy_gbps": copy, "rows": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
