"""Misses of ``irscope perf`` on the foreign set (issue 27), each on a real capture of it (tests/data/perf_foreign).

Early returns the program id decides: fla's ``chunk_gla_fwd_A_kernel_intra_sub_inter`` (fla-core 0.6.0, the H200's JIT
output) starts with ``if i_t * BT + i_i * BC >= T: return`` and ``if i_i <= i_j: return``, where ``i_i, i_j = i_c //
NC, i_c % NC`` and ``i_c`` is ``program_id(1)``: with NC = 4, 10 of every 16 programs return at once.

The bound of a compute-topped launch whose units are not busy: the tutorial's fused attention with TMA, where the
tensor cores and the softmax's vector work run in series on one 8-warp CTA per SM. And that attention's DRAM bytes,
from its host TensorDescriptors, which the harness's launch recorder did not record.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from irscope.analysis.perf.capture import capture_perf
from irscope.analysis.perf.control import unmodelled
from irscope.analysis.perf.device import device_model
from irscope.analysis.perf.exits import early_exits
from irscope.analysis.perf.panels import descriptor_args, wave_traffic
from irscope.model.gpus import resolve_gpu
from irscope.model.launch import LaunchShape, TensorBytes
from irscope.store.store import Store
from tests.perf_foreign_data import case_of, perf_of

DATA = Path(__file__).resolve().parent / "data" / "perf_foreign" / "fit"
INTER = "chunk_gla_fwd_A_kernel_intra_sub_inter"
ATTENTION = "tutorial attention fwd TMA"




def test_the_program_id_decides_the_early_returns(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """6 of the 16 (i_i, i_j) pairs have i_i > i_j; every time chunk is inside T, so 37.5% of the programs work."""
    capture, shape, _ = case_of(foreign, "fla chunk_gla", INTER)
    ttgir = capture.read("ttgir")
    exits = early_exits(ttgir, shape.values, shape.grid)
    assert exits.branches == (63, 68)
    assert exits.share == pytest.approx(6 / 16, abs=0.002)
    assert "37.5% of the programs get past them" in exits.why
    # those branches are no longer called branches on loaded values
    assert not any("branch" in u for u in unmodelled(ttgir, exits.branches))
    # a shorter T leaves the last time chunks' programs idle too: 3 of 4 time chunks inside T
    shorter = early_exits(ttgir, {**shape.values, "T": 3 * 1024}, shape.grid)
    assert shorter.share == pytest.approx(6 / 16 * 3 / 4, abs=0.003)


def test_programs_that_return_early_do_no_work(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """The model counts the work of the 12288 working programs, not of all 32768: ncu on the H200 measured 78 us
    and 129 MB of DRAM traffic (the 2.13x time and 1.2x bytes the model gave when every program worked)."""
    report, entry = perf_of(foreign, "fla chunk_gla", INTER)
    assert report.dram_bytes == pytest.approx(_ncu_dram(entry), rel=0.15)
    assert report.predicted_us == pytest.approx(entry["ncu"]["gpu__time_duration.sum"] / 1000, rel=0.25)
    assert report.bound == entry["ncu_bound"]
    assert any("do the kernel's work, the others return at once" in a for a in report.assumptions)
    assert not any("shorter path is assumed not taken" in u for u in report.uncertain)
    assert not any("on loaded values" in w for w in report.range_why)


def test_a_bounds_check_no_program_fails_changes_nothing(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """intra_sub_intra's ``if i_t * BT + i_i * BC >= T: return`` is false for every program of this launch: all of
    them work, and the branch is not reported as one on loaded values. Liger's cross entropy branches on a loaded
    label: the program id does not decide it, so it stays an assumed branch."""
    capture, shape, _ = case_of(foreign, "fla chunk_gla", "chunk_gla_fwd_A_kernel_intra_sub_intra")
    exits = early_exits(capture.read("ttgir"), shape.values, shape.grid)
    assert exits.share == 1.0 and exits.branches == (49,) and exits.why == ""
    report, _ = perf_of(foreign, "fla chunk_gla", "chunk_gla_fwd_A_kernel_intra_sub_intra")
    assert not any("shorter path is assumed not taken" in u for u in report.uncertain)
    ce, ce_shape, _ = case_of(foreign, "liger cross_entropy")
    assert early_exits(ce.read("ttgir"), ce_shape.values, ce_shape.grid).branches == ()


def _ncu_dram(entry: dict[str, Any]) -> float:
    return float(entry["ncu"]["dram__bytes_read.sum"] + entry["ncu"]["dram__bytes_write.sum"])


def test_compute_in_series_with_no_busy_unit_is_latency(foreign: tuple[Store, list[dict[str, Any]]]) -> None:
    """Attention D128: the model's compute time is 1146 us on the tensor cores plus the softmax's vector work, which
    two warps per scheduler stretch 2x; the tensor cores are busy under half of it, vector issue less: no unit reaches
    the 60% at which ncu calls it the limit, and ncu on the H200 saw the SM at 48%, the tensor pipe 50%: latency.
    The model said compute (its compute time only 1.41x its roofline, under the 1.5x margin)."""
    report, entry = perf_of(foreign, ATTENTION + " Z4 H32 N4096 D128")
    assert report.bound == "latency" == entry["ncu_bound"]
    assert "the tensor cores, the busiest unit, is busy" in report.bound_reason
    assert "stretched 2.0x by dependent issue" in report.bound_reason
    assert report.predicted_us == pytest.approx(entry["ncu"]["gpu__time_duration.sum"] / 1000, rel=0.25)
    d64, entry = perf_of(foreign, ATTENTION + " Z4 H32 N4096 D64")
    assert d64.bound == "latency" == entry["ncu_bound"]
    # flag-gems' TMA mm keeps its tensor cores busy (ncu: tensor pipe 91%): compute, as ncu says
    mm, entry = perf_of(foreign, "flag_gems mm")
    assert mm.bound == "compute" == entry["ncu_bound"]


@pytest.mark.parametrize("head_dim", [64, 128])
def test_attention_traffic_from_its_descriptors(foreign: tuple[Store, list[dict[str, Any]]], head_dim: int) -> None:
    """The attention launches recorded one tensor (M, 2 MiB written): Q, K, V and O are host TensorDescriptors the
    recorder did not count, so the model's sizes were incomplete and it predicted 0 MB. The descriptor loads say
    the blocks; K's and V's index is loop-carried (``offsetkv_y`` walks from ``offset_y``): one panel per start. Per
    wave, Q's blocks, K's and V's panels of the heads in it: Q, K and V once each (ncu read 201 and 403 MB)."""
    capture, shape, entry = case_of(foreign, f"{ATTENTION} Z4 H32 N4096 D{head_dim}")
    assert [t.name for t in shape.tensors] == ["M"]
    waves = wave_traffic(capture.read("ttir"), shape.values, shape.grid, 132, 60 * 2**20)
    assert waves is not None
    qkv = 3 * 4 * 32 * 4096 * head_dim * 2
    assert waves.dram_bytes == qkv
    assert waves.dram_bytes == pytest.approx(entry["ncu"]["dram__bytes_read.sum"], rel=0.01)
    assert waves.store_bytes == qkv / 3
    report, entry = perf_of(foreign, f"{ATTENTION} Z4 H32 N4096 D{head_dim}")
    assert "TMA descriptors: their bytes come from the descriptors' block shapes" in report.dram_assumption
    assert report.dram_bytes == pytest.approx(_ncu_dram(entry), rel=0.15)
    assert descriptor_args(capture.read("ttir")) == ("desc_q", "desc_k", "desc_v", "desc_o")
    # recorded as the harness and irscope's launch recording now do (each descriptor's tensor by the argument's name):
    # the sizes say nothing of the reuse, so the descriptors still say the traffic
    tensors = shape.tensors + tuple(TensorBytes(n, qkv // 3, "inout") for n in ("desc_q", "desc_k", "desc_v", "desc_o"))
    gpu = resolve_gpu("h200", "sm90")
    assert gpu is not None
    recorded = capture_perf(capture, device_model(gpu), LaunchShape(shape.grid, shape.values, tensors))
    assert recorded.dram_bytes == report.dram_bytes


def test_launch_recording_counts_tensor_descriptors() -> None:
    """A host TensorDescriptor argument is recorded by its argument's name with the bytes its shape addresses (irscope's
    launch recording and the foreign harness's), so a TMA launch's tensors are all there (the attention launches
    listed M alone)."""
    torch = pytest.importorskip("torch")
    from triton.tools.tensor_descriptor import TensorDescriptor

    from irscope.compile.launch_values import launch_shape

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import perf_foreign

    q = torch.empty(2 * 4096, 64, dtype=torch.float16)
    desc = TensorDescriptor(q, shape=[2 * 4096, 64], strides=[64, 1], block_shape=[128, 64])
    m = torch.empty(2 * 4096, dtype=torch.float32)
    shape = launch_shape(["M", "desc_q", "N_CTX"], [m, desc, 4096], {}, (32, 2), {}, "test")
    assert shape.tensors == (TensorBytes("M", 2 * 4096 * 4, "inout"), TensorBytes("desc_q", 2 * 4096 * 64 * 2, "inout"))
    assert shape.values == {"N_CTX": 4096}
    half = TensorDescriptor(q, shape=[4096, 64], strides=[64, 1], block_shape=[64, 64])  # a view of half the rows
    assert perf_foreign._descriptor("desc_k", half) == {
        "name": "desc_k", "nbytes": 4096 * 64 * 2, "dtype": "float16", "shape": [4096, 64],
        "descriptor": {"strides": [64, 1], "block_shape": [64, 64], "base_shape": [2 * 4096, 64]}}
