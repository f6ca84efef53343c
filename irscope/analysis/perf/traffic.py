"""The memory side of a launch: DRAM bytes (compulsory, re-read, dirty in the L2), L2, shared and spill times."""

from __future__ import annotations

from dataclasses import dataclass

from irscope.analysis.perf.compute import ComputeSide, Spread, Totals
from irscope.analysis.perf.device import DeviceModel
from irscope.analysis.perf.figures import (
    DIRTY_L2_SHARE,
    DRAM_LATENCY_NS,
    L2_BYTES_PER_SM_CLOCK,
    L2_REQUESTS_PER_SM_CLOCK,
    LOCAL_BYTES_PER_SM_CLOCK,
    REUSE_SKEW,
    SHARED_WAVEFRONTS_PER_CLOCK,
    SM_PORT_BYTES_PER_CLOCK,
)
from irscope.analysis.perf.panels import PanelTraffic
from irscope.analysis.perf.report import BankSummary
from irscope.analysis.perf.waits import chain_sentence, chain_us
from irscope.model.launch import LaunchShape

__all__ = ["LAUNCH_READS_NOTED", "MemorySide", "Traffic", "dram_bytes", "memory_side", "traffic_of"]

# Below these DRAM bytes the launch's own reads (its code, its parameters) are a share worth saying is not modelled
LAUNCH_READS_NOTED = 256 * 1024


def dram_bytes(totals: Totals, ctas: int, shape: LaunchShape, l2_bytes: int, waves: int, window: float = 0.0,
          panels: PanelTraffic | None = None, copies: float = 0.0) -> tuple[float, float, float, str, float, float]:
    """(compulsory, re-read, dram bytes, the assumption in words, bytes still dirty in the L2 at the end, the bytes
    requested again whose L2 hit rate is a guess)."""
    loads, stores = totals.loads * ctas, totals.stores * ctas
    inputs = sum(t.nbytes for t in shape.tensors if t.role in ("input", "inout"))
    outputs = sum(t.nbytes for t in shape.tensors if t.role in ("output", "inout"))
    if panels is not None and (panels.requested_bytes or not shape.tensors):  # the descriptors' blocks, tile order
        # the pointer tensors the launch recorded beside the descriptors: each read once
        beside = sum(t.nbytes for t in shape.tensors if t.role in ("input", "inout")
                     and t.name not in panels.descriptors)
        pointers = min(beside, max(0.0, loads - panels.requested_bytes))
        moved = panels.dram_bytes + pointers + max(stores, panels.store_bytes)
        return moved, 0.0, moved, panels.why, 0.0, 0.0
    if not shape.tensors:
        return (loads + stores, 0.0, loads + stores,
                "tensor sizes unknown: every requested byte is assumed to come from DRAM once (no reuse)", 0.0, 0.0)
    written = min(stores, outputs)
    unique = max(0.0, loads - copies * ctas)  # a layout's copies of an element are one DRAM read
    compulsory = min(unique, inputs) + written
    extra = max(0.0, unique - inputs)
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
        why = (f"the inputs ({inputs / 2**20:.1f} MiB) exceed the {l2_bytes / 2**20:.0f} MiB last-level "
               "cache; a re-read misses "
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


@dataclass(frozen=True)
class Traffic:
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


def traffic_of(totals: Totals, spread: Spread, shape: LaunchShape, device: DeviceModel, num_warps: int, spills: int,
             local_wavefronts: float, shared_per_cta: int, coalescing_factor: float, gather_note: str,
             rounds: float = 1.0, looped: bool = False, panels: PanelTraffic | None = None,
             copies: float = 0.0) -> Traffic:
    """Requested and DRAM bytes of the launch, uncoalesced accesses and spills included.

    ``rounds``: how many times each CTA writes a part of the output (a persistent grid's tiles): the inputs pass
    through the L2 in ``waves x rounds`` generations, not ``waves``.
    """
    ctas = spread.ctas
    generations = max(1, round(spread.waves * rounds))
    # one wave, one pass each: CTAs that share data read it at about the same iteration
    window = ctas * totals.in_flight * REUSE_SKEW if spread.waves == 1 and generations == 1 and looped else 0.0
    compulsory, reread, dram, why, dirty, guessed = dram_bytes(totals, ctas, shape,
                                                               max(device.l2_bytes, device.llc_bytes),
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
    if dram < LAUNCH_READS_NOTED:
        why += ("; a launch this small also reads its own machine code and parameters from DRAM (a few KiB ncu "
                "counts with the data): not modelled, uncertain")
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
    return Traffic(requested, compulsory, reread, dram, why, spills_in_l2, l1_free, dirty,
                    (dram - reread * scale, dram + (guessed - reread) * scale) if guessed else ())


@dataclass(frozen=True)
class MemorySide:
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


def memory_side(device: DeviceModel, totals: Totals, traffic: Traffic, spread: Spread, compute: ComputeSide,
            bank: BankSummary, coalescing_factor: float, local_wavefronts: float, l2_bytes_per_request: float,
            dram_efficiency: float, tma_bytes: float = 0.0, trip_ns: float = DRAM_LATENCY_NS) -> MemorySide:
    """DRAM, DRAM-latency, shared-memory, L2 and spill times; ``tma_bytes``: what TMA copies move, of the requested;
    ``trip_ns``: the mean round trip of the loads a CTA waits for in turn (``waits.round_trip_ns``)."""
    ctas, sms, busiest = spread.ctas, spread.sms, spread.busiest
    clock = device.clock_mhz * 1e6
    dram_us = (traffic.dram + traffic.dirty) / (device.dram_gbs * 1e9 * dram_efficiency) * 1e6
    # what the DRAM has outstanding: whole segments, so an uncoalesced load has its factor more in flight
    in_flight = spread.resident * totals.in_flight * max(1.0, coalescing_factor)
    per_sm_bw = min(in_flight / (DRAM_LATENCY_NS * 1e-9), SM_PORT_BYTES_PER_CLOCK * clock)
    # what a CTA waits for: its loads (stores are not waited for; their bytes are the DRAM term's)
    per_cta_bytes = min(totals.loads, traffic.dram / ctas) if ctas else 0.0
    latency_us = busiest * per_cta_bytes / per_sm_bw * 1e6 if per_sm_bw else 0.0
    waited = chain_us(totals.chain, busiest, spread.resident, trip_ns)
    chain = chain_sentence(totals.chain, busiest, spread.resident, trip_ns) if waited > latency_us else ""
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
    return MemorySide(dram_us, latency_us, in_flight, per_sm_bw, shared_us, l2_us, l2_bandwidth, spill_us, chain)
