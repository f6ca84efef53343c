"""Backend or LLVM IR: the backend swap of ``compare`` as text and as JSON (``backend_swap``)."""

from __future__ import annotations

from typing import Any

from irscope.analysis.attribution import SwapReport
from irscope.analysis.facts import show_value

_SAY = {"swap only": "the two sides agree; a swap does not", "backend": "follows the backend",
        "ir": "follows the LLVM IR", "both": "part each",
        "neither": "neither (a swap gives a third value: the IR and the backend interact)",
        "unknown": "not known (no swap compiled)",
        "unsure": "not known (a side's own IR through its own backend does not give its own value)"}


def _values(row: Any) -> str:
    parts = [f"A and B {show_value(row.a)}" if row.follows == "swap only" else
             f"A {show_value(row.a)} -> B {show_value(row.b)}"]
    if row.a_ir is not None:
        parts.append(f"A's IR, B's backend: {show_value(row.a_ir)}")
    if row.b_ir is not None:
        parts.append(f"B's IR, A's backend: {show_value(row.b_ir)}")
    partly = row.follows == "both" and row.backend_share is not None
    share = f" (the backend: {row.backend_share:.0%} of the move)" if partly else ""
    return f"{row.fact}: {_SAY[row.follows]}{share}; {', '.join(parts)}"


def verdict(report: SwapReport) -> str:
    """One line: which half each moved machine-code fact follows, grouped."""
    if not report.rows:
        return "no machine-code fact moved"
    groups: dict[str, list[str]] = {}
    for r in report.rows:
        name = r.fact
        if r.follows == "both" and r.backend_share is not None:
            name += f" ({r.backend_share:.0%} the backend)"
        elif r.follows == "swap only":
            swapped = [f"{show_value(v)} with {s}'s IR" for v, s in ((r.a_ir, "A"), (r.b_ir, "B"))
                       if v is not None and v != r.a]
            name += f" ({show_value(r.a)}; {', '.join(swapped)})"
        groups.setdefault(r.follows, []).append(name)
    if set(groups) == {"unknown"}:
        return "not known: neither backend took the other side's LLVM IR"
    if set(groups) == {"unsure"}:
        return "not known: a side's own LLVM IR through its own backend does not give its own machine code"
    if set(groups) <= {"backend", "unknown"}:
        return "the backend: the same LLVM IR gives the other side's machine code under the other side's backend"
    if set(groups) <= {"ir", "unknown"}:
        return "the LLVM IR: each side's IR keeps its machine code under either backend"
    said = {"swap only": "move only in a swap", "backend": "follow the backend", "ir": "follow the LLVM IR",
            "both": "partly each", "neither": "follow neither alone", "unknown": "not known", "unsure": "not known"}
    return "; ".join(f"{', '.join(names)} {said[kind]}" for kind in ("backend", "ir", "both", "neither", "unknown",
                                                                     "unsure", "swap only")
                     if (names := groups.get(kind)))


def render_swap(report: SwapReport) -> list[str]:
    """The block of ``compare`` after the first divergence."""
    a = report.swaps[0]
    lines = [f"Backend or LLVM IR? {verdict(report)}",
             f"  (Triton {a.triton_ir}'s LLVM IR through Triton {a.triton_backend}'s backend, and the reverse)"]
    lines += [f"  {s.ir}'s IR through {s.backend}'s backend: {s.error}" for s in report.swaps if s.error]
    lines += [f"  control: {c}" for c in report.controls]
    lines += [f"  {_values(r)}" for r in report.rows]
    return lines


def swap_json(report: SwapReport) -> dict[str, Any]:
    """The ``backend_swap`` object of ``compare --json``."""
    return {"verdict": verdict(report),
            "swaps": [{"ir": s.ir, "backend": s.backend, "triton_ir": s.triton_ir,
                       "triton_backend": s.triton_backend, "key": s.capture.manifest.key if s.capture else None,
                       "error": s.error} for s in report.swaps],
            "facts": [{"fact": r.fact, "a": r.a, "b": r.b, "a_ir_b_backend": r.a_ir, "b_ir_a_backend": r.b_ir,
                       "follows": r.follows, "backend_share": r.backend_share} for r in report.rows],
            "controls": list(report.controls), "unread": list(report.unread)}
