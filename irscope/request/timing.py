"""How long each phase, stage and MLIR pass of a capture's compile takes: compiled again and summarised.

irscope.compile.timing compiles the capture's request again with MLIR's pass timer on; the medians are
summarised here (irscope.analysis.timing) with the passes numbered as in the capture's per-pass dump, the
numbers ``irscope passes`` and ``diff --pass N`` use.
"""

from __future__ import annotations

from dataclasses import dataclass

from irscope.analysis.timing import CompileTiming, summarize_timing
from irscope.compile.job import CaptureJob, JobSource
from irscope.compile.timing import time_compiles
from irscope.parse.passes import DumpProblem
from irscope.store.passdump import PassDump, load_dump
from irscope.store.store import Capture

__all__ = ["TimingResult", "measure_timing"]


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


def measure_timing(request: CaptureJob | JobSource, capture: Capture, repeat: int = 3,
                   dump: PassDump | None = None) -> TimingResult:
    """Compile ``repeat`` times with MLIR's pass timer on; summarise the medians, passes numbered as in
    ``dump`` (default: the capture's stored pass dump, if any)."""
    timed = time_compiles(request, capture, repeat)
    dump = dump if dump is not None else load_dump(capture.path)
    return TimingResult(timing=summarize_timing(timed.runs, dump.index.passes if dump is not None else ()),
                        triton_version=timed.triton_version, problems=timed.problems)
