"""A static performance model of one launch: how long it should take on a GPU, what bounds it, what would help.

The model is a roofline with the two corrections that matter most for Triton kernels:

* compute time: the tensor-core FLOPs at the device's tensor peak for the operand type, plus the other
  float instructions at the vector (CUDA-core) rate, per SM: the busiest SM runs ``ceil(grid / SMs)``
  CTAs, so a partial last wave costs a whole one;
* memory time: the DRAM bytes (compulsory traffic, plus re-reads the L2 cannot hold) at the device's
  bandwidth, but never faster than the bytes in flight allow (Little's law: an SM with few CTAs, each with
  a few KB of loads outstanding, cannot cover the DRAM latency);
* shared-memory time: the wavefronts of the shared accesses (and the bank conflicts the bank-conflict
  analysis predicts) at one wavefront per cycle per SM.

``predicted_us`` is the largest of these plus a fixed launch cost. The verdict is ``latency`` when the
corrections (tail wave, too few bytes in flight) raise the time well above the plain roofline, else
``compute`` or ``memory`` by the larger term. Every assumption is listed in the result; nothing here
imports Triton or torch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from irscope.analysis.perf.atomics import Contention
from irscope.analysis.perf.device import GATHER_EFFICIENCY, GATHER_STEPS, DeviceModel, device_model
from irscope.analysis.perf.panels import PanelTraffic
from irscope.analysis.perf.report import BankSummary, LoopCost, PerfReport, Suggestion
from irscope.analysis.perf.waits import (
    CTA_START_NS,
    chain_sentence,
    chain_us,
    cta_start_sentence,
    cta_start_us,
    one_cta_rows_us,
    serial_loops_us,
)
from irscope.analysis.perf.work import LoopTrips, Mix
from irscope.model.launch import LaunchShape, TensorBytes

__all__ = ["DIRTY_L2_SHARE", "DRAM_LATENCY_NS", "GATHER_EFFICIENCY", "GATHER_STEPS", "LAUNCH_US", "BankSummary", "DeviceModel", "LaunchShape", "LoopCost", "PerfReport",
           "Suggestion", "TensorBytes", "device_model", "predict"]

DRAM_LATENCY_NS = 900.0  # loaded DRAM round trip (H200: softmax 32768x1024 with 24 KB in flight per SM); uncertain
LAUNCH_US = 2.0  # the shortest kernel a GPU timer reports (launch, ramp and drain); uncertain
SM_PORT_BYTES_PER_CLOCK = 64.0  # L2 -> SM bytes per clock one SM can receive (NVIDIA; AMD similar); uncertain
SHARED_WAVEFRONTS_PER_CLOCK = 1.0  # one 128-byte shared-memory wavefront per SM per clock
# Volta to Hopper: 4 schedulers per SM, each issues one warp instruction per clock. The FP32 pipe takes one
# warp FFMA per scheduler per clock too, so in an FMA loop every other instruction costs an FMA's slot.
ISSUE_PER_SM_CLOCK = 4.0
# Cycles before an FP32/integer ALU result can feed the next instruction (Volta to Hopper: 4): a scheduler needs that
# many warps to issue every cycle on dependent code
DEPENDENT_ISSUE_CYCLES = 4.0
LATENCY_MARGIN = 1.5  # a time this much above the plain roofline is called latency-bound
# L2 -> SM bandwidth per SM per clock: the A100's 5120 B/clk L2 over its 108 SMs, assumed per SM on later parts
L2_BYTES_PER_SM_CLOCK = 48.0
# Spill (local) bytes one SM moves to and from the L2 per clock when it spills with a single CTA resident: 0.72
# 32-byte sectors (ncu, H200: matmul 128x256x64 on 4 warps, 207M local sectors in 2.19M cycles per SM), against
# the 48 B the L2 serves per SM when every SM streams; fitted on that one case: uncertain
LOCAL_BYTES_PER_SM_CLOCK = 23.0
# L2 requests (one per warp instruction and 128-byte line) per SM per clock the L2 serves: 0.65 on the H200 (a
# 16x16-tile matmul, 32-byte requests, L2 at 88% of its peak); uncertain elsewhere
L2_REQUESTS_PER_SM_CLOCK = 0.65
# ncu calls a launch latency-bound when no unit reaches this share of its peak; so does the model when the DRAM
# term wins but its access pattern keeps the DRAM below it
LATENCY_SOL = 0.6
# Share of the L2 still holding dirty output lines when a kernel that writes more than that ends: ncu's DRAM writes
# fell 20-27 MB (median 24 MB, 38% of the 60 MiB L2) short of the bytes written on 13 streaming kernels of the
# foreign set (tests/data/perf_foreign), 19-25 MB on the validation's softmax and vector_add; uncertain
DIRTY_L2_SHARE = 0.38
# How many loop iterations apart CTAs that share data read it when all are resident at once (they drift; fla's
# chunk_fwd_kernel_h: 4 V-blocks re-read one k chunk, ncu saw no re-read reach DRAM); uncertain
REUSE_SKEW = 2.0


@dataclass(frozen=True)
class _Totals:
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


def _totals(once: Mix, loops: tuple[LoopCost, ...], prologue_iterations: dict[str, float], dependent: int = 0
            ) -> _Totals:
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
    return _Totals(tensor, vector, vinsn, loads, stores, waves, in_flight, lsu, issued, chain)


def _dram(totals: _Totals, ctas: int, shape: LaunchShape, l2_bytes: int, waves: int, window: float = 0.0,
          panels: PanelTraffic | None = None, copies: float = 0.0) -> tuple[float, float, float, str, float, float]:
    """(compulsory, re-read, dram bytes, the assumption in words, bytes still dirty in the L2 at the end, the bytes
    requested again whose L2 hit rate is a guess)."""
    loads, stores = totals.loads * ctas, totals.stores * ctas
    inputs = sum(t.nbytes for t in shape.tensors if t.role in ("input", "inout"))
    outputs = sum(t.nbytes for t in shape.tensors if t.role in ("output", "inout"))
    if panels is not None and (panels.requested_bytes or not shape.tensors):  # the descriptors' blocks, tile order
        # the pointer tensors the launch recorded beside the descriptors: each read once
        beside = sum(t.nbytes for t in shape.tensors if t.role in ("input", "inout") and t.name not in panels.descriptors)
        pointers = min(beside, max(0.0, loads - panels.requested_bytes))
        moved = panels.dram_bytes + pointers + max(stores, panels.store_bytes)
        return moved, 0.0, moved, panels.why, 0.0, 0.0
    if not shape.tensors:
        return (loads + stores, 0.0, loads + stores,
                "tensor sizes unknown: every requested byte is assumed to come from DRAM once (no reuse)", 0.0, 0.0)
    written = min(stores, outputs)
    compulsory = min(loads, inputs) + written
    extra = max(0.0, loads - copies * ctas - inputs)  # a layout's copies of an element are one DRAM read
    if panels is not None:  # a persistent grid's tile order: the panels of each round's tiles
        miss = 1.0
        extra = max(0.0, min(panels.dram_bytes, loads) - min(loads, inputs))
        why = panels.why
    elif inputs <= l2_bytes:
        miss = 0.0
        why = (f"the inputs ({inputs / 2**20:.1f} MiB) fit in the {l2_bytes / 2**20:.0f} MiB last-level cache, "
               "so re-reads hit it")
    elif window and window <= l2_bytes:
        miss = 0.0
        why = (f"every CTA is resident at once and walks its loop in step with the others: what they re-read of "
               f"each other's data is read within {REUSE_SKEW:g} iterations, {window / 2**20:.1f} MiB of loads "
               f"across the grid, which the {l2_bytes / 2**20:.0f} MiB L2 holds, so re-reads hit it (uncertain)")
    else:
        miss = (1.0 - l2_bytes / inputs) / max(1, waves)
        why = (f"the inputs ({inputs / 2**20:.1f} MiB) exceed the {l2_bytes / 2**20:.0f} MiB last-level cache; a re-read misses "
               f"when its tile left the L2 since a previous wave read it: (1 - L2/inputs) / waves = {miss:.1%} of "
               "re-reads assumed to miss (tile orders that keep a wave's tiles together; uncertain)")
    reread = extra * miss
    # The L2 writes back: the last lines written are still dirty in it when the kernel ends, and reach the DRAM
    # after it (ncu's dram__bytes_write of the launch does not count them).
    dirty = min(written, DIRTY_L2_SHARE * l2_bytes)
    text = ("compulsory: each input byte read once, each output byte written once (min of the tensors' sizes and "
            "what the CTAs request); "
            + (f"{copies * ctas / 2**20:.1f} MiB are copies of elements a load's layout gives several threads (one "
               "instruction, the same addresses: L1 and L2 hits, not DRAM reads); " if copies else "")
            + f"{extra / 2**20:.1f} MiB requested again: {why}"
            + (f"; the last {dirty / 2**20:.1f} MiB written stay dirty in the L2 when the kernel ends "
               f"({DIRTY_L2_SHARE:.0%} of it, fitted on the H200: uncertain) and are written back after it (not "
               "in the DRAM bytes, which are what the launch moves while it runs; still in its DRAM time: the write-"
               "back is its work)" if dirty else ""))
    guessed = extra if panels is None and inputs > l2_bytes else 0.0
    return compulsory, reread, compulsory + reread, text, dirty, guessed


def _suggestions(report_terms: dict[str, float], bank: BankSummary, occupancy: Any, shape_grid: int, sm_count: int,
                 ctas_per_sm: int, tail: float, waves: int, mma_dtype: str, vector_us: float, spills: int,
                 loads_per_thread_bytes: float, coalescing: str, fma_dot: bool, resident: int) -> list[Suggestion]:
    """Two or three changes that would move the predicted time most, each with its evidence."""
    predicted = max(report_terms.values())
    found: list[Suggestion] = []
    if bank.available and bank.worst_ways > 1:
        gain = report_terms["shared"] * (1 - 1 / bank.worst_ways) / predicted if predicted else 0.0
        found.append(Suggestion(gain, f"{bank.worst}: a swizzled shared layout (or a different vector width) would "
                                      "make it conflict-free"))
    if shape_grid < sm_count:
        found.append(Suggestion(1 - shape_grid / sm_count,
                                f"the grid has {shape_grid} CTAs for {sm_count} SMs: {sm_count - shape_grid} SMs idle; "
                                "smaller tiles or a split of the reduction would fill them"))
    elif 1 < waves <= 8 and (1 - tail) / waves > 0.1 and report_terms["compute"] >= report_terms["dram"]:
        found.append(Suggestion((1 - tail) / waves,
                                f"the last of {waves} waves is {tail:.0%} full: a tile size that divides the grid "
                                "into whole waves (or a persistent grid) removes the tail"))
    others = max(report_terms["compute"], report_terms["dram"], report_terms["l2"], report_terms["shared"])
    if report_terms["latency"] > others * LATENCY_MARGIN:
        found.append(Suggestion(1 - others / predicted,
                                f"only {loads_per_thread_bytes / 1024:.1f} KB of loads in flight per SM with "
                                f"{resident} CTA(s) per SM ("
                                + (f"{occupancy}" if resident >= ctas_per_sm else f"the grid's; {ctas_per_sm} would fit")
                                + "): deeper pipelining (num_stages), larger "
                                "tiles or more CTAs per SM would cover the DRAM latency"))
    if mma_dtype in ("fp32", "tf32") or (not mma_dtype and fma_dot):
        what = ("the dot runs on CUDA cores (fp32 FMAs, no tensor-core instruction in the loop)" if not mma_dtype
                else f"the dot runs as {mma_dtype} on the tensor cores")
        found.append(Suggestion(0.5, f"{what}: fp16/bf16 operands (or allow_tf32 / input_precision='tf32') would "
                                     "use the faster tensor-core rate"))
    if spills:
        rest = max(v for k, v in report_terms.items() if k != "spill")
        found.append(Suggestion(max(0.2, 1 - rest / predicted) if predicted else 0.2, f"{spills} bytes per thread spill to local memory (ptxas -v; AMD: VGPRs spilled x 4): fewer warps' worth "
                                     "of live values (smaller tiles, fewer stages) or more num_warps would remove them"))
    if coalescing:
        found.append(Suggestion(0.5, coalescing))
    if report_terms.get("serial", 0.0) >= predicted > 0:
        found.append(Suggestion(0.5, "the loads a loop's MMAs wait on are not pipelined and one CTA per SM leaves "
                                     "nothing to overlap the wait: a shared-memory (async or TMA) operand, more "
                                     "stages or more CTAs per SM (smaller tiles, fewer registers) would hide it"
                                if mma_dtype else "one CTA per SM waits for its loads, receives and computes on them in "
                                "turn: more CTAs per SM (fewer warps or registers each) would overlap one's loads "
                                "with another's work"))
    if report_terms.get("atomics", 0.0) >= predicted > 0:
        found.append(Suggestion(1 - sorted(report_terms.values())[-2] / predicted, "the atomics on shared addresses "
                                "take longest: summing the values bound for one address first (within the CTA, or "
                                "a sort by index and a segmented sum) would issue fewer of them"))
    if report_terms.get("ctas", 0.0) >= predicted > 0:  # gain: down to the next longest term
        found.append(Suggestion(1 - sorted(report_terms.values())[-2] / predicted, "starting the CTAs takes longest (one per SM every "
                                f"{CTA_START_NS:.0f} ns): fewer, larger CTAs (a larger block per program) would cut it"))
    if not found:
        top = max(report_terms, key=lambda k: report_terms[k])
        what = {"compute": "compute", "dram": "DRAM bandwidth", "l2": "L2 bandwidth", "latency": "DRAM latency",
                "shared": "shared-memory bandwidth", "spill": "spill traffic",
                "serial": "loads not pipelined, waited for in series", "ctas": "starting its CTAs",
                "atomics": "atomics on the same addresses, applied one at a time"}[top]
        found.append(Suggestion(0.0, f"nothing stands out: the launch is limited by {what} as the model sees it; "
                                     "only less work (fewer bytes or FLOPs) or a different algorithm would help"))
    return sorted(found, key=lambda s: -s.gain)[:3]


@dataclass(frozen=True)
class _Spread:
    """How the launch's CTAs spread over the SMs: ``per_sm`` resident at a time, the busiest SM running ``busiest``."""

    ctas: int
    sms: int
    per_sm: int
    waves: int
    tail: float
    busiest: int
    resident: int


def _spread(shape: LaunchShape, sms: int, occupancy: Any, programs: float = 1.0) -> _Spread:
    """The grid in waves of ``SMs x resident CTAs``, CTAs handed out round-robin; ``programs``: the share of them that
    do the work (the others return at once and free their slot: the working ones fill the waves)."""
    ctas = max(1, round(shape.grid[0] * shape.grid[1] * shape.grid[2] * programs))
    per_sm = max(1, occupancy.ctas) if occupancy is not None and occupancy.fits else 1
    concurrent = sms * per_sm
    waves = max(1, math.ceil(ctas / concurrent))
    tail = (ctas - (waves - 1) * concurrent) / concurrent
    busiest = math.ceil(ctas / sms)  # CTAs the busiest SM runs over the launch
    return _Spread(ctas, sms, per_sm, waves, tail, busiest, min(per_sm, busiest))


@dataclass(frozen=True)
class _Compute:
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


def _compute(device: DeviceModel, totals: _Totals, dtype: str, spread: _Spread, num_warps: int = 0) -> _Compute:
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
    return _Compute(peak, per_sm_tensor, compute_us, max(vector_us, issue_us) * stall, plain_us, stall)


@dataclass(frozen=True)
class _Traffic:
    """The bytes: requested from the L2, the DRAM estimate and its parts, and where the spills go.

    Attributes:
        why: the DRAM assumption in words.
        spills_in_l2: the spill traffic does not fit in the L1 beside shared memory; ``l1_free`` what is left there.
    """

    requested: float
    compulsory: float
    reread: float
    dram: float
    why: str
    spills_in_l2: bool
    l1_free: int
    dirty: float = 0.0
    hit_range: tuple[float, ...] = ()  # DRAM bytes with every guessed re-read hitting the L2, and missing it


def _traffic(totals: _Totals, spread: _Spread, shape: LaunchShape, device: DeviceModel, num_warps: int, spills: int,
             local_wavefronts: float, shared_per_cta: int, coalescing_factor: float, gather_note: str,
             rounds: float = 1.0, looped: bool = False, panels: PanelTraffic | None = None,
             copies: float = 0.0) -> _Traffic:
    """Requested and DRAM bytes of the launch, uncoalesced accesses and spills included.

    ``rounds``: how many times each CTA writes a part of the output (a persistent grid's tiles): the inputs pass
    through the L2 in ``waves x rounds`` generations, not ``waves``.
    """
    ctas = spread.ctas
    generations = max(1, round(spread.waves * rounds))
    # one wave, one pass each: CTAs that share data read it at about the same iteration
    window = ctas * totals.in_flight * REUSE_SKEW if spread.waves == 1 and generations == 1 and looped else 0.0
    compulsory, reread, dram, why, dirty, guessed = _dram(totals, ctas, shape, max(device.l2_bytes, device.llc_bytes),
                                                 generations, window, panels, copies)
    if device.llc_bytes:  # fitted on an NVIDIA L2; a memory-side cache (AMD's Infinity Cache) is not modelled so
        dirty = 0.0
    if generations > spread.waves and panels is None:
        why += (f" (the {spread.waves} wave(s) of CTAs write their output in {rounds:.0f} rounds each: "
                f"{generations} generations of tiles)")
    if coalescing_factor > 1.0:
        dram *= coalescing_factor
        why += f"; scaled by {coalescing_factor:.1f}x for uncoalesced accesses (sectors fetched per useful byte)"
    if gather_note:
        why += f"; {gather_note}"
    dram -= dirty
    compulsory -= dirty
    requested = (totals.loads + totals.stores) * ctas
    # Spills stay in L1 while the resident CTAs' local memory fits beside their shared memory; else they go to L2,
    # and the part of them the L2 cannot hold (every SM's resident CTAs' local memory together) on to DRAM: those
    # bytes are written back and read again, and pass the L2 once more on the way.
    spill_footprint = spread.resident * spills * num_warps * 32
    l1_free = max(0, device.shared_per_sm - spread.resident * shared_per_cta)
    spills_in_l2 = bool(local_wavefronts) and spill_footprint > l1_free
    if spills_in_l2:
        requested += local_wavefronts * 128 * ctas
        everywhere = spill_footprint * min(spread.sms, ctas)
        l2 = max(device.l2_bytes, device.llc_bytes)
        spill_dram = local_wavefronts * 128 * ctas * max(0.0, 1.0 - l2 / everywhere) if everywhere else 0.0
        if spill_dram:
            dram += spill_dram
            requested += spill_dram
            why += (f"; spills: {everywhere / 2**20:.0f} MiB of local memory live at once exceed the "
                    f"{l2 / 2**20:.0f} MiB L2, so {1 - l2 / everywhere:.0%} of their traffic ({spill_dram / 2**20:.0f} "
                    "MiB) is assumed to reach DRAM")
    scale = coalescing_factor if coalescing_factor > 1.0 else 1.0
    return _Traffic(requested, compulsory, reread, dram, why, spills_in_l2, l1_free, dirty,
                    (dram - reread * scale, dram + (guessed - reread) * scale) if guessed else ())


@dataclass(frozen=True)
class _Memory:
    """The memory side's times (busiest SM) and what the latency term saw in flight."""

    dram_us: float
    latency_us: float
    in_flight: float
    per_sm_bw: float
    shared_us: float
    l2_us: float
    l2_bandwidth: float
    spill_us: float
    chain: str = ""  # when the round trips a CTA waits for in turn make the latency term: what they are


def _memory(device: DeviceModel, totals: _Totals, traffic: _Traffic, spread: _Spread, compute: _Compute,
            bank: BankSummary, coalescing_factor: float, local_wavefronts: float, l2_bytes_per_request: float,
            dram_efficiency: float, tma_bytes: float = 0.0) -> _Memory:
    """DRAM, DRAM-latency, shared-memory, L2 and spill times; ``tma_bytes``: what TMA copies move, of the requested."""
    ctas, sms, busiest = spread.ctas, spread.sms, spread.busiest
    clock = device.clock_mhz * 1e6
    dram_us = (traffic.dram + traffic.dirty) / (device.dram_gbs * 1e9 * dram_efficiency) * 1e6
    # what the DRAM has outstanding: whole segments, so an uncoalesced load has its factor more in flight
    in_flight = spread.resident * totals.in_flight * max(1.0, coalescing_factor)
    per_sm_bw = min(in_flight / (DRAM_LATENCY_NS * 1e-9), SM_PORT_BYTES_PER_CLOCK * clock)
    # what a CTA waits for: its loads (stores are not waited for; their bytes are the DRAM term's)
    per_cta_bytes = min(totals.loads, traffic.dram / ctas) if ctas else 0.0
    latency_us = busiest * per_cta_bytes / per_sm_bw * 1e6 if per_sm_bw else 0.0
    waited = chain_us(totals.chain, busiest, spread.resident, DRAM_LATENCY_NS)
    chain = chain_sentence(totals.chain, busiest, spread.resident, DRAM_LATENCY_NS) if waited > latency_us else ""
    latency_us = max(latency_us, waited)
    conflicts = bank.conflicts_per_cta if bank.available else 0.0
    shared_waves = totals.wavefronts + conflicts
    if bank.available and bank.complete:
        # the bank model's ld/st wavefronts (conflicts included) replace the PTX-width count: it knows the widths
        # ptxas chose and the lanes that share (broadcast) one address; cp.async stays as counted
        shared_waves = (totals.wavefronts - totals.lsu_wavefronts + bank.lsu_wavefronts_per_cta
                        + bank.by_counter.get("ldgsts", 0.0))
    l1_wavefronts = shared_waves + (0.0 if traffic.spills_in_l2 else local_wavefronts)
    shared_us = busiest * l1_wavefronts / (SHARED_WAVEFRONTS_PER_CLOCK * clock) * 1e6
    l2_bandwidth = L2_BYTES_PER_SM_CLOCK * sms * clock
    l2_requests = traffic.requested / max(1.0, l2_bytes_per_request)
    # TMA's bulk copies fill the SM's 64-byte port (the H200's TMA mm: 2.2 GB in 192 us, 58 B per SM clock, with
    # the L2 at 81% of its peak); the LSU's requests reach the 48 B figure
    tma = min(tma_bytes, traffic.requested)
    l2_time = (traffic.requested - tma) / l2_bandwidth + tma / (SM_PORT_BYTES_PER_CLOCK * sms * clock)
    l2_us = max(l2_time, l2_requests / (L2_REQUESTS_PER_SM_CLOCK * sms * clock)) * 1e6
    # One CTA per SM that spills to L2: its reloads feed its next MMAs and its stores wait for the last ones, and no
    # other CTA is resident to overlap them, so per CTA the spill traffic and the tensor-core time add up.
    spill_us = 0.0
    if traffic.spills_in_l2 and spread.resident == 1:
        per_cta = local_wavefronts * 128 / (LOCAL_BYTES_PER_SM_CLOCK * clock)
        per_cta += totals.tensor_flops / compute.per_sm_tensor if compute.per_sm_tensor else 0.0
        spill_us = busiest * per_cta * 1e6
    return _Memory(dram_us, latency_us, in_flight, per_sm_bw, shared_us, l2_us, l2_bandwidth, spill_us, chain)


def _verdict(terms: dict[str, float], spread: _Spread, compute: _Compute, memory: _Memory, device: DeviceModel,
             dram_efficiency: float, tensor_flops: float, flops: float, dram: float) -> tuple[str, str]:
    """The bound (``compute``, ``memory`` or ``latency``) and the sentence that says why."""
    ctas, sms = spread.ctas, spread.sms
    plain_compute, dram_us, latency_us = compute.plain_us, memory.dram_us, memory.latency_us
    top = max(terms, key=lambda k: terms[k])
    memory_side = max(dram_us, memory.l2_us, memory.shared_us, memory.spill_us)
    if top == "ctas":
        return "latency", cta_start_sentence(spread.busiest, max(v for k, v in terms.items() if k != "ctas"))
    sheet_bw = device.sheet_dram_gbs or device.dram_gbs
    dram_share = dram_efficiency * device.dram_gbs / sheet_bw if sheet_bw else 1.0
    if top == "dram" and dram_share < LATENCY_SOL:
        return "latency", (f"DRAM time {dram_us:.1f} us is the largest term, but its scattered segments keep the DRAM "
                           f"at {dram_share:.0%} of its {sheet_bw:.0f} GB/s peak, under the {LATENCY_SOL:.0%} at which "
                           "a unit is the limit: the accesses wait on DRAM latency")
    if top == "latency" and latency_us > LATENCY_MARGIN * max(memory_side, plain_compute, 1e-9):
        reason = (f"{memory.chain}: {latency_us:.1f} us against {max(memory_side, plain_compute):.1f} us of DRAM or "
                  "compute time" if memory.chain else
                  f"{memory.in_flight / 1024:.1f} KB of loads in flight per SM cover only "
                  f"{memory.per_sm_bw * sms / 1e9:.0f} GB/s at {DRAM_LATENCY_NS:.0f} ns latency: {latency_us:.1f} us "
                  f"against {max(memory_side, plain_compute):.1f} us of DRAM or compute time")
        return "latency", (f"{ctas} CTAs leave {sms - ctas} of {sms} SMs idle; " + reason if ctas < sms else reason)
    if top == "compute" and terms["compute"] > LATENCY_MARGIN * max(plain_compute, memory_side, 1e-9):
        return "latency", (f"the busiest SM runs {spread.busiest} CTA(s) where {ctas / sms:.2f} would balance"
                           + (f" ({sms - ctas} of {sms} SMs idle)" if ctas < sms else f" (the last of {spread.waves} "
                              f"waves is {spread.tail:.0%} full)")
                           + f": {terms['compute']:.1f} us against a {plain_compute:.1f} us roofline")
    if top == "compute":
        unit, share = compute.busiest_unit(terms["compute"])
        if share < LATENCY_SOL:
            stalled = (f", stretched {compute.stall:.1f}x by dependent issue ({spread.resident} CTA(s) of "
                       "few warps per SM)" if compute.stall > 1.0 else "")
            return "latency", (f"the compute time {terms['compute']:.1f} us is tensor-core work "
                               f"({compute.compute_us:.1f} us) and vector work ({compute.vector_us:.1f} us{stalled}) "
                               f"in series: {unit}, the busiest unit, is busy {share:.0%} of it, under the "
                               f"{LATENCY_SOL:.0%} at which a unit is the limit")
    if top in ("shared", "l2", "spill") or (top == "latency" and memory_side >= plain_compute):
        what = {"shared": "shared-memory / L1 wavefronts", "l2": "L2 traffic",
                "spill": "spill traffic to L2 in series with the MMAs (one CTA per SM: nothing overlaps them)"}.get(
                    top, "DRAM traffic and its latency")
        return "memory", (f"{what} ({terms[top]:.1f} us) exceed the compute time ({terms['compute']:.1f} us); DRAM "
                          f"{dram_us:.1f} us, L2 {memory.l2_us:.1f} us, shared {memory.shared_us:.1f} us")
    if top == "compute" or (top == "latency" and plain_compute > memory_side):
        return "compute", (f"{'tensor-core' if tensor_flops else 'vector'} time {terms['compute']:.1f} us exceeds "
                           f"DRAM time {dram_us:.1f} us (intensity {flops / dram if dram else 0:.0f} FLOP/B)")
    return "memory", f"DRAM time {dram_us:.1f} us exceeds compute time {terms['compute']:.1f} us"


def _serial_verdict(terms: dict[str, float], compute: _Compute, what: str, busy: float, dram_peak_share: float
                    ) -> tuple[str, str]:
    """ncu's rule on the model's own terms: a unit under 60% of its peak over the launch's time is not its limit.

    ``dram_peak_share``: the model's DRAM rate against the data sheet's (ncu's percentages are of the sheet's peak).
    """
    compute_share = compute.busiest_unit(busy)[1]
    memory_share = max(terms["dram"] * dram_peak_share, terms["l2"], terms["shared"]) / busy if busy else 0.0
    if max(compute_share, memory_share) < LATENCY_SOL:
        return "latency", what
    unit = "compute" if compute_share >= memory_share else "memory"
    return unit, (f"{what}; {unit} is busy {max(compute_share, memory_share):.0%} of that time, over the "
                  f"{LATENCY_SOL:.0%} at which a unit is the limit")


def _assumptions(shape: LaunchShape, spread: _Spread, device: DeviceModel, traffic: _Traffic, memory: _Memory,
                 peak: float, dtype: str, num_warps: int, spills: int, local_wavefronts: float,
                 l2_bytes_per_request: float) -> tuple[str, ...]:
    """What the model assumed, one sentence each."""
    return (
        f"grid {shape.grid} from {shape.origin or 'the caller'}; CTAs spread round-robin, the busiest SM runs "
        f"{spread.busiest} of them, {spread.resident} at a time",
        traffic.why,
        f"tensor peak {peak:.0f} TFLOP/s ({dtype or 'no tensor-core work'}), vector fp32 "
        f"{device.vector_tflops.get('fp32', 0.0):.0f} TFLOP/s, DRAM {device.dram_gbs:.0f} GB/s ({device.origin})",
        f"latency term: {DRAM_LATENCY_NS:.0f} ns DRAM latency, loads in flight per CTA = one loop iteration's loads "
        "times the stages issued ahead (or all loads of a loop-free kernel), and a CTA waits one round trip per loop "
        "iteration those stages do not cover, and one more per load whose address is a loaded value; uncertain",
        f"a fixed {LAUNCH_US:.0f} us per launch (launch, ramp, drain); uncertain; an SM starts one CTA per "
        f"{CTA_START_NS:.0f} ns (measured on the H200)",
        f"L2: every requested byte passes it at {L2_BYTES_PER_SM_CLOCK:g} B per SM per clock "
        f"({memory.l2_bandwidth / 1e12:.1f} TB/s; the A100's 5120 B/clk per SM, assumed for the others: uncertain), in "
        f"requests of {l2_bytes_per_request:.0f} B (one per warp instruction and 128-byte line) at "
        f"{L2_REQUESTS_PER_SM_CLOCK:g} per SM per clock (fitted on the H200: uncertain)",
        "shared memory: one 128-byte wavefront per SM per clock, plus predicted bank conflicts"
        + (f"; spill traffic (SASS LDL/STL, {local_wavefronts * 128 / 1024:.0f} KiB per CTA) "
           + (f"goes to L2: {spread.resident} CTA(s) x {spills} B x {num_warps * 32} threads exceed the "
              f"{traffic.l1_free // 1024} KiB of L1 left beside shared memory" if traffic.spills_in_l2
              else "stays in L1")
           + (f"; with one CTA per SM it moves at {LOCAL_BYTES_PER_SM_CLOCK:g} B per SM per clock (fitted on one "
              "H200 case: uncertain), in series with the CTA's MMAs" if memory.spill_us else "")
           if local_wavefronts else ""),
    )


def predict(*, kernel: str, target: str, config_index: int, device: DeviceModel, shape: LaunchShape,
            num_warps: int, occupancy: Any, once: Mix, loops: tuple[LoopCost, ...],
            prologue_iterations: dict[str, float], bank: BankSummary, spills: int = 0,
            coalescing: str = "", coalescing_factor: float = 1.0, local_wavefronts: float = 0.0,
            shared_per_cta: int = 0, l2_bytes_per_request: float = 128.0, dram_efficiency: float = 1.0,
            gather_note: str = "", notes: tuple[str, ...] = (), rounds: float = 1.0,
            serial: tuple[tuple[float, float, str], ...] = (), panels: PanelTraffic | None = None,
            copies: float = 0.0, tma_bytes: float = 0.0, uncertain: tuple[str, ...] = (),
            programs: float = 1.0, sass_in_flight: float = 0.0, dots: bool = True, dependent: int = 0,
            atomics: Contention | None = None) -> PerfReport:
    """The prediction for a launch whose work has been read (see ``irscope.analysis.perf.capture``); ``programs``: the
    share of the grid's programs that get past the early returns their program id decides; ``sass_in_flight``: the
    global-load bytes one thread keeps outstanding in the SASS (``inflight``), 0 when unknown; ``dots``: whether the
    kernel has a dot at all (a reduction loop's FMAs are no dot on CUDA cores); ``dependent``: how many global loads
    outside loops wait for one another in turn (``dependent.load_depths``); ``atomics``: the atomic op whose addresses
    take the most atomics each (``atomics.atomic_contention``)."""
    spread = _spread(shape, device.sm_count, occupancy, programs)
    ctas = spread.ctas
    limit = ", ".join(occupancy.limiting) if occupancy is not None else "unknown"
    totals = _totals(once, loops, prologue_iterations, dependent)
    flops = (totals.tensor_flops + totals.vector_flops) * ctas
    dtype = once.mma_dtype or next((lp.per_iteration.mma_dtype for lp in loops if lp.per_iteration.mma_dtype), "")
    compute = _compute(device, totals, dtype, spread, num_warps)
    traffic = _traffic(totals, spread, shape, device, num_warps, spills, local_wavefronts, shared_per_cta,
                       coalescing_factor, gather_note, rounds, any(lp.executions > 1 for lp in loops), panels,
                       copies)
    if sass_in_flight * num_warps * 32 > totals.in_flight:  # ptxas issued more loads ahead than the PTX shows
        deeper = sass_in_flight * num_warps * 32 / totals.in_flight if totals.in_flight else 1.0
        totals = replace(totals, in_flight=sass_in_flight * num_warps * 32, chain=totals.chain / deeper)
    memory = _memory(device, totals, traffic, spread, compute, bank, coalescing_factor, local_wavefronts,
                     l2_bytes_per_request, dram_efficiency, tma_bytes)
    shared_per_sm_us = memory.shared_us * ctas / (spread.busiest * spread.sms) if ctas else 0.0
    roofline = max(compute.plain_us, memory.dram_us, memory.l2_us, shared_per_sm_us)
    serial_us, serial_what = serial_loops_us(serial, spread.resident, spread.busiest, compute.per_sm_tensor,
                                             DRAM_LATENCY_NS)
    row_us, row_what = one_cta_rows_us(
        spread.resident, spread.ctas, spread.busiest, bool(totals.tensor_flops), DRAM_LATENCY_NS, totals.chain,
        (traffic.dram + traffic.dirty) / spread.ctas if spread.ctas else 0.0,
        SM_PORT_BYTES_PER_CLOCK * device.clock_mhz * 1e6, compute.vector_us / max(1, spread.busiest) * 1e-6)
    if row_us > serial_us:
        serial_us, serial_what = row_us, row_what
    terms = {"compute": compute.compute_us + compute.vector_us, "dram": memory.dram_us, "l2": memory.l2_us,
             "latency": memory.latency_us, "shared": memory.shared_us, "spill": memory.spill_us,
             "serial": serial_us, "ctas": cta_start_us(spread.busiest), "atomics": atomics.us if atomics else 0.0}
    predicted = max(terms.values()) + LAUNCH_US
    bound, reason = _verdict(terms, spread, compute, memory, device, dram_efficiency, totals.tensor_flops, flops,
                             traffic.dram)
    if atomics and max(terms, key=lambda k: terms[k]) == "atomics":  # no unit busy: an address at a time
        bound, reason = "latency", atomics.sentence()
    if serial_us and max(terms, key=lambda k: terms[k]) == "serial":
        sheet_bw = device.sheet_dram_gbs or device.dram_gbs
        bound, reason = _serial_verdict(terms, compute, serial_what, predicted - LAUNCH_US,
                                        device.dram_gbs / sheet_bw if sheet_bw else 1.0)
    fma_dot = dots and not totals.tensor_flops and any(lp.per_iteration.vector_flops for lp in loops) and \
        compute.vector_us > 0.3 * (predicted - LAUNCH_US)
    gains = _suggestions(terms, bank, limit, ctas, spread.sms, spread.per_sm, spread.tail, spread.waves, dtype,
                         compute.vector_us, spills, memory.in_flight, coalescing, fma_dot, spread.resident)
    if uncertain and gains and gains[0].text.startswith("nothing stands out"):
        # the model only knows what it modelled: say what it could not, rather than that nothing would help
        gains = [Suggestion(0.0, "nothing stands out among what the model covers, but it could not model "
                                 + "; ".join(uncertain[:3]) + (f" (and {len(uncertain) - 3} more)" if len(uncertain) > 3
                                                               else "") + ": the time may be off by what those cost")]
    dram = traffic.dram
    span, span_why = _time_range(terms, traffic)
    return PerfReport(
        kernel=kernel, target=target, config_index=config_index, device=device, grid=shape.grid,
        grid_origin=shape.origin, num_warps=num_warps, ctas_per_sm=spread.per_sm,
        occupancy_pct=float(occupancy.percent) if occupancy is not None else 0.0,
        occupancy_limit=limit, waves=spread.waves, tail_utilisation=spread.tail, loops=loops, once=once, flops=flops,
        tensor_flops=totals.tensor_flops * ctas, vector_flops=totals.vector_flops * ctas, mma_dtype=dtype,
        requested_bytes=traffic.requested, compulsory_bytes=traffic.compulsory, reread_bytes=traffic.reread,
        dram_bytes=dram, dram_assumption=traffic.why, arithmetic_intensity=flops / dram if dram else 0.0,
        compute_us=compute.compute_us, vector_us=compute.vector_us, memory_us=max(memory.dram_us, memory.latency_us),
        shared_us=memory.shared_us, roofline_us=roofline, bytes_in_flight_per_sm=memory.in_flight,
        predicted_us=predicted, roofline_fraction=roofline / predicted if predicted else 0.0, bound=bound,
        bound_reason=reason, bank=bank, suggestions=tuple(gains),
        assumptions=_assumptions(shape, spread, device, traffic, memory, compute.peak, dtype, num_warps, spills,
                                 local_wavefronts, l2_bytes_per_request) + notes,
        uncertain=uncertain, time_range=span, range_why=span_why)


def _time_range(terms: dict[str, float], traffic: _Traffic) -> tuple[tuple[float, ...], tuple[str, ...]]:
    """The time if every re-read whose L2 hit rate was guessed hits the L2, and if every one misses it."""
    if not traffic.hit_range or not traffic.dram:
        return (), ()

    def at(dram: float) -> float:
        scale = (dram + traffic.dirty) / (traffic.dram + traffic.dirty)
        return max({**terms, "dram": terms["dram"] * scale, "latency": terms["latency"] * scale}.values()) + LAUNCH_US

    low, high = (at(b) for b in traffic.hit_range)
    why = (f"L2 hit rate not modelled: of the bytes requested again, all hitting the L2 gives "
           f"{traffic.hit_range[0] / 1e6:.0f} MB of DRAM traffic and {low:.1f} us, all missing it "
           f"{traffic.hit_range[1] / 1e6:.0f} MB and {high:.1f} us")
    return (low, high), (why,)


def loop_costs(trips: list[LoopTrips], matched: list[tuple[int | None, str, tuple[int, int], str]],
               mixes: dict[str, Mix]) -> tuple[LoopCost, ...]:
    """Each TTGIR loop (line, source, TTGIR span, listing label) with its trips and its machine-code mix."""
    by_line = {t.ttgir_line: t for t in trips}
    costs: list[LoopCost] = []
    for line, source, span, label in matched:
        trip = by_line.get(span[0])
        count = trip.trips if trip else None
        executions = count if count is not None else 1.0
        for _outer_line, _outer_source, outer_span, _label in matched:
            if outer_span[0] < span[0] <= outer_span[1]:
                outer = by_line.get(outer_span[0])
                executions *= outer.trips if outer and outer.trips is not None else 1.0
        costs.append(LoopCost(line=line, source=source, trips=count,
                              trips_note=trip.note if trip else "no scf.for found at the loop's line",
                              executions=executions, per_iteration=mixes.get(label, Mix()), listing_label=label))
    return tuple(costs)
