"""Source lines mapped through every stage of real captures (sm90, sm80, gfx942), and the CLI on top."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from irscope.analysis.sourcemap import build_source_map
from irscope.cli import cli
from irscope.store.store import Capture
from tests.conftest import DATA, invoke

pytestmark = pytest.mark.compile

LOOPS_DEMO = str(DATA / "kernels" / "loops_demo.py")


def line_of(capture: Capture, needle: str) -> int:
    """The 1-based line of the kernel source that contains ``needle`` (first match)."""
    lines = capture.read("source").splitlines()
    return next(i for i, text in enumerate(lines, start=1) if needle in text)


def test_tl_dot_line_becomes_wgmma_in_ttgir_ptx_and_sass(captures):
    cap = captures("matmul", "sm90")
    dot = line_of(cap, "tl.dot(")
    smap = build_source_map(cap)
    assert [s.stage for s in smap.stages] == ["ttir", "ttgir", "llir", "ptx", "sass"]
    ops = {m.opcode for m in smap.stage("ttir").for_line(dot)}
    assert ops == {"tt.dot"}
    ttgir = {m.opcode for m in smap.stage("ttgir").for_line(dot)}
    assert "ttng.warp_group_dot" in ttgir and "tt.dot" not in ttgir
    ptx = [m.opcode for m in smap.stage("ptx").for_line(dot)]
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16") >= 1
    sass = smap.stage("sass")
    assert sass.problems == ()
    assert any(m.opcode.startswith("HGMMA.64x256x16") for m in sass.for_line(dot))
    assert all(m.address >= 0 for m in sass.lines)
    # No HGMMA is attributed to a line outside the K-loop's body.
    loop = line_of(cap, "for k in range")
    hgmma_lines = {m.line for m in sass.lines if m.opcode.startswith("HGMMA")}
    assert hgmma_lines and all(loop < n <= loop + 5 for n in hgmma_lines)


def test_library_calls_count_for_the_kernel_line_that_made_them(captures):
    cap = captures("matmul", "sm90")
    cdiv = line_of(cap, "num_pid_m = tl.cdiv(")
    smap = build_source_map(cap, ("ttgir", "ptx", "sass"))
    ttgir = smap.stage("ttgir").for_line(cdiv)
    assert {m.opcode for m in ttgir} == {"arith.addi", "arith.divsi"}
    assert all(m.inlined_from.startswith("standard.py:") for m in ttgir)
    assert any(m.inlined_from for m in smap.stage("ptx").for_line(cdiv))
    assert any(m.inlined_from.startswith("standard.py:") for m in smap.stage("sass").for_line(cdiv))
    # Every count lands on a line of the kernel's own file.
    source_lines = len(smap.source)
    for stage in smap.stages:
        assert all(1 <= n <= source_lines for n in stage.counts())


def test_sm80_and_gfx942_map_the_dot_to_their_matrix_instructions(captures):
    sm80 = build_source_map(captures("matmul", "sm80"), ("ttgir", "ptx", "sass"))
    dot = line_of(captures("matmul", "sm80"), "tl.dot(")
    assert any(m.opcode == "tt.dot" for m in sm80.stage("ttgir").for_line(dot))
    assert any(m.opcode.startswith("mma.sync.aligned.m16n8k16") for m in sm80.stage("ptx").for_line(dot))
    assert any(m.opcode.startswith("HMMA.16816") for m in sm80.stage("sass").for_line(dot))
    amd = build_source_map(captures("matmul", "gfx942"))
    assert [s.stage for s in amd.stages] == ["ttir", "ttgir", "llir", "amdgcn"]
    assert any(m.opcode.startswith("v_mfma_f32_32x32x8") for m in amd.stage("amdgcn").for_line(dot))
    assert amd.stage("amdgcn").mapped > 0.7 * len(amd.stage("amdgcn").lines)


def test_a_jit_helper_counts_for_its_own_line_and_is_listed_under_the_call(captures):
    cap = captures(LOOPS_DEMO, "sm90")
    body = line_of(cap, "return x * 0.5")
    call = line_of(cap, "acc = halve(acc)")
    smap = build_source_map(cap, ("ttgir", "ptx"))
    ttgir = smap.stage("ttgir")
    assert [m.opcode for m in ttgir.for_line(body)] == ["arith.mulf"]
    via_call = ttgir.for_line(call)
    assert [m.opcode for m in via_call] == ["arith.mulf"] and via_call[0].line == body and call in via_call[0].via
    assert ttgir.counts()[body] == 1 and call not in ttgir.counts()
    assert any(m.opcode == "mul.f32" for m in smap.stage("ptx").for_line(body))


def test_map_cli_shows_every_stage_of_the_dot_line(captures):
    cap = captures("matmul", "sm90")
    dot = line_of(cap, "tl.dot(")
    result = invoke("map", "matmul", "--line", str(dot), "--target", "sm90", "--store", str(captures.store))
    assert result.exit_code == 0
    out = result.output
    assert out.startswith(f"matmul.py:{dot}: accumulator = tl.dot(a, b, accumulator)")
    for needle in ("ttgir: 3 ops", "ttng.warp_group_dot", "wgmma.mma_async.sync.aligned", "HGMMA.64x256x16.F32",
                   "/*"):
        assert needle in out, needle
    data = json.loads(invoke("map", "matmul", "-l", str(dot), "-s", "ttgir,sass", "--json",
                             "--store", str(captures.store)).stdout)
    assert [s["stage"] for s in data["stages"]] == ["ttgir", "sass"]
    assert any(line["opcode"].startswith("HGMMA") for line in data["stages"][1]["lines"])


def test_map_counts_every_hgmma_of_the_loop_for_the_dot_line(captures):
    """Issue 43 item 1: map listed `HGMMA.64x256x16.F32 x2` for the dot line of a loop with 4. ptxas's line
    table gives an HGMMA the row of the instruction scheduled before it (here a load's line 77); each now
    takes the position of the PTX wgmma.mma_async it came from."""
    import irscope

    cap = captures("matmul", "sm90")
    dot = line_of(cap, "tl.dot(")
    in_sass = [word for line in irscope.read_stage(cap, "sass").splitlines()  # Triton's .sass: control<TAB>insn
               for word in line.split()[1:2] if "GMMA." in word]
    assert len(in_sass) == 4 and set(in_sass) == {"HGMMA.64x256x16.F32"}
    out = invoke("map", "matmul", "--line", str(dot), "--target", "sm90", "--store", str(captures.store)).output
    kinds = _section(out, "sass")[1]
    assert f"HGMMA.64x256x16.F32 x{len(in_sass)}" in kinds, kinds
    sass = build_source_map(cap, ("sass",)).stage("sass")
    assert [m.line for m in sass.lines if "GMMA." in m.opcode] == [dot] * len(in_sass)


def _section(out: str, stage: str) -> list[str]:
    """The lines of one stage's section of `irscope map` output."""
    lines = out.split(f"\n{stage}: ", 1)[1].split("\n\n", 1)[0].splitlines()
    return lines


def test_map_lists_tensor_core_memory_and_waits_first_and_leaves_out_never_executed_sass(captures):
    """Issue 28 item 7: the footer said tensor-core, memory and wait instructions come first, but address
    arithmetic did; and four `@!PT LDS RZ, [RZ]` (which never execute) were counted as `LDS x4`."""
    cap = captures("matmul", "sm90")
    dot = line_of(cap, "tl.dot(")
    out = invoke("map", "matmul", "--line", str(dot), "--target", "sm90", "--store", str(captures.store)).output
    for stage, first in (("ptx", "wgmma.mma_async"), ("sass", "HGMMA.64x256x16")):
        lines = _section(out, stage)
        listed = [line for line in lines if line.startswith("  ")
                  and not line.startswith(("  kinds:", "  note:", "  ..."))]
        assert first in listed[0], (stage, listed[:3])
        assert lines[-1].endswith("tensor-core, memory, wait, fence and barrier instructions are shown first, "
                                  "then the rest)"), lines[-1]
        ranks = [0 if first in line else 1 for line in listed]
        assert ranks == sorted(ranks), (stage, listed)  # every tensor-core instruction before the rest
        # the fences that order the tensor cores' work come before the address arithmetic (ptx's shr, sass's U*)
        fence = next(i for i, line in enumerate(listed) if ("wgmma.fence" in line or "WARPGROUP.ARRIVE" in line))
        arithmetic = next(i for i, line in enumerate(listed) if line.split()[1].startswith(("shr.", "U")))
        assert fence < arithmetic, (stage, listed)
    sass = _section(out, "sass")
    assert "LDS" not in sass[1] and sass[1].startswith("  kinds: ")
    assert not any("@!PT" in line for line in sass if line.startswith("  /*"))
    assert re.fullmatch(r"  note: \d+ more instructions? \(LDS x\d+\) predicated on @!PT never execute \(ptxas "
                        r"padding\); not counted or listed", sass[2]), sass[2]
    smap = build_source_map(cap, ("sass",)).stage("sass")
    assert smap.never_executed and all(m.text.startswith("@!PT ") for m in smap.never_executed)
    assert not any(m.text.startswith("@!PT") for m in smap.lines)
    total = int(sass[0].split(" instructions (of ")[1].split(",")[0])
    assert total == len(smap.lines)


def test_annotate_cli_puts_the_heavy_lines_first_in_the_bars(captures):
    cap = captures("matmul", "sm90")
    result = invoke("annotate", "matmul", "--store", str(captures.store), "--full")
    assert result.exit_code == 0
    rows = {int(line.split()[0]): line for line in result.output.splitlines()[1:] if line.split()[:1] != []
            and line.split()[0].isdigit()}
    loop, dot = line_of(cap, "for k in range"), line_of(cap, "tl.dot(")
    assert "tl.dot(a, b, accumulator)" in rows[dot]
    header = result.output.splitlines()[0].split()
    assert header[:6] == ["line", "ttir", "ttgir", "llir", "ptx", "sass"]
    bars = {n: row.split("|")[0].count("#") for n, row in rows.items()}
    assert bars[loop] == max(bars.values())  # the K-loop line carries the most SASS
    data = json.loads(invoke("annotate", "matmul", "--json", "-s", "ptx", "--store", str(captures.store)).stdout)
    assert int(data["stages"][0]["counts"][str(dot)]) >= 4


@pytest.mark.parametrize(("args", "needle"), [
    (("map", "matmul", "--line", "9999"), "line 9999 is not in matmul.py"),
    (("map", "matmul", "--line", "77", "--stage", "source"), "has no source positions"),
    (("map", "matmul", "--line", "77", "--stage", "amdgcn"), "does not exist for cuda targets"),
    (("annotate", "matmul", "--stage", "bogus"), "unknown stage 'bogus'"),
])
def test_bad_map_input_is_one_line_and_exit_2(captures, args, needle):
    result = CliRunner().invoke(cli, [*args, "--store", str(captures.store)])
    assert result.exit_code == 2, result.output
    assert needle in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
