"""The same kernel on two targets, paired by kernel line and ranked by perf's estimate of what each line costs
(irscope.analysis.target_lines pairs the lines; perf's loop trip counts weight them, where perf can estimate)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from irscope.analysis.facts import show_value
from irscope.analysis.passes import effect_of
from irscope.analysis.target_lines import LineProfile, TargetComparison, line_profiles, pair_lines
from irscope.analysis.verify import lower_listings
from irscope.errors import IrscopeError, StoreError
from irscope.request.captures import Request
from irscope.store.passdump import PassDump
from irscope.store.store import Capture

__all__ = ["TargetComparison", "compare_targets"]


def _perf_loops(request: Request, capture: Capture) -> tuple[dict[str, float] | None, str]:
    """perf's executions per CTA of each machine-code loop (by label), or None and why perf could not say."""
    from irscope.analysis.perf.capture import capture_perf
    from irscope.request.perf_launch import perf_device, perf_shape

    try:
        device, sms = perf_device(None, request.target.name, lambda: None)
        report = capture_perf(capture, device, perf_shape(request, None, sms, capture.path), with_bank=False)
    except (IrscopeError, OSError, ValueError, KeyError) as exc:
        return None, f"{capture.manifest.target}: {exc}"
    return {lc.listing_label: lc.executions for lc in report.loops if lc.listing_label}, device.name


def _profiles(request: Request, capture: Capture) -> tuple[dict[int | None, LineProfile], str, bool]:
    listings, _ = lower_listings(capture, sass=False)
    loops, said = _perf_loops(request, capture)
    if not listings:
        return {}, said, loops is not None
    return line_profiles(listings[0], capture.manifest.kernel_path, loops), said, loops is not None


def _pipeliners(dump: PassDump) -> str:
    """The software-pipelining passes that changed this side's IR, by name."""
    ran = [p.name for p in dump.index.passes if p.ir == "mlir" and "pipelin" in p.name.lower()
           and effect_of(dump, p).changed]
    return ", ".join(dict.fromkeys(ran)) or "none changed the IR"


def _whole(facts_a: dict[str, Any], facts_b: dict[str, Any], dumps: tuple[PassDump, PassDump] | None) -> list[str]:
    out = []
    for fact, label in (("shared_bytes", "shared memory (LDS on AMD), bytes"), ("occupancy.limited_by",
                                                                             "occupancy limited by"),
                        ("occupancy.ctas_per_sm", "CTAs per SM (CU)")):
        va, vb = facts_a.get(fact), facts_b.get(fact)
        if va != vb:
            out.append(f"{label}: {show_value(va)} -> {show_value(vb)}")
    if dumps is not None:
        pa, pb = _pipeliners(dumps[0]), _pipeliners(dumps[1])
        out.append(f"pipeliner: {pa} -> {pb}" if pa != pb else f"pipeliner on both: {pa}")
    return out


def compare_targets(a: tuple[Request, Capture], b: tuple[Request, Capture],
                    facts: tuple[dict[str, Any], dict[str, Any]],
                    dumps: Callable[[], tuple[PassDump, PassDump]] | None = None) -> TargetComparison:
    """Two captures of one kernel on two targets, line by line (``dumps``: both per-pass dumps, for the pipeliner)."""
    prof_a, said_a, known_a = _profiles(*a)
    prof_b, said_b, known_b = _profiles(*b)
    try:
        source = a[1].read("source").splitlines()
    except StoreError:
        source = []
    if known_a and known_b:
        ranked = f"ranked by perf's estimate of each line's instructions as run per CTA ({said_a} vs {said_b})"
    else:
        why = "; ".join(s for s, known in ((said_a, known_a), (said_b, known_b)) if not known)
        ranked = f"ranked by instruction count: perf cannot estimate how often they run ({why})"
        prof_a = {k: LineProfile(v.instructions, None, v.mma, v.buffer_ops, v.widths) for k, v in prof_a.items()}
        prof_b = {k: LineProfile(v.instructions, None, v.mma, v.buffer_ops, v.widths) for k, v in prof_b.items()}
    try:
        pair = dumps() if dumps is not None else None
    except (IrscopeError, OSError):
        pair = None
    return TargetComparison(lines=tuple(pair_lines(prof_a, prof_b, source)), whole=tuple(_whole(*facts, pair)),
                            ranked=ranked)
