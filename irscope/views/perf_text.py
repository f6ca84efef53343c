"""Text and JSON for ``irscope perf``: the device, the work, bank conflicts and the verdict of one launch."""

from __future__ import annotations

from typing import Any

from irscope.analysis.perf.predict import DeviceModel, PerfReport
from irscope.analysis.perf.work import Mix
from irscope.analysis.report.reasons import OFF_BY, uncertainty
from irscope.model.gpus import GPUS, Gpu

__all__ = ["perf_json", "render_gpu_table", "render_perf"]


def _si(value: float, unit: str) -> str:
    for scale, prefix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{value / scale:.2f} {prefix}{unit}"
    return f"{value:.0f} {unit}"


def _bytes(value: float) -> str:
    for scale, name in ((2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB")):
        if abs(value) >= scale:
            return f"{value / scale:.2f} {name}"
    return f"{value:.0f} B"


def _mix_json(mix: Mix) -> dict[str, Any]:
    return {"mma": dict(mix.mma), "mma_flops": mix.mma_flops, "mma_dtype": mix.mma_dtype,
            "vector_flops": mix.vector_flops, "vector_instructions": mix.vector_instructions,
            "global_load_bytes": mix.global_load_bytes, "global_store_bytes": mix.global_store_bytes,
            "shared_loads": mix.shared_loads, "shared_stores": mix.shared_stores,
            "shared_wavefronts": mix.shared_wavefronts, "shared_bytes": mix.shared_bytes, "barriers": mix.barriers,
            "local_accesses": mix.local_accesses}


def _device_json(device: DeviceModel) -> dict[str, Any]:
    return {"name": device.name, "product": device.product, "origin": device.origin, "sm_count": device.sm_count,
            "clock_mhz": device.clock_mhz, "tensor_tflops": device.tensor_tflops,
            "vector_tflops": device.vector_tflops, "dram_gbs": device.dram_gbs, "l2_bytes": device.l2_bytes,
            "llc_bytes": device.llc_bytes,
            "registers_per_sm": device.registers_per_sm, "shared_per_sm": device.shared_per_sm,
            "sources": list(device.sources)}


def perf_json(report: PerfReport) -> dict[str, Any]:
    """Every number of the report, under the names the issue uses (bound, predicted_us, flops, dram_bytes)."""
    ctas = report.grid[0] * report.grid[1] * report.grid[2]
    return {
        "kernel": report.kernel, "target": report.target, "config": report.config_index,
        "device": _device_json(report.device),
        "grid": list(report.grid), "grid_origin": report.grid_origin, "ctas": ctas, "num_warps": report.num_warps,
        "ctas_per_sm": report.ctas_per_sm, "occupancy_pct": report.occupancy_pct,
        "occupancy_limit": report.occupancy_limit, "waves": report.waves,
        "tail_utilisation": report.tail_utilisation,
        "loops": [{"line": lp.line, "source": lp.source, "trips": lp.trips, "trips_note": lp.trips_note,
                   "executions": lp.executions, "peeled": lp.peeled, "per_iteration": _mix_json(lp.per_iteration)}
                   for lp in report.loops],
        "once": _mix_json(report.once),
        "flops": report.flops, "tensor_flops": report.tensor_flops, "vector_flops": report.vector_flops,
        "mma_dtype": report.mma_dtype, "requested_bytes": report.requested_bytes,
        "compulsory_bytes": report.compulsory_bytes, "reread_bytes": report.reread_bytes,
        "dram_bytes": report.dram_bytes, "dram_assumption": report.dram_assumption,
        "arithmetic_intensity": report.arithmetic_intensity,
        "compute_us": report.compute_us, "vector_us": report.vector_us, "memory_us": report.memory_us,
        "shared_us": report.shared_us, "roofline_us": report.roofline_us,
        "bytes_in_flight_per_sm": report.bytes_in_flight_per_sm,
        "predicted_us": report.predicted_us, "roofline_fraction": report.roofline_fraction,
        "time_range_us": list(report.time_range), "range_why": list(report.range_why),
        "time_us": report.facts.time.to_json(), "facts": report.facts.to_json(),
        "bound": report.bound, "bound_reason": report.bound_reason,
        "bank": {"available": report.bank.available, "message": report.bank.message,
                 "accesses": list(report.bank.accesses), "worst_ways": report.bank.worst_ways,
                 "conflicts_per_cta": report.bank.conflicts_per_cta,
                 "conflicts_total": report.bank.conflicts_per_cta * ctas,
                 "conflicts_total_by_counter": {k: v * ctas for k, v in report.bank.by_counter.items()}},
        "suggestions": [{"gain": s.gain, "text": s.text} for s in report.suggestions],
        "assumptions": list(report.assumptions), "uncertain": list(report.uncertain),
    }


def render_gpu_table(gpus: list[Gpu] | None = None) -> str:
    """The GPUs irscope knows, with their data-sheet figures and sources."""
    rows = gpus if gpus is not None else list(GPUS.values())
    lines = [f"{'gpu':<8} {'target':<7} {'fp16 TF':>8} {'fp8 TF':>7} {'tf32 TF':>8} {'fp32 TF':>8} {'HBM GB/s':>9} "
             f"{'L2 MiB':>7} {'SMs':>4} {'regs/SM':>8} {'smem/SM KiB':>11} {'MHz':>5}"]
    for g in rows:
        lines.append(f"{g.name:<8} {g.target:<7} {g.peak_tflops.get('fp16', 0):>8.0f} "
                     f"{g.peak_tflops.get('fp8', 0):>7.0f} "
                     f"{g.peak_tflops.get('tf32', 0):>8.0f} {g.vector_tflops.get('fp32', 0):>8.1f} "
                     f"{g.memory_bandwidth_gbs:>9.0f} {g.l2_cache_bytes / 2**20:>7.0f} {g.sm_count:>4} "
                     f"{g.registers_per_sm:>8} {g.shared_memory_per_sm // 1024:>11} {g.boost_clock_mhz:>5}")
    lines.append("sources: " + "; ".join(sorted({s.title for g in rows for s in g.sources})))
    return "\n".join(lines) + "\n"


def _mix_line(mix: Mix) -> str:
    parts = []
    if mix.mma:
        parts.append(", ".join(f"{n} x {op}" for op, n in mix.mma.items()) + f" = {_si(mix.mma_flops, 'FLOP')}")
    if mix.vector_flops:
        parts.append(f"vector {_si(mix.vector_flops, 'FLOP')}")
    if mix.global_load_bytes or mix.global_store_bytes:
        parts.append(f"global {_bytes(mix.global_load_bytes)} in, {_bytes(mix.global_store_bytes)} out")
    if mix.shared_loads or mix.shared_stores:
        parts.append(f"shared {_bytes(mix.shared_bytes)} in {mix.shared_loads:.0f} loads and {mix.shared_stores:.0f} "
                     "stores (warp instructions)")
    if mix.barriers:
        parts.append(f"{mix.barriers:.0f} barriers")
    return "; ".join(parts) or "nothing the model counts"


# How many of the changes the summary lists; --explain lists them all.
SUMMARY_SUGGESTIONS = 3
EXPLAIN_HINT = "the derivation (device, each loop's work, every shared access, the assumptions): --explain"


def render_perf(report: PerfReport, title: str, explain: bool = False) -> str:
    """The report as text: the verdict, the bound and the changes that would move it first, in one screen; with
    ``explain``, the derivation after it (device, work, bank conflicts, assumptions)."""
    out = [title, "", *_verdict(report, None if explain else SUMMARY_SUGGESTIONS), "", *_glance(report)]
    if not explain:
        return "\n".join([*out, "", EXPLAIN_HINT]) + "\n"
    return "\n".join([*out, "", *_derivation(report)]) + "\n"


def _verdict(report: PerfReport, most: int | None) -> list[str]:
    d = report.device
    least = "at least " if report.facts.time.kind == "lower_bound" else ""
    out = [f"Verdict: {report.bound}-bound, {least}{report.predicted_us:.1f} us predicted on the {d.product} "
           f"({d.name}, {d.origin})",
           f"  bound: {report.bound} ({report.bound_reason})",
           f"  predicted_us: {least}{report.predicted_us:.1f}  (compute {report.compute_us + report.vector_us:.1f}, "
           f"memory {report.memory_us:.1f}, shared {report.shared_us:.1f}; roofline {report.roofline_us:.1f} us = "
           f"{report.roofline_fraction:.0%} of the prediction)"]
    span = report.facts.time
    if span.kind == "range":
        out.append(f"  range: {span.words()} over what it did not model: " + "; ".join(report.range_why))
    elif span.kind == "lower_bound":
        out.append(f"  {span.words()}: a lower bound, no upper end known"
                   + (f" (over the rest: {'; '.join(report.range_why)})" if report.range_why else ""))
    if why := uncertainty(report.facts):
        out.append(f"  off by more than {OFF_BY:.0f}x? {why}")
    shown = report.suggestions if most is None else report.suggestions[:most]
    out.append("  what would move it most:")
    out += [f"    - {s.text}" for s in shown]
    if len(shown) < len(report.suggestions):
        out.append(f"    ({len(report.suggestions) - len(shown)} more with --explain)")
    return out


def _glance(report: PerfReport) -> list[str]:
    """The launch, the work and the shared accesses in a line each: what the verdict rests on."""
    ctas = report.grid[0] * report.grid[1] * report.grid[2]
    bank = report.bank
    if not bank.available:
        conflicts = bank.message
    elif bank.worst:
        conflicts = f"{bank.message}; worst: {bank.worst}; about {bank.conflicts_per_cta:.0f} extra wavefronts per CTA"
    else:
        conflicts = f"{bank.message}, all conflict-free"
    out = [f"Launch: grid {report.grid} = {ctas} CTAs of {report.num_warps} warps ({report.grid_origin}), "
           f"{report.ctas_per_sm} per SM "
           f"({report.occupancy_pct:.1f}% occupancy, limited by {report.occupancy_limit}), {report.waves} wave(s)",
           f"Work: {_si(report.flops, 'FLOP')} (tensor {_si(report.tensor_flops, 'FLOP')}"
           f"{', ' + report.mma_dtype if report.mma_dtype else ''}; vector {_si(report.vector_flops, 'FLOP')}), "
           f"DRAM {_bytes(report.dram_bytes)} (compulsory {_bytes(report.compulsory_bytes)} + re-read "
           f"{_bytes(report.reread_bytes)}), {report.arithmetic_intensity:.1f} FLOP/B",
           f"Shared memory: {conflicts}"]
    if report.uncertain:
        out.append(f"Uncertain: {len(report.uncertain)} point(s) the model is unsure of (--explain lists them)")
    return out


def _derivation(report: PerfReport) -> list[str]:
    d = report.device
    ctas = report.grid[0] * report.grid[1] * report.grid[2]
    unit = "CU" if report.target.startswith("gfx") else "SM"  # AMD's compute units
    out = [f"Device: {d.product} ({d.name}, {d.origin}): {d.sm_count} {unit}s, {d.clock_mhz:.0f} MHz, "
           f"tensor {', '.join(f'{k} {v:.0f}' for k, v in d.tensor_tflops.items())} TFLOP/s, "
           f"fp32 {d.vector_tflops.get('fp32', 0):.1f} TFLOP/s, DRAM {d.dram_gbs:.0f} GB/s, "
           f"L2 {_bytes(d.l2_bytes)}" + (f" (+ {_bytes(d.llc_bytes)} Infinity Cache)" if d.llc_bytes else "")
           + f", {d.registers_per_sm} registers and {_bytes(d.shared_per_sm)} shared per {unit}"]
    out += [f"  source: {s}" for s in d.sources]
    out += ["", "Work:",
            f"  grid {report.grid} = {ctas} CTAs of {report.num_warps} warps ({report.grid_origin}); "
            f"{report.ctas_per_sm} CTA(s) per {unit} ({report.occupancy_pct:.1f}% occupancy, limited by "
            f"{report.occupancy_limit}); {report.waves} wave(s), the last {report.tail_utilisation:.0%} full"]
    for lp in report.loops:
        trips = "unknown" if lp.trips is None else f"{lp.trips:.4g}"
        if lp.peeled:
            trips += f" in the loop + {lp.peeled} peeled into the epilogue by the pipeliner"
        out.append(f"  loop line {lp.line} `{lp.source}`: {trips} trips ({lp.trips_note})")
        out.append(f"    per iteration per CTA: {_mix_line(lp.per_iteration)}")
    out.append(f"  once per CTA: {_mix_line(report.once)}")
    out.append(f"  flops {report.flops:.6g} (tensor "
               f"{report.tensor_flops:.6g}{', ' + report.mma_dtype if report.mma_dtype else ''}; "
               f"vector {report.vector_flops:.6g})")
    out.append(f"  requested {_bytes(report.requested_bytes)}; dram_bytes {report.dram_bytes:.6g} "
               f"({_bytes(report.dram_bytes)}: compulsory {_bytes(report.compulsory_bytes)} + re-read "
               f"{_bytes(report.reread_bytes)})")
    out.append(f"    assumption: {report.dram_assumption}")
    out.append(f"  arithmetic intensity {report.arithmetic_intensity:.1f} FLOP/B")
    out += ["", "Shared-memory bank conflicts:"]
    if not report.bank.available:
        out.append(f"  {report.bank.message}")
    else:
        out.append(f"  {report.bank.message}; about {report.bank.conflicts_per_cta:.0f} extra wavefronts per CTA")
        out += [f"  {a}" for a in report.bank.accesses]
    out += ["", "Assumptions:"] + [f"  - {a}" for a in report.assumptions]
    if report.uncertain:
        out += ["Uncertain:"] + [f"  - {u}" for u in report.uncertain]
    return out
