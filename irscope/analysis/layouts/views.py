"""Who holds what: the tensor view and the hardware view of a distributed layout for one shape."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from irscope.analysis.layouts.linear import IN_DIMS, LinearLayout
from irscope.analysis.layouts.to_linear import UnsupportedLayout, to_linear_layout
from irscope.parse.layouts import Layout

__all__ = ["MAX_SLOTS", "Holder", "LayoutGrid", "LayoutTooLarge", "check_slots", "layout_grid"]

# Hardware slots (registers x lanes x warps x blocks) and tensor elements a grid evaluates at most by
# default: a 1024x1024 tensor. Larger maps are refused before anything is enumerated.
MAX_SLOTS = 1 << 20


class LayoutTooLarge(UnsupportedLayout):
    """The layout, for this shape, has more slots or elements than a map draws."""


def check_slots(layout: LinearLayout, limit: int = MAX_SLOTS) -> None:
    """Raise LayoutTooLarge when the layout's slots or its tensor's elements exceed ``limit``.

    Counted from the number of bases (a power of two per input dim), so nothing is enumerated.
    """
    bits = sum(len(layout.in_bases(name)) for name in IN_DIMS)
    if bits > 62 or (1 << bits) > limit:
        parts = " x ".join(f"{layout.in_size(n)} {n}s" for n in IN_DIMS if layout.in_bases(n))
        raise LayoutTooLarge(f"it spreads over 2^{bits} hardware slots ({parts}); maps draw at most {limit}")
    elements = 1
    for size in layout.out_shape:
        elements *= size
    if elements > limit:
        raise LayoutTooLarge(f"its tensor has {elements} elements; maps draw at most {limit}")


@dataclass(frozen=True)
class Holder:
    """One hardware slot holding a tensor element.

    Attributes:
        block: CTA index within the cluster.
        warp: warp index within the CTA.
        lane: lane index within the warp.
        register: register index within the thread.
        thread: thread index within the CTA (warp * lanes per warp + lane).
    """

    block: int
    warp: int
    lane: int
    register: int
    thread: int


@dataclass(frozen=True)
class LayoutGrid:
    """A distributed layout evaluated on every hardware slot for one tensor shape.

    Attributes:
        shape: the tensor shape.
        num_blocks: CTAs in the cluster.
        num_warps: warps per CTA.
        lanes: lanes per warp.
        registers: register slots per thread (replicated elements included).
        slot_elements: flat (row-major) element index held by each slot, indexed
            `((block * num_warps + warp) * lanes + lane) * registers + register`.
    """

    shape: tuple[int, ...]
    num_blocks: int
    num_warps: int
    lanes: int
    registers: int
    slot_elements: tuple[int, ...]

    @property
    def num_elements(self) -> int:
        """Elements in the tensor."""
        total = 1
        for s in self.shape:
            total *= s
        return total

    def coords(self, element: int) -> tuple[int, ...]:
        """Tensor coordinate of a flat element index."""
        out = []
        for size in reversed(self.shape):
            out.append(element % size)
            element //= size
        return tuple(reversed(out))

    def slot(self, block: int, warp: int, lane: int, register: int) -> int:
        """Flat element index held by one slot."""
        return self.slot_elements[((block * self.num_warps + warp) * self.lanes + lane) * self.registers + register]

    def holders(self) -> list[list[Holder]]:
        """For each flat element index, the slots holding it, in block/warp/lane/register order."""
        out: list[list[Holder]] = [[] for _ in range(self.num_elements)]
        i = 0
        for b in range(self.num_blocks):
            for w in range(self.num_warps):
                for lane in range(self.lanes):
                    thread = w * self.lanes + lane
                    for r in range(self.registers):
                        out[self.slot_elements[i]].append(Holder(b, w, lane, r, thread))
                        i += 1
        return out

    def replication(self) -> int:
        """How many slots hold each element (the same for every element of a linear layout)."""
        return len(self.slot_elements) // self.num_elements

    def unique_registers(self) -> int:
        """Distinct elements one thread holds (registers minus within-thread duplicates)."""
        return len(set(self.slot_elements[: self.registers]))


def _flat_images(layout: LinearLayout, name: str) -> list[int]:
    """Row-major flat index of the image of every index of one input dim."""
    strides = []
    stride = 1
    for size in reversed(layout.out_shape):
        strides.append(stride)
        stride *= size
    strides.reverse()
    return [sum(c * s for c, s in zip(coord, strides, strict=True)) for coord in layout.images(name)]


def layout_grid(layout: Layout | LinearLayout, shape: Sequence[int]) -> LayoutGrid:
    """Evaluate a distributed layout (or a ready linear layout) on every slot for `shape`.

    Flat indices combine by XOR because every dim size is a power of two, so each input dim's
    images are computed once and mixed per slot. A layout converted here is refused beyond
    MAX_SLOTS (LayoutTooLarge); a caller passing a ready linear layout has bounded it with
    check_slots and its own limit.
    """
    if isinstance(layout, LinearLayout):
        ll = layout
    else:
        ll = to_linear_layout(layout, shape)
        check_slots(ll)
    regs, lanes = _flat_images(ll, "register"), _flat_images(ll, "lane")
    warps, blocks = _flat_images(ll, "warp"), _flat_images(ll, "block")
    slots = [b ^ w ^ lane ^ r for b in blocks for w in warps for lane in lanes for r in regs]
    return LayoutGrid(
        shape=ll.out_shape,
        num_blocks=len(blocks),
        num_warps=len(warps),
        lanes=len(lanes),
        registers=len(regs),
        slot_elements=tuple(slots),
    )
