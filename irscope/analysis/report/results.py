"""The typed answer of ``irscope report``: one row per kernel, one per call outside Triton, and the program's totals."""

from __future__ import annotations

from dataclasses import dataclass

from irscope.analysis.report.facts import ConfigFacts
from irscope.model.program_record import SourceLine

__all__ = ["JIT_KIND", "ExternRow", "KernelRow", "KernelUseRow", "ProgramReport", "Verdict", "WhatIf"]

RUNGS = ("leave", "tune", "hand")
RUNG_WORDS = {"leave": "leave it to torch.compile", "tune": "tune it", "hand": "write it by hand"}
# The kind of a row launched outside the torch.compile graphs: the program's own @triton.jit kernels, a library's.
JIT_KIND = "jit"
# The same rungs for a kernel the program launched itself (its own @triton.jit, a library's): no torch.compile to leave
# it to.
JIT_RUNG_WORDS = {"leave": "leave it as it is", "tune": "tune it", "hand": "rework it by hand"}


@dataclass(frozen=True)
class WhatIf:
    """One variant of a kernel's chosen config, compiled and predicted at the same launch.

    Attributes:
        label: the change (``num_warps=8``).
        key: the variant's capture key ("" when it did not compile).
        predicted_us: the variant's predicted time per launch (0 when it did not compile).
        error: why it did not compile ("" when it did).
    """

    label: str
    key: str = ""
    predicted_us: float = 0.0
    error: str = ""


@dataclass(frozen=True)
class Verdict:
    """Where a kernel stands on the kernel-authoring ladder, with the numbers that put it there.

    Attributes:
        rung: ``leave`` (to torch.compile), ``tune`` (a variant is predicted faster) or ``hand`` (write it by hand).
        evidence: the numbers, in one sentence.
        what_ifs: the variants tried (empty when none were).
    """

    rung: str
    evidence: str
    what_ifs: tuple[WhatIf, ...] = ()

    @property
    def words(self) -> str:
        """The rung in words."""
        return RUNG_WORDS[self.rung]


@dataclass(frozen=True)
class KernelUseRow:
    """One graph's use of a kernel.

    Attributes:
        graph / kind: the graph's index and kind.
        per_run: launches per run of the graph; ``calls`` runs of the graph in the program.
        configs: how many configs Inductor compiled for it; ``chosen`` the one the model predicts fastest, ``choice``
            its number (the capture's config index: Inductor's order, as list and show --config number it).
        missing: why it was not modelled ("" when it was).
    """

    graph: int
    kind: str
    per_run: int
    calls: int
    configs: int
    chosen: ConfigFacts | None
    choice: int = 0
    missing: str = ""

    @property
    def launches(self) -> int:
        """Launches over the whole run."""
        return self.per_run * self.calls


@dataclass(frozen=True)
class KernelRow:
    """One Triton kernel of the program (a forward and a backward kernel of one name are two rows).

    Attributes:
        name: the kernel's name; ``kind`` the kind of the graphs it is in (``inference``, ``forward``, ``backward``).
        uses: each graph's use of it.
        per_step: launches per step; ``launches`` over the whole run.
        per_launch_us: predicted time per launch (the mean over its uses, weighted by launches).
        step_us / total_us: predicted time per step and over the whole run; ``low_us`` / ``high_us`` the run's range.
        share: of the program's predicted Triton time.
        chosen: the facts of the config used by its most-launched use (what the columns show).
        aten / lines: where it came from (Inductor's provenance), ``provenance_missing`` why there is none.
        time_kind: ``point``, ``range`` (``low_us`` .. ``high_us``) or ``lower_bound`` (at least ``low_us``: some
            use's time has no upper end the model knows, ``perf.facts.TimeSpan``).
        reason: one line from the model's numbers (the top rows only, else "").
        verdict: its rung on the ladder (the top rows only, else None).
    """

    name: str
    kind: str
    uses: tuple[KernelUseRow, ...]
    per_step: float
    launches: int
    per_launch_us: float
    step_us: float
    total_us: float
    low_us: float
    high_us: float
    share: float
    chosen: ConfigFacts | None
    aten: tuple[str, ...] = ()
    lines: tuple[SourceLine, ...] = ()
    provenance_missing: str = ""
    time_kind: str = "point"
    reason: str = ""
    verdict: Verdict | None = None

    @property
    def modelled(self) -> bool:
        """Whether the model predicted at least one of its uses."""
        return self.chosen is not None

    @property
    def configs(self) -> int:
        """Configs compiled for its most-launched modelled use (the one ``chosen`` is of)."""
        return self._main.configs if self._main is not None else 0

    @property
    def config(self) -> int:
        """The number of ``chosen``: its config index, as ``irscope list`` and ``show --config`` give it."""
        return self._main.choice if self._main is not None else 0

    @property
    def _main(self) -> KernelUseRow | None:
        modelled = [u for u in self.uses if u.chosen is not None] or list(self.uses)
        return max(modelled, key=lambda u: u.launches) if modelled else None

    @property
    def verdict_words(self) -> str:
        """Its verdict's rung in words ("" without one): a torch.compile kernel's, or a kernel launched outside the
        graphs (``kind`` ``jit``)."""
        if self.verdict is None:
            return ""
        return (JIT_RUNG_WORDS if self.kind == JIT_KIND else RUNG_WORDS)[self.verdict.rung]

    @property
    def missing(self) -> str:
        """Why some use was not modelled ("" when all were)."""
        return next((u.missing for u in self.uses if u.missing), "")


@dataclass(frozen=True)
class ExternRow:
    """Calls outside Triton (cuBLAS, cuDNN, an ATen kernel) of one op and shape: not modelled.

    Attributes:
        op / library: the ATen operator and who runs it.
        kind: the graphs' kind; ``shapes`` / ``dtype`` of its first call.
        per_step / calls: calls per step and over the whole run.
        flops / nbytes: of one call, when known (0 when not).
        bound_us: a lower bound on one call: the longer of its bytes at the DRAM bandwidth and its FLOPs at peak
            (0 when neither is known); a bound, not a prediction.
    """

    op: str
    library: str
    kind: str
    shapes: tuple[tuple[int, ...], ...]
    dtype: str
    per_step: float
    calls: int
    flops: int
    nbytes: int
    bound_us: float


@dataclass(frozen=True)
class ProgramReport:
    """The report of one program capture.

    Attributes:
        program: the program's id; ``command`` its command line; ``target`` / ``gpu`` what it was modelled for.
        steps: the steps the per-step columns divide by; ``steps_from`` where that number came from.
        kernels: every Triton kernel, by predicted total time, longest first.
        externs: the calls outside Triton.
        triton_us / step_us: the program's predicted Triton time over the run and per step.
        notes: what the capture or the report could not cover, one sentence each.
        what_if: whether variants were compiled for the top kernels' verdicts.
        torch_version: the program's torch ("" when it imported none or the record predates it).
    """

    program: str
    command: str
    target: str
    gpu: str
    steps: int
    steps_from: str
    kernels: tuple[KernelRow, ...]
    externs: tuple[ExternRow, ...]
    triton_us: float
    step_us: float
    notes: tuple[str, ...] = ()
    what_if: bool = False
    torch_version: str = ""
