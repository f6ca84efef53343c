"""What a ``ttg.convert_layout`` costs: how far its data has to travel between the two layouts.

Triton lowers a conversion by the smallest part of the hardware the data crosses (the linear layout
``dst^-1 o src`` restricted to the input dims it does not leave alone; ``minimalCvtLayout`` and
``cvtNeedsSharedMemory`` in ``lib/Conversion/TritonGPUToLLVM``): when every thread already holds the elements
it needs, the values are renamed among its registers; when elements only move between lanes of a warp, with
warp shuffles; when they cross warps (or CTAs), through a scratch buffer in shared memory with a barrier. With
both layouts as linear maps over F2 (irscope.analysis.layouts.linear) that is a question of subspaces: the
elements one thread holds are its registers' span shifted by its lane/warp image, so a conversion stays in
the thread when the register spans agree and each lane/warp/block basis differs between the two layouts
only by a register combination (likewise for a warp, with registers and lanes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from irscope.analysis.layouts.linear import LinearLayout
from irscope.analysis.layouts.to_linear import UnsupportedLayout, to_linear_layout
from irscope.parse.layouts import Layout
from irscope.parse.lineinfo import Listing
from irscope.parse.ttgir_ops import SourceLoc, element_bits

__all__ = ["MECHANISMS", "ConversionCost", "MachineEvidence", "Provenance", "conversion_cost", "machine_evidence"]

# What each mechanism means, from cheapest to dearest.
MECHANISMS = {
    "none": "no data moves: both layouts place every element on the same register of the same thread",
    "registers": "each thread already holds the elements it needs: the values are only renamed among its registers",
    "shuffles": "elements move between lanes of the same warp: warp shuffles, no shared memory",
    "shared memory": "elements move between warps: through a shared-memory scratch buffer, with a barrier",
    "unknown": "irscope does not model one of the two layouts",
}
# Example: st.shared.v4.b32 | ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 | shfl.sync.idx.b32 | bar.sync
_MOVES = re.compile(r"^(?:(?P<shared>ld|st)(?:matrix)?\.\S*shared\S*|(?P<shfl>shfl\.sync)\S*"
                    r"|(?P<bar>bar\.sync|barrier\.sync))$")


@dataclass(frozen=True)
class MachineEvidence:
    """The PTX instructions that carry a conversion's source position and move data.

    Attributes:
        shared_stores: ``st.shared`` / ``stmatrix`` instructions.
        shared_loads: ``ld.shared`` / ``ldmatrix`` instructions.
        shuffles: ``shfl.sync`` instructions.
        barriers: ``bar.sync`` / ``barrier.sync`` instructions.
        first_lines: PTX line numbers of the first few of them.
    """

    shared_stores: int
    shared_loads: int
    shuffles: int
    barriers: int
    first_lines: tuple[int, ...]

    def phrase(self) -> str:
        """``PTX at that source line: 4 shared stores, 4 shared loads, 8 bar.sync (lines 186, 187, 196 ...)``."""
        counts = [f"{n} {what}"
                  for n, what in ((self.shared_stores, "shared stores"), (self.shared_loads, "shared loads"),
                                               (self.shuffles, "shfl.sync"), (self.barriers, "bar.sync")) if n]
        if not counts:
            return "its PTX moves nothing through shared memory or shuffles at that source line"
        lines = ", ".join(map(str, self.first_lines[:3])) + (" ..." if len(self.first_lines) > 3 else "")
        return f"PTX at that source line: {', '.join(counts)} (lines {lines})"


@dataclass(frozen=True)
class ConversionCost:
    """How one conversion is carried out, and what it moves.

    Attributes:
        mechanism: one of ``MECHANISMS``: "none", "registers", "shuffles", "shared memory" or "unknown".
        moved_bytes: bytes of the tensor each CTA writes to and reads back from shared memory (0 unless
            "shared memory"): the tensor's size; Triton may cut the scratch buffer smaller and go in rounds.
        reason: one sentence of what the layouts show.
        machine: what the PTX does at the conversion's source line, when the machine code was given.
    """

    mechanism: str
    moved_bytes: int
    reason: str
    machine: MachineEvidence | None = None

    def sentence(self) -> str:
        """The cost as the report prints it."""
        size = f"; moves {self.moved_bytes} bytes per CTA" if self.moved_bytes else ""
        evidence = f"; {self.machine.phrase()}" if self.machine is not None else ""
        return f"{self.mechanism}: {self.reason}{size}{evidence}"


def _flat(coords: Sequence[int], shape: Sequence[int]) -> int:
    """A tensor coordinate as one bit vector (each dim's bits side by side), so XOR of coordinates is XOR of ints."""
    value, shift = 0, 0
    for coord, size in zip(reversed(coords), reversed(shape), strict=True):
        value |= coord << shift
        shift += max(size, 1).bit_length() - 1
    return value


class _Span:
    """A subspace of F2^n kept in echelon form (one vector per leading bit)."""

    def __init__(self, vectors: Iterable[int] = ()) -> None:
        self.rows: dict[int, int] = {}
        for v in vectors:
            self.add(v)

    def reduce(self, v: int) -> int:
        while v:
            top = v.bit_length() - 1
            if top not in self.rows:
                return v
            v ^= self.rows[top]
        return 0

    def add(self, v: int) -> None:
        v = self.reduce(v)
        if v:
            self.rows[v.bit_length() - 1] = v

    def __contains__(self, v: int) -> bool:
        return self.reduce(v) == 0

    def same_as(self, other: _Span) -> bool:
        return all(v in other for v in self.rows.values()) and all(v in self for v in other.rows.values())


def _stays(src: LinearLayout, dst: LinearLayout, shape: Sequence[int], inner: Sequence[str],
           outer: Sequence[str]) -> bool:
    """Whether every element stays within the same ``outer`` index (thread, or warp): the ``inner`` dims span the
    same elements in both layouts, and each ``outer`` basis differs between them only by an ``inner`` combination."""
    span_src = _Span(_flat(b, shape) for dim in inner for b in src.in_bases(dim))
    span_dst = _Span(_flat(b, shape) for dim in inner for b in dst.in_bases(dim))
    if not span_src.same_as(span_dst):
        return False
    for dim in outer:
        ours, theirs = src.in_bases(dim), dst.in_bases(dim)
        if len(ours) != len(theirs):
            return False
        if any(_flat(a, shape) ^ _flat(b, shape) not in span_src for a, b in zip(ours, theirs, strict=True)):
            return False
    return True


def conversion_cost(src: Layout, dst: Layout, shape: Sequence[int], element: str) -> ConversionCost:
    """The cost of converting a ``shape`` tensor of ``element`` from layout ``src`` to layout ``dst``."""
    try:
        a, b = to_linear_layout(src, shape), to_linear_layout(dst, shape)
    except UnsupportedLayout as exc:
        return ConversionCost("unknown", 0, f"{MECHANISMS['unknown']} ({exc})")
    if a.bases == b.bases:
        return ConversionCost("none", 0, MECHANISMS["none"])
    if _stays(a, b, shape, ("register",), ("lane", "warp", "block")):
        return ConversionCost("registers", 0, MECHANISMS["registers"])
    if _stays(a, b, shape, ("register", "lane"), ("warp", "block")):
        return ConversionCost("shuffles", 0, MECHANISMS["shuffles"])
    elements = 1
    for s in shape:
        elements *= s
    return ConversionCost("shared memory", elements * element_bits(element) // 8, MECHANISMS["shared memory"])


def machine_evidence(listing: Listing, loc: SourceLoc | None) -> MachineEvidence | None:
    """The data-moving PTX instructions at ``loc``'s source line (innermost frame), or None without a position."""
    if loc is None:
        return None
    counts = {"st": 0, "ld": 0, "shfl": 0, "bar": 0}
    lines: list[int] = []
    for ins in listing.instructions:
        if not ins.frames or (ins.frames[0].line, ins.frames[0].file.rsplit("/", 1)[-1]) != (
                loc.line, loc.file.rsplit("/", 1)[-1]):
            continue
        match = _MOVES.match(ins.opcode)
        if match is None:
            continue
        kind = match.group("shared") or ("shfl" if match.group("shfl") else "bar")
        counts[kind] += 1
        lines.append(ins.number)
    return MachineEvidence(counts["st"], counts["ld"], counts["shfl"], counts["bar"], tuple(lines))


@dataclass(frozen=True)
class Provenance:
    """Which layouts and conversions of a kernel's final TTGIR its first IR already had.

    Attributes:
        stage: the first IR compared with: ``glir`` (a Gluon kernel's, its layouts as the author wrote them) or
            ``ttir`` (a Triton kernel's, which has no layouts: the compiler chose them all).
        written: labels of the final layouts the first IR already has.
        chosen: labels of the final layouts the compiler chose.
        authored: per conversion of the report, in order: whether the first IR already had it (the author's
            ``gl.convert_layout``) rather than the compiler inserting it.
    """

    stage: str
    written: tuple[str, ...]
    chosen: tuple[str, ...]
    authored: tuple[bool, ...]
