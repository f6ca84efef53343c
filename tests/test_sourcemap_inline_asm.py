"""Multi-line inline asm (a masked ``tl.load``) in PTX: LLVM gives each asm line its own ``.loc``, one
source line further down per line. Those positions belong to the load's line, not to the lines below it."""

from __future__ import annotations

import re

import pytest

from irscope.analysis.sourcemap import build_source_map, undo_asm_numbering
from irscope.parse.lineinfo import asm_line_numbers, parse_ptx
from tests.test_sourcemap import line_of

pytestmark = pytest.mark.compile
# Example: %19 = tail call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0;\0A\09...", "=r,..."(...) #2, !dbg !18
_ASM_CALL_RE = re.compile(r'asm sideeffect "(?P<asm>[^"]*)".*!dbg !(?P<id>\d+)\s*$')
# Example: !18 = !DILocation(line: 31, column: 9, scope: !6)
_DILOC_RE = re.compile(r"^!(?P<id>\d+) = !DILocation\(line: (?P<line>\d+),")


def _llir_load_lines(llir: str) -> set[int]:
    """The source lines LLVM IR gives its inline-asm global loads (one !dbg per asm call): the oracle."""
    locs = {m["id"]: int(m["line"]) for m in map(_DILOC_RE.match, llir.splitlines()) if m}
    return {locs[m["id"]] for m in map(_ASM_CALL_RE.search, llir.splitlines()) if m and "ld.global" in m["asm"]}


def test_ptx_loads_count_for_the_load_line(captures):
    cap = captures("vector_add", "sm90")
    ptx = cap.read("ptx")
    assert "mov.u32 %r2, 0x0;" in ptx  # the multi-line asm of a masked load is there
    loads = {line_of(cap, "x = tl.load("), line_of(cap, "y = tl.load(")}
    assert _llir_load_lines(cap.read("llir")) == loads
    listing = parse_ptx(ptx)
    ld_lines = {i.frames[0].line for i in listing.instructions if i.opcode.startswith("ld.global")}
    assert ld_lines == loads
    # The asm's zero-initialising movs stay with their load too; nothing lands past the last source line.
    source_lines = len(cap.read("source").splitlines())
    assert all(i.frames[0].line <= source_lines for i in listing.instructions if i.frames)
    store = line_of(cap, "tl.store(")
    smap = build_source_map(cap, ("ptx",))
    assert {m.opcode for m in smap.stage("ptx").for_line(store)} <= {"add.s64", "st.global.v4.b32"}


def test_sass_loads_count_for_the_load_line(captures):
    """Each SASS instruction on an asm-numbered line takes its position from the PTX line it came from
    (``nvdisasm -gp``), so the LDGs count for the two loads and none for the store or the lines below."""
    cap = captures("vector_add", "sm90")
    sass = build_source_map(cap, ("sass",)).stage("sass")
    assert sass.lines and sass.problems == ()
    loads = {line_of(cap, "x = tl.load("), line_of(cap, "y = tl.load(")}
    ldg = [m for m in sass.lines if m.opcode.startswith("LDG")]
    assert len(ldg) == 4 and {m.line for m in ldg} == loads
    assert {m.opcode.split(".")[0] for m in sass.for_line(line_of(cap, "tl.store("))} <= {"STG", "LDC", "IMAD", "EXIT"}


def test_sass_without_ptx_lines_moves_back_what_it_can_and_says_what_it_cannot(captures):
    cap = captures("vector_add", "sm90")
    ptx = cap.read("ptx")
    numbers = asm_line_numbers(ptx)
    loads = {line_of(cap, "x = tl.load("), line_of(cap, "y = tl.load(")}
    assert numbers.moved and numbers.shared and set(numbers.moved.values()) <= loads
    raw, why = sass_listing_without_fix(cap)
    assert raw is not None, why
    fixed = undo_asm_numbering(raw, ptx)  # no nvdisasm -gp: the fallback
    moved_lines = {line for _, line in numbers.moved}
    assert moved_lines & {i.frames[0].line for i in raw.instructions if i.frames}
    assert not moved_lines & {i.frames[0].line for i in fixed.instructions if i.frames}
    shared = sorted(line for _, line in numbers.shared)
    assert any("multi-line inline asm" in p and str(shared[0]) in p for p in fixed.problems)


def sass_listing_without_fix(cap):
    """The -gi listing exactly as nvdisasm gives it."""
    from irscope.parse.lineinfo import parse_sass_lines
    from irscope.toolchain.nvtools import sass_with_lines

    run = sass_with_lines(cap)
    return (parse_sass_lines(run.stdout), "") if run.ok else (None, run.problem)
