"""What ``irscope diff`` compares: two points of one compilation (stages or passes), or one stage
of two captures (another target or config). Reading here never imports Triton; getting the
captures and the pass dump may compile.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from irscope.analysis.diff import DiffOptions, TextDiff, diff_texts, strip_pass_manager_noise
from irscope.analysis.ir_facts import comparable_llvm, llvm_function
from irscope.analysis.passes import find_pass
from irscope.errors import UsageError
from irscope.model.stages import STAGE_NAMES, get_stage
from irscope.parse.passes import PassSnapshot
from irscope.store.passdump import PassDump
from irscope.store.store import Capture
from irscope.toolchain.stages import read_stage

_STAGE_IR = {"ttir": "mlir", "ttgir": "mlir", "llir": "llvm"}


@dataclass(frozen=True)
class IrPoint:
    """One side of a comparison.

    Attributes:
        label: how headers name it (``ttgir``, ``before tritongpu-pipeline (pass 36)``).
        text: the IR.
        ir: ``mlir``, ``llvm``, ``mir`` or ``text``.
        pass_index: the pass it belongs to, when it is one.
        step: whether it is IR printed inside a pass (no aliases, generic names).
    """

    label: str
    text: str
    ir: str
    pass_index: int | None = None
    step: bool = False


def stage_point(capture: Capture, stage: str, label: str = "") -> IrPoint:
    """A stage of a capture, as stored (SASS made from the cubin included)."""
    st = get_stage(stage, capture.manifest.backend)
    return IrPoint(label=label or st.name, text=read_stage(capture, st), ir=_STAGE_IR.get(st.name, "text"))


def _pass_text(dump: PassDump, p: PassSnapshot, section: int | None, side: str) -> str:
    if section is None:
        raise UsageError(f"the dump does not hold the IR {side} pass {p.index} ({p.label}); "
                         "it is the last of its kind before a change of representation")
    text = dump.body(section)
    return llvm_function(text, p.scope) if p.scope else text


def pass_point(dump: PassDump, spec: str, side: str) -> IrPoint:
    """The IR before (``side='before'``) or after (``'after'``) the pass a user names."""
    p = find_pass(dump.index, spec)
    section = p.input if side == "before" else p.output
    label = f"{side} {p.label} (pass {p.index}, {p.stage or 'stage ?'})"
    printed_in_pass = section in {s.section for s in dump.index.steps}
    return IrPoint(label=label, text=_pass_text(dump, p, section, side), ir=p.ir, pass_index=p.index,
                   step=printed_in_pass)


def is_stage(spec: str) -> bool:
    """Whether a --from/--to value names a stage rather than a pass."""
    return spec.lower() in STAGE_NAMES


def resolve_points(capture: Capture, start: str, end: str,
                   get_dump: Callable[[], PassDump]) -> tuple[IrPoint, IrPoint]:
    """The two points of ``--from start --to end``: a stage is its artifact, a pass its input (from) or output (to)."""
    left = stage_point(capture, start) if is_stage(start) else pass_point(get_dump(), start, "before")
    right = stage_point(capture, end) if is_stage(end) else pass_point(get_dump(), end, "after")
    if left.pass_index is not None and right.pass_index is not None and right.pass_index < left.pass_index:
        raise UsageError(f"--to {end} (pass {right.pass_index}) runs before --from {start} (pass {left.pass_index})")
    return left, right


def diff_points(left: IrPoint, right: IrPoint, options: DiffOptions) -> TextDiff:
    """The diff between two points; MLIR printed two ways (a pass's internal steps) compares by structure."""
    ir = left.ir if left.ir == right.ir else "text"
    if ir == "mlir" and left.step != right.step:
        options = replace(options, inline_aliases=True, erase_ssa=True)
    a, b = left.text, right.text
    if ir == "llvm":
        a, b, _ = comparable_llvm(strip_pass_manager_noise(a), strip_pass_manager_noise(b))
    return diff_texts(a, b, left.label, right.label, ir=ir, options=options)


def renumbering_ignored(printed: TextDiff, normalised: Callable[[], TextDiff]) -> TextDiff:
    """The diff without SSA renumbering (``normalised()``) when that leaves at most half of the changed lines (the
    TUI's rule), else the diff as printed."""
    changed = printed.added + printed.removed
    if not changed or 4 * min(printed.added, printed.removed) < changed:  # renumbering cannot be half of it
        return printed
    other = normalised()
    return other if 2 * (other.added + other.removed) <= changed else printed
