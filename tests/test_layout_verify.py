"""Layouts in the form Triton prints, with hostile values: parsing never raises, what Triton's verifier
would reject becomes a problem line, and whatever is accepted maps within the bound or is refused."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from irscope.analysis.layouts.to_linear import UnsupportedLayout, to_linear_layout
from irscope.analysis.layouts.views import MAX_SLOTS, layout_grid
from irscope.parse.layout_verify import LayoutContext, layout_rank
from irscope.parse.layouts import DistributedLinearLayout, OpaqueLayout, layout_context, parse_layouts
from irscope.views.layout_map import render_layout_map

# The real sm80 matmul TTGIR (8 warps, 32 threads per warp, 1 CTA): #blocked1 is used by 47 ops.
REAL = (Path(__file__).parent / "data" / "layouts" / "matmul.sm80.ttgir").read_text()
BLOCKED1 = ("#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], "
            "order = [1, 0]}>")
# The same thread-to-element map as #blocked1 for a 4x64 tile, written as Triton prints a linear layout
GOOD = {"register": "[[0, 1], [0, 2], [0, 4]]", "lane": "[[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]]",
        "warp": "[[4, 0], [8, 0], [16, 0]]", "block": "[]"}

VALUES = st.sampled_from([0, 1, 2, 3, 4, 8, 32, 64, -1, 6, 1 << 20, 1 << 31, 1 << 32, 1 << 40, 10**20])
ARRAYS = st.lists(VALUES, min_size=0, max_size=3)


def _ints(values: list[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def _check(text: str) -> None:
    """Parse; then, for an accepted layout, map it for a few shapes: only UnsupportedLayout may be raised."""
    table = parse_layouts(text)
    layout = table.get("l")
    assert layout is not None
    if isinstance(layout, OpaqueLayout):
        assert any(p.startswith("#l: ") for p in table.problems), table.problems
        return
    rank = layout_rank(layout) or 1
    for size in (1, 16, 128):
        start = time.perf_counter()
        try:
            to_linear_layout(layout, [size] * rank)
            grid = layout_grid(layout, [size] * rank)
        except UnsupportedLayout:
            continue
        assert len(grid.slot_elements) <= MAX_SLOTS
        assert time.perf_counter() - start < 5


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spt=ARRAYS, tpw=ARRAYS, wpc=ARRAYS, order=ARRAYS)
def test_blocked_layouts_with_any_values(spt: list[int], tpw: list[int], wpc: list[int], order: list[int]) -> None:
    _check(f"#l = #ttg.blocked<{{sizePerThread = {_ints(spt)}, threadsPerWarp = {_ints(tpw)}, "
           f"warpsPerCTA = {_ints(wpc)}, order = {_ints(order)}}}>\n")


BASES = st.lists(st.lists(VALUES, min_size=1, max_size=2), min_size=0, max_size=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(register=BASES, lane=BASES, warp=BASES)
def test_linear_layouts_with_any_bases(register: list[list[int]], lane: list[list[int]], warp: list[list[int]]) -> None:
    def bases(rows: list[list[int]]) -> str:
        return "[" + ", ".join(_ints(r) for r in rows) + "]"

    _check(f"#l = #ttg.linear<{{register = {bases(register)}, lane = {bases(lane)}, warp = {bases(warp)}, "
           "block = []}>\n")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wpc=ARRAYS, k_width=VALUES, op_idx=VALUES, version=st.sampled_from([2, 3]))
def test_dot_operands_of_mma_with_any_values(wpc: list[int], k_width: int, op_idx: int, version: int) -> None:
    instr = "[16, 8]" if version == 2 else "[16, 64, 16]"
    _check(f"#mma = #ttg.nvidia_mma<{{versionMajor = {version}, versionMinor = 0, warpsPerCTA = {_ints(wpc)}, "
           f"instrShape = {instr}}}>\n"
           f"#l = #ttg.dot_op<{{opIdx = {op_idx}, parent = #mma, kWidth = {k_width}}}>\n")


def test_the_verifier_names_the_field_triton_names() -> None:
    table = parse_layouts("#l = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4], "
                          "order = [0]}>\n")
    assert table.problems == ["#l: invalid ttg.blocked: sizePerThread, threadsPerWarp, warpsPerCTA and order must "
                              "have one rank (sizePerThread 2, threadsPerWarp 1, warpsPerCTA 1, order 1)"]
    old = parse_layouts("#l = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
                        "order = [0], CTAsPerCGA = [1, 1], CTASplitNum = [1], CTAOrder = [0]}>\n")
    assert old.problems == ["#l: invalid triton_gpu.blocked: CTAsPerCGA = [1, 1] does not have the layout's rank 1"]


def _real_with_linear(**bases: str) -> str:
    """The real module with #blocked1 replaced by a `#ttg.linear` of these keys (in this order)."""
    body = ", ".join(f"{key} = {value}" for key, value in bases.items())
    assert BLOCKED1 in REAL
    return REAL.replace(BLOCKED1, f"#blocked1 = #ttg.linear<{{{body}}}>")


def _blocked1_problems(text: str) -> list[str]:
    table = parse_layouts(text)
    return [p for p in table.problems if p.startswith("#blocked1: ")]


def test_a_well_formed_linear_layout_in_the_real_module_is_accepted() -> None:
    table = parse_layouts(_real_with_linear(**GOOD))
    assert isinstance(table.get("blocked1"), DistributedLinearLayout) and table.problems == []


def test_a_misspelled_linear_key_is_refused_naming_it() -> None:
    """Issue 28 item 6: `warps = ...` was read as no warp bases ("warps span 1x1") in an 8-warp module."""
    bases = dict(GOOD)
    bases["warps"] = bases.pop("warp")
    table = parse_layouts(_real_with_linear(**bases))
    assert isinstance(table.get("blocked1"), OpaqueLayout)
    assert [p for p in table.problems if p.startswith("#blocked1: ")] == [
        "#blocked1: cannot read ttg.linear: missing warp: Triton requires the bases register, lane, warp and block "
        "(it has warps)"]


@pytest.mark.parametrize(("key", "value", "problem"), [
    ("warp", "[]", "warp has 0 bases, which is 1 warp per CTA; the module has 8 (ttg.num-warps)"),
    ("lane", "[[0, 8], [0, 16], [0, 32], [1, 0], [2, 0], [0, 0]]",
     "lane has 6 bases, which is 64 threads per warp; the module has 32 (ttg.threads-per-warp)"),
    ("warp", "[[4, 0], [8, 0]]", "warp has 2 bases, which is 4 warps per CTA; the module has 8 (ttg.num-warps)"),
    ("register", "[[0, 1], [0, 3], [0, 4]]", "register basis [0, 3] moves by 3, not a power of two (Triton: "
     "LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases)"),
    ("register", "[[0, 1], [0, 2], [0, 4], [0, 4]]", "register basis [0, 4] repeats a register basis, so two registers "
     "hold the same elements and others none (Triton: LinearEncodingAttr requires a permutation matrix layout after "
     "removing broadcast bases)"),
    ("block", "[[0, 64]]", "block has 1 bases, which is 2 CTAs per CGA; the module has 1 (ttg.num-ctas)"),
    ("register", "[[0, 2], [0, 4]]",
     "the bases do not reach every index 0..63 of dim1 (Triton requires a linear layout to cover its whole tile)"),
    ("register", "[[0, 1], [0, 1], [0, 4]]",
     "the bases do not reach every index 0..63 of dim1 (Triton requires a linear layout to cover its whole tile)"),
])
def test_linear_layouts_are_checked_against_the_module_and_their_tile(key: str, value: str, problem: str) -> None:
    problems = _blocked1_problems(_real_with_linear(**{**GOOD, key: value}))
    assert problems == [f"#blocked1: invalid ttg.linear: {problem}"]


def test_an_unused_alias_is_not_held_to_the_modules_counts() -> None:
    """Triton checks warps and lanes on the ops using a layout: a 2-warp alias no op uses is accepted."""
    unused = _real_with_linear(**GOOD).replace("#blocked1 = ", "#spare = #ttg.linear<{register = [], lane = [[1]], "
                                               "warp = [[2]], block = []}>\n#blocked1 = ", 1)
    assert parse_layouts(unused).problems == []


def test_warp_specialized_partitions_count_as_contexts() -> None:
    text = ('module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {\n'
            "  partition0(%arg7: i32) num_warps(4) {\n"
            '  tt.func @f() attributes {"ttg.num-warps" = 2 : i32} {\n'
            "  %1 = ttg.warp_specialize(%0) attributes {partitionNumWarps = array<i32: 1, 2>}\n")
    assert layout_context(text) == LayoutContext(num_warps=frozenset({8, 4, 2, 1}), threads_per_warp=frozenset({32}))


_MUTATIONS = st.lists(st.tuples(st.sampled_from(["misspell", "drop", "double", "value", "swap"]),
                                st.sampled_from(sorted(GOOD)), st.integers(0, 4),
                                st.sampled_from([0, 1, 2, 3, 4, 8, 16, 32, 64, 128])), max_size=3)


def _mutated_bases(mutations: list[tuple[str, str, int, int]]) -> dict[str, str]:
    """GOOD with a few mutations: a key misspelled, a basis dropped or doubled, a value changed, two swapped."""
    rows = {key: [list(map(int, pair.split(", "))) for pair in value.strip("[]").split("], [") if pair]
            for key, value in GOOD.items()}
    names = {key: key for key in rows}
    for kind, key, index, value in mutations:
        row = rows[key]
        if kind == "misspell":
            names[key] = key + "s"
        elif kind == "swap" and key != "lane":
            rows[key], rows["lane"] = rows["lane"], rows[key]
        elif row and kind == "drop":
            row.pop(index % len(row))
        elif row and kind == "double":
            row.insert(index % len(row), list(row[index % len(row)]))
        elif row and kind == "value":
            row[index % len(row)][index % 2] = value
    return {names[key]: "[" + ", ".join(f"[{a}, {b}]" for a, b in row) + "]" for key, row in rows.items()}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations=_MUTATIONS)
# A warp basis repeated, then one dropped: the layout fits [4, 64] only if both copies of the row past it go.
@example(mutations=[("double", "warp", 0, 0), ("drop", "warp", 3, 0)])
def test_linear_layouts_in_a_real_module_are_refused_or_drawn(mutations: list[tuple[str, str, int, int]]) -> None:
    """A mutated `#ttg.linear` in the 8-warp module: one problem line naming why, or a map where every element
    has a holder (the old parser accepted layouts whose map then failed with an IndexError)."""
    bases = _mutated_bases(mutations)
    table = parse_layouts(_real_with_linear(**bases))
    layout = table.get("blocked1")
    problems = [p for p in table.problems if p.startswith("#blocked1: ")]
    if isinstance(layout, OpaqueLayout):
        assert len(problems) == 1, problems
        return
    assert isinstance(layout, DistributedLinearLayout) and problems == []
    assert (len(layout.lane), len(layout.warp), len(layout.block)) == (5, 3, 0)
    for shape in ([4, 64], [128, 64]):
        grid = layout_grid(layout, shape)
        assert all(grid.holders())
        assert render_layout_map(layout, shape).plain
