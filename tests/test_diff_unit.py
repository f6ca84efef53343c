"""IR diffs without compiling: normalisation, hunks, rendering, and timing reports."""

from __future__ import annotations

import difflib
import random

from rich.console import Console

from irscope.analysis.diff import DiffOptions, diff_texts, inline_aliases, normalize
from irscope.analysis.timing import summarize_timing
from irscope.parse.timing import parse_report_row, parse_timing
from irscope.tui.diff_rows import DiffRows, hunk_header
from irscope.views.diff import render_side_by_side, render_unified


def plain(text: object) -> str:
    console = Console(width=200, no_color=True, highlight=False)
    with console.capture() as cap:
        console.print(text, end="")
    return cap.get()


def test_locations_are_stripped_unless_kept() -> None:
    text = ('#loc1 = loc("k.py":3:4)\n'
            '%0 = tt.load %arg0 : !tt.ptr<f32> loc(#loc1)\n'
            '%1 = arith.addf %0, %0 : f32 loc(callsite(callsite(#loc2 at #loc3) at fused["a(b)":1:2, #loc4]))\n'
            'tt.func @k(%arg0: i32 loc("k.py":1:1), %arg1: f32 loc(#loc5)) {\n')
    assert normalize(text) == ["%0 = tt.load %arg0 : !tt.ptr<f32>", "%1 = arith.addf %0, %0 : f32",
                               "tt.func @k(%arg0: i32, %arg1: f32) {"]
    assert normalize(text, options=DiffOptions(keep_locs=True))[0] == '#loc1 = loc("k.py":3:4)'
    llvm = "  store i32 %5, ptr %6, align 4, !dbg !37\n!37 = !DILocation(line: 3, column: 4, scope: !4)\n"
    assert normalize(llvm, "llvm") == ["  store i32 %5, ptr %6, align 4"]


def test_ssa_renumbering_does_not_flood() -> None:
    a = "%x_12 = arith.addi %a_3, %c1_i32_0 : i32\n%13 = arith.muli %x_12, %x_12 : i32\n^bb3:"
    b = "%x_13 = arith.addi %a_4, %c1_i32_1 : i32\n%14 = arith.muli %x_13, %x_13 : i32\n^bb4:"
    assert diff_texts(a, b, "a", "b").changed
    same = diff_texts(a, b, "a", "b", options=DiffOptions(normalize_ssa=True))
    assert not same.changed and not same.identical_raw
    assert "identical after normalisation" in plain(render_unified(same))


def test_ignoring_renumbering_keeps_names_readable_and_values_distinct() -> None:
    """A diff without SSA numbers shows its lines as printed (not ``%c_ptrs = arith.muli %c_ptrs, %c_ptrs``), and
    a line that uses one value where another used two is a change, not renumbering."""
    a = "%x_12 = arith.addi %a_3, %c1_i32_0 : i32\n%y = arith.muli %x_12, %x_12 : i32\n"
    b = "%x_13 = arith.addi %a_4, %c1_i32_1 : i32\n%y = arith.muli %x_13, %x_14 : i32\n"
    diff = diff_texts(a, b, "a", "b", options=DiffOptions(normalize_ssa=True))
    assert (diff.added, diff.removed) == (1, 1)
    lines = [line for hunk in diff.hunks for line in hunk.lines]
    assert [(line.tag, line.text) for line in lines] == [
        (" ", "%x_13 = arith.addi %a_4, %c1_i32_1 : i32"),  # as the right side prints it
        ("-", "%y = arith.muli %x_12, %x_12 : i32"),
        ("+", "%y = arith.muli %x_13, %x_14 : i32"),
    ]
    swapped = diff_texts("op %p_1, %p_2, %p_1\n", "op %p_7, %p_5, %p_7\n", "a", "b",
                         options=DiffOptions(normalize_ssa=True))
    assert not swapped.changed  # one value for another, consistently: renumbering
    blocks = diff_texts("cf.br ^bb1, ^bb2\n", "cf.br ^bb3, ^bb3\n", "a", "b", options=DiffOptions(normalize_ssa=True))
    assert blocks.changed


def test_aliases_inline_for_dumps_printed_without_them() -> None:
    text = "#mma = #ttg.nvidia_mma<{versionMajor = 3}>\n#d = #ttg.dot_op<{opIdx = 0, parent = #mma}>\n" \
           "%0 = x : tensor<4xf16, #d>, tensor<4xf32, #mma1>"
    assert inline_aliases(text).strip() == ("%0 = x : tensor<4xf16, #ttg.dot_op<{opIdx = 0, parent = "
                                            "#ttg.nvidia_mma<{versionMajor = 3}>}>>, tensor<4xf32, #mma1>")


def rebuild(hunks: tuple, a: list[str], b: list[str]) -> tuple[list[str], list[str]]:
    """Apply a diff's hunks to a to get b back (and check the context against both sides)."""
    out, pos = [], 0
    for h in hunks:
        out.extend(a[pos:h.old_start - 1])
        pos = h.old_start - 1
        for line in h.lines:
            if line.tag != "+":
                assert a[pos] == line.text
                pos += 1
            if line.tag != "-":
                out.append(line.text)
    out.extend(a[pos:])
    return out, b


def test_hunks_rebuild_the_right_side_and_match_unified_diff_headers() -> None:
    rng = random.Random(7)
    for _ in range(200):
        a = [f"op{rng.randrange(12)}" for _ in range(rng.randrange(0, 40))]
        b = list(a)
        for _ in range(rng.randrange(0, 6)):
            i = rng.randrange(len(b) + 1)
            if rng.random() < 0.5 and i < len(b):
                del b[i]
            else:
                b.insert(i, f"new{rng.randrange(5)}")
        d = diff_texts("\n".join(a), "\n".join(b), "a", "b", options=DiffOptions(context=2))
        got, want = rebuild(d.hunks, normalize("\n".join(a)), normalize("\n".join(b)))
        assert got == want
        assert d.added - d.removed == len(want) - len(normalize("\n".join(a)))
    a, b = [f"l{i}" for i in range(40)], [f"l{i}" for i in range(40)]
    b[5], b[30:31] = "l5x", ["L30", "new"]
    d = diff_texts("\n".join(a), "\n".join(b), "a", "b")
    ours = [f"@@ -{h.old_start},{h.old_len} +{h.new_start},{h.new_len} @@" for h in d.hunks]
    assert ours == [ln for ln in difflib.unified_diff(a, b, lineterm="") if ln.startswith("@@")]


def test_side_by_side_pairs_removals_with_additions() -> None:
    d = diff_texts("a\nb\nc\nd", "a\nB\nc\nd\ne", "left", "right")
    lines = plain(render_side_by_side(d, width=80)).splitlines()
    assert lines[0].split() == ["left", "│", "right"]
    assert any("b" in ln.split("┃")[0] and "B" in ln.split("┃")[1] for ln in lines)
    assert any(ln.split("┃")[0].strip() == "" and "e" in ln.split("┃")[1] for ln in lines if "┃" in ln)
    assert lines[-1] == "+2 -1 lines (locations stripped)"


def test_tui_diff_rows_built_on_demand_match_the_hunks() -> None:
    """The TUI's lazy rows: unified rows are each hunk's header and lines; side by side pairs them in order."""
    rng = random.Random(11)
    for _ in range(300):
        a = [f"op{rng.randrange(9)}" + "x" * rng.randrange(4) for _ in range(rng.randrange(0, 50))]
        b = list(a)
        for _ in range(rng.randrange(0, 8)):
            i = rng.randrange(len(b) + 1)
            if rng.random() < 0.4 and i < len(b):
                del b[i]
            elif rng.random() < 0.5 and i < len(b):
                b[i] = f"changed{rng.randrange(5)}"
            else:
                b.insert(i, f"new{rng.randrange(5)}" + "y" * rng.randrange(6))
        d = diff_texts("\n".join(a), "\n".join(b), "a", "b", options=DiffOptions(context=rng.randrange(4)))
        unified = DiffRows(d, side_by_side=False)
        want = [(h.old_start, h.old_len, h.new_start, h.new_len) for h in d.hunks]
        expected: list[object] = []
        for h, (os_, ol, ns, nl) in zip(d.hunks, want, strict=True):
            expected += [hunk_header(os_, ol, ns, nl), *h.lines]
        got = [row.text if row.kind == "hunk" else row.left for row in unified]
        assert got == expected
        assert [unified.tag(i) for i in range(len(unified))] == [row.tag for row in unified]
        assert unified.width() == max((len(r.text) if r.kind == "hunk" else 1 + len(r.left.text)  # type: ignore[union-attr]
                                       for r in unified), default=0)
        starts = [i for i in range(len(unified)) if unified.tag(i) in "+-" and unified.tag(i)
                  and (i == 0 or unified.tag(i - 1) not in ("+", "-"))]
        assert unified.changes == starts
        sbs = DiffRows(d, side_by_side=True)
        lines = [r for r in sbs if r.kind == "line"]
        assert [r.left for r in lines if r.left is not None] == [x for x in got if not isinstance(x, str)
                                                                 and x.tag != "+"]
        assert [r.right for r in lines if r.right is not None] == [x for x in got if not isinstance(x, str)
                                                                    and x.tag != "-"]
        assert all((r.left is None or r.left.tag in " -") and (r.right is None or r.right.tag in " +") for r in lines)
        assert all((r.left is r.right) == (r.tag == " ") for r in lines)
        assert sbs.width() == max((len(r.text) if r.kind == "hunk" else
                                   len(f"{r.left.text if r.left else ''} | {r.right.text if r.right else ''}")
                                   for r in sbs), default=0)


REPORT = """
// -----// irscope compile-begin run=0
// -----// irscope stage-begin ttir t=0.050000
===-------------------------------------------------------------------------===
                         ... Execution time report ...
===-------------------------------------------------------------------------===
  Total Execution Time: 0.0100 seconds

  ----Wall Time----  ----Name----
    0.0060 ( 60.0%)  InlinerPass
    0.0020 ( 20.0%)  'tt.func' Pipeline
    0.0020 ( 20.0%)    CanonicalizerPass
    0.0000 (  0.0%)    (A) DominanceInfo
   -0.0005 ( -5.0%)  Rest
    0.0100 (100.0%)  Total

// -----// irscope stage-end ttir seconds=0.010000 t=0.060000
// -----// irscope stage-begin ttgir t=0.060000
// -----// irscope stage-end ttgir seconds=0.100000 t=0.160000
// -----// irscope stage-begin llir t=0.160000
// -----// irscope translate-begin llir t=0.460000
===-------------------------------------------------------------------------===
                         ... Execution time report ...
===-------------------------------------------------------------------------===
  ----User Time----  ----Wall Time----  ----Name----
    0.3000 ( 90.0%)    0.2900 ( 90.0%)  ConvertTritonGPUToLLVM
    0.3000 (100.0%)    0.3000 (100.0%)  Total
// -----// irscope stage-end llir seconds=0.500000 t=0.660000
// -----// irscope stage-begin ptx t=0.660000
// -----// irscope stage-end ptx seconds=0.100000 t=0.760000
// -----// irscope stage-begin cubin t=0.760000
// -----// irscope stage-end cubin seconds=0.200000 t=0.960000
// -----// irscope compile-end run=0 seconds=1.000000
// -----// irscope dump-end
"""


def test_timing_report_rows_and_phases() -> None:
    row = parse_report_row("    0.0020 ( 20.0%)    CanonicalizerPass", "ttir")
    assert row is not None and (row.name, row.seconds, row.depth, row.kind) == ("CanonicalizerPass", 0.002, 1, "pass")
    assert parse_report_row("  Total Execution Time: 0.0100 seconds", "ttir") is None
    runs, problems = parse_timing(REPORT)
    assert not problems
    (run,) = runs
    assert [s.stage for s in run.stages] == ["ttir", "ttgir", "llir", "ptx", "cubin"]
    assert [(p.name, p.stage) for p in run.passes if p.kind == "pass"] == [
        ("InlinerPass", "ttir"), ("CanonicalizerPass", "ttir"), ("ConvertTritonGPUToLLVM", "llir")]
    timing = summarize_timing(runs)
    phases = {p.name: round(p.seconds, 6) for p in timing.phases}
    # MLIR = ttir 0.01 + ttgir 0.1 + llir up to the hand-over to LLVM (0.46 - 0.16).
    assert phases == {"frontend": 0.05, "mlir": 0.41, "llvm": 0.2, "codegen": 0.1, "assembler": 0.2, "other": 0.04}
    assert round(timing.mlir_vs_assembler, 4) == round(0.41 / 0.61, 4) and timing.assembler == "ptxas"
    # Without a pass dump no row has a number (the numbers are the dump's), and the class stands as the name.
    assert timing.passes[0].name == "InlinerPass" and timing.passes[0].number is None
    assert timing.passes[2].seconds == 0.29
    truncated, cut = parse_timing(REPORT[:REPORT.index("stage-begin ptx")])
    assert not truncated and len(cut) == 1 and "stopped early" in str(cut[0])
