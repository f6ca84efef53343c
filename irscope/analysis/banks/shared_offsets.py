"""Where each element of a shared-memory buffer lives: tensor coordinate -> element offset.

Triton defines every shared encoding as a map from the element offset in the buffer to the tensor
coordinate it holds (linear over F2: the coordinate of an offset is the XOR of the images of its
set bits). These recipes follow Triton's `swizzledSharedToLinearLayout` and
`nvmmaSharedToLinearLayout` (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp); the inverse,
the offset of a coordinate, is what a bank-conflict model needs. Swizzle, in short: row `r` of a
swizzled buffer stores its column `c` at column `c XOR vec * ((r / perPhase) % maxPhase)`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from irscope.parse.layouts import (
    Layout,
    NVMMASharedLayout,
    PaddedSharedLayout,
    SharedLinearLayout,
    SwizzledSharedLayout,
)

__all__ = ["OffsetMap", "UnsupportedShared", "shared_offset_map", "swizzled_bases"]

Coord = tuple[int, ...]


class UnsupportedShared(ValueError):
    """The shared encoding (or this use of it) has no offset function in irscope."""


def _log2(n: int) -> int:
    if n < 1 or n & (n - 1):
        raise UnsupportedShared(f"{n} is not a power of two")
    return n.bit_length() - 1


@dataclass(frozen=True)
class OffsetMap:
    """Tensor coordinate -> element offset of one shared buffer.

    Attributes:
        shape: the buffer's (allocation) shape.
        bases: image (a coordinate) of each offset bit, lowest first, as Triton defines the encoding.
        padding: (interval, padding) pairs in elements (padded_shared), else empty.
        linear: whether the offset of a XOR of coordinates is the XOR of their offsets (no padding).
    """

    shape: tuple[int, ...]
    bases: tuple[Coord, ...]
    padding: tuple[tuple[int, int], ...] = ()

    @property
    def linear(self) -> bool:
        """True when no padding breaks linearity."""
        return not self.padding

    def __post_init__(self) -> None:
        self._solver()  # validates: raises UnsupportedShared when the bases do not fit the shape

    def _pack(self, coord: Sequence[int]) -> int:
        packed, shift = 0, 0
        for value, size in zip(coord, self.shape, strict=True):
            packed |= (value % size) << shift
            shift += _log2(size)
        return packed

    def _solver(self) -> dict[int, tuple[int, int]]:
        """pivot bit -> (packed coordinate vector, offset bits that XOR to it), by F2 elimination."""
        cached: dict[int, tuple[int, int]] | None = self.__dict__.get("_pivots")
        if cached is not None:
            return cached
        for size in self.shape:
            _log2(size)
        pivots: dict[int, tuple[int, int]] = {}
        for bit, basis in enumerate(self.bases):
            if len(basis) != len(self.shape) or any(v < 0 or v >= s for v, s in zip(basis, self.shape, strict=True)):
                raise UnsupportedShared(f"offset basis {list(basis)} does not fit shape {list(self.shape)}")
            vec, combo = self._pack(basis), 1 << bit
            while vec:
                top = vec.bit_length() - 1
                if top not in pivots:
                    pivots[top] = (vec, combo)
                    break
                vec ^= pivots[top][0]
                combo ^= pivots[top][1]
        object.__setattr__(self, "_pivots", pivots)
        return pivots

    def offset(self, coord: Sequence[int]) -> int | None:
        """The element offset holding `coord` (padding included), or None if no offset holds it."""
        target = self._pack(coord)
        combo = 0
        pivots = self._solver()
        while target:
            top = target.bit_length() - 1
            if top not in pivots:
                return None
            target ^= pivots[top][0]
            combo ^= pivots[top][1]
        for interval, pad in self.padding:
            combo += (combo >> _log2(interval)) * pad
        return combo


def swizzled_bases(shape: Sequence[int], vec: int, per_phase: int, max_phase: int, order: Sequence[int]) -> list[Coord]:
    """Offset-bit images of a swizzled buffer: columns (order[0]) first, then swizzled rows, then outer dims."""
    rank = len(shape)
    if sorted(order) != list(range(rank)):
        raise UnsupportedShared(f"order {list(order)} is not a permutation of the {rank} dims")
    if min(vec, per_phase, max_phase) < 1:
        raise UnsupportedShared("vec, perPhase and maxPhase must be positive")

    def unit(dim: int, value: int) -> Coord:
        return tuple(value if d == dim else 0 for d in range(rank))

    if rank == 1:
        return [unit(0, 1 << i) for i in range(_log2(shape[0]))]
    col, row = order[0], order[1]
    bases = [unit(col, 1 << i) for i in range(_log2(shape[col]))]
    for i in range(_log2(shape[row])):
        r = 1 << i
        swizzle = (vec * ((r // per_phase) % max_phase)) % shape[col]
        bases.append(tuple(r if d == row else swizzle if d == col else 0 for d in range(rank)))
    for dim in order[2:]:
        bases += [unit(dim, 1 << i) for i in range(_log2(shape[dim]))]
    return bases


def _nvmma_bases(layout: NVMMASharedLayout, shape: Sequence[int]) -> list[Coord]:
    """Triton's nvmma_shared: 8-row core tiles of `swizzlingByteWidth` bytes, rows first, then more tiles."""
    rank = len(shape)
    if layout.fp4_padded:
        raise UnsupportedShared("fp4-padded nvmma_shared buffers are not modelled")
    if layout.element_bit_width not in (8, 16, 32, 64) or rank < 1:
        raise UnsupportedShared(f"nvmma_shared with elementBitWidth {layout.element_bit_width} on a rank-{rank} buffer")
    if layout.transposed and rank != 2:
        raise UnsupportedShared("transposed nvmma_shared buffers of rank other than 2 are not modelled")
    if not layout.swizzling_byte_width:
        # Unswizzled: the TMA block walks the contiguous dim first, then the others innermost first;
        # the rest of the buffer is added innermost dim first.
        contig = 0 if layout.transposed else rank - 1
        block = [min(s, 256) for s in shape]
        bases = []
        for dim in [contig] + [d for d in range(rank - 1, -1, -1) if d != contig]:
            bases += [tuple(1 << i if d == dim else 0 for d in range(rank)) for i in range(_log2(block[dim]))]
        extend = list(range(rank - 1, -1, -1))
    elif layout.transposed:
        # one TMA block of the transposed shape, each basis with its coordinates swapped (as Triton builds it)
        plain, block = _nvmma_block(layout, list(shape[::-1]))
        bases, block, extend = [(b[1], b[0]) for b in plain], block[::-1], [0, 1]
    else:
        bases, block = _nvmma_block(layout, list(shape))
        extend = list(range(rank))
    # then the rest of the buffer beyond one TMA block (ensureLayoutNotSmallerThan)
    for dim in extend:
        if shape[dim] > block[dim]:
            bases += [tuple(block[dim] << i if d == dim else 0 for d in range(rank))
                      for i in range(_log2(shape[dim] // block[dim]))]
    return bases


def _nvmma_block(layout: NVMMASharedLayout, shape: list[int]) -> tuple[list[Coord], list[int]]:
    """Offset bases of one TMA block of a non-transposed nvmma_shared buffer, and the block's shape."""
    rank = len(shape)
    bits, swizzle = layout.element_bit_width, layout.swizzling_byte_width
    contig = rank - 1
    block = [min(s, 256) for s in shape]
    if swizzle:
        width = 8 * swizzle // bits
        if block[contig] < width:
            raise UnsupportedShared(f"{block[contig]} elements along the contiguous dim is below the "
                                    f"{swizzle}-byte swizzle width ({width})")
        block[contig] = width

    def unit(dim: int, value: int) -> Coord:
        return tuple(value if d == dim else 0 for d in range(rank))

    bases: list[Coord] = []
    if rank == 1:
        return [unit(0, 1 << i) for i in range(_log2(block[0]))], block
    vec, per_phase, max_phase = 128 // bits, 128 // swizzle, swizzle // 16
    # The other dims are the rows of the TMA block, the innermost of them fastest; rows 1, 2, 4 swizzle.
    bases += [unit(contig, 1 << i) for i in range(_log2(block[contig]))]
    row_bits = [(d, 1 << i) for d in range(rank - 2, -1, -1) for i in range(_log2(block[d]))]
    for n, (dim, value) in enumerate(row_bits):
        r = 1 << n
        col = vec * ((r // per_phase) % max_phase) if r < 8 else 0
        bases.append(tuple(value if d == dim else col if d == contig else 0 for d in range(rank)))
    return bases, block


def _padded(layout: PaddedSharedLayout, shape: Sequence[int]) -> OffsetMap:
    rank = len(shape)
    if layout.offset_bases:
        bases = [tuple(b) for b in layout.offset_bases]
    else:
        order = layout.order or tuple(range(rank - 1, -1, -1))
        bases = []
        for dim in order:
            bases += [tuple(1 << i if d == dim else 0 for d in range(rank)) for i in range(_log2(shape[dim]))]
    for interval, pad in layout.intervals:
        _log2(interval)
        if pad and pad & (pad - 1):
            raise UnsupportedShared(f"padding {pad} is not a power of two")
    return OffsetMap(tuple(shape), tuple(bases), tuple(layout.intervals))


def shared_offset_map(layout: Layout, shape: Sequence[int]) -> OffsetMap:
    """The offset function of a shared encoding over a buffer of `shape` (its allocation shape).

    Raises UnsupportedShared for encodings whose offsets irscope does not model (AMD rotating,
    partitioned, fp4-padded, CTA-split buffers) or parameters Triton would reject.
    """
    shape = tuple(int(s) for s in shape)
    for size in shape:
        _log2(size)
    cga = getattr(layout, "cga", None)
    if cga is not None and cga.num_ctas > 1:
        raise UnsupportedShared("buffers split over the CTAs of a cluster are not modelled")
    builders: dict[type, Callable[[], OffsetMap]] = {
        SwizzledSharedLayout: lambda: _swizzled(layout, shape),
        NVMMASharedLayout: lambda: OffsetMap(shape, tuple(_nvmma_bases(layout, shape))),  # type: ignore[arg-type]
        SharedLinearLayout: lambda: OffsetMap(shape, tuple(tuple(b) for b in layout.offset_bases)),  # type: ignore[attr-defined]
        PaddedSharedLayout: lambda: _padded(layout, shape),  # type: ignore[arg-type]
    }
    build = builders.get(type(layout))
    if build is None:
        raise UnsupportedShared(f"{layout.kind} shared memory is not modelled")
    return build()


def _swizzled(layout: Layout, shape: tuple[int, ...]) -> OffsetMap:
    assert isinstance(layout, SwizzledSharedLayout)
    if layout.has_leading_offset:
        raise UnsupportedShared("the old hasLeadingOffset (MMAv3) form of #shared is not modelled")
    if len(layout.order) != len(shape):
        raise UnsupportedShared(f"order {list(layout.order)} does not match a rank-{len(shape)} buffer")
    return OffsetMap(shape, tuple(swizzled_bases(shape, layout.vec, layout.per_phase, layout.max_phase, layout.order)))
