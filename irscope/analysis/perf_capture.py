"""The performance model of a stored capture: read its work (listing, loops, resources, bank conflicts), then predict."""

from __future__ import annotations

import importlib
from typing import Any

from irscope.analysis.loops import capture_loops
from irscope.analysis.perf import BankSummary, DeviceModel, LaunchShape, PerfReport, loop_costs, predict
from irscope.analysis.perf_work import Mix, evaluate_trips, mix_of, split_by_loop
from irscope.errors import StoreError
from irscope.parse.lineinfo import Listing, parse_amdgcn, parse_ptx
from irscope.store import Capture

__all__ = ["BANK_UNAVAILABLE", "bank_summary", "capture_perf"]

BANK_UNAVAILABLE = "bank-conflict analysis not available"
# What a bank report's access may call its figures (the analysis is built separately; read by name).
_WAYS = ("ways", "worst_ways", "n_way")
_COUNT = ("conflicts_per_cta_iteration", "per_cta_per_iteration", "conflicts_per_iteration", "count", "conflicts")


def _first(obj: Any, names: tuple[str, ...], default: Any = None) -> Any:
    for name in names:
        value = getattr(obj, name, None)
        if value is not None:
            return value
    return default


def _ways(value: Any) -> int:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return max(1, int(value))
    return 1  # 'conflict-free' or any other word


def bank_summary(report: Any, executions: float) -> BankSummary:
    """The model's view of a bank-conflict report: per access one line, the worst one, conflicts per CTA.

    ``executions``: how often the loop body runs per CTA, by which per-iteration counts are multiplied
    (accesses outside loops count once: a report access may say so with ``in_loop = False``).
    """
    accesses = list(getattr(report, "accesses", ()) or ())
    lines: list[str] = []
    worst_ways, worst, total = 1, "", 0.0
    for access in accesses:
        ways = _ways(_first(access, _WAYS, 1))
        line = _first(access, ("line", "source_line"), "?")
        insn = _first(access, ("instruction", "opcode"), "")
        kind = _first(access, ("kind",), "")
        reason = _first(access, ("reason",), "")
        count = float(_first(access, _COUNT, 0) or 0)
        in_loop = bool(getattr(access, "in_loop", True))
        total += count * (executions if in_loop else 1.0)
        verdict = f"{ways}-way" if ways > 1 else "conflict-free"
        text = f"line {line} {kind} {insn}: {verdict}" + (f" ({reason})" if reason else "")
        lines.append(text)
        if ways > worst_ways:
            worst_ways, worst = ways, f"{ways}-way bank conflicts on the {kind or 'access'} of line {line} ({insn})" + (
                f": {reason}" if reason else "")
    message = f"{len(accesses)} shared-memory accesses analysed" if accesses else "no shared-memory accesses"
    return BankSummary(True, message, tuple(lines), worst_ways, worst, total)


def _bank(capture: Capture, executions: float) -> tuple[BankSummary, str]:
    """The bank-conflict section from ``irscope.analysis.bank_conflicts`` when that module is installed."""
    try:
        module = importlib.import_module("irscope.analysis.bank_conflicts")
    except ImportError:
        return BankSummary(False, BANK_UNAVAILABLE), ""
    predict_fn = getattr(module, "predict_bank_conflicts", None)
    if predict_fn is None:
        return BankSummary(False, BANK_UNAVAILABLE), ""
    try:
        report = predict_fn(capture)
    except (ValueError, KeyError, StoreError) as exc:
        return BankSummary(False, f"{BANK_UNAVAILABLE}: {exc}"), f"bank conflicts: {exc}"
    return bank_summary(report, executions), ""


def _listing(capture: Capture) -> Listing:
    stage = "ptx" if capture.manifest.backend == "cuda" else "amdgcn"
    text = capture.read(stage)
    return parse_ptx(text) if stage == "ptx" else parse_amdgcn(text)


def capture_perf(capture: Capture, device: DeviceModel, shape: LaunchShape, with_bank: bool = True) -> PerfReport:
    """Read the capture's work for this launch and predict its time on ``device``."""
    from irscope.analysis.resources import capture_resources

    m = capture.manifest
    amd = m.backend != "cuda"
    listing = _listing(capture)
    loops, missing = capture_loops(capture, listings=(listing,))
    resources = capture_resources(capture)
    num_warps = resources.num_warps
    warp = int(m.warp_size or (64 if amd else 32))
    outside, inside = split_by_loop(listing)
    matched_labels = {lp.evidence[0].label for lp in loops if lp.evidence and lp.evidence[0].label}
    once_insns = list(outside)
    uncertain = [f"missing {what}" for what in missing] + list(resources.problems)
    for label, insns in inside.items():
        if label not in matched_labels:
            once_insns.extend(insns)
            uncertain.append(f"machine-code loop {label} matches no TTGIR loop: its instructions are counted once")
    once = mix_of(once_insns, num_warps, warp, amd)
    mixes: dict[str, Mix] = {label: mix_of(insns, num_warps, warp, amd) for label, insns in inside.items()}
    trips = evaluate_trips(capture.read("ttgir"), shape.values, shape.grid)
    matched = [(lp.line, lp.source, lp.ttgir_lines, lp.evidence[0].label if lp.evidence else "") for lp in loops]
    costs = loop_costs(trips, matched, mixes)
    for cost in costs:
        if cost.trips is None:
            uncertain.append(f"loop at line {cost.line}: {cost.trips_note}; counted once")
        if not cost.listing_label:
            uncertain.append(f"loop at line {cost.line}: no machine-code loop matched; its work is counted once")
    ahead = {lp.evidence[0].label: float(lp.achieved_stages - 1) for lp in loops
             if lp.evidence and lp.evidence[0].label and lp.achieved_stages > 1}
    executions = max((c.executions for c in costs), default=1.0)
    bank, problem = _bank(capture, executions) if with_bank else (BankSummary(False, BANK_UNAVAILABLE), "")
    if problem:
        uncertain.append(problem)
    if once.unknown_width or any(mx.unknown_width for mx in mixes.values()):
        uncertain.append("some global accesses do not say their width: counted as 4 bytes per thread")
    return predict(kernel=m.function, target=m.target, config_index=m.config_index, device=device, shape=shape,
                   num_warps=num_warps, occupancy=resources.occupancy, once=once, loops=costs,
                   prologue_iterations=ahead, bank=bank, spills=max(resources.spill_stores, resources.spill_loads),
                   uncertain=tuple(uncertain))
