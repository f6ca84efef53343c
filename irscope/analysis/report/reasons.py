"""One line on why a kernel takes its time, and its rung on the kernel-authoring ladder, from the model's numbers.

Every number in these sentences is a field of the kernel's ``ConfigFacts`` (or of the variants compiled for it),
so a test can check each against the stage it came from. What the performance model found is read from its typed
fields (``ConfigFacts.perf``, ``irscope.analysis.perf.facts``): never from its sentences, nor from the kernel's name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from irscope.analysis.perf.facts import PerfFacts, Unknown
from irscope.analysis.report.facts import ConfigFacts
from irscope.analysis.report.launch import LAUNCH_US
from irscope.analysis.report.results import Verdict, WhatIf

if TYPE_CHECKING:
    from irscope.analysis.report.results import KernelRow

__all__ = ["OFF_BY", "TUNE_GAIN", "kernel_reason", "kernel_verdict", "reread_factor", "uncertainty"]

# A variant must be predicted this much faster to count as "tune it" (the model's own spread is larger than 5%).
TUNE_GAIN = 0.10
# Within this of its roofline floor (the body's time, launch cost aside), a kernel is left to torch.compile.
NEAR_ROOFLINE = 1.5
# Beyond this of its roofline floor (the body's time), with no variant faster, a kernel is worth writing by hand.
FAR_FROM_ROOFLINE = 3.0
# A share of the program's Triton time below which hand-writing it cannot pay.
SMALL_SHARE = 0.02
# Re-reads worth naming: DRAM traffic (or requested bytes) this many times the tensors' own bytes.
REREAD = 1.2


# A prediction this many times its low end (or with no known high end) says why in its verdict.
OFF_BY = 2.0


def _bytes(n: float) -> str:
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"


def reread_factor(facts: ConfigFacts) -> tuple[float, str]:
    """How many times its tensors' own bytes the kernel moves, and through what (``DRAM``, ``L2``); (0, "") unknown."""
    if not facts.tensor_bytes:
        return 0.0, ""
    dram = facts.dram_bytes / facts.tensor_bytes
    if dram >= REREAD:
        return dram, "DRAM"
    return facts.requested_bytes / facts.tensor_bytes, "L2"


def _body_us(facts: ConfigFacts) -> float:
    """The predicted time less the fixed launch cost."""
    return max(facts.predicted_us - facts.launch_us, 0.0)


def kernel_reason(facts: ConfigFacts) -> str:
    """One line: what bounds it and at what share of peak, then the strongest evidence (re-reads, loops, spills)."""
    parts = []
    if facts.bound == "memory":
        parts.append(f"memory bound at {facts.dram_pct:.0%} of DRAM peak")
    elif facts.bound == "compute":
        rate = facts.flops / facts.predicted_us / 1e6 if facts.predicted_us else 0.0
        parts.append(f"compute bound at {rate:.1f} TFLOP/s ({facts.compute_floor_us:.2f} us of FLOPs at peak)")
    else:
        parts.append(f"{facts.bound} bound, {facts.dram_pct:.1%} of DRAM peak")
    perf = facts.perf
    if perf.atomics is not None and perf.limit == "atomics":
        a = perf.atomics
        parts.append(f"atomics: at least {a.per_address:.0f} on each of the {a.elements} elements of {a.tensor}, "
                     "which the L2 applies one at a time (a lower bound where indices repeat)")
    elif perf.round_trips:
        parts.append(f"each CTA waits {perf.round_trips} DRAM round trips in turn (loop iterations and loads that wait "
                     "for a loaded address)")
    body = _body_us(facts)
    if body < LAUNCH_US:
        parts.append(f"its body is {body:.2f} us, under the {LAUNCH_US:.0f} us a launch alone costs "
                     f"(moves {_bytes(facts.tensor_bytes)})")
    factor, where = reread_factor(facts)
    if factor >= REREAD:
        uncoalesced = perf.uncoalesced_factor > 1.0
        cause = (f": uncoalesced, {perf.uncoalesced_factor:.1f}x the sectors per useful byte" if uncoalesced
                 and where == "DRAM" else
                 f": re-reads {_bytes(facts.reread_bytes)}" if facts.reread_bytes and where == "DRAM" else "")
        parts.append(f"moves {factor:.1f}x its tensors' own bytes ({_bytes(facts.tensor_bytes)}) through {where}"
                     + cause)
    for loop in facts.loops[:1]:
        why = loop.reasons[0] if loop.reasons else (f"num_stages={loop.requested}" if loop.requested else "")
        parts.append(f"loop at line {loop.line} not pipelined" + (f" ({why})" if why else ""))
    if facts.spill_stores or facts.spill_loads:
        parts.append(f"spills {facts.spill_stores} B stored, {facts.spill_loads} B loaded per thread")
    if facts.occupancy_pct and facts.occupancy_pct < 50 and facts.occupancy_limit not in ("", "unknown"):
        parts.append(f"occupancy {facts.occupancy_pct:.0f}% limited by {facts.occupancy_limit}")
    if facts.bank_worst:
        parts.append(facts.bank_worst)
    return "; ".join(parts)


def _best(what_ifs: tuple[WhatIf, ...]) -> WhatIf | None:
    done = [w for w in what_ifs if w.key and w.predicted_us > 0]
    return min(done, key=lambda w: w.predicted_us) if done else None


def _tried(what_ifs: tuple[WhatIf, ...]) -> str:
    if not what_ifs:
        return "no variant was compiled (--what-if 0, or none applies)"
    said = [f"{w.label} {w.predicted_us:.2f} us" if w.key else f"{w.label} did not compile" for w in what_ifs]
    return "variants: " + ", ".join(said)


def _scores_materialised(facts: ConfigFacts) -> bool:
    """Whether the kernel computes a softmax over scores it reads from and writes back to DRAM: it reduces rows and
    takes an exponential (the model's ``softmax_rows``), and its largest tensor is both read and written (the scores,
    overwritten by the probabilities). A cross-entropy reads its logits and writes a loss, or a gradient beside them:
    not scores a fused attention kernel would keep on chip."""
    if not facts.perf.softmax_rows or not facts.tensors:
        return False
    return max(facts.tensors, key=lambda t: t[1])[2] == "inout"


def _unknown_words(unknown: Unknown) -> str:
    where = f" at line {unknown.line}" if unknown.line else ""
    if unknown.kind == "loop_trips":
        by = unknown.decided_by
        source = (f"values loaded from {by.removeprefix('loaded:')}" if by.startswith("loaded:") else
                  f"the argument {by.removeprefix('argument:')}, not recorded" if by.startswith("argument:") else
                  "an enclosing loop's values" if by == "loop" else "ops the model does not evaluate")
        return f"the loop{where} runs as many times as {source} say, counted once"
    if unknown.kind == "unmatched_loop":
        return f"the loop{where} matches no machine-code loop, its work counted once"
    if unknown.kind == "contention":
        return f"atomics or a lock{where} may wait on one another beyond the even spread"
    if unknown.kind == "branch":
        return f"the branch{where} on loaded values may take its other path"
    if unknown.kind == "gather":
        return ("a gather through indices loaded from "
                f"memory{' (' + unknown.decided_by + ')' if unknown.decided_by else ''}"
                ": how often its sectors hit the L2 depends on the indices' locality")
    return unknown.what


def uncertainty(perf: PerfFacts) -> str:
    """Why the prediction could be off by more than ``OFF_BY`` (a lower bound, or a range that wide), "" when not."""
    span = perf.time
    if span.factor <= OFF_BY:
        return ""
    if span.kind == "lower_bound":
        why = [_unknown_words(u) for u in perf.unknowns if u.lower_bound]
        return (f"the time is a lower bound, at least {span.low:.2f} us per launch: " + "; ".join(why[:2])
                + (f" (+{len(why) - 2} more)" if len(why) > 2 else ""))
    causes = [_unknown_words(u) for u in perf.unknowns if u.kind in ("branch", "gather")] or \
        ["the L2 hit rate of re-reads"]
    return (f"the time is {span.low:.2f} .. {span.high or 0.0:.2f} us per launch, more than {OFF_BY:.0f}x apart: "
            + "; ".join(causes[:2]))


def kernel_verdict(row: KernelRow, what_ifs: tuple[WhatIf, ...] | None) -> Verdict | None:
    """The rung of a modelled kernel, with the numbers (and, when its time could be off by more than ``OFF_BY``,
    why); None when it was not modelled."""
    facts = row.chosen
    if facts is None:
        return None
    verdict = _verdict(row, facts, what_ifs)
    why = uncertainty(facts.perf)
    return Verdict(verdict.rung, f"{verdict.evidence}; {why}", verdict.what_ifs) if why else verdict


def _verdict(row: KernelRow, facts: ConfigFacts, what_ifs: tuple[WhatIf, ...] | None) -> Verdict:
    tried = tuple(what_ifs or ())
    best = _best(tried)
    share = f"{row.share:.1%} of the program's predicted Triton time"
    if best is not None and best.predicted_us < facts.predicted_us * (1 - TUNE_GAIN):
        return Verdict("tune", f"{best.label} is predicted {best.predicted_us:.2f} us per launch against "
                               f"{facts.predicted_us:.2f} us now ({1 - best.predicted_us / facts.predicted_us:.0%} "
                               f"less); {share}", tried)
    body = _body_us(facts)
    body_distance = body / facts.floor_us if facts.floor_us > 0 else float("inf")
    if body < LAUNCH_US:
        return Verdict("leave", f"its body is {body:.2f} of its {facts.predicted_us:.2f} us per launch, under the "
                                f"{LAUNCH_US:.0f} us a launch alone costs: a faster body saves at most {body:.2f} us; "
                                f"{share}; " + _tried(tried), tried)
    if row.share < SMALL_SHARE:
        return Verdict("leave", f"{share}: {body_distance:.1f}x its roofline floor, but small; " + _tried(tried),
                       tried)
    if _scores_materialised(facts):
        name, nbytes, role = max(facts.tensors, key=lambda t: t[1])
        moved = "read and written" if role == "inout" else "read" if role == "input" else "written"
        return Verdict("hand", f"a softmax over scores held in DRAM: its largest tensor, {name} ({_bytes(nbytes)}), is "
                               f"{moved} per launch, {facts.dram_floor_us:.2f} us at the DRAM bandwidth even on its "
                               f"roofline (its body is {body_distance:.1f}x that now); a fused attention kernel "
                               "keeps the scores on "
                               f"chip; {share}; " + _tried(tried), tried)
    if body_distance <= NEAR_ROOFLINE:
        return Verdict("leave", f"its body is {body_distance:.1f}x its roofline floor ({facts.floor_us:.2f} us); "
                                f"{share}; " + _tried(tried), tried)
    if body_distance <= FAR_FROM_ROOFLINE:
        return Verdict("leave", f"its body is {body_distance:.1f}x its roofline floor ({facts.floor_us:.2f} us), "
                                f"within {FAR_FROM_ROOFLINE:.0f}x; {share}; " + _tried(tried), tried)
    if tried and best is not None:
        return Verdict("hand", f"{body_distance:.1f}x its roofline floor ({facts.floor_us:.2f} us) and no variant is "
                               f"predicted {TUNE_GAIN:.0%} faster ({_tried(tried)}); {share}", tried)
    return Verdict("leave", f"{body_distance:.1f}x its roofline floor ({facts.floor_us:.2f} us), {share}; "
                            "no variant was predicted, so the evidence for hand-writing it is not there: "
                            + _tried(tried), tried)
