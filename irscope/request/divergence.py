"""The first divergence of two captures: their per-pass dumps (compiled on a miss) searched pass by pass, then
their lower stages, with what moved per kernel line (irscope.analysis.divergence does the comparing)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from irscope.analysis.divergence import (
    Divergence,
    line_deltas,
    lower_pass_divergence,
    pass_divergence,
    stage_divergence,
)
from irscope.analysis.sourcemap import map_stage
from irscope.errors import StoreError
from irscope.model.stages import get_stage
from irscope.store.passdump import PassDump
from irscope.store.store import Capture
from irscope.toolchain.stages import read_stage

__all__ = ["LOWER_STAGES", "first_divergence"]

# The stages below the MLIR pipeline, compared in order when every MLIR pass agrees.
LOWER_STAGES = {"cuda": ("llir", "ptx", "sass"), "hip": ("llir", "amdgcn")}
# The lower stages in which LLVM runs passes of its own (the optimizer; the code generator), searched pass by pass.
_LLVM_PASS_STAGES = ("llir", "ptx", "amdgcn")
# The listings whose instructions are counted per kernel line at a lower-stage divergence.
_LINE_STAGES = {"cuda": ("sass", "ptx"), "hip": ("amdgcn",)}


def _reader(capture: Capture) -> Callable[[str], str]:
    backend = capture.manifest.backend

    def read(stage: str) -> str:
        return read_stage(capture, get_stage(stage, backend))

    return read


def _per_line(left: Capture, right: Capture, stage: str) -> list:
    """What moved per kernel line in the listings at and below ``stage``."""
    backend = left.manifest.backend
    order = LOWER_STAGES.get(backend, ())
    chosen = [s for s in _LINE_STAGES.get(backend, ()) if s in order and order.index(s) >= order.index(stage)]
    try:
        source = left.read("source").splitlines()
    except StoreError:
        source = []
    out = []
    for name in chosen:
        ma, mb = map_stage(left, name), map_stage(right, name)
        if not ma.lines or not mb.lines:
            continue
        out += line_deltas(name, [(m.line, m.opcode) for m in ma.lines], [(m.line, m.opcode) for m in mb.lines],
                           source)
    return out


def _unchanged(dump: PassDump) -> frozenset[int]:
    """The passes the dump's cached pass table (when current) says left the IR as it was; none when not cached."""
    from irscope.request.passdump import EFFECTS_VERSION, read_effects

    cached = read_effects(dump.path.parent, dump.info.flavour, dump.info.file)
    if cached is None or cached.version != EFFECTS_VERSION:
        return frozenset()
    return frozenset(r["index"] for r in cached.rows if r.get("status") == "unchanged" and not r.get("step")
                     and isinstance(r.get("index"), int))


def _llvm_pass(found: Divergence, llvm_a: Callable[[], PassDump], llvm_b: Callable[[], PassDump]) -> Divergence:
    """A lower stage's divergence narrowed to the first of LLVM's own passes there whose output differs."""
    assert found.stage is not None
    lower = lower_pass_divergence(llvm_a(), llvm_b(), found.stage)
    if lower.level == "pass":
        return replace(lower, note=f"every MLIR pass's output is equal; in {found.stage}, {lower.note}")
    if lower.level == "stage":
        return replace(found, note=f"every MLIR pass's output is equal; in {found.stage}, {lower.note}",
                       effect=lower.effect or found.effect, dump="llvm")
    return found  # LLVM's passes agree: the difference is in what no pass prints (the asm printer's text)


def first_divergence(left: Capture, right: Capture, dump_a: Callable[[], PassDump],
                     dump_b: Callable[[], PassDump], llvm_a: Callable[[], PassDump] | None = None,
                     llvm_b: Callable[[], PassDump] | None = None) -> Divergence:
    """Where ``right`` first differs from ``left``: an MLIR pass, the frontend's first IR, a lower stage (and, given
    ``llvm_a``/``llvm_b``, the first of LLVM's own passes there), or none.

    ``dump_a``/``dump_b`` give each side's per-pass dump, ``llvm_a``/``llvm_b`` the dump with LLVM's passes too
    (each compiled when the store has none; the LLVM ones only when every MLIR pass agrees and a lower stage does not).
    """
    first, second = dump_a(), dump_b()
    found = pass_divergence(first, second, _unchanged(first), _unchanged(second))
    same_backend = left.manifest.backend == right.manifest.backend
    if found.level == "pass" and found.stage == "llir" and same_backend:  # TTGIR agrees: the machine code per line
        return replace(found, lines=tuple(_per_line(left, right, "llir")))
    if found.level != "none":
        return found
    backend = left.manifest.backend
    stages = LOWER_STAGES.get(backend, ("llir",)) if backend == right.manifest.backend else ("llir",)
    mlir = found
    found = stage_divergence(stages, _reader(left), _reader(right), mlir.compared)
    if found.level == "stage" and found.stage in _LLVM_PASS_STAGES and llvm_a is not None and llvm_b is not None:
        found = _llvm_pass(found, llvm_a, llvm_b)
    found = replace(found, effect=(*mlir.effect, *found.effect))
    if found.level in ("stage", "pass") and found.stage is not None and backend == right.manifest.backend:
        return replace(found, lines=tuple(_per_line(left, right, found.stage)))
    return found
