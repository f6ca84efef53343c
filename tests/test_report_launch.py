"""The fixed launch cost ``irscope report`` adds in a program's stream, recomputed from the H200's measurement.

``tests/data/program_report/launch_cost.json`` is ``benchmarks/program_report/launch_cost.py`` on the H200 (Triton
3.6, torch 2.11): irscope's vector-add at sizes of 1 to 4096 programs launched 200 times back to back under
torch.profiler, and the same launches one at a time under Nsight Compute.
"""

from __future__ import annotations

import json
import statistics

import pytest

from irscope.analysis.report.launch import IN_STREAM_LAUNCH_US, LAUNCH_US, in_stream_launch_us
from tests.conftest import REPO

DATA = REPO / "tests" / "data" / "program_report" / "launch_cost.json"


def test_the_in_stream_launch_cost_is_what_the_measurement_gives() -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    assert data["gpu"] == "NVIDIA H200" and data["triton"].startswith("3.6")
    launches = data["launches"]
    assert in_stream_launch_us(launches) == pytest.approx(IN_STREAM_LAUNCH_US, abs=0.005)
    tiny = [row for row in launches if row["kernel"] == "add_kernel" and row["grid"][0] <= 16]
    assert len(tiny) == 3
    for row in tiny:  # a launch alone under ncu is about the model's 2 us; back to back, well under it
        assert statistics.median(row["ncu_us"]) >= 0.95 * LAUNCH_US and row["median_us"] < LAUNCH_US / 2
    with pytest.raises(ValueError, match="no measured launch"):
        in_stream_launch_us([row for row in launches if row["grid"][0] > 16])


def test_distinct_address_atomics_cost_no_more_than_plain_stores_and_shared_rows_do() -> None:
    """What the measurement says of Inductor's scatter-adds: relaxed fp32 atomics to distinct addresses run at the
    rate of the vector-add's stores; 512 shared rows make the same launch 4x longer."""
    rows = {(r["kernel"], r["n_elements"], r.get("rows")): r["median_us"]
            for r in json.loads(DATA.read_text(encoding="utf-8"))["launches"]}
    distinct, shared = rows[("atomic_kernel", 262144, 262144)], rows[("atomic_kernel", 262144, 512)]
    assert distinct <= rows[("add_kernel", 262144, None)] * 1.1
    assert shared > 4 * distinct


def test_an_sm_starts_a_cta_every_80_ns_back_to_back_and_alone() -> None:
    """The slope of the time of programs that each store one element per thread over CTAs per SM (1 to 256 per SM
    of the H200's 132, 2, 4 and 8 warps) is the CTA start cost the model adds (analysis/perf/waits.py)."""
    from irscope.analysis.perf.waits import CTA_START_NS

    rows = [r for r in json.loads(DATA.read_text(encoding="utf-8"))["launches"] if r["kernel"] == "store_kernel"]
    assert {r["num_warps"] for r in rows} == {2, 4, 8}
    for warps in (2, 4, 8):
        points = [(r["grid"][0] / 132, r["median_us"], statistics.median(r["ncu_us"])) for r in rows
                  if r["num_warps"] == warps]
        assert len(points) == 6
        for timing in (1, 2):  # torch.profiler back to back, Nsight Compute alone
            xs, ys = [p[0] for p in points], [p[timing] for p in points]
            mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
            slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sum(
                (x - mean_x) ** 2 for x in xs)
            assert slope * 1000 == pytest.approx(CTA_START_NS, rel=0.02), (warps, timing)
