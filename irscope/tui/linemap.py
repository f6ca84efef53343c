"""Which rows of a shown IR came from which line of the kernel's Python source, and back.

The mapping itself is irscope.analysis.sourcemap's (``loc(...)`` in TTIR/TTGIR and MLIR pass snapshots,
``!dbg`` in LLVM IR, ``.loc`` in PTX and AMDGCN, nvdisasm's ``-gi`` comments for SASS); this module
turns its tables into row sets for the views. Triton's ``.sass`` file has no line information, so its
rows are matched instruction by instruction to nvdisasm's listing of the same cubin.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from irscope.errors import StoreError
from irscope.store.store import Capture
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

# Example: --:-:1:-:1	LDC.64 R2, c[0x0][0x228];     (Triton's .sass: control codes, a tab, the instruction)
_SASS_ROW = re.compile(r"^(?:[\w-]+:){4}[\w-]+\s+(?P<text>\S.*)$")
# Example: BRA `(.L_x_0)    /    BRA LBB0     (the two disassemblers name branch targets differently)
_BRANCH_TARGET = re.compile(r"(\bBRA(?:\.[\w]+)*\s+)(?:`\(\.L\w+\)|LBB\w+|\.L\w+)")
_SPACES = re.compile(r"\s+")


def _sass_key(text: str) -> str:
    """An instruction as both disassemblers print it: spaces collapsed, no ``;``, branch targets unnamed."""
    text = _SPACES.sub(" ", text).strip().rstrip(";").rstrip()
    return _BRANCH_TARGET.sub(r"\1@", text)


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
    """The map of a shown document to the kernel's source (empty where there is none).

    Raises:
        StoreError: the stage has positions but none could be read (nvdisasm missing, for SASS).
    """
    from irscope.analysis.sourcemap import map_mlir, map_stage

    kernel_file = capture.manifest.kernel_path
    ref = document.ref
    stored = document.full or document  # maps number the stored text's lines; the rows shown may hide some
    if ref.pass_index is not None:
        if document.ir != "mlir":
            return EMPTY
        return shown_rows(from_stage_map(map_mlir(ref.stage, stored.text, kernel_file)), document)
    if ref.stage == "source":
        return EMPTY
    smap = map_stage(capture, ref.stage)
    if not smap.lines and smap.problems:  # nothing could be mapped: say why (the side panel shows it)
        raise StoreError(smap.problems[0])
    if ref.stage == "sass":
        return sass_rows(document, smap)
    return shown_rows(from_stage_map(smap), document)


def shown_rows(lmap: LineMap, document: Document) -> LineMap:
    """A map of the stored text's rows as the rows ``document`` shows (its hidden location lines map nowhere)."""
    if not document.numbers:
        return lmap
    row_of = {number - 1: row for row, number in enumerate(document.numbers)}
    to_source = {row_of[r]: line for r, line in lmap.to_source.items() if r in row_of}
    from_source = {line: shown for line, rows in lmap.from_source.items()
                   if (shown := tuple(row_of[r] for r in rows if r in row_of))}
    return LineMap(to_source=to_source, from_source=from_source, origin=lmap.origin)


def sass_rows(document: Document, smap: StageMap) -> LineMap:
    """Map Triton's ``.sass`` rows through nvdisasm's listing of the same cubin (``smap``).

    Both list the instructions in address order; they differ in spacing, control codes and the names of
    branch targets, so instructions are compared with those taken out and aligned in order.
    """
    rows = [(row, _sass_key(m["text"])) for row, line in enumerate(document.lines)
            if (m := _SASS_ROW.match(line)) is not None]
    listed = [_sass_key(m.text) for m in smap.lines]
    matcher = difflib.SequenceMatcher(None, [key for _, key in rows], listed, autojunk=False)
    lines = []
    for a, b, size in matcher.get_matching_blocks():
        lines += [replace(smap.lines[b + k], number=rows[a + k][0] + 1) for k in range(size)]
    origin = f"{smap.origin}, matched to Triton's .sass instruction by instruction" if lines else ""
    return from_stage_map(replace(smap, lines=tuple(lines), origin=origin))
