"""Convert each distributed layout encoding to the linear layout Triton gives it for a tensor shape.

Each function builds the layout of one CTA from the encoding's parameters (register bits first,
then lanes, then warps), then fits it to the tensor: a tile smaller than the tensor repeats in
registers, a tile larger than the tensor replicates (its extra bits are zeroed), and the CTAs of a
cluster are stacked on top (`_fit_to_shape`). The recipes follow Triton 3.9's behaviour, checked
element by element against Triton's own printer in tests/test_layouts_oracle.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from irscope.analysis.layouts.linear import (
    IN_DIMS,
    LinearLayout,
    dim_names,
    ensure_not_larger,
    ensure_not_smaller,
    identity_nd,
    matrix_order,
)
from irscope.parse.layouts import (
    AmdMfmaLayout,
    AmdWmmaLayout,
    BlockedLayout,
    CGALayout,
    DistributedLinearLayout,
    DotOperandLayout,
    Layout,
    NvidiaMmaLayout,
    SliceLayout,
)

__all__ = ["UnsupportedLayout", "cga_linear_layout", "mma_operand_tile", "to_linear_layout"]

_MFMA_WAVE = 64
_WMMA_WAVE = 32


class UnsupportedLayout(ValueError):
    """The layout (or this combination of its parameters) has no linear form in irscope."""


def _id(size: int, in_dim: str, out_dim: str) -> LinearLayout:
    """identity_1d that treats sizes below 1 as 'nothing to add' (Triton's empty layout)."""
    if size <= 1:
        return LinearLayout(((in_dim, ()),), ((out_dim, 1),))
    return LinearLayout.identity_1d(size, in_dim, out_dim)


def cga_linear_layout(cga: CGALayout | None, rank: int) -> LinearLayout:
    """The block -> tensor-coordinate layout of a cluster, in standard out-dim order."""
    names = dim_names(rank)
    if cga is None:
        return LinearLayout((("block", ()),), tuple((n, 1) for n in names))
    if cga.bases is not None:
        return LinearLayout.from_bases({"block": cga.bases}, names)
    order = cga.cta_order or tuple(range(rank - 1, -1, -1))
    per_cga = cga.ctas_per_cga or (1,) * rank
    split = cga.cta_split_num or per_cga
    result = LinearLayout.empty()
    for dim in order:
        result = result * _id(split[dim], "block", names[dim])
        zeros = per_cga[dim] // max(split[dim], 1)
        if zeros > 1:
            result = result * LinearLayout.zeros_1d(zeros, "block", names[dim])
    return result.transpose_outs(names)


def _fit_to_shape(
    cta: LinearLayout, cga: LinearLayout, shape: Sequence[int], drop_registers: bool = False
) -> LinearLayout:
    """Resize one CTA's layout to the tensor shape and stack the cluster's CTAs on top.

    Bits beyond the shape are zeroed (broadcast); blocked layouts instead drop such register bits,
    as Triton 3.9 does, so a thread never holds the same element twice in a blocked layout.
    """
    names = dim_names(len(shape))
    wanted = dict(zip(names, shape, strict=True))
    cga = ensure_not_larger(cga, wanted).transpose_outs(cta.out_names)
    per_cta = {n: max(1, wanted[n] // cga.out_size(n)) for n in cta.out_names}
    cta = ensure_not_smaller(cta, per_cta)
    cta = ensure_not_larger(cta, per_cta, broadcast_registers=not drop_registers)
    return (cta * cga).transpose_outs(names)


def _broadcast_nd(in_dim: str, counts: Sequence[int], order: Sequence[int], k_dim: int) -> LinearLayout:
    """Like identity_nd, but every step along `k_dim` maps to 0: dot operands replicate along K."""
    names = dim_names(len(counts))
    result = LinearLayout.empty()
    for dim in order:
        if dim == k_dim:
            result = result * LinearLayout.zeros_1d(counts[dim], in_dim, names[dim])
        else:
            result = result * LinearLayout.identity_1d(counts[dim], in_dim, names[dim])
    return result


def _blocked(layout: BlockedLayout, shape: Sequence[int]) -> LinearLayout:
    order = layout.order
    cta = (
        identity_nd("register", layout.size_per_thread, order)
        * identity_nd("lane", layout.threads_per_warp, order)
        * identity_nd("warp", layout.warps_per_cta, order)
    )
    return _fit_to_shape(cta, cga_linear_layout(layout.cga, len(shape)), shape, drop_registers=True)


def _mma_tile(tile: Sequence[int], k_width: int, order: Sequence[int], rep_order: Sequence[int]) -> LinearLayout:
    """The register/lane tile of an mma.sync-style fragment (the m16n8 quad pattern)."""
    names = dim_names(len(rep_order))
    inner, outer = order[0], order[1]
    m, n = tile[outer], tile[inner]
    if m % 8 or n % (k_width * 4):
        raise UnsupportedLayout(f"tile {list(tile)} does not fit kWidth {k_width}")
    return (
        identity_nd("register", [1] * len(rep_order), rep_order)
        * LinearLayout.identity_1d(k_width, "register", names[inner])
        * LinearLayout.identity_1d(4, "lane", names[inner])
        * LinearLayout.identity_1d(8, "lane", names[outer])
        * _id(m // 8, "register", names[outer])
        * _id(n // (k_width * 4), "register", names[inner])
    )


def _nvidia_mma(layout: NvidiaMmaLayout, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    if layout.version_major == 2:
        tile: Sequence[int] = layout.instr_shape
    elif layout.version_major == 3:
        tile = layout.instr_shape[:2]
    else:
        raise UnsupportedLayout(f"nvidia_mma version {layout.version_major} has no register layout here")
    if len(tile) != rank:
        raise UnsupportedLayout(f"instrShape {list(layout.instr_shape)} does not match rank {rank}")
    row_major = matrix_order(rank, True)
    cta = _mma_tile(tile, 2, row_major, row_major)
    hopper = layout.version_major == 3
    warps = identity_nd("warp", layout.warps_per_cta, matrix_order(rank, not hopper))
    cta = cta * warps.transpose_outs(cta.out_names)
    return _fit_to_shape(cta, cga_linear_layout(layout.cga, rank), shape)


def _dot_cga(dot: DotOperandLayout, cga: CGALayout | None, rank: int) -> CGALayout | None:
    """The parent's CTA arrangement with the K dim not split (operands replicate along K)."""
    if cga is None:
        return None
    k_dim = rank - 1 if dot.op_idx == 0 else rank - 2
    if cga.bases is not None:
        return CGALayout(bases=tuple(tuple(0 if i == k_dim else v for i, v in enumerate(b)) for b in cga.bases))
    split = list(cga.cta_split_num or ())
    if split:
        split[k_dim] = 1
    return CGALayout(ctas_per_cga=cga.ctas_per_cga, cta_split_num=tuple(split), cta_order=cga.cta_order)


def _order_for_operand(op_idx: int, rank: int) -> tuple[int, ...]:
    """Fastest-first order of a dot operand whose K dim is contiguous."""
    return matrix_order(rank, row_major=op_idx == 0)


def mma_operand_tile(dot: DotOperandLayout, mma: NvidiaMmaLayout) -> tuple[int, int]:
    """The (rows, cols) one warp's register/lane tile of an mma.sync operand covers (A: M x K, B: K x N).

    The fp64 m8n8k4 DMMA (instrShape [8, 8]) takes 8 rows of A (columns of B) and 4 * kWidth along K;
    every other shape takes 16 rows of A (8 columns of B) and 8 * kWidth along K.
    """
    k_width = dot.k_width or 0
    if k_width < 1:
        raise UnsupportedLayout("dot operand of nvidia_mma without kWidth")
    dmma = mma.version_major == 2 and len(mma.instr_shape) >= 2 and mma.instr_shape[-2] == 8
    k_tile = k_width * (4 if dmma else 8)
    if dot.op_idx == 0:
        return (8 if dmma else 16), k_tile
    return k_tile, 8


def _nvidia_dot(dot: DotOperandLayout, mma: NvidiaMmaLayout, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    if mma.version_major not in (2, 3):
        raise UnsupportedLayout(f"dot operand of nvidia_mma v{mma.version_major}")
    if mma.version_major == 3 and dot.op_idx != 0:
        raise UnsupportedLayout("Hopper reads operand B from shared memory; it has no register layout")
    k_width = dot.k_width
    if not k_width:
        raise UnsupportedLayout("dot operand of nvidia_mma without kWidth")
    tile = [1] * rank
    tile[-2], tile[-1] = mma_operand_tile(dot, mma)
    order = _order_for_operand(dot.op_idx, rank)
    cta = _mma_tile(tile, k_width, order, order)
    k_dim = rank - 1 if dot.op_idx == 0 else rank - 2
    warps = _broadcast_nd("warp", mma.warps_per_cta, matrix_order(rank, mma.version_major != 3), k_dim)
    cta = cta * warps.transpose_outs(cta.out_names)
    return _fit_to_shape(cta, cga_linear_layout(_dot_cga(dot, mma.cga, rank), rank), shape)


def _fma_dot(dot: DotOperandLayout, blocked: BlockedLayout, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    names = dim_names(rank)
    k_dim = rank - 1 if dot.op_idx == 0 else rank - 2
    per_thread = list(blocked.size_per_thread)
    per_thread[k_dim] = shape[k_dim]
    order = blocked.order
    rep_names = [names[d] for d in order]
    cta = (
        identity_nd("register", per_thread, order).transpose_outs(rep_names)
        * _broadcast_nd("lane", blocked.threads_per_warp, order, k_dim).transpose_outs(rep_names)
        * _broadcast_nd("warp", blocked.warps_per_cta, order, k_dim).transpose_outs(rep_names)
    )
    return _fit_to_shape(cta, cga_linear_layout(_dot_cga(dot, blocked.cga, rank), rank), shape)


def _mfma(layout: AmdMfmaLayout, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    names = dim_names(rank)
    batch = rank == 3
    m_index, n_index = int(batch), 1 + int(batch)
    order = matrix_order(rank, True)
    dim_m, dim_n = names[order[1]], names[order[0]]
    m_dim, n_dim = layout.instr_shape[0], layout.instr_shape[1]
    height = 1 if layout.element_bitwidth == 64 else 4
    tiles = (m_dim * n_dim) // (_MFMA_WAVE * height)
    if not layout.is_transposed:
        tile = (
            LinearLayout.identity_1d(height, "register", dim_m)
            * LinearLayout.identity_1d(n_dim, "lane", dim_n)
            * _id(_MFMA_WAVE // n_dim, "lane", dim_m)
            * _id(tiles, "register", dim_m)
        )
    else:
        tile = (
            LinearLayout.identity_1d(height, "register", dim_n)
            * LinearLayout.identity_1d(m_dim, "lane", dim_m)
            * _id(_MFMA_WAVE // m_dim, "lane", dim_n)
            * _id(tiles, "register", dim_n)
        )
    tile = tile.transpose_outs([dim_n, dim_m])
    per_warp = layout.tiles_per_warp or (1,) * rank
    warps = layout.warps_per_cta
    tile = tile * _id(per_warp[n_index], "register", dim_n) * _id(warps[n_index], "warp", dim_n)
    tile = tile * _id(shape[n_index] // (n_dim * warps[n_index] * per_warp[n_index]), "register", dim_n)
    tile = tile * _id(per_warp[m_index], "register", dim_m) * _id(warps[m_index], "warp", dim_m)
    if batch:
        tile = tile * _id(1, "register", names[0]) * _id(1, "lane", names[0]) * _id(warps[0], "warp", names[0])
    return _fit_to_shape(tile, cga_linear_layout(layout.cga, rank), shape)


def _mfma_dot(dot: DotOperandLayout, mfma: AmdMfmaLayout, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    names = dim_names(rank)
    k_width = dot.k_width
    if not k_width:
        raise UnsupportedLayout("dot operand of amd_mfma without kWidth")
    non_k_index = rank - 2 if dot.op_idx == 0 else rank - 1
    k_index = rank - 1 if dot.op_idx == 0 else rank - 2
    per_warp = mfma.tiles_per_warp or (1,) * rank
    m_dim, n_dim = mfma.instr_shape[0], mfma.instr_shape[1]
    non_k = m_dim if dot.op_idx == 0 else n_dim
    order = _order_for_operand(dot.op_idx, rank)
    dim_k, dim_non_k = names[order[0]], names[order[1]]
    tile = (
        LinearLayout.identity_1d(k_width, "register", dim_k)
        * LinearLayout.identity_1d(non_k, "lane", dim_non_k)
        * _id(_MFMA_WAVE // non_k, "lane", dim_k)
    )
    k_tile = _MFMA_WAVE // non_k * k_width
    if (m_dim, n_dim, dot.op_idx) in ((64, 4, 0), (4, 64, 1)):
        tile = tile * LinearLayout.identity_1d(16, "register", dim_k)
        k_tile *= 16
    if shape[k_index] > k_tile:
        tile = tile * _id(shape[k_index] // k_tile, "register", dim_k)
    tile = tile * _id(per_warp[non_k_index], "register", dim_non_k)
    tile = tile.transpose_outs([dim_k, dim_non_k])
    if rank == 3:
        tile = tile * _id(1, "register", names[order[2]]) * _id(1, "lane", names[order[2]])
    cta = tile * identity_nd("warp", mfma.warps_per_cta, matrix_order(rank, True))
    cga = cga_linear_layout(_dot_cga(dot, mfma.cga, rank), rank)
    return _fit_to_shape(cta, cga, shape)


def _wmma_cta(layout: AmdWmmaLayout, rank: int) -> LinearLayout:
    """Warp (and repetition) arrangement of WMMA tiles, in units of tiles, standard out order."""
    names = dim_names(rank)
    if layout.warp_bases is not None:
        return LinearLayout.from_bases({"register": layout.reg_bases, "warp": layout.warp_bases}, names)
    warps = layout.warps_per_cta or (1,) * rank
    return identity_nd("warp", warps, matrix_order(rank, True)).transpose_outs(names)


# The instruction shapes Triton's AMDWmmaEncodingAttr verifier accepts, per WMMA version (Triton 3.9).
_WMMA_SHAPES = {
    1: ((16, 16, 16),),
    2: ((16, 16, 16), (16, 16, 32)),
    3: ((16, 16, 4), (16, 16, 32), (16, 16, 64), (16, 16, 128), (32, 16, 64), (32, 16, 128)),
}


def _wmma_tile(layout: AmdWmmaLayout, rank: int) -> LinearLayout:
    """One WMMA result tile of one warp (register, lane -> dims), standard out order."""
    names = dim_names(rank)
    instr = tuple(layout.instr_shape)
    if instr not in _WMMA_SHAPES.get(layout.version, ()):
        raise UnsupportedLayout(f"amd_wmma version {layout.version} has no instrShape {list(instr)} "
                                "(Triton rejects it)")
    thread_order = matrix_order(rank, not layout.is_transposed)
    fast, slow = names[thread_order[0]], names[thread_order[1]]
    if layout.version == 1:
        reg: tuple[tuple[int, int], ...] = ((0, 2), (0, 4), (0, 8))
        lane: tuple[tuple[int, int], ...] = ((1, 0), (2, 0), (4, 0), (8, 0), (0, 1))
    else:
        reg = ((0, 1), (0, 2), (0, 4))
        lane = ((1, 0), (2, 0), (4, 0), (8, 0), (0, 8))
        if instr[:2] == (32, 16):  # two 16x16 tiles, the second in 8 more registers
            reg = (*reg, (0, 16))
    tile = LinearLayout.from_bases({"register": reg, "lane": lane}, [fast, slow])
    if rank == 3:
        tile = tile * _id(1, "register", names[0]) * _id(1, "lane", names[0])
    return tile.transpose_outs(names)


def _wmma(layout: AmdWmmaLayout, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    names = dim_names(rank)
    combined = _wmma_tile(layout, rank) * _wmma_cta(layout, rank)
    rep = [names[d] for d in matrix_order(rank, True)]
    return _fit_to_shape(combined.transpose_outs(rep), cga_linear_layout(layout.cga, rank), shape)


def _wmma_dot(dot: DotOperandLayout, wmma: AmdWmmaLayout, shape: Sequence[int]) -> LinearLayout:
    """A WMMA operand: kWidth registers along K, 16 lanes along the other dim, 2 lanes deep in K."""
    rank = len(shape)
    names = dim_names(rank)
    k_width = dot.k_width
    if not k_width:
        raise UnsupportedLayout("dot operand of amd_wmma without kWidth")
    _wmma_tile(wmma, rank)  # checks the instruction shape
    order = _order_for_operand(dot.op_idx, rank)
    dim_k, dim_non_k = names[order[0]], names[order[1]]
    k_dim = wmma.instr_shape[2]
    tile_m, tile_n = wmma.instr_shape[0], wmma.instr_shape[1]
    if wmma.is_transposed:  # a transposed 32x16 tile is 32 wide along N
        tile_m, tile_n = tile_n, tile_m
    non_k_dim = tile_m if dot.op_idx == 0 else tile_n
    depth = _WMMA_WAVE // 16
    tile = LinearLayout.identity_1d(k_width, "register", dim_k) * LinearLayout.identity_1d(16, "lane", dim_non_k)
    # version 1 repeats the same K values in both lane halves; later versions offset them along K
    tile = tile * (LinearLayout.zeros_1d(depth, "lane", dim_k) if wmma.version == 1
                   else LinearLayout.identity_1d(depth, "lane", dim_k))
    tile = tile * _id(k_dim // (depth * k_width), "register", dim_k) * _id(non_k_dim // 16, "register", dim_non_k)
    if rank == 3:
        tile = tile * _id(1, "register", names[order[2]]) * _id(1, "lane", names[order[2]])
    cta = _wmma_cta(wmma, rank)
    k_index = names.index(dim_k)
    projected: dict[str, list[tuple[int, ...]]] = {}
    for name, rows in cta.bases:  # operands replicate along K; a repetition along K is no repetition
        kept = [tuple(0 if i == k_index else v for i, v in enumerate(row)) for row in rows]
        projected[name] = [row for row in kept if any(row)] if name == "register" else kept
    cta = LinearLayout(
        tuple((name, tuple(rows)) for name, rows in projected.items()),
        tuple((n, 1 if n == dim_k else s) for n, s in cta.out_dims),
    )
    combined = (tile * cta).transpose_outs([names[d] for d in order])
    return _fit_to_shape(combined, cga_linear_layout(_dot_cga(dot, wmma.cga, rank), rank), shape)


def _slice(layout: SliceLayout, shape: Sequence[int]) -> LinearLayout:
    parent_shape = [*shape[: layout.dim], 1, *shape[layout.dim :]]
    parent = to_linear_layout(layout.parent, parent_shape)
    names = dim_names(len(shape))
    keep = [i for i in range(len(parent_shape)) if i != layout.dim]
    bases: dict[str, list[tuple[int, ...]]] = {}
    for name, rows in parent.bases:
        sliced = [tuple(row[i] for i in keep) for row in rows]
        if name == "register":
            sliced = [row for row in sliced if any(row)]
        bases[name] = sliced
    return LinearLayout.from_bases(bases, names)


def _linear(layout: DistributedLinearLayout, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    names = dim_names(rank)
    if layout.rank != rank:
        raise UnsupportedLayout(f"linear layout of rank {layout.rank} used with a rank-{rank} shape")
    base = LinearLayout.from_bases(
        {"register": layout.register, "lane": layout.lane, "warp": layout.warp, "block": layout.block}, names
    )
    order: list[int] = []
    for row in layout.register:
        first = next((i for i, v in enumerate(row) if v), None)
        if first is not None and first not in order:
            order.append(first)
    order += [d for d in range(rank - 1, -1, -1) if d not in order]
    permuted = [names[d] for d in order]
    wanted = dict(zip(names, shape, strict=True))
    fitted = ensure_not_smaller(base.transpose_outs(permuted), wanted)
    fitted = ensure_not_larger(fitted, wanted, broadcast_registers=False)
    return fitted.transpose_outs(names)


def _complete(layout: LinearLayout) -> LinearLayout:
    """Make sure all four hardware input dims are present, in Triton's order."""
    bases = tuple((name, layout.in_bases(name)) for name in IN_DIMS)
    extra = tuple(item for item in layout.bases if item[0] not in IN_DIMS)
    return LinearLayout(bases + extra, layout.out_dims)


def to_linear_layout(layout: Layout, shape: Sequence[int]) -> LinearLayout:
    """The linear layout (register, lane, warp, block -> dim0..) of a distributed layout for `shape`.

    Raises UnsupportedLayout for shared/tensor-memory layouts and for parameter combinations that
    Triton itself rejects or that irscope does not model.
    """
    shape = [int(s) for s in shape]
    if any(s < 1 or s & (s - 1) for s in shape):
        raise UnsupportedLayout(f"shape {shape} is not made of powers of two")
    try:
        return _complete(_convert(layout, shape))
    except UnsupportedLayout:
        raise
    except (ValueError, IndexError, KeyError, ZeroDivisionError) as exc:  # parameters Triton would reject
        raise UnsupportedLayout(f"{layout.kind} layout with these parameters and shape {shape}: {exc}") from exc


def _convert(layout: Layout, shape: list[int]) -> LinearLayout:
    """Dispatch on the layout kind."""
    if isinstance(layout, BlockedLayout):
        return _blocked(layout, shape)
    if isinstance(layout, NvidiaMmaLayout):
        return _nvidia_mma(layout, shape)
    if isinstance(layout, AmdMfmaLayout):
        return _mfma(layout, shape)
    if isinstance(layout, AmdWmmaLayout):
        return _wmma(layout, shape)
    if isinstance(layout, SliceLayout):
        return _slice(layout, shape)
    if isinstance(layout, DistributedLinearLayout):
        return _linear(layout, shape)
    if isinstance(layout, DotOperandLayout):
        parent = layout.parent
        if isinstance(parent, NvidiaMmaLayout):
            return _nvidia_dot(layout, parent, shape)
        if isinstance(parent, BlockedLayout):
            return _fma_dot(layout, parent, shape)
        if isinstance(parent, AmdMfmaLayout):
            return _mfma_dot(layout, parent, shape)
        if isinstance(parent, AmdWmmaLayout):
            return _wmma_dot(layout, parent, shape)
        raise UnsupportedLayout(f"dot operands of {parent.kind} layouts are not modelled")
    raise UnsupportedLayout(f"{layout.kind} is not a distributed (register) layout")
