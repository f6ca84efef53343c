"""``--args`` against the real thing: Triton's own ``JITFunction.warmup`` with real (CPU) torch tensors,
run through the JIT's launch path offline. Specialization and TTGIR must be identical."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from irscope.cli import cli
from irscope.compile.function import ensure_driver
from irscope.compile.kernel_module import load_module
from irscope.model.targets import resolve_target
from tests.conftest import REPO

pytestmark = pytest.mark.compile
MATMUL = REPO / "kernels" / "matmul.py"
META = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "ACTIVATION": ""}


def _by_name(signature: dict[str, str], values: dict[tuple[int, ...], object]) -> dict[str, object]:
    names = list(signature)
    return {names[path[0]] + "".join(f"[{i}]" for i in path[1:]): value for path, value in values.items()}


@pytest.mark.parametrize(("m", "n", "k", "transposed_b", "offset"), [
    (512, 384, 256, False, 0),    # strides 256/384 (divisible by 16) and 1 (a constant)
    (500, 390, 250, False, 0),    # odd sizes: no divisibility
    (512, 384, 256, True, 0),     # B transposed: stride_bk 1, stride_bn 256
    (512, 384, 256, False, 1),    # A starts one element in: its pointer is not 16-byte aligned
])
def test_args_give_the_jit_launch_specialization(m, n, k, transposed_b, offset, tmp_path):
    import torch

    ensure_driver(resolve_target("sm90"))
    kernel = load_module(MATMUL).matmul_kernel
    a = torch.empty(m * k + offset, dtype=torch.float16)[offset:].view(m, k)
    b = torch.empty(n, k, dtype=torch.float16).t() if transposed_b else torch.empty(k, n, dtype=torch.float16)
    c = torch.empty(m, n, dtype=torch.float16)
    ints = [m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1)]
    jit = kernel.warmup(a, b, c, *ints, **META, num_warps=8, num_stages=3, grid=(1,))

    tensors = [f"fp16[{m * k}]" + ("@unaligned" if a.data_ptr() % 16 else ""), f"fp16[{n * k}]", f"fp16[{m * n}]"]
    args = ", ".join(tensors + [str(i) for i in ints])
    constexprs = [x for name, value in META.items() for x in ("--constexpr", f"{name}={value!r}")]
    result = CliRunner().invoke(cli, ["show", f"{MATMUL}:matmul_kernel", "--args", args, *constexprs,
                                      "--num-warps", "8", "--num-stages", "3", "--stage", "ttgir", "--json",
                                      "--store", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    manifest = json.loads((REPO / data["path"]).parent.joinpath("manifest.json").read_text())
    assert manifest["signature"] == dict(jit.src.signature)
    assert manifest["attrs"] == {k: v for k, v in _by_name(jit.src.signature, jit.src.attrs).items() if v}
    assert manifest["constexprs"] == _by_name(jit.src.signature, jit.src.constants)
    assert data["text"] == jit.asm["ttgir"]
    assert ("a_ptr" in manifest["attrs"]) is (offset == 0)
    assert manifest["constexprs"].get("stride_ak" if not transposed_b else "stride_bk") == 1


ACTIVATIONS = REPO / "tests" / "data" / "pkgs" / "demo_kernels" / "activations.py"


@pytest.mark.parametrize(("name", "n", "extra", "config"), [
    ("relu_kernel", 8192, {"BLOCK": 1024}, 0),   # @triton.heuristics: EVEN_N True
    ("relu_kernel", 8190, {"BLOCK": 1024}, 0),   # EVEN_N False, n not divisible
    ("gelu_kernel", 4096, {}, 1),                 # @triton.autotune: the second config
])
def test_decorated_kernels_match_their_jit_warmup(name, n, extra, config, tmp_path):
    import torch

    ensure_driver(resolve_target("sm90"))
    kernel = getattr(load_module(ACTIVATIONS), name)
    x, out = torch.empty(n), torch.empty(n)
    warm = kernel.warmup(x, out, n, **extra, grid=(1,))
    jit = warm[config] if isinstance(warm, list) else warm
    constexprs = [x for k, v in extra.items() for x in ("--constexpr", f"{k}={v}")]
    result = CliRunner().invoke(cli, ["show", f"{ACTIVATIONS}:{name}", "--args", f"fp32[{n}], fp32[{n}], {n}",
                                      *constexprs, "--config", str(config), "--stage", "ttgir", "--json",
                                      "--store", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    manifest = json.loads((REPO / data["path"]).parent.joinpath("manifest.json").read_text())
    assert manifest["signature"] == dict(jit.src.signature)
    assert manifest["constexprs"] == _by_name(jit.src.signature, jit.src.constants)
    assert manifest["options"]["num_warps"] == jit.metadata.num_warps
    assert data["text"] == jit.asm["ttgir"]


TYPED = REPO / "tests" / "data" / "pkgs" / "demo_kernels" / "typed.py"


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_dtype_heuristics_see_the_dtype_the_jit_sees(dtype, tmp_path):
    """``args["x_ptr"].dtype == torch.float16`` in a heuristic: the stand-in tensors carry torch's own dtype."""
    import torch

    ensure_driver(resolve_target("sm90"))
    kernel = load_module(TYPED).scale_kernel
    x, out = torch.empty(4096, dtype=getattr(torch, dtype)), torch.empty(4096, dtype=getattr(torch, dtype))
    jit = kernel.warmup(x, out, 4096, BLOCK=1024, grid=(1,))
    short = {"float16": "fp16", "float32": "fp32"}[dtype]
    result = CliRunner().invoke(cli, ["show", f"{TYPED}:scale_kernel", "--args", f"{short}[4096], {short}[4096], 4096",
                                      "--constexpr", "BLOCK=1024", "--stage", "ttgir", "--json",
                                      "--store", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    manifest = json.loads((REPO / data["path"]).parent.joinpath("manifest.json").read_text())
    expected = _by_name(jit.src.signature, jit.src.constants)
    assert expected["IS_FP16"] is (dtype == "float16") and expected["WIDE"] is (dtype == "float32")
    assert manifest["constexprs"] == expected
    assert data["text"] == jit.asm["ttgir"]


@pytest.mark.parametrize(("spelling", "dtype"), [("fp8e4nv", "float8_e4m3fn"), ("float8_e4m3fn", "float8_e4m3fn"),
                                               ("fp8e5", "float8_e5m2")])
def test_fp8_tensor_arguments_specialize_as_the_jit_does(spelling, dtype, tmp_path):
    """fp8 tensors (a KV cache, an fp8 GEMM's operands) in ``--args``: both Triton's and torch's names are
    accepted and give the pointer type the JIT gives a torch fp8 tensor (the argument parser once refused them)."""
    import torch

    ensure_driver(resolve_target("sm90"))
    kernel = load_module(TYPED).scale_kernel
    x, out = torch.empty(4096, dtype=getattr(torch, dtype)), torch.empty(4096, dtype=getattr(torch, dtype))
    jit = kernel.warmup(x, out, 4096, BLOCK=1024, grid=(1,))
    result = CliRunner().invoke(cli, ["show", f"{TYPED}:scale_kernel", "--args",
                                      f"{spelling}[4096], {spelling}[4096], 4096", "--constexpr", "BLOCK=1024",
                                      "--stage", "ttgir", "--json", "--store", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    manifest = json.loads((REPO / data["path"]).parent.joinpath("manifest.json").read_text())
    assert jit.src.signature["x_ptr"] == {"float8_e4m3fn": "*fp8e4nv", "float8_e5m2": "*fp8e5"}[dtype]
    assert data["text"] == jit.asm["ttgir"]
    assert manifest["constexprs"] == _by_name(jit.src.signature, jit.src.constants)


def test_value_for_a_heuristic_that_triton_overwrites_is_refused(tmp_path):
    """Triton's @triton.heuristics overwrites a launch keyword of its name (the warmup below compiles
    EVEN_N=True although False was passed); irscope used to compile the given False instead."""
    import torch

    ensure_driver(resolve_target("sm90"))
    kernel = load_module(ACTIVATIONS).relu_kernel
    x, out = torch.empty(8192), torch.empty(8192)
    jit = kernel.warmup(x, out, 8192, BLOCK=1024, EVEN_N=False, grid=(1,))
    assert _by_name(jit.src.signature, jit.src.constants)["EVEN_N"] is True
    result = CliRunner().invoke(cli, ["show", f"{ACTIVATIONS}:relu_kernel", "--args", "fp32[8192], fp32[8192], 8192",
                                      "--constexpr", "BLOCK=1024", "--constexpr", "EVEN_N=False",
                                      "--store", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "@triton.heuristics computes EVEN_N=True" in result.output and "Traceback" not in result.output
    same = CliRunner().invoke(cli, ["show", f"{ACTIVATIONS}:relu_kernel", "--args", "fp32[8192], fp32[8192], 8192",
                                    "--constexpr", "BLOCK=1024", "--constexpr", "EVEN_N=True", "--store",
                                    str(tmp_path)])
    assert same.exit_code == 0, same.output


@pytest.mark.parametrize(("spelling", "dtype"), [("tl.bfloat16", "bfloat16"), ("triton.language.float16", "float16"),
                                               ("tl.float8e4nv", "float8e4nv"), ("float32", "float32"),
                                               ("bf16", "bfloat16")])
def test_dtype_constexprs_specialize_as_the_jit_does(spelling, dtype, tmp_path):
    """A dtype constexpr (a MoE kernel's ``compute_type=tl.bfloat16``): --constexpr once refused every dtype."""
    import torch
    import triton.language as tl

    ensure_driver(resolve_target("sm90"))
    kernel = load_module(TYPED).cast_kernel
    x, out = torch.empty(4096), torch.empty(4096)
    jit = kernel.warmup(x, out, 4096, BLOCK=1024, compute_type=getattr(tl, dtype), grid=(1,))
    result = CliRunner().invoke(cli, ["show", f"{TYPED}:cast_kernel", "--args", "fp32[4096], fp32[4096], 4096",
                                      "--constexpr", "BLOCK=1024", "--constexpr", f"compute_type={spelling}",
                                      "--stage", "ttgir", "--json", "--store", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    manifest = json.loads((REPO / data["path"]).parent.joinpath("manifest.json").read_text())
    assert data["text"] == jit.asm["ttgir"]
    expected = _by_name(jit.src.signature, jit.src.constants)
    assert manifest["constexprs"] == {k: v if isinstance(v, (int, str)) else repr(v) for k, v in expected.items()}
    assert manifest["replay"]["constants"][-1][1] == {"dtype": getattr(tl, dtype).name}


def test_a_dtype_constexpr_triton_lacks_is_one_line(tmp_path):
    result = CliRunner().invoke(cli, ["show", f"{TYPED}:cast_kernel", "--args", "fp32[4096], fp32[4096], 4096",
                                      "--constexpr", "compute_type=tl.bfloat61", "--store", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "'tl.bfloat61' is not a Triton dtype; valid: tl.bf16" in result.output and "Traceback" not in result.output
