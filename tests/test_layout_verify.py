"""Layouts in the form Triton prints, with hostile values: parsing never raises, what Triton's verifier
would reject becomes a problem line, and whatever is accepted maps within the bound or is refused."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscope.analysis.layouts.to_linear import UnsupportedLayout, to_linear_layout
from irscope.analysis.layouts.views import MAX_SLOTS, layout_grid
from irscope.parse.layout_verify import layout_rank
from irscope.parse.layouts import OpaqueLayout, parse_layouts

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
