"""Read what a timing compile printed: irscope's stage markers and MLIR's pass timing reports.

With ``MLIR_ENABLE_TIMING=1`` every Triton pass manager prints, when it is destroyed, a report::

    ===-------------------------------------------------------------------------===
                             ... Execution time report ...
    ===-------------------------------------------------------------------------===
      Total Execution Time: 0.0107 seconds

      ----Wall Time----  ----Name----
        0.0005 (  5.1%)  ConvertTritonToTritonGPU
        0.0005 (  4.5%)  'any' Pipeline
        0.0003 (  2.3%)    CanonicalizerPass
        0.0107 (100.0%)  Total

The worker's markers (``// -----// irscope stage-begin ttgir t=0.0123``) give each report its stage
and each stage its wall time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from irscope.parse.passes import DumpProblem, classify_header

# Example:     0.0005 (  4.5%)    0.0003 (  2.3%)    CanonicalizerPass   (user and wall columns, then the name;
#              "Rest" can be negative when nested timers overlap: -0.0007 (-11.1%)  Rest)
_TIME_CELL = re.compile(r"(-?\d+\.\d+) \(\s*-?[\d.]+%\)")
# Example:                          ... Execution time report ...
_REPORT_TITLE = re.compile(r"^\s*\.\.\. Execution time report \.\.\.\s*$")
# Example:   ----Wall Time----  ----Name----
_COLUMNS = re.compile(r"^\s*(?:----[\w ]+----\s*)+$")


@dataclass(frozen=True)
class PassTime:
    """One row of an MLIR timing report.

    Attributes:
        name: the pass class (``TritonGPUPipeline``), a nested pipeline (``'tt.func' Pipeline``),
            an analysis (``(A) DominanceInfo``), ``Rest`` or ``Total``.
        seconds: wall time.
        depth: nesting under pipelines (0 at top level).
        stage: the compile stage whose pass manager printed it.
        kind: ``pass``, ``pipeline``, ``analysis``, ``rest`` or ``total``.
    """

    name: str
    seconds: float
    depth: int
    stage: str
    kind: str


@dataclass(frozen=True)
class StageTime:
    """One stage of one compile, from the worker's markers.

    Attributes:
        stage: stage name.
        begin / end: seconds since the compile started.
        seconds: the stage's wall time.
        translate: when MLIR was handed to LLVM (llir only), else None.
        optimize: (begin, end) of LLVM's optimizer (llir only), else None.
    """

    stage: str
    begin: float
    end: float
    seconds: float
    translate: float | None = None
    optimize: tuple[float, float] | None = None


@dataclass(frozen=True)
class TimingRun:
    """One compile of a timing run.

    Attributes:
        index: 0 for the first compile in the process (it pays one-time setup), then 1, 2, ...
        seconds: wall time of ``triton.compile``.
        stages: the stages in order.
        passes: every row of every MLIR timing report, in order.
    """

    index: int
    seconds: float
    stages: tuple[StageTime, ...]
    passes: tuple[PassTime, ...] = field(default=())

    def stage(self, name: str) -> StageTime | None:
        """A stage by name."""
        return next((s for s in self.stages if s.stage == name), None)


def _row_kind(name: str) -> str:
    if name == "Total":
        return "total"
    if name == "Rest":
        return "rest"
    if name.startswith("(A) "):
        return "analysis"
    if name.endswith(" Pipeline"):
        return "pipeline"
    return "pass"


def parse_report_row(line: str, stage: str) -> PassTime | None:
    """A timing-report row, or None for anything else."""
    cells = list(_TIME_CELL.finditer(line))
    if not cells or line[:cells[0].start()].strip():
        return None
    rest = line[cells[-1].end():]
    name = rest.strip()
    if not name:
        return None
    indent = len(rest) - len(rest.lstrip(" "))
    return PassTime(name=name, seconds=float(cells[-1].group(1)), depth=max(0, (indent - 2) // 2), stage=stage,
                    kind=_row_kind(name))


class _RunBuilder:
    """Collects one compile's stages and report rows while the lines go by."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.seconds = 0.0
        self.stages: list[StageTime] = []
        self.open: dict[str, float] = {}
        self.extra: dict[str, dict[str, float]] = {}
        self.passes: list[PassTime] = []
        self.stage = ""

    def build(self) -> TimingRun:
        return TimingRun(index=self.index, seconds=self.seconds, stages=tuple(self.stages), passes=tuple(self.passes))


def parse_timing(text: str, source: str = "<timing>") -> tuple[list[TimingRun], list[DumpProblem]]:
    """The compiles recorded in a timing run's output, and anything that could not be read."""
    runs: list[TimingRun] = []
    problems: list[DumpProblem] = []
    run: _RunBuilder | None = None
    in_report = False
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if line.startswith("// -----// irscope "):
            in_report = False
            h = classify_header(line)
            if h.kind != "marker":
                if number < len(lines):  # the last line may just be cut short; that is reported below
                    problems.append(DumpProblem(source, number, f"unreadable marker {line[:60]!r}"))
                continue
            if h.event == "compile-begin":
                run = _RunBuilder(int(h.value("run", str(len(runs)))))
                continue
            if run is None:
                continue
            run = _on_marker(run, h.event, h.stage, dict(h.values), runs, number, source, problems)
            continue
        if run is None:
            continue
        if _REPORT_TITLE.match(line):
            in_report = True
            continue
        if in_report and (row := parse_report_row(line, run.stage or (run.stages[-1].stage if run.stages else ""))):
            run.passes.append(row)
            if row.kind == "total":
                in_report = False
        elif in_report and line.strip() and not line.startswith(("===", "  Total Execution")) \
                and not _COLUMNS.match(line):
            problems.append(DumpProblem(source, number, f"unreadable timing row {line.strip()[:60]!r}"))
    if run is not None:
        problems.append(DumpProblem(source, len(lines), f"compile {run.index} has no end marker: "
                                    "the timing run stopped early", cut=True))
    return runs, problems


def _on_marker(run: _RunBuilder, event: str, stage: str, values: dict[str, str], runs: list[TimingRun],
               line: int, source: str, problems: list[DumpProblem]) -> _RunBuilder | None:
    """Apply a marker to the run being read; return the run still open (None once it ended)."""
    t = float(values.get("t", "nan"))
    if event == "stage-begin":
        run.open[stage] = t
        run.stage = stage
    elif event in ("translate-begin", "optimize-begin", "optimize-end"):
        run.extra.setdefault(stage, {})[event] = t
    elif event == "stage-end":
        begin = run.open.pop(stage, None)
        if begin is None:
            problems.append(DumpProblem(source, line, f"stage {stage} ended without beginning"))
            return run
        extra = run.extra.get(stage, {})
        optimize = (extra["optimize-begin"], extra["optimize-end"]) \
            if "optimize-begin" in extra and "optimize-end" in extra else None
        run.stages.append(StageTime(stage=stage, begin=begin, end=t, seconds=float(values.get("seconds", t - begin)),
                                    translate=extra.get("translate-begin"), optimize=optimize))
        run.stage = ""
    elif event == "compile-end":
        run.seconds = float(values.get("seconds", "0"))
        runs.append(run.build())
        return None
    elif event == "compile-failed":
        problems.append(DumpProblem(source, line, f"compile {run.index} failed"))
        return None
    return run
