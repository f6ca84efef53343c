"""Plain-text view of a kernel's loops: pipelining, waits, matrix instructions and their confirmation."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict
from typing import Any

from irscope.analysis.instructions import KINDS
from irscope.analysis.loop_evidence import Evidence
from irscope.analysis.loops import LoadStream, Loop
from irscope.analysis.spin_locks import SpinLock, contention

__all__ = ["loops_json", "render_loops"]

_ASYNC_WORDS = {"async": "async copy (global -> shared, no registers)", "register": "load into registers"}


def _load_line(s: LoadStream, shared_line: bool = False) -> str:
    where = f"line {s.line}" if s.line else "a load"
    if shared_line and s.layout:
        where += f" (in {s.layout})"
    width = f", {s.bytes_per_thread} B per thread" if s.bytes_per_thread else ""
    staged = "" if s.kind == "async" or not s.feeds_shared else ", then stored to shared memory"
    if s.stages > 1:
        peeled = (f" ({s.peeled * s.in_loop} used by the iteration{'s' if s.peeled != 1 else ''} peeled into it)"
                  if s.peeled else "")
        depth = f"{s.before_loop} issued before the loop{peeled}, {s.in_loop} per iteration: {s.stages} stages"
    else:
        depth = "issued in its own iteration: not pipelined"
    return f"    {where}: {_ASYNC_WORDS.get(s.kind, s.kind)}{width}{staged}; {depth}"


_UNROLLED = (("mma", "tensor-core"), ("async_copy", "copy"), ("global_load", "global load"),
             ("global_store", "global store"))


def _unrolled_kinds(e: Evidence) -> str:
    """The instruction classes an unrolled loop repeats, those of this loop only: "tensor-core and global load"."""
    kinds = [name for kind, name in _UNROLLED if e.in_loop.get(kind)]
    if not kinds:
        return "instructions"
    return (", ".join(kinds[:-1]) + " and " + kinds[-1] if len(kinds) > 1 else kinds[0]) + " instructions"


def _evidence_line(e: Evidence) -> list[str]:
    if not e.label:
        return [f"  {e.stage}: no loop here matches it (unrolled or merged by the backend)"]
    parts = []
    for kind in ("mma", "async_copy", "global_load", "atomic", "shared_load", "shared_store", "barrier"):
        n = e.in_loop.get(kind, 0)
        if n:
            names = ", ".join(e.opcodes.get(kind, ()))
            parts.append(f"{n} x {names}")
    out = [f"  {e.stage} (loop {e.label}): " + ("; ".join(parts) if parts else "no tensor-core or memory instructions")]
    if e.llvm_unrolled > 1:
        out.append(f"    LLVM unrolled the loop {e.llvm_unrolled} times: one {e.stage} iteration "
                   f"runs {e.llvm_unrolled} "
                   f"iterations of the TTGIR loop ({e.llvm_unrolled}x one iteration's {_unrolled_kinds(e)}); the "
                   "left-over iterations run in the remainder blocks LLVM named .epil or .prol")
    if e.unrolled > 1:
        out.append(f"    ptxas unrolled the loop {e.unrolled} times: one SASS iteration does the work "
                   f"of {e.unrolled} PTX "
                   f"iterations ({e.unrolled}x the PTX loop's {_unrolled_kinds(e)})")
    if e.waits:
        out.append(f"    waits: {', '.join(dict.fromkeys(w.op for w in e.waits))}")
    ahead = [f"{n} {KINDS[k]}" for k, n in sorted(e.before_loop.items()) if k in ("async_copy", "global_load")]
    if ahead:
        out.append(f"    before the loop: {', '.join(ahead)}")
    if e.widest_access:
        out.append(f"    widest global access in the loop: {e.widest_access} bytes per thread")
    return out


def _wait_words(loop: Loop) -> str:
    words = []
    for w in loop.waits:
        count = f" {w.pending}" if w.pending is not None else ""
        if not w.what or w.pending is None:
            what = ""
        elif w.pending == 0:
            what = f" (waits for all {w.what}s)"
        else:
            what = (f" (up to {w.pending} {w.what}{'s' if w.pending != 1 else ''} "
                    f"stay{'s' if w.pending == 1 else ''} in flight)")
        words.append(f"{w.op}{count}{what}")
    return "; ".join(dict.fromkeys(words))


def _lock_lines(lock: SpinLock, grid: tuple[int, int, int] | None) -> list[str]:
    where = f"line {lock.line}" if lock.line else "the loop"
    out = [f"  spin lock: {lock.acquire} at {where} retried until it wins"
           + (f", on {lock.address}" if lock.address else "")]
    if lock.release:
        at = f" at line {lock.release_line}" if lock.release_line else ""
        machine = "; ".join(f"{stage}: {', '.join(ops)}" for stage, ops in lock.release_machine)
        out.append(f"    released by {lock.release}{at} after the loop" + (f" ({machine})" if machine else ""))
    else:
        out.append("    no atomic exchange on the same address after the loop was found (the release)")
    out.append(f"    contention: {contention(lock, grid)}")
    return out


def render_loop(loop: Loop, number: int, grid: tuple[int, int, int] | None = None) -> str:
    """One loop as a paragraph."""
    where = f"line {loop.line}" if loop.line else "unknown line"
    indent = "  " * loop.depth
    out = [f"{indent}loop {number}: {where}: {loop.source}".rstrip() + "   (TTGIR lines "
                                                                       f"{loop.ttgir_lines[0]}-{loop.ttgir_lines[1]})"]
    asked = f"asked {loop.requested_stages} ({loop.requested_from})" if loop.requested_stages else "asked: unknown"
    if loop.pipelined:
        left = [s for s in loop.loads if s.stages == 1]
        partly = f" (partly: {len(left)} of {len(loop.loads)} loads stay in their iteration)" if left else ""
        out.append(f"  pipelined: {loop.achieved_stages} stages{partly}; {asked}")
    else:
        out.append(f"  not pipelined; {asked}")
    if loop.loads:
        out.append("  global loads:")
        lines = Counter((s.line, s.kind) for s in loop.loads)
        out += [_load_line(s, lines[(s.line, s.kind)] > 1) for s in loop.loads]
    if loop.buffers:
        out.append(f"  shared-memory buffers filled by its copies: {', '.join(loop.buffers)}")
        if loop.buffering:
            out.append(f"    {loop.buffering}")
    if loop.waits:
        out.append(f"  waits: {_wait_words(loop)}")
    if loop.mma:
        out.append(f"  matrix instructions: {loop.mma}; {loop.mma_ops} dot op{'s' if loop.mma_ops != 1 else ''}")
        out.append(f"  operands: {loop.operands}")
    if loop.lock is not None:
        out += _lock_lines(loop.lock, grid)
    for reason in loop.reasons:
        out.append(f"  why not (fully) pipelined: {reason}")
    for e in loop.evidence:
        out += _evidence_line(e)
    return "\n".join(indent + line if i else line for i, line in enumerate(out))


def render_loops(loops: list[Loop], title: str, missing: tuple[str, ...] = (),
                 grid: tuple[int, int, int] | None = None) -> str:
    """Every loop, one paragraph each, under a title line (``grid``: the launch's, for lock contention)."""
    count = f"{len(loops)} loop{'s' if len(loops) != 1 else ''}"
    out = [f"{title}: {count}" if loops else f"{title}: no loops (nothing to pipeline)"]
    for i, loop in enumerate(loops, start=1):
        out.append("")
        out.append(render_loop(loop, i, grid))
    for why in missing:
        out.append(f"\nnot shown: {why}")
    return "\n".join(out) + "\n"


def loops_json(loops: list[Loop], missing: tuple[str, ...] = (), grid: tuple[int, int, int] | None = None
               ) -> dict[str, Any]:
    """The loops as JSON-ready dicts (a spin lock with its contention in words)."""
    found = []
    for loop in loops:
        item = {**asdict(loop), "pipelined": loop.pipelined}
        if loop.lock is not None:
            item["lock"] = {**asdict(loop.lock), "contention": contention(loop.lock, grid)}
        found.append(item)
    return {"loops": found, "missing": list(missing), "grid": list(grid) if grid else None}
