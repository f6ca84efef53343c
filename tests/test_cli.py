"""The CLI as a user meets it: output, exit codes, one-line errors, no Triton on warm reads."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from irscope.cli import cli
from tests.conftest import DATA, REPO, invoke, repo_path

pytestmark = pytest.mark.compile


@pytest.fixture
def store_args(shared_store):
    return ["--store", str(shared_store)]


def test_show_prints_the_ttgir(store_args):
    result = invoke("show", "matmul", "--stage", "ttgir", "--target", "sm90", *store_args)
    assert result.exit_code == 0
    assert "ttng.warp_group_dot" in result.output
    assert "\x1b[" not in result.output  # piped: plain text


def test_show_every_stage_of_each_backend(store_args):
    for target, stages, marker in (
        ("sm80", ("source", "ttir", "ttgir", "llir", "ptx", "sass"), {"ptx": ".target sm_80", "sass": "HMMA"}),
        ("gfx942", ("source", "ttir", "ttgir", "llir", "amdgcn"), {"amdgcn": ".amdgcn_target", "llir": "amdgcn"}),
    ):
        for stage in stages:
            result = invoke("show", "matmul", "-s", stage, "-t", target, *store_args)
            assert result.exit_code == 0, (target, stage, result.output)
            assert marker.get(stage, "") in result.output


def test_show_json(store_args):
    result = invoke("show", "vector_add", "--stage", "ptx", "--target", "sm90", "--json", *store_args)
    data = json.loads(result.stdout)
    assert data["stage"] == "ptx" and data["target"] == "sm90"
    assert ".visible .entry add_kernel" in data["text"]
    assert os.path.isfile(data["path"])
    # The specialization the JIT would apply travels with the text (docs/tour.md says so).
    assert data["attrs"]["x_ptr"] == [["tt.divisibility", 16]] and data["signature"]["x_ptr"] == "*fp32"
    # ... and equals what the kernel module declares for config 0 (read independently of the capture).
    from irscope.model.kernels import bundled_kernels

    declared = bundled_kernels()["vector_add"].config("cuda", 0)
    assert data["constexprs"]["BLOCK_SIZE"] == declared["BLOCK_SIZE"] == data["config_values"]["BLOCK_SIZE"]
    assert data["options"]["num_warps"] == declared["num_warps"]


def test_show_color_is_forced_with_flag(store_args):
    result = invoke("show", "vector_add", "--stage", "ttgir", "-t", "sm90", "--color", "--no-pager", *store_args)
    assert "\x1b[38;5;" in result.output


@pytest.mark.parametrize(("args", "needle"), [
    (["show", "matmull"],
     "unknown kernel 'matmull' (did you mean 'matmul'?); valid: matmul, matmul_tma, softmax, vector_add"),
    (["show", "matmul", "--stage", "ptxx"], "unknown stage 'ptxx'"),
    (["show", "matmul", "--target", "sm70"], "unknown target 'sm70'"),
    (["show", "matmul", "--config", "42", "-t", "sm90"], "unknown config 42 for matmul on cuda; valid: 0..7"),
    (["show", "matmul", "--stage", "ptx", "--target", "gfx942"],
     "stage 'ptx' does not exist for hip targets; this target has: source, glir, ttir, ttgir, llir, amdgcn"),
    (["show", "matmul", "--stage", "amdgcn", "--target", "sm90"],
     "this target has: source, glir, ttir, ttgir, llir, ptx, sass"),
    (["show", "no/such/file.py"], "kernel file no/such/file.py does not exist"),
    (["run", "nope"], "unknown kernel 'nope'"),
])
def test_bad_input_is_one_line_and_exit_2(args, needle):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert needle in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_target_native_without_gpu_is_a_usage_error(monkeypatch):
    import irscope.model.targets as targets

    monkeypatch.setattr(targets, "native_target", lambda: None)
    result = CliRunner().invoke(cli, ["show", "matmul", "--target", "native"])
    assert result.exit_code == 2
    assert "no GPU found" in result.output and "sm90" in result.output


def test_compile_failure_names_the_kernel_line(tmp_path):
    result = CliRunner().invoke(cli, ["show", str(DATA / "kernels" / "type_error.py"), "--store", str(tmp_path)])
    assert result.exit_code == 1
    assert "type_error.py:20: Triton could not compile bad_kernel" in result.output
    assert "cannot add pointers together" in result.output
    first = next(ln for ln in result.output.splitlines() if ln.startswith("irscope: error:"))
    assert first.endswith("Triton could not compile bad_kernel (CompilationError): cannot add pointers together")
    assert "Traceback" not in result.output
    assert not list((tmp_path / "captures").glob("*")) if (tmp_path / "captures").exists() else True
    assert not list((tmp_path / "staging").iterdir())


def test_list_shows_kernels_configs_targets_and_stages(store_args):
    out = invoke("list", *store_args).output
    for needle in ("matmul", "softmax", "vector_add", "sm80", "sm90", "sm100", "gfx942", "gfx950", "amdgcn", "sass"):
        assert needle in out
    detail = invoke("list", "matmul").output
    assert "0: BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 num_stages=3 num_warps=8" in detail
    assert "waves_per_eu=2" in detail


# Imported only where they are used, never by a warm show: taking a lock, running a process, formatting a crash.
LAZY = ("filelock", "subprocess", "traceback")


def _run_module(args: list[str], env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = ("import sys, runpy\n"
            "sys.argv = ['irscope'] + sys.argv[1:]\n"
            "try:\n    runpy.run_module('irscope', run_name='__main__')\n"
            "except SystemExit as e:\n    code = e.code\nelse:\n    code = 0\n"
            "print('IMPORTED', 'triton' in sys.modules, 'torch' in sys.modules, file=sys.stderr)\n"
            f"print('LAZY', sorted(m for m in {LAZY!r} if m in sys.modules), file=sys.stderr)\n"
            "sys.exit(code)\n")
    env = {**os.environ, **env_extra, "PYTHONPATH": repo_path()}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=300)


def test_warm_show_imports_neither_triton_nor_torch(shared_store, captures):
    captures("matmul", "sm90")
    proc = _run_module(["show", "matmul", "--stage", "ttgir", "--target", "sm90", "--store", str(shared_store)], {})
    assert proc.returncode == 0, proc.stderr
    assert "warp_group_dot" in proc.stdout
    assert "IMPORTED False False" in proc.stderr
    assert "LAZY []" in proc.stderr
    listing = _run_module(["list", "--store", str(shared_store)], {})
    assert "IMPORTED False False" in listing.stderr


def test_a_missing_function_or_constexpr_is_refused_before_triton_is_imported(tmp_path):
    """`show FILE:nokernel` and a --signature short of a constexpr answered after 5-7 s of importing Triton; the
    file's source already says so."""
    kernel = f"{DATA / 'kernels' / 'off_by_one_add.py'}:nokernel"
    proc = _run_module(["show", kernel, "--args", "1", "--store", str(tmp_path)], {})
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        f"irscope: error: {DATA / 'kernels' / 'off_by_one_add.py'} has no 'nokernel'; its Triton kernels: "
        "add_kernel", "IMPORTED False False", "LAZY []"]
    # A --signature that misses a constexpr of a plainly @triton.jit function: also told from the source.
    short = _run_module(["show", f"{REPO / 'kernels' / 'matmul.py'}:matmul_kernel", "--signature",
                         "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, "
                         "i32:1, 128, 256, 64, 8", "--store", str(tmp_path)], {})
    assert short.returncode == 2
    assert short.stderr.splitlines() == [
        "irscope: error: --signature has 16 entries but matmul_kernel takes 17 arguments; missing ACTIVATION (give "
        "constexprs with --constexpr NAME=VALUE)", "IMPORTED False False", "LAZY []"]
    # A file that may bind names its text does not write is still asked by importing it.
    dynamic = tmp_path / "dynamic.py"
    dynamic.write_text("import triton\nglobals().update(made=1)\n")
    imported = _run_module(["show", f"{dynamic}:nokernel", "--args", "1", "--store", str(tmp_path)], {})
    assert imported.returncode == 2 and f"{dynamic} has no 'nokernel'; its Triton kernels: none" in imported.stderr
    assert "IMPORTED True" in imported.stderr


def test_launch_errors_told_by_the_def_line_come_before_triton(tmp_path):
    """A missing or unknown --constexpr (--args) and a Gluon kernel's short --signature answered after 3.5 s of
    importing Triton, behind an `irscope: compiling ...` line; the kernel's `def` line already says so."""
    add = f"{REPO / 'docs' / 'examples' / 'ops.py'}:add_kernel"
    args = ["--args", "x=fp32[4096], y=fp32[4096], out=fp32[4096], n=4096", "--store", str(tmp_path)]
    gluon = f"{DATA / 'programs' / 'gluon_transpose.py'}:transpose_kernel"
    read = "read_layout=gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])"
    cases = [
        (["show", add, *args], "add_kernel: missing constexpr 'BLOCK' (give it with --constexpr NAME=VALUE); "
         "arguments: x, y, out, n, BLOCK"),
        (["show", add, *args, "--constexpr", "BLOK=1024"], "--constexpr BLOK: add_kernel has no parameter 'BLOK'; "
         "constexpr parameters: BLOCK (launch options: num_warps, num_stages, num_ctas, maxnreg, ...)"),
        (["show", gluon, "--args", "fp16[512,256], fp16[256,512], 512, 256", "--constexpr", "BLOCK_M=64",
          "--constexpr", "BLOCK_N=64", "--constexpr", read, "--store", str(tmp_path)],
         "transpose_kernel: missing constexpr 'write_layout' (give it with --constexpr NAME=VALUE); "
         "arguments: in_ptr, out_ptr, M, N, BLOCK_M, BLOCK_N, read_layout, write_layout"),
        (["show", gluon, "--signature", "*fp16:16, *fp16:16, i32, i32, 64, 64", "--store", str(tmp_path)],
         "--signature has 6 entries but transpose_kernel takes 8 arguments; missing read_layout, write_layout "
         "(give constexprs with --constexpr NAME=VALUE)"),
    ]
    # Foreign code: Liger's GEGLU kernel; its file imports dozens of local modules, digested only once it can launch.
    liger = importlib.util.find_spec("liger_kernel")
    assert liger is not None and liger.submodule_search_locations, \
        "liger-kernel is not installed (pip install -e '.[dev]')"
    geglu = f"{Path(liger.submodule_search_locations[0]) / 'ops' / 'geglu.py'}:_geglu_tanh_forward_kernel"
    cases.append((["show", geglu, "--args", "a=fp32[8,4096], b=fp32[8,4096], c=fp32[8,4096], stride=4096",
                   "--constexpr", "BLOCK_SIZE=4096", "--store", str(tmp_path)],
                  "_geglu_tanh_forward_kernel: missing constexpr 'n_cols' (give it with --constexpr NAME=VALUE); "
                  "arguments: a, b, c, stride, n_cols, BLOCK_SIZE"))
    for argv, message in cases:
        proc = _run_module(argv, {})
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.splitlines() == [f"irscope: error: {message}", "IMPORTED False False", "LAZY []"]


def test_python_dash_m_and_help():
    proc = subprocess.run([sys.executable, "-m", "irscope", "--help"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": repo_path()}, timeout=60)
    assert proc.returncode == 0
    for command in ("list", "show", "run"):
        assert command in proc.stdout


def test_a_compile_error_without_a_source_excerpt_is_one_line() -> None:
    from irscope.compile.capture import compile_message

    try:
        try:
            raise ValueError("PassManager::run failed\n  in the TritonGPU pipeline")
        except ValueError as cause:
            raise RuntimeError("") from cause
    except RuntimeError as exc:
        text = compile_message(exc)
    assert text == ("Triton could not compile the kernel (RuntimeError): RuntimeError; ValueError: "
                    "PassManager::run failed; in the TritonGPU pipeline")


def test_an_unreadable_constexpr_value_names_the_option_and_what_is_valid(tmp_path):
    """`--constexpr BLOCK=abc` said `cannot read argument 'abc': expected a tensor like ...`, naming neither the
    option nor the constexpr; a tensor is still refused as one."""
    add = f"{REPO / 'docs' / 'examples' / 'ops.py'}:add_kernel"
    args = ["show", add, "--args", "x=fp32[4096], y=fp32[4096], out=fp32[4096], n=4096", "--store", str(tmp_path)]
    proc = _run_module([*args, "--constexpr", "BLOCK=abc"], {})
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == (
        "irscope: error: --constexpr BLOCK: cannot read 'abc' as a constexpr value; valid: a number (1024, 0.5), "
        "True/False, None, a quoted string ('relu'), a dtype (tl.bfloat16, tl.float8e4nv, fp16) or a Gluon layout "
        "(gl.BlockedLayout([1, 4], [32, 1], [4, 1], [1, 0]))")
    tensor = _run_module([*args, "--constexpr", "BLOCK=fp16[4]"], {})
    assert tensor.returncode == 2
    assert tensor.stderr.splitlines()[0] == ("irscope: error: --constexpr 'BLOCK=fp16[4]': "
                                             "a constexpr cannot be a tensor")


def test_list_aligns_its_capture_columns_and_names_glir_for_gluon_kernels_only(captures):
    """Issue 43 item 9: `list` columns drifted with long kernel names, and every target listed a glir stage."""
    captures("matmul", "sm90"), captures("vector_add", "sm90")
    out = invoke("list", "--store", str(captures.store)).output
    targets = [ln for ln in out.splitlines() if " stages: " in ln]
    assert targets and all("glir," not in ln and ln.endswith("(Gluon kernels: glir too)") for ln in targets)
    rows = out.split("Captures in ", 1)[1].splitlines()[1:]
    rows = [r for r in rows if r.startswith("  ") and not r.startswith("  cannot")]
    assert len({r.split()[0] for r in rows}) >= 2
    # the target column starts at one place on every row (whatever targets other tests stored), and so do the
    # Triton and compile-time columns
    targets_at = {r.index(f" {r.split()[1]} ", 2 + len(r.split()[0])) for r in rows}
    assert len(targets_at) == 1, rows
    for column in ("  Triton ", " s  "):
        assert len({r.index(column) for r in rows}) == 1, (column, rows)
