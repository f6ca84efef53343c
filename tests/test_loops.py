"""Loop reports on real captures (the matmul K-loop on sm80, sm90, gfx942) and on hand-written TTGIR."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from irscope.analysis.loops import analyze_loops, capture_loops
from irscope.cli import cli
from irscope.request.captures import LaunchSpec, get_capture, make_request
from irscope.views.loops_text import render_loops
from tests.conftest import DATA, repo_path

pytestmark = pytest.mark.compile

LOOPS_DEMO = str(DATA / "kernels" / "loops_demo.py")


@pytest.mark.parametrize(("target", "mma", "ptx_mma", "sass_mma"), [
    ("sm90", "wgmma (NVIDIA mma v3", "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", "HGMMA.64x256x16.F32"),
    ("sm80", "mma.sync (NVIDIA mma v2", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "HMMA.16816.F32"),
])
def test_matmul_k_loop_is_pipelined_with_the_configured_stages(captures, target, mma, ptx_mma, sass_mma):
    cap = captures("matmul", target)
    stages = cap.manifest.options["num_stages"]
    loops, missing = capture_loops(cap)
    assert missing == () and len(loops) == 1
    loop = loops[0]
    assert loop.source.startswith("for k in range(")
    assert loop.requested_stages == stages and loop.requested_from == "the kernel's num_stages option"
    assert loop.pipelined and loop.achieved_stages == stages
    assert {s.kind for s in loop.loads} == {"async"} and len(loop.loads) == 2  # A and B
    assert all(s.before_loop == stages - 1 and s.bytes_per_thread == 16 for s in loop.loads)
    assert loop.mma.startswith(mma) and loop.reasons == ()
    waits = {w.op: w.pending for w in loop.waits}
    assert waits["ttg.async_wait"] == stages - 1
    ptx, sass = loop.evidence
    assert ptx.stage == "ptx" and ptx.label.startswith("$L__BB")
    assert ptx_mma in ptx.opcodes["mma"] and "cp.async.cg.shared.global" in ptx.opcodes["async_copy"]
    assert ptx.before_loop["async_copy"] == (stages - 1) * ptx.in_loop["async_copy"]
    assert any(w.op.startswith("cp.async.wait_group") and w.pending == stages - 1 for w in ptx.waits)
    assert sass.stage == "sass" and sass_mma in sass.opcodes["mma"]
    assert any(op.startswith("LDGSTS") for op in sass.opcodes["async_copy"]) and sass.widest_access == 16
    assert any(w.op.startswith("DEPBAR.LE SB0") and w.pending == stages - 1 for w in sass.waits)
    if target == "sm90":
        assert waits["ttng.warp_group_dot_wait"] == 1
        assert loop.operands.startswith("A and B are read by the tensor cores straight from shared memory")
        assert loop.buffers == (f"{stages}x128x64xf16", f"{stages}x64x256xf16")
    else:
        assert loop.operands.startswith("through shared memory: local_load")
        assert any(op.startswith("ldmatrix") for op in ptx.opcodes["shared_load"])


def test_the_buffer_depth_is_explained_from_the_ttgir(captures):
    """Issue 28 item 13: sm80 said "3 stages" next to 2-deep buffers with no word why. Triton gives each async
    load one buffer per iteration it is issued ahead; on sm80 the tile goes to registers (local_load) before the
    next copies are issued, on sm90 wgmma reads the buffer itself, so Triton adds one."""
    for target, depth, why in (("sm80", 2, "each iteration reads its tile into registers (ttg.local_load, TTGIR "),
                               ("sm90", 3, "plus one: wgmma (ttng.warp_group_dot, TTGIR line ")):
        cap = captures("matmul", target)
        (loop,), _ = capture_loops(cap)
        assert {b.split("x", 1)[0] for b in loop.buffers} == {str(depth)}
        assert loop.buffering.startswith(f"{depth} deep for 3 stages: one buffer per iteration a copy is issued "
                                         "ahead (2)") and why in loop.buffering, loop.buffering
        ttgir = cap.read("ttgir").splitlines()
        cited = [int(n) for n in re.findall(r"line[s]? (\d+)(?:-(\d+))?", loop.buffering)[0] if n]
        if target == "sm80":
            first, last = cited
            copy = int(re.search(r"next copies \(line (\d+)\)", loop.buffering)[1])
            assert "ttg.local_load" in ttgir[first - 1] and "ttg.local_load" in ttgir[last - 1] and last < copy
            assert "ttg.async_copy_global_to_local" in ttgir[copy - 1]
        else:
            assert "ttng.warp_group_dot " in ttgir[cited[0] - 1]
        report = CliRunner().invoke(cli, ["loops", "matmul", "--target", target, "--store", str(captures.store)]).output
        assert f"    {loop.buffering}\n" in report


def test_ptxas_unrolling_is_named(shared_store):
    """Issue 28 item 13: the layernorm's first loop issues one 16-byte load per PTX iteration and four per SASS
    iteration: ptxas unrolled it four times, which the report now says; its third loop is not unrolled."""
    lib = DATA / "kernels" / "libstyle.py"
    spec = importlib.util.spec_from_file_location("libstyle", lib)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    args, constexprs = module.LAUNCHES["layer_norm_fwd"]  # the launch test_verify uses
    capture = get_capture(make_request(f"{lib}:layer_norm_fwd", "sm90",
                                       launch=LaunchSpec(args=args, constexprs=constexprs)), str(shared_store))
    loops, missing = capture_loops(capture)
    assert missing == () and len(loops) == 3
    ptx, sass = loops[0].evidence
    assert ptx.in_loop["global_load"] == 1 and sass.in_loop["global_load"] == 4 and sass.unrolled == 4
    assert ptx.widest_access == sass.widest_access == 16
    assert loops[2].evidence[1].unrolled == 1 and loops[2].evidence[1].in_loop["global_load"] == 3
    text = render_loops(loops, "layer_norm_fwd")
    assert text.count("ptxas unrolled the loop 4 times: one SASS iteration does the work of 4 PTX iterations") == 2
    assert "(4x the PTX loop's global load instructions)" in text and "tensor-core" not in text  # no dot in it
    # map --line on a load of that loop says why SASS has four times the PTX's instructions; the third loop's does not
    first, third = loops[0].loads[0].line, loops[2].loads[0].line
    shown = CliRunner().invoke(cli, ["map", capture.manifest.key, "--line", str(first), "--store", str(shared_store)])
    assert shown.exit_code == 0, shown.output
    sass = shown.output.split("\nsass:", 1)[1]
    assert f"note: line {first} is in the loop at line {loops[0].line}, which ptxas unrolled 4 times" in sass
    assert "unrolled" not in shown.output.split("\nsass:", 1)[0]
    other = CliRunner().invoke(cli, ["map", capture.manifest.key, "--line", str(third), "--store", str(shared_store)])
    assert other.exit_code == 0 and "unrolled" not in other.output


def test_llvm_unrolling_is_named_from_its_remainder_blocks(captures):
    """Issue 28 item 13: on gfx942 LLVM unrolled the matmul's K-loop twice; the iteration left over runs in
    the blocks it named ``%.epil...``. Checked against the AMDGCN text: the loop's MFMA and buffer loads are
    twice those of the remainder blocks, and the TTGIR's one dot per iteration needs half the loop's MFMAs."""
    cap = captures("matmul", "gfx942")
    (loop,), _ = capture_loops(cap)
    (amd,) = loop.evidence
    assert amd.llvm_unrolled == 2
    text = cap.read("amdgcn").splitlines()
    starts = [n for n, line in enumerate(text) if re.match(r"^(\.LBB\d+_\d+:|; %bb\.\d+:)", line)]
    epil = next(n for n in starts if "%.epil" in text[n])
    remainder = text[epil:min(n for n in starts if n > epil and ".epil" not in text[n])]
    for opcode, kind in (("v_mfma", "mma"), ("buffer_load", "global_load")):
        in_remainder = sum(opcode in line for line in remainder)
        assert in_remainder and amd.in_loop[kind] == 2 * in_remainder
    report = render_loops([loop], "matmul_kernel")
    assert "LLVM unrolled the loop 2 times: one amdgcn iteration runs 2 iterations of the TTGIR loop" in report
    # sm90's PTX keeps the loop as Triton made it: no remainder blocks, nothing claimed
    (sm90,), _ = capture_loops(captures("matmul", "sm90"))
    assert all(e.llvm_unrolled == 1 for e in sm90.evidence)


def test_gfx942_k_loop_stages_through_registers_into_lds(captures):
    cap = captures("matmul", "gfx942")
    (loop,), missing = capture_loops(cap)
    assert missing == ()
    assert loop.achieved_stages == cap.manifest.options["num_stages"] == 2
    assert {s.kind for s in loop.loads} == {"register"} and all(s.feeds_shared for s in loop.loads)
    assert loop.mma.startswith("mfma (AMD MFMA v3")
    (amd,) = loop.evidence
    assert amd.stage == "amdgcn" and any(op.startswith("v_mfma_f32_32x32x8") for op in amd.opcodes["mma"])
    assert "buffer_load_dwordx4" in amd.opcodes["global_load"]


def test_a_narrow_load_stays_in_its_iteration_and_the_report_says_why(captures):
    cap = captures(LOOPS_DEMO, "sm90")
    (first, second, outer, inner), _ = capture_loops(cap)
    assert first.requested_stages == 3 and first.requested_from.startswith("tl.range")
    a_load, b_load = first.loads
    assert (a_load.kind, a_load.stages, a_load.bytes_per_thread) == ("register", 1, 2)
    assert (b_load.kind, b_load.stages) == ("async", 3)
    assert first.achieved_stages == 3  # B is pipelined; A is not
    (reason,) = first.reasons
    assert f"line {a_load.line} moves 2 bytes per thread" in reason and "stride_am" in reason
    assert "stride_bk" not in reason and "a_ptr" not in reason  # those carry tt.divisibility
    assert any(op == "ld.global.b16" for op in first.evidence[0].opcodes["global_load"])
    assert not second.pipelined and second.reasons == ("the loop has no global loads to issue ahead",)
    assert [e.label for e in second.evidence] == ["", ""]  # range(2) was unrolled
    # The nested pair: the outer loop has no loads of its own; the inner one loads 2 bytes a thread.
    assert (outer.depth, inner.depth) == (0, 1) and inner.ttgir_lines[0] > outer.ttgir_lines[0]
    assert outer.reasons == ("its loads are in the loops nested in it; Triton pipelines innermost loops",)
    (load,) = inner.loads
    assert (load.kind, load.stages, load.bytes_per_thread) == ("register", 1, 2) and not load.feeds_shared
    outer_ptx, inner_ptx = outer.evidence[0], inner.evidence[0]
    assert outer_ptx.label and inner_ptx.label and outer_ptx.label != inner_ptx.label
    assert inner_ptx.opcodes["global_load"] == ("ld.global.b16",)


TTGIR = """#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = \
[1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#loc = loc("/k.py":1:1)
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("a_ptr"(#loc)), %stride: i32 \
loc("stride"(#loc)), %n: i32 {tt.divisibility = 16 : i32} loc("n"(#loc))) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32 loc(#loc1)
    %c1 = arith.constant 1 : i32 loc(#loc1)
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma> loc(#loc1)
    %off = tt.splat %stride : i32 -> tensor<64x64xi32, #blocked> loc(#loc2)
    %base = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked> loc(#loc2)
    %ptrs = tt.addptr %base, %off : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked> loc(#loc2)
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %p = %ptrs) -> (tensor<64x64xf32, #mma>, \
tensor<64x64x!tt.ptr<f16>, #blocked>)  : i32 {
      %x = tt.load %p : tensor<64x64x!tt.ptr<f16>, #blocked> loc(#loc3)
      %y = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = \
#mma, kWidth = 2}>> loc(#loc3)
      %z = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = \
#mma, kWidth = 2}>> loc(#loc3)
      %d = tt.dot %y, %z, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * \
tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma> loc(#loc4)
      scf.yield %d, %p : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked> loc(#loc5)
    }ATTRS loc(#loc5)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc1 = loc(unknown)
#loc2 = loc("/k.py":3:5)
#loc3 = loc("/k.py":5:13)
#loc4 = loc("/k.py":6:15)
#loc5 = loc("/k.py":4:5)
"""


def test_unpipelined_loop_names_the_undivisible_argument():
    (loop,) = analyze_loops(TTGIR.replace("ATTRS", ""), "/k.py", default_stages=3)
    assert (loop.line, loop.depth, loop.requested_stages) == (4, 0, 3)
    assert not loop.pipelined and loop.achieved_stages == 1
    (load,) = loop.loads
    assert (load.line, load.kind, load.bytes_per_thread, load.depends_on) == (5, "register", 2, ("%a_ptr", "%stride"))
    assert not load.feeds_shared
    (reason,) = loop.reasons
    assert "2 bytes per thread" in reason and "depends on stride," in reason and "a_ptr" not in reason
    assert loop.mma == "mma.sync (NVIDIA mma v2, instruction tile 16x8)" and loop.mma_ops == 1
    assert loop.operands == "in registers (no shared-memory staging in the loop)"
    assert loop.evidence == () and loop.buffers == () and loop.waits == ()


def test_a_loop_asking_for_one_stage_says_so():
    (loop,) = analyze_loops(TTGIR.replace("ATTRS", " {tt.num_stages = 1 : i32}"), "/k.py", default_stages=3)
    assert loop.requested_stages == 1 and loop.requested_from.startswith("tl.range")
    assert loop.reasons == ("num_stages is 1 for this loop: pipelining was not asked for",)


def test_loops_cli_text_and_json(captures):
    store = ["--store", str(captures.store)]
    result = CliRunner().invoke(cli, ["loops", "matmul", "--target", "sm90", *store], catch_exceptions=False)
    assert result.exit_code == 0
    out = result.output
    assert out.startswith("matmul_kernel on sm90, config 0 (num_warps 8, num_stages 3): 1 loop")
    for needle in ("pipelined: 3 stages; asked 3", "2 issued before the loop, 1 per iteration: 3 stages",
                   "ttg.async_wait 2", "wgmma (NVIDIA mma v3", "4 x wgmma.mma_async.sync.aligned.m64n256k16",
                   "4 x HGMMA.64x256x16.F32", "12 x LDGSTS.E.BYPASS.128", "DEPBAR.LE SB0, 0x2"):
        assert needle in out, needle
    data = json.loads(CliRunner().invoke(cli, ["loops", LOOPS_DEMO, "--json", *store]).stdout)
    assert [loop["pipelined"] for loop in data["loops"]] == [True, False, False, False]
    assert data["loops"][0]["reasons"] and data["missing"] == []


def test_warm_reports_import_neither_triton_nor_torch(captures):
    """map, annotate, loops, resources, graph, layouts and verify read the store (and run the bundled tools) only."""
    captures("matmul", "sm90")
    code = ("import sys\nfrom irscope.cli import cli\n"
            "for args in (['map', 'matmul', '-l', '60'], ['annotate', 'matmul'], ['loops', 'matmul'],\n"
            "             ['resources', 'matmul'], ['graph', 'matmul'], ['layouts', 'matmul'], ['verify', 'matmul']):\n"
            "    try:\n        cli(args + ['--target', 'sm90', '--store', sys.argv[1]], prog_name='irscope')\n"
            "    except SystemExit as e:\n        assert e.code in (0, None), (args, e.code)\n"
            "print('IMPORTED', 'triton' in sys.modules, 'torch' in sys.modules, file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(captures.store)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": repo_path()}, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "IMPORTED False False" in proc.stderr
    assert "digraph dataflow" in proc.stdout and "pipelined: 3 stages" in proc.stdout
    assert "0 disagree" in proc.stdout


@pytest.mark.parametrize("name", ["matmul.sm80.ttgir", "matmul.sm90.ttgir", "matmul.gfx942.ttgir"])
def test_old_dialect_spelling_gives_the_same_loops(name):
    """Modules printed before Triton 3.2 spell the dialects triton_gpu / triton_nvidia_gpu: same analysis."""
    from irscope.analysis.loops import analyze_loops

    text = (DATA / "layouts" / name).read_text()
    old = (text.replace("#ttg.", "#triton_gpu.").replace(" ttg.", " triton_gpu.").replace('"ttg.', '"triton_gpu.')
           .replace(" ttng.", " triton_nvidia_gpu."))
    assert "triton_gpu.async_copy_global_to_local" in old or "triton_gpu.local_load" in old
    new_loops, old_loops = analyze_loops(text, "matmul.py"), analyze_loops(old, "matmul.py")
    assert new_loops == old_loops
    assert new_loops[0].pipelined and new_loops[0].mma
    if "gfx" not in name:  # NVIDIA's pipeline fills multi-buffered shared memory with async copies
        assert new_loops[0].buffers
