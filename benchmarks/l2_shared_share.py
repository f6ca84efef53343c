"""(GPU) How much of the L2 data every SM reads can use: the measurement behind ``SHARED_L2_SHARE`` (issue 27).

``irscope.analysis.perf.panels`` keeps a panel in the L2 from one round to the next only when a round's panels fit
``SHARED_L2_SHARE`` (0.5) of the L2: the H100/H200 L2 is two partitions, and a line that SMs on both sides read is
held in both, so data the whole grid shares has half the L2. That was read from the design, not measured. This
measures it with ncu: one CTA per SM reads a buffer of S MiB twice over; with the second pass's lines still in the
L2 the DRAM reads are S, with them gone 2 S. ``shared``: every CTA reads the whole buffer (what every SM reads);
``private``: each CTA reads its own slice of it (each line read by one SM). The largest S whose DRAM reads stay
under 1.5 S is the capacity each pattern sees; ``shared_share`` is the shared capacity over the L2's size.

    python3 benchmarks/l2_shared_share.py --out l2_shared.json   # needs a GPU and ncu

``--launch`` is what ncu profiles (the kernels in order); ``TRITON_INTERPRET=1 ... --launch --check`` runs the
kernel on the CPU at small sizes and checks its sums.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SIZES_MIB = [8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 72, 80]
PATTERNS = ("shared", "private")
METRICS = ["gpu__time_duration.sum", "dram__bytes_read.sum", "lts__t_sector_hit_rate.pct",
           "lts__t_sectors_srcunit_tex_op_read.sum"]
BLOCK = 4096
PASSES = 2
NCU_DEFAULT = "/usr/local/cuda/bin/ncu"


def _kernel() -> Any:
    import triton
    import triton.language as tl

    @triton.jit
    def reread_kernel(x_ptr, out_ptr, n_per_cta, stride_cta, PASSES: tl.constexpr, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offs = tl.arange(0, BLOCK)
        start = pid.to(tl.int64) * stride_cta
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for _p in range(PASSES):
            for i in range(0, n_per_cta, BLOCK):
                acc += tl.load(x_ptr + start + i + offs)
        tl.store(out_ptr + pid * BLOCK + offs, acc)

    return reread_kernel


def _plan(sms: int, sizes: list[int]) -> list[dict[str, Any]]:
    """The launches in order: pattern, MiB, elements per CTA and each CTA's start stride (0: all read the same)."""
    plan = []
    for pattern in PATTERNS:
        for mib in sizes:
            elements = mib * 2**20 // 4 // (BLOCK * sms) * (BLOCK * sms)
            per_cta = elements if pattern == "shared" else elements // sms
            plan.append({"pattern": pattern, "mib": elements * 4 / 2**20, "elements": elements, "per_cta": per_cta,
                         "stride": 0 if pattern == "shared" else per_cta})
    return plan


def launch(sizes: list[int], check: bool, plan_out: Path | None = None) -> int:
    """Launch each planned kernel once after a warm-up (the warm-up outside ncu's NVTX range ``measure``)."""
    import torch

    interpret = check
    device = "cpu" if interpret else "cuda"
    sms = 4 if interpret else torch.cuda.get_device_properties(0).multi_processor_count
    kernel = _kernel()
    plan = _plan(sms, sizes)
    for item in plan:
        x = torch.rand(item["elements"], device=device, dtype=torch.float32)
        out = torch.empty(sms * BLOCK, device=device, dtype=torch.float32)
        args = (x, out, item["per_cta"], item["stride"])
        kernel[(sms,)](*args, PASSES=PASSES, BLOCK=BLOCK, num_warps=8)
        if check:
            view = x.view(-1)
            for pid in range(sms):
                part = view[pid * item["stride"]:pid * item["stride"] + item["per_cta"]].view(-1, BLOCK)
                want = PASSES * part.sum(0)
                assert torch.allclose(out[pid * BLOCK:(pid + 1) * BLOCK], want, rtol=1e-4), (item, pid)
            continue
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_push("measure")
        kernel[(sms,)](*args, PASSES=PASSES, BLOCK=BLOCK, num_warps=8)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
    text = json.dumps({"sms": sms, "plan": plan})
    if plan_out is not None:  # ncu mixes the program's stdout with its CSV
        plan_out.write_text(text)
    print(text)
    return 0


def _rows(text: str) -> list[dict[str, str]]:
    lines = [line for line in text.splitlines() if line.startswith('"')]
    rows = list(csv.reader(lines))
    header = next((r for r in rows if "Kernel Name" in r), None)
    if header is None:
        return []
    return [dict(zip(header, r, strict=True)) for r in rows[rows.index(header) + 1:]
            if len(r) == len(header) and r[0].strip().isdigit()]


def _num(row: dict[str, str], metric: str) -> float:
    try:
        return float(row.get(metric, "").replace(",", ""))
    except ValueError:
        return 0.0


def _capacity(points: list[dict[str, Any]]) -> float | None:
    """The largest buffer (MiB) whose DRAM reads stay under 1.5x its size, interpolated to the crossing; None when
    even the smallest does not."""
    if not points or points[0]["dram_over_size"] >= 1.5:
        return None
    for a, b in itertools.pairwise(points):
        if a["dram_over_size"] < 1.5 <= b["dram_over_size"]:
            t = (1.5 - a["dram_over_size"]) / (b["dram_over_size"] - a["dram_over_size"])
            return float(a["mib"] + t * (b["mib"] - a["mib"]))
    return float(points[-1]["mib"])  # every size fits: at least the largest


def measure(out: Path, ncu: str, sizes: list[int], timeout: float) -> int:
    """ncu over ``--launch``; the DRAM reads per buffer size and pattern, the capacities and the shared share."""
    import torch

    l2_bytes = int(torch.cuda.get_device_properties(0).L2_cache_size)
    command = [ncu, "--target-processes", "all", "--nvtx", "--nvtx-include", "measure/", "--clock-control", "none",
               "--cache-control", "all", "--print-units", "base", "--csv", "--page", "raw", "--metrics",
               ",".join(METRICS), sys.executable, str(Path(__file__).resolve()), "--launch",
               "--sizes", ",".join(str(s) for s in sizes), "--plan-out", str(out.with_suffix(".plan.json"))]
    run = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    plan_file = out.with_suffix(".plan.json")
    plan_line = plan_file.read_text() if plan_file.is_file() else ""
    rows = _rows(run.stdout)
    result: dict[str, Any] = {"gpu": torch.cuda.get_device_name(0), "l2_bytes": l2_bytes, "passes": PASSES,
                              "ncu_exit": run.returncode, "stderr_tail": run.stderr[-3000:], "points": []}
    if not plan_line or not rows:
        out.write_text(json.dumps(result, indent=1) + "\n")
        print(f"l2_shared_share: no ncu rows (exit {run.returncode}); see {out}")
        return 1
    plan = json.loads(plan_line)["plan"]
    for item, row in zip(plan, rows, strict=False):
        read = _num(row, "dram__bytes_read.sum")
        size = item["elements"] * 4
        result["points"].append({**item, "dram_read": read, "dram_over_size": read / size,
                                 "l2_hit_pct": _num(row, "lts__t_sector_hit_rate.pct"),
                                 "us": _num(row, "gpu__time_duration.sum") / 1000})
    for pattern in PATTERNS:
        points = [p for p in result["points"] if p["pattern"] == pattern]
        capacity = _capacity(points)
        result[f"{pattern}_capacity_mib"] = capacity
        result[f"{pattern}_share"] = capacity * 2**20 / l2_bytes if capacity else None
    out.write_text(json.dumps(result, indent=1) + "\n")
    for p in result["points"]:
        print(f"{p['pattern']:8} {p['mib']:6.1f} MiB  DRAM read {p['dram_read'] / 2**20:8.1f} MiB "
              f"({p['dram_over_size']:.2f}x)  L2 hit {p['l2_hit_pct']:5.1f}%  {p['us']:8.1f} us")
    print(json.dumps({k: result[k] for k in ("l2_bytes", "shared_capacity_mib", "private_capacity_mib",
                                              "shared_share", "private_share")}))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launch", action="store_true", help="launch the kernels (what ncu profiles)")
    parser.add_argument("--check", action="store_true", help="with --launch: on the CPU (TRITON_INTERPRET=1)")
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES_MIB), help="buffer sizes in MiB")
    parser.add_argument("--out", type=Path, default=Path("l2_shared.json"))
    parser.add_argument("--plan-out", type=Path, default=None, help="with --launch: write the launches' plan here")
    parser.add_argument("--ncu-bin", default=NCU_DEFAULT)
    parser.add_argument("--timeout", type=float, default=420.0)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.launch:
        return launch(sizes, args.check, args.plan_out)
    return measure(args.out, args.ncu_bin, sizes, args.timeout)


if __name__ == "__main__":
    sys.exit(main())
