"""What a short kernel costs when a program launches kernels back to back, measured on a GPU (issue 31).

``irscope perf`` adds a fixed cost per launch to each kernel's body: fitted on Nsight Compute's
``gpu__time_duration`` of kernels launched one at a time. A program's profile (``torch.profiler``) times kernels
that follow one another in a stream, where the next launch is already queued: its shortest kernels take well
under that. This script measures the in-stream cost on data of its own, not on the models ``irscope report`` is
validated against: irscope's bundled vector-add (BLOCK_SIZE 1024, 4 warps) at sizes from one program to a few
thousand, launched ``--repeat`` times back to back; a relaxed ``tl.atomic_add`` of one fp32 per element (every
address once, and every 512th address shared) for the atomics' own rate; and a kernel whose programs only store one
element per thread, on 1 to 256 programs per SM, for what starting a CTA costs.

    python benchmarks/program_report/launch_cost.py --out launch_cost.json     # on a GPU

The JSON holds, per launch, the grid, the sizes and the median device time; ``tests/test_report_launch.py``
models the same launches offline and recomputes the in-stream cost ``irscope report`` uses from it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

import torch
import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from kernels.vector_add import add_kernel

SIZES = (1024, 4096, 16384, 65536, 262144, 1048576, 4194304)  # multiples of 16: one specialization
BLOCK, WARPS = 1024, 4


@triton.jit
def atomic_kernel(x_ptr, out_ptr, n_elements, rows, BLOCK_SIZE: tl.constexpr):
    """``out[i % rows] += x[i]``, relaxed (one RED per element, as Inductor's scatter-adds)."""
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.atomic_add(out_ptr + offsets % rows, x, mask=mask, sem="relaxed")


@triton.jit
def store_kernel(out_ptr, BLOCK_SIZE: tl.constexpr):
    """Each program stores BLOCK_SIZE zeros: a CTA that does almost nothing, for what starting one costs."""
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    tl.store(out_ptr + offsets, tl.zeros([BLOCK_SIZE], tl.float32))


CTA_GRIDS = (132, 1056, 4224, 8448, 16896, 33792)  # 1 to 256 CTAs per SM of the H200's 132
CTA_SHAPES = ((64, 2), (128, 4), (256, 8))  # (BLOCK_SIZE, num_warps): one element per thread


def _timed(launch: Any, repeat: int, plain: bool = False) -> list[float]:
    """Device time in microseconds of each of ``repeat`` back-to-back launches (torch.profiler); ``plain``: only
    launch them (under Nsight Compute, which times each launch itself)."""
    from torch.profiler import ProfilerActivity, profile

    for _ in range(3):
        launch()
    torch.cuda.synchronize()
    if plain:
        for _ in range(repeat):
            launch()
        torch.cuda.synchronize()
        return [0.0] * repeat
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(repeat):
            launch()
        torch.cuda.synchronize()
    return [float(e.device_time) for e in prof.events()
            if e.device_type == torch.autograd.DeviceType.CUDA and e.device_time > 0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--plain", action="store_true", help="launch without torch.profiler (under ncu)")
    args = parser.parse_args(argv)
    launches: list[dict[str, Any]] = []
    for n in SIZES:
        x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
        out = torch.empty_like(x)
        grid = (triton.cdiv(n, BLOCK),)
        times = _timed(lambda x=x, y=y, out=out, n=n, grid=grid:
                       add_kernel[grid](x, y, out, n, BLOCK_SIZE=BLOCK, num_warps=WARPS), args.repeat, args.plain)
        launches.append({"kernel": "add_kernel", "n_elements": n, "grid": list(grid), "num_warps": WARPS,
                         "constexprs": {"BLOCK_SIZE": BLOCK}, "launches": len(times),
                         "median_us": statistics.median(times), "min_us": min(times)})
    for n, rows in ((262144, 262144), (262144, 512), (4194304, 4194304)):
        x = torch.rand(n, device="cuda")
        out = torch.zeros(rows, device="cuda")
        grid = (triton.cdiv(n, BLOCK),)
        times = _timed(lambda x=x, out=out, n=n, rows=rows, grid=grid:
                       atomic_kernel[grid](x, out, n, rows, BLOCK_SIZE=BLOCK, num_warps=WARPS), args.repeat, args.plain)
        launches.append({"kernel": "atomic_kernel", "n_elements": n, "rows": rows, "grid": list(grid),
                         "num_warps": WARPS, "constexprs": {"BLOCK_SIZE": BLOCK}, "launches": len(times),
                         "median_us": statistics.median(times), "min_us": min(times)})
    for block, warps in CTA_SHAPES:
        for programs in CTA_GRIDS:
            out = torch.empty(programs * block, device="cuda")
            times = _timed(lambda out=out, programs=programs, block=block, warps=warps:
                           store_kernel[(programs,)](out, BLOCK_SIZE=block, num_warps=warps), args.repeat, args.plain)
            launches.append({"kernel": "store_kernel", "n_elements": programs * block, "grid": [programs],
                             "num_warps": warps, "constexprs": {"BLOCK_SIZE": block}, "launches": len(times),
                             "median_us": statistics.median(times), "min_us": min(times)})
    result = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
              "repeat": args.repeat, "launches": launches}
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    for row in launches:
        print(f"{row['kernel']:14} n={row['n_elements']:>8} rows={row.get('rows', '-')!s:>8} grid={row['grid'][0]:>5}"
              f"  median {row['median_us']:7.2f} us  min {row['min_us']:7.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
