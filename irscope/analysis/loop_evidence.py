"""A loop's lower-stage evidence: the PTX, SASS or AMDGCN loop that matches a TTGIR loop, and what it holds.

The listing loop is found by the kernel lines the two bodies share; its instructions are counted per class
(see irscope.analysis.instructions.KINDS), and its counts against the PTX loop's (ptxas) or the remainder
blocks LLVM left (``.epil``/``.prol``) tell how many times the loop was unrolled.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from irscope.analysis.instructions import access_bytes, classify, pending_count
from irscope.parse.lineinfo import AsmLoop, Listing
from irscope.parse.mlir_locs import innermost_in

__all__ = ["Evidence", "WaitInfo", "listing_matches", "lower_evidence"]


@dataclass(frozen=True)
class WaitInfo:
    """A wait in a loop.

    Attributes:
        op: the op or instruction.
        pending: how many groups it lets stay in flight, or None when not printed.
        what: what is waited for, in words, singular (``async-copy group``).
        line: where it is (TTGIR line, or line of the listing).
    """

    op: str
    pending: int | None
    what: str
    line: int


@dataclass(frozen=True)
class Evidence:
    """What a lower stage's instructions show for a loop.

    Attributes:
        stage: ``ptx``, ``sass`` or ``amdgcn``.
        label: the loop's header label in that stage, or "" when no loop there matches.
        in_loop: instruction class (see irscope.analysis.instructions.KINDS) -> count in the loop.
        before_loop: instruction class -> count between the previous loop and this one.
        opcodes: instruction class -> the distinct mnemonics seen in the loop.
        waits: the waits in the loop, with their pending counts.
        widest_access: the widest global load or async copy in the loop, in bytes per thread.
        unrolled: SASS: how many iterations of the PTX loop one iteration of this loop runs (ptxas
            unrolled it that many times); 1 when the counts match.
        llvm_unrolled: PTX and AMDGCN: how many iterations of the TTGIR loop one iteration of this loop runs
            (LLVM unrolled it that many times, leaving ``.epil``/``.prol`` blocks for the rest); 1 otherwise.
    """

    stage: str
    label: str
    in_loop: dict[str, int]
    before_loop: dict[str, int]
    opcodes: dict[str, tuple[str, ...]]
    waits: tuple[WaitInfo, ...]
    widest_access: int | None
    unrolled: int = 1
    llvm_unrolled: int = 1


def _asm_lines(listing: Listing, loop: AsmLoop, kernel_file: str) -> set[int]:
    found = set()
    for insn in listing.inside(loop):
        frame = innermost_in(insn.frames, kernel_file)
        if frame:
            found.add(frame.line)
    return found


def listing_matches(ir_loops: list[set[int]], listing: Listing, kernel_file: str) -> list[AsmLoop | None]:
    """For each TTGIR loop (its body's kernel lines), the listing loop with the most similar lines.

    Pairs are taken best first (Jaccard similarity of the line sets, at least 0.2), each listing
    loop at most once: a loop the backend unrolled has no counterpart.
    """
    asm_lines = [_asm_lines(listing, loop, kernel_file) for loop in listing.loops]
    scores = []
    for i, lines in enumerate(ir_loops):
        for j, other in enumerate(asm_lines):
            if lines and other:
                scores.append((len(lines & other) / len(lines | other), i, j))
    chosen: list[AsmLoop | None] = [None] * len(ir_loops)
    taken: set[int] = set()
    for score, i, j in sorted(scores, reverse=True):
        if score >= 0.2 and chosen[i] is None and j not in taken:
            chosen[i] = listing.loops[j]
            taken.add(j)
    return chosen


def _evidence(listing: Listing, found: AsmLoop | None) -> Evidence:
    if found is None:
        return Evidence(listing.stage, "", {}, {}, {}, (), None)
    earlier = [loop.end for loop in listing.loops if loop.end < found.start]
    inside = listing.inside(found)  # SASS's never-executed `@!PT` padding is not among a listing's instructions
    before = listing.between(max(earlier, default=0), found.start - 1)
    in_loop: Counter[str] = Counter()
    opcodes: dict[str, dict[str, None]] = {}
    waits = []
    widest: int | None = None
    for insn in inside:
        kind = classify(insn.opcode)
        if kind is None:
            continue
        in_loop[kind] += 1
        opcodes.setdefault(kind, {})[insn.opcode] = None
        if kind == "wait":
            waits.append(WaitInfo(insn.text, pending_count(insn.text), "", insn.number))
        if kind in ("global_load", "async_copy"):
            width = access_bytes(insn.opcode, insn.text)
            if width is not None:
                widest = max(widest or 0, width)
    before_counts = Counter(k for i in before if (k := classify(i.opcode)) is not None)
    return Evidence(listing.stage, found.label, dict(in_loop), dict(before_counts),
                    {k: tuple(v) for k, v in opcodes.items()}, tuple(waits), widest)


# A PTX instruction of these classes becomes one SASS instruction of the same width, so per-iteration
# counts compare between the two loops (shared loads do not: ptxas merges ld.shared into wider LDS).
_ONE_TO_ONE = ("mma", "async_copy", "global_load", "global_store")


def _unroll_factor(ptx: Evidence, sass: Evidence) -> int:
    """How many PTX iterations one iteration of the SASS loop runs: k when each of its tensor-core, copy
    and global-memory counts is k times the PTX loop's (ptxas unrolled it k times), else 1."""
    if not ptx.label or not sass.label or ptx.widest_access != sass.widest_access:
        return 1
    pairs = [(ptx.in_loop[k], sass.in_loop.get(k, 0)) for k in _ONE_TO_ONE if ptx.in_loop.get(k)]
    factors = {lower // upper if lower % upper == 0 else 0 for upper, lower in pairs}
    return factors.pop() if len(factors) == 1 and min(factors) > 1 else 1


def _llvm_unroll_factor(listing: Listing, found: AsmLoop | None, kernel_file: str) -> int:
    """How many TTGIR iterations one iteration of the listing's loop runs: k when LLVM's unrolling left
    remainder blocks with this loop's kernel lines and each tensor-core, copy and global-memory count in the
    loop is k times the remainder's (one pass through the remainder runs one iteration), else 1."""
    if found is None or not listing.unroll_remainders:
        return 1
    lines = _asm_lines(listing, found, kernel_file)
    rest: Counter[str] = Counter()
    for first, last in listing.unroll_remainders:
        for insn in listing.between(first, last):
            frame = innermost_in(insn.frames, kernel_file)
            kind = classify(insn.opcode)
            if kind in _ONE_TO_ONE and frame and frame.line in lines and not found.contains(insn.number):
                rest[kind] += 1
    inside = Counter(k for i in listing.inside(found) if (k := classify(i.opcode)) in _ONE_TO_ONE)
    factors = {inside[k] // n if inside[k] % n == 0 else 0 for k, n in rest.items()}
    return factors.pop() if len(factors) == 1 and min(factors) > 1 else 1


def _with_unrolling(evidence: tuple[Evidence, ...]) -> tuple[Evidence, ...]:
    """The evidence with the SASS loop's unroll factor against the PTX loop."""
    ptx = next((e for e in evidence if e.stage == "ptx"), None)
    if ptx is None:
        return evidence
    return tuple(replace(e, unrolled=_unroll_factor(ptx, e)) if e.stage == "sass" else e for e in evidence)


def lower_evidence(listings: tuple[Listing, ...], found: list[AsmLoop | None], kernel_file: str
                   ) -> tuple[Evidence, ...]:
    """Per listing, what its loop ``found`` (matched to one TTGIR loop) holds, with LLVM's and ptxas's unrolling."""
    return _with_unrolling(tuple(
        replace(_evidence(listing, loop), llvm_unrolled=_llvm_unroll_factor(listing, loop, kernel_file))
        for listing, loop in zip(listings, found, strict=True)))
