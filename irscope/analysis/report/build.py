"""Build the report of a program capture from its record and each compiled config's facts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from irscope.analysis.perf.device import DeviceModel
from irscope.analysis.report.facts import ConfigFacts
from irscope.analysis.report.reasons import kernel_reason, kernel_verdict
from irscope.analysis.report.results import (
    JIT_KIND,
    ExternRow,
    KernelRow,
    KernelUseRow,
    ProgramReport,
    WhatIf,
)
from irscope.errors import UsageError
from irscope.model.program_record import GraphRecord, KernelUse, ProgramRecord, SourceLine

__all__ = ["JIT_KIND", "build_report", "extern_peak", "program_steps"]


def program_steps(record: ProgramRecord, steps: int | None) -> tuple[int, str]:
    """The steps the per-step columns divide by, and where the number came from (``--steps``, graph 0's calls)."""
    if steps is not None:
        if steps < 1:
            raise UsageError(f"--steps {steps}: give a positive number of steps (e.g. --steps 10)")
        return steps, "--steps"
    if not record.graphs:
        return 1, "one run (the program compiled no graph)"
    first = record.graphs[0]
    if first.calls < 1:
        return 1, "one (graph 0's runs were not counted; give --steps N)"
    return first.calls, f"the runs of graph 0 ({first.kind}), the first compiled"


def _use_row(graph: GraphRecord, use: KernelUse, facts: Mapping[str, ConfigFacts | str]) -> KernelUseRow:
    """One graph's use, with the config the model predicts fastest (as Inductor's autotuning would pick it)."""
    found = [f for f in (facts.get(k) for k in use.keys) if isinstance(f, ConfigFacts)]
    why = next((f for f in (facts.get(k) for k in use.keys) if isinstance(f, str)), "")
    if not use.keys:
        why = "the record names no compiled config"
    chosen = min(found, key=lambda f: f.predicted_us) if found else None
    return KernelUseRow(graph=graph.index, kind=graph.kind, per_run=use.per_run, calls=graph.calls,
                        configs=len(use.keys), chosen=chosen, choice=chosen.config_index if chosen else 0,
                        missing="" if chosen else (why or "not modelled"))


def _kernel_row(name: str, kind: str, uses: list[tuple[KernelUseRow, KernelUse]], steps: int) -> KernelRow:
    launches = sum(u.launches for u, _ in uses)
    modelled = [u for u, _ in uses if u.chosen is not None]
    total = sum(u.launches * u.chosen.predicted_us for u in modelled if u.chosen)
    low = sum(u.launches * u.chosen.low_us for u in modelled if u.chosen)
    high = sum(u.launches * u.chosen.high_us for u in modelled if u.chosen)
    counted = sum(u.launches for u in modelled)
    main = max(modelled, key=lambda u: u.launches, default=None)
    aten: list[str] = []
    lines: list[SourceLine] = []
    missing = ""
    for _, use in uses:
        aten += [a for a in use.provenance.aten if a not in aten]
        lines += [ln for ln in use.provenance.lines if ln not in lines]
        missing = missing or use.provenance.missing
    kinds = {u.chosen.perf.time.kind for u in modelled if u.chosen}
    time_kind = "lower_bound" if "lower_bound" in kinds else "range" if high > low else "point"
    return KernelRow(name=name, kind=kind, uses=tuple(u for u, _ in uses), per_step=launches / steps,
                     launches=launches, per_launch_us=total / counted if counted else 0.0, step_us=total / steps,
                     total_us=total, low_us=low, high_us=high, share=0.0, chosen=main.chosen if main else None,
                     aten=tuple(aten), lines=tuple(lines), provenance_missing="" if lines else missing,
                     time_kind=time_kind)


_DTYPES = {"float16": "fp16", "half": "fp16", "bfloat16": "bf16", "float32": "tf32", "float": "tf32",
           "float64": "fp64", "double": "fp64", "int8": "int8"}


def extern_peak(device: DeviceModel, dtype: str) -> float:
    """The highest rate a call on ``dtype`` operands could run at (TFLOP/s): its tensor-core peak (fp32 as TF32),
    or the vector peak when that is higher; so FLOPs at it give a lower bound on the call's time."""
    name = _DTYPES.get(dtype.removeprefix("torch."), "")
    vector = device.vector_tflops.get("fp64" if name == "fp64" else "fp32", 0.0)
    return max(device.tensor_tflops.get(name, 0.0), vector) if name else max(device.tensor_tflops.values(), default=0.0)


def _externs(record: ProgramRecord, steps: int, device: DeviceModel) -> tuple[ExternRow, ...]:
    """The calls outside Triton, one row per op, library, kind and shape."""
    rows: dict[tuple[str, str, str, tuple[tuple[int, ...], ...]], ExternRow] = {}
    for graph in record.graphs:
        for ext in graph.externs:
            key = (ext.op, ext.library, graph.kind, ext.shapes)
            calls = ext.per_run * graph.calls
            old = rows.get(key)
            if old is not None:
                rows[key] = replace(old, calls=old.calls + calls, per_step=(old.calls + calls) / steps)
                continue
            peak = extern_peak(device, ext.dtype)
            bound = max(ext.nbytes / (device.dram_gbs * 1e3) if device.dram_gbs else 0.0,
                        ext.flops / (peak * 1e6) if peak else 0.0)
            rows[key] = ExternRow(op=ext.op, library=ext.library, kind=graph.kind, shapes=ext.shapes,
                                  dtype=ext.dtype, per_step=calls / steps, calls=calls, flops=ext.flops,
                                  nbytes=ext.nbytes, bound_us=bound)
    return tuple(sorted(rows.values(), key=lambda r: (-r.calls * r.bound_us, r.op)))


def build_report(record: ProgramRecord, facts: Mapping[str, ConfigFacts | str], device: DeviceModel, *,
                 steps: int | None = None, top: int = 10, what_ifs: Mapping[str, tuple[WhatIf, ...]] | None = None,
                 notes: tuple[str, ...] = (), launched: tuple[KernelUse, ...] = ()) -> ProgramReport:
    """The report: rows by predicted total time, reasons and verdicts for the ``top`` rows.

    ``facts``: each capture key's facts, or why it has none; ``what_ifs``: the variants tried, by chosen key;
    ``launched``: the kernels launched outside the graphs, ``per_run`` their launches in the whole run (rows of kind
    ``JIT_KIND``).
    """
    count, steps_from = program_steps(record, steps)
    grouped: dict[tuple[str, str], list[tuple[KernelUseRow, KernelUse]]] = {}
    for graph in record.graphs:
        for use in graph.kernels:
            grouped.setdefault((use.name, graph.kind), []).append((_use_row(graph, use, facts), use))
    run = GraphRecord(index=-1, kind=JIT_KIND, calls=1)  # the whole run, as one "graph" run once
    for use in launched:
        grouped.setdefault((use.name, JIT_KIND), []).append((_use_row(run, use, facts), use))
    rows = [_kernel_row(name, kind, uses, count) for (name, kind), uses in grouped.items()]
    triton = sum(r.total_us for r in rows)
    rows = [replace(r, share=r.total_us / triton if triton else 0.0) for r in rows]
    rows.sort(key=lambda r: (not r.modelled, -r.total_us, r.name))
    tried = what_ifs or {}
    done = []
    for i, row in enumerate(rows):
        if i < top and row.chosen is not None:
            row = replace(row, reason=kernel_reason(row.chosen),
                          verdict=kernel_verdict(row, tried.get(row.chosen.key)))
        done.append(row)
    unmodelled = [r.name for r in rows if not r.modelled]
    extra: tuple[str, ...] = (f"{len(unmodelled)} kernel(s) not modelled: {', '.join(unmodelled[:5])}"
             + (" ..." if len(unmodelled) > 5 else ""),) if unmodelled else ()
    bounded = [r.name for r in rows if r.time_kind == "lower_bound"]
    if bounded:  # ranked by their least time: each may belong higher, none lower
        extra += (f"{len(bounded)} kernel(s) have a lower bound for a time (a loop's trips or a branch on data the "
                  "model does not know; marked '>='): ranked by that least time, so each may rank higher, none lower: "
                  + ", ".join(bounded[:5]) + (" ..." if len(bounded) > 5 else ""),)
    return ProgramReport(program=record.id, command=record.command, target=record.target,
                         gpu=device.name, steps=count, steps_from=steps_from, kernels=tuple(done),
                         externs=_externs(record, count, device), triton_us=triton, step_us=triton / count,
                         notes=tuple(record.notes) + extra + notes, what_if=what_ifs is not None,
                         torch_version=record.torch_version)
