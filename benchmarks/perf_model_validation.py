"""On a GPU: irscope's static performance model (``irscope perf``) against Nsight Compute, case by case.

For the bundled kernels at their bench sizes and for deliberately flawed variants (benchmarks/perf_variants.py
and odd configs of the bundled matmul), each case is captured offline by irscope for the local GPU's target,
modelled (``irscope.analysis.perf.capture.capture_perf``, with the data-sheet figures and with the figures
measured now, as ``--gpu native`` does), timed with ``triton.testing.do_bench`` (median), and profiled once
by ``ncu`` (one launch after a warm-up launch, clocks not locked, caches flushed). Compared: the bound with
ncu's speed-of-light breakdown (``sm__throughput`` vs ``gpu__compute_memory_throughput``; both under 60%:
latency), predicted_us with the measured time, predicted bank conflicts with
``l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st.sum`` less the conflicts of arbitration with the
L1's other clients (``..._type_arbitration``: no address pattern causes them; see ``shared_conflicts``;
the table shows both), theoretical occupancy with
``sm__maximum_warps_per_active_cycle_pct``.

    PYTHONPATH=$PWD python3 benchmarks/perf_model_validation.py --out perf.json

``--driver CASE`` is what ncu runs: it launches one case twice and exits.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # irscope itself, for the ncu CSV parser

from irscope.parse.profiles import ncu_csv_rows, ncu_number  # noqa: E402

NCU_DEFAULT = "/usr/local/cuda/bin/ncu"
METRICS = [
    "gpu__time_duration.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "lts__t_sector_hit_rate.pct",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu.sum",
    "l1tex__data_bank_conflicts_type_arbitration.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_global_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "sm__maximum_warps_per_active_cycle_pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "launch__occupancy_limit_registers",
    "launch__occupancy_limit_shared_mem",
    "launch__occupancy_limit_warps",
    "launch__occupancy_limit_blocks",
    "launch__registers_per_thread",
    "launch__grid_size",
    "launch__waves_per_multiprocessor",
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__cycles_elapsed.avg.per_second",
    "sm__sass_inst_executed_op_local_ld.sum",
    "sm__sass_inst_executed_op_local_st.sum",
    # to explain the spill and gather cases: where local traffic goes, what the L2 moved, why warps stall
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    "l1tex__t_sector_pipe_lsu_mem_local_op_ld_hit_rate.pct",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum",
    "lts__t_bytes.sum",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio",
]
# Example: ==ERROR== Failed to find metric sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
_UNKNOWN_METRIC = re.compile(r"(?:Failed to find metric|[Uu]nknown metric|Invalid metric)[:\s]+(?:regex:)?(\S+)")
LATENCY_SOL_PCT = 60.0
# Never dropped on the word of --query-metrics (which may list some under other spellings); ncu's own error decides.
ESSENTIAL = frozenset(METRICS[:3] + [m for m in METRICS if "bank_conflicts" in m or "maximum_warps" in m])


@dataclass
class Launch:
    """One launch of a case: the JIT function, its arguments, grid and tensor roles."""

    fn: Any
    args: list[Any]
    kwargs: dict[str, Any]
    grid: tuple[int, ...]
    roles: dict[str, str]
    kernel_name: str


@dataclass
class Case:
    """A case: its name, what is wrong with it (or 'bundled'), and how to build its launch on the GPU."""

    name: str
    flaw: str
    build: Any
    expect: str = ""


@dataclass
class Result:
    """One case's model, measurements and verdicts."""

    name: str
    flaw: str
    kernel: str
    grid: list[int]
    model: dict[str, Any] = field(default_factory=dict)
    model_datasheet: dict[str, Any] = field(default_factory=dict)
    measured_us: float | None = None
    ncu: dict[str, float] = field(default_factory=dict)
    ncu_bound: str = ""
    checks: dict[str, Any] = field(default_factory=dict)
    error: str = ""


def _bundled(name: str) -> Any:
    from irscope.model.kernels import get_kernel

    info = get_kernel(name)
    return info, info.load()


def _bundled_case(name: str, sizes: dict[str, int], config_index: int = 0,
                  config: dict[str, Any] | None = None) -> Any:
    def build(torch: Any, sm_count: int, device: str = "cuda") -> Launch:
        info, module = _bundled(name)
        chosen = dict(config if config is not None else info.config("cuda", config_index))
        roles: dict[int, str] = {}

        def new(shape: tuple[int, ...], dtype: Any, role: str) -> Any:
            dt = getattr(torch, dtype) if isinstance(dtype, str) else dtype
            t = torch.randn(shape, device=device, dtype=torch.float32).to(dt) if role == "input" else \
                torch.empty(shape, device=device, dtype=dt)
            roles[id(t)] = role
            return t

        tensors = module.make_tensors(sizes, info.dtype, new)
        args, kwargs = module.kernel_args(tensors, sizes, chosen, sm_count)
        grid = module.grid(sizes, chosen, sm_count)
        fn = getattr(module, info.function)
        names = list(fn.arg_names)
        by_name = {n: roles.get(id(a), "inout") for n, a in zip(names, args, strict=False)}
        return Launch(fn, list(args), dict(kwargs), tuple(grid), by_name, info.function)

    return build


def _strided(n: int, stride: int) -> Any:
    def build(torch: Any, sm_count: int, device: str = "cuda") -> Launch:
        import perf_variants as v

        x = torch.randn(n * stride, device=device)
        y = torch.empty(n, device=device)
        return Launch(v.strided_copy_kernel, [x, y, n], {"STRIDE": stride, "BLOCK": 1024, "num_warps": 4},
                      (n // 1024,), {"x_ptr": "input", "y_ptr": "output"}, "strided_copy_kernel")

    return build


_strided_copy = _strided(2**22, 16)


def _column_sample(rows: int, cols: int, step: int) -> Any:
    def build(torch: Any, sm_count: int, device: str = "cuda") -> Launch:
        import perf_variants as v

        x = torch.randn(rows, cols * step, device=device)
        y = torch.empty(rows, cols, device=device)
        return Launch(v.column_sample_kernel, [x, y, cols * step],
                      {"COL_STEP": step, "BLOCK_R": 32, "BLOCK_C": 64, "num_warps": 4},
                      (rows // 32, cols // 64), {"x_ptr": "input", "y_ptr": "output"}, "column_sample_kernel")

    return build


def _transpose(torch: Any, sm_count: int, device: str = "cuda") -> Launch:
    import perf_variants as v

    m = n = 4096
    x = torch.randn(m, n, device=device)
    y = torch.empty(n, m, device=device)
    return Launch(v.transpose_kernel, [x, y, m, n], {"BLOCK_M": 64, "BLOCK_N": 64, "num_warps": 4},
                  (m // 64, n // 64), {"x_ptr": "input", "y_ptr": "output"}, "transpose_kernel")


def _fp32_dot(block: tuple[int, int, int], size: int = 2048) -> Any:
    def build(torch: Any, sm_count: int, device: str = "cuda") -> Launch:
        import perf_variants as v

        a = torch.randn(size, size, device=device)
        b = torch.randn(size, size, device=device)
        c = torch.empty(size, size, device=device)
        bm, bn, bk = block
        return Launch(v.matmul_fp32_kernel, [a, b, c, size, size, size, size, size, size],
                      {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "PRECISION": "ieee", "num_warps": 4,
                       "num_stages": 2},
                      ((size // bm) * (size // bn),), {"a_ptr": "input", "b_ptr": "input", "c_ptr": "output"},
                      "matmul_fp32_kernel")

    return build


def _mm_config(bm: int, bn: int, bk: int, warps: int, stages: int) -> dict[str, Any]:
    return {"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": 8, "num_stages": stages,
            "num_warps": warps}


CASES = [
    Case("matmul 4096^3", "bundled", _bundled_case("matmul", {"M": 4096, "N": 4096, "K": 4096}), "compute"),
    Case("matmul 8192^3", "bundled", _bundled_case("matmul", {"M": 8192, "N": 8192, "K": 8192}), "compute"),
    Case("vector_add 2^24", "bundled", _bundled_case("vector_add", {"n_elements": 2**24}), "memory"),
    Case("vector_add 2^28", "bundled", _bundled_case("vector_add", {"n_elements": 2**28}), "memory"),
    Case("softmax 4096x4096", "bundled", _bundled_case("softmax", {"n_rows": 4096, "n_cols": 4096}), "memory"),
    Case("softmax 32768x1024", "bundled", _bundled_case("softmax", {"n_rows": 32768, "n_cols": 1024}), "memory"),
    Case("softmax 4096x16384", "bundled", _bundled_case("softmax", {"n_rows": 4096, "n_cols": 16384}), "memory"),
    Case("uncoalesced loads", "strided gather x[i*16] (fp32): one 32-byte sector per lane", _strided_copy, "memory"),
    Case("shared transpose", "layout change through shared memory (control: Triton swizzles it)", _transpose,
         "memory"),
    Case("fp32 dot", "tl.dot(input_precision='ieee') on fp32: CUDA-core FMAs", _fp32_dot((64, 64, 32)), "compute"),
    Case("no swizzle", "FMA dot with 128x32 tiles: the A operand read from an unswizzled shared layout "
         "(vec=1, maxPhase=1) 4-way conflicted", _fp32_dot((128, 32, 32)), ""),
    Case("too few CTAs", "matmul 512x512x16384 with 128x256 tiles: 8 CTAs for all SMs",
         _bundled_case("matmul", {"M": 512, "N": 512, "K": 16384}), "latency"),
    Case("spilling", "matmul 128x256x64 tiles on 4 warps: 255 registers and spills",
         _bundled_case("matmul", {"M": 4096, "N": 4096, "K": 4096}, config=_mm_config(128, 256, 64, 4, 3)), ""),
    Case("tiny tiles", "matmul 2048^3 with 16x16x16 tiles on 1 warp",
         _bundled_case("matmul", {"M": 2048, "N": 2048, "K": 2048}, config=_mm_config(16, 16, 16, 1, 2)), ""),
    # Held out: added after the model's sector-gather and serial-spill terms were written, to check them on
    # launches they were not shaped on ("gather 4 KB stride" was held out until the gather rates by step were
    # measured: it is now the --gpu native microbenchmark's own 4 KB point).
    Case("gather stride 2", "held out: x[i*2] (fp32): every sector read, half of each used", _strided(2**24, 2),
         "memory"),
    Case("gather 4 KB stride", "x[i*1024] (fp32): one sector of a different DRAM page per lane",
         _strided(2**21, 1024), "memory"),
    Case("gather 512 B stride", "held out: x[i*128] (fp32): segments 512 B apart (between two measured steps)",
         _strided(2**22, 128), "memory"),
    Case("column sample", "held out: every 16th column of a row-major 8192 x 16384 fp32 matrix, 32x64 tiles",
         _column_sample(8192, 1024, 16), "memory"),
    Case("spilling 256x128", "held out: matmul 256x128x64 tiles on 4 warps (spills, one CTA per SM)",
         _bundled_case("matmul", {"M": 4096, "N": 4096, "K": 4096}, config=_mm_config(256, 128, 64, 4, 3)), ""),
    Case("spilling 2 stages", "held out: matmul 128x256x64 tiles on 4 warps, 2 stages (spills, more CTAs per SM)",
         _bundled_case("matmul", {"M": 4096, "N": 4096, "K": 4096}, config=_mm_config(128, 256, 64, 4, 2)), ""),
]


def _case(name: str) -> Case:
    for case in CASES:
        if case.name == name:
            return case
    raise SystemExit(f"unknown case {name!r}; valid: {', '.join(c.name for c in CASES)}")


def driver(name: str) -> int:
    """Launch one case twice (the first compiles and warms up); what ncu profiles."""
    import torch

    sm_count = torch.cuda.get_device_properties(0).multi_processor_count
    launch = _case(name).build(torch, sm_count)
    for _ in range(2):
        launch.fn[launch.grid](*launch.args, **launch.kwargs)
    torch.cuda.synchronize()
    return 0


def _query_metrics(ncu: str) -> set[str]:
    """The base metric names this ncu knows for the local GPU (empty when the query fails)."""
    try:
        run = subprocess.run([ncu, "--query-metrics"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"ncu --query-metrics failed: {exc}")
        return set()
    names = {line.split()[0] for line in run.stdout.splitlines() if line.strip() and "__" in line.split()[0]}
    return names


def _usable_metrics(ncu: str) -> list[str]:
    known = _query_metrics(ncu)
    if not known:
        return list(METRICS)
    usable = []
    for metric in METRICS:
        base = metric.split(".")[0]
        if base in known or any(k.startswith(base) for k in known) or metric in ESSENTIAL:
            usable.append(metric)
            continue
        words = [w for w in base.split("_") if len(w) > 3]
        near = sorted(k for k in known if sum(w in k for w in words) >= max(1, len(words) - 1))[:12]
        print(f"ncu does not know {metric}; close matches from --query-metrics: {', '.join(near) or 'none'}")
    return usable


# ncu's CSV rows and values: one parser, irscope's own (``irscope perf --measured`` reads the same files)
_parse_csv = ncu_csv_rows
_number = ncu_number


def profile(case: Case, kernel_name: str, ncu: str, metrics: list[str], timeout: float) -> tuple[dict[str, float], str]:
    """ncu's metrics for one launch of the case (after one warm-up launch)."""
    for _attempt in range(4):
        command = [ncu, "--target-processes", "all", "--kernel-name", f"regex:^{kernel_name}$", "--launch-skip", "1",
                   "--launch-count", "1", "--clock-control", "none", "--cache-control", "all", "--print-units", "base",
                   "--csv", "--page", "raw", "--metrics", ",".join(metrics),
                   sys.executable, str(Path(__file__).resolve()), "--driver", case.name]
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                 env={**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")})
        except subprocess.TimeoutExpired:
            return {}, f"ncu timed out after {timeout:.0f} s"
        rows = _parse_csv(run.stdout)
        if rows:
            row = rows[-1]
            values = {m: v for m in metrics if (v := _number(row.get(m, ""))) is not None}
            return values, ""
        bad = set(_UNKNOWN_METRIC.findall(run.stdout + run.stderr))
        if bad:
            print(f"  ncu rejected {', '.join(sorted(bad))}; retrying without them")
            metrics = [m for m in metrics if m not in bad and m.split(".")[0] not in {b.split(".")[0] for b in bad}]
            continue
        tail = (run.stderr + run.stdout).strip().splitlines()[-6:]
        if metrics != ["gpu__time_duration.sum"]:
            print(f"  ncu printed no rows ({' | '.join(tail)}); retrying with gpu__time_duration.sum alone")
            metrics = ["gpu__time_duration.sum"]
            continue
        return {}, "ncu printed no rows: " + " | ".join(tail)
    return {}, "ncu kept rejecting metrics"


def ncu_bound(values: dict[str, float]) -> str:
    """ncu's speed of light as a bound: both under 60% of peak is latency-bound, else the larger one."""
    sm = values.get("sm__throughput.avg.pct_of_peak_sustained_elapsed")
    mem = values.get("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")
    if sm is None or mem is None:
        return ""
    if max(sm, mem) < LATENCY_SOL_PCT:
        return "latency"
    return "compute" if sm >= mem else "memory"


def _model(launch: Launch, target: Any, store: str, device: Any, datasheet: Any
           ) -> tuple[dict[str, Any], dict[str, Any], Any]:
    import irscope
    from irscope.analysis.perf.capture import capture_perf
    from irscope.compile.launch_values import launch_shape
    from irscope.views.perf_text import perf_json

    capture = irscope.capture(launch.fn, *launch.args, target=target.name, store=store, **launch.kwargs)
    shape = launch_shape(list(launch.fn.arg_names), launch.args, launch.kwargs, launch.grid, launch.roles,
                         "the case's launch")
    measured = capture_perf(capture, device, shape)
    sheet = capture_perf(capture, datasheet, shape)
    return perf_json(measured), perf_json(sheet), measured


def _checks(result: Result) -> dict[str, Any]:
    model, ncu = result.model, result.ncu
    out: dict[str, Any] = {}
    if result.ncu_bound:
        out["bound_ok"] = model.get("bound") == result.ncu_bound
    if result.measured_us:
        err = (model["predicted_us"] - result.measured_us) / result.measured_us
        out["time_error"] = err
        if model.get("bound") in ("compute", "memory"):
            out["time_ok"] = abs(err) <= 0.25
    measured_conf = shared_conflicts(ncu)[1]
    bank = model.get("bank", {})
    if bank.get("available") and any(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{k}.sum" in ncu
                                     for k in ("ld", "st")):
        split = bank.get("conflicts_total_by_counter", {})
        predicted = (float(split.get("ld", 0.0) + split.get("st", 0.0)) if split
                     else float(bank.get("conflicts_total", 0.0)))
        wavefronts = sum(ncu.get(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{k}.sum", 0.0) for k in ("ld", "st"))
        measured_kind = measured_conf > 0.02 * wavefronts if wavefronts else measured_conf > 0
        out["bank_kind_ok"] = (predicted > 0) == measured_kind
        if predicted > 0 and measured_conf > 0:
            out["bank_count_ok"] = 0.5 <= predicted / measured_conf <= 2.0
    occ = ncu.get("sm__maximum_warps_per_active_cycle_pct")
    if occ is not None:
        out["occupancy_ok"] = abs(model.get("occupancy_pct", -1) - occ) < 0.5
    return out


def shared_conflicts(ncu: dict[str, float]) -> tuple[float, float]:
    """(raw, by address) shared-memory bank conflicts of a launch, from ncu's counters.

    ``..._mem_shared_op_ld/st`` count every extra data-bank cycle of shared loads and stores, including those
    lost to arbitration with the L1's other clients (``..._type_arbitration``), which no address pattern
    causes. Those are taken out: by address = min(shared, all LSU conflicts - arbitration conflicts - the global
    accesses' own conflicts), the last where ncu reports them (an uncoalesced gather has millions).
    """
    raw = sum(ncu.get(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{k}.sum", 0.0) for k in ("ld", "st"))
    total = ncu.get("l1tex__data_bank_conflicts_pipe_lsu.sum")
    arbitration = ncu.get("l1tex__data_bank_conflicts_type_arbitration.sum")
    if total is None or arbitration is None:
        return raw, raw
    other = sum(ncu.get(f"l1tex__data_bank_conflicts_pipe_lsu_mem_global_op_{k}.sum", 0.0) for k in ("ld", "st"))
    return raw, min(raw, max(0.0, total - arbitration - other))


def _fmt(value: Any, spec: str = ".1f") -> str:
    return "-" if value is None else format(value, spec)


def print_table(results: list[Result]) -> None:
    header = (f"{'case':<20} {'bound':<8} {'ncu SOL sm/mem %':<18} {'ncu':<8} {'pred us':>9} {'meas us':>9} "
              f"{'err':>7} {'conflicts pred':>14} {'meas':>10} {'(raw)':>10} {'occ pred':>8} {'ncu':>6} "
              f"{'DRAM MB pred':>12} "
              f"{'ncu':>8}")
    print(header)
    print("-" * len(header))
    for r in results:
        if r.error and not r.model:
            print(f"{r.name:<20} error: {r.error}")
            continue
        sm = r.ncu.get("sm__throughput.avg.pct_of_peak_sustained_elapsed")
        mem = r.ncu.get("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")
        raw, conf = shared_conflicts(r.ncu)
        bank = r.model.get("bank", {})
        dram = r.ncu.get("dram__bytes_read.sum", 0.0) + r.ncu.get("dram__bytes_write.sum", 0.0)
        split = bank.get("conflicts_total_by_counter", {})
        pred_conf = _fmt(split.get("ld", 0.0) + split.get("st", 0.0), ".3g") if bank.get("available") else "n/a"
        err = r.checks.get("time_error")
        print(f"{r.name:<20} {r.model.get('bound', '-'):<8} {_fmt(sm, '.0f') + ' / ' + _fmt(mem, '.0f'):<18} "
              f"{r.ncu_bound or '-':<8} {_fmt(r.model.get('predicted_us')):>9} {_fmt(r.measured_us):>9} "
              f"{_fmt(None if err is None else 100 * err, '+.0f') + '%':>7} {pred_conf:>14} {conf:>10.3g} {raw:>10.3g} "
              f"{_fmt(r.model.get('occupancy_pct')):>8} "
              f"{_fmt(r.ncu.get('sm__maximum_warps_per_active_cycle_pct')):>6} "
              f"{_fmt(r.model.get('dram_bytes', 0) / 1e6, '.0f'):>12} {_fmt(dram / 1e6 if dram else None, '.0f'):>8}")
        if r.error:
            print(f"{'':<20} note: {r.error}")
    keys = ("bound_ok", "time_ok", "bank_kind_ok", "bank_count_ok", "occupancy_ok")
    for key in keys:
        got = [r.checks[key] for r in results if key in r.checks]
        failed = ', '.join(r.name for r in results if r.checks.get(key) is False)
        print(f"{key}: {sum(got)}/{len(got)}" + (f"  (failed: {failed})"
                                                 if not all(got) else ""))


def model_only(cases: str) -> int:
    """The model of every case for sm90 on the H200's data sheet, without a GPU (meta tensors)."""
    import torch

    from irscope.analysis.perf.predict import device_model
    from irscope.model.gpus import GPUS
    from irscope.model.targets import resolve_target

    sheet = device_model(GPUS["h200"])
    store = tempfile.mkdtemp(prefix="irscope-perf-")
    for case in CASES:
        if cases and case.name not in cases.split(","):
            continue
        t0 = time.time()
        launch = case.build(torch, sheet.sm_count, device="meta")
        model, _sheet, _report = _model(launch, resolve_target("sm90"), store, sheet, sheet)
        print(f"{case.name:<20} {model['bound']:<8} {model['predicted_us']:>10.1f} us  occupancy "
              f"{model['occupancy_pct']:.1f}%  flops {model['flops']:.3g}  dram {model['dram_bytes']:.3g}  "
              f"({time.time() - t0:.1f} s)")
        for s in model["suggestions"]:
            print(f"{'':<22}- {s['text']}")
    shutil.rmtree(store, ignore_errors=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="perf_model_validation.json")
    parser.add_argument("--driver", help=argparse.SUPPRESS)
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    parser.add_argument("--no-ncu", action="store_true", help="skip Nsight Compute (model and do_bench only)")
    parser.add_argument("--ncu", default=os.environ.get("NCU", NCU_DEFAULT if Path(NCU_DEFAULT).exists() else "ncu"))
    parser.add_argument("--ncu-timeout", type=float, default=90.0)
    parser.add_argument("--model-only", action="store_true",
                        help="no GPU: capture for sm90 with stand-in (meta) tensors and print the H200 "
                             "data-sheet model")
    args = parser.parse_args()
    if args.driver:
        return driver(args.driver)
    if args.model_only:
        return model_only(args.cases)

    import torch

    if not torch.cuda.is_available():
        print("perf_model_validation: no GPU visible to torch; this check needs one", file=sys.stderr)
        return 2
    import triton
    from triton.testing import do_bench

    from irscope.analysis.perf.predict import device_model
    from irscope.model.targets import native_target
    from irscope.request.perf_launch import measured_device, native_gpu
    from irscope.run.bench import measure_ceilings

    started = time.time()
    target = native_target()
    props = torch.cuda.get_device_properties(0)
    print(f"GPU {props.name} ({props.multi_processor_count} SMs), target {target.name if target else None}, "
          f"Triton {triton.__version__}, torch {torch.__version__}")
    ceilings = measure_ceilings()
    native = measured_device(ceilings, target.name if target else "sm90")  # as irscope perf --gpu native does
    sheet = device_model(native_gpu(ceilings.device, target.name if target else "sm90"))
    print(f"measured: copy {ceilings.copy_gbps:.0f} GB/s, gathers "
          f"{', '.join(f'{k} B {v:.0f}' for k, v in ceilings.gather_gbps.items())} GB/s, cuBLAS fp16 "
          f"{ceilings.matmul_tflops:.0f} TFLOP/s "
          f"({time.time() - started:.0f} s)")
    chosen = [c for c in CASES if not args.cases or c.name in args.cases.split(",")]
    store = tempfile.mkdtemp(prefix="irscope-perf-")
    results: list[Result] = []
    kernel_names: dict[str, str] = {}
    for case in chosen:
        t0 = time.time()
        try:
            launch = case.build(torch, props.multi_processor_count)
        except Exception as exc:  # a case that cannot be built is reported, the others still run
            results.append(Result(case.name, case.flaw, "", [], error=f"build: {type(exc).__name__}: {exc}"))
            continue
        kernel_names[case.name] = launch.kernel_name
        result = Result(case.name, case.flaw, launch.kernel_name, list(launch.grid))
        try:
            result.model, result.model_datasheet, _report = _model(launch, target, store, native, sheet)
        except Exception as exc:  # the model's failure is a finding, recorded per case
            result.error = f"model: {type(exc).__name__}: {exc}"
        try:
            result.measured_us = 1000.0 * float(do_bench(lambda launch=launch: launch.fn[launch.grid](
                *launch.args, **launch.kwargs), return_mode="median"))
        except Exception as exc:  # a launch failure (e.g. out of resources) is a finding too
            result.error += f" run: {type(exc).__name__}: {exc}"
        del launch
        torch.cuda.empty_cache()
        results.append(result)
        print(f"  {case.name}: model {result.model.get('predicted_us', float('nan')):.1f} us "
              f"({result.model.get('bound', '?')}), do_bench {_fmt(result.measured_us)} us ({time.time() - t0:.0f} s)"
              + (f" [{result.error.strip()}]" if result.error else ""))
        for suggestion in result.model.get("suggestions", []):  # under their own case's line
            print(f"    - {suggestion['text']}")
    ncu = shutil.which(args.ncu) or (args.ncu if Path(args.ncu).exists() else None)
    if args.no_ncu or ncu is None:
        print("ncu: skipped" if args.no_ncu else f"ncu: not found ({args.ncu})")
    else:
        metrics = _usable_metrics(ncu)
        for result in results:
            if result.name not in kernel_names:
                continue
            t0 = time.time()
            values, problem = profile(_case(result.name), kernel_names[result.name], ncu, metrics, args.ncu_timeout)
            result.ncu = values
            result.ncu_bound = ncu_bound(values)
            if problem:
                result.error += f" ncu: {problem}"
            print(f"  ncu {result.name}: {len(values)} metrics ({time.time() - t0:.0f} s)")
    for result in results:
        if result.model:
            result.checks = _checks(result)
    print()
    print_table(results)
    payload = {
        "gpu": props.name, "triton": triton.__version__, "torch": torch.__version__,
        "ceilings": asdict(ceilings), "seconds": time.time() - started,
        "cases": [asdict(r) for r in results],
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(payload, indent=2, default=str), encoding="utf-8")
    print(f"\nwrote {args.out} ({time.time() - started:.0f} s)")
    shutil.rmtree(store, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
