"""The two or three changes that would move a launch's predicted time most, each with its evidence."""

from __future__ import annotations

from typing import Any

from irscope.analysis.perf.figures import LATENCY_MARGIN
from irscope.analysis.perf.report import BankSummary, Suggestion
from irscope.analysis.perf.waits import CTA_START_NS

__all__ = ["suggestions"]


def suggestions(report_terms: dict[str, float], bank: BankSummary, occupancy: Any, shape_grid: int, sm_count: int,
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
                                + (f"{occupancy}"
                                   if resident >= ctas_per_sm else f"the grid's; {ctas_per_sm} would fit")
                                + "): deeper pipelining (num_stages), larger "
                                "tiles or more CTAs per SM would cover the DRAM latency"))
    if mma_dtype in ("fp32", "tf32") or (not mma_dtype and fma_dot):
        what = ("the dot runs on CUDA cores (fp32 FMAs, no tensor-core instruction in the loop)" if not mma_dtype
                else f"the dot runs as {mma_dtype} on the tensor cores")
        found.append(Suggestion(0.5, f"{what}: fp16/bf16 operands (or allow_tf32 / input_precision='tf32') would "
                                     "use the faster tensor-core rate"))
    if spills:
        rest = max(v for k, v in report_terms.items() if k != "spill")
        found.append(Suggestion(max(0.2, 1 - rest / predicted) if predicted else 0.2,
                                f"{spills} bytes per thread spill to local memory (ptxas -v; AMD: VGPRs spilled x 4): "
                                "fewer warps' worth "
                                     "of live values (smaller tiles, fewer stages) or more num_warps would "
                                     "remove them"))
    if coalescing:
        found.append(Suggestion(0.5, coalescing))
    if report_terms.get("serial", 0.0) >= predicted > 0:
        found.append(Suggestion(0.5, "the loads a loop's MMAs wait on are not pipelined and one CTA per SM leaves "
                                     "nothing to overlap the wait: a shared-memory (async or TMA) operand, more "
                                     "stages or more CTAs per SM (smaller tiles, fewer registers) would hide it"
                                if mma_dtype else "one CTA per SM waits for its loads, receives and "
                                                  "computes on them in "
                                "turn: more CTAs per SM (fewer warps or registers each) would overlap one's loads "
                                "with another's work"))
    if report_terms.get("atomics", 0.0) >= predicted > 0:
        found.append(Suggestion(1 - sorted(report_terms.values())[-2] / predicted, "the atomics on shared addresses "
                                "take longest: summing the values bound for one address first (within the CTA, or "
                                "a sort by index and a segmented sum) would issue fewer of them"))
    if report_terms.get("ctas", 0.0) >= predicted > 0:  # gain: down to the next longest term
        found.append(Suggestion(1 - sorted(report_terms.values())[-2] / predicted,
                                "starting the CTAs takes longest (one per SM every "
                                f"{CTA_START_NS:.0f} ns): fewer, larger CTAs (a larger block per program) "
                                "would cut it"))
    if not found:
        top = max(report_terms, key=lambda k: report_terms[k])
        what = {"compute": "compute", "dram": "DRAM bandwidth", "l2": "L2 bandwidth", "latency": "DRAM latency",
                "shared": "shared-memory bandwidth", "spill": "spill traffic",
                "serial": "loads not pipelined, waited for in series", "ctas": "starting its CTAs",
                "atomics": "atomics on the same addresses, applied one at a time"}[top]
        found.append(Suggestion(0.0, f"nothing stands out: the launch is limited by {what} as the model sees it; "
                                     "only less work (fewer bytes or FLOPs) or a different algorithm would help"))
    return sorted(found, key=lambda s: -s.gain)[:3]
