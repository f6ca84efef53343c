"""What bounds a launch (compute, memory or latency) by the model's terms, and the sentence that says why."""

from __future__ import annotations

from irscope.analysis.perf.compute import ComputeSide, Spread
from irscope.analysis.perf.device import DeviceModel
from irscope.analysis.perf.figures import DRAM_LATENCY_NS, LATENCY_MARGIN, LATENCY_SOL
from irscope.analysis.perf.traffic import MemorySide
from irscope.analysis.perf.waits import cta_start_sentence

__all__ = ["bound_verdict", "serial_verdict"]


def bound_verdict(terms: dict[str, float], spread: Spread, compute: ComputeSide, memory: MemorySide,
                  device: DeviceModel,
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


def serial_verdict(terms: dict[str, float], compute: ComputeSide, what: str, busy: float, dram_peak_share: float
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
