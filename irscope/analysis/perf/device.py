"""The device the performance model runs a launch on: data-sheet figures, or figures measured on this GPU.

``device_model`` turns a row of ``irscope.model.gpus`` (with its sources) into the figures the model uses, and
replaces the ones ``--gpu native`` measured: DRAM copy bandwidth, the cuBLAS fp16 rate and the DRAM rate
of gathers by the step between their segments. Nothing here imports Triton or torch.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from irscope.model.gpus import Gpu

__all__ = ["COPY_SHARE", "GATHER_EFFICIENCY", "GATHER_STEPS", "DeviceModel", "device_model"]

# DRAM bandwidth, relative to a streaming copy, of a gather that uses one 32-byte sector of each 64-byte segment
# (the DRAM moves the whole segment), by the address step between the segments a warp touches: 64 B when they
# are neighbours, more as they scatter over DRAM pages. ``--gpu native`` measures these steps; else the H200's
# figures (benchmarks/dram_gather_sweep.py: 1 GiB of segments per step, 2026-12-01; flat from 512 B to 16 KB)
# are assumed for every GPU: uncertain.
GATHER_EFFICIENCY: tuple[tuple[int, float], ...] = ((64, 0.74), (256, 0.57), (1024, 0.54), (4096, 0.55))
GATHER_STEPS = tuple(step for step, _ in GATHER_EFFICIENCY)
# What a streaming copy reaches of the data sheet's DRAM bandwidth, used when it is not measured: 4248 of the H200's
# 4800 GB/s (perf_model_validation's --gpu native copy, 2026-12-01); assumed for every GPU: uncertain
COPY_SHARE = 0.885


@dataclass(frozen=True)
class DeviceModel:
    """The device figures the model used.

    Attributes:
        name / product: the GPU.
        origin: ``data sheet`` or ``measured`` (``--gpu native``).
        sm_count: SMs (CUs); ``clock_mhz`` the clock the peaks assume.
        tensor_tflops: dense tensor-core peaks per operand type.
        vector_tflops: non-tensor peaks (``fp32``: FMA counted as 2 FLOPs).
        dram_gbs: DRAM bandwidth, GB/s.
        l2_bytes: L2 size.
        llc_bytes: a memory-side last-level cache (AMD Infinity Cache), 0 when there is none.
        registers_per_sm / shared_per_sm: per SM (CU).
        sources: where each figure came from, one line each.
        sheet_tensor_tflops: the data sheet's tensor peaks (what one SM reaches when few SMs are busy).
        gather_efficiency: (segment step in bytes, DRAM rate of a one-sector-per-segment gather over
            ``dram_gbs``), by step; see :meth:`gather_rate`.
        sheet_dram_gbs: the data sheet's DRAM bandwidth (the peak ncu's DRAM percentages refer to).
    """

    name: str
    product: str
    origin: str
    sm_count: int
    clock_mhz: float
    tensor_tflops: dict[str, float]
    vector_tflops: dict[str, float]
    dram_gbs: float
    l2_bytes: int
    registers_per_sm: int
    shared_per_sm: int
    sources: tuple[str, ...]
    llc_bytes: int = 0
    sheet_tensor_tflops: dict[str, float] = field(default_factory=dict)
    gather_efficiency: tuple[tuple[int, float], ...] = GATHER_EFFICIENCY
    sheet_dram_gbs: float = 0.0

    def gather_rate(self, step: float) -> float:
        """The gather efficiency at a segment step: log-linear between the measured steps, held beyond them."""
        points = sorted(self.gather_efficiency)
        if not points:
            return 1.0
        if step <= points[0][0]:
            return points[0][1]
        for (s0, e0), (s1, e1) in itertools.pairwise(points):
            if step <= s1:
                t = math.log2(step / s0) / math.log2(s1 / s0)
                return e0 + (e1 - e0) * t
        return points[-1][1]


def device_model(gpu: Gpu, copy_gbps: float | None = None, matmul_tflops: float | None = None,
                 device: str = "", gather_gbps: dict[int, float] | None = None) -> DeviceModel:
    """The figures of ``gpu``; with measured copy bandwidth / fp16 tensor throughput, those replace the data sheet's.

    A measured fp16 peak scales every tensor peak by the same ratio (the clock the GPU holds under load is what
    differs most), which is an assumption, said so in ``sources``; the vector peak stays the data sheet's.
    """
    sources = [f"{gpu.product}: {', '.join(s.title for s in gpu.sources)}", *list(gpu.notes)]
    tensor = dict(gpu.peak_tflops)
    vector = dict(gpu.vector_tflops)
    clock = float(gpu.boost_clock_mhz)
    bandwidth = gpu.memory_bandwidth_gbs * COPY_SHARE
    origin = "data sheet"
    if not copy_gbps:
        sources.append(f"DRAM bandwidth: {COPY_SHARE:.1%} of the data sheet's "
                       f"{gpu.memory_bandwidth_gbs:.0f} GB/s, what a "
                       "streaming copy reached on the H200 (assumed for this GPU: uncertain)")
    if copy_gbps:
        sources.append(f"DRAM bandwidth measured now: a 1 GiB device copy ran at {copy_gbps:.0f} GB/s "
                       f"(data sheet {gpu.memory_bandwidth_gbs:.0f})")
        bandwidth = copy_gbps
        origin = "measured"
    if matmul_tflops and tensor.get("fp16"):
        ratio = matmul_tflops / tensor["fp16"]
        sources.append(f"tensor peak measured now: cuBLAS fp16 8192^3 at {matmul_tflops:.0f} TFLOP/s "
                       f"({ratio:.0%} of the data sheet's {tensor['fp16']:.0f}, the clock the GPU "
                       "holds with every SM's "
                       "tensor cores busy); the other tensor peaks are scaled by the same ratio (an assumption); the "
                       "vector peak and clock-based figures (L2, shared memory) are not (an FMA-bound kernel ran at "
                       "the full clock on the H200)")
        tensor = {k: v * ratio for k, v in tensor.items()}
        origin = "measured"
    gather = GATHER_EFFICIENCY
    if gather_gbps and copy_gbps:
        gather = tuple(sorted((int(step), min(1.0, rate / copy_gbps)) for step, rate in gather_gbps.items()))
        sources.append("gathers measured now (one fp32 per 64-byte segment, DRAM segments per second against the "
                       "copy): " + ", ".join(f"{step} B apart {e:.0%}" for step, e in gather))
    else:
        sources.append("gathers (one 32-byte sector used per 64-byte segment), DRAM rate against a copy by the "
                       "segments' step, measured on an H200 (assumed for other GPUs: uncertain): "
                       + ", ".join(f"{step} B {e:.0%}" for step, e in gather))
    return DeviceModel(name=gpu.name, product=device or gpu.product, origin=origin, sm_count=gpu.sm_count,
                       clock_mhz=clock, tensor_tflops=tensor, vector_tflops=vector, dram_gbs=bandwidth,
                       l2_bytes=gpu.l2_cache_bytes, registers_per_sm=gpu.registers_per_sm,
                       shared_per_sm=gpu.shared_memory_per_sm, sources=tuple(sources),
                       llc_bytes=gpu.last_level_cache_bytes, sheet_tensor_tflops=dict(gpu.peak_tflops),
                       gather_efficiency=gather, sheet_dram_gbs=gpu.memory_bandwidth_gbs)
