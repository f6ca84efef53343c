"""The F2 linear-layout algebra and the conversions of layout encodings, checked without Triton.

Expected bases here are derived by hand from the layouts' definitions (PTX's m16n8 fragment, the
blocked-layout definition); tests/test_layouts_oracle.py checks the same code against Triton.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from irscope.analysis.layouts.linear import (
    LinearLayout,
    dim_names,
    ensure_not_larger,
    ensure_not_smaller,
    identity_nd,
    matrix_order,
)
from irscope.analysis.layouts.to_linear import UnsupportedLayout, cga_linear_layout, to_linear_layout
from irscope.analysis.layouts.views import layout_grid
from irscope.parse import layouts as L
from irscope.parse.layouts import parse_layout
from irscope.views.layout_text import format_hardware_view, format_tensor_view

DUMPS = Path(__file__).parent / "data" / "layouts" / "dumps"

BLOCKED = L.BlockedLayout(size_per_thread=(1, 4), threads_per_warp=(4, 8), warps_per_cta=(2, 1), order=(1, 0))
MMA2 = L.NvidiaMmaLayout(version_major=2, version_minor=0, warps_per_cta=(1, 1), instr_shape=(16, 8))


def test_identity_zeros_and_product() -> None:
    a = LinearLayout.identity_1d(4, "register", "dim1")
    assert a.bases == (("register", ((1,), (2,))),) and a.out_dims == (("dim1", 4),)
    z = LinearLayout.zeros_1d(2, "warp", "dim0")
    assert z.in_bases("warp") == ((0,),) and z.out_dims == (("dim0", 1),)
    both = a * LinearLayout.identity_1d(8, "lane", "dim1") * LinearLayout.identity_1d(2, "register", "dim0")
    assert both.out_dims == (("dim1", 32), ("dim0", 2))
    assert both.in_bases("register") == ((1, 0), (2, 0), (0, 1))  # the outer register bit lands on dim0
    assert both.in_bases("lane") == ((4, 0), (8, 0), (16, 0))  # shifted above the 4 register columns
    assert (LinearLayout.empty() * a) == a


def test_apply_is_linear_over_xor() -> None:
    ll = to_linear_layout(BLOCKED, [32, 64])
    rng = random.Random(7)
    for _ in range(50):
        x = {d: rng.randrange(ll.in_size(d)) for d in ("register", "lane", "warp")}
        y = {d: rng.randrange(ll.in_size(d)) for d in ("register", "lane", "warp")}
        xy = {d: x[d] ^ y[d] for d in x}
        assert ll.apply(xy) == tuple(a ^ b for a, b in zip(ll.apply(x), ll.apply(y), strict=True))


def test_transpose_outs_permutes_coordinates() -> None:
    ll = identity_nd("lane", [2, 4], [1, 0])
    assert ll.out_names == ("dim1", "dim0")
    t = ll.transpose_outs(["dim0", "dim1"])
    assert t.out_dims == (("dim0", 2), ("dim1", 4))
    assert t.in_bases("lane") == ((0, 1), (0, 2), (1, 0))
    with pytest.raises(ValueError):
        ll.transpose_outs(["dim0"])


def test_from_bases_infers_sizes_even_for_swizzled_bases() -> None:
    ll = LinearLayout.from_bases({"lane": [[1], [2]], "warp": [[3]]}, ["dim0"])
    assert ll.out_dims == (("dim0", 4),)
    assert [ll.apply({"lane": i, "warp": w})[0] for w in range(2) for i in range(4)] == [0, 1, 2, 3, 3, 2, 1, 0]


def test_ensure_not_smaller_repeats_in_registers_fastest_dim_first() -> None:
    cta = identity_nd("register", [1, 2], [1, 0]) * identity_nd("lane", [2, 2], [1, 0])
    grown = ensure_not_smaller(cta, {"dim0": 8, "dim1": 8})
    # out dims are listed dim1 first, so dim1 gets the first new register bit, then dim0 two more
    assert grown.in_bases("register") == ((1, 0), (4, 0), (0, 2), (0, 4))
    assert dict(grown.out_dims) == {"dim1": 8, "dim0": 8}


def test_ensure_not_larger_zeroes_the_largest_bits_or_drops_registers() -> None:
    cta = identity_nd("register", [4], [0]) * identity_nd("lane", [4], [0])
    small = ensure_not_larger(cta, {"dim0": 4})
    assert small.in_bases("register") == ((1,), (2,)) and small.in_bases("lane") == ((0,), (0,))
    tiny = ensure_not_larger(cta, {"dim0": 2}, broadcast_registers=False)
    assert tiny.in_bases("register") == ((1,),) and tiny.out_dims == (("dim0", 2),)


def test_matrix_order() -> None:
    assert matrix_order(2, True) == (1, 0)
    assert matrix_order(2, False) == (0, 1)
    assert matrix_order(3, False) == (1, 2, 0)


# -- conversions -----------------------------------------------------------------------------------


def test_blocked_bases_follow_the_definition() -> None:
    ll = to_linear_layout(BLOCKED, [8, 32])
    assert ll.in_names == ("register", "lane", "warp", "block")
    assert ll.in_bases("register") == ((0, 1), (0, 2))
    assert ll.in_bases("lane") == ((0, 4), (0, 8), (0, 16), (1, 0), (2, 0))
    assert ll.in_bases("warp") == ((4, 0),)
    assert ll.out_dims == (("dim0", 8), ("dim1", 32))
    bigger = to_linear_layout(BLOCKED, [16, 64])  # the 8x32 tile repeats: along dim1 first, then dim0
    assert bigger.in_bases("register") == ((0, 1), (0, 2), (0, 32), (8, 0))
    smaller = to_linear_layout(BLOCKED, [2, 32])  # rows 2..7 do not exist: those lanes and warps replicate
    assert smaller.in_bases("lane") == ((0, 4), (0, 8), (0, 16), (1, 0), (0, 0))
    assert smaller.in_bases("warp") == ((0, 0),)


def test_mma_v2_tile_is_ptx_m16n8_fragment() -> None:
    ll = to_linear_layout(MMA2, [16, 8])
    # PTX mma.m16n8 C fragment: lane = 4*groupID + threadInGroup; c0,c1 at (groupID, 2*tig + {0,1}),
    # c2,c3 eight rows below.
    assert ll.in_bases("register") == ((0, 1), (8, 0))
    assert ll.in_bases("lane") == ((0, 2), (0, 4), (1, 0), (2, 0), (4, 0))
    for lane in range(32):
        group, tig = divmod(lane, 4)
        assert ll.apply({"lane": lane, "register": 0}) == (group, 2 * tig)
        assert ll.apply({"lane": lane, "register": 3}) == (group + 8, 2 * tig + 1)


def test_hopper_warps_are_stacked_along_m() -> None:
    mma3 = L.NvidiaMmaLayout(version_major=3, version_minor=0, warps_per_cta=(4, 1), instr_shape=(16, 64, 16))
    ll = to_linear_layout(mma3, [64, 64])
    assert ll.in_bases("warp") == ((16, 0), (32, 0))
    assert ll.in_size("register") == 32  # 64x64 fp32 over 128 threads


def test_dot_operands_replicate_along_k_across_warps() -> None:
    mma = L.NvidiaMmaLayout(version_major=2, version_minor=0, warps_per_cta=(2, 2), instr_shape=(16, 8))
    a = to_linear_layout(L.DotOperandLayout(op_idx=0, parent=mma, k_width=2), [32, 16])
    b = to_linear_layout(L.DotOperandLayout(op_idx=1, parent=mma, k_width=2), [16, 16])
    assert a.in_bases("warp") == ((0, 0), (16, 0))  # the N-direction warp bit copies A
    assert b.in_bases("warp") == ((0, 8), (0, 0))  # the M-direction warp bit copies B
    with pytest.raises(UnsupportedLayout, match="shared memory"):
        hopper = L.NvidiaMmaLayout(version_major=3, version_minor=0, warps_per_cta=(4, 1), instr_shape=(16, 8, 16))
        to_linear_layout(L.DotOperandLayout(op_idx=1, parent=hopper, k_width=2), [16, 16])


def test_slice_drops_the_dim_and_duplicate_registers() -> None:
    ll = to_linear_layout(L.SliceLayout(dim=1, parent=BLOCKED), [8])
    assert ll.out_dims == (("dim0", 8),)
    assert ll.in_bases("register") == ()
    assert ll.in_bases("lane") == ((0,), (0,), (0,), (1,), (2,))
    assert ll.in_bases("warp") == ((4,),)


def test_linear_layout_is_its_own_bases_and_refits() -> None:
    linear = L.DistributedLinearLayout(register=((0, 1),), lane=((1, 0), (2, 0), (0, 2), (0, 4), (4, 0)), warp=())
    ll = to_linear_layout(linear, [8, 8])
    assert ll.in_bases("register") == ((0, 1),) and ll.in_bases("lane") == linear.lane
    grown = to_linear_layout(linear, [8, 16])
    assert grown.in_bases("register") == ((0, 1), (0, 8))
    with pytest.raises(UnsupportedLayout, match="rank"):
        to_linear_layout(linear, [64])


def test_cga_from_legacy_fields_and_from_bases() -> None:
    legacy = L.CGALayout(ctas_per_cga=(2, 2), cta_split_num=(2, 1), cta_order=(1, 0))
    ll = cga_linear_layout(legacy, 2)
    assert ll.in_bases("block") == ((0, 0), (1, 0))  # dim1 replicated over 2 CTAs, dim0 split in 2
    assert ll.out_dims == (("dim0", 2), ("dim1", 1))
    assert cga_linear_layout(L.CGALayout(bases=((1, 0), (0, 0))), 2).in_bases("block") == ((1, 0), (0, 0))
    assert cga_linear_layout(None, 3).out_dims == (("dim0", 1), ("dim1", 1), ("dim2", 1))


def test_two_cta_blocked_layout_splits_rows() -> None:
    two = L.BlockedLayout(size_per_thread=(1, 4), threads_per_warp=(8, 4), warps_per_cta=(1, 1), order=(1, 0),
                          cga=L.CGALayout(bases=((1, 0),)))
    ll = to_linear_layout(two, [16, 16])
    assert ll.in_bases("block") == ((8, 0),)
    assert ll.in_size("register") == 4


@pytest.mark.parametrize("layout", [
    L.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=(0,)),
    L.TensorMemoryLayout(block_m=128, block_n=128),
    L.OpaqueLayout(mnemonic="ttg.x"),
])
def test_memory_layouts_have_no_register_form(layout: L.Layout) -> None:
    with pytest.raises(UnsupportedLayout):
        to_linear_layout(layout, [16])


def test_shapes_must_be_powers_of_two() -> None:
    with pytest.raises(UnsupportedLayout, match="powers of two"):
        to_linear_layout(BLOCKED, [24, 32])


def test_dim_names() -> None:
    assert dim_names(3) == ("dim0", "dim1", "dim2")


# -- holders and replication -----------------------------------------------------------------------


def test_layout_grid_holders_and_replication() -> None:
    grid = layout_grid(BLOCKED, [4, 4])  # an 8x32 tile on a 4x4 tensor: heavy replication
    assert (grid.num_warps, grid.lanes, grid.registers, grid.num_blocks) == (2, 32, 4, 1)
    holders = grid.holders()
    assert len(holders) == 16
    assert all(len(h) == grid.replication() for h in holders)
    assert grid.replication() == 2 * 32 * 4 // 16
    first = holders[0][0]
    assert (first.warp, first.lane, first.register, first.thread) == (0, 0, 0, 0)
    assert grid.coords(grid.slot(0, 1, 9, 3)) == (1, 3)  # lane 9 = row 1 (its column bit is cut off)
    assert grid.unique_registers() == 4


# -- Triton's dump format, against dumps Triton 3.9 wrote (see tests/data/layouts/README.md) ------

DUMPED = {
    "blocked_1x2_4x8_2x2": ("#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], "
                            "order = [1, 0]}>", [8, 16]),
    "blocked_replicated": ("#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], "
                           "order = [1, 0]}>", [4, 4]),
    "slice_of_blocked": ("#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = "
                         "[4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>}>", [16]),
    "mma_v2_2x2": ("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>",
                   [32, 32]),
    "dot_a_mma_v2": ("#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                     "warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>", [32, 16]),
    "blocked_2cta": ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], "
                     "order = [1, 0], CGALayout = [[1, 0]]}>", [16, 16]),
}


@pytest.mark.parametrize("name", sorted(DUMPED))
def test_dump_format_matches_tritons_saved_output(name: str) -> None:
    text, shape = DUMPED[name]
    layout = parse_layout(text)
    assert format_tensor_view(layout, shape) == (DUMPS / f"{name}.tensor.txt").read_text()
    assert format_hardware_view(layout, shape) == (DUMPS / f"{name}.hardware.txt").read_text()
