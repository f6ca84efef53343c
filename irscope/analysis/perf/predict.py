"""A static performance model of one launch: how long it should take on a GPU, what bounds it, what would help.

The model is a roofline with the two corrections that matter most for Triton kernels:

* compute time (``compute``): the tensor-core FLOPs at the device's tensor peak for the operand type, plus the other
  float instructions at the vector (CUDA-core) rate, per SM: the busiest SM runs ``ceil(grid / SMs)``
  CTAs, so a partial last wave costs a whole one;
* memory time (``traffic``): the DRAM bytes (compulsory traffic, plus re-reads the L2 cannot hold) at the device's
  bandwidth, but never faster than the bytes in flight allow (Little's law: an SM with few CTAs, each with
  a few KB of loads outstanding, cannot cover the DRAM latency);
* shared-memory time: the wavefronts of the shared accesses (and the bank conflicts the bank-conflict
  analysis predicts) at one wavefront per cycle per SM.

``predicted_us`` is the largest of these plus a fixed launch cost. The verdict (``verdict``) is ``latency`` when the
corrections (tail wave, too few bytes in flight) raise the time well above the plain roofline, else
``compute`` or ``memory`` by the larger term. Every assumption is listed in the result, and what it found as typed
fields (``facts``); nothing here imports Triton or torch.
"""

from __future__ import annotations

from dataclasses import replace

from irscope.analysis.perf.compute import Spread, compute_side, cta_totals, grid_spread
from irscope.analysis.perf.device import GATHER_EFFICIENCY, GATHER_STEPS, DeviceModel, device_model
from irscope.analysis.perf.facts import AtomicsFact, LoopFact, PerfFacts, TimeSpan, Unknown
from irscope.analysis.perf.figures import (
    DIRTY_L2_SHARE,
    DRAM_LATENCY_NS,
    L2_BYTES_PER_SM_CLOCK,
    L2_REQUESTS_PER_SM_CLOCK,
    LAUNCH_US,
    LOCAL_BYTES_PER_SM_CLOCK,
    SM_PORT_BYTES_PER_CLOCK,
)
from irscope.analysis.perf.inputs import PerfInputs
from irscope.analysis.perf.report import BankSummary, LoopCost, PerfReport, PerfResult, Suggestion
from irscope.analysis.perf.suggest import suggestions
from irscope.analysis.perf.traffic import MemorySide, Traffic, memory_side, traffic_of
from irscope.analysis.perf.verdict import bound_verdict, serial_verdict
from irscope.analysis.perf.vocabulary import amd_words
from irscope.analysis.perf.waits import (
    CTA_START_NS,
    cta_start_us,
    longest_program_us,
    one_cta_rows_us,
    round_trip_ns,
    serial_loops_us,
)
from irscope.analysis.perf.work import LoopTrips, Mix
from irscope.model.launch import LaunchShape, TensorBytes

__all__ = ["DIRTY_L2_SHARE", "DRAM_LATENCY_NS", "GATHER_EFFICIENCY", "GATHER_STEPS", "LAUNCH_US",
           "LOCAL_BYTES_PER_SM_CLOCK", "BankSummary", "DeviceModel", "LaunchShape", "LoopCost", "PerfInputs",
           "PerfReport", "PerfResult", "Suggestion", "TensorBytes", "device_model", "loop_costs", "predict",
           "time_span"]


def predict(i: PerfInputs) -> PerfResult:
    """The prediction for a launch whose work has been read (see ``irscope.analysis.perf.capture``)."""
    spread = grid_spread(i.shape, i.device.sm_count, i.occupancy, i.programs)
    ctas = spread.ctas
    limit = ", ".join(i.occupancy.limiting) if i.occupancy is not None else "unknown"
    totals = cta_totals(i.once, i.loops, i.prologue_iterations, i.dependent)
    flops = (totals.tensor_flops + totals.vector_flops) * ctas
    dtype = i.once.mma_dtype or next((lp.per_iteration.mma_dtype for lp in i.loops if lp.per_iteration.mma_dtype), "")
    compute = compute_side(i.device, totals, dtype, spread, i.num_warps)
    traffic = traffic_of(totals, spread, i.shape, i.device, i.num_warps, i.spills, i.local_wavefronts, i.shared_per_cta,
                       i.coalescing_factor, i.gather_note, i.rounds, any(lp.executions > 1 for lp in i.loops), i.panels,
                       i.copies)
    if i.sass_in_flight * i.num_warps * 32 > totals.in_flight:  # ptxas issued more loads ahead than the PTX shows
        deeper = i.sass_in_flight * i.num_warps * 32 / totals.in_flight if totals.in_flight else 1.0
        totals = replace(totals, in_flight=i.sass_in_flight * i.num_warps * 32, chain=totals.chain / deeper)
    # the round trips a CTA waits for in turn: DRAM's for those that bring new lines, the L2's for the others
    trip_ns = round_trip_ns(totals.chain, (traffic.dram + traffic.dirty) / ctas if ctas else 0.0, i.device.clock_mhz)
    memory = memory_side(i.device, totals, traffic, spread, compute, i.bank, i.coalescing_factor, i.local_wavefronts,
                     i.l2_bytes_per_request, i.dram_efficiency, i.tma_bytes, trip_ns)
    shared_per_sm_us = memory.shared_us * ctas / (spread.busiest * spread.sms) if ctas else 0.0
    roofline = max(compute.plain_us, memory.dram_us, memory.l2_us, shared_per_sm_us)
    serial_us, serial_what = serial_loops_us(i.serial, spread.resident, spread.busiest, compute.per_sm_tensor,
                                             DRAM_LATENCY_NS)
    row_us, row_what = one_cta_rows_us(
        spread.resident, spread.ctas, spread.busiest, bool(totals.tensor_flops), trip_ns, totals.chain,
        (traffic.dram + traffic.dirty) / spread.ctas if spread.ctas else 0.0,
        SM_PORT_BYTES_PER_CLOCK * i.device.clock_mhz * 1e6, compute.vector_us / max(1, spread.busiest) * 1e-6)
    serial_us_loops = serial_us
    if row_us > serial_us:
        serial_us, serial_what = row_us, row_what
    per_sm_vector = i.device.vector_tflops.get("fp32", 0.0) * 1e12 / 2 / spread.sms if spread.sms else 0.0
    longest_us, longest_what = 0.0, ""
    if i.programs > 0:  # some program gets past the early returns: the longest of them runs its loops
        longest_us, longest_what = longest_program_us(i.loops, i.prologue_iterations, compute.per_sm_tensor,
                                                      per_sm_vector,
                                                      i.device.clock_mhz * 1e6, trip_ns)
    if longest_us > serial_us:
        serial_us, serial_what = longest_us, longest_what
    terms = {"compute": compute.compute_us + compute.vector_us, "dram": memory.dram_us, "l2": memory.l2_us,
             "latency": memory.latency_us, "shared": memory.shared_us, "spill": memory.spill_us,
             "serial": serial_us, "ctas": cta_start_us(spread.busiest), "atomics": i.atomics.us if i.atomics else 0.0}
    predicted = max(terms.values()) + LAUNCH_US
    top = max(terms, key=lambda k: terms[k])
    # the DRAM round trips one CTA waits for in turn, when they make the serial term (one CTA per SM)
    round_trips = round(totals.chain) if top == "serial" and row_us > serial_us_loops and totals.chain > 1 else 0
    bound, reason = bound_verdict(terms, spread, compute, memory, i.device, i.dram_efficiency, totals.tensor_flops,
                                  flops,
                             traffic.dram)
    if i.atomics and top == "atomics":  # no unit busy: an address at a time
        bound, reason = "latency", i.atomics.sentence()
    if serial_us and top == "serial":
        sheet_bw = i.device.sheet_dram_gbs or i.device.dram_gbs
        bound, reason = serial_verdict(terms, compute, serial_what, predicted - LAUNCH_US,
                                        i.device.dram_gbs / sheet_bw if sheet_bw else 1.0)
    fma_dot = i.dots and not totals.tensor_flops and any(lp.per_iteration.vector_flops for lp in i.loops) and \
        compute.vector_us > 0.3 * (predicted - LAUNCH_US)
    gains = suggestions(terms, i.bank, limit, ctas, spread.sms, spread.per_sm, spread.tail, spread.waves, dtype,
                         compute.vector_us, i.spills, memory.in_flight, i.coalescing, fma_dot, spread.resident)
    if i.uncertain and gains and gains[0].text.startswith("nothing stands out"):
        # the model only knows what it modelled: say what it could not, rather than that nothing would help
        gains = [Suggestion(0.0, "nothing stands out among what the model covers, but it could not model "
                                 + "; ".join(i.uncertain[:3])
                                 + (f" (and {len(i.uncertain) - 3} more)" if len(i.uncertain) > 3
                                                               else "") + ": the time may be off by what those cost")]
    dram = traffic.dram
    span, span_why = _time_range(terms, traffic)
    report = PerfReport(
        kernel=i.kernel, target=i.target, config_index=i.config_index, device=i.device, grid=i.shape.grid,
        grid_origin=i.shape.origin, num_warps=i.num_warps, ctas_per_sm=spread.per_sm,
        occupancy_pct=float(i.occupancy.percent) if i.occupancy is not None else 0.0,
        occupancy_limit=limit, waves=spread.waves, tail_utilisation=spread.tail, loops=i.loops, once=i.once,
        flops=flops,
        tensor_flops=totals.tensor_flops * ctas, vector_flops=totals.vector_flops * ctas, mma_dtype=dtype,
        requested_bytes=traffic.requested, compulsory_bytes=traffic.compulsory, reread_bytes=traffic.reread,
        dram_bytes=dram, dram_assumption=traffic.why, arithmetic_intensity=flops / dram if dram else 0.0,
        compute_us=compute.compute_us, vector_us=compute.vector_us, memory_us=max(memory.dram_us, memory.latency_us),
        shared_us=memory.shared_us, roofline_us=roofline, bytes_in_flight_per_sm=memory.in_flight,
        predicted_us=predicted, roofline_fraction=roofline / predicted if predicted else 0.0, bound=bound,
        bound_reason=reason, bank=i.bank, suggestions=tuple(gains),
        assumptions=_assumptions(i.shape, spread, i.device, traffic, memory, compute.peak, dtype, i.num_warps, i.spills,
                                 i.local_wavefronts, i.l2_bytes_per_request) + i.notes,
        uncertain=i.uncertain, time_range=span, range_why=span_why)
    return amd_words(replace(report, facts=perf_facts(i, report, top, round_trips)))


def _assumptions(shape: LaunchShape, spread: Spread, device: DeviceModel, traffic: Traffic, memory: MemorySide,
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


def _time_range(terms: dict[str, float], traffic: Traffic) -> tuple[tuple[float, ...], tuple[str, ...]]:
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
        origin = "unknown" if count is None else trip.origin if trip else "unknown"
        executions = count if count is not None else 1.0
        for _outer_line, _outer_source, outer_span, _label in matched:
            if outer_span[0] < span[0] <= outer_span[1]:
                outer = by_line.get(outer_span[0])
                executions *= outer.trips if outer and outer.trips is not None else 1.0
        costs.append(LoopCost(line=line, source=source, trips=count,
                              trips_note=trip.note if trip else "no scf.for found at the loop's line",
                              executions=executions, per_iteration=mixes.get(label, Mix()), listing_label=label,
                              busiest=trip.busiest if trip else None, origin=origin,
                              decided_by=trip.decided_by if trip else ""))
    return tuple(costs)


def time_span(predicted: float, time_range: tuple[float, ...], unknowns: tuple[Unknown, ...]) -> TimeSpan:
    """The prediction as a point, a range (``time_range``: what it did not model, both ways) or a lower bound (an
    unknown the prediction counts the least of: a loop's unknown trips counted once)."""
    low, high = time_range if time_range else (predicted, predicted)
    if any(u.lower_bound for u in unknowns):
        return TimeSpan(min(low, predicted), None, "lower_bound")
    if high > low:
        return TimeSpan(low, high, "range")
    return TimeSpan(predicted, predicted, "point")


def perf_facts(i: PerfInputs, report: PerfReport, limit: str, round_trips: int) -> PerfFacts:
    """The report's findings as typed fields."""
    atomics = i.atomics
    loops = tuple(LoopFact(line=lp.line or 0, trips=lp.trips, busiest=lp.busiest, origin=lp.origin,
                           decided_by=lp.decided_by, executions=lp.executions,
                           loads_global=bool(lp.per_iteration.global_load_bytes)) for lp in i.loops)
    return PerfFacts(
        bound=report.bound, limit=limit, round_trips=round_trips,
        uncoalesced_factor=i.coalescing_factor if i.coalescing_factor > 1.0 else 1.0,
        gather_rate=i.dram_efficiency if i.gather_note else 1.0,
        atomics=AtomicsFact(atomics.line, atomics.argument, atomics.addresses, atomics.atomics, atomics.per_address,
                            atomics.indirect, atomics.us) if atomics else None,
        loops=loops, unknowns=i.unknowns, slow_path_instructions=i.slow_path_instructions,
        softmax_rows=i.softmax_rows, time=time_span(report.predicted_us, report.time_range, i.unknowns))
