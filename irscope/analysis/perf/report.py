"""What the performance model answers for one launch: the report, its loops, bank-conflict section and suggestions."""

from __future__ import annotations

from dataclasses import dataclass, field

from irscope.analysis.perf.device import DeviceModel
from irscope.analysis.perf.facts import PerfFacts
from irscope.analysis.perf.work import Mix

__all__ = ["BankSummary", "LoopCost", "PerfReport", "PerfResult", "Suggestion"]


@dataclass(frozen=True)
class LoopCost:
    """One loop of the kernel and what each of its iterations does per CTA.

    Attributes:
        line: kernel source line; ``source`` its text.
        trips: iterations per CTA (mean over the grid), or None when unknown (then counted once).
        trips_note: how the count was found.
        executions: how often the body runs per CTA (trips times the enclosing loops' trips).
        per_iteration: the instruction mix of one iteration.
        listing_label: the machine-code loop it was matched to, "" when none.
        peeled: iterations the pipeliner moved out of the loop (AMD's epilogue), already in the once-per-CTA mix.
        dependent: DRAM round trips an iteration's loads take in turn: 1, or more where a load's address is a loaded
            value (``dependent.load_depths``).
        busiest: iterations of the CTA that runs it most, None when unknown.
        origin: where ``trips`` came from (``facts.LoopFact.origin``); ``decided_by`` what would decide unknown trips.
    """

    line: int | None
    source: str
    trips: float | None
    trips_note: str
    executions: float
    per_iteration: Mix
    listing_label: str
    peeled: int = 0
    dependent: int = 1
    busiest: int | None = None
    origin: str = ""
    decided_by: str = ""


@dataclass(frozen=True)
class BankSummary:
    """What the bank-conflict analysis found, as the model uses it.

    Attributes:
        available: whether the analysis ran.
        message: a sentence for the report (why not, when not available).
        accesses: one line per shared access (``line 31 tl.load ld.shared.v4: 2-way (no swizzle)``).
        worst_ways: the worst access's ways (1 = conflict-free).
        worst: the sentence for the worst access, "" when all are conflict-free.
        conflicts_per_cta: extra wavefronts per CTA over the whole launch (per-iteration counts times trips).
        by_counter: those conflicts by the ncu counter they land in (``ld``, ``st``, ``ldgsts``, "" for none).
        lsu_wavefronts_per_cta: wavefronts (conflicts included) of the ld/st accesses over the launch, per CTA, from
            the bank model's widths and broadcasts (the SASS width where ptxas widened the PTX's loads).
        complete: every ld/st access was modelled, so ``lsu_wavefronts_per_cta`` stands for all of them.
    """

    available: bool
    message: str
    accesses: tuple[str, ...] = ()
    worst_ways: int = 1
    worst: str = ""
    conflicts_per_cta: float = 0.0
    by_counter: dict[str, float] = field(default_factory=dict)
    lsu_wavefronts_per_cta: float = 0.0
    complete: bool = False


@dataclass(frozen=True)
class Suggestion:
    """A change that would move the time, tied to its evidence.

    Attributes:
        gain: the predicted time saved, as a share of ``predicted_us`` (0..1), when it can be estimated.
        text: the change and its evidence.
    """

    gain: float
    text: str


@dataclass(frozen=True)
class PerfReport:
    """The model's answer for one launch.

    Attributes:
        kernel / target / config_index: the capture.
        device: the figures used.
        grid / grid_origin: programs launched, and where that number came from.
        ctas_per_sm / occupancy_pct / occupancy_limit: resident CTAs per SM, theoretical occupancy, its limiter.
        waves / tail_utilisation: ``grid / (SMs x CTAs per SM)`` rounded up, and how full the last wave is.
        loops: the loops with their trip counts and per-iteration mix.
        once: the mix executed once per CTA outside every loop.
        flops / tensor_flops / vector_flops: per launch.
        mma_dtype: operand type of the tensor-core work ("" when none).
        requested_bytes: global bytes the CTAs request (L2 traffic), loads plus stores, plus spill traffic
            that does not fit in L1.
        compulsory_bytes / reread_bytes / dram_bytes: the DRAM estimate and its parts.
        dram_assumption: how dram_bytes was estimated.
        arithmetic_intensity: flops / dram_bytes.
        compute_us / vector_us / memory_us / shared_us / roofline_us: the terms (roofline: plain, no corrections).
        bytes_in_flight_per_sm: outstanding global bytes per SM the latency term uses.
        predicted_us: the prediction; ``roofline_fraction`` roofline_us / predicted_us.
        bound: ``compute``, ``memory`` or ``latency``; ``bound_reason`` why.
        bank: the bank-conflict section.
        suggestions: the changes that would move it most, best first.
        assumptions: what the model assumed, one sentence each; ``uncertain`` what it could not find out.
        time_range: (best, worst) predicted microseconds over what it did not model (the L2 hit rate of re-reads,
            a branch on loaded values), empty when it modelled everything; ``range_why`` each part in words.
        facts: what the model found as typed fields (bound, limiting term, loops, unknowns, atomics, the time as a
            point, range or lower bound): what programs decide on, never the sentences.
    """

    kernel: str
    target: str
    config_index: int
    device: DeviceModel
    grid: tuple[int, int, int]
    grid_origin: str
    num_warps: int
    ctas_per_sm: int
    occupancy_pct: float
    occupancy_limit: str
    waves: int
    tail_utilisation: float
    loops: tuple[LoopCost, ...]
    once: Mix
    flops: float
    tensor_flops: float
    vector_flops: float
    mma_dtype: str
    requested_bytes: float
    compulsory_bytes: float
    reread_bytes: float
    dram_bytes: float
    dram_assumption: str
    arithmetic_intensity: float
    compute_us: float
    vector_us: float
    memory_us: float
    shared_us: float
    roofline_us: float
    bytes_in_flight_per_sm: float
    predicted_us: float
    roofline_fraction: float
    bound: str
    bound_reason: str
    bank: BankSummary
    suggestions: tuple[Suggestion, ...]
    assumptions: tuple[str, ...]
    uncertain: tuple[str, ...] = field(default=())
    time_range: tuple[float, ...] = field(default=())
    range_why: tuple[str, ...] = field(default=())
    facts: PerfFacts = field(default_factory=lambda: PerfFacts(bound="", limit=""))


PerfResult = PerfReport  # the one answer of ``predict.predict``
