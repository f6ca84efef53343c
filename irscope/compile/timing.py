"""Time a kernel's compile, stage by stage and MLIR pass by pass, in a clean compile of its own.

The artifact capture's stage times include nvdisasm (it dumps SASS) and the per-pass capture's are
inflated by printing, so timing runs Triton again in a child process with only
``MLIR_ENABLE_TIMING=1`` (MLIR's pass timer) and a fresh cache, ``repeat`` times in a row.
"""

from __future__ import annotations

from dataclasses import dataclass

from irscope.analysis.timing import CompileTiming, summarize_timing
from irscope.compile.job import CaptureJob, JobSource
from irscope.compile.passes import Worker
from irscope.errors import CompileError
from irscope.parse.passes import DumpProblem
from irscope.parse.timing import parse_timing
from irscope.request.passdump import PassDump, load_dump
from irscope.store.store import Capture


@dataclass(frozen=True)
class TimingResult:
    """A timing run and what could not be read of it.

    Attributes:
        timing: the summary.
        triton_version: the Triton that compiled.
        problems: unreadable report lines and the like.
    """

    timing: CompileTiming
    triton_version: str
    problems: tuple[DumpProblem, ...]


def measure_timing(request: CaptureJob | JobSource, capture: Capture, repeat: int = 3, dump: PassDump | None = None) -> TimingResult:
    """Compile ``repeat`` times with MLIR's pass timer on; summarise the medians, passes numbered as in
    ``dump`` (default: the capture's stored pass dump, if any)."""
    worker = Worker(request, capture, "timing", {"MLIR_ENABLE_TIMING": "1"}, repeat=max(1, repeat))
    text = b"".join(worker.stream()).decode("utf-8", errors="replace")
    if not worker.result.get("ok"):
        raise CompileError(f"the timing compile failed:\n{worker.result.get('error', '')}")
    runs, problems = parse_timing(text, f"timing of {capture.manifest.key}")
    if not runs:
        raise CompileError(f"the timing compile printed no timings; problems: {'; '.join(map(str, problems))}")
    dump = dump if dump is not None else load_dump(capture.path)
    return TimingResult(timing=summarize_timing(runs, dump.index.passes if dump is not None else ()), triton_version=str(worker.result.get("triton_version")),
                        problems=tuple(problems))
