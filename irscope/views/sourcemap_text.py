"""Plain-text views of a source map: what one kernel line became, and the source with per-stage counts."""

from __future__ import annotations

from collections import Counter
from typing import Any

from irscope.analysis.instructions import classify
from irscope.analysis.sourcemap import MappedLine, SourceMap, StageMap

__all__ = ["annotate_json", "map_json", "render_annotate", "render_map"]

_UNIT = {"glir": "op", "ttir": "op", "ttgir": "op"}
_BAR = 12


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _clip(text: str, width: int) -> str:
    return text if width <= 0 or len(text) <= width else text[: width - 1] + "…"


def _opcode_summary(lines: list[MappedLine], top: int = 6) -> str:
    counts = Counter(m.opcode for m in lines)
    parts = [f"{op} x{n}" for op, n in counts.most_common(top)]
    if len(counts) > top:
        parts.append(f"{len(counts) - top} more kinds")
    return ", ".join(parts)


# What a reader looks for first in what a line became: tensor-core math, then memory, then waits and barriers.
_RANK = {"mma": 0, "async_copy": 1, "global_load": 1, "shared_load": 1, "scalar_load": 1, "shared_store": 1,
         "global_store": 1, "convert": 1, "wait": 2, "barrier": 3}
_FIRST = "tensor-core, memory, wait, fence and barrier instructions are shown first, then the rest"
# Ordering the tensor cores' work, with the barriers: `wgmma.fence`, `wgmma.commit_group`, `fence.proxy.async`,
# SASS's `WARPGROUP.ARRIVE` (instruction classes leave them out: they move no data and wait for nothing)
_FENCES = ("wgmma.fence", "wgmma.commit_group", "fence.", "membar", "WARPGROUP.ARRIVE", "FENCE.", "MEMBAR")


def _rank(opcode: str) -> int:
    kind = classify(opcode)
    if kind is None and opcode.startswith(_FENCES):
        return _RANK["barrier"]
    return _RANK.get(kind or "", len(_RANK))


def _pick(found: list[MappedLine], limit: int) -> list[MappedLine]:
    """At most ``limit`` lines: all in text order when they fit, else the tensor-core, memory, wait and
    fence or barrier instructions first (in that order), then the rest, each group in text order."""
    if limit <= 0 or len(found) <= limit:
        return found
    return sorted(found, key=lambda m: _rank(m.opcode))[:limit]


def _never_note(never: list[MappedLine]) -> str:
    """The note for SASS instructions predicated on ``!PT``, which no count includes."""
    return (f"  note: {_plural(len(never), 'more instruction')} ({_opcode_summary(never)}) predicated on @!PT never "
            "execute (ptxas padding); not counted or listed")


def _where(m: MappedLine, stage: str) -> str:
    return f"/*{m.address:04x}*/" if stage == "sass" and m.address >= 0 else f"{m.number:>6}"


def render_map(smap: SourceMap, line: int, limit: int = 12, width: int = 150,
               notes: dict[str, str] | None = None) -> str:
    """Every stage's ops or instructions for one kernel line, with an opcode summary per stage.

    ``notes``: per stage, a sentence more (e.g. that the line's loop was unrolled there).
    """
    smap.check_line(line)
    name = smap.kernel_file.rsplit("/", 1)[-1]
    out = [f"{name}:{line}: {smap.source[line - 1].strip()}"]
    for stage in smap.stages:
        unit = _UNIT.get(stage.stage, "instruction")
        if not stage.lines:
            out.append(f"\n{stage.stage}: not mapped: {'; '.join(stage.problems) or 'no lines'}")
            continue
        found = stage.for_line(line)
        origin = f", positions from {stage.origin}" if stage.stage == "sass" else ""
        out.append(f"\n{stage.stage}: {_plural(len(found), unit)} (of {len(stage.lines)}{origin})")
        out.extend(f"  note: {problem}" for problem in stage.problems)
        if notes and stage.stage in notes:
            out.append(f"  note: {notes[stage.stage]}")
        never = stage.never_executed_for(line)
        if found:
            out.append(f"  kinds: {_opcode_summary(found)}")
        if never:
            out.append(_never_note(never))
        if not found:
            continue
        shown = _pick(found, limit)
        for m in shown:
            note = f"   [inlined from {m.inlined_from}]" if m.inlined_from else ""
            if m.line != line:
                note += f"   [via the call; counted on line {m.line}]"
            out.append(_clip(f"  {_where(m, stage.stage)}  {m.text}{note}", width))
        if len(found) > len(shown):
            out.append(f"  ... {len(found) - len(shown)} more (--limit 0 shows all; {_FIRST})")
    return "\n".join(out) + "\n"


def _bar(count: int, most: int) -> str:
    if most <= 0 or count <= 0:
        return ""
    return "#" * max(1, round(_BAR * count / most))


def render_annotate(smap: SourceMap, focus: str | None = None, width: int = 150) -> str:
    """The kernel's source with, per line, the count of each stage's ops or instructions.

    A bar shows the ``focus`` stage's share (the last stage by default) so heavy lines stand out.
    """
    stages = [s for s in smap.stages if s.lines]
    counts = {s.stage: s.counts() for s in stages}
    focus_stage = focus if focus in counts else (stages[-1].stage if stages else "")
    most = max(counts[focus_stage].values(), default=0) if focus_stage else 0
    header = "  line " + "".join(f"{s.stage:>7}" for s in stages) + f"  {focus_stage + ' share':<{_BAR}} | source"
    out = [header]
    lines_with_ir = {n for c in counts.values() for n in c}
    first = min(lines_with_ir, default=1)
    last = max(lines_with_ir, default=0)
    for number in range(first, last + 1):
        text = smap.source[number - 1] if number <= len(smap.source) else ""
        cells = "".join(f"{counts[s.stage].get(number, 0) or '':>7}" for s in stages)
        bar = _bar(counts[focus_stage].get(number, 0), most) if focus_stage else ""
        out.append(_clip(f"{number:>6} {cells}  {bar:<{_BAR}} | {text}", width))
    totals = "".join(f"{sum(counts[s.stage].values()):>7}" for s in stages)
    out.append(f"{'mapped':>6} {totals}")
    unmapped = "".join(f"{len(s.lines) - s.mapped:>7}" for s in stages)
    out.append(f"{'other':>6} {unmapped}  (no position, or only in other files)")
    for s in smap.stages:
        if not s.lines:
            out.append(f"{s.stage}: not mapped: {'; '.join(s.problems) or 'no lines'}")
        else:
            out.extend(f"{s.stage}: note: {problem}" for problem in s.problems)
        if s.never_executed:
            out.append(f"{s.stage}: note: {_plural(len(s.never_executed), 'instruction')} predicated on @!PT never "
                       "execute (ptxas padding); not counted")
    return "\n".join(out) + "\n"


def _line_json(m: MappedLine) -> dict[str, Any]:
    data: dict[str, Any] = {"number": m.number, "opcode": m.opcode, "text": m.text, "line": m.line}
    if m.via:
        data["via"] = list(m.via)
    if m.inlined_from:
        data["inlined_from"] = m.inlined_from
    if m.address >= 0:
        data["address"] = m.address
    return data


def _stage_head(s: StageMap) -> dict[str, Any]:
    head = {"stage": s.stage, "origin": s.origin, "total": len(s.lines), "mapped": s.mapped,
            "problems": list(s.problems)}
    if s.never_executed:  # SASS's `@!PT` instructions: in no total or count
        head["never_executed"] = len(s.never_executed)
    return head


def map_json(smap: SourceMap, line: int, notes: dict[str, str] | None = None) -> dict[str, Any]:
    """The JSON form of ``render_map``."""
    smap.check_line(line)
    return {"kernel": smap.kernel, "file": smap.kernel_file, "line": line, "source": smap.source[line - 1],
            "stages": [{**_stage_head(s), "lines": [_line_json(m) for m in s.for_line(line)],
                        **({"note": notes[s.stage]} if notes and s.stage in notes else {})} for s in smap.stages]}


def annotate_json(smap: SourceMap) -> dict[str, Any]:
    """The JSON form of ``render_annotate``: per stage, kernel line -> count."""
    return {"kernel": smap.kernel, "file": smap.kernel_file,
            "stages": [{**_stage_head(s), "counts": {str(k): v for k, v in sorted(s.counts().items())}}
                       for s in smap.stages]}
