"""The fixed cost of one launch inside a program's stream of kernels, which ``irscope report`` adds to each body.

``irscope perf`` adds ``LAUNCH_US`` (2 us) to a kernel's body: fitted on Nsight Compute's ``gpu__time_duration`` of
kernels launched one at a time, which is what ``perf`` is scored against. A program's profile times kernels that
follow one another in a stream, where the next launch is queued while the last one runs and the L2 holds what the
last kernels wrote, and its shortest kernels take well under that. Measured on the H200 on data of its own
(``benchmarks/program_report/launch_cost.py``, committed as ``tests/data/program_report/launch_cost.json``):
irscope's vector-add on 1 to 16 programs takes 0.87-0.90 us per launch back to back under ``torch.profiler``, where
the model's body of those launches (one DRAM round trip of ``DRAM_LATENCY_NS`` and the rest) is already 1.1 us. The
report's fixed cost is the median of (back to back - the model's body) over those launches, and no less than 0: in a
stream a launch adds nothing the body does not already hold. The launches a small kernel's body is compared against
to call it not worth rewriting stay ``LAUNCH_US``.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from irscope.analysis.perf.predict import LAUNCH_US
from irscope.analysis.perf.report import PerfReport

__all__ = ["IN_STREAM_LAUNCH_US", "LAUNCH_US", "in_stream", "in_stream_launch_us"]

IN_STREAM_LAUNCH_US = 0.0  # in_stream_launch_us() of the committed H200 measurement (tests/test_report_launch.py)
SHORTEST_GRID = 16  # launches of at most this many programs: their time is the launch's, not their work's


def in_stream_launch_us(launches: Iterable[Mapping[str, Any]], bodies: Mapping[int, float]) -> float:
    """The median of (back to back in a stream - the model's body of that launch) over the measured vector-add
    launches of ``SHORTEST_GRID`` programs or fewer (each with ``grid``, ``n_elements`` and ``median_us``), no less
    than 0; ``bodies``: per ``n_elements``, ``irscope perf``'s prediction of that launch less ``LAUNCH_US``."""
    gaps = [float(row["median_us"]) - bodies[int(row["n_elements"])] for row in launches
            if row.get("kernel") == "add_kernel" and int(row["grid"][0]) <= SHORTEST_GRID
            and int(row["n_elements"]) in bodies]
    if not gaps:
        raise ValueError("no measured launch of at most 16 programs with a modelled body")
    return round(max(statistics.median(gaps), 0.0), 2)


def in_stream(report: PerfReport) -> PerfReport:
    """``report`` with its fixed launch cost the in-stream one."""
    shift = IN_STREAM_LAUNCH_US - LAUNCH_US
    predicted = max(report.predicted_us + shift, 0.0)
    return replace(report, predicted_us=predicted,
                   roofline_fraction=report.roofline_us / predicted if predicted else 0.0,
                   time_range=tuple(max(t + shift, 0.0) for t in report.time_range),
                   facts=replace(report.facts, time=report.facts.time.shifted(shift)))
