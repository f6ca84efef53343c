"""Which diff of a pass to show first: as printed, or with SSA numbers ignored when renumbering is most of it.

A pass that folds or removes a few ops makes MLIR's printer renumber every value after them
(``%x_12`` -> ``%x_11``), and the diff as printed is mostly those renamed lines (cse on matmul@sm90's
LLVM-dialect IR: 4,353 changed lines, 5 of them more than renumbered). Such a pass's diff opens with
SSA numbers ignored, and says so; ``r`` shows it as printed.

Pure data, no Textual.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from irscope.tui import documents as _documents  # its BIG_DIFF_BYTES read at each call, as the reader reads it
from irscope.tui.documents import DocRef, Documents

if TYPE_CHECKING:
    from irscope.analysis.diff import DiffOptions


@dataclass(frozen=True)
class DiffChoice:
    """The diff to show and why.

    Attributes:
        options: what the diff ignores.
        renumbered: changed lines of the diff as printed that differ only in SSA numbers (0 unless the
            choice was made for the user: ``auto`` and most lines renumbered).
        changed: changed lines of the diff as printed (added + removed).
    """

    options: DiffOptions
    renumbered: int = 0
    changed: int = 0

    @property
    def automatic(self) -> bool:
        """Whether SSA numbers are ignored because renumbering was most of the diff."""
        return self.renumbered > 0


def choose_diff(documents: Documents, ref: DocRef, ignore_ssa: bool | None) -> DiffChoice:
    """The diff of ``ref`` to show: ``ignore_ssa`` True or False as the user asked, None to decide.

    Deciding needs the diff as printed (its size is in the passes' effects, computed when the passes were
    recorded) and the diff without SSA numbers: that one is shown when it has at most half the changed
    lines. Only a pass diff is decided, when its counts allow it (a quarter of its changed lines must be
    removed ones and a quarter added ones, or renumbering cannot be half of it) and it is computed here (not
    in a worker process); may compute a diff, so call it where that is allowed.
    """
    from irscope.analysis.diff import DiffOptions

    if ignore_ssa is not None:
        return DiffChoice(DiffOptions(normalize_ssa=ignore_ssa))
    raw = DiffChoice(DiffOptions())
    if ref.pass_index is None or ref.step:
        return raw
    effect = (documents.effects(ref.key) or {}).get((ref.pass_index, ref.step))
    if effect is None or effect.status != "changed":
        return raw
    changed = effect.added + effect.removed
    if 4 * min(effect.added, effect.removed) < changed or documents.diff_size(ref) > _documents.BIG_DIFF_BYTES:
        return raw
    options = DiffOptions(normalize_ssa=True)
    normalised = documents.cached_diff(ref, options)
    if normalised is None:
        inputs = documents.diff_inputs(ref)
        if isinstance(inputs, str):
            return raw
        normalised = documents.diff(ref, inputs, options)
    left = normalised.added + normalised.removed
    if 2 * left > changed:
        return raw
    return DiffChoice(options, renumbered=changed - left, changed=changed)
