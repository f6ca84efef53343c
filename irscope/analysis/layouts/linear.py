"""Linear layouts: maps from hardware indices to tensor coordinates, linear over F2 (XOR).

A distributed layout sends each (register, lane, warp, block) index to a tensor coordinate. Written
in binary, every input bit contributes a fixed output vector (its *basis*), and the image of an
index is the XOR of the bases of its set bits. Every Triton distributed layout is one of these, so
one small algebra covers them all: products that stack layouts, transposition of output dims, and
the resizing Triton applies when a layout's tile is larger or smaller than the tensor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "IN_DIMS",
    "LinearLayout",
    "dim_names",
    "ensure_not_larger",
    "ensure_not_smaller",
    "identity_nd",
    "matrix_order",
]

Basis = tuple[int, ...]
# The input dims of a distributed layout, in the order Triton's printers walk them (minor first).
IN_DIMS = ("register", "lane", "warp", "block")


def dim_names(rank: int) -> tuple[str, ...]:
    """The standard output dim names `dim0 .. dim{rank-1}`."""
    return tuple(f"dim{i}" for i in range(rank))


def _log2(n: int) -> int:
    if n < 1 or n & (n - 1):
        raise ValueError(f"{n} is not a power of two")
    return n.bit_length() - 1


@dataclass(frozen=True)
class LinearLayout:
    """A linear map over F2 from named input dims to named output dims.

    Attributes:
        bases: per input dim, in order, the image of each of its bits (one int per output dim).
        out_dims: output dim names in order, with their sizes (powers of two).
    """

    bases: tuple[tuple[str, tuple[Basis, ...]], ...]
    out_dims: tuple[tuple[str, int], ...]

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def empty(cls) -> LinearLayout:
        """The layout with no input and no output dims (the unit of `*`)."""
        return cls((), ())

    @classmethod
    def identity_1d(cls, size: int, in_dim: str, out_dim: str) -> LinearLayout:
        """`in_dim` index i maps to `out_dim` coordinate i, for i < size."""
        bits = _log2(size)
        return cls(((in_dim, tuple((1 << i,) for i in range(bits))),), ((out_dim, size),))

    @classmethod
    def zeros_1d(cls, size: int, in_dim: str, out_dim: str) -> LinearLayout:
        """Every `in_dim` index maps to coordinate 0 of `out_dim` (broadcast)."""
        bits = _log2(size)
        return cls(((in_dim, tuple((0,) for _ in range(bits))),), ((out_dim, 1),))

    @classmethod
    def from_bases(
        cls, bases: Mapping[str, Sequence[Sequence[int]]], out_names: Sequence[str], sizes: Sequence[int] | None = None
    ) -> LinearLayout:
        """Build from explicit bases; out sizes default to the smallest powers of two that hold them."""
        rank = len(out_names)
        items = []
        for name, vectors in bases.items():
            rows = tuple(tuple(int(v) for v in vec) for vec in vectors)
            if any(len(row) != rank for row in rows):
                raise ValueError(f"{name} bases must have {rank} entries each")
            items.append((name, rows))
        if sizes is None:
            highest = [0] * rank
            for _, rows in items:
                for row in rows:
                    for i, v in enumerate(row):
                        highest[i] = max(highest[i], v)
            sizes = [1 << h.bit_length() for h in highest]
        return cls(tuple(items), tuple(zip(out_names, (int(s) for s in sizes), strict=True)))

    # -- inspection ---------------------------------------------------------------------------

    @property
    def in_names(self) -> tuple[str, ...]:
        """Input dim names in order."""
        return tuple(name for name, _ in self.bases)

    @property
    def out_names(self) -> tuple[str, ...]:
        """Output dim names in order."""
        return tuple(name for name, _ in self.out_dims)

    @property
    def out_shape(self) -> tuple[int, ...]:
        """Output dim sizes in order."""
        return tuple(size for _, size in self.out_dims)

    def in_bases(self, name: str) -> tuple[Basis, ...]:
        """Bases of one input dim (empty when the dim is absent)."""
        for dim, rows in self.bases:
            if dim == name:
                return rows
        return ()

    def in_size(self, name: str) -> int:
        """Number of indices of one input dim (1 when absent)."""
        return 1 << len(self.in_bases(name))

    def out_size(self, name: str) -> int:
        """Size of one output dim."""
        for dim, size in self.out_dims:
            if dim == name:
                return size
        raise KeyError(name)

    def apply(self, inputs: Mapping[str, int]) -> tuple[int, ...]:
        """Tensor coordinate (in `out_names` order) of one hardware index."""
        out = [0] * len(self.out_dims)
        for name, rows in self.bases:
            index = inputs.get(name, 0)
            bit = 0
            while index:
                if index & 1:
                    for i, v in enumerate(rows[bit]):
                        out[i] ^= v
                index >>= 1
                bit += 1
        return tuple(out)

    def images(self, name: str) -> list[tuple[int, ...]]:
        """Images of every index of one input dim, with the other input dims at 0."""
        rows = self.in_bases(name)
        table = [tuple(0 for _ in self.out_dims)]
        for row in rows:
            table += [tuple(a ^ b for a, b in zip(prev, row, strict=True)) for prev in table]
        return table

    # -- algebra ------------------------------------------------------------------------------

    def __mul__(self, outer: LinearLayout) -> LinearLayout:
        """Stack `outer` above `self`: shared dims concatenate, `outer` taking the higher bits."""
        inner = self
        out_names = list(inner.out_names) + [n for n in outer.out_names if n not in inner.out_names]
        out_log = {n: 0 for n in out_names}
        for n, s in inner.out_dims:
            out_log[n] += _log2(s)
        shift = dict(out_log)
        for n, s in outer.out_dims:
            out_log[n] += _log2(s)
        in_names = list(inner.in_names) + [n for n in outer.in_names if n not in inner.in_names]
        position = {n: i for i, n in enumerate(out_names)}
        new_bases = []
        for name in in_names:
            rows: list[Basis] = []
            for row in inner.in_bases(name):
                vec = [0] * len(out_names)
                for n, v in zip(inner.out_names, row, strict=True):
                    vec[position[n]] = v
                rows.append(tuple(vec))
            for row in outer.in_bases(name):
                vec = [0] * len(out_names)
                for n, v in zip(outer.out_names, row, strict=True):
                    vec[position[n]] = v << (shift[n] if n in inner.out_names else 0)
                rows.append(tuple(vec))
            new_bases.append((name, tuple(rows)))
        return LinearLayout(tuple(new_bases), tuple((n, 1 << out_log[n]) for n in out_names))

    def transpose_outs(self, order: Sequence[str]) -> LinearLayout:
        """The same map with its output dims listed in `order` (a permutation of `out_names`)."""
        if sorted(order) != sorted(self.out_names):
            raise ValueError(f"{list(order)} is not a permutation of {list(self.out_names)}")
        pick = [self.out_names.index(n) for n in order]
        bases = tuple((name, tuple(tuple(row[i] for i in pick) for row in rows)) for name, rows in self.bases)
        sizes = dict(self.out_dims)
        return LinearLayout(bases, tuple((n, sizes[n]) for n in order))

    def with_in_bases(self, name: str, rows: Iterable[Basis]) -> LinearLayout:
        """A copy with the bases of input dim `name` replaced (appended when absent)."""
        rows = tuple(rows)
        if name in self.in_names:
            bases = tuple((n, rows if n == name else r) for n, r in self.bases)
        else:
            bases = (*self.bases, (name, rows))
        return LinearLayout(bases, self.out_dims)

    def with_out_sizes_from_bases(self) -> LinearLayout:
        """A copy whose output sizes are the smallest powers of two that hold every basis."""
        return LinearLayout.from_bases(dict(self.bases), self.out_names)


def identity_nd(in_dim: str, shape: Sequence[int], order: Sequence[int]) -> LinearLayout:
    """`in_dim` walks `shape` with dim order[0] fastest; output dims are listed in `order`."""
    names = dim_names(len(shape))
    result = LinearLayout.empty()
    for dim in order:
        result = result * LinearLayout.identity_1d(shape[dim], in_dim, names[dim])
    return result


def matrix_order(rank: int, row_major: bool) -> tuple[int, ...]:
    """Fastest-first dim order of a (batch of) matrices: [rank-1, ..., 0], first two swapped if column-major."""
    order = list(range(rank - 1, -1, -1))
    if not row_major and rank >= 2:
        order[0], order[1] = order[1], order[0]
    return tuple(order)


def ensure_not_smaller(layout: LinearLayout, shape: Mapping[str, int]) -> LinearLayout:
    """Grow each output dim to `shape` by adding register bits (the tile repeats in registers).

    The first input dim (`register`, or `offset` for shared layouts) receives the new bits; output
    dims are visited in the layout's own out-dim order, so the first one listed repeats fastest.
    """
    if not layout.bases:
        return layout
    reg = layout.in_names[0]
    result = layout
    for name in layout.out_names:
        have, want = layout.out_size(name), shape[name]
        if want > have:
            result = result * LinearLayout.identity_1d(want // have, reg, name)
    return result


def ensure_not_larger(
    layout: LinearLayout, shape: Mapping[str, int], broadcast_registers: bool = True
) -> LinearLayout:
    """Shrink each output dim to `shape` by zeroing its largest bases (those threads then replicate).

    With `broadcast_registers=False`, register bases that would be zeroed are dropped instead.
    """
    rows = {name: [list(r) for r in bases] for name, bases in layout.bases}
    dropped: set[int] = set()
    for index, (name, size) in enumerate(layout.out_dims):
        want = shape[name]
        if size <= want:
            continue
        candidates = [
            (rows[in_name][b][index], in_name, b)
            for in_name, _ in layout.bases
            for b in range(len(rows[in_name]))
            if rows[in_name][b][index] != 0
        ]
        # Every basis that reaches past the shape goes: with distinct power-of-two bases these are the
        # log2(size / want) largest (as Triton zeroes them); a basis repeated (a linear layout may repeat
        # one) goes with its twin, or the twin would point past the shape.
        for value, in_name, b in candidates:
            if value < want:
                continue
            if not broadcast_registers and in_name == "register":
                dropped.add(b)
            else:
                rows[in_name][b][index] = 0
    new = []
    for name, _ in layout.bases:
        kept = [tuple(r) for b, r in enumerate(rows[name]) if not (name == "register" and b in dropped)]
        new.append((name, tuple(kept)))
    sizes = [min(size, shape[name]) for name, size in layout.out_dims]
    return LinearLayout(tuple(new), tuple(zip(layout.out_names, sizes, strict=True)))
