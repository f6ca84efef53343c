"""Where compile time goes: Triton's MLIR passes, LLVM, and the assembler (ptxas or lld).

Phases of one compile, from the worker's markers:

* frontend: from ``triton.compile`` to the first stage (Python AST to TTIR, cache key, setup);
* MLIR: the ttir and ttgir stages and the llir stage up to the hand-over to LLVM;
* LLVM IR: translating the LLVM dialect to LLVM IR and LLVM's -O3 (rest of the llir stage);
* code generation: LLVM's NVPTX / AMDGPU back end (the ptx / amdgcn stage);
* assembler: ptxas to a cubin, or lld to an hsaco;
* other: what remains (metadata, cache writes).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from irscope.analysis.pass_numbers import UntimedPass, number_rows, timed_rows, untimed_passes
from irscope.parse.passes import PassSnapshot
from irscope.parse.timing import TimingRun

_MLIR_STAGES = ("ttir", "ttgir")
_CODEGEN = {"ptx": "LLVM NVPTX back end (LLVM IR to PTX)", "amdgcn": "LLVM AMDGPU back end (LLVM IR to AMDGCN)"}
_ASSEMBLER = {"cubin": "ptxas (PTX to cubin)", "hsaco": "lld (AMDGCN object to hsaco)"}


@dataclass(frozen=True)
class Phase:
    """One part of the compile.

    Attributes:
        name: ``frontend``, ``mlir``, ``llvm``, ``codegen``, ``assembler`` or ``other``.
        label: what it is, for people.
        seconds: median over the runs.
        share: fraction of the median total.
    """

    name: str
    label: str
    seconds: float
    share: float


@dataclass(frozen=True)
class PassTiming:
    """One MLIR pass's time (median over the runs).

    Attributes:
        number: the pass's number in the capture's pass dump, as ``irscope passes`` and
            ``diff --pass N`` show it (its first run when it ran several times); None when the dump
            has no such pass.
        runs: the dump numbers of every run this row's time covers (a pass in a nested pipeline
            runs once per function or call).
        stage: the stage it ran in.
        pass_class: as MLIR's report names it.
        name: its pass argument when the dump has it, else the class.
        seconds: median wall time.
        depth: nesting under a pipeline.
        pipeline: '' for a pass of the stage's pass manager, else the operation its nested pipeline
            ran on (``tt.func``, ``any``).
    """

    number: int | None
    runs: tuple[int, ...]
    stage: str
    pass_class: str
    name: str
    seconds: float
    depth: int
    pipeline: str = ""


@dataclass(frozen=True)
class CompileTiming:
    """Compile time of one kernel, split by phase, stage and MLIR pass.

    Attributes:
        runs: how many compiles were timed; ``totals`` their wall times (the first pays one-time setup).
        total: median wall time of a compile.
        stages: (stage, median seconds) in pipeline order.
        mlir_stages: (stage, median seconds of its MLIR passes) for ttir, ttgir and llir.
        phases: the phases, in order.
        passes: MLIR passes in the timing report's order.
        untimed: passes of the dump that no row of the timing report stands for.
        assembler: ``ptxas`` or ``lld``.
        mlir_vs_assembler: the MLIR pipeline's share of (MLIR + assembler) time.
    """

    runs: int
    totals: tuple[float, ...]
    total: float
    stages: tuple[tuple[str, float], ...]
    mlir_stages: tuple[tuple[str, float], ...]
    phases: tuple[Phase, ...]
    passes: tuple[PassTiming, ...]
    assembler: str
    mlir_vs_assembler: float
    untimed: tuple[UntimedPass, ...] = ()

    def phase(self, name: str) -> Phase:
        """A phase by name."""
        return next(p for p in self.phases if p.name == name)


def _median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def _phases_of(run: TimingRun) -> dict[str, float]:
    """Seconds per phase in one compile."""
    first = min((s.begin for s in run.stages), default=0.0)
    mlir = sum(s.seconds for s in run.stages if s.stage in _MLIR_STAGES)
    llvm = 0.0
    llir = run.stage("llir")
    if llir is not None:
        handover = llir.translate if llir.translate is not None else llir.end
        mlir += handover - llir.begin
        llvm = llir.end - handover
    codegen = sum(s.seconds for s in run.stages if s.stage in _CODEGEN)
    assembler = sum(s.seconds for s in run.stages if s.stage in _ASSEMBLER)
    known = first + mlir + llvm + codegen + assembler
    return {"frontend": first, "mlir": mlir, "llvm": llvm, "codegen": codegen, "assembler": assembler,
            "other": max(0.0, run.seconds - known)}


def summarize_timing(runs: Sequence[TimingRun], dump_passes: Sequence[PassSnapshot] = ()) -> CompileTiming:
    """Medians over the runs, by phase, stage and pass; passes numbered as in ``dump_passes`` (the capture's
    pass dump), so every command gives one pass the same number."""
    if not runs:
        raise ValueError("no compile was timed")
    total = _median([r.seconds for r in runs])
    per_run = [_phases_of(r) for r in runs]
    stage_order = [s.stage for s in runs[0].stages]
    codegen_stage = next((s for s in stage_order if s in _CODEGEN), "ptx")
    asm_stage = next((s for s in stage_order if s in _ASSEMBLER), "cubin")
    labels = {"frontend": "Python frontend (AST to TTIR, cache key, setup)",
              "mlir": "Triton MLIR passes (TTIR, TTGIR, TTGIR to LLVM dialect)",
              "llvm": "LLVM IR translation and LLVM -O3",
              "codegen": _CODEGEN.get(codegen_stage, "LLVM back end"),
              "assembler": _ASSEMBLER.get(asm_stage, "assembler"),
              "other": "other (metadata, cache writes)"}
    phases = tuple(Phase(name=n, label=labels[n], seconds=_median([p[n] for p in per_run]),
                         share=_median([p[n] for p in per_run]) / total if total else 0.0) for n in labels)
    stages = tuple((s, _median([st.seconds for r in runs if (st := r.stage(s)) is not None])) for s in stage_order)
    mlir_stages = []
    for s in ("ttir", "ttgir", "llir"):
        values = []
        for r in runs:
            st = r.stage(s)
            if st is not None:
                values.append(st.seconds if s != "llir" else (st.translate if st.translate is not None
                                                              else st.end) - st.begin)
        if values:
            mlir_stages.append((s, _median(values)))
    timed = [[p for p in r.passes if p.kind == "pass"] for r in runs]
    shortest = min(len(t) for t in timed)
    rows = timed_rows(runs[0].passes)[:shortest]
    numbered = number_rows(rows, dump_passes)
    by_number = {p.index: p for p in dump_passes}
    passes = tuple(PassTiming(number=numbered[i][0] if numbered[i] else None, runs=numbered[i],
                              stage=timed[0][i].stage, pass_class=timed[0][i].name,
                              name=by_number[numbered[i][0]].name if numbered[i] else timed[0][i].name,
                              seconds=_median([t[i].seconds for t in timed if t[i].name == timed[0][i].name]),
                              depth=timed[0][i].depth, pipeline=rows[i].pipeline) for i in range(shortest))
    untimed = untimed_passes(dump_passes, numbered, [s for s, _ in mlir_stages]) if dump_passes else []
    mlir = next(p.seconds for p in phases if p.name == "mlir")
    asm = next(p.seconds for p in phases if p.name == "assembler")
    return CompileTiming(runs=len(runs), totals=tuple(r.seconds for r in runs), total=total, stages=stages,
                         mlir_stages=tuple(mlir_stages), phases=phases, passes=passes,
                         assembler="lld" if asm_stage == "hsaco" else "ptxas",
                         mlir_vs_assembler=mlir / (mlir + asm) if mlir + asm else 0.0, untimed=tuple(untimed))
