"""The performance model of a stored capture: read its work (listing, loops, resources, bank conflicts); predict."""

from __future__ import annotations

import bisect
import importlib
from dataclasses import replace
from typing import Any

from irscope.analysis.loops import capture_loops
from irscope.analysis.perf.atomics import atomic_contention
from irscope.analysis.perf.bounds import bound_sources
from irscope.analysis.perf.coalescing import Coalescing, Gather, coalescing
from irscope.analysis.perf.control import (
    Region,
    assumed_branches,
    conditional_store_loops,
    dead_regions,
    unmodelled_facts,
)
from irscope.analysis.perf.dependent import drained_loops, load_depths
from irscope.analysis.perf.exits import early_exits
from irscope.analysis.perf.facts import Unknown
from irscope.analysis.perf.inputs import LoopSite, PerfInputs, RuntimeValues
from irscope.analysis.perf.panels import (
    PanelTraffic,
    descriptor_args,
    panel_traffic,
    tma_copy_bytes,
    wave_traffic,
)
from irscope.analysis.perf.predicates import active_shares
from irscope.analysis.perf.predict import (
    BankSummary,
    DeviceModel,
    LaunchShape,
    LoopCost,
    PerfReport,
    loop_costs,
    predict,
    time_span,
)
from irscope.analysis.perf.replicas import replicated_loads
from irscope.analysis.perf.roles import with_ir_roles
from irscope.analysis.perf.slow_paths import slow_note, slow_paths
from irscope.analysis.perf.work import (
    LoopTrips,
    Mix,
    dot_flops,
    evaluate_trips,
    mix_of,
    program_sample,
    scalar_values,
    scaled,
    split_by_loop,
)
from irscope.analysis.tcgen05 import tcgen05_shapes
from irscope.errors import StoreError, UsageError
from irscope.parse.lineinfo import Listing, parse_amdgcn, parse_ptx
from irscope.store.store import Capture

__all__ = ["BANK_UNAVAILABLE", "bank_summary", "capture_perf"]

BANK_UNAVAILABLE = "bank-conflict analysis not available"
# What a bank report's access calls its figures (irscope.analysis.banks.conflicts.SharedAccess first; the
# analysis is built separately, so it is read by name).
_WAYS = ("ways", "worst_ways", "n_way")
_COUNT = ("conflicts_per_cta", "conflicts_per_cta_iteration", "per_cta_per_iteration", "conflicts_per_iteration",
          "count", "conflicts")
_LINE = ("where", "line", "source_line")
_WHAT = ("op", "kind")


def _first(obj: Any, names: tuple[str, ...], default: Any = None) -> Any:
    for name in names:
        value = getattr(obj, name, None)
        if value is not None and value != "":
            return value
    return default


def _ways(value: Any) -> int:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return max(1, int(value))
    return 1  # 'conflict-free', 'unknown' or any other word


def bank_summary(report: Any, executions: dict[int, float], default_executions: float = 1.0) -> BankSummary:
    """The model's view of a bank-conflict report: per access one line, the worst one, conflicts per CTA.

    Per-execution counts are multiplied by the executions of the loop they sit in: ``executions`` maps a
    loop's TTGIR line (the access's ``loop_line``) to its executions per CTA; an access that names no loop
    line but says ``in_loop`` uses ``default_executions``; others count once. Conflicts are also split by
    the ncu counter they land in (``counter``: ld, st, ldgsts).
    """
    accesses = list(getattr(report, "accesses", ()) or ())
    lines: list[str] = []
    worst_ways, worst, total = 1, "", 0.0
    by_counter: dict[str, float] = {}
    lsu_waves, complete = 0.0, True
    warps = float(getattr(report, "num_warps", 0) or 0)
    for access in accesses:
        ways = _ways(_first(access, _WAYS, 1))
        line = _first(access, _LINE, "?")
        insn = _first(access, ("instruction", "opcode"), "")
        if not insn:
            insn = ", ".join(getattr(access, "instructions", ()) or ())
        what = _first(access, _WHAT, "access")
        reason = _first(access, ("reason",), "")
        count = float(_first(access, _COUNT, 0) or 0)
        loop_line = getattr(access, "loop_line", None)
        runs = executions.get(loop_line, default_executions) if loop_line is not None else (
            default_executions if getattr(access, "in_loop", False) else 1.0)
        total += count * runs
        counter = str(getattr(access, "counter", "") or "")
        by_counter[counter] = by_counter.get(counter, 0.0) + count * runs
        if counter in ("ld", "st"):
            per_insn = getattr(access, "wavefronts_per_instruction", None)
            insns = getattr(access, "instructions_per_warp", None)
            if getattr(access, "kind", "") == "unknown" or not per_insn or not insns or not warps:
                complete = False
            else:
                lsu_waves += float(per_insn) * float(insns) * warps * runs
        verdict = f"{ways}-way" if ways > 1 else str(getattr(access, "kind", "") or "conflict-free")
        text = f"{line} {what} {insn}: {verdict}" + (f" ({reason})" if reason else "")
        lines.append(text)
        if ways > worst_ways:
            worst_ways = ways
            worst = f"{ways}-way bank conflicts on the {what} of {line} ({insn})" + (f": {reason}" if reason else "")
    message = f"{len(accesses)} shared-memory accesses analysed" if accesses else "no shared-memory accesses"
    return BankSummary(True, message, tuple(lines), worst_ways, worst, total, by_counter, lsu_waves,
                       complete and bool(accesses))


def _bank(capture: Capture, executions: dict[int, float], default: float) -> tuple[BankSummary, str]:
    """The bank-conflict section from ``irscope.analysis.banks.conflicts`` when that module is installed."""
    try:
        module = importlib.import_module("irscope.analysis.banks.conflicts")
    except ImportError:
        return BankSummary(False, BANK_UNAVAILABLE), ""
    predict_fn = getattr(module, "predict_bank_conflicts", None)
    if predict_fn is None:
        return BankSummary(False, BANK_UNAVAILABLE), ""
    try:  # with the SASS: ptxas widens some shared loads, and the hardware splits requests by that width
        report = predict_fn(capture, with_sass=capture.manifest.backend == "cuda")
    except (ValueError, KeyError, StoreError) as exc:
        return BankSummary(False, f"{BANK_UNAVAILABLE}: {exc}"), f"bank conflicts: {exc}"
    return bank_summary(report, executions, default), ""


def _listing(capture: Capture) -> Listing:
    stage = "ptx" if capture.manifest.backend == "cuda" else "amdgcn"
    text = capture.read(stage)
    return parse_ptx(text) if stage == "ptx" else parse_amdgcn(text)


def capture_perf(capture: Capture, device: DeviceModel, shape: LaunchShape, with_bank: bool = True,
                 both_paths: bool = False, known_values: RuntimeValues | None = None,
                 gather_end: str = "") -> PerfReport:
    """Read the capture's work for this launch and predict its time on ``device``; ``both_paths``: a branch on loaded
    values takes both its paths (the worst case), not only its main one; ``known_values``: values known at run time,
    asked for the trips of each loop the launch's integer arguments do not decide; ``gather_end``: ``low`` or
    ``high``, a gather through loaded indices at the least (each gathered byte once) or the most (every sector a
    miss) DRAM traffic its unknown index locality allows."""
    from irscope.analysis.resources import capture_resources

    m = capture.manifest
    amd = m.backend != "cuda"
    listing = _listing(capture)
    resources = capture_resources(capture)
    sass = _sass(capture) if not amd and resources.spills else None
    loops, missing = capture_loops(capture, listings=(listing,) if sass is None else (listing, sass))
    num_warps = resources.num_warps
    warp = int(m.warp_size or (64 if amd else 32))
    outside, inside = split_by_loop(listing)
    outside, inside, slow, slow_count = _without_slow_paths(capture, listing, outside, inside)
    matched_labels = {lp.evidence[0].label for lp in loops if lp.evidence and lp.evidence[0].label}
    once_insns = list(outside)
    uncertain = [f"missing {what}" for what in missing] + list(resources.problems)
    unknowns = [Unknown("model", what=u) for u in uncertain]
    for label, insns in inside.items():
        if label not in matched_labels:
            once_insns.extend(insns)
            uncertain.append(f"machine-code loop {label} matches no TTGIR loop: its instructions are counted once")
            unknowns.append(Unknown("unmatched_loop", 0, "", True, uncertain[-1]))
    ttgir = capture.read("ttgir")
    contents = shape.contents()
    scalars = scalar_values(ttgir, shape.values, shape.grid, contents)
    exits = early_exits(ttgir, shape.values, shape.grid, contents)
    assumed = [] if both_paths else assumed_branches(ttgir, scalars, exits.branches)
    dead = dead_regions(ttgir, scalars) + assumed
    shape, roles_note = with_ir_roles(shape, ttgir, tuple((r.start, r.end) for r in dead))
    active = {} if amd else active_shares(list(listing.instructions), ttgir, shape.values, num_warps * warp)
    tcgen05 = {} if amd else tcgen05_shapes(listing.instructions)
    unread = sum(1 for found in tcgen05.values() if found is None)
    if unread:
        uncertain.append(f"{unread} tcgen05.mma instruction(s) whose instruction descriptor is no constant of the "
                         "PTX: their shape is unknown and their FLOPs are not counted")
        unknowns.append(Unknown("model", 0, "", True, uncertain[-1]))
    once = mix_of(once_insns, num_warps, warp, amd, active, tcgen05)
    mixes: dict[str, Mix] = {label: mix_of(insns, num_warps, warp, amd, active, tcgen05)
                             for label, insns in inside.items()}
    control = unmodelled_facts(ttgir, exits.branches)
    uncertain.extend(u.what for u in control)
    unknowns.extend(control)
    _unrolled(ttgir, loops, mixes, uncertain)
    trips = _trips(ttgir, shape, loops, known_values, contents)
    accesses = coalescing(ttgir, scalars, {t.name: t.nbytes for t in shape.tensors},
                          max(device.l2_bytes, device.llc_bytes), round(_programs(shape) * exits.share))
    accesses = [_at_gather_end(a, gather_end) for a in accesses] if gather_end else accesses
    factor, worst = _coalescing_factor(accesses)
    for access in accesses:
        if access.gather is not None:
            uncertain.append(_gather_words(access.line, access.gather))
            g = access.gather
            unknowns.append(Unknown("gather", 0, f"loaded:{g.tensor}" if g.tensor else "", False, uncertain[-1]))
    efficiency, gather_note = dram_efficiency(accesses, device)
    matched = [(lp.line, lp.source, lp.ttgir_lines, lp.evidence[0].label if lp.evidence else "") for lp in loops]
    costs = loop_costs(trips, matched, mixes)
    costs, rounds, notes = _control(ttgir, dead, loops, costs, shape, exits.share)
    if exits.branches and exits.share == 0.0:  # every program returns early: no loop past the returns runs
        costs = tuple(replace(c, trips=0.0, executions=0.0, trips_note=exits.why) if lp.ttgir_lines[0] > max(
            exits.branches) else c for lp, c in zip(loops, costs, strict=True))
    if slow:
        notes = [*notes, slow]
    costs, once, tma = _tma(ttgir, loops, costs, once)
    _loop_unknowns(costs, uncertain, unknowns)
    costs, ahead, once_depth = _pipelined(ttgir, loops, costs, amd)
    executions = max((c.executions for c in costs), default=1.0)
    local = _local_wavefronts(sass, loops, costs, num_warps) if sass is not None else 0.0
    if resources.spills and sass is None:
        uncertain.append("registers spill but the SASS could not be read: spill traffic is not counted")
    by_line = {lp.ttgir_lines[0]: c.executions for lp, c in zip(loops, costs, strict=True)}
    bank, problem = _bank(capture, by_line, executions) if with_bank else (BankSummary(False, BANK_UNAVAILABLE), "")
    if problem:
        uncertain.append(problem)
    if once.unknown_width or any(mx.unknown_width for mx in mixes.values()):
        uncertain.append("some global accesses do not say their width: counted as 4 bytes per thread")
    in_flight = 0.0 if amd else _sass_in_flight(capture, uncertain)
    said = {u.what for u in unknowns}
    unknowns.extend(Unknown("model", what=u) for u in uncertain if u not in said)
    spans = [(lp.ttgir_lines, c.executions) for lp, c in zip(loops, costs, strict=True)]

    def runs(line: int) -> float:  # a TTGIR line's executions per CTA: its innermost loop's
        inner = [(hi - lo, n) for (lo, hi), n in spans if lo <= line <= hi]
        return min(inner)[1] if inner else 1.0

    contention = atomic_contention(ttgir, shape.tensors, _programs(shape) * exits.share, runs)
    report = predict(PerfInputs(
        kernel=m.function, target=m.target, config_index=m.config_index, device=device, shape=shape,
        num_warps=num_warps, occupancy=resources.occupancy, once=once, loops=costs, prologue_iterations=ahead,
        bank=bank,
        # AMD: the VGPRs spilled to scratch, 4 bytes a lane each (SGPR spills stay in VGPR lanes)
        spills=resources.spill_stores * 4 if amd else max(resources.spill_stores, resources.spill_loads),
        coalescing=worst, coalescing_factor=factor, local_wavefronts=local, shared_per_cta=resources.shared_total,
        l2_bytes_per_request=_bytes_per_request(accesses), dram_efficiency=efficiency, gather_note=gather_note,
        notes=((roles_note,) if roles_note else ()) + ((exits.why,) if exits.why else ()) + tuple(notes),
        rounds=rounds, programs=exits.share, sass_in_flight=in_flight, dots=_has_dot(ttgir), dependent=once_depth,
        atomics=contention, serial=_serial(loops, costs), panels=_panels(capture, shape, device, resources.occupancy),
        copies=_copies(ttgir, loops, costs), tma_bytes=tma * _programs(shape) * exits.share,
        uncertain=tuple(uncertain), unknowns=tuple(unknowns), slow_path_instructions=slow_count,
        softmax_rows=softmax_rows(ttgir), known_values=known_values))
    if any(a.gather is not None for a in accesses) and not gather_end:
        report = _with_gather_range(report, *(capture_perf(capture, device, shape, False, both_paths, known_values, end)
                                              for end in ("low", "high")))
    if not assumed:
        return report
    return _with_branch_range(report, capture_perf(capture, device, shape, with_bank, True, known_values), assumed)


def _loop_unknowns(costs: tuple[LoopCost, ...], uncertain: list[str], unknowns: list[Unknown]) -> None:
    """What each loop's cost leaves unknown: trips no value decides, and a loop no machine-code loop matched."""
    for cost in costs:
        if cost.trips is None:
            decided = f" (decided by {cost.decided_by})" if cost.decided_by else ""
            uncertain.append(f"loop at line {cost.line}: {cost.trips_note}{decided}; counted once")
            unknowns.append(Unknown("loop_trips", cost.line or 0, cost.decided_by, True, uncertain[-1]))
        if not cost.listing_label:
            uncertain.append(f"loop at line {cost.line}: no machine-code loop matched; its work is counted once")
            unknowns.append(Unknown("unmatched_loop", cost.line or 0, "", True, uncertain[-1]))


def _pipelined(ttgir: str, loops: list[Any], costs: tuple[LoopCost, ...], amd: bool
               ) -> tuple[tuple[LoopCost, ...], dict[str, float], int]:
    """The loops' costs with what the pipeliner did to them: the rounds issued ahead (by machine-code label), the
    rounds AMD peels, and the chain of dependent loads per iteration (and outside any loop, third).

    NVIDIA's pipeliner keeps the loop's bounds and masks the last S-1 rounds of loads, so the rounds its prologue
    issued ahead are not loaded again; AMD's stream pipeliner peels them into an epilogue and lowers the loop's
    upper bound instead (the TTGIR trip count is already short by them)."""
    drained = drained_loops(ttgir, [lp.ttgir_lines for lp in loops])
    ahead = {lp.evidence[0].label: float(lp.achieved_stages - 1) for lp in loops
             if not amd and lp.evidence and lp.evidence[0].label and lp.achieved_stages > 1
             and lp.ttgir_lines not in drained}
    if amd:
        peeled = {lp.ttgir_lines: lp.achieved_stages - 1 for lp in loops if lp.achieved_stages > 1}
        costs = tuple(replace(c, peeled=peeled.get(lp.ttgir_lines, 0)) for c, lp in zip(costs, loops, strict=True))
    once_depth, depths = load_depths(ttgir)
    costs = tuple(replace(c, dependent=max(1, depths.get(lp.ttgir_lines[0], 1)))
                  for c, lp in zip(costs, loops, strict=True))
    return costs, ahead, once_depth


def _at_gather_end(access: Coalescing, end: str) -> Coalescing:
    """A gathered access at the least (``low``) or the most (``high``) DRAM traffic its indices allow."""
    g = access.gather
    if g is None or not access.tensor_bytes:
        return access
    useful = g.useful_bytes
    least = min(g.tensor_bytes, useful) if g.tensor_bytes else useful
    dram = least if end == "low" else g.requested_sectors * 32
    return replace(access, factor=max(1.0, dram / useful) if useful else 1.0)


def _with_gather_range(report: PerfReport, low: PerfReport, high: PerfReport) -> PerfReport:
    """Widen the report's time range by its gathers' unknown index locality."""
    start, end = report.time_range or (report.predicted_us, report.predicted_us)
    why = (f"gathers through loaded indices: each gathered byte read once {low.predicted_us:.1f} us, every 32-byte "
           f"sector a DRAM miss {high.predicted_us:.1f} us (the indices' locality is not known)")
    span = (min(start, low.predicted_us), max(end, high.predicted_us))
    facts = replace(report.facts, time=time_span(report.predicted_us, span, report.facts.unknowns))
    return replace(report, time_range=span, range_why=(*report.range_why, why), facts=facts)


def _with_branch_range(report: PerfReport, both: PerfReport, assumed: list[Region]) -> PerfReport:
    """Widen the report's time range by its branches on loaded values taking both paths."""
    low, high = report.time_range or (report.predicted_us, report.predicted_us)
    lines = ", ".join(str(start) for start in sorted({r.start for r in assumed}))
    why = (f"branch at TTGIR line(s) {lines} on loaded values: its main path only {report.predicted_us:.1f} us, "
           f"both paths {both.predicted_us:.1f} us")
    span = (min(low, both.predicted_us), max(high, both.predicted_us))
    facts = replace(report.facts, time=time_span(report.predicted_us, span, report.facts.unknowns))
    return replace(report, time_range=span, range_why=(*report.range_why, why), facts=facts)


def _trips(ttgir: str, shape: LaunchShape, loops: list[Any], known: RuntimeValues | None,
           contents: dict[str, tuple[int, ...]]) -> list[LoopTrips]:
    """Each loop's trips from the launch's integer arguments and the recorded contents of the tensors it loads
    scalars from; where they do not decide them, what would (a loaded tensor, an argument), and the trips ``known``
    gives for every program when it can."""
    trips = evaluate_trips(ttgir, shape.values, shape.grid, contents)
    unknown = [t.ttgir_line for t in trips if t.trips is None]
    if not unknown:
        return trips
    sources = bound_sources(ttgir, unknown, shape.values)
    source_lines = {lp.ttgir_lines[0]: lp.line or 0 for lp in loops}
    out = []
    for trip in trips:
        if trip.trips is not None:
            out.append(trip)
            continue
        site = LoopSite(trip.ttgir_line, source_lines.get(trip.ttgir_line, 0), sources.get(trip.ttgir_line, ""))
        counts = [known.loop_trips(site, pid) for pid in program_sample(shape.grid)] if known is not None else []
        if counts and all(c is not None for c in counts):
            known_counts = [int(c) for c in counts if c is not None]
            varies = min(known_counts) != max(known_counts)
            out.append(LoopTrips(trip.ttgir_line, sum(known_counts) / len(known_counts), max(known_counts), varies,
                                 "from values known at run time" + (f" ({min(known_counts)}..{max(known_counts)} per "
                                                                    "program, averaged)" if varies else ""),
                                 "known_values", site.decided_by))
        else:
            out.append(replace(trip, decided_by=trip.decided_by or site.decided_by))
    return out


def softmax_rows(ttgir: str) -> bool:
    """Whether the kernel reduces rows (``tt.reduce``) and takes an exponential (``math.exp``/``exp2`` or
    libdevice's ``__nv_exp*`` / ``__ocml_exp*``)."""
    return "tt.reduce" in ttgir and any(op in ttgir for op in ("math.exp", "__nv_exp", "__ocml_exp"))


def _has_dot(ttgir: str) -> bool:
    """Whether the TTGIR has a matrix product (``tt.dot``, ``tt.dot_scaled`` or a target's own MMA op)."""
    return any(op in ttgir for op in ("tt.dot", "warp_group_dot", "tc_gen5_mma", "mfma", "wmma"))


def _without_slow_paths(capture: Capture, listing: Listing, outside: list[Any], inside: dict[str, list[Any]]
                        ) -> tuple[list[Any], dict[str, list[Any]], str, int]:
    """The PTX's instructions without libdevice's trigonometric slow paths (``slow_paths``), and the note saying so."""
    if listing.stage != "ptx":
        return outside, inside, "", 0
    paths = slow_paths(capture.read("ptx"))
    if not paths:
        return outside, inside, "", 0

    starts = [p.first for p in paths]  # in order and disjoint

    def slow(number: int) -> bool:
        at = bisect.bisect_right(starts, number) - 1
        return at >= 0 and number <= paths[at].last

    kept = [insn for insn in outside if not slow(insn.number)]
    loops = {loop.label: loop for loop in listing.loops}
    inner = {label: insns for label, insns in inside.items()
             if not (label in loops and slow(loops[label].start))}
    skipped = len(outside) - len(kept) + sum(len(v) for k, v in inside.items() if k not in inner)
    return kept, inner, slow_note(paths, skipped), skipped


def _panels(capture: Capture, shape: LaunchShape, device: DeviceModel, occupancy: Any) -> PanelTraffic | None:
    """A persistent grid's loads by the panels each round of tiles touches (from the TTIR: TTGIR may flatten it); a
    launch without tensor sizes or with host TMA descriptors, by the panels of each wave of resident CTAs (the
    descriptors' blocks and indices say the traffic; their tensors' sizes, when recorded, would not say the reuse)."""
    if device.llc_bytes:  # fitted on an NVIDIA L2: a memory-side cache is not modelled so
        return None
    try:
        ttir = capture.read("ttir")
    except (StoreError, KeyError, ValueError):  # a capture without TTIR (Gluon): the generic model applies
        return None
    if not shape.tensors or descriptor_args(ttir):
        per_sm = max(1, occupancy.ctas) if occupancy is not None and occupancy.fits else 1
        return wave_traffic(ttir, shape.values, shape.grid, device.sm_count * per_sm, device.l2_bytes)
    return panel_traffic(ttir, shape.values, shape.grid, device.l2_bytes)


def _tma(ttgir: str, loops: list[Any], costs: tuple[LoopCost, ...], once: Mix
         ) -> tuple[tuple[LoopCost, ...], Mix, float]:
    """TMA copies move the descriptor's block, whatever the PTX instruction's width says; also their bytes per CTA."""
    per_loop, loads, stores = tma_copy_bytes(ttgir, [lp.ttgir_lines for lp in loops])
    out = tuple(replace(c, per_iteration=replace(c.per_iteration, global_load_bytes=extra)) if extra else c
                for c, extra in zip(costs, per_loop, strict=True))
    if loads or stores:  # the loop's and the epilogue's global accesses are its TMA copies (a TMA kernel)
        once = replace(once, global_load_bytes=max(once.global_load_bytes, loads),
                       global_store_bytes=max(once.global_store_bytes, stores))
    return out, once, loads + stores + sum(b * c.executions for b, c in zip(per_loop, costs, strict=True))


def _copies(ttgir: str, loops: list[Any], costs: tuple[LoopCost, ...]) -> float:
    """Per CTA, the bytes global loads ask for again because their layout gives an element to several threads."""
    total = 0.0
    for line, extra in replicated_loads(ttgir).items():
        holding = [(lp.ttgir_lines[1] - lp.ttgir_lines[0], c.executions) for lp, c in zip(loops, costs, strict=True)
                   if lp.ttgir_lines[0] <= line <= lp.ttgir_lines[1]]
        total += extra * (min(holding)[1] if holding else 1.0)
    return total


def _programs(shape: LaunchShape) -> int:
    return shape.grid[0] * shape.grid[1] * shape.grid[2]


def _control(ttgir: str, dead: list[Region], loops: list[Any], costs: tuple[LoopCost, ...], shape: LaunchShape,
             share: float = 1.0) -> tuple[tuple[LoopCost, ...], float, list[str]]:
    """Loops in regions the launch does not run do no work; a store under an scf.if in a loop runs once per output
    tile (``share``: of the grid's programs, those that do the work). Returns the costs, the rounds in which each
    CTA writes its part of the output (for the L2 model), notes."""
    notes: list[str] = []
    out = list(costs)
    for i, (lp, cost) in enumerate(zip(loops, costs, strict=True)):
        region = next((r for r in dead if r.start <= lp.ttgir_lines[0] <= r.end), None)
        if region is not None and cost.executions:
            out[i] = replace(cost, trips=0.0, executions=0.0, trips_note=region.why)
            notes.append(f"loop at line {cost.line}: {region.why}, so it does no work")
    outputs = sum(t.nbytes for t in shape.tensors if t.role in ("output", "inout"))
    ctas = max(1.0, _programs(shape) * share)
    rounds = 1.0
    spans = [lp.ttgir_lines for lp in loops]
    for span in conditional_store_loops(ttgir, spans):
        i = spans.index(span)
        cost = out[i]
        per_trip = cost.per_iteration.global_store_bytes
        if not (outputs and per_trip and cost.executions) or per_trip * cost.executions * ctas <= outputs:
            continue
        runs = outputs / (ctas * per_trip)
        mix = replace(cost.per_iteration, global_store_bytes=per_trip * runs / cost.executions)
        out[i] = replace(cost, per_iteration=mix)
        rounds = max(rounds, runs)
        notes.append(f"loop at line {cost.line}: its store sits under an scf.if, so it runs on some trips only: "
                     f"counted {runs:.1f} times per CTA, once per output tile (the outputs' size), not on each of "
                     f"{cost.executions:.0f} trips")
    return tuple(out), rounds, notes


def _serial(loops: list[Any], costs: tuple[LoopCost, ...]) -> tuple[tuple[float, float, str], ...]:
    """Per loop with MMAs that waits on a load not issued ahead (into registers, one stage): executions, tensor FLOPs
    per iteration, and the load's source line; the model adds a DRAM round trip per iteration when nothing overlaps."""
    found = []
    for lp, cost in zip(loops, costs, strict=True):
        waits = [ld for ld in lp.loads if ld.kind == "register" and ld.stages <= 1]
        if waits and cost.per_iteration.mma_flops and cost.executions > 1:
            found.append((cost.executions, cost.per_iteration.mma_flops, f"line {waits[0].line}"))
    return tuple(found)


def _unrolled(ttgir: str, loops: list[Any], mixes: dict[str, Mix], uncertain: list[str]) -> None:
    """Check each loop's matrix FLOPs against its TTGIR dot shapes; a machine loop unrolled N times is scaled by 1/N."""
    spans = [lp.ttgir_lines for lp in loops]
    for lp in loops:
        label = lp.evidence[0].label if lp.evidence else ""
        mix = mixes.get(label)
        if mix is None or not mix.mma_flops:
            continue
        inner = [sp for sp in spans if lp.ttgir_lines[0] < sp[0] <= lp.ttgir_lines[1]]
        expected = dot_flops(ttgir, lp.ttgir_lines, inner)
        if not expected:
            continue
        ratio = mix.mma_flops / expected
        if round(ratio) >= 2 and abs(ratio - round(ratio)) < 0.05:
            mixes[label] = scaled(mix, 1 / round(ratio))
            uncertain.append(f"the machine-code loop {label} is unrolled {round(ratio)}x ({mix.mma_flops:.0f} matrix "
                             f"FLOPs per pass where the TTGIR's dots need {expected:.0f}): its counts are divided by "
                             f"{round(ratio)}; the unroll remainder outside it is counted once")
        elif abs(ratio - 1) > 0.05:
            uncertain.append(f"loop {label}: {mix.mma_flops:.0f} matrix FLOPs per iteration in the machine code, "
                             f"{expected:.0f} from the TTGIR's dot shapes")


def _sass_in_flight(capture: Capture, uncertain: list[str]) -> float:
    """Global-load bytes one thread keeps outstanding in the SASS (``inflight``); 0 when the SASS cannot be made."""
    from irscope.analysis.perf.inflight import loads_in_flight
    from irscope.toolchain.stages import read_stage

    try:
        return loads_in_flight(read_stage(capture, "sass"))
    except (StoreError, UsageError, OSError) as exc:
        uncertain.append(f"the SASS could not be read ({exc}): loads in flight are the PTX's")
        return 0.0


def _sass(capture: Capture) -> Listing | None:
    from irscope.analysis.sourcemap import sass_listing

    listing, _why = sass_listing(capture)
    return listing


def _local_wavefronts(sass: Listing, loops: list[Any], costs: tuple[Any, ...], num_warps: int) -> float:
    """L1 wavefronts per CTA of the spill loads and stores (SASS LDL / STL), loop bodies times their executions."""
    outside, inside = split_by_loop(sass)
    runs = {lp.evidence[1].label: cost.executions for lp, cost in zip(loops, costs, strict=True)
            if len(lp.evidence) > 1 and lp.evidence[1].label}

    def wavefronts(insns: list[Any]) -> float:
        total = 0.0
        for insn in insns:
            if insn.opcode.startswith(("LDL", "STL")):
                width = 16 if ".128" in insn.opcode else 8 if ".64" in insn.opcode else 4
                total += num_warps * max(1.0, width * 32 / 128)
        return total

    return wavefronts(outside) + sum(wavefronts(insns) * runs.get(label, 1.0) for label, insns in inside.items())


def _bytes_per_request(accesses: list[Coalescing]) -> float:
    """Useful bytes per L2 request (warp instruction x 128-byte line), weighted by each access's bytes."""
    analysed = [a for a in accesses if a.useful_bytes and a.lines]
    total = sum(a.tensor_bytes for a in analysed)
    if not total:
        return 128.0
    return sum(a.useful_bytes / a.lines * a.tensor_bytes for a in analysed) / total


def dram_efficiency(accesses: list[Coalescing], device: DeviceModel) -> tuple[float, str]:
    """The DRAM rate of the launch's global accesses against a copy, and what lowers it, in words.

    Gathers (accesses that fetch more than they use and touch one 32-byte sector of each 64-byte segment, over
    all of a warp's registers) move their segments at the device's gather rate for their segment step; the
    rest stream. Weighted by the bytes each access moves (time adds up, so the rates combine harmonically).
    """
    analysed = [a for a in accesses if a.useful_bytes and a.warp_segments]
    moved = sum(a.tensor_bytes * a.factor for a in analysed)
    if not moved:
        return 1.0, ""
    seconds = 0.0
    worst: tuple[float, Coalescing] | None = None
    for a in analysed:
        # sectors per segment: 1 (one of its two sectors used) .. 2 (both): the gathered part is (2 - ratio)
        gathered = min(1.0, max(0.0, 2.0 - a.warp_sectors / a.warp_segments)) if a.factor > 1.0 else 0.0
        rate = 1.0 - gathered * (1.0 - device.gather_rate(a.segment_step or 64))
        seconds += a.tensor_bytes * a.factor / rate
        if gathered and (worst is None or rate < worst[0]):
            worst = (rate, a)
    efficiency = moved / seconds
    if worst is None:
        return 1.0, ""
    rate, a = worst
    return efficiency, (f"the gather at TTGIR line {a.line} uses one 32-byte sector of each 64-byte segment, "
                        f"segments {a.segment_step} B apart: the DRAM moves them at {rate:.0%} of a copy's rate "
                        f"(all accesses together: {efficiency:.0%})")


def _coalescing_factor(accesses: list[Coalescing]) -> tuple[float, str]:
    """The DRAM traffic factor of all analysed global accesses (weighted by their bytes) and the worst one in words."""
    analysed = [a for a in accesses if a.useful_bytes]
    if not analysed:
        return 1.0, ""
    total = sum(a.tensor_bytes for a in analysed)
    factor = sum(a.factor * a.tensor_bytes for a in analysed) / total if total else 1.0
    # an access of a few elements (a scalar result) moves one sector however its lanes step: nothing to coalesce
    bad = max(analysed, key=lambda a: (a.tensor_bytes > 32, a.factor))
    if bad.factor < 1.5 or bad.tensor_bytes <= 32:
        return factor, ""
    return factor, (f"uncoalesced {bad.op} (TTGIR line {bad.line}): a warp instruction touches {bad.sectors} 32-byte "
                    f"sectors for {bad.useful_bytes} useful bytes; all of a warp's registers use {bad.warp_bytes} "
                    f"bytes of {bad.warp_segments} 64-byte DRAM segments ({bad.factor:.0f}x the DRAM traffic; "
                    f"{bad.note}); contiguous addresses across lanes would cut it")


def _gather_words(line: int, g: Gather) -> str:
    """What a gather leaves unknown: the DRAM bytes between its best and worst case, and the tensor it reads."""
    mib = 2**20
    name = g.tensor or "the gathered tensor"
    table = f"{name} ({g.tensor_bytes / mib:.1f} MiB)" if g.tensor_bytes else name
    low = min(g.tensor_bytes, g.useful_bytes) if g.tensor_bytes else g.useful_bytes
    high = g.requested_sectors * 32
    head = f"gather at TTGIR line {line} from {table} through indices loaded at run time: their locality is not known"
    counted = f"counted: {g.dram_sectors * 32 / mib:.1f} MiB"
    if high <= 1.05 * low:  # whole sectors used: only indices that repeat (and hit the L2) would cost less
        return (f"{head}; each index's elements fill their 32-byte sectors, so its DRAM bytes are at most "
                f"{high / mib:.1f} MiB (every sector a miss), less where indices repeat and hit the L2; {counted}")
    best = f"each byte of {name} once" if g.tensor_bytes and g.tensor_bytes < g.useful_bytes \
        else "each requested byte once"
    return (f"{head}, so its DRAM bytes lie between {low / mib:.1f} MiB ({best}) and {high / mib:.1f} MiB (every "
            f"32-byte sector a miss); {counted}")

