"""Time a kernel's compile, stage by stage and MLIR pass by pass, in a clean compile of its own.

The artifact capture's stage times include nvdisasm (it dumps SASS) and the per-pass capture's are
inflated by printing, so timing runs Triton again in a child process with only
``MLIR_ENABLE_TIMING=1`` (MLIR's pass timer) and a fresh cache, ``repeat`` times in a row. This returns
the runs as parsed; irscope.request.timing summarises them with the pass numbers of the capture's dump.
"""

from __future__ import annotations

from dataclasses import dataclass

from irscope.compile.job import CaptureJob, JobSource
from irscope.compile.passes import Worker
from irscope.errors import CompileError
from irscope.parse.passes import DumpProblem
from irscope.parse.timing import TimingRun, parse_timing
from irscope.store.store import Capture


@dataclass(frozen=True)
class TimedCompiles:
    """The compiles of one timing run, as MLIR's pass timer and irscope's stage markers reported them.

    Attributes:
        runs: each compile, in order (the first pays one-time setup).
        triton_version: the Triton that compiled.
        problems: unreadable report lines and the like.
    """

    runs: tuple[TimingRun, ...]
    triton_version: str
    problems: tuple[DumpProblem, ...]


def time_compiles(request: CaptureJob | JobSource, capture: Capture, repeat: int = 3) -> TimedCompiles:
    """Compile the capture's job ``repeat`` times in a child process with MLIR's pass timer on."""
    worker = Worker(request, capture, "timing", {"MLIR_ENABLE_TIMING": "1"}, repeat=max(1, repeat))
    text = b"".join(worker.stream()).decode("utf-8", errors="replace")
    if not worker.result.get("ok"):
        raise CompileError(f"the timing compile failed:\n{worker.result.get('error', '')}")
    runs, problems = parse_timing(text, f"timing of {capture.manifest.key}")
    if not runs:
        raise CompileError(f"the timing compile printed no timings; problems: {'; '.join(map(str, problems))}")
    return TimedCompiles(runs=tuple(runs), triton_version=str(worker.result.get("triton_version")),
                         problems=tuple(problems))
