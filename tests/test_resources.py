"""Resources of real captures checked against ptxas and LLVM, spills across configs, and the occupancy model."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from irscope.analysis.resources import GPU_LIMITS, amd_occupancy, capture_resources, nvidia_occupancy
from irscope.cli import cli
from irscope.parse.resources import AmdUsage, parse_amdgcn_usage, parse_cubin_usage, parse_ptxas_usage
from irscope.toolchain.nvtools import ptxas_verbose, resource_usage, tool_path
from tests.conftest import DATA

pytestmark = pytest.mark.compile

LOOPS_DEMO = str(DATA / "kernels" / "loops_demo.py")


@pytest.mark.parametrize("target", ["sm90", "sm80"])
def test_registers_agree_with_ptxas_and_shared_memory_with_triton(captures, target):
    cap = captures("matmul", target)
    found = capture_resources(cap)
    (ptxas,) = parse_ptxas_usage(ptxas_verbose(cap).stderr)
    assert ptxas.function == "matmul_kernel" and ptxas.arch == ("sm_90a" if target == "sm90" else "sm_80")
    assert found.registers == ptxas.registers and 64 < found.registers <= 255
    assert found.spill_stores == ptxas.spill_stores == 0 and not found.spills
    assert found.shared_dynamic == cap.manifest.metadata["shared"] > 0
    # the cubin's static SHARED already holds the driver's 1 KB per-CTA reservation (ncu agrees on an H200)
    assert found.shared_total == found.shared_dynamic + max(found.shared_static, 1024)
    assert found.checks == (f"ptxas -v on the PTX and the cubin agree: {found.registers} registers per thread",)
    occ = found.occupancy
    assert occ is not None and occ.gpu == GPU_LIMITS[target].name
    assert occ.ctas == 1 and occ.warps == 8 and occ.limiting[0] == "registers"  # 8 warps x 200+ registers


def test_the_tool_output_is_cached_in_the_capture(captures):
    cap = captures("matmul", "sm90")
    first = resource_usage(cap)
    again = resource_usage(cap)
    assert again.cached and again.stdout == first.stdout
    assert (cap.path / "derived" / "resource-usage.json").is_file()
    assert parse_cubin_usage(again.stdout)[0].registers == capture_resources(cap).registers


def test_missing_tool_is_a_problem_not_a_crash(captures, monkeypatch, tmp_path):
    cap = captures("matmul", "sm90")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    assert tool_path("cuobjdump") is None
    (cap.path / "derived" / "resource-usage.json").unlink(missing_ok=True)
    run = resource_usage(cap)
    assert not run.ok and "cuobjdump not found" in run.problem


def test_a_register_cap_spills_and_all_configs_shows_which(captures):
    cap = captures(LOOPS_DEMO, "sm80", 1)
    assert cap.manifest.config["maxnreg"] == 32
    found = capture_resources(cap)
    assert found.registers is not None and found.registers <= 32
    assert found.spills and found.spill_stores > 0 and found.stack_bytes > 0
    result = CliRunner().invoke(cli, ["resources", LOOPS_DEMO, "--target", "sm80", "--all-configs",
                                      "--store", str(captures.store)], catch_exceptions=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "loops_kernel on sm80: 2 configs (A100 (sm80) limits)"
    assert "B st/ld" in lines[4] and "none" in lines[3]
    assert lines[-1] == "  spilling configs: 1"


def test_gfx942_figures_come_from_the_amdgcn_metadata_and_agree_with_llvm(captures):
    cap = captures("matmul", "gfx942")
    found = capture_resources(cap)
    usage = parse_amdgcn_usage(cap.read("amdgcn"))
    assert usage is not None and found.registers == usage.vgprs > 0 and found.sgprs == usage.sgprs
    assert found.occupancy is not None and found.occupancy.waves_per_simd == usage.llvm_occupancy
    assert "agrees with the register count" in found.checks[0]
    data = json.loads(CliRunner().invoke(cli, ["resources", "matmul", "-t", "gfx942", "--json",
                                               "--store", str(captures.store)]).stdout)
    assert data["registers"] == usage.vgprs and data["occupancy"]["gpu"] == "MI300X (gfx942)"


@pytest.mark.compile
def test_amd_spills_to_scratch_and_sgpr_spills_are_apart(captures):
    """On AMD, LLVM counts VGPRs spilled (to scratch memory) and SGPRs spilled (into VGPR lanes) apart: the
    ``spills`` fact is the first, ``spills.sgpr`` the second, each as the AMDGCN's own metadata says; and the
    register count is the unified file's total (.vgpr_count), its AGPRs part of it."""
    from irscope.analysis.facts import capture_facts
    from irscope.views.resources_text import render_resources

    cap = captures("matmul", "gfx942", 4)  # waves_per_eu = 8: its VGPRs spill
    usage = parse_amdgcn_usage(cap.read("amdgcn"))
    assert usage is not None and usage.vgpr_spills > 0
    values = capture_facts(cap).values
    assert values["spills"] == usage.vgpr_spills and values["spills.sgpr"] == usage.sgpr_spills
    assert values["registers"] == usage.vgprs
    text = render_resources(capture_resources(cap), "t")
    assert f"SPILLS: {usage.vgpr_spills} VGPRs to scratch, {usage.sgpr_spills} SGPRs into VGPR lanes" in text


def test_resources_cli_text(captures):
    result = CliRunner().invoke(cli, ["resources", "matmul", "--target", "sm90", "--store", str(captures.store)],
                                catch_exceptions=False)
    out = result.output
    assert out.startswith("matmul_kernel on sm90, config 0 (num_warps 8, num_stages 3)")
    assert "registers      " in out and "(no spills)" in out
    assert "147456 B dynamic (Triton's buffers)" in out
    assert "occupancy on H100/H200 (sm90): 1 CTA per SM = 8 of 64 warp slots (12.5%)" in out


PTXAS_OLD = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k' for 'sm_80'
ptxas info    : Function properties for k
    16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 1024 bytes smem, 368 bytes cmem[0], 4 bytes lmem
ptxas info    : Compiling entry function 'other' for 'sm_80'
ptxas info    : Used 8 registers, 360 bytes cmem[0]
"""


def test_ptxas_cubin_and_amdgcn_text_parsers():
    k, other = parse_ptxas_usage(PTXAS_OLD)
    assert (k.registers, k.stack_bytes, k.spill_stores, k.spill_loads) == (40, 16, 8, 12)
    assert (k.barriers, k.static_shared, k.local_bytes) == (1, 1024, 4)
    assert (other.function, other.registers, other.spill_stores) == ("other", 8, 0)
    assert parse_ptxas_usage("garbage\nUsed 12 registers\n") == []
    (cubin,) = parse_cubin_usage(" Function k:\n  REG:40 STACK:16 SHARED:1024 LOCAL:4 CONSTANT[0]:368 TEXTURE:0\n")
    assert (cubin.registers, cubin.stack, cubin.shared, cubin.local, cubin.constant0) == (40, 16, 1024, 4, 368)
    amd = parse_amdgcn_usage("; NumVgprs: 90\n; AccumOffset: 92\n; Occupancy: 5\n"
                             "amdhsa.kernels:\n  - .agpr_count:     4\n    .sgpr_count:     40\n"
                             "    .vgpr_count:     90\n    .vgpr_spill_count: 3\n    .private_segment_fixed_size: 16\n")
    assert amd == AmdUsage(vgprs=90, agprs=4, accum_offset=92, sgprs=40, sgprs_for_occupancy=None, vgpr_spills=3,
                           sgpr_spills=0, lds_bytes=0, scratch_bytes=16, llvm_occupancy=5)
    assert parse_amdgcn_usage("s_endpgm\n") is None


def test_occupancy_model():
    h100, a100, mi300 = GPU_LIMITS["sm90"], GPU_LIMITS["sm80"], GPU_LIMITS["gfx942"]
    # 64 registers x 32 lanes = 2048 per warp: 8 warps per sub-partition, 32 per SM -> 8 CTAs of 4 warps.
    small = nvidia_occupancy(a100, 64, 4, 4096)
    assert small.limits["registers"] == 8 and small.ctas == 8 and small.limiting == ("registers",)
    # 65 registers round up to 2304 per warp: 7 warps per sub-partition -> 28 warps -> 7 CTAs.
    assert nvidia_occupancy(a100, 65, 4, 4096).limits["registers"] == 7
    assert nvidia_occupancy(h100, 32, 4, 120 * 1024).limits["shared memory"] == 1
    assert nvidia_occupancy(h100, 32, 2, 8192).limits["warp slots"] == 32
    too_big = nvidia_occupancy(a100, 32, 4, 170 * 1024)
    assert not too_big.fits and too_big.ctas == 0
    usage = AmdUsage(vgprs=206, agprs=0, accum_offset=208, sgprs=34, sgprs_for_occupancy=102, vgpr_spills=0,
                     sgpr_spills=0, lds_bytes=0, scratch_bytes=0, llvm_occupancy=2)
    occ = amd_occupancy(mi300, usage, 4, 12288)
    assert occ.waves_per_simd == 2 and occ.ctas == 2 and occ.limits["SGPRs"] == 7 and occ.limiting == ("VGPRs",)
    assert amd_occupancy(mi300, usage, 4, 40 * 1024).limits["shared memory"] == 1
