"""What ``irscope report`` keeps of one compiled config of a program's kernel: the model's numbers for its launch.

One ``ConfigFacts`` per capture key: the performance model's prediction for the launch the program made of it
(``irscope perf`` on that capture gives the same numbers), its floors, bytes, occupancy, spills and the loops that
did not pipeline. Plain data with a JSON form, so the report caches it beside the program record.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from irscope.analysis.perf.device import DeviceModel
from irscope.analysis.perf.facts import PerfFacts
from irscope.analysis.perf.report import PerfReport
from irscope.model.launch import LaunchShape

__all__ = ["ConfigFacts", "LoopNote", "config_facts", "floor_us"]


@dataclass(frozen=True)
class LoopNote:
    """A loop of the kernel that loads from global memory and was not software-pipelined.

    Attributes:
        line: its kernel source line (0 when unknown); ``source`` that line's text.
        requested: the ``num_stages`` asked for it (0 when none was).
        reasons: why, as the loop analysis says (empty when it cannot tell).
    """

    line: int
    source: str
    requested: int
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class ConfigFacts:
    """The model's answer for one compiled config of a kernel, at the launch the program made of it.

    Attributes:
        key: the capture key; ``kernel`` the kernel's name; ``config_index`` the config's place in Inductor's list.
        settings: num_warps, num_stages and the constexprs of the config (``XBLOCK``).
        grid: the recorded launch's grid; ``launch_note`` which recorded launch it was.
        predicted_us: predicted time of one launch; ``low_us`` / ``high_us`` its range over what was not modelled.
        floor_us: the roofline floor: the longer of its tensors' own bytes at the DRAM bandwidth and its FLOPs at peak.
        dram_floor_us / compute_floor_us: those two parts.
        bound / bound_reason: what the model says bounds it, and why.
        dram_bytes / compulsory_bytes / requested_bytes / tensor_bytes: the model's DRAM traffic, its compulsory part,
            the bytes the CTAs request, and the launch's tensors' own bytes (read and written once).
        flops: per launch; ``dram_pct`` DRAM traffic over the predicted time as a share of the data sheet's peak.
        occupancy_pct / occupancy_limit / ctas_per_sm / waves: from the resources and the grid.
        registers / spill_stores / spill_loads: per thread, from ptxas.
        shared_bytes: shared memory per CTA.
        loops: the loops that load from global memory and were not pipelined.
        bank_worst: the worst shared-memory bank conflict, "" when none (or not analysed: ``bank_note``).
        uncertain: what the model could not find out.
        launch_us: the fixed per-launch overhead inside ``predicted_us`` (in a program's stream: ``report.launch``).
        tensors: the launch's tensor arguments (name, bytes, role), from the program's recorded launch.
        reread_bytes: the model's DRAM bytes read again beyond the compulsory ones.
        dram_why: how the model estimated the DRAM bytes, in its own words (for people: verdicts read ``perf``).
        perf: what the model found as typed fields; every verdict and reason reads these, never the sentences.
    """

    key: str
    kernel: str
    config_index: int
    settings: dict[str, Any]
    grid: tuple[int, int, int]
    launch_note: str
    predicted_us: float
    low_us: float
    high_us: float
    floor_us: float
    dram_floor_us: float
    compute_floor_us: float
    bound: str
    bound_reason: str
    dram_bytes: float
    compulsory_bytes: float
    requested_bytes: float
    tensor_bytes: int
    flops: float
    dram_pct: float
    occupancy_pct: float
    occupancy_limit: str
    ctas_per_sm: int
    waves: int
    registers: int
    spill_stores: int
    spill_loads: int
    shared_bytes: int
    loops: tuple[LoopNote, ...] = ()
    bank_worst: str = ""
    bank_note: str = ""
    uncertain: tuple[str, ...] = ()
    launch_us: float = 0.0
    tensors: tuple[tuple[str, int, str], ...] = field(default=())
    reread_bytes: float = 0.0
    dram_why: str = ""
    perf: PerfFacts = field(default_factory=lambda: PerfFacts(bound="", limit=""))

    @property
    def distance(self) -> float:
        """Predicted time over the roofline floor (1.0 = on the roofline)."""
        return self.predicted_us / self.floor_us if self.floor_us > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ConfigFacts:
        """The facts from :meth:`to_json`'s form; ``TypeError``/``KeyError``/``ValueError`` when it is not that."""
        loops = tuple(LoopNote(line=int(lp["line"]), source=str(lp["source"]), requested=int(lp["requested"]),
                               reasons=tuple(map(str, lp["reasons"]))) for lp in data["loops"])
        grid = tuple(int(g) for g in data["grid"])
        if len(grid) != 3:
            raise ValueError("grid is not three numbers")
        tensors = tuple((str(t[0]), int(t[1]), str(t[2])) for t in data["tensors"])
        plain = {k: v for k, v in data.items() if k not in ("loops", "grid", "tensors", "uncertain", "perf")}
        return cls(**plain, loops=loops, grid=(grid[0], grid[1], grid[2]), tensors=tensors,
                   uncertain=tuple(map(str, data["uncertain"])), perf=PerfFacts.from_json(data["perf"]))


def floor_us(report: PerfReport, device: DeviceModel) -> tuple[float, float]:
    """(DRAM floor, compute floor) in microseconds: compulsory bytes at the DRAM bandwidth, FLOPs at their peaks."""
    dram = report.compulsory_bytes / (device.dram_gbs * 1e3) if device.dram_gbs else 0.0
    tensor_peak = device.tensor_tflops.get(report.mma_dtype) or device.tensor_tflops.get("fp16", 0.0)
    vector_peak = device.vector_tflops.get("fp32", 0.0)
    compute = (report.tensor_flops / (tensor_peak * 1e6) if tensor_peak and report.tensor_flops else 0.0) + \
        (report.vector_flops / (vector_peak * 1e6) if vector_peak and report.vector_flops else 0.0)
    return dram, compute


def config_facts(report: PerfReport, device: DeviceModel, shape: LaunchShape, *, key: str, settings: dict[str, Any],
                 launch_note: str, resources: Any, loops: list[Any], launch_us: float) -> ConfigFacts:
    """The facts of one config from its perf report, resources (``irscope.analysis.resources.Resources``) and loops."""
    dram_floor, compute_floor = floor_us(report, device)
    span = report.facts.time
    low, high = span.low, span.high if span.high is not None else span.low
    sheet = device.sheet_dram_gbs or device.dram_gbs
    dram_pct = report.dram_bytes / (report.predicted_us * sheet * 1e3) if report.predicted_us and sheet else 0.0
    notes = tuple(LoopNote(line=lp.line or 0, source=lp.source, requested=lp.requested_stages or 0,
                           reasons=tuple(lp.reasons))
                  for lp in loops if lp.loads and not lp.pipelined)
    return ConfigFacts(
        key=key, kernel=report.kernel, config_index=report.config_index, settings=settings, grid=report.grid,
        launch_note=launch_note, predicted_us=report.predicted_us, low_us=low, high_us=high,
        floor_us=max(dram_floor, compute_floor), dram_floor_us=dram_floor, compute_floor_us=compute_floor,
        bound=report.bound, bound_reason=report.bound_reason, dram_bytes=report.dram_bytes,
        compulsory_bytes=report.compulsory_bytes, requested_bytes=report.requested_bytes,
        tensor_bytes=sum(t.nbytes for t in shape.tensors), flops=report.flops, dram_pct=dram_pct,
        occupancy_pct=report.occupancy_pct, occupancy_limit=report.occupancy_limit, ctas_per_sm=report.ctas_per_sm,
        waves=report.waves, registers=int(resources.registers or 0), spill_stores=resources.spill_stores,
        spill_loads=resources.spill_loads, shared_bytes=resources.shared_total, loops=notes,
        bank_worst=report.bank.worst, bank_note="" if report.bank.available else report.bank.message,
        uncertain=report.uncertain, launch_us=launch_us,
        tensors=tuple((t.name, t.nbytes, t.role) for t in shape.tensors), reread_bytes=report.reread_bytes,
        dram_why=report.dram_assumption, perf=report.facts)


def capture_config_facts(capture: Any, device: DeviceModel, shape: LaunchShape, launch_note: str,
                         with_bank: bool = True) -> ConfigFacts:
    """Run the performance model on one stored capture (``irscope.store.store.Capture``) at ``shape``; its facts.

    ``with_bank``: run the shared-memory bank analysis too (it disassembles the cubin, about a second).
    """
    from irscope.analysis.loops import capture_loops
    from irscope.analysis.perf.capture import capture_perf
    from irscope.analysis.report.launch import IN_STREAM_LAUNCH_US, in_stream
    from irscope.analysis.resources import capture_resources

    m = capture.manifest
    report = in_stream(capture_perf(capture, device, shape, with_bank=with_bank))
    loops, _ = capture_loops(capture, listings=())
    settings: dict[str, Any] = {"num_warps": m.options.get("num_warps", m.metadata.get("num_warps")),
                                "num_stages": m.options.get("num_stages", m.metadata.get("num_stages")),
                                **{k: v for k, v in m.constexprs.items() if isinstance(v, (int, str, float))}}
    return config_facts(report, device, shape, key=m.key, settings=settings, launch_note=launch_note,
                        resources=capture_resources(capture), loops=loops, launch_us=IN_STREAM_LAUNCH_US)
