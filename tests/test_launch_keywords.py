"""Launch keywords of FILE:FUNCTION kernels follow Triton's JIT: a keyword named like a launch option
(``num_stages``) binds the parameter of that name and sets the option; --constexpr sets constexprs only."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from irscope.cli import cli
from tests.conftest import DATA, REPO

pytestmark = pytest.mark.compile
SOFTMAX = f"{REPO / 'kernels' / 'softmax.py'}:softmax_kernel"
ARGS = "fp32[4096,4096], fp32[4096,4096], 4096, 4096, 4096, 4096"


def _show(tmp_path, *args: str) -> tuple[str, dict]:
    result = CliRunner().invoke(cli, ["show", *args, "--stage", "ttgir", "--json", "--store", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    return data["text"], json.loads((REPO / data["path"]).parent.joinpath("manifest.json").read_text())


@pytest.mark.parametrize("launch", [
    ["--constexpr", "num_stages=4", "--num-warps", "8"],
    ["--num-stages", "4", "--num-warps", "8"],
    ["--constexpr", "num_stages=4", "--constexpr", "num_warps=8"],
])
def test_option_named_constexpr_binds_the_parameter_and_sets_the_option(launch, captures, tmp_path):
    """The fused-softmax tutorial's ``num_stages: tl.constexpr``: the JIT launch ``num_stages=4`` is the reference."""
    bundled = captures("softmax", "sm90")  # launched through the JIT binder with num_warps=8, num_stages=4
    assert bundled.manifest.options["num_stages"] == 4
    text, manifest = _show(tmp_path, SOFTMAX, "--args", ARGS, "--constexpr", "BLOCK_SIZE=4096", *launch)
    assert manifest["constexprs"]["num_stages"] == 4 and manifest["options"]["num_stages"] == 4
    assert manifest["options"]["num_warps"] == 8
    assert text == bundled.read("ttgir")


@pytest.mark.parametrize(("extra", "needle"), [
    (["--constexpr", "input_row_stride=16"],
     "'input_row_stride' is an argument of softmax_kernel but not a tl.constexpr; give its value with --args; "
     "constexpr parameters: BLOCK_SIZE, num_stages"),
    (["--constexpr", "BLOCK=16"],
     "softmax_kernel has no parameter 'BLOCK'; constexpr parameters: BLOCK_SIZE, num_stages"),
    (["--constexpr", "num_stages=4", "--num-stages", "3"], "num_stages is given twice"),
])
def test_constexpr_that_the_kernel_cannot_take_is_refused(extra, needle, tmp_path):
    result = CliRunner().invoke(cli, ["show", SOFTMAX, "--args", ARGS, "--constexpr", "BLOCK_SIZE=4096", *extra,
                                      "--store", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert needle in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("launch", "needle"), [
    (["--args", "fp32[64], fp32[64], 64, 64, BLOCK=128"], "'BLOCK' is given by position and again by name"),
    (["--signature", "*fp32:16, *fp32:16, i32, 64", "--constexpr", "BLOCK=128"],
     "'BLOCK' is given twice, by its --signature entry '64' and by name"),
    (["--signature", "*fp32:16, *fp32:16, i32", "--constexpr", "n=64", "--constexpr", "BLOCK=64"],
     "'n' is an argument of relu_kernel but not a tl.constexpr"),
])
def test_one_parameter_given_two_values_is_refused(launch, needle, tmp_path):
    """Triton raises for a value given twice; irscope used to keep one of them silently."""
    result = CliRunner().invoke(cli, ["show", f"{DATA / 'pkgs' / 'demo_kernels' / 'activations.py'}:relu_kernel",
                                      *launch, "--store", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert needle in result.output and "Traceback" not in result.output


def test_python_api_option_keyword_binds_the_parameter(captures, tmp_path):
    """``irscope.capture(kernel, ..., num_stages=4)`` is the launch ``kernel[grid](..., num_stages=4)``."""
    import torch

    import irscope
    from irscope.compile.kernel_module import load_module

    kernel = load_module(REPO / "kernels" / "softmax.py").softmax_kernel
    x, y = torch.empty(4096, 4096), torch.empty(4096, 4096)
    made = irscope.capture(kernel, y, x, 4096, 4096, 4096, 4096, BLOCK_SIZE=4096, num_warps=8, num_stages=4,
                           target="sm90", store=str(tmp_path))
    assert made.manifest.constexprs["num_stages"] == 4 and made.manifest.options["num_stages"] == 4
    assert made.read("ttgir") == captures("softmax", "sm90").read("ttgir")


@pytest.mark.parametrize(("n", "divisible"), [(4096, True), (4095, False)])
def test_python_api_plain_argument_by_keyword_is_bound_as_the_jit_binds_it(n, divisible, tmp_path):
    """``n=4096`` by keyword is an ordinary argument (i32, divisible by 16 or not), not a constexpr."""
    import torch

    import irscope
    from irscope.compile.kernel_module import load_module

    kernel = load_module(DATA / "pkgs" / "demo_kernels" / "activations.py").gelu_kernel
    x, out = torch.empty(4096), torch.empty(4096)
    made = irscope.capture(kernel, x, out_ptr=out, n=n, target="sm90", store=str(tmp_path))
    assert made.manifest.signature["n"] == "i32" and "n" not in made.manifest.constexprs
    assert (made.manifest.attrs.get("n") == [["tt.divisibility", 16]]) is divisible


@pytest.mark.parametrize("extra",
                         [["--num-warps", "2"], ["--constexpr", "BLOCK=256"], ["--config", "1", "--num-stages", "2"]])
def test_keyword_the_autotuner_sets_is_refused(extra, tmp_path):
    """Triton raises when a launch keyword is also set by the autotune config; irscope used to let the
    keyword win and still call the capture "config 0", with that config's values in its manifest."""
    result = CliRunner().invoke(cli, ["show", f"{DATA / 'pkgs' / 'demo_kernels' / 'activations.py'}:gelu_kernel",
                                      "--args", "fp32[4096], fp32[4096], 4096", *extra, "--store", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "is set by the autotune config" in result.output and "Traceback" not in result.output
