"""Kernels users write: FILE:FUNCTION and package.module:FUNCTION, both launch syntaxes, the Python API."""

from __future__ import annotations

import json

import pytest
import triton
import triton.language as tl
from click.testing import CliRunner

import irscope
from irscope.cli import cli
from tests.conftest import DATA, REPO, invoke

pytestmark = pytest.mark.compile
PKG = DATA / "pkgs"


@triton.jit
def double_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2, mask=mask)


def test_kernel_defined_in_a_test_file_captured_for_sm90_and_gfx942(tmp_path):
    import torch

    x, out = torch.empty(4096), torch.empty(4096)
    sm90 = irscope.capture(double_kernel, x, out, 4096, BLOCK=1024, target="sm90", store=str(tmp_path))
    assert sm90.manifest.attrs["x_ptr"] == [["tt.divisibility", 16]]
    assert sm90.manifest.attrs["n"] == [["tt.divisibility", 16]]
    assert sm90.manifest.constexprs["BLOCK"] == 1024
    assert "ld.global.v4.b32" in sm90.read("ptx")
    gfx = irscope.capture(double_kernel, x, out, 4096, BLOCK=1024, target="gfx942", num_warps=8, store=str(tmp_path))
    assert gfx.manifest.options["num_warps"] == 8 and gfx.manifest.warp_size == 64
    # 1024 elements over 8 waves of 64 lanes: two fp32 per lane, one 8-byte buffer load.
    assert "buffer_load_dwordx2" in gfx.read("amdgcn")
    # An odd size loses the divisibility of n, exactly as the JIT would.
    odd = irscope.capture(double_kernel, x, out, 4095, BLOCK=1024, target="sm90", store=str(tmp_path))
    assert "n" not in odd.manifest.attrs


def test_kernel_from_an_importable_package(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(PKG))
    store = ["--store", str(tmp_path)]
    args = "x_ptr=fp32[8192], out_ptr=fp32[8192], n=8192"
    result = invoke("show", "demo_kernels.activations:relu_kernel", "--args", args, "--constexpr", "BLOCK=1024",
                    "--stage", "ttgir", *store)
    assert result.exit_code == 0, result.output
    # @triton.heuristics applied: n % BLOCK == 0, so the unmasked branch was compiled.
    assert "arith.cmpi" not in result.stdout.split("tt.func")[1].split("tt.return")[0]
    result = invoke("show", "demo_kernels.activations:relu_kernel", "--args", args, "--constexpr", "BLOCK=1024",
                    "--stage", "amdgcn", "--target", "gfx942", *store)
    assert result.exit_code == 0 and "v_max_f32" in result.stdout
    data = json.loads(invoke("show", "demo_kernels.activations:relu_kernel", "--args", args, "--constexpr",
                             "BLOCK=1024", "--json", *store).stdout)
    manifest = json.loads((REPO / data["path"]).parent.joinpath("manifest.json").read_text())
    assert manifest["constexprs"]["EVEN_N"] is True and manifest["origin"] == "function"


def test_autotuned_kernel_lists_and_compiles_its_configs(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(PKG))
    listing = invoke("list", "demo_kernels.activations:gelu_kernel")
    assert listing.exit_code == 0
    assert "0: BLOCK=128 num_warps=4" in listing.output and "1: BLOCK=512 num_warps=8" in listing.output
    # show's command line with `list` for `show`: the configs, before choosing --config (it was refused).
    launched = invoke("list", "demo_kernels.activations:gelu_kernel", "--args", "fp32[4096], fp32[4096], 4096")
    assert launched.exit_code == 0 and launched.output == listing.output
    bad = invoke("list", "demo_kernels.activations:gelu_kernel", "--args", "fp32[4096, 4096")
    assert bad.exit_code == 2 and "cannot read argument 'fp32[4096, 4096'" in bad.output
    result = invoke("show", "demo_kernels.activations:gelu_kernel", "--args", "fp32[4096], fp32[4096], 4096",
                    "--config", "1", "--json", "--store", str(tmp_path))
    data = json.loads(result.stdout)
    assert "#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [8]" in data["text"]


def test_signature_and_example_arguments_give_the_jit_specialization(captures, tmp_path):
    """Triton's AOT signature syntax, example arguments and the bundled JIT path agree exactly.

    ``ACTIVATION=`` is what the shell passes for the docs' ``--constexpr ACTIVATION=""``: the empty string.
    """
    bundled = captures("matmul", "sm90")
    kernel = f"{REPO / 'kernels' / 'matmul.py'}:matmul_kernel"
    common = ["--constexpr", "ACTIVATION=", "--num-warps", "8", "--num-stages", "3", "--json", "--store", str(tmp_path)]
    by_sig = invoke("show", kernel, "--signature", "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, "
                    "i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8", *common)
    by_args = invoke("show", kernel, "--args", "fp16[4096,4096], fp16[4096,4096], fp16[4096,4096], 4096, 4096, 4096, "
                     "4096, 1, 4096, 1, 4096, 1", "--constexpr", "BLOCK_SIZE_M=128", "--constexpr", "BLOCK_SIZE_N=256",
                     "--constexpr", "BLOCK_SIZE_K=64", "--constexpr", "GROUP_SIZE_M=8", *common)
    texts = [json.loads(r.stdout)["text"] for r in (by_sig, by_args)]
    assert texts[0] == texts[1] == bundled.read("ttgir")
    manifests = [json.loads((REPO / json.loads(r.stdout)["path"]).parent.joinpath("manifest.json").read_text())
                 for r in (by_sig, by_args)]
    for m in manifests:
        assert m["signature"] == bundled.manifest.signature
        assert m["attrs"] == bundled.manifest.attrs
        assert m["constexprs"] == bundled.manifest.constexprs


@pytest.mark.parametrize(("args", "needle"), [
    (["show", "no_such_file.py:k", "--args", "1"], "kernel file no_such_file.py does not exist"),
    (["show", f"{PKG}/demo_kernels/activations.py:nope", "--args", "1"],
     "has no 'nope'; its Triton kernels: gelu_kernel, relu_kernel"),
    (["show", f"{PKG}/demo_kernels/activations.py:not_a_kernel", "--args", "1"], "is not a @triton.jit function"),
    (["show", f"{PKG}/demo_kernels/activations.py:relu_kernel", "--signature", "*fp32:16, *fp32:7, i32"],
     "only 1 and 16 are valid hints"),
    (["show", f"{PKG}/demo_kernels/activations.py:relu_kernel", "--signature", "*fp32:16, fp32[, i32"],
     "expected TYPE[:HINT]"),
    (["show", f"{PKG}/demo_kernels/activations.py:relu_kernel", "--args", "fp32[64], fp32[64], 64, 1, 2, 3"],
     "takes 5 arguments; --args gives 6 positional"),
    (["show", f"{PKG}/demo_kernels/activations.py:gelu_kernel", "--args", "x_ptr=fp32[64], out_ptr=fp32[64]"],
     "missing argument 'n'"),
    (["show", f"{PKG}/demo_kernels/activations.py:relu_kernel", "--args", "fp32[64], fp32[64], 64"],
     "missing constexpr 'BLOCK'"),
    (["show", f"{PKG}/demo_kernels/activations.py:relu_kernel"], "describe the launch with exactly one of"),
    (["show", "matmul", "--args", "fp16[4]"], "--signature and --args need a kernel given as FILE.py:FUNCTION"),
    (["show", "matmul", "--constexpr", "B=4"], "apply to kernels given as FILE.py:FUNCTION"),
    (["show", "no_such_pkg.mod:k", "--args", "1"], "cannot be found on the Python path"),
])
def test_bad_kernel_references_and_launches(args, needle, tmp_path):
    result = CliRunner().invoke(cli, [*args, "--store", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert needle in result.output
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) <= 2  # the compile notice, then the one-line error


def test_a_kernel_file_that_is_not_python_is_refused_before_any_compile_notice(tmp_path):
    """Issue 43 item 9: "compiling k for sm90..." came before the syntax error, which needed no compile."""
    bad = tmp_path / "bad.py"
    bad.write_text("import triton\n\n\n@triton.jit\ndef k(x_ptr, BLOCK: tl.constexpr):\n"
                   "    offs = tl.arange(0, BLOCK\n    tl.store(x_ptr + offs, offs)\n")
    result = CliRunner().invoke(cli, ["show", f"{bad}:k", "--signature", "*fp32:16, 128", "--store",
                                      str(tmp_path / "store")])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == f"irscope: error: {bad}:6: not valid Python: '(' was never closed"
