"""The fixed launch cost ``irscope report`` adds in a program's stream, recomputed from the H200's measurement.

``tests/data/program_report/launch_cost.json`` is ``benchmarks/program_report/launch_cost.py`` on the H200 (Triton
3.6, torch 2.11): irscope's vector-add at sizes of 1 to 4096 programs launched 200 times back to back under
torch.profiler, and the same launches one at a time under Nsight Compute.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from irscope.analysis.perf.capture import capture_perf
from irscope.analysis.perf.device import device_model
from irscope.analysis.report.launch import IN_STREAM_LAUNCH_US, LAUNCH_US, in_stream_launch_us
from irscope.compile.launch_values import bundled_launch
from irscope.model.gpus import GPUS
from irscope.model.kernels import get_kernel
from irscope.request.captures import get_capture, make_request
from tests.conftest import REPO

DATA = REPO / "tests" / "data" / "program_report" / "launch_cost.json"


@pytest.mark.compile
def test_the_in_stream_launch_cost_is_what_the_measurement_gives(shared_store: Path) -> None:
    """The model's body of the measured vector-add launches (irscope's own kernel, compiled here for sm90, modelled
    on the H200 at each launch's size) against their time back to back: the report's in-stream cost."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    assert data["gpu"] == "NVIDIA H200" and data["triton"].startswith("3.6")
    launches = data["launches"]
    tiny = [row for row in launches if row["kernel"] == "add_kernel" and row["grid"][0] <= 16]
    assert len(tiny) == 3
    capture = get_capture(make_request("vector_add", "sm90"), str(shared_store))
    device = device_model(GPUS["h200"])
    bodies = {}
    for row in tiny:
        shape = bundled_launch(get_kernel("vector_add"), "cuda", 0, {"n_elements": row["n_elements"]},
                               GPUS["h200"].sm_count)
        assert shape.grid == (*row["grid"], 1, 1)
        bodies[row["n_elements"]] = capture_perf(capture, device, shape).predicted_us - LAUNCH_US
    assert in_stream_launch_us(launches, bodies) == pytest.approx(IN_STREAM_LAUNCH_US, abs=0.005)
    for row in tiny:  # a launch alone under ncu is about the model's 2 us; back to back, well under it
        assert statistics.median(row["ncu_us"]) >= 0.95 * LAUNCH_US and row["median_us"] < LAUNCH_US / 2
        # the body the model gives such a launch is its whole time in a stream, within 0.3 us
        assert bodies[row["n_elements"]] + IN_STREAM_LAUNCH_US == pytest.approx(row["median_us"], abs=0.3)
    with pytest.raises(ValueError, match="no measured launch"):
        in_stream_launch_us([row for row in launches if row["grid"][0] > 16], bodies)


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


def test_an_address_takes_one_atomic_at_a_time_8_ns_each() -> None:
    """The extra time per atomic on one address the model charges (analysis/perf/atomics.py): the measured atomic
    kernel on 512 shared addresses against the same 262144 atomics on distinct ones."""
    from irscope.analysis.perf.atomics import ATOMIC_SAME_ADDRESS_NS, same_address_ns

    launches = json.loads(DATA.read_text(encoding="utf-8"))["launches"]
    assert same_address_ns(launches) == pytest.approx(ATOMIC_SAME_ADDRESS_NS, abs=0.05)
    with pytest.raises(ValueError, match="no measured atomic kernel"):
        same_address_ns([r for r in launches if r.get("rows") != 512])
