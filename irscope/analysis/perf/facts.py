"""What the performance model found about a launch, as typed fields: what ``report`` (and any other reader) decides on.

The sentences of a ``PerfReport`` (``bound_reason``, ``assumptions``, ``uncertain``) are for people; a program that
acts on the model's answer reads these fields instead, so a change of wording changes nothing it decides. Plain data
with a JSON form (``report`` caches it beside the program record).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["TERMS", "UNKNOWN_KINDS", "AtomicsFact", "LoopFact", "PerfFacts", "TimeSpan", "Unknown"]

# The model's terms (``predict``): the largest is the one the launch waits on.
TERMS = ("compute", "dram", "l2", "latency", "shared", "spill", "serial", "ctas", "atomics")
# What an unknown is about:
#   loop_trips: a loop's trip count (then ``decided_by`` is the tensor or argument its bound comes from);
#   branch: a branch on loaded values (the main path is modelled, the other path is the range's other end);
#   unmatched_loop: a loop whose machine code or TTGIR counterpart was not found (its work is counted once);
#   contention: atomics or locks between CTAs beyond the even spread (the time is a lower bound);
#   model: anything else the model could not find out.
UNKNOWN_KINDS = ("loop_trips", "branch", "unmatched_loop", "contention", "gather", "model")


@dataclass(frozen=True)
class Unknown:
    """One thing the model could not find out, and what would decide it.

    Attributes:
        kind: one of ``UNKNOWN_KINDS``.
        line: the kernel source line (or TTGIR line, for branches) it is at; 0 when none.
        decided_by: the tensor argument whose contents (``loaded:in_ptr0``), the scalar argument (``argument:N``) or
            the value that would decide it; "" when nothing named would.
        lower_bound: the prediction counts the least it could be (a loop counted once, no trips of a loop counted),
            so the time is at least the prediction, with no upper end the model knows.
        what: the same in words.
    """

    kind: str
    line: int = 0
    decided_by: str = ""
    lower_bound: bool = False
    what: str = ""


@dataclass(frozen=True)
class LoopFact:
    """One loop of the kernel as the model counted it.

    Attributes:
        line: its kernel source line (0 when unknown).
        trips: iterations per CTA (mean over the grid), None when unknown.
        busiest: iterations of the CTA that runs it most, None when unknown.
        origin: where the count came from: ``arguments`` (the bounds evaluated with the launch's integer arguments),
            ``per_program`` (the same, differing per program id), ``known_values`` (values the caller knew at run
            time, ``PerfInputs.known_values``), ``dead`` (the launch does not run it), ``unknown``.
        decided_by: when unknown, what its bound comes from (as ``Unknown.decided_by``).
        executions: how often its body runs per CTA as counted (unknown trips count once).
        loads_global: an iteration loads from global memory.
    """

    line: int
    trips: float | None
    busiest: int | None
    origin: str
    decided_by: str = ""
    executions: float = 1.0
    loads_global: bool = False


@dataclass(frozen=True)
class AtomicsFact:
    """The atomic op whose addresses take the most atomics each (``atomics.Contention``), as the report reads it.

    Attributes:
        line: its TTGIR line; ``tensor`` the argument it adds into, ``elements`` its elements.
        atomics: read-modify-writes the launch issues; ``per_address`` at least that many on each element.
        indirect: the addresses come from loaded values: ``per_address`` is a lower bound.
        us: the busiest address's atomics in turn.
    """

    line: int
    tensor: str
    elements: int
    atomics: float
    per_address: float
    indirect: bool
    us: float


@dataclass(frozen=True)
class TimeSpan:
    """The predicted time as what the model knows of it.

    Attributes:
        low: the least time (microseconds).
        high: the most, None when there is no upper end the model knows.
        kind: ``point`` (low == high: everything was modelled), ``range`` (low .. high) or ``lower_bound``
            (at least ``low``).
    """

    low: float
    high: float | None
    kind: str

    def to_json(self) -> dict[str, Any]:
        """``{"low": .., "high": .. | None, "kind": ..}``."""
        return {"low": self.low, "high": self.high, "kind": self.kind}

    @property
    def factor(self) -> float:
        """high / low: how far off the point could be; ``inf`` for a lower bound."""
        if self.high is None:
            return float("inf")
        return self.high / self.low if self.low > 0 else 1.0

    def shifted(self, by: float) -> TimeSpan:
        """The span with ``by`` microseconds added to both ends (no less than 0)."""
        return TimeSpan(max(self.low + by, 0.0), None if self.high is None else max(self.high + by, 0.0), self.kind)

    def words(self) -> str:
        """``8.0 us``, ``at least 8.0 us``, ``8.0 .. 12.5 us``."""
        if self.kind == "lower_bound":
            return f"at least {self.low:.1f} us"
        if self.kind == "range" and self.high is not None:
            return f"{self.low:.1f} .. {self.high:.1f} us"
        return f"{self.low:.1f} us"


@dataclass(frozen=True)
class PerfFacts:
    """What the model found about one launch, typed.

    Attributes:
        bound: ``compute``, ``memory`` or ``latency``.
        limit: the model's largest term, the resource the launch waits on (one of ``TERMS``).
        round_trips: DRAM round trips each CTA waits for in turn when they make the latency term (0 when not).
        uncoalesced_factor: the DRAM traffic factor of uncoalesced accesses (1.0 none).
        gather_rate: the DRAM rate of the launch's accesses against a copy's when a gather lowers it (1.0 none).
        atomics: the contended atomics when there are any, else None.
        loops: every loop as counted.
        unknowns: what the model could not find out, each with what would decide it.
        slow_path_instructions: libdevice slow-path instructions left out of the count (0 none).
        softmax_rows: the kernel reduces rows and takes an exponential of them (``tt.reduce`` and an ``exp``).
        time: the prediction as a point, a range or a lower bound.
    """

    bound: str
    limit: str
    round_trips: int = 0
    uncoalesced_factor: float = 1.0
    gather_rate: float = 1.0
    atomics: AtomicsFact | None = None
    loops: tuple[LoopFact, ...] = ()
    unknowns: tuple[Unknown, ...] = ()
    slow_path_instructions: int = 0
    softmax_rows: bool = False
    time: TimeSpan = field(default_factory=lambda: TimeSpan(0.0, 0.0, "point"))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PerfFacts:
        """The facts from :meth:`to_json`'s form; ``TypeError``/``KeyError``/``ValueError`` when it is not that."""
        atomics = AtomicsFact(**data["atomics"]) if data["atomics"] is not None else None
        time = data["time"]
        high = time["high"]
        return cls(bound=str(data["bound"]), limit=str(data["limit"]), round_trips=int(data["round_trips"]),
                   uncoalesced_factor=float(data["uncoalesced_factor"]), gather_rate=float(data["gather_rate"]),
                   atomics=atomics, loops=tuple(LoopFact(**lp) for lp in data["loops"]),
                   unknowns=tuple(Unknown(**u) for u in data["unknowns"]),
                   slow_path_instructions=int(data["slow_path_instructions"]), softmax_rows=bool(data["softmax_rows"]),
                   time=TimeSpan(float(time["low"]), None if high is None else float(high), str(time["kind"])))
