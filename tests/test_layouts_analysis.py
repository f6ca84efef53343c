"""Layout reports: explanations, uses, register cost and convert_layout ops of real and hand-written TTGIR."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from irscope.analysis.layouts.explain import (
    LayoutReport,
    analyze_layout_file,
    analyze_layouts,
    explain_layout,
    registers_per_thread,
)
from irscope.parse import layouts as L
from irscope.parse.ttgir_ops import SourceLoc

DATA = Path(__file__).parent / "data" / "layouts"
SNIPPETS = DATA / "snippets"


@pytest.fixture(scope="module")
def reports() -> dict[str, LayoutReport]:
    return {p.stem: analyze_layouts(p.read_text()) for p in DATA.glob("*.ttgir")}


def test_blocked_explanation_reads_like_an_engineer(reports: dict[str, LayoutReport]) -> None:
    info = reports["matmul.sm90"].get("#blocked1")
    assert info is not None
    assert info.explanation == (
        "#blocked1: each thread holds 1x8 contiguous fp16 (the layout allows one 16-byte load); a warp covers 4x64; "
        "8 warps stacked 8x1; order [1, 0] (row-major); for 128x64 each thread holds 32 fp16"
    )


def test_mma_explanations(reports: dict[str, LayoutReport]) -> None:
    hopper = reports["matmul.sm90"].get("mma")
    assert hopper is not None and hopper.explanation.startswith(
        "#mma: nvidia_mma v3 (Hopper wgmma), instrShape 16x256x16, 8 warps as 8x1 (2 warpgroups, each computing "
        "64x256 per wgmma)"
    )
    ampere = reports["matmul.sm80"].get("mma")
    assert ampere is not None
    assert "nvidia_mma v2 (Ampere mma.sync), instrShape 16x8, 8 warps as 2x4" in ampere.explanation
    cdna = reports["matmul.gfx942"].get("mma")
    assert cdna is not None and cdna.explanation.startswith(
        "#mma: amd_mfma v3 (CDNA3 gfx942 MFMA), instrShape 32x32x8, 8 warps (64-lane wavefronts) as 2x4; transposed"
    )


def test_shared_explanations_describe_the_swizzle_and_the_allocation(reports: dict[str, LayoutReport]) -> None:
    sm80 = reports["matmul.sm80"].get("shared")
    assert sm80 is not None and sm80.explanation == (
        "#shared: shared memory, order [1, 0] (row-major); vectors of 8 fp16 (16 bytes) are XOR-swizzled over "
        "8 phases, the phase advancing every row, so reading down a column touches different banks; allocated as "
        "2x128x64 fp16 = 32 KiB, 2x64x256 fp16 = 64 KiB"
    )
    sm90 = reports["matmul.sm90"].get("shared")
    assert sm90 is not None and "128-byte swizzle of 16-bit elements, rows contiguous" in sm90.explanation
    assert "3x128x64 fp16 = 48 KiB, 3x64x256 fp16 = 96 KiB" in sm90.explanation  # 144 KiB = 147456 bytes
    softmax = reports["softmax.sm80"].get("shared")
    assert softmax is not None and "not swizzled" in softmax.explanation


def test_inline_layouts_are_reported_after_the_aliases(reports: dict[str, LayoutReport]) -> None:
    labels = [info.label for info in reports["matmul.sm80"].layouts]
    assert labels[:4] == ["#blocked", "#blocked1", "#mma", "#shared"]
    assert "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>" in labels
    dot = reports["matmul.sm80"].get("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>")
    assert dot is not None and isinstance(dot.layout, L.DotOperandLayout)
    assert "kWidth 2: each thread holds runs of 2 consecutive fp16 along K (32 bits)" in dot.explanation
    assert {u.op for u in dot.uses} == {"ttg.local_load", "tt.dot", "scf.for", "scf.yield"}


def test_uses_carry_op_role_shape_and_source(reports: dict[str, LayoutReport]) -> None:
    info = reports["matmul.sm90"].get("mma")
    assert info is not None
    dots = [u for u in info.uses if u.op == "ttng.warp_group_dot"]
    assert dots and all(u.role == "result" and u.type.shape == (128, 256) and u.type.element == "f32" for u in dots)
    assert dots[0].loc is not None and dots[0].loc.file.endswith("gen_kernels.py") and dots[0].loc.line == 65
    load_ptrs = reports["matmul.sm90"].get("blocked1")
    assert load_ptrs is not None
    copies = [u for u in load_ptrs.uses if u.op == "ttg.async_copy_global_to_local"]
    assert copies and all(u.role == "operand" and u.type.element == "!tt.ptr<f16>" for u in copies)
    assert load_ptrs.shapes[0] == (128, 64)


def test_registers_per_thread(reports: dict[str, LayoutReport]) -> None:
    mma = reports["matmul.sm90"].get("mma")
    assert mma is not None
    acc = next(r for r in mma.registers if r.element == "f32")
    assert (acc.elements_per_thread, acc.registers, acc.replication) == (128, 128, 1)  # 128*256 / 256 threads
    half = next(r for r in mma.registers if r.element == "f16")
    assert half.registers == 64  # two fp16 per 32-bit register
    dot = reports["matmul.sm80"].get("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>")
    assert dot is not None
    (a,) = dot.registers
    assert (a.shape, a.elements_per_thread, a.replication, a.registers) == ((128, 16), 32, 4, 16)
    for report in reports.values():
        threads = (report.module.num_warps or 0) * (report.module.threads_per_warp or 0)
        for info in report.layouts:
            for reg in info.registers:  # every slot holds one element: threads * per-thread = elements * copies
                assert reg.elements_per_thread * threads == math.prod(reg.shape) * reg.replication
                assert reg.registers == math.ceil(reg.elements_per_thread * reg.element_bits / 32)


def test_pointer_and_mask_register_costs() -> None:
    blocked = L.BlockedLayout(size_per_thread=(4,), threads_per_warp=(32,), warps_per_cta=(4,), order=(0,))
    ptrs = registers_per_thread(blocked, [1024], "!tt.ptr<f32>")
    mask = registers_per_thread(blocked, [1024], "i1")
    assert (ptrs.elements_per_thread, ptrs.registers) == (8, 16)
    assert mask.registers == 1
    # a 512-element tile on 64 elements: both warp bits and the top lane bit are cut, so 8 threads share each
    small = registers_per_thread(blocked, [64], "f32")
    assert (small.elements_per_thread, small.unique_per_thread, small.replication) == (4, 4, 8)


def test_conversions_with_source_lines(reports: dict[str, LayoutReport]) -> None:
    for name in ("matmul.sm80", "matmul.sm90"):
        (conv,) = reports[name].conversions
        assert (conv.source, conv.dest, conv.shape, conv.element) == ("#mma", "#blocked", (128, 256), "f16")
        assert conv.loc is not None and conv.loc.line == 73
        assert "ttg.convert_layout" in (DATA / f"{name}.ttgir").read_text().splitlines()[conv.line - 1]
    assert reports["matmul.gfx942"].conversions == []


def test_module_info_and_no_problems(reports: dict[str, LayoutReport]) -> None:
    assert reports["matmul.gfx942"].module.threads_per_warp == 64
    assert all(not r.problems for r in reports.values())


def test_all_kinds_snippet_report() -> None:
    report = analyze_layouts((SNIPPETS / "all_kinds.ttgir").read_text())
    assert report.problems == []
    text = {info.label: info.explanation for info in report.layouts}
    assert text["#padded"] == (
        "#padded: shared memory with padding (4 after every 32 elements) to avoid bank conflicts, order [1, 0]"
    )
    assert text["#tmem"] == "#tmem: Blackwell tensor memory: 128x128 blocks, column stride 1 (packed)"
    assert text["#future"] == ("#future: ttg.future_layout: not modelled by irscope "
                               "(layout kind not modelled by irscope)")
    assert text["#fma"].startswith("#fma: dot operand A (opIdx 0) of #blocked (blocked): an FMA dot")
    assert text["#wmma"].startswith("#wmma: amd_wmma v3 (gfx1250 WMMA), instrShape 16x16x32, 4 warps placed by bases")
    assert text["#rotating"].endswith("the pattern also rotates every 16 rows")
    convs = [(c.source, c.dest, c.loc) for c in report.conversions]
    assert convs == [
        ("#blocked", "#dotA", SourceLoc("kernel.py", 11, 4)),
        ("#mma2", "#blocked", SourceLoc("kernel.py", 14, 15)),
        ("#row", "#ttg.slice<{dim = 0, parent = #blocked}>", SourceLoc("kernel.py", 16, 8)),
    ]
    reduce_uses = [u for u in report.layouts[0].uses if u.op == "tt.reduce"]
    assert [(u.role, u.line) for u in reduce_uses] == [("operand", 37)]


def test_problems_surface_in_the_report() -> None:
    report = analyze_layouts((SNIPPETS / "malformed.ttgir").read_text())
    assert "#undefined is used but not defined" in report.problems
    assert report.get("#missing") is not None
    ok = report.get("ok")
    assert ok is not None and ok.registers[0].elements_per_thread == 1


def test_impossible_parameters_become_problems_not_crashes() -> None:
    text = (
        "#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [3, 1], order = [1, 0]}>\n"
        "#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>\n"
        "module {\n  tt.func @f(%a: tensor<16x16xf32, #b>, %x: tensor<16xf32, #c>) { tt.return }\n}\n"
    )
    report = analyze_layouts(text)
    # #b breaks Triton's verifier (warpsPerCTA of 3), so it is refused where it is parsed; #c is valid
    # but its rank does not fit the tensor that uses it, which only the analysis sees.
    assert [p.split(":")[0] for p in report.problems] == ["#b", "#c with shape 16"]
    assert report.problems[0] == "#b: invalid ttg.blocked: warpsPerCTA = [3, 1]: every element must be a power of two"
    b = report.get("b")
    assert b is not None and b.registers == [] and "for 16x16" not in b.explanation
    assert "invalid: warpsPerCTA" in b.explanation


def test_multi_module_file_reports_file_line_numbers() -> None:
    first, second = analyze_layout_file((SNIPPETS / "lit_multi_module.mlir").read_text())
    (conv,) = first.conversions
    assert (conv.source, conv.dest, conv.line) == ("#blocked", "#blocked1", 10)
    assert second.module.num_warps == 8
    assert [u.line for info in second.layouts for u in info.uses] == [21, 21]


def test_layout_library_imports_no_heavy_dependency() -> None:
    code = (
        "import sys\n"
        "import irscope.analysis.layouts.explain, irscope.analysis.layouts.views, irscope.parse.ttgir_ops\n"
        "import irscope.views.layout_map, irscope.views.layout_text, irscope.views.layout_report\n"
        "print(sorted(m for m in ('triton', 'torch', 'click', 'textual') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_explain_layout_without_context() -> None:
    blocked = L.BlockedLayout(size_per_thread=(4, 8), threads_per_warp=(2, 16), warps_per_cta=(2, 2), order=(0, 1))
    assert explain_layout(blocked) == (
        "each thread holds 4x8 elements, 4 contiguous along dim 0; a warp covers 8x128; 4 warps as 2x2; "
        "order [0, 1] (column-major)"
    )
    linear = L.DistributedLinearLayout(register=((0, 1),), lane=((1, 0), (0, 0)), warp=((2, 0),))
    assert explain_layout(linear, [4, 2], "f32") == (
        "linear layout given by explicit bases: registers span 1x2, lanes span 2x1 (+1 broadcast bit), warps span "
        "2x1; for 4x2 each thread holds 2 fp32, every element held by 2 threads"
    )
