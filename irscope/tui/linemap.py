"""Which rows of a shown IR came from which line of the kernel's Python source, and back.

The mapping itself is irscope.analysis.sourcemap's (``loc(...)`` in TTIR/TTGIR and MLIR pass snapshots,
``!dbg`` in LLVM IR, ``.loc`` in PTX and AMDGCN); this module turns its tables into row sets for the
views. Triton's ``.sass`` file has no line information and lists instructions in another order than
nvdisasm's listing that the source map reads, so SASS rows are not mapped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from irscope.store import Capture
from irscope.tui.documents import Document

if TYPE_CHECKING:
    from irscope.analysis.sourcemap import StageMap


@dataclass(frozen=True)
class LineMap:
    """Source lines and IR rows that correspond.

    Attributes:
        to_source: IR row (0-based) -> kernel source line (1-based) it counts for.
        from_source: kernel source line (1-based) -> IR rows (0-based) it produced, directly or through a call.
        origin: where the positions come from, in words ('' when the document has no map).
    """

    to_source: dict[int, int] = field(default_factory=dict)
    from_source: dict[int, tuple[int, ...]] = field(default_factory=dict)
    origin: str = ""

    def __bool__(self) -> bool:
        return bool(self.to_source)


EMPTY = LineMap()


def from_stage_map(smap: StageMap) -> LineMap:
    """Row sets from a stage's source map."""
    to_source: dict[int, int] = {}
    from_source: dict[int, list[int]] = {}
    for m in smap.lines:
        if m.line is None or m.number < 1:
            continue
        row = m.number - 1
        to_source[row] = m.line
        for line in (m.line, *m.via):
            from_source.setdefault(line, []).append(row)
    return LineMap(to_source=to_source, from_source={k: tuple(sorted(set(v))) for k, v in from_source.items()},
                   origin=smap.origin)


def line_map(capture: Capture, document: Document) -> LineMap:
    """The map of a shown document to the kernel's source (empty where there is none)."""
    from irscope.analysis.sourcemap import map_mlir, map_stage

    kernel_file = capture.manifest.kernel_path
    ref = document.ref
    if ref.pass_index is not None:
        if document.ir != "mlir":
            return EMPTY
        return from_stage_map(map_mlir(ref.stage, document.text, kernel_file))
    if ref.stage in ("source", "sass"):
        return EMPTY
    return from_stage_map(map_stage(capture, ref.stage))
