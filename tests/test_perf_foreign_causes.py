"""The causes issue 27 found in ``irscope perf`` on foreign kernels, each on a real capture of the foreign set.

The captures are the H200's JIT output for Liger-Kernel's and Triton's tutorial kernels (tests/data/perf_foreign);
the launches are the recorded ones, whose tensors say role ``inout`` (the harness did not know which are read).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from irscope.analysis.perf.control import dead_regions, unmodelled
from irscope.analysis.perf.panels import panel_traffic, wave_traffic
from irscope.analysis.perf.replicas import replicated_loads
from irscope.analysis.perf.roles import ir_roles
from irscope.analysis.perf.work import scalar_values
from irscope.store.store import Store
from irscope.views.perf_text import perf_json, render_perf
from tests.perf_foreign_data import case_of, perf_of

DATA = Path(__file__).resolve().parent / "data" / "perf_foreign"




def _ncu_dram(entry: dict[str, Any]) -> float:
    return float(entry["ncu"]["dram__bytes_read.sum"] + entry["ncu"]["dram__bytes_write.sum"])


def test_roles_are_read_from_the_ir(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Cause 1: the tutorial layer-norm forward reads X, W, B and writes Y, Mean, Rstd; the launch said inout."""
    capture, shape, _ = case_of(foreign, "tutorial layer_norm fwd")
    assert {t.role for t in shape.tensors} == {"inout"}
    assert ir_roles(capture.read("ttgir")) == {"X": "input", "Y": "output", "W": "input", "B": "input",
                                               "M": "output", "V": "output"}
    # Liger's rope rotates q and k in place: loaded and stored through the same argument
    rope, _, _ = case_of(foreign, "liger rope")
    assert ir_roles(rope.read("ttgir")) == {"q_ptr": "inout", "k_ptr": "inout", "cos": "input", "sin": "input"}


def test_write_only_outputs_are_not_compulsory_reads(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Cause 1: 4096x8192 fp16 in, the same out: about 128 MiB of compulsory traffic, not 200 (outputs as reads);
    with the lines still dirty in the L2 at the end, within 15% of what ncu measured on the H200."""
    report, entry = perf_of(foreign, "tutorial layer_norm fwd")
    x = 4096 * 8192 * 2
    assert 2 * x - 30e6 < report.compulsory_bytes + report.reread_bytes <= 2 * x + 1e6
    assert any("roles read from the IR" in a for a in report.assumptions)
    assert report.dram_bytes == pytest.approx(_ncu_dram(entry), rel=0.15)


def test_weight_vector_rereads_are_not_dram(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Cause 2: every one of Liger rms_norm's 8192 CTAs loads the 8 KB weight vector; the L2 serves it."""
    report, entry = perf_of(foreign, "liger rms_norm")
    assert report.requested_bytes > 2 * 8192 * 4096 * 2  # the CTAs do ask for it again and again
    assert report.dram_bytes == pytest.approx(_ncu_dram(entry), rel=0.15)


def test_persistent_matmul_control_flow(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Cause 4: the loop that runs only when k_tiles == 0 does no work; the epilogue store that flatten=True puts
    under an scf.if in the flattened loop runs once per output tile, not on every one of its ~3972 trips."""
    capture, shape, _ = case_of(foreign, "tutorial persistent matmul")
    ttgir = capture.read("ttgir")
    dead = dead_regions(ttgir, scalar_values(ttgir, shape.values, shape.grid))
    # line 139: the pipeliner's prologue moves to the next tile only when its second stage crosses one, which
    # k_tiles = 8192 / 64 = 128 never lets it (its condition is an i1 extended to i32 and compared: evaluated)
    assert [(r.start, r.why) for r in dead] == [(57, "the scf.if at TTGIR line 57 is false for this launch"),
                                                (139, "the scf.if at TTGIR line 139 is false for this launch")]
    report, entry = perf_of(foreign, "tutorial persistent matmul")
    zero_fill, flattened = report.loops
    assert zero_fill.executions == 0 and flattened.executions > 3900
    stores = sum(lp.per_iteration.global_store_bytes * lp.executions for lp in report.loops) * 132
    assert stores == pytest.approx(8192 * 8192 * 2, rel=0.01)
    # Cause 6: one 4-warp CTA per SM waits on the B tile's unpipelined register load each iteration
    assert report.bound == "latency" == entry["ncu_bound"]
    assert "not pipelined" in report.bound_reason and "one CTA per SM" in report.bound_reason
    assert report.predicted_us == pytest.approx(entry["ncu"]["gpu__time_duration.sum"] / 1000, rel=0.25)
    assert not any(s.text.startswith("nothing stands out") for s in report.suggestions)


def test_what_was_not_modelled_is_said(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Cause 7: Liger's cross entropy branches on the loaded label (ignore_index): both paths are counted, and the
    report says so instead of calling the launch fully understood."""
    capture, _, _ = case_of(foreign, "liger cross_entropy")
    assert any("branch at TTGIR line" in u for u in unmodelled(capture.read("ttgir")))
    report, entry = perf_of(foreign, "liger cross_entropy")
    assert any("shorter path is assumed not taken" in u for u in report.uncertain)
    # the row-zeroing path of an ignored label is not counted: X is read (twice: L2), not written
    assert report.dram_bytes == pytest.approx(_ncu_dram(entry), rel=0.15)
    assert not any(s.text.startswith("nothing stands out:") for s in report.suggestions)


def test_masked_lanes_move_nothing(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Cause 3: Liger swiglu loads a 16384-wide block of an 11008-column row: the PTX's mask (col < 11008, from the
    launch) leaves 5376 lanes idle, so each CTA asks for 2 x 11008 bf16 loads and 11008 stores, not 16384."""
    report, _ = perf_of(foreign, "liger swiglu")
    mix = report.once
    assert (mix.global_load_bytes, mix.global_store_bytes) == (2 * 11008 * 2, 11008 * 2)


def test_a_store_predicated_to_one_thread_counts_once(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Cause 5: the layer norms store a row's mean and rstd from one thread: 4 bytes each, not 4 x 256 threads."""
    report, _ = perf_of(foreign, "liger layer_norm")
    assert report.once.global_store_bytes == 4096 * 2 + 4 + 4
    report, _ = perf_of(foreign, "liger rms_norm")
    assert report.once.global_store_bytes == 4096 * 2 + 4


def test_one_cta_per_sm_row_kernel_is_latency_bound(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Cause 6: Liger's cross entropy runs one 32-warp CTA per SM over a 32000-column row: each CTA waits for its
    row, then computes on it, and nothing overlaps the two. ncu: DRAM at 48% and SM at 44% of peak, latency. (Counted
    as one round trip per CTA, without the label's: 193 us against ncu's 228.)"""
    from irscope.analysis.perf.dependent import load_depths

    report, entry = perf_of(foreign, "liger cross_entropy")
    assert report.ctas_per_sm == 1
    assert report.bound == "latency" == entry["ncu_bound"]
    assert "one CTA per SM" in report.bound_reason
    # before its loop, the kernel reads the row's label, then the logit at it (X_ptr + y): the CTA's issue stops
    # until the label arrives, and the logit's own round trip overlaps the loop's first loads: 2 in turn
    capture, _shape, _entry = case_of(foreign, "liger cross_entropy")
    assert load_depths(capture.read("ttgir"))[0] == 2
    assert "each waits 2 round trips" in report.bound_reason
    assert report.predicted_us == pytest.approx(entry["ncu"]["gpu__time_duration.sum"] / 1000, rel=0.25)


def test_ctas_in_step_reread_from_the_l2(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Cause 2: fla's chunk_fwd_kernel_h: all 256 CTAs are resident at once and walk the time chunks together; the
    4 V-blocks of a head re-read the same k and gk chunks within an iteration or two, and the L2 serves them.
    Its 2-warp CTAs, 2 per SM, leave one warp per scheduler: dependent instructions stall issue (cause 6)."""
    report, entry = perf_of(foreign, "fla chunk_gla", "chunk_fwd_kernel_h")
    assert "in step with the others" in report.dram_assumption
    assert report.dram_bytes == pytest.approx(_ncu_dram(entry), rel=0.15)
    assert report.bound == "latency" == entry["ncu_bound"]
    assert report.predicted_us == pytest.approx(entry["ncu"]["gpu__time_duration.sum"] / 1000, rel=0.25)


def test_persistent_matmul_panels_per_round(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Cause 4 (L2): the persistent matmul's 132 CTAs walk 4096 tiles in GROUP_SIZE_M 8 order, in 32 rounds. A
    round's tiles read 8 (16 across a group boundary) row panels of A and 17 column panels of B, 2 MiB each, once
    (in step); the next round needs other B panels, and a round's panels (50-66 MiB) exceed the half of the 60 MiB L2
    that data every SM reads can use, so the A panels are read again: 1.75 GB, ncu 1.73 GB read."""
    capture, shape, _ = case_of(foreign, "tutorial persistent matmul")
    panels = panel_traffic(capture.read("ttir"), shape.values, shape.grid, 60 * 2**20)
    assert panels is not None and panels.rounds == 32
    assert panels.footprint_bytes == (16 + 17) * 128 * 8192 * 2
    report, entry = perf_of(foreign, "tutorial persistent matmul")
    assert "32 rounds" in report.dram_assumption
    assert report.dram_bytes == pytest.approx(_ncu_dram(entry), rel=0.15)
    assert panels.dram_bytes == pytest.approx(entry["ncu"]["dram__bytes_read.sum"], rel=0.15)
    assert report.bound == "latency" == entry["ncu_bound"]
    # an L2 whose shared half holds a round's panels keeps A's row panels for the next round of the group
    larger = panel_traffic(capture.read("ttir"), shape.values, shape.grid, 256 * 2**20)
    assert larger is not None and larger.dram_bytes < 0.8 * panels.dram_bytes
    # a kernel without a grid-strided tile loop has no panel model
    other, other_shape, _ = case_of(foreign, "tutorial layer_norm fwd")
    assert panel_traffic(other.read("ttir"), other_shape.values, other_shape.grid, 60 * 2**20) is None


def test_layout_copies_are_not_dram_rereads(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Cause 2: fla's chunk_gla intra_sub_intra loads a row of k and of g per step in a slice of a [2, 16] x [8, 1]
    layout: the 16 threads along the sliced dim load the same 128 elements (the PTX counts 16 copies, 1.5 GiB in
    all); the DRAM reads each once (ncu: 134 MB read, q, k and g once)."""
    capture, _, _ = case_of(foreign, "fla chunk_gla", "chunk_gla_fwd_A_kernel_intra_sub_intra")
    assert replicated_loads(capture.read("ttgir")) == {123: 128 * 2 * 15, 125: 128 * 4 * 15}
    report, entry = perf_of(foreign, "fla chunk_gla", "chunk_gla_fwd_A_kernel_intra_sub_intra")
    assert "copies of elements a load's layout gives several threads" in report.dram_assumption
    assert report.dram_bytes == pytest.approx(_ncu_dram(entry), rel=0.15)
    assert report.requested_bytes > 10 * report.dram_bytes


def test_tma_traffic_from_the_descriptors(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """flag-gems mm with host TMA descriptors: the launch recorded no tensors, and the PTX's TMA copies say nothing of
    the block they move. The TTIR's descriptor loads do (128x64 and 64x128 bf16 per step), and their indices, per
    program id in GROUP_M 8 order, name the panels each wave of resident CTAs reads: 1024 CTAs in 4 waves of 264,
    each wave's 48 MiB of panels over the L2's shared half, so each wave reads its own (ncu: 190 MB read)."""
    capture, shape, _ = case_of(foreign, "flag_gems mm")
    assert not shape.tensors
    waves = wave_traffic(capture.read("ttir"), shape.values, shape.grid, 264, 60 * 2**20)
    assert waves is not None and waves.rounds == 4 and waves.store_bytes == 4096 * 4096 * 2
    report, entry = perf_of(foreign, "flag_gems mm")
    assert "TMA descriptors" in report.dram_assumption
    assert report.dram_bytes == pytest.approx(_ncu_dram(entry), rel=0.15)
    # each CTA's 64 steps load 32 KiB through TMA (2 of them issued ahead, in the prologue) and it stores its 32 KiB
    # tile: the L2 sees 2.2 GB, and the tensor cores still bound it (ncu: compute, tensor pipe 91% active)
    assert report.requested_bytes == 1024 * (64 * 32768 + 128 * 128 * 2)
    assert report.bound == "compute" == entry["ncu_bound"]
    assert report.predicted_us == pytest.approx(entry["ncu"]["gpu__time_duration.sum"] / 1000, rel=0.25)


def test_what_was_not_modelled_gives_a_range(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Cause 7 (range): Liger's cross entropy branches on the loaded label; the prediction takes the main path, and
    the range gives both paths taken too, and the L2 hit rate of its second pass over the row (all hit, all miss),
    in the report, its JSON and its text. A launch the model fully covers has no range."""
    report, entry = perf_of(foreign, "liger cross_entropy")
    low, high = report.time_range
    assert low <= report.predicted_us < high
    assert any(w.startswith("branch at TTGIR line(s) 42 on loaded values") for w in report.range_why)
    assert any(w.startswith("L2 hit rate not modelled") for w in report.range_why)
    assert low <= entry["ncu"]["gpu__time_duration.sum"] / 1000 * 1.25
    assert perf_json(report)["time_range_us"] == [low, high]
    assert f"range: {low:.1f} .. {high:.1f} us over what it did not model" in render_perf(report, "ce")
    # the persistent matmul's re-reads follow its tile order: nothing guessed, no range
    report, _ = perf_of(foreign, "tutorial persistent matmul")
    assert report.time_range == () and "range:" not in render_perf(report, "mm")


def test_the_shared_l2_share_is_the_h200s_measured_one() -> None:
    """SHARED_L2_SHARE is what benchmarks/l2_shared_share.py measured on the H200 (ncu DRAM reads of a buffer every
    SM reads twice, over buffer sizes): the buffer size where the second read starts going to DRAM, over the L2."""
    from irscope.analysis.perf.panels import SHARED_L2_SHARE

    data = json.loads((DATA / "l2_shared_h200.json").read_text())
    assert data["gpu"] == "NVIDIA H200" and data["ncu_exit"] == 0
    shared = [p for p in data["points"] if p["pattern"] == "shared"]
    fits = max(p["mib"] for p in shared if p["dram_over_size"] < 1.5)  # the second read mostly from the L2
    spills = min(p["mib"] for p in shared if p["dram_over_size"] >= 1.5)
    l2_mib = data["l2_bytes"] / 2**20
    assert fits / l2_mib <= SHARED_L2_SHARE <= spills / l2_mib
    assert abs(SHARED_L2_SHARE - data["shared_share"]) < 0.01
