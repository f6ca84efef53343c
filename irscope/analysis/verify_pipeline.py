"""The ``pipeline`` and ``waits`` checks of ``irscope verify``, and the finding every check reports."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from irscope.analysis.instructions import classify, pending_count
from irscope.analysis.loops import LoadStream, Loop
from irscope.parse.lineinfo import Instruction, Listing
from irscope.parse.mlir_locs import innermost_in

AGREE, DISAGREE, UNCHECKED = "agree", "disagree", "unchecked"
# Evidence that cannot be placed: instructions of the class that Triton's line info leaves at line 0.
AT_LINE_0 = "; it has {n} at line 0 (no source line in Triton's line info), which may be this line's"

_PIPELINE_CLASS = {"async": "async_copy", "register": "global_load"}
_WAIT_PTX = {"ttg.async_wait": "cp.async.wait_group", "ttng.warp_group_dot_wait": "wgmma.wait_group"}


@dataclass(frozen=True)
class Finding:
    """One claim checked against a lower stage.

    Attributes:
        topic: ``files``, ``pipeline``, ``waits``, ``mma``, ``registers``, ``shared``, ``lines`` or ``widths``.
        claim: what irscope says, in words (with the source line or loop it is about).
        evidence: what the lower stage shows.
        status: ``agree``, ``disagree`` or ``unchecked`` (then ``evidence`` says why).
    """

    topic: str
    claim: str
    evidence: str
    status: str


def line_of(frames: tuple, kernel_file: str) -> int | None:
    """The kernel file's line among an instruction's or op's source frames (innermost first)."""
    own = innermost_in(frames, kernel_file)
    return own.line if own is not None else None


def loop_name(loop: Loop) -> str:
    """``loop at line N`` (or its TTGIR lines when it has no source line), as findings name it."""
    where = f"line {loop.line}" if loop.line else f"TTGIR lines {loop.ttgir_lines[0]}-{loop.ttgir_lines[1]}"
    return f"loop at {where}"


def asm_loop_instructions(listing: Listing, label: str) -> tuple[list[Instruction], list[Instruction]] | None:
    """(instructions inside the loop, instructions between the previous loop and it), by header label.

    The instructions of loops nested in it are not its own: the TTGIR's counts of a loop leave its
    inner loops' ops out too. Nor are the remainder blocks LLVM's unrolling of an inner loop left inside it
    (``.epil``: the inner loop's left-over iterations; Triton's grouped-GEMM tutorial on gfx942).
    """
    found = next((lp for lp in listing.loops if lp.label == label), None)
    if found is None:
        return None
    earlier = [lp.end for lp in listing.loops if lp.end < found.start]
    nested = [lp for lp in listing.loops if lp is not found and lp.depth > found.depth and found.contains(lp.start)]
    remainders = [(a, b) for a, b in listing.unroll_remainders if found.contains(a)]
    inside = [i for i in listing.inside(found) if not i.text.startswith("@!PT")
              and not any(lp.contains(i.number) for lp in nested)
              and not any(a <= i.number <= b for a, b in remainders)]
    before = [i for i in listing.between(max(earlier, default=0), found.start - 1) if not i.text.startswith("@!PT")]
    return inside, before


def _count(insns: list[Instruction], kind: str, line: int | None, kernel_file: str) -> int:
    return sum(1 for i in insns if classify(i.opcode) == kind
               and (line is None or line_of(i.frames, kernel_file) == line))


def _count_before(before: list[Instruction], kind: str, line: int | None, kernel_file: str) -> int:
    """A line's loads of ``kind`` before a loop; on AMD a copy whose address is the same in every lane
    becomes a scalar load (``s_load``): those count when the line has no vector load there."""
    found = _count(before, kind, line, kernel_file)
    return found or (_count(before, "scalar_load", line, kernel_file) if kind == "global_load" else 0)


def _copies(stream: LoadStream, asm_in: int, unroll: int, peeled: int) -> tuple[Fraction, Fraction]:
    """The fewest and most instructions the copies of ``stream`` before the loop take, by the loop's own.

    A copy takes what one load of the loop takes (``asm_in`` over its loads per iteration); a copy whose
    mask is a constant false may take one: all its lanes read one out-of-range offset, and LLVM merges
    the loads of one address.
    """
    per_load = Fraction(asm_in, stream.in_loop * unroll)
    copies = stream.before_loop + peeled * stream.in_loop
    off = min(stream.masked_off, copies)
    one = per_load if per_load < 1 else Fraction(1)
    return per_load * (copies - off) + one * off, per_load * copies


def _pooled(loop: Loop, inside: list[Instruction], before: list[Instruction], kind: str, kernel_file: str,
            unroll: int, peeled: int) -> tuple[int, int, Fraction, Fraction]:
    """(instructions before the loop on its pipelined loads' lines, at line 0, fewest and most expected).

    Line info may file an instruction under a neighbouring line (LLVM schedules and merges the
    prologue's loads together) or under line 0 (a hoisted load loses its line): the loop's pipelined
    loads of one class are then checked together.
    """
    lines = sorted({s.line for s in loop.loads if s.before_loop and _PIPELINE_CLASS[s.kind] == kind},
                   key=lambda n: n or 0)
    placed = sum(_count_before(before, kind, line, kernel_file) for line in lines)
    nowhere = sum(1 for i in before if not i.frames and classify(i.opcode) == kind)
    low = high = Fraction(0)
    for line in lines:
        streams = [s for s in loop.loads if s.line == line and _PIPELINE_CLASS[s.kind] == kind]
        asm_in = _count(inside, kind, line, kernel_file)
        # Loads of one line in several layouts mix their instructions: the line's loop count is theirs together.
        whole = LoadStream(line, streams[0].kind, sum(s.in_loop for s in streams),
                           sum(s.before_loop for s in streams), 0, None, False,
                           masked_off=sum(s.masked_off for s in streams))
        lo, hi = _copies(whole, asm_in, unroll, peeled)
        low, high = low + lo, high + hi
    return placed, nowhere, low, high


def _siblings(loop: Loop, stream: LoadStream) -> list[LoadStream]:
    """The loop's other load streams of the same source line and class (loads of it in other layouts)."""
    return [s for s in loop.loads if s is not stream and s.line == stream.line
            and _PIPELINE_CLASS[s.kind] == _PIPELINE_CLASS[stream.kind]]


def _shared_line(stream: LoadStream, others: list[LoadStream], claim: str, shown: str, asm_before: int,
                 asm_in: int, unroll: int, peeled: int) -> Finding:
    """A pipelined load whose source line also holds loads in other layouts: their instructions mix.

    When only this one is issued ahead, the instructions before the loop are its own: they give its
    instructions per copy, and what the loop has beyond its own copies must cover the other loads
    (at least one instruction each). With several issued ahead the counts cannot be split.
    """
    where = f"line {stream.line}"
    if all(s.before_loop * stream.in_loop == stream.before_loop * s.in_loop for s in others):
        # Issued equally far ahead, the loads' instructions keep the loop's ratio together, whatever each needs.
        before = sum(s.before_loop for s in (stream, *others))
        in_loop = sum(s.in_loop for s in (stream, *others))
        ok = asm_before * in_loop * unroll == asm_in * (before + peeled * in_loop)
        return Finding("pipeline", claim, shown + f" for all {len(others) + 1} loads of {where} (in different layouts, "
                       f"each issued {stream.stages - 1} round(s) ahead: together {before} before the loop, {in_loop} "
                       "per iteration)", AGREE if ok else DISAGREE)
    if any(s.before_loop for s in others):
        return Finding("pipeline", claim, shown + f"; {len(others) + 1} loads of {where} in different layouts are "
                       "issued ahead by different numbers of rounds, and line info cannot tell their instructions "
                       "apart", UNCHECKED)
    rounds = stream.before_loop + peeled * stream.in_loop
    rest = sum(s.in_loop for s in others) * unroll
    per_copy, left = divmod(asm_before, rounds)
    mine = per_copy * stream.in_loop * unroll
    shown += (f"; the {asm_before} before the loop are this load's alone ({rounds} copies of {per_copy}), so {mine} "
              f"in the loop are its own and the other {asm_in - mine} belong to the {rest} load(s) of {where} in "
              "other layouts, not issued ahead")
    return Finding("pipeline", claim, shown, AGREE if not left and per_copy and asm_in - mine >= rest else DISAGREE)


def _misfiled(loop: Loop, claim: str, shown: str, inside: list[Instruction], before: list[Instruction], kind: str,
              kernel_file: str, unroll: int, peeled: int) -> Finding:
    """A load whose count before the loop is off: the loop's pipelined loads together, line info aside."""
    placed, nowhere, low, high = _pooled(loop, inside, before, kind, kernel_file, unroll, peeled)
    if placed <= high and placed + nowhere >= low:
        where = f" and {nowhere} at line 0 (no source line)" if nowhere else ""
        return Finding("pipeline", claim, shown + f"; line info files instructions under another line: the loop's "
                       f"pipelined {kind.replace('_', ' ')}s together have {placed} before the loop on their lines"
                       f"{where}, their copies {_span(low, high)}", AGREE)
    return Finding("pipeline", claim, shown, DISAGREE)


def _span(low: Fraction, high: Fraction) -> str:
    return f"{float(high):g}" if low == high else f"{float(low):g} to {float(high):g}"


def check_pipeline(loop: Loop, listing: Listing, kernel_file: str, unroll: int = 1, peeled: int = 0
                   ) -> list[Finding]:
    """The loop's pipelined loads and (PTX) its waits against the lower stage's loop and what precedes it."""
    out: list[Finding] = []
    evidence = next((e for e in loop.evidence if e.stage == listing.stage), None)
    name = loop_name(loop)
    pipelined = [s for s in loop.loads if s.before_loop]
    if evidence is None or not evidence.label:
        if pipelined:
            out.append(Finding("pipeline", f"{name}: pipelined {loop.achieved_stages} stages",
                               f"no loop in the {listing.stage} matched this loop", UNCHECKED))
        return out
    spans = asm_loop_instructions(listing, evidence.label)
    if spans is None:
        return out
    inside, before = spans
    for stream in pipelined:
        kind = _PIPELINE_CLASS[stream.kind]
        asm_in = _count(inside, kind, stream.line, kernel_file)
        asm_before = _count_before(before, kind, stream.line, kernel_file)
        layout = f" in {stream.layout}" if stream.layout and _siblings(loop, stream) else ""
        claim = (f"{name}: the {stream.kind} load of line {stream.line}{layout} is issued {stream.before_loop} "
                 f"time(s) before the loop and {stream.in_loop} time(s) per iteration ({stream.stages} stages)")
        shown = f"{listing.stage}: {asm_before} {kind} instruction(s) before the loop, {asm_in} in it"
        if asm_before and not _count(before, kind, stream.line, kernel_file):
            shown += " (those before it scalar loads: the address is the same in every lane there)"
        if unroll > 1:
            shown += f" (the {listing.stage} loop holds {unroll} iterations: LLVM unrolled it)"
        if peeled:
            shown += f" (LLVM peeled {peeled} iteration(s) in front of the {listing.stage} loop)"
        if asm_in == 0 and (nowhere := sum(1 for i in inside if not i.frames and classify(i.opcode) == kind)):
            out.append(Finding("pipeline", claim, shown + AT_LINE_0.format(n=nowhere), UNCHECKED))
        elif asm_in == 0:
            out.append(Finding("pipeline", claim, shown, DISAGREE))
        elif others := _siblings(loop, stream):
            out.append(_shared_line(stream, others, claim, shown, asm_before, asm_in,
                                    unroll, peeled))
        elif not (low_high := _copies(stream, asm_in, unroll, peeled))[0] <= asm_before <= low_high[1]:
            out.append(_misfiled(loop, claim, shown + f" (ratio {asm_before / asm_in:g}, TTGIR "
                                 f"{stream.before_loop / stream.in_loop:g})", inside, before, kind, kernel_file,
                                 unroll, peeled))
        else:
            if stream.masked_off and asm_before < low_high[1]:
                shown += (f"; {stream.masked_off} of its copies before the loop have a constant-false mask: every lane "
                          "reads one out-of-range offset, and LLVM merged those loads")
            out.append(Finding("pipeline", claim, shown, AGREE))
    if listing.stage == "ptx":
        for op_name, mnemonic in _WAIT_PTX.items():
            ours = sorted(w.pending for w in loop.waits if w.op == op_name and w.pending is not None)
            if not ours:
                continue
            theirs = sorted(n for i in inside if i.opcode.startswith(mnemonic)
                            and (n := pending_count(i.text)) is not None)
            claim = f"{name}: {op_name} waits with {', '.join(map(str, ours))} group(s) left in flight"
            shown = f"ptx: {mnemonic} {', '.join(map(str, theirs)) or '(none in the loop)'}"
            out.append(Finding("waits", claim, shown, AGREE if set(ours) == set(theirs) else DISAGREE))
    return out
