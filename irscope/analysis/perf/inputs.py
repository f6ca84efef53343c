"""The one typed input of ``predict``: what was read of a launch's work, and the hook for values known at run time.

``capture.capture_perf`` reads a stored capture into a ``PerfInputs``; ``predict.predict`` turns it into the one
``PerfReport`` (``PerfResult``). ``RuntimeValues`` is where values the static model cannot know plug in (the contents
of the tensors a launch reads its loop bounds from, recorded with the launch): ``capture_perf(known_values=...)``
asks it for each loop whose trips the launch's integer arguments do not decide.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from irscope.analysis.perf.atomics import Contention
from irscope.analysis.perf.device import DeviceModel
from irscope.analysis.perf.facts import Unknown
from irscope.analysis.perf.panels import PanelTraffic
from irscope.analysis.perf.report import BankSummary, LoopCost
from irscope.analysis.perf.work import Mix
from irscope.model.launch import LaunchShape

__all__ = ["LoopSite", "PerfInputs", "RuntimeValues"]


@dataclass(frozen=True)
class LoopSite:
    """A loop whose trip count the launch's integer arguments do not decide.

    Attributes:
        ttgir_line: the line of its ``scf.for`` in the capture's TTGIR; ``source_line`` its kernel source line (0 when
            unknown).
        decided_by: what its bounds come from: ``loaded:<tensor argument>`` (a value loaded from that tensor),
            ``argument:<name>`` (an integer argument the launch did not record), ``loop`` (a value computed in an
            enclosing loop) or "" (ops the evaluator does not follow).
    """

    ttgir_line: int
    source_line: int
    decided_by: str


class RuntimeValues(Protocol):
    """Values known when the launch ran (recorded tensor contents, a value evaluator), asked per program id."""

    def loop_trips(self, site: LoopSite, program: tuple[int, int, int]) -> int | None:
        """The trips of the loop at ``site`` for the program with this id; None when not known."""
        ...


@dataclass(frozen=True)
class PerfInputs:
    """What ``predict`` needs of one launch; every figure per CTA unless it says otherwise.

    Attributes:
        kernel / target / config_index: the capture; ``device`` the GPU's figures; ``shape`` the launch.
        num_warps: warps per CTA; ``occupancy``: ``irscope.analysis.resources``' occupancy (None when unknown).
        once: the mix run once per CTA outside loops; ``loops`` each loop's trips and per-iteration mix.
        prologue_iterations: per machine-code loop label, the iterations its pipeliner issued ahead.
        bank: the bank-conflict section.
        spills: bytes per thread spilled; ``local_wavefronts`` the L1 wavefronts of the spill traffic.
        coalescing / coalescing_factor: the worst uncoalesced access in words and the DRAM traffic factor.
        shared_per_cta: shared memory bytes; ``l2_bytes_per_request`` useful bytes per L2 request.
        dram_efficiency / gather_note: the DRAM rate against a copy's and what lowers it.
        notes: further assumptions, one sentence each; ``uncertain`` what the model could not find out in words.
        unknowns: the same, typed (each with what would decide it).
        rounds: the rounds in which each CTA writes its part of the output.
        serial: per loop whose MMAs wait on a load not issued ahead: executions, tensor FLOPs, the load's line.
        panels: a persistent grid's (or TMA descriptors') panel traffic; ``copies`` bytes requested again because a
            layout gives an element to several threads; ``tma_bytes`` what TMA copies move over the launch.
        programs: the share of the grid's programs past the early returns their program id decides.
        sass_in_flight: global-load bytes one thread keeps outstanding in the SASS, 0 when unknown.
        dots: the kernel has a dot; ``dependent`` loads outside loops that wait for one another in turn.
        atomics: the most contended atomic op, None when none.
        slow_path_instructions: libdevice slow-path instructions left out of the count.
        softmax_rows: the kernel reduces rows and takes an exponential of them.
        known_values: the run-time values the loop trips were asked of (None: none were known).
    """

    kernel: str
    target: str
    config_index: int
    device: DeviceModel
    shape: LaunchShape
    num_warps: int
    occupancy: Any
    once: Mix
    loops: tuple[LoopCost, ...]
    prologue_iterations: dict[str, float]
    bank: BankSummary
    spills: int = 0
    coalescing: str = ""
    coalescing_factor: float = 1.0
    local_wavefronts: float = 0.0
    shared_per_cta: int = 0
    l2_bytes_per_request: float = 128.0
    dram_efficiency: float = 1.0
    gather_note: str = ""
    notes: tuple[str, ...] = ()
    rounds: float = 1.0
    serial: tuple[tuple[float, float, str], ...] = ()
    panels: PanelTraffic | None = None
    copies: float = 0.0
    tma_bytes: float = 0.0
    uncertain: tuple[str, ...] = ()
    unknowns: tuple[Unknown, ...] = ()
    programs: float = 1.0
    sass_in_flight: float = 0.0
    dots: bool = True
    dependent: int = 0
    atomics: Contention | None = None
    slow_path_instructions: int = 0
    softmax_rows: bool = False
    known_values: RuntimeValues | None = field(default=None, compare=False)
