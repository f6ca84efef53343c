"""Gluon kernels first class: layout constexprs captured from programs and FILE:FUNCTION, the Gluon IR stage,
which layouts the author wrote, and what each convert_layout costs (Triton 3.9's ``triton.experimental.gluon``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from irscope.store.store import Store
from tests.conftest import DATA, invoke, repo_path
from tests.test_repro import run_script, same_ir

PROGRAM = DATA / "programs" / "gluon_transpose.py"
READ = "gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])"
WRITE = "gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])"
TRANSPOSE = [f"{PROGRAM}:transpose_kernel", "--args", "fp16[512,256], fp16[256,512], 512, 256",
             "--constexpr", "BLOCK_M=64", "--constexpr", "BLOCK_N=64",
             "--constexpr", f"read_layout={READ}", "--constexpr", f"write_layout={WRITE}"]
BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
BLOCKED_T = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"


def _capture_program(store: Path, target: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": repo_path(), "IRSCOPE_HOME": str(store)}
    return subprocess.run([sys.executable, "-m", "irscope", "capture", "--target", target, "--", sys.executable,
                           str(PROGRAM)], capture_output=True, text=True, env=env, timeout=600)


def _layouts(kernel: str, store: Path, *more: str) -> dict:
    result = invoke("layouts", kernel, *more, "--json", store=store)
    assert result.exit_code == 0, result.output
    (module,) = json.loads(result.stdout)["modules"]
    return module


@pytest.mark.compile
@pytest.mark.parametrize("target", ["sm90", "sm100"])
def test_a_program_launching_gluon_kernels_with_layout_constexprs_is_captured_and_explained_offline(tmp_path, target):
    proc = _capture_program(tmp_path, target)
    assert proc.returncode == 0, proc.stderr
    assert "NOT captured" not in proc.stderr and "not JSON serializable" not in proc.stderr, proc.stderr
    captures = {c.manifest.kernel: c for c in Store(tmp_path).captures()}
    assert sorted(captures) == ["double_rows_kernel", "staged_copy_kernel", "transpose_kernel"]
    transpose = captures["transpose_kernel"]
    assert transpose.manifest.target == target
    # The layouts the program passed, as their constructors, and recorded so a replay rebuilds the same objects.
    assert transpose.manifest.constexprs["read_layout"].startswith("BlockedLayout(size_per_thread=[1, 4]")
    constants = {tuple(path): value for path, value in transpose.manifest.replay["constants"]}
    assert constants[(7,)]["layout"]["fields"]["warps_per_cta"] == [1, 4]
    # Gluon IR, before any pass: the author's two layouts and the one gl.convert_layout between them.
    glir = invoke("show", "transpose_kernel", "--stage", "glir", store=tmp_path)
    assert glir.exit_code == 0, glir.output
    assert f"#blocked = {BLOCKED}" in glir.output and f"#blocked1 = {BLOCKED_T}" in glir.output
    assert glir.output.count("ttg.convert_layout") == 1 and f'"cuda:{target[2:]}"' in glir.output
    assert "ttir" not in transpose.manifest.files  # a Gluon kernel's first IR is the glir
    # layouts: both layouts are the author's; the conversion is theirs, crosses warps, and the PTX shows how.
    report = _layouts("transpose_kernel", tmp_path)
    assert report["provenance"]["stage"] == "glir"
    assert {"#blocked", "#blocked1"} <= set(report["provenance"]["written"]) and not report["provenance"]["chosen"]
    (conv,) = report["conversions"]
    assert (conv["source"], conv["dest"], conv["authored"]) == ("#blocked", "#blocked1", True)
    assert conv["cost"]["mechanism"] == "shared memory" and conv["cost"]["moved_bytes"] == 64 * 64 * 2
    machine = conv["cost"]["machine"]
    assert machine["shared_stores"] > 0 and machine["shared_loads"] > 0 and machine["barriers"] > 0
    # gl.CoalescedLayout(): the compiler chose that layout, and the author's conversion now starts from it.
    rows = _layouts("double_rows_kernel", tmp_path)
    chosen = rows["provenance"]["chosen"]
    assert len(chosen) == 1 and next(x for x in rows["layouts"] if x["label"] == chosen[0])["kind"] == "blocked"
    (conv,) = rows["conversions"]
    assert conv["source"] == chosen[0] and conv["authored"] is True
    assert conv["cost"]["mechanism"] == "shared memory" and conv["cost"]["machine"]["shared_stores"] > 0
    # A shared-memory layout constexpr: recorded, and the buffer laid out as it says.
    staged = captures["staged_copy_kernel"]
    constants = {tuple(path): value for path, value in staged.manifest.replay["constants"]}
    assert constants[(5,)]["layout"]["class"] == "NVMMASharedLayout"
    assert "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>" \
        in staged.read("ttgir")
    assert "#shared" in _layouts("staged_copy_kernel", tmp_path)["provenance"]["written"]
    text = invoke("layouts", "transpose_kernel", store=tmp_path).output
    assert "layouts the author wrote (in the Gluon IR before any pass): #blocked, #blocked1" in text
    assert "written by the author: a gl.convert_layout at this source line" in text


@pytest.mark.compile
def test_passes_and_repro_of_a_recorded_gluon_kernel_run_gluons_pipeline_not_the_triton_one(tmp_path):
    assert _capture_program(tmp_path, "sm90").returncode == 0
    capture = next(c for c in Store(tmp_path).captures() if c.manifest.kernel == "transpose_kernel")
    script = tmp_path / "repro.py"
    assert invoke("repro", "transpose_kernel", "-o", script, store=tmp_path).exit_code == 0
    out = run_script(script, "--stage", "ttgir")  # Triton alone rebuilds the layouts and compiles it as Gluon
    assert out.returncode == 0, out.stderr[-3000:]
    assert same_ir(out.stdout, capture.read("ttgir"))
    result = invoke("passes", "transpose_kernel", "--json", store=tmp_path)
    assert result.exit_code == 0, result.output
    names = [row["name"].split("{")[0] for row in json.loads(result.stdout)["passes"]]
    assert "gluon-resolve-auto-encodings" in names and "gluon-infer-coalesced-encodings" in names
    # Compiled as a Triton kernel it would be coalesced and its layouts rewritten: a Gluon kernel's are not.
    assert "tritongpu-coalesce" not in names and "convert-triton-to-tritongpu" not in names


@pytest.mark.compile
@pytest.mark.parametrize("target", ["sm90", "sm100"])
def test_file_function_takes_gluon_layouts_as_constructor_text(tmp_path, target):
    shown = invoke("show", *TRANSPOSE, "--target", target, "--stage", "ttgir", store=tmp_path)
    assert shown.exit_code == 0, shown.output
    assert f"#blocked = {BLOCKED}" in shown.output and f"#blocked1 = {BLOCKED_T}" in shown.output
    assert "ttg.convert_layout %" in shown.output and "tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>" \
        in shown.output
    glir = invoke("show", *TRANSPOSE, "--target", target, "--stage", "glir", store=tmp_path)
    assert glir.exit_code == 0 and f"#blocked1 = {BLOCKED_T}" in glir.output
    ttir = invoke("show", *TRANSPOSE, "--target", target, "--stage", "ttir", store=tmp_path)
    assert ttir.exit_code != 0 and "a Gluon kernel's first IR is its glir (--stage glir)" in ttir.output
    report = _layouts(TRANSPOSE[0], tmp_path, *TRANSPOSE[1:], "--target", target)
    assert report["provenance"]["written"][:2] == ["#blocked", "#blocked1"]
    assert [c["cost"]["mechanism"] for c in report["conversions"]] == ["shared memory"]


@pytest.mark.compile
def test_a_conversion_inside_each_warp_is_costed_as_shuffles_as_its_ptx_shows(tmp_path):
    """One warp: the compiler's coalesced layout holds 2 neighbours per lane, the given one every 32nd element."""
    result = invoke("layouts", f"{PROGRAM}:double_rows_kernel", "--args", "fp32[64,64], fp32[64,64], 64",
                    "--constexpr", "BLOCK=64", "--constexpr", "layout=gl.BlockedLayout([1], [32], [1], [0])",
                    "--num-warps", "1", "--target", "sm90", "--json", store=tmp_path)
    assert result.exit_code == 0, result.output
    (conv,) = json.loads(result.stdout)["modules"][0]["conversions"]
    assert conv["cost"]["mechanism"] == "shuffles" and conv["cost"]["moved_bytes"] == 0
    assert conv["cost"]["machine"]["shuffles"] > 0 and conv["cost"]["machine"]["shared_stores"] == 0


@pytest.mark.compile
def test_the_triton_matmuls_conversion_is_one_the_compiler_inserted(captures, tmp_path):
    capture = captures("matmul", "sm90")
    result = invoke("layouts", "matmul", "--target", "sm90", "--json", store=capture.path.parent.parent)
    assert result.exit_code == 0, result.output
    module = json.loads(result.stdout)["modules"][0]
    assert module["provenance"]["stage"] == "ttir" and module["provenance"]["written"] == []
    (conv,) = module["conversions"]
    assert conv["authored"] is False and conv["cost"]["mechanism"] == "shared memory"
    glir = invoke("show", "matmul", "--target", "sm90", "--stage", "glir", store=capture.path.parent.parent)
    assert glir.exit_code != 0 and "only a Gluon kernel (@gluon.jit) has a glir" in glir.output


@pytest.mark.parametrize(("text", "needle"), [
    ("os.system('touch MARKER')", "system is not a Gluon layout"),
    ("gl.BlockedLayout([1, 4], [32, 1], [4, 1], [1, 0]", "is not Python constructor text"),
    ("gl.BlockedLayout(open('MARKER', 'w'), [32], [4], [0])", "open is not a Gluon layout"),
    ("gl.BlockedLayout(size, [32], [4], [0])", "size is not a literal"),
    ("gl.BlockedLayout(*[1], [32], [4], [0])", "*args and **kwargs are not literal arguments"),
    ("__import__('os').BlockedLayout([1], [32], [4], [0])", "BlockedLayout is not a Gluon layout"),
])
def test_layout_text_that_is_not_a_literal_constructor_is_refused_in_one_line(text, needle, tmp_path):
    marker = str(tmp_path / "ran")
    result = invoke("show", *TRANSPOSE[:-2], "--constexpr", f"write_layout={text.replace('MARKER', marker)}",
                    "--target", "sm90", store=tmp_path)
    assert result.exit_code == 2, result.output
    (line,) = result.output.strip().splitlines()
    assert needle.replace("MARKER", marker) in line, line
    assert "e.g. gl.BlockedLayout([1, 4], [32, 1], [4, 1], [1, 0]); layouts: AutoLayout, " in line
    assert not Path(marker).exists()  # read, never run


def test_a_layout_gluon_refuses_is_named_with_its_fields(tmp_path):
    result = invoke("show", *TRANSPOSE[:-2], "--constexpr",
                    "write_layout=gl.BlockedLayout([4, 1], [32], [1, 4], [0, 1])",
                    "--target", "sm90", store=tmp_path)
    assert result.exit_code == 2, result.output
    line = result.output.strip().splitlines()[-1]  # after the "compiling ..." progress line
    assert "Traceback" not in result.output and "--constexpr write_layout" in line
    assert "BlockedLayout(size_per_thread, threads_per_warp, warps_per_cta, order, cga_layout) refused it" in line


def test_layout_constexprs_are_recorded_so_a_replay_rebuilds_the_same_objects():
    """What the listener records on a GPU (no --target) and what replays and what-ifs decode."""
    import triton.experimental.gluon.language as gl
    from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryLayout

    from irscope.compile.function import recorded_constexprs
    from irscope.compile.program_hook import encode_constant

    layouts = [gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0]),
               gl.SliceLayout(1, gl.BlockedLayout([4, 1], [8, 4], [1, 4], [0, 1])),
               gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2),
               gl.DotOperandLayout(0, gl.NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16]), 2),
               TensorMemoryLayout((128, 64), col_stride=1)]
    replay = {"constants": [[[i], encode_constant(layout)] for i, layout in enumerate(layouts)]}
    replay = json.loads(json.dumps(replay))  # as the record is stored
    rebuilt = recorded_constexprs(replay)
    assert [rebuilt[(i,)] for i in range(len(layouts))] == layouts
    assert [type(rebuilt[(i,)]) for i in range(len(layouts))] == [type(x) for x in layouts]
    assert rebuilt[(4,)].block == (128, 64)  # a tuple stays a tuple


@pytest.mark.compile
def test_tritons_teardown_report_goes_to_the_stores_log_not_the_terminal(tmp_path):
    """Issue 28 item 17: compiling transpose_kernel in the process leaves Triton's nanobind leak report
    (about 50 lines, printed while the interpreter frees its modules) after irscope's last line."""
    env = {**os.environ, "PYTHONPATH": repo_path(), "IRSCOPE_HOME": str(tmp_path)}
    shown = subprocess.run([sys.executable, "-m", "irscope", "show", *TRANSPOSE, "--target", "sm90", "--stage",
                            "ttgir"],
                           env=env, capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0, shown.stderr
    assert "nanobind" not in shown.stderr and "leaked" not in shown.stderr, shown.stderr[-2000:]
    assert shown.stderr.strip().splitlines() == ["irscope: compiling transpose_kernel for sm90 (config 0, Triton "
                                                 f"{_triton_version()})..."]
    log = (tmp_path / "teardown.log").read_text()
    assert log.startswith("--- pid ") and " show " in log.splitlines()[0]
    assert "nanobind: leaked" in log  # Triton 3.9's report, kept where a reader can find it


def _triton_version() -> str:
    import triton

    return triton.__version__


@pytest.mark.compile
def test_list_tells_a_program_capture_from_a_file_function_one_by_where_each_came_from(tmp_path):
    """`irscope list transpose_kernel` with a program's capture and a FILE:FUNCTION one labelled the group by the
    first one's origin and gave the FILE:FUNCTION row an empty origin (`made ...; from ; divisible by 16: ...`)."""
    assert _capture_program(tmp_path, "sm90").returncode == 0
    shown = invoke("show", *TRANSPOSE, "--stage", "glir", store=tmp_path)
    assert shown.exit_code == 0, shown.output
    listing = invoke("list", "transpose_kernel", store=tmp_path)
    assert listing.exit_code == 0, listing.output
    lines = listing.output.splitlines()
    assert lines[0] == "transpose_kernel  (2 captures, 1 from FILE:FUNCTION, 1 from a program run)"
    told = [line.strip() for line in lines if line.strip().startswith("made ")]
    assert len(told) == 2 and not any("from ;" in t for t in told)
    assert any(f"; from {PROGRAM}:transpose_kernel (FILE:FUNCTION); divisible by 16: in_ptr, out_ptr, M, N" in t
               for t in told), told
    assert any(f"; from {sys.executable} {PROGRAM} (a program run); divisible by 16" in t for t in told), told


@pytest.mark.compile
def test_a_compile_mlir_rejects_says_what_mlir_said(tmp_path):
    """Triton's exception for an IR the MLIR verifier rejects is a bare "error encountered during parsing"; MLIR
    printed the reason (here: the author's layouts are for 4 warps, the what-if asks 8), which irscope kept in a log
    nobody saw (Triton's Gluon tutorial 05's kernels under the corpus's compare)."""
    result = invoke("show", *TRANSPOSE, "--target", "sm90", "--set", "num_warps=8", "--stage", "ttgir", store=tmp_path)
    assert result.exit_code != 0
    line = result.output.strip().splitlines()[-1]
    assert "error encountered during parsing; MLIR: Result has an invalid layout: " in line, line
    assert "warpsPerCTA = [4, 1]" in line and "Traceback" not in result.output
