"""`--set NAME=VALUE`: what-if variants of any kernel, checked before compiling, compared with the base."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from irscope.analysis.loops import capture_loops
from irscope.request.settings import parse_settings
from irscope.store.store import Store
from tests.conftest import DATA, invoke
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile


def buffers(ttgir: str) -> list[str]:
    """The shapes of the shared-memory buffers the pipeliner allocated (``3x128x64xf16``)."""
    return re.findall(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<(\w+),", ttgir)


def test_num_stages_and_block_k_change_the_buffers(shared_store):
    store = str(shared_store)
    base = invoke("show", "matmul", "--target", "sm90", "--stage", "ttgir", "--store", store)
    two = invoke("show", "matmul", "--target", "sm90", "--stage", "ttgir", "--set", "num_stages=2", "--store", store)
    k32 = invoke("show", "matmul", "--target", "sm90", "--stage", "ttgir", "--set", "BLOCK_SIZE_K=32", "--store", store)
    assert base.exit_code == two.exit_code == k32.exit_code == 0
    assert buffers(base.output) == ["3x128x64xf16", "3x64x256xf16"]
    assert buffers(two.output) == ["2x128x64xf16", "2x64x256xf16"]  # 2-deep buffers
    assert buffers(k32.output) == ["3x128x32xf16", "3x32x256xf16"]  # 128x32 tiles of A
    variants = {c.manifest.settings.get("num_stages"): c for c in Store(shared_store).captures()
                if c.manifest.kernel == "matmul" and c.manifest.target == "sm90" and c.manifest.settings}
    variant = variants[2]
    assert variant.manifest.config["num_stages"] == 2 and variant.manifest.options["num_stages"] == 2
    (loop,), _ = capture_loops(variant)
    assert loop.pipelined and loop.achieved_stages == 2  # checked against the PTX by the loop analysis
    listed = invoke("list", "--store", store)
    assert "set num_stages=2" in listed.output


@pytest.mark.parametrize("item, said", [
    ("bogus=1", "--set bogus: not a launch option or constexpr of this kernel; settable: BLOCK_SIZE_M=128"),
    ("num_warps=3", "num_warps must be a power of two from 1 to 32"),
    ("BLOCK_SIZE_K=48", "a block size must be a power of two"),
    ("BLOCK_SIZE_K=2097152", "exceeds Triton's tensor limit of 1048576 elements"),
    ("BLOCK_SIZE_K=true", "BLOCK_SIZE_K is a whole number here (now 64)"),
    ("num_stages", "write NAME=VALUE"),
    ("maxnreg=300", "maxnreg must be a whole number from 16 to 255"),
])
def test_bad_settings_are_refused_before_compiling(tmp_path, item, said):
    store = tmp_path / "store"
    result = invoke("show", "matmul", "--target", "sm90", "--set", item, "--store", str(store))
    assert result.exit_code == 2, result.output
    assert said in result.output and "Traceback" not in result.output
    assert not list(Store(store).captures())  # nothing compiled


def test_amd_options_and_duplicates():
    wrong = invoke("show", "matmul", "--target", "gfx942", "--set", "matrix_instr_nonkdim=8")
    assert wrong.exit_code == 2 and "matrix_instr_nonkdim must be 0" in wrong.output
    cuda_only = invoke("show", "matmul", "--target", "gfx942", "--set", "maxnreg=128")
    assert cuda_only.exit_code == 2 and "waves_per_eu=" in cuda_only.output  # AMD's settable names listed
    with pytest.raises(Exception, match="given twice"):
        parse_settings(["num_stages=2", "num_stages=3"])


def test_waves_per_eu_on_amd_reaches_the_backend(shared_store):
    result = invoke("show", "matmul", "--target", "gfx942", "--stage", "amdgcn", "--set", "waves_per_eu=1",
                    "--store", str(shared_store))
    assert result.exit_code == 0, result.output
    variant = next(c for c in Store(shared_store).captures() if c.manifest.settings.get("waves_per_eu") == 1)
    assert variant.manifest.options["waves_per_eu"] == 1 and variant.manifest.config["waves_per_eu"] == 1
    assert '"amdgpu-waves-per-eu"="1' in variant.read("llir")  # the backend got it: LLVM's function attribute
    # The value config 0 already has (2) changes nothing: the base capture itself, not a variant.
    same = invoke("show", "matmul", "--target", "gfx942", "--set", "waves_per_eu=2", "--json",
                  "--store", str(shared_store))
    base = invoke("show", "matmul", "--target", "gfx942", "--json", "--store", str(shared_store))
    key = lambda out: json.loads(out[out.index("{"):])["capture"]  # noqa: E731
    assert key(same.output) == key(base.output)


def test_a_recorded_kernel_varies_without_running_the_program(tmp_path):
    store = tmp_path / "store"
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(DATA / "programs" / "autotuned.py"),
                   store=store)
    assert proc.returncode == 0, proc.stderr
    shown = irscope("show", "tile_scale_kernel", "--config", "1", "--set", "num_warps=8", "--set", "BLOCK_M=128",
                    "--stage", "ttgir", store=store)
    assert shown.returncode == 0, shown.stderr
    assert '"ttg.num-warps" = 8' in shown.stdout and "tensor<128x64xf32" in shown.stdout
    compared = irscope("compare", "tile_scale_kernel", "--config", "1", "--set", "num_warps=8", "--json", store=store)
    assert compared.returncode == 0, compared.stderr
    data = json.loads(compared.stdout)
    assert data["b"]["label"].endswith("set num_warps=8")
    # The per-pass dump of the variant compiles it again in a worker, from the stored variant alone.
    passes = irscope("passes", "tile_scale_kernel", "--config", "1", "--set", "num_warps=8", "--json", store=store)
    assert passes.returncode == 0, passes.stderr[-2000:]
    assert any(p["name"] == "tritongpu-coalesce" for p in json.loads(passes.stdout)["passes"])
    unknown = irscope("show", "tile_scale_kernel", "--set", "BLOCK_K=16", store=store)
    assert unknown.returncode == 2 and "settable: BLOCK_M=16, BLOCK_N=32, num_warps=1" in unknown.stderr


def test_compare_against_the_base_config(shared_store):
    result = invoke("compare", "matmul", "--target", "sm90", "--set", "num_stages=2", "--json",
                    "--store", str(shared_store))
    assert result.exit_code == 0, result.output
    changed = {c["fact"]: c for c in json.loads(result.stdout)["changed"]}
    assert (changed["loop1.stages"]["a"], changed["loop1.stages"]["b"]) == (3, 2)
    assert changed["shared_bytes"]["b"] < changed["shared_bytes"]["a"]


def test_function_kernel_settings_override_its_autotune_config(tmp_path):
    spec = f"{DATA / 'programs' / 'autotuned.py'}:tile_scale_kernel"
    args = ["--args", "x_ptr=fp32[512,256], out_ptr=fp32[512,256], M=512, N=256, stride=256", "--target", "sm80"]
    result = invoke("show", spec, *args, "--config", "0", "--set", "BLOCK_N=64", "--stage", "ttgir",
                    "--store", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "tensor<16x64xf32" in result.output  # BLOCK_M from config 0, BLOCK_N from --set
    assert Path(tmp_path).exists()


def test_a_recorded_kernels_settable_names_are_its_declared_constexprs_only():
    """Issue 43 item 9: the JIT's ==1 specialization records `stride_ak=1` as a constant; --set must not offer it."""
    from irscope.request.kinds import _declared_constexprs

    assert _declared_constexprs(DATA / "programs" / "autotuned.py", "tile_scale_kernel") == {"BLOCK_M", "BLOCK_N"}
    assert _declared_constexprs(DATA / "programs" / "autotuned.py", "no_such_kernel") is None


@pytest.mark.compile
def test_the_compile_line_of_a_variant_names_its_setting(tmp_path):
    shown = invoke("show", "vector_add", "--target", "sm80", "--stage", "ttir", "--set", "BLOCK_SIZE=512",
                   "--store", str(tmp_path / "store"))
    assert shown.exit_code == 0, shown.output
    assert "(config 0, --set BLOCK_SIZE=512, Triton" in shown.stderr
