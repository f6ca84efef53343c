"""``irscope perf``: the static performance model's arithmetic on real captures, checked against lower stages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from irscope.analysis.perf.capture import bank_summary, capture_perf, dram_efficiency
from irscope.analysis.perf.coalescing import coalescing
from irscope.analysis.perf.device import COPY_SHARE
from irscope.analysis.perf.predict import (
    DIRTY_L2_SHARE,
    LAUNCH_US,
    LOCAL_BYTES_PER_SM_CLOCK,
    LaunchShape,
    PerfReport,
    device_model,
)
from irscope.analysis.perf.work import evaluate_trips, mma_shape, scalar_values
from irscope.analysis.resources import capture_resources
from irscope.compile.launch_values import bundled_launch, function_launch
from irscope.model.gpus import GPUS
from irscope.model.kernels import get_kernel
from irscope.request.captures import LaunchSpec, get_capture, make_request
from irscope.store.store import Capture
from tests.conftest import invoke, repo_path

MATMUL = {"M": 4096, "N": 4096, "K": 4096}
# the H200 validation's own strided copy (benchmarks/perf_model_validation.py's gather cases)
VARIANTS = Path(__file__).resolve().parents[1] / "benchmarks" / "perf_variants.py"


def _dirty(written: float) -> float:
    """The written bytes still dirty in the (H100's) L2 when the kernel ends: not DRAM traffic of the launch."""
    return min(written, DIRTY_L2_SHARE * GPUS["h100"].l2_cache_bytes)


@pytest.fixture(scope="module")
def store(shared_store: Path) -> Path:
    """The suite's shared store: matmul and vector_add for sm90 are compiled once for every test file."""
    return shared_store


@pytest.fixture(scope="module")
def matmul(store: Path) -> tuple[Capture, PerfReport]:
    capture = get_capture(make_request("matmul", "sm90"), str(store))
    shape = bundled_launch(get_kernel("matmul"), "cuda", 0, MATMUL, GPUS["h100"].sm_count)
    return capture, capture_perf(capture, device_model(GPUS["h100"]), shape)


@pytest.fixture(scope="module")
def vector_add(store: Path) -> PerfReport:
    # The default-size capture (98432 elements) has the same specialization as 2^28: both divisible by 16.
    capture = get_capture(make_request("vector_add", "sm90"), str(store))
    shape = bundled_launch(get_kernel("vector_add"), "cuda", 0, {"n_elements": 2**28}, GPUS["h100"].sm_count)
    return capture_perf(capture, device_model(GPUS["h100"]), shape)


@pytest.mark.compile
def test_matmul_flops_are_2mnk_and_compute_bound(matmul: tuple[Capture, PerfReport]) -> None:
    _capture, report = matmul
    assert report.flops == 2 * 4096**3
    assert report.tensor_flops == 2 * 4096**3
    assert report.mma_dtype == "fp16"
    assert report.bound == "compute"
    assert report.grid == (512, 1, 1)
    (loop,) = report.loops
    assert loop.trips == 64  # K / BLOCK_SIZE_K, evaluated from the TTGIR's loop bounds
    assert report.ctas_per_sm == 1 and report.occupancy_pct == pytest.approx(12.5)


@pytest.mark.compile
def test_matmul_mma_flops_agree_with_sass(matmul: tuple[Capture, PerfReport]) -> None:
    """The PTX wgmma count and shape give the same FLOPs per iteration as the SASS HGMMA instructions."""
    from irscope.analysis.sourcemap import sass_listing
    from irscope.parse.lineinfo import Listing

    capture, report = matmul
    listing, why = sass_listing(capture)
    assert isinstance(listing, Listing), why
    (loop,) = listing.loops
    # Example: HGMMA.64x256x16.F32 R24, gdesc[UR4], R24
    shapes = [re.search(r"HGMMA\.(\d+)x(\d+)x(\d+)", i.opcode) for i in listing.inside(loop)]
    per_warpgroup = sum(2 * int(s[1]) * int(s[2]) * int(s[3]) for s in shapes if s)
    warpgroups = report.num_warps // 4
    assert report.loops[0].per_iteration.mma_flops == per_warpgroup * warpgroups == 2 * 128 * 256 * 64


@pytest.mark.compile
def test_matmul_loads_per_iteration_match_the_tiles(matmul: tuple[Capture, PerfReport]) -> None:
    _capture, report = matmul
    per_iteration = report.loops[0].per_iteration
    assert per_iteration.global_load_bytes == 2 * (128 * 64 + 64 * 256)  # the A and B tiles, fp16
    # The pipeliner's prologue issues two iterations ahead; they are not counted twice.
    assert report.requested_bytes == 512 * (64 * per_iteration.global_load_bytes + 2 * 128 * 256)


@pytest.mark.compile
def test_vector_add_bytes_and_memory_bound(vector_add: PerfReport) -> None:
    # the last DIRTY_L2_SHARE of the L2's lines written are still dirty when the kernel ends (ncu: 3203 MB on the H200)
    assert vector_add.dram_bytes == 3 * 4 * 2**28 - DIRTY_L2_SHARE * GPUS["h100"].l2_cache_bytes
    assert vector_add.bound == "memory"
    assert vector_add.flops == 2**28


@pytest.mark.compile
def test_softmax_on_gfx942_has_a_verdict(store: Path) -> None:
    capture = get_capture(make_request("softmax", "gfx942"), str(store))
    gpu = GPUS["mi300x"]
    shape = bundled_launch(get_kernel("softmax"), "hip", 0, {"n_rows": 4096, "n_cols": 4096}, gpu.sm_count)
    report = capture_perf(capture, device_model(gpu), shape)
    assert report.bound in ("compute", "memory", "latency")
    assert report.predicted_us > 0 and report.suggestions
    assert report.dram_bytes == 2 * 4 * 4096 * 4096
    (loop,) = report.loops
    # rows strided over a persistent grid; AMD's pipeliner peels num_stages - 1 of them into an epilogue
    assert loop.trips is not None and loop.peeled == 3
    assert loop.trips + loop.peeled == pytest.approx(4096 / (2 * gpu.sm_count))
    from irscope.views.perf_text import render_perf

    text = render_perf(report, "softmax on gfx942", explain=True)  # issue 43: "304 SMs" on an MI300X (CUs)
    device, work = (next(ln for ln in text.splitlines() if ln.lstrip().startswith(w)) for w in ("Device:", "grid "))
    assert f": {gpu.sm_count} CUs, " in device and device.endswith(" shared per CU") and " SM" not in device, device
    assert " CTA(s) per CU (" in work, work
    # the model's own sentences (verdict, assumptions, suggestions) name AMD's units too, and so does its JSON
    import re

    said = [report.bound_reason, report.dram_assumption, *report.assumptions, *report.uncertain,
            *(s.text for s in report.suggestions)]
    assert not [t for t in said if re.search(r"\b(SMs?|CTAs?)\b", t)], said
    assert any(re.search(r"\bCUs?\b", t) for t in said), said


def _strided(store: Path, stride: int, n: int = 2**22) -> tuple[Capture, LaunchShape, str]:
    """The strided copy x[i * stride] -> y[i] over n fp32, compiled for sm90: (capture, launch shape, TTGIR)."""
    launch = LaunchSpec(args=f"x_ptr=fp32[{n * stride}], y_ptr=fp32[{n}], n={n}",
                        constexprs=(f"STRIDE={stride}", "BLOCK=1024"), options={"num_warps": 4})
    request = make_request(f"{VARIANTS}:strided_copy_kernel", "sm90", launch=launch)
    capture = get_capture(request, str(store))
    shape = function_launch(request.kernel, (n // 1024, 1, 1))  # type: ignore[arg-type]
    return capture, shape, capture.read("ttgir")


@pytest.mark.compile
def test_uncoalesced_load_is_found(store: Path) -> None:
    capture, shape, ttgir = _strided(store, 16)
    load, store_access = coalescing(ttgir, scalar_values(ttgir, shape.values, shape.grid))
    # each lane holds 8 elements 64 bytes apart; the first of them, 512 bytes apart over the warp: 32 sectors,
    # 32 of HBM's 64-byte segments and 32 L2 lines for 128 useful bytes
    assert (load.op, load.sectors, load.segments, load.lines, load.useful_bytes) == ("tt.load", 32, 32, 32, 128)
    assert load.factor == 16.0 and store_access.factor == 1.0
    report = capture_perf(capture, device_model(GPUS["h100"]), shape)
    # ncu on the H200 measured 283 MB of DRAM traffic for this launch (benchmarks/perf_model_validation.py)
    assert report.dram_bytes == pytest.approx((16 * 4 + 4) * 4194304 - _dirty(4 * 4194304))
    assert any("uncoalesced tt.load" in s.text for s in report.suggestions)


@pytest.mark.compile
def test_stride_two_counts_the_sectors_of_every_register(store: Path) -> None:
    """x[i * 2]: one instruction touches a sector per lane, but the lane's other registers use the same sectors.

    The blocked layout gives each lane 4 consecutive indices, 8 bytes apart: 32 bytes, one sector. Over the
    warp's registers every sector of 16 segments is read and half of each used: 2x the DRAM bytes, not 8x,
    and no sector gather (both sectors of each segment are used).
    """
    capture, shape, ttgir = _strided(store, 2)
    assert "sizePerThread = [4]" in ttgir  # the layout the footprint below follows from
    load, _store = coalescing(ttgir, scalar_values(ttgir, shape.values, shape.grid))
    assert (load.sectors, load.segments, load.useful_bytes) == (32, 16, 128)
    assert (load.warp_sectors, load.warp_segments, load.warp_bytes, load.factor) == (32, 16, 512, 2.0)
    assert load.segment_step == 64 and dram_efficiency([load], device_model(GPUS["h100"]))[0] == 1.0
    report = capture_perf(capture, device_model(GPUS["h100"]), shape)
    assert report.dram_bytes == pytest.approx((2 * 4 + 4) * 4194304 - _dirty(4 * 4194304))


@pytest.mark.compile
@pytest.mark.parametrize(("stride", "step", "bound"), [(16, 64, "memory"), (1024, 4096, "latency")])
def test_sector_gather_moves_at_the_gather_rate(store: Path, stride: int, step: int,
                                                bound: str) -> None:
    """x[i * stride] in fp32 uses one sector of each 64-byte segment: its bytes move at the gather rate for
    its segment step; far apart (4 KB), the DRAM stays under 60% of its peak, which ncu calls latency-bound."""
    capture, shape, ttgir = _strided(store, stride)
    load, stored = coalescing(ttgir, scalar_values(ttgir, shape.values, shape.grid))
    assert (load.segment_step, load.warp_sectors, load.warp_segments, load.factor) == (step, 128, 128, 16.0)
    device = device_model(GPUS["h100"])
    rate = device.gather_rate(step)
    # the load moves 16x its bytes at the gather rate, the store its own bytes at the copy's
    efficiency, note = dram_efficiency([load, stored], device)
    assert efficiency == pytest.approx(17 / (16 / rate + 1))
    assert f"segments {step} B apart" in note
    report = capture_perf(capture, device, shape)
    # the output's lines still dirty in the L2 at the end are not DRAM bytes of the launch, but their write-back is
    # its DRAM time
    moved = report.dram_bytes + _dirty(4 * 4194304)
    assert report.memory_us == pytest.approx(moved / (device.dram_gbs * 1e9 * efficiency) * 1e6)
    assert report.bound == bound


def test_gather_rates_are_measured_or_the_h200s() -> None:
    device = device_model(GPUS["h100"])
    assert device.gather_rate(64) == dict(device.gather_efficiency)[64]
    assert device.gather_rate(16384) == dict(device.gather_efficiency)[4096]  # held beyond the last step
    low, high = dict(device.gather_efficiency)[256], dict(device.gather_efficiency)[1024]
    assert device.gather_rate(512) == pytest.approx((low + high) / 2)  # halfway in log2(step)
    measured = device_model(GPUS["h100"], copy_gbps=3000.0, gather_gbps={64: 1500.0, 4096: 600.0})
    assert measured.gather_efficiency == ((64, 0.5), (4096, 0.2))
    assert any("gathers measured now" in s for s in measured.sources)


def test_a_measured_gpu_is_its_table_row_with_the_measured_figures() -> None:
    """What `perf --gpu native` and the benchmarks model: the driver's name picks the row, the ceilings replace its
    figures."""
    from dataclasses import replace

    from irscope.errors import NoDeviceError, UsageError
    from irscope.request.perf_launch import measured_device, perf_device
    from irscope.run.bench import Ceilings

    # An H200's ceilings as measure_ceilings() read them (benchmarks/perf_model_validation.py on the H200 host).
    seen = Ceilings(device="NVIDIA H200", copy_gbps=4251.2, matmul_tflops=670.3, l2_bytes=60 << 20, sm_count=132,
                    gather_gbps={64: 3137.9, 256: 2406.3, 1024: 2291.7, 4096: 2323.3})
    device = measured_device(seen, "sm90")
    assert (device.name, device.product, device.origin, device.dram_gbs) == ("h200", "NVIDIA H200", "measured", 4251.2)
    assert device.tensor_tflops["fp16"] == pytest.approx(670.3)
    assert dict(device.gather_efficiency)[64] == pytest.approx(3137.9 / 4251.2)
    assert measured_device(replace(seen, device="NVIDIA H100 PCIe"), "sm90").name == "h100"  # not a row: the target's
    with pytest.raises(UsageError, match="not in irscope's GPU table and sm75 has no default"):
        measured_device(replace(seen, device="Tesla T4"), "sm75")

    assert perf_device("native", "sm90", lambda: seen)[1] == 132  # the SMs the launch is shaped for: measured
    with pytest.raises(NoDeviceError, match="torch sees none here; name one instead: h100, h200"):
        perf_device("native", "sm90", lambda: None)

    def unmeasured() -> None:
        raise AssertionError("a GPU named from the table is not measured")

    sheet, sms = perf_device("h200", "sm90", unmeasured)
    # unmeasured, the DRAM rate is what a streaming copy reached of the data sheet's on the H200
    assert (sheet.origin, sheet.dram_gbs, sms) == ("data sheet", GPUS["h200"].memory_bandwidth_gbs * COPY_SHARE, 132)


def test_trips_of_a_strided_loop() -> None:
    """A persistent loop ``for row in range(pid, n_rows, num_programs)`` (text as Triton 3.9 prints it)."""
    ttgir = (
        "  tt.func public @k(%n_rows: i32 {tt.divisibility = 16 : i32} loc(\"n_rows\"(#loc))) attributes {} {\n"
        "    %row_start = tt.get_program_id x : i32 loc(#loc1)\n"
        "    %row_step = tt.get_num_programs x : i32 loc(#loc2)\n"
        "    scf.for %row_idx = %row_start to %n_rows step %row_step  : i32 {\n"
    )
    (trips,) = evaluate_trips(ttgir, {"n_rows": 10}, (4, 1, 1))
    assert trips.trips == pytest.approx(10 / 4) and trips.busiest == 3 and trips.depends_on_program
    (unknown,) = evaluate_trips(ttgir, {}, (4, 1, 1))
    assert unknown.trips is None and "n_rows" in unknown.note


def test_mma_shapes() -> None:
    assert mma_shape("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16") == (64, 256, 16, "fp16")
    assert mma_shape("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32") == (16, 8, 16, "bf16")
    assert mma_shape("wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32") == (64, 128, 8, "tf32")
    assert mma_shape("v_mfma_f32_32x32x8_f16") == (32, 32, 8, "fp16")
    assert mma_shape("v_mfma_f32_16x16x16_bf16") == (16, 16, 16, "bf16")
    assert mma_shape("HGMMA") is None


def test_bank_summary_reads_the_report_interface() -> None:
    """The fields of irscope.analysis.banks.conflicts.SharedAccess, as that analysis fills them."""
    access = SimpleNamespace(where="k.py:31", op="ttg.local_load", instructions=("ld.shared.v4.b32",), ways=2,
                             kind="2-way", reason="the shared layout has no swizzle", conflicts_per_cta=64,
                             loop_line=120, counter="ld")
    free = SimpleNamespace(where="k.py:40", op="ttg.local_store", instructions=("st.shared.b32",), ways=1,
                           kind="conflict-free", reason="", conflicts_per_cta=0, loop_line=None, counter="st")
    epilogue = SimpleNamespace(where="k.py:50", op="ttg.local_store", instructions=("st.shared.v2.b32",), ways=4,
                               kind="4-way", reason="", conflicts_per_cta=8, loop_line=None, counter="st")
    summary = bank_summary(SimpleNamespace(accesses=[access, free, epilogue]), {120: 10.0})
    assert summary.available and summary.worst_ways == 4 and summary.conflicts_per_cta == 64 * 10 + 8
    assert summary.by_counter == {"ld": 640.0, "st": 8.0}
    assert summary.accesses[0] == "k.py:31 ttg.local_load ld.shared.v4.b32: 2-way (the shared layout has no swizzle)"
    assert summary.accesses[1].endswith("conflict-free")
    assert "4-way bank conflicts on the ttg.local_store of k.py:50" in summary.worst


@pytest.mark.compile
def test_cli_json_carries_the_numbers(store: Path, matmul: tuple[Capture, PerfReport]) -> None:
    result = invoke("perf", "matmul", "--target", "sm90", "--json", "--store", str(store))
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    data = json.loads(result.output)  # type: ignore[attr-defined]
    assert data["bound"] == "compute" and data["flops"] == 2 * 4096**3
    assert data["device"]["name"] == "h100" and data["predicted_us"] > 0 and data["dram_bytes"] > 0
    assert data["bank"]["available"]  # the bank-conflict analysis ships with irscope: matmul's wgmma is conflict-free
    assert data["bank"]["conflicts_total"] == 0


@pytest.mark.compile
def test_cli_text_puts_the_verdict_first_in_one_screen(store: Path, matmul: tuple[Capture, PerfReport]) -> None:
    """The verdict, the bound and the top change right under the title, all of it in one screen; the derivation only
    with --explain (-v), after the same summary."""
    _capture, report = matmul
    result = invoke("perf", "matmul", "--target", "sm90", "--store", str(store))
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    lines = result.output.splitlines()  # type: ignore[attr-defined]
    assert len(lines) <= 20
    assert lines[2] == f"Verdict: compute-bound, {report.predicted_us:.1f} us predicted on the NVIDIA H100 80GB HBM3 " \
                       "(h100, data sheet)"
    assert lines[3].startswith("  bound: compute (tensor-core time") and lines[4].startswith("  predicted_us: ")
    top = lines.index("  what would move it most:")
    assert top < 8 and lines[top + 1] == f"    - {report.suggestions[0].text}"
    assert any(line.startswith("Launch: grid (512, 1, 1) = 512 CTAs of 8 warps") for line in lines)
    assert "Work: 137.44 GFLOP (tensor 137.44 GFLOP, fp16" in result.output  # type: ignore[attr-defined]
    assert not any(line.startswith(("Device:", "Assumptions:")) for line in lines)
    assert lines[-1].endswith("--explain")
    for flag in ("--explain", "-v"):
        explained = invoke("perf", "matmul", "--target", "sm90", "--gpu", "h200", flag, "--store", str(store))
        text = explained.output  # type: ignore[attr-defined]
        headings = ("Verdict: compute-bound", "Device: NVIDIA H200", "\nWork:\n", "  loop line 75 ",
                    "Shared-memory bank conflicts:", "Assumptions:")
        assert [text.index(h) for h in headings] == sorted(text.index(h) for h in headings)
        assert "--explain" not in text.splitlines()[-1]


@pytest.mark.parametrize(("args", "message"), [
    (("--gpu", "h300"), "valid: a100, h100, h200"),
    (("--gpu", "mi300x"), "compiles for gfx942, not sm90"),
    (("--size", "4096x4096"), "this kernel's sizes are M, N, K"),
    (("--size", "Q=4"), "unknown size 'Q'"),
    (("--grid", "0"), "positive integers"),
    (("--gpu", "native"), "torch sees none here; name one instead: h100, h200"),
])
def test_cli_bad_input_is_one_line_exit_2(args: tuple[str, ...], message: str) -> None:
    result = invoke("perf", "matmul", "--target", "sm90", *args)
    assert result.exit_code == 2  # type: ignore[attr-defined]
    lines = [ln for ln in result.output.splitlines() if ln.strip()]  # type: ignore[attr-defined]
    assert len(lines) == 1 and message in lines[0]


def test_cli_gpu_table_lists_the_required_gpus() -> None:
    text = invoke("perf", "--gpus").output  # type: ignore[attr-defined]
    for name in ("a100", "h100", "h200", "b200", "mi300x", "mi350x"):
        assert re.search(rf"^{name}\s", text, re.M)
    assert "sources:" in text


@pytest.mark.compile
def test_cli_stored_bundled_capture_uses_its_launcher(store: Path, matmul: tuple[Capture, PerfReport]) -> None:
    """A capture named by its key: the bundled kernel's grid and tensors still say the launch (no --grid)."""
    capture, _report = matmul
    result = invoke("perf", capture.manifest.key, "--json", "--store", str(store))
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    data = json.loads(result.output)  # type: ignore[attr-defined]
    assert data["bound"] == "compute" and data["grid"] == [512, 1, 1] and data["flops"] == 2 * 4096**3


def test_the_model_imports_neither_triton_nor_torch() -> None:
    import subprocess
    import sys

    code = ("import sys\n"
            "import irscope.analysis.perf.predict, irscope.analysis.perf.capture, irscope.views.perf_text\n"
            "print(sorted(m for m in ('triton', 'torch', 'click') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.compile
def test_spills_are_counted_from_sass(store: Path, matmul: tuple[Capture, PerfReport]) -> None:
    """matmul's 128x256 tile on 4 warps spills (ptxas -v); the SASS LDL/STL traffic does not fit in L1, so it is L2
    traffic."""
    request = make_request("matmul", "sm90", launch=LaunchSpec(settings=("num_warps=4",)), store_dir=str(store))
    capture = get_capture(request, str(store))
    shape = bundled_launch(get_kernel("matmul"), "cuda", 0, MATMUL, GPUS["h100"].sm_count)
    report = capture_perf(capture, device_model(GPUS["h100"]), shape)
    _capture, base = matmul
    assert report.flops == base.flops
    assert report.requested_bytes > base.requested_bytes
    assert any("goes to L2" in a for a in report.assumptions)
    assert any("spill to local memory" in s.text for s in report.suggestions)
    # one CTA per SM (its shared memory): the spill traffic and the MMAs of a CTA add up, nothing overlaps them
    assert report.ctas_per_sm == 1 and "spill traffic to L2 in series" in report.bound_reason
    device = report.device
    clock = device.clock_mhz * 1e6
    ctas = report.grid[0] * report.grid[1] * report.grid[2]
    busiest = -(-ctas // device.sm_count)
    spill_per_cta = (report.requested_bytes - base.requested_bytes) / ctas / (LOCAL_BYTES_PER_SM_CLOCK * clock)
    tensor_per_cta = report.tensor_flops / ctas / (device.tensor_tflops["fp16"] * 1e12 / device.sm_count)
    assert report.predicted_us == pytest.approx(busiest * (spill_per_cta + tensor_per_cta) * 1e6 + LAUNCH_US)


@pytest.mark.compile
def test_spills_beyond_the_l2_reach_dram(store: Path, matmul: tuple[Capture, PerfReport]) -> None:
    """Two spilling CTAs per SM: every SM's local memory together exceeds the L2, so part of it goes to DRAM.

    ncu on the H200 (2 stages, 4 warps): 1066 MB of DRAM traffic where the tiles alone need about 150 MB.
    """
    request = make_request("matmul", "sm90", launch=LaunchSpec(settings=("num_warps=4", "num_stages=2")),
                           store_dir=str(store))
    capture = get_capture(request, str(store))
    shape = bundled_launch(get_kernel("matmul"), "cuda", 0, MATMUL, GPUS["h100"].sm_count)
    device = device_model(GPUS["h100"])
    report = capture_perf(capture, device, shape)
    _capture, base = matmul
    assert report.ctas_per_sm == 2
    used = capture_resources(capture)
    spills = max(used.spill_stores, used.spill_loads)
    assert spills > 0
    everywhere = device.sm_count * 2 * spills * 4 * 32
    assert everywhere > device.l2_bytes
    ctas = report.grid[0]
    # the spill traffic is what the base (no spills, same tiles) does not request; the rest of it reaches DRAM
    traffic = (report.requested_bytes - base.requested_bytes) / (2 - device.l2_bytes / everywhere)
    spill_dram = report.dram_bytes - report.compulsory_bytes - report.reread_bytes
    assert spill_dram == pytest.approx(traffic * (1 - device.l2_bytes / everywhere), rel=0.02)
    assert traffic / ctas > 0 and "assumed to reach DRAM" in report.dram_assumption


@pytest.mark.compile
def test_matmul_on_gfx942_sees_the_unrolled_loop(store: Path) -> None:
    """LLVM unrolls the AMD K-loop twice: 32 v_mfma per pass where the TTGIR's tt.dot 128x256x16 needs 16."""
    capture = get_capture(make_request("matmul", "gfx942"), str(store))
    gpu = GPUS["mi300x"]
    shape = bundled_launch(get_kernel("matmul"), "hip", 0, MATMUL, gpu.sm_count)
    report = capture_perf(capture, device_model(gpu), shape)
    assert report.loops[0].per_iteration.mma_flops == 2 * 128 * 256 * 16
    assert any("unrolled 2x" in u for u in report.uncertain)
    # the unroll remainder is counted once on top of the trips: one iteration's dot too many at most
    assert 2 * 4096**3 <= report.flops <= 2 * 4096**3 + 512 * 2 * 128 * 256 * 16
    assert report.bound == "compute"  # re-reads hit the 256 MiB Infinity Cache


TRANSPOSE = '''
import triton
import triton.language as tl


@triton.jit
def transpose(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    tl.store(y_ptr + cols[None, :] * M + rows[:, None], x)
'''


@pytest.mark.compile
def test_reserved_shared_memory_is_counted_once(tmp_path: Path, store: Path) -> None:
    """16 KB of layout-conversion scratch: the cubin's static SHARED 1024 is the driver's reservation, so 13 CTAs
    fit on an sm90 SM (ncu on the H200: 81.25% theoretical occupancy), not 12."""
    from irscope.analysis.resources import capture_resources

    source = tmp_path / "transpose.py"
    source.write_text(TRANSPOSE, encoding="utf-8")
    launch = LaunchSpec(args="x_ptr=fp32[4096,4096], y_ptr=fp32[4096,4096], M=4096, N=4096",
                        constexprs=("BLOCK_M=64", "BLOCK_N=64"), options={"num_warps": 4})
    capture = get_capture(make_request(f"{source}:transpose", "sm90", launch=launch), str(store))
    found = capture_resources(capture)
    assert (found.shared_dynamic, found.shared_static, found.shared_total) == (16384, 1024, 17408)
    assert found.occupancy is not None and found.occupancy.ctas == 13
    assert found.occupancy.percent == pytest.approx(81.25)


VARIANTS = Path(__file__).resolve().parent.parent / "benchmarks" / "perf_variants.py"


@pytest.mark.compile
@pytest.mark.parametrize(("bm", "bn", "bound", "conflicts"), [(64, 64, "compute", 0), (128, 32, "memory", 33554432)])
def test_fma_dot_shared_traffic_follows_the_bank_model(store: Path, bm: int, bn: int, bound: str,
                                                       conflicts: int) -> None:
    """perf_model_validation's 'fp32 dot' and 'no swizzle' (2048^3 fp32, ieee dot, 4 warps, 2 stages).

    ncu on the H200 (Triton 3.6): 64x64 tiles 4.67e4 conflicts over the launch, 6.73e7 ld wavefronts (1026 per CTA
    and iteration), SOL SM 69% / memory 63% (compute); 128x32 tiles 3.356e7 conflicts (512 per CTA and iteration).
    The A operand's PTX ld.shared.b32 run as LDS.128, split by half-warp: 2 or 4 wavefronts, not 2-way / 4-way b32.
    """
    launch = LaunchSpec(args=("a_ptr=fp32[2048,2048], b_ptr=fp32[2048,2048], c_ptr=fp32[2048,2048], M=2048, "
                              "N=2048, K=2048, stride_am=2048, stride_bk=2048, stride_cm=2048"),
                        constexprs=(f"BLOCK_M={bm}", f"BLOCK_N={bn}", "BLOCK_K=32", "PRECISION='ieee'"),
                        options={"num_warps": 4, "num_stages": 2})
    request = make_request(f"{VARIANTS}:matmul_fp32_kernel", "sm90", launch=launch)
    capture = get_capture(request, str(store))
    ctas = (2048 // bm) * (2048 // bn)
    report = capture_perf(capture, device_model(GPUS["h200"]), function_launch(request.kernel, (ctas, 1, 1)))  # type: ignore[arg-type]
    assert report.bank.available and report.bank.complete
    total = (report.bank.by_counter.get("ld", 0.0) + report.bank.by_counter.get("st", 0.0)) * ctas
    assert total == conflicts
    iterations = 2048 // 32
    if bm == 64:
        # A: 64 LDS.128 x 2 wavefronts, B: 32 LDS.128 x 4, per warp and iteration; 4 warps
        assert report.bank.lsu_wavefronts_per_cta / iterations == pytest.approx(4 * (64 * 2 + 32 * 4), rel=0.05)
    # the issue slots: the loop issues ~1250 PTX instructions per 1024 FMAs, so the vector time exceeds 2MNK / peak
    fma_only = 2 * 2048**3 / (GPUS["h200"].vector_tflops["fp32"] * 1e12) * 1e6
    assert report.vector_us > 1.1 * fma_only
    assert report.bound == bound


def _perf_in_subprocess(store: Path, *args: str) -> tuple[str, str]:
    import os
    import subprocess
    import sys

    code = ("import sys, runpy\n"
            "sys.argv = ['irscope'] + sys.argv[1:]\n"
            "try:\n    runpy.run_module('irscope', run_name='__main__')\n"
            "except SystemExit as e:\n    assert not e.code, e.code\n"
            "print('IMPORTED', 'triton' in sys.modules, 'torch' in sys.modules, file=sys.stderr)\n")
    env = {**os.environ, "PYTHONPATH": repo_path()}
    done = subprocess.run([sys.executable, "-c", code, "perf", *args, "--store", str(store), "--json"],
                          capture_output=True, text=True, env=env, timeout=300, check=True)
    return done.stdout, done.stderr


@pytest.mark.compile
def test_warm_perf_of_a_bundled_kernel_imports_neither_triton_nor_torch(tmp_path: Path) -> None:
    """The module's launcher is evaluated once (importing Triton); the launch is then read from the store."""
    first, _ = _perf_in_subprocess(tmp_path, "vector_add", "--size", "n_elements=1048576")
    (launch,) = tmp_path.glob("captures/*/derived/launch-*.json")
    again, imported = _perf_in_subprocess(tmp_path, "vector_add", "--size", "n_elements=1048576")
    assert "IMPORTED False False" in imported
    assert json.loads(again) == json.loads(first)
    assert json.loads(first)["dram_bytes"] == 2 * 4 * 1048576  # the 4 MiB output is still dirty in the L2 at the end
    # a forged launch file (wrong types, a negative grid) is not believed: the launcher runs again
    launch.write_text(json.dumps({"format": 1, "grid": [-1, 1, 1], "values": {"n_elements": "x"}, "tensors": [],
                                  "origin": "forged"}), encoding="utf-8")
    forged, imported = _perf_in_subprocess(tmp_path, "vector_add", "--size", "n_elements=1048576")
    assert "IMPORTED True" in imported and json.loads(forged) == json.loads(first)
    launch.write_text("{not json", encoding="utf-8")
    again = _perf_in_subprocess(tmp_path, "vector_add", "--size", "n_elements=1048576")[0]
    assert json.loads(again) == json.loads(first)
