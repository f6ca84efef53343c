"""The compute side of a launch: per-CTA work totals, how the grid spreads over the SMs, tensor and vector time."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from irscope.analysis.perf.device import DeviceModel
from irscope.analysis.perf.figures import DEPENDENT_ISSUE_CYCLES, ISSUE_PER_SM_CLOCK
from irscope.analysis.perf.report import LoopCost
from irscope.analysis.perf.work import Mix
from irscope.model.launch import LaunchShape

__all__ = ["ComputeSide", "Spread", "Totals", "compute_side", "cta_totals", "grid_spread"]


@dataclass(frozen=True)
class Totals:
    tensor_flops: float
    vector_flops: float
    vector_instructions: float
    loads: float
    stores: float
    wavefronts: float
    in_flight: float
    lsu_wavefronts: float = 0.0
    warp_instructions: float = 0.0
    chain: float = 0.0


def cta_totals(once: Mix, loops: tuple[LoopCost, ...], prologue_iterations: dict[str, float], dependent: int = 0
            ) -> Totals:
    """Per-CTA totals; a pipelined loop's loads issued ahead in the prologue are not counted twice; ``dependent``: the
    loads outside loops that wait for one another in turn (``dependent.load_depths``)."""
    tensor = once.mma_flops
    vector = once.vector_flops
    vinsn = once.vector_instructions
    loads = once.global_load_bytes
    stores = once.global_store_bytes
    waves = once.shared_wavefronts
    lsu = once.lsu_wavefronts
    issued = once.warp_instructions
    in_flight = once.global_load_bytes if not loops else 0.0
    # round trips a CTA waits for in turn (waits.chain_us): a load waiting for a loaded address stalls the CTA's
    # issue until that value arrives; its own round trip overlaps the loop's loads, issued next
    looped = any(loop.per_iteration.global_load_bytes and loop.executions for loop in loops)
    chain = float(dependent - looped) if dependent > 1 else 0.0
    for loop in loops:
        mix, runs = loop.per_iteration, loop.executions
        ahead = prologue_iterations.get(loop.listing_label, 0.0)
        tensor += mix.mma_flops * runs
        vector += mix.vector_flops * runs
        vinsn += mix.vector_instructions * runs
        loads += mix.global_load_bytes * max(0.0, runs - ahead)
        stores += mix.global_store_bytes * runs
        waves += mix.shared_wavefronts * runs
        lsu += mix.lsu_wavefronts * runs
        issued += mix.warp_instructions * runs
        in_flight = max(in_flight, mix.global_load_bytes * max(1.0, ahead))
        if mix.global_load_bytes:  # AMD's stream pipeliner peels the stages it issues ahead into an epilogue
            chain += runs * max(1, loop.dependent) / (1.0 + max(ahead, float(loop.peeled)))
    return Totals(tensor, vector, vinsn, loads, stores, waves, in_flight, lsu, issued, chain)


@dataclass(frozen=True)
class Spread:
    """How the launch's CTAs spread over the SMs: ``per_sm`` resident at a time, the busiest SM running ``busiest``."""

    ctas: int
    sms: int
    per_sm: int
    waves: int
    tail: float
    busiest: int
    resident: int


def grid_spread(shape: LaunchShape, sms: int, occupancy: Any, programs: float = 1.0) -> Spread:
    """The grid in waves of ``SMs x resident CTAs``, CTAs handed out round-robin; ``programs``: the share of them that
    do the work (the others return at once and free their slot: the working ones fill the waves)."""
    ctas = max(1, round(shape.grid[0] * shape.grid[1] * shape.grid[2] * programs))
    per_sm = max(1, occupancy.ctas) if occupancy is not None and occupancy.fits else 1
    concurrent = sms * per_sm
    waves = max(1, math.ceil(ctas / concurrent))
    tail = (ctas - (waves - 1) * concurrent) / concurrent
    busiest = math.ceil(ctas / sms)  # CTAs the busiest SM runs over the launch
    return Spread(ctas, sms, per_sm, waves, tail, busiest, min(per_sm, busiest))


@dataclass(frozen=True)
class ComputeSide:
    """The compute side: rates per SM, the busiest SM's tensor and vector time, and the plain roofline's.

    ``stall``: the factor by which dependent issue (too few warps per scheduler) stretches the vector time; the
    stretch is waiting, not work, so the issue unit is busy ``vector_us / stall`` of it.
    """

    peak: float
    per_sm_tensor: float
    compute_us: float
    vector_us: float
    plain_us: float
    stall: float = 1.0

    def busiest_unit(self, busy: float) -> tuple[str, float]:
        """The compute unit busiest over ``busy`` microseconds (tensor cores or issue / CUDA cores) and its share."""
        tensor = self.compute_us / busy if busy else 0.0
        vector = self.vector_us / self.stall / busy if busy else 0.0
        return ("the tensor cores", tensor) if tensor >= vector else ("vector issue", vector)


def compute_side(device: DeviceModel, totals: Totals, dtype: str, spread: Spread, num_warps: int = 0) -> ComputeSide:
    """Tensor-core time at the operand type's peak, vector time by FMAs or issue slots, whichever is longer."""
    ctas, sms, busiest = spread.ctas, spread.sms, spread.busiest
    peak = device.tensor_tflops.get(dtype) or device.tensor_tflops.get("fp16", 0.0)
    # With few SMs busy the clock (and power) allow more per SM: interpolate from the data sheet's per-SM peak
    # (one SM busy) to the measured whole-GPU peak (all busy). Measured on the H200: 8 CTAs ran at 93% of the
    # data sheet's per-SM rate while the whole GPU reaches 68%.
    sheet = device.sheet_tensor_tflops.get(dtype) or peak
    active = min(1.0, ctas / sms) if sms else 1.0
    per_sm_tensor = (sheet - (sheet - peak) * active) * 1e12 / sms
    per_sm_vector = device.vector_tflops.get("fp32", 0.0) * 1e12 / 2 / sms  # lane instructions per second per SM
    compute_us = busiest * totals.tensor_flops / per_sm_tensor * 1e6 if per_sm_tensor and totals.tensor_flops else 0.0
    vector_us = busiest * totals.vector_instructions / per_sm_vector * 1e6 if per_sm_vector else 0.0
    clock = device.clock_mhz * 1e6
    # issue slots: a vector loop is bound by all its instructions (loads, address arithmetic), not its FMAs alone
    issue_us = busiest * totals.warp_instructions / (ISSUE_PER_SM_CLOCK * clock) * 1e6 if vector_us else 0.0
    plain_us = (totals.tensor_flops * ctas / (peak * 1e12) * 1e6 if peak else 0.0) + \
        (max(totals.vector_instructions / per_sm_vector, totals.warp_instructions / (ISSUE_PER_SM_CLOCK * clock))
         * ctas / sms * 1e6 if per_sm_vector and totals.vector_instructions else 0.0)
    # A scheduler with fewer warps than an ALU result takes cycles cannot issue every cycle: a warp's next
    # instruction usually needs the last one's result
    per_scheduler = spread.resident * num_warps / ISSUE_PER_SM_CLOCK
    stall = max(1.0, DEPENDENT_ISSUE_CYCLES / per_scheduler) if per_scheduler else 1.0
    return ComputeSide(peak, per_sm_tensor, compute_us, max(vector_us, issue_us) * stall, plain_us, stall)
