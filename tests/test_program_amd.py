"""Compiling for AMD: the program's and the kernel's own vendor checks see the AMD target; launches over the
per-workgroup limit are errors, never 100% occupancy."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from irscope.analysis.resources import GPU_LIMITS, amd_occupancy, nvidia_occupancy
from irscope.parse.resources import AmdUsage
from irscope.request.captures import LaunchSpec, get_capture, make_request
from irscope.store.store import Store
from tests.conftest import DATA
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile
PROGRAM = DATA / "programs" / "amd_choice.py"


def test_an_amd_capture_takes_the_programs_amd_branch_and_its_over_limit_launch_is_an_error(tmp_path: Path) -> None:
    proc = irscope("capture", "--target", "gfx942", "--", sys.executable, str(PROGRAM), store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "backend hip, num_warps 32" in proc.stdout
    (capture,) = Store(tmp_path).captures()
    ttgir = capture.read("ttgir")
    assert '"ttg.num-warps" = 32 : i32' in ttgir and '"ttg.threads-per-warp" = 64 : i32' in ttgir
    assert "arith.constant dense<2.000000e+00>" in capture.read("ttir")  # target_info.is_hip() in the kernel
    assert ".max_flat_workgroup_size: 1024" in capture.read("amdgcn")  # the limit, as the compiler wrote it
    resources = irscope("resources", "vendor_fill_kernel", store=tmp_path)
    assert resources.returncode == 1
    assert "100.0%" not in resources.stdout
    assert "occupancy on MI300X (gfx942): none, one workgroup does not fit and the launch would fail" \
        in resources.stdout
    assert resources.stderr.strip() == (
        "irscope: error: vendor_fill_kernel config 0 cannot be launched on MI300X (gfx942): 32 waves x 64 = 2048 "
        "work-items per workgroup, over the 1024 MI300X (gfx942) allows; the kernel's metadata allows at most "
        "1024 work-items per workgroup (.max_flat_workgroup_size)")
    # The reason is said once, on the error's one line (not again in the report above it).
    assert (resources.stdout + resources.stderr).count("2048 work-items") == 1
    perf = irscope("perf", "vendor_fill_kernel", store=tmp_path)  # no launch to model: one line, not a forecast
    assert perf.returncode == 1 and perf.stdout == ""
    assert perf.stderr.strip().splitlines() == [
        "irscope: error: vendor_fill_kernel config 0 cannot be launched on MI300X (gfx942): 32 waves x 64 = 2048 "
        "work-items per workgroup, over the 1024 MI300X (gfx942) allows; the kernel's metadata allows at most "
        "1024 work-items per workgroup (.max_flat_workgroup_size); there is no launch to model (irscope resources "
        "says more)"]
    # The replay (per-pass compile, another process) compiles the AMD branch too.
    passes = irscope("passes", "vendor_fill_kernel", "--json", store=tmp_path)
    assert passes.returncode == 0, passes.stderr
    diff = irscope("diff", "vendor_fill_kernel", "--from", "ttir", "--to", "inline", store=tmp_path)
    assert diff.returncode == 0, diff.stderr
    assert "2.000000e+00" in diff.stdout and "1.000000e+00" not in diff.stdout


def test_compiles_for_two_vendors_in_one_process_each_see_their_own_target(tmp_path: Path) -> None:
    launch = LaunchSpec(signature="*fp32:16, i32, 2048")
    spec = f"{PROGRAM}:vendor_fill_kernel"
    texts = {}
    for target in ("sm90", "gfx942", "sm90"):
        capture = get_capture(make_request(spec, target, launch=launch, store_dir=str(tmp_path)), str(tmp_path),
                              recapture=True)
        texts.setdefault(target, []).append(capture.read("ttir"))
    assert all("dense<1.000000e+00>" in t for t in texts["sm90"])
    assert "dense<2.000000e+00>" in texts["gfx942"][0]


def test_a_cta_over_the_thread_limit_does_not_fit() -> None:
    usage = AmdUsage(vgprs=3, agprs=0, accum_offset=4, sgprs=17, sgprs_for_occupancy=None, vgpr_spills=0,
                     sgpr_spills=0, lds_bytes=0, scratch_bytes=0, llvm_occupancy=8)
    assert amd_occupancy(GPU_LIMITS["gfx942"], usage, 16, 0).fits  # 16 x 64 = 1024 work-items: the limit
    over = amd_occupancy(GPU_LIMITS["gfx942"], usage, 32, 0)
    assert not over.fits and over.ctas == 0 and over.percent == 0.0
    assert over.problems == ("32 waves x 64 = 2048 work-items per workgroup, over the 1024 MI300X (gfx942) allows",)
    assert nvidia_occupancy(GPU_LIMITS["sm90"], 32, 32, 0).fits  # 32 x 32 = 1024 threads
    nv = nvidia_occupancy(GPU_LIMITS["sm90"], 32, 64, 0)
    assert not nv.fits
    assert nv.problems[0] == "64 warps x 32 = 2048 threads per CTA, over the 1024 H100/H200 (sm90) allows"
