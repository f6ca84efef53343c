"""Triton's verifier rules for layout attributes, checked where irscope builds a layout.

Triton rejects a malformed encoding when it is constructed (``BlockedEncodingAttr::verify`` and
its siblings in ``lib/Dialect/TritonGPU/IR/Dialect.cpp``): ranks agree, ``order`` is a
permutation, counts are powers of two, ``opIdx`` is 0 or 1, integers fit the unsigned 32-bit
fields they are parsed into, and a distributed linear layout's bases each move along one dim at
most, by a power of two, no two alike, and reach every element (``LinearEncodingAttr::verify``: a
permutation matrix once broadcast bases are removed; the ``LinearLayout`` Triton builds is surjective).
Where a tt/ttg/ttng op uses a linear layout, it has exactly as many lane, warp and block bases as the
module has threads per warp, warps and CTAs (``verifyTensorLayout``); on function arguments and other
dialects' ops Triton checks no counts, and fewer warp or lane bases then mean the rest hold copies.
irscope applies the same rules to text it did not write, so no analysis or map ever runs on a layout
Triton itself could not hold; each failure is one sentence naming the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from irscope.parse.layout_kinds import (
    AmdMfmaLayout,
    AmdRotatingSharedLayout,
    AmdWmmaLayout,
    BlockedLayout,
    CGALayout,
    DistributedLinearLayout,
    DotOperandLayout,
    Ints,
    Layout,
    NvidiaMmaLayout,
    OpaqueLayout,
    SliceLayout,
    SwizzledSharedLayout,
)

__all__ = ["LayoutContext", "layout_problem", "layout_rank"]

# Triton parses layout integers as `unsigned` (32 bits) and linear-layout bases as int32.
_U32 = (1 << 32) - 1
_I32 = (1 << 31) - 1


# Python field -> the parameter name Triton prints, so a message names what the user sees.
_PRINTED = {"size_per_thread": "sizePerThread", "threads_per_warp": "threadsPerWarp", "warps_per_cta": "warpsPerCTA",
            "instr_shape": "instrShape", "k_width": "kWidth", "op_idx": "opIdx", "tiles_per_warp": "tilesPerWarp",
            "element_bitwidth": "elementBitWidth", "version_major": "versionMajor", "version_minor": "versionMinor",
            "ctas_per_cga": "CTAsPerCGA", "cta_split_num": "CTASplitNum", "cta_order": "CTAOrder",
            "bases": "CGALayout", "per_phase": "perPhase", "max_phase": "maxPhase", "warp_bases": "ctaLayout.warp",
            "reg_bases": "ctaLayout.register", "offset_bases": "offset", "block_bases": "block",
            "swizzling_byte_width": "swizzlingByteWidth", "element_bit_width": "elementBitWidth",
            "num_partitions": "numPartitions", "num_groups": "numGroups", "partition_dim": "partitionDim",
            "block_m": "blockM", "block_n": "blockN", "col_stride": "colStride", "cta_split_m": "CTASplitM",
            "cta_split_n": "CTASplitN"}


@dataclass(frozen=True)
class LayoutContext:
    """What the module around a layout fixes, as Triton's verifier checks it per op (``verifyTensorLayouts``).

    Attributes:
        num_warps: every warp count a region of the module runs with: ``ttg.num-warps`` of the module or
            of a function, and each ``num_warps(N)`` of a warp-specialized partition; empty when unstated.
        threads_per_warp: the ``ttg.threads-per-warp`` values (32 on NVIDIA, 64 on CDNA); empty when unstated.
        num_ctas: the ``ttg.num-ctas`` values; empty when unstated.
    """

    num_warps: frozenset[int] = frozenset()
    threads_per_warp: frozenset[int] = frozenset()
    num_ctas: frozenset[int] = frozenset()


class _Invalid(ValueError):
    """One rule a layout breaks, as a sentence naming the field."""


def _show(values: Iterable[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _powers_of_two(name: str, values: Ints) -> None:
    """Every value a positive power of two (sizePerThread, threadsPerWarp, warpsPerCTA)."""
    for v in values:
        if v < 1 or v & (v - 1):
            raise _Invalid(f"{name} = {_show(values)}: every element must be a power of two")


def _permutation(name: str, order: Ints, rank: int) -> None:
    """``order`` holds each of 0..rank-1 once."""
    if sorted(order) != list(range(rank)):
        raise _Invalid(f"{name} = {_show(order)} is not a permutation of 0..{rank - 1}")


def _integers(layout: object) -> None:
    """Every integer parameter fits Triton's unsigned 32-bit fields (bases: int32), recursively."""
    for f in fields(layout):  # type: ignore[arg-type]
        if f.name in ("name", "dialect", "text"):
            continue
        value = getattr(layout, f.name)
        if isinstance(value, Layout):
            continue  # a parent is verified when it is built
        limit, low = (_I32, 0) if "bases" in f.name or f.name in ("register", "lane", "warp", "block") else (_U32, 0)
        for v in _flatten(value):
            if not low <= v <= limit:
                printed = _PRINTED.get(f.name, f.name)
                raise _Invalid(f"{printed} holds {v}, outside 0..{limit} (Triton stores it in 32 bits)")
        if isinstance(value, CGALayout):
            _integers(value)


def _flatten(value: object) -> Iterable[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _flatten(item)


def layout_rank(layout: Layout) -> int | None:
    """The tensor rank a distributed layout describes, or None when it cannot be told."""
    if isinstance(layout, BlockedLayout):
        return len(layout.order)
    if isinstance(layout, (NvidiaMmaLayout, AmdMfmaLayout)):
        return len(layout.warps_per_cta)
    if isinstance(layout, AmdWmmaLayout):
        if layout.warps_per_cta is not None:
            return len(layout.warps_per_cta)
        return len(layout.warp_bases[0]) if layout.warp_bases else None
    if isinstance(layout, DistributedLinearLayout):
        return layout.rank
    if isinstance(layout, DotOperandLayout):
        return layout_rank(layout.parent)
    if isinstance(layout, SliceLayout):
        parent = layout_rank(layout.parent)
        return parent - 1 if parent is not None else None
    return None


def _cga(cga: CGALayout | None, rank: int) -> None:
    if cga is None:
        return
    if cga.bases is not None:
        for basis in cga.bases:
            if len(basis) != rank:
                raise _Invalid(f"CGALayout basis {_show(basis)} has {len(basis)} entries, not the rank {rank}")
        return
    for name, values in (("CTAsPerCGA", cga.ctas_per_cga), ("CTASplitNum", cga.cta_split_num)):
        if values and len(values) != rank:
            raise _Invalid(f"{name} = {_show(values)} does not have the layout's rank {rank}")
    if cga.cta_order:
        _permutation("CTAOrder", cga.cta_order, rank)


def _blocked(layout: BlockedLayout) -> None:
    arrays = {"sizePerThread": layout.size_per_thread, "threadsPerWarp": layout.threads_per_warp,
              "warpsPerCTA": layout.warps_per_cta, "order": layout.order}
    rank = len(layout.size_per_thread)
    if rank == 0:
        raise _Invalid("sizePerThread is empty")
    if len({len(v) for v in arrays.values()}) != 1:
        ranks = ", ".join(f"{k} {len(v)}" for k, v in arrays.items())
        raise _Invalid(f"sizePerThread, threadsPerWarp, warpsPerCTA and order must have one rank ({ranks})")
    for name in ("sizePerThread", "threadsPerWarp", "warpsPerCTA"):
        _powers_of_two(name, arrays[name])
    _permutation("order", layout.order, rank)
    _cga(layout.cga, rank)


def _shared_order(layout: SwizzledSharedLayout | AmdRotatingSharedLayout) -> None:
    _permutation("order", layout.order, len(layout.order))
    _cga(layout.cga, len(layout.order))


_LINEAR_DIMS = ("register", "lane", "warp", "block")


def _linear(layout: DistributedLinearLayout, context: LayoutContext | None) -> None:
    if not any(getattr(layout, name) for name in _LINEAR_DIMS):
        raise _Invalid("register, lane, warp and block are all empty (Triton supports no empty linear layout)")
    rank = layout.rank
    for name in _LINEAR_DIMS:
        for basis in getattr(layout, name):
            if len(basis) != rank:
                raise _Invalid(f"{name} basis {_show(basis)} has {len(basis)} entries; the others have {rank}")
    # in Triton's order: the LinearLayout it builds must be surjective (else it aborts), then
    # LinearEncodingAttr::verify, then the counts of the ops using the layout
    _surjective(layout, rank)
    for name in _LINEAR_DIMS:
        # Triton 3.9: a generic_linear layout's warp bases may be swizzled; every other basis moves along one dim
        swizzle_ok = layout.generic and name == "warp"
        for basis in getattr(layout, name):
            if not swizzle_ok and sum(1 for v in basis if v) > 1:
                raise _Invalid(f"{name} basis {_show(basis)} moves along more than one dim ({_PERMUTATION})")
    if not layout.generic:
        _permutation_matrix(layout)
    if context is not None:
        _counts(layout, context)


# Triton 3.9's LinearEncodingAttr::verify, word for word
_PERMUTATION = "Triton: LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases"


def _permutation_matrix(layout: DistributedLinearLayout) -> None:
    """Every basis but the all-zero (broadcast) ones is one power of two along one dim, and no two are equal."""
    seen: dict[tuple[int, ...], str] = {}
    for name in _LINEAR_DIMS:
        for basis in getattr(layout, name):
            if not any(basis):
                continue
            value = max(basis)
            if value & (value - 1):
                raise _Invalid(f"{name} basis {_show(basis)} moves by {value}, not a power of two ({_PERMUTATION})")
            if basis in seen:
                raise _Invalid(f"{name} basis {_show(basis)} repeats a {seen[basis]} basis, so two {name}s hold "
                               f"the same elements and others none ({_PERMUTATION})")
            seen[basis] = name


def _surjective(layout: DistributedLinearLayout, rank: int) -> None:
    """Every element of the bases' tile is reached (Triton's ``LinearLayout`` requires it when it is built).

    Each dim is as large as its largest basis value needs (the next power of two); the bases, read as
    vectors of bits over all dims, must span every bit of that tile (Gaussian elimination over GF(2)).
    """
    bases = [basis for name in _LINEAR_DIMS for basis in getattr(layout, name)]
    widths = [max(basis[d] for basis in bases).bit_length() for d in range(rank)]
    offsets = [sum(widths[:d]) for d in range(rank)]
    pivots: dict[int, int] = {}
    for basis in bases:
        vector = sum(v << offsets[d] for d, v in enumerate(basis))
        while vector:
            top = vector.bit_length() - 1
            if top not in pivots:
                pivots[top] = vector
                break
            vector ^= pivots[top]
    for d in range(rank):
        if any(bit not in pivots for bit in range(offsets[d], offsets[d] + widths[d])):
            raise _Invalid(f"the bases do not reach every index 0..{(1 << widths[d]) - 1} of dim{d} (Triton requires a "
                           "linear layout to cover its whole tile)")


def _counts(layout: DistributedLinearLayout, context: LayoutContext) -> None:
    """As many lane, warp and block bases as the module has threads per warp, warps and CTAs (as powers of 2).

    Triton checks this on the tt/ttg/ttng ops using a layout (``verifyTensorLayout``): fewer bases are refused
    there as much as more; ``parse_layouts`` passes a context only for the aliases such ops use.
    """
    for name, allowed, noun, attr in (("lane", context.threads_per_warp, "thread{} per warp", "ttg.threads-per-warp"),
                                      ("warp", context.num_warps, "warp{} per CTA", "ttg.num-warps"),
                                      ("block", context.num_ctas, "CTA{} per CGA", "ttg.num-ctas")):
        bits = len(getattr(layout, name))
        if allowed and not any(v == 1 << bits for v in allowed):
            count = str(1 << bits) if bits < 64 else f"2^{bits}"
            runs = " or ".join(str(v) for v in sorted(allowed))
            raise _Invalid(f"{name} has {bits} bases, which is {count} {noun.format('' if bits == 0 else 's')}; "
                           f"the module has {runs} ({attr})")


def _check(layout: Layout, context: LayoutContext | None) -> None:
    _integers(layout)
    if isinstance(layout, BlockedLayout):
        _blocked(layout)
    elif isinstance(layout, (NvidiaMmaLayout, AmdMfmaLayout)):
        if not layout.warps_per_cta:
            raise _Invalid("warpsPerCTA is empty")
        _powers_of_two("warpsPerCTA", layout.warps_per_cta)
        _cga(layout.cga, len(layout.warps_per_cta))
        if isinstance(layout, AmdMfmaLayout) and not 0 <= layout.version <= 4:
            raise _Invalid(f"version = {layout.version}: must be in 0..4")
    elif isinstance(layout, AmdWmmaLayout):
        if layout.warps_per_cta is not None:
            _powers_of_two("warpsPerCTA", layout.warps_per_cta)
    elif isinstance(layout, DistributedLinearLayout):
        _linear(layout, context)
    elif isinstance(layout, DotOperandLayout):
        if layout.op_idx not in (0, 1):
            raise _Invalid(f"opIdx = {layout.op_idx}: must be 0 or 1")
        if layout.k_width is not None and layout.k_width & (layout.k_width - 1):
            raise _Invalid(f"kWidth = {layout.k_width}: must be a power of two")
    elif isinstance(layout, SliceLayout):
        rank = layout_rank(layout.parent)
        if rank is not None and not 0 <= layout.dim < rank:
            raise _Invalid(f"dim = {layout.dim}: the parent layout has rank {rank}, so dim must be in 0..{rank - 1}")
    elif isinstance(layout, (SwizzledSharedLayout, AmdRotatingSharedLayout)):
        _shared_order(layout)


def layout_problem(layout: Layout, context: LayoutContext | None = None) -> str | None:
    """Why Triton's verifier would reject ``layout``, in one sentence naming the field; None when valid.

    With ``context`` (the module's warps, threads per warp and CTAs) the counts a layout implies are
    checked against it too.
    """
    if isinstance(layout, OpaqueLayout):
        return None
    try:
        _check(layout, context)
    except _Invalid as exc:
        return str(exc)
    return None
