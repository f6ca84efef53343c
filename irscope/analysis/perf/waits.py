"""Times a launch spends waiting in turn, whatever its bandwidth: round trips a CTA waits for one after another, and
the CTAs an SM starts one after another.

- **Round trips in turn.** A CTA waits a DRAM round trip per loop iteration whose loads were not issued ahead (a
  loop that did not pipeline), and one more for each load whose address is itself a loaded value (``dependent``);
  the busiest SM runs its CTAs in ``ceil(busiest / resident)`` such rounds.
- **One CTA per SM.** With nothing else resident, a CTA's round trips, the time its bytes take through the SM's port
  and its compute add up, CTA after CTA (a row kernel of 16 warps; a loop whose MMAs wait on a load into registers).
- **Starting CTAs.** An SM starts a new CTA about every ``CTA_START_NS``, however little each does: measured on the
  H200 with programs that each store one element per thread, 1 to 256 programs per SM and 2, 4 or 8 warps, back to
  back (torch.profiler) and alone (Nsight Compute), both rising 80 ns per CTA per SM
  (``benchmarks/program_report/launch_cost.py``, tests/data/program_report/launch_cost.json). A grid of many tiny
  CTAs (Inductor's embedding backward: 32768 CTAs of 64 threads) takes that long to start.
"""

from __future__ import annotations

import math

from irscope.analysis.perf.figures import DRAM_LATENCY_NS, L2_HIT_CYCLES
from irscope.analysis.perf.report import LoopCost

__all__ = ["CTA_START_NS", "chain_sentence", "chain_us", "cta_start_sentence", "cta_start_us", "hit_note",
           "longest_program_us", "one_cta_rows_us", "round_trip_ns",
           "serial_loops_us"]

CTA_START_NS = 80.0  # slope of the H200's time over CTAs per SM (tests/test_report_launch.py recomputes it)


def chain_us(chain: float, busiest: int, resident: int, latency_ns: float) -> float:
    """``chain`` round trips of ``latency_ns`` per CTA, in ``ceil(busiest / resident)`` rounds on the busiest SM."""
    rounds = math.ceil(busiest / resident) if resident else 0
    return rounds * chain * latency_ns * 1e-3


def hit_note(latency_ns: float) -> str:
    """What a round trip shorter than the DRAM's means: a mean over DRAM misses and L2 hits (``round_trip_ns``)."""
    if latency_ns >= DRAM_LATENCY_NS:
        return ""
    return (f" (a mean: the round trips that bring no new line hit the L2, at an assumed {L2_HIT_CYCLES:.0f} cycles "
            "each, not measured here: uncertain)")


def chain_sentence(chain: float, busiest: int, resident: int, latency_ns: float) -> str:
    return (f"each CTA waits for its loop iterations' loads in turn ({chain:.1f} DRAM round trips of "
            f"{latency_ns:.0f} ns{hit_note(latency_ns)}: one per iteration and per load that waits for a loaded "
            "address, less those its loads issued ahead cover), and the busiest SM runs "
            f"{math.ceil(busiest / resident) if resident else 0} round(s) of {resident} CTA(s)")


def longest_program_us(loops: tuple[LoopCost, ...], ahead: dict[str, float], per_sm_tensor: float,
                       per_sm_vector: float, clock_hz: float, latency_ns: float) -> tuple[float, str]:
    """The program whose loops run longest, alone: the launch ends no sooner than it does, however the others spread.

    Only loops whose trips differ per program (recorded contents or the program id decide them) make it: per
    iteration of its ``busiest`` trips, the round trips its loads wait for (one per dependent load, less the stages
    issued ahead) and its own work at the SM's rates (tensor cores, vector lanes, shared-memory wavefronts), in series
    where nothing is issued ahead (the iteration waits for its loads, then works on them), else overlapped."""
    total, worst = 0.0, None
    for loop in loops:
        if not (loop.busiest and loop.trips and loop.busiest > loop.trips and loop.executions):
            continue
        mix = loop.per_iteration
        work = ((mix.mma_flops / per_sm_tensor if per_sm_tensor else 0.0)
                + (mix.vector_instructions / per_sm_vector if per_sm_vector else 0.0)
                + mix.shared_wavefronts / clock_hz)
        stages = ahead.get(loop.listing_label, 0.0)
        wait = latency_ns * 1e-9 * max(1, loop.dependent) / (1.0 + stages) if mix.global_load_bytes else 0.0
        per_iteration = wait + work if not stages else max(wait, work)
        runs = loop.executions * loop.busiest / loop.trips
        total += runs * per_iteration
        worst = worst or (loop, runs, wait, work)
    if worst is None:
        return 0.0, ""
    loop, runs, wait, work = worst
    return total * 1e6, (f"the programs' loop trips differ (recorded contents decide them): the longest program runs "
                         f"the loop at line {loop.line} {runs:.0f} times (the mean program {loop.executions:.0f}), "
                         f"each waiting {wait * 1e9:.0f} ns for its loads{hit_note(latency_ns)} and working "
                         f"{work * 1e9:.0f} ns, and the launch ends when it does ({total * 1e6:.1f} us); splitting "
                         "the long programs' work (split-KV, a persistent grid) would even them out")


def round_trip_ns(chain: float, new_bytes: float, clock_mhz: float) -> float:
    """The mean round trip of the ``chain`` loads a CTA waits for in turn, when it brings ``new_bytes`` from DRAM.

    A round trip that brings no new line from DRAM waits for the L2 only: a CTA whose chain is longer than the
    128-byte lines it first touches (a loop of scalar loads walking a small table, a counter read back after it was
    stored) misses at most once per new line, and its other round trips hit the L2 (``L2_HIT_CYCLES``)."""
    if chain <= 1.0:
        return DRAM_LATENCY_NS
    misses = min(chain, max(1.0, new_bytes / 128.0))
    hit_ns = L2_HIT_CYCLES * 1e3 / clock_mhz if clock_mhz else DRAM_LATENCY_NS
    return (misses * DRAM_LATENCY_NS + (chain - misses) * hit_ns) / chain


def cta_start_us(busiest: int) -> float:
    """The time the busiest SM takes to start its CTAs, one per ``CTA_START_NS``."""
    return busiest * CTA_START_NS * 1e-3


def cta_start_sentence(busiest: int, others_us: float) -> str:
    return (f"the busiest SM starts {busiest} CTAs, one every {CTA_START_NS:.0f} ns (measured on the H200): "
            f"{cta_start_us(busiest):.1f} us against {others_us:.1f} us of DRAM, compute or latency; fewer, larger "
            "CTAs (a larger block per program) would start sooner")


def serial_loops_us(serial: tuple[tuple[float, float, str], ...], resident: int, busiest: int, per_sm_tensor: float,
                    latency_ns: float) -> tuple[float, str]:
    """One resident CTA per SM and a loop whose MMAs wait on a load not issued ahead: nothing overlaps the wait, so
    each iteration costs a DRAM round trip plus its MMAs (the busiest SM's CTAs in turn). ``serial``: per such loop,
    its executions, tensor FLOPs per iteration and the load's line."""
    if resident != 1 or not serial or not per_sm_tensor:
        return 0.0, ""
    per_cta = sum(runs * (latency_ns * 1e-9 + flops / per_sm_tensor) for runs, flops, _ in serial)
    runs, flops, where = max(serial, key=lambda s: s[0])
    us = busiest * per_cta * 1e6
    return us, (f"one CTA per SM, and each of its {runs:.0f} loop iterations waits on the load at {where}, which is "
                f"not pipelined (into registers, one stage): a {latency_ns:.0f} ns round trip plus "
                f"{flops / per_sm_tensor * 1e9:.0f} ns of MMAs per iteration, in series ({us:.1f} us); "
                "pipelining that load (a shared-memory operand, num_stages) or more CTAs per SM would overlap them")


def one_cta_rows_us(resident: int, ctas: int, busiest: int, mma: bool, latency_ns: float, chain: float,
                    moved: float, port: float, work: float) -> tuple[float, str]:
    """One resident CTA per SM and no MMA loop to overlap: each CTA waits for its loads (``chain`` DRAM round trips,
    at least one, then its ``moved`` bytes at the SM's ``port`` bytes per second), then computes on them (``work``
    seconds); nothing else on the SM runs meanwhile."""
    if resident != 1 or mma or not ctas:
        return 0.0, ""
    trips = max(1.0, chain)
    per_cta = trips * latency_ns * 1e-9 + moved / port + work
    us = busiest * per_cta * 1e6
    waits = (f"waits {latency_ns:.0f} ns" if trips == 1 else
             f"waits {trips:.0f} round trips of {latency_ns:.0f} ns in turn (its loop iterations and the loads whose "
             f"address is a loaded value){hit_note(latency_ns)}")
    return us, (f"one CTA per SM ({busiest} in turn on the busiest SM): each {waits} for its loads, takes "
                f"{moved / port * 1e6:.2f} us to receive its {moved / 1024:.0f} KiB and {work * 1e6:.2f} us to compute "
                f"on them, with no other CTA to overlap ({us:.1f} us); smaller CTAs (fewer warps, more CTAs per SM) "
                "would overlap one CTA's loads with another's work")
