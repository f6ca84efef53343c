"""The same kernel on two targets, line by line: what each target's machine code does for each kernel line.

Each side's PTX or AMDGCN (the listing ``perf`` models) is mapped to kernel lines (irscope.analysis.sourcemap),
and per line irscope counts the tensor-core instructions by family and shape, AMD's buffer operations, the
global accesses' widths per thread and all instructions; with ``perf``'s trip counts (how often each machine-code
loop runs per CTA) a line's instructions are weighted by how often they run, and lines are ranked by that.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from irscope.analysis.facts import mma_family
from irscope.analysis.instructions import access_bytes, classify
from irscope.analysis.sourcemap import map_listing
from irscope.parse.lineinfo import Listing

__all__ = ["LineProfile", "TargetComparison", "TargetLine", "line_profiles", "pair_lines"]


@dataclass(frozen=True)
class LineProfile:
    """What one target's machine code does for one kernel line.

    Attributes:
        instructions: instructions attributed to the line.
        dynamic: those instructions weighted by how often perf says they run per CTA, None when perf could not say.
        mma: tensor-core instructions by family and shape (``wgmma m64n256k16`` -> 4).
        buffer_ops: AMD buffer loads, stores and atomics.
        widths: bytes per thread of the line's global loads, stores and async copies (sorted, distinct).
    """

    instructions: int
    dynamic: float | None
    mma: tuple[tuple[str, int], ...] = ()
    buffer_ops: int = 0
    widths: tuple[int, ...] = ()


@dataclass(frozen=True)
class TargetLine:
    """One kernel line on both targets.

    Attributes:
        line: the kernel line; ``source`` its text.
        a / b: each side's profile (None: no instruction of that side belongs to the line).
        differs: what differs, one phrase each (``tensor cores wgmma m64n256k16 x4 -> mfma 32x32x8 x16``).
        cost: the ranking: the larger side's dynamic instructions per CTA, else its instruction count.
    """

    line: int | None
    source: str
    a: LineProfile | None
    b: LineProfile | None
    differs: tuple[str, ...]
    cost: float


@dataclass(frozen=True)
class TargetComparison:
    """Two targets' machine code per kernel line, and the whole-kernel facts that differ between them.

    Attributes:
        lines: the kernel lines whose machine code differs, costliest first.
        whole: shared memory (LDS), the occupancy limiter and the pipeliner that ran, where they differ.
        ranked: how the lines are ranked, with the reason when perf could not estimate a side.
    """

    lines: tuple[TargetLine, ...]
    whole: tuple[str, ...]
    ranked: str


def _executions(listing: Listing, number: int, loops: Mapping[str, float] | None) -> float | None:
    """How often the instruction on listing line ``number`` runs per CTA: its innermost loop's executions."""
    if loops is None:
        return None
    inside = [lp for lp in listing.loops if lp.contains(number)]
    if not inside:
        return 1.0
    innermost = min(inside, key=lambda lp: lp.end - lp.start)
    return loops.get(innermost.label, 1.0)


def line_profiles(listing: Listing, kernel_file: str, loops: Mapping[str, float] | None
                  ) -> dict[int | None, LineProfile]:
    """Each kernel line's profile in one listing; ``loops``: perf's executions per CTA by loop label (None: unknown)."""
    mapped = map_listing(listing, kernel_file, "")
    count: Counter[int | None] = Counter()
    dynamic: dict[int | None, float] = {}
    mma: dict[int | None, Counter[str]] = {}
    buffers: Counter[int | None] = Counter()
    widths: dict[int | None, set[int]] = {}
    for m in mapped.lines:
        count[m.line] += 1
        runs = _executions(listing, m.number, loops)
        if runs is not None:
            dynamic[m.line] = dynamic.get(m.line, 0.0) + runs
        kind = classify(m.opcode)
        if kind == "mma":
            mma.setdefault(m.line, Counter())[mma_family(m.opcode)] += 1
        if m.opcode.startswith(("buffer_load", "buffer_store", "buffer_atomic")):
            buffers[m.line] += 1
        if (kind in ("global_load", "global_store", "async_copy")
                and (size := access_bytes(m.opcode, m.text)) is not None):
            widths.setdefault(m.line, set()).add(size)
    return {line: LineProfile(instructions=n, dynamic=dynamic.get(line) if loops is not None else None,
                              mma=tuple(sorted(mma.get(line, Counter()).items())), buffer_ops=buffers[line],
                              widths=tuple(sorted(widths.get(line, ())))) for line, n in count.items()}


def _mma_text(profile: LineProfile | None) -> str:
    if profile is None or not profile.mma:
        return "none"
    return ", ".join(f"{family} x{n}" for family, n in profile.mma)


def _differs(a: LineProfile | None, b: LineProfile | None) -> tuple[str, ...]:
    out: list[str] = []
    if _mma_text(a) != _mma_text(b):
        out.append(f"tensor cores {_mma_text(a)} -> {_mma_text(b)}")
    buf_a, buf_b = (a.buffer_ops if a else 0), (b.buffer_ops if b else 0)
    if buf_a != buf_b:
        out.append(f"buffer ops {buf_a} -> {buf_b}")
    wa, wb = (a.widths if a else ()), (b.widths if b else ())
    if wa != wb:
        out.append(f"access widths {'/'.join(map(str, wa)) or '-'} -> {'/'.join(map(str, wb)) or '-'} bytes per thread")
    ia, ib = (a.instructions if a else 0), (b.instructions if b else 0)
    if ia != ib:
        da, db = (a.dynamic if a else 0.0), (b.dynamic if b else 0.0)
        runs = f" ({da or 0:.0f} -> {db or 0:.0f} per CTA as run)" if (a is None or a.dynamic is not None) and \
            (b is None or b.dynamic is not None) and (da or db) else ""
        out.append(f"instructions {ia} -> {ib}{runs}")
    return tuple(out)


def pair_lines(a: Mapping[int | None, LineProfile], b: Mapping[int | None, LineProfile],
               source: Sequence[str]) -> list[TargetLine]:
    """The kernel lines whose machine code differs between two targets, the costliest first."""
    out: list[TargetLine] = []
    for line in set(a) | set(b):
        pa, pb = a.get(line), b.get(line)
        differs = _differs(pa, pb)
        if not differs:
            continue
        cost = max((p.dynamic if p.dynamic is not None else float(p.instructions)) for p in (pa, pb) if p is not None)
        text = source[line - 1].strip() if line is not None and 0 < line <= len(source) else ""
        out.append(TargetLine(line=line, source=text, a=pa, b=pb, differs=differs, cost=cost))
    out.sort(key=lambda t: (-t.cost, t.line if t.line is not None else 1 << 30))
    return out
