"""Times a launch spends waiting in turn, whatever its bandwidth: round trips a CTA waits for one after another, and
the CTAs an SM starts one after another.

- **Round trips in turn.** A CTA waits a DRAM round trip per loop iteration whose loads were not issued ahead (a
  loop that did not pipeline); the busiest SM runs its CTAs in ``ceil(busiest / resident)`` such rounds.
- **Starting CTAs.** An SM starts a new CTA about every ``CTA_START_NS``, however little each does: measured on the
  H200 with programs that each store one element per thread, 1 to 256 programs per SM and 2, 4 or 8 warps, back to
  back (torch.profiler) and alone (Nsight Compute), both rising 80 ns per CTA per SM
  (``benchmarks/program_report/launch_cost.py``, tests/data/program_report/launch_cost.json). A grid of many tiny
  CTAs (Inductor's embedding backward: 32768 CTAs of 64 threads) takes that long to start.
"""

from __future__ import annotations

import math

__all__ = ["CTA_START_NS", "chain_sentence", "chain_us", "cta_start_sentence", "cta_start_us"]

CTA_START_NS = 80.0  # slope of the H200's time over CTAs per SM (tests/test_report_launch.py recomputes it)


def chain_us(chain: float, busiest: int, resident: int, latency_ns: float) -> float:
    """``chain`` round trips of ``latency_ns`` per CTA, in ``ceil(busiest / resident)`` rounds on the busiest SM."""
    rounds = math.ceil(busiest / resident) if resident else 0
    return rounds * chain * latency_ns * 1e-3


def chain_sentence(chain: float, busiest: int, resident: int, latency_ns: float) -> str:
    return (f"each CTA waits for its loop iterations' loads in turn ({chain:.1f} DRAM round trips of "
            f"{latency_ns:.0f} ns: one per iteration, less those its loads issued ahead cover), and the busiest SM runs "
            f"{math.ceil(busiest / resident) if resident else 0} round(s) of {resident} CTA(s)")


def cta_start_us(busiest: int) -> float:
    """The time the busiest SM takes to start its CTAs, one per ``CTA_START_NS``."""
    return busiest * CTA_START_NS * 1e-3


def cta_start_sentence(busiest: int, others_us: float) -> str:
    return (f"the busiest SM starts {busiest} CTAs, one every {CTA_START_NS:.0f} ns (measured on the H200): "
            f"{cta_start_us(busiest):.1f} us against {others_us:.1f} us of DRAM, compute or latency; fewer, larger "
            "CTAs (a larger block per program) would start sooner")
