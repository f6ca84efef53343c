"""A measured profile joined to the model: per kernel, measured time (and DRAM bytes) next to the predicted.

``report --measured`` joins a profile (``irscope.parse.profiles``) to a program's report rows, ``perf --measured``
to one launch's prediction. Kernels are joined by name: a Triton kernel's compiled name is what the profilers
print (Inductor's ``triton_poi_fused_...`` alike). Where one name is two report rows (a forward and a backward
kernel of one name) and the profile has grids, each measured launch goes to the row whose modelled launch has its
grid. Times are compared per launch (the profile and the capture may have run different numbers of steps); the
ratio is measured over predicted, and the rows are ordered by how far it is from 1, either way. What joins nothing
is listed with why, never dropped.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from irscope.analysis.report.results import KernelRow, ProgramReport
from irscope.parse.profiles import MeasuredKernel, MeasuredLaunch, MeasuredProfile, looks_like_triton

__all__ = ["MeasuredJoin", "MeasuredRow", "Unjoined", "join_launch", "join_report"]

Grid = tuple[int, int, int]


@dataclass(frozen=True)
class MeasuredRow:
    """One kernel measured and predicted.

    Attributes:
        name: the kernel's name; ``kind`` its report row's graph kind ("" for ``perf``); ``number`` its report row's
            number (1 = longest predicted; 0 for ``perf``).
        joined_by: ``name``, ``name and grid`` (the launches of the name were split by grid), or ``name, rows
            summed`` (one name is several report rows and the profile has no grids to tell them apart).
        measured_calls / measured_us: the measured launches joined and their device time in total.
        predicted_launches / predicted_per_launch_us: the model's launches of it and time of one (None: the row was
            not modelled, ``note`` says why).
        measured_dram / predicted_dram: DRAM bytes of one launch (None where not measured / not modelled).
        grids: the measured launches' grids; ``predicted_grid`` the modelled launch's (None when unknown).
        note: what the comparison should be read with ("" when nothing).
    """

    name: str
    kind: str
    number: int
    joined_by: str
    measured_calls: int
    measured_us: float
    predicted_launches: int
    predicted_per_launch_us: float | None
    measured_dram: float | None = None
    predicted_dram: float | None = None
    grids: tuple[Grid, ...] = ()
    predicted_grid: Grid | None = None
    note: str = ""

    @property
    def measured_per_call_us(self) -> float:
        """Measured device time of one launch."""
        return self.measured_us / self.measured_calls if self.measured_calls else 0.0

    @property
    def ratio(self) -> float | None:
        """Measured over predicted time per launch; None when there is no prediction."""
        p = self.predicted_per_launch_us
        return self.measured_per_call_us / p if p else None

    @property
    def dram_ratio(self) -> float | None:
        """Measured over predicted DRAM bytes per launch; None unless both are there."""
        if self.measured_dram is None or not self.predicted_dram:
            return None
        return self.measured_dram / self.predicted_dram

    @property
    def off_by(self) -> float:
        """How far the ratio is from 1, either way (2 for both 2x and 0.5x; 0 when unknown): the sort key."""
        r = self.ratio
        return math.exp(abs(math.log(r))) if r else 0.0


@dataclass(frozen=True)
class Unjoined:
    """A kernel found on one side only.

    Attributes:
        name: its name; ``side`` ``measured`` (in the profile only) or ``predicted`` (in the capture only).
        calls / us: its measured launches and time, or its predicted launches and total time.
        why: why it joined nothing.
    """

    name: str
    side: str
    calls: int
    us: float
    why: str


@dataclass(frozen=True)
class MeasuredJoin:
    """A profile joined to the model.

    Attributes:
        source / path: the profile's format and file.
        rows: the joined kernels, largest disagreement first (not-modelled rows last).
        only_measured / only_predicted: what joined nothing, with why.
        triton_measured: the profile's Triton kernels (names the capture has, Inductor's ``triton_`` names, kernels
            Proton saw under Triton's launch hook); ``triton_joined`` how many of them joined.
        notes: the profile's own notes.
    """

    source: str
    path: str
    rows: tuple[MeasuredRow, ...]
    only_measured: tuple[Unjoined, ...]
    only_predicted: tuple[Unjoined, ...]
    triton_measured: int
    triton_joined: int
    notes: tuple[str, ...] = ()

    @property
    def joined_share(self) -> float:
        """Of the profile's Triton kernels, the share joined by name (1 when it has none)."""
        return self.triton_joined / self.triton_measured if self.triton_measured else 1.0


def _order(rows: list[MeasuredRow]) -> tuple[MeasuredRow, ...]:
    return tuple(sorted(rows, key=lambda r: (r.ratio is None, -r.off_by, -r.measured_us, r.name, r.number)))


def _dram(launches: list[MeasuredLaunch]) -> float | None:
    values = [ln.dram_bytes for ln in launches if ln.dram_bytes is not None]
    return sum(values) / len(values) if values else None


def _grids(launches: list[MeasuredLaunch]) -> tuple[Grid, ...]:
    return tuple(dict.fromkeys(ln.grid for ln in launches if ln.grid is not None))


def _grid_list(grids: tuple[Grid, ...]) -> str:
    return ", ".join("x".join(map(str, g)) for g in grids[:3]) + (" ..." if len(grids) > 3 else "")


def _grid_note(grids: tuple[Grid, ...], predicted: Grid | None) -> str:
    if predicted is None or not grids or predicted in grids:
        return ""
    return (f"the measured grid ({_grid_list(grids)}) is not the modelled launch's ({'x'.join(map(str, predicted))}): "
            "other problem sizes")


def _row(row: KernelRow, number: int, launches: list[MeasuredLaunch], kernel: MeasuredKernel | None,
         joined_by: str) -> MeasuredRow:
    """One report row against its measured launches (or, for Proton, the name's sums)."""
    facts = row.chosen
    predicted_grid = facts.grid if facts is not None else None
    if launches:
        calls, us, dram, grids = len(launches), sum(ln.us for ln in launches), _dram(launches), _grids(launches)
    else:
        assert kernel is not None
        calls, us, dram, grids = kernel.calls, kernel.total_us, kernel.dram_per_call, kernel.grids
    note = _grid_note(grids, predicted_grid) if facts is not None else \
        "not modelled" + (f": {row.missing}" if row.missing else "")
    return MeasuredRow(name=row.name, kind=row.kind, number=number, joined_by=joined_by, measured_calls=calls,
                       measured_us=us, predicted_launches=row.launches,
                       predicted_per_launch_us=row.per_launch_us if facts is not None else None,
                       measured_dram=dram, predicted_dram=facts.dram_bytes if facts is not None else None,
                       grids=grids, predicted_grid=predicted_grid, note=note)


def _summed(rows: list[tuple[int, KernelRow]], kernel: MeasuredKernel) -> MeasuredRow:
    """Several report rows of one name against the name's measured sums (no grids to split them by)."""
    modelled = [r for _n, r in rows if r.chosen is not None]
    launches = sum(r.launches for r in modelled)
    per_launch = sum(r.total_us for r in modelled) / launches if launches else None
    dram = (sum(r.launches * r.chosen.dram_bytes for r in modelled if r.chosen is not None) / launches
            if launches else None)
    return MeasuredRow(name=kernel.name, kind="+".join(dict.fromkeys(r.kind for _n, r in rows)),
                       number=rows[0][0], joined_by="name, rows summed", measured_calls=kernel.calls,
                       measured_us=kernel.total_us, predicted_launches=sum(r.launches for _n, r in rows),
                       predicted_per_launch_us=per_launch, measured_dram=kernel.dram_per_call, predicted_dram=dram,
                       grids=kernel.grids, note=f"{len(rows)} report rows share this name; the profile cannot tell "
                       "their launches apart, so they are compared summed")


def _split_by_grid(rows: list[tuple[int, KernelRow]], launches: list[MeasuredLaunch]
                   ) -> tuple[list[MeasuredRow], list[MeasuredLaunch]] | None:
    """Each of several rows of one name against the measured launches of its grid; None when grids cannot tell."""
    grids = [r.chosen.grid if r.chosen is not None else None for _n, r in rows]
    if None in grids or len(set(grids)) != len(grids) or any(ln.grid is None for ln in launches):
        return None
    out, left = [], [ln for ln in launches if ln.grid not in grids]
    for (number, row), grid in zip(rows, grids, strict=True):
        mine = [ln for ln in launches if ln.grid == grid]
        if mine:
            out.append(_row(row, number, mine, None, "name and grid"))
    return out, left


def _measured_why(kernel: MeasuredKernel) -> str:
    if looks_like_triton(kernel.name) or kernel.triton_scope:
        return ("a Triton kernel the capture has no row of (compiled or launched outside the captured run, or "
                "another program's)")
    return "not a Triton kernel of the capture (a library or ATen kernel: report lists those outside Triton)"


_INDUCTOR_NAME = re.compile(r"^triton_(poi|per|red|tem|for|spl)_.*_([0-9]+)$")


def _inductor_slot(name: str) -> tuple[str, str] | None:
    """An Inductor kernel's kind and index (``triton_per_fused_..._4`` -> ``("per", "4")``), else None."""
    found = _INDUCTOR_NAME.match(name)
    return (found[1], found[2]) if found else None


def _refused_twins(only_measured: list[Unjoined], only_predicted: list[Unjoined], torch_version: str) -> None:
    """Name the capture's kernel of the same Inductor kind and index beside each unjoined measured one: a
    profile made with another torch fuses, and so names, some kernels otherwise (``_tril_view_10`` for ``_view_10``).
    Rewrites the ``why`` of both sides in place; nothing is joined on it."""
    slots: dict[tuple[str, str], list[int]] = {}
    for i, item in enumerate(only_predicted):
        if (slot := _inductor_slot(item.name)) is not None:
            slots.setdefault(slot, []).append(i)
    ran = f"torch {torch_version}" if torch_version else "a torch this record does not name"
    for i, item in enumerate(only_measured):
        slot = _inductor_slot(item.name)
        twins = slots.get(slot, []) if slot is not None else []
        if slot is None or len(twins) != 1:
            continue
        twin = only_predicted[twins[0]]
        kind = f"{slot[0]} #{slot[1]}"
        only_measured[i] = replace(item, why=f"a Triton kernel the capture has no row of; the capture's Inductor "
                                             f"kernel of the same kind and index ({kind}) is {twin.name}: the two runs "
                                             f"fused that graph otherwise (the capture ran {ran}; a profile from "
                                             "another torch names kernels otherwise)")
        only_predicted[twins[0]] = replace(twin, why=f"the profile has no kernel of this name; its Inductor kernel of "
                                                     f"the same kind and index is {item.name} (another torch's "
                                                     "fusion?)")


def join_report(profile: MeasuredProfile, report: ProgramReport) -> MeasuredJoin:
    """The profile's kernels joined to the report's rows by name (and grid, where one name is several rows)."""
    by_name: dict[str, list[tuple[int, KernelRow]]] = {}
    for number, row in enumerate(report.kernels, 1):
        by_name.setdefault(row.name, []).append((number, row))
    launches: dict[str, list[MeasuredLaunch]] = {}
    for launch in profile.launches:
        launches.setdefault(launch.name, []).append(launch)
    rows: list[MeasuredRow] = []
    only_measured: list[Unjoined] = []
    covered: set[int] = set()  # the report rows some measured kernel joined
    for kernel in profile.kernels:
        mine = by_name.get(kernel.name)
        if mine is None:
            why = _measured_why(kernel)
            only_measured.append(Unjoined(kernel.name, "measured", kernel.calls, kernel.total_us, why))
            continue
        if len(mine) == 1:
            number, row = mine[0]
            rows.append(_row(row, number, launches.get(kernel.name, []), kernel, "name"))
            covered.add(number)
            continue
        split = _split_by_grid(mine, launches.get(kernel.name, []))
        if split is None:
            rows.append(_summed(mine, kernel))
            covered.update(number for number, _row_ in mine)
            continue
        joined, left = split
        rows += joined
        covered.update(r.number for r in joined)
        if left:
            only_measured.append(Unjoined(kernel.name, "measured", len(left), sum(ln.us for ln in left),
                                          f"launches of a grid none of the {len(mine)} report rows of this name "
                                          f"was modelled at ({_grid_list(_grids(left))})"))
    measured_names = {k.name for k in profile.kernels}
    only_predicted = [Unjoined(row.name, "predicted", row.launches, row.total_us,
                               "the profile's launches of this name all have other grids" if row.name in measured_names
                               else "the profile has no kernel of this name (not launched in the profiled run, or "
                               "named otherwise there)")
                      for number, row in enumerate(report.kernels, 1) if number not in covered]
    _refused_twins(only_measured, only_predicted, report.torch_version)
    triton = [k for k in profile.kernels if k.name in by_name or looks_like_triton(k.name) or k.triton_scope]
    return MeasuredJoin(source=profile.source, path=profile.path, rows=_order(rows),
                        only_measured=tuple(only_measured), only_predicted=tuple(only_predicted),
                        triton_measured=len(triton), triton_joined=sum(1 for k in triton if k.name in by_name),
                        notes=profile.notes)


def _closest(name: str, profile: MeasuredProfile) -> str:
    """`` (did you mean X?)`` for a near name among the profile's (looked for among at most 2000 names)."""
    from irscope.errors import closest

    return closest(name, [k.name for k in profile.kernels[:2000]])


def join_launch(profile: MeasuredProfile, name: str, grid: Grid | None, predicted_us: float,
                predicted_dram: float | None, basis: str = "") -> MeasuredJoin:
    """The profile's launches of kernel ``name`` against one modelled launch (``irscope perf``): those of its grid
    where the profile has grids and some match, else every launch of the name (with a note). ``basis``: how the
    prediction was made, a note first."""
    notes = ((basis,) if basis else ()) + profile.notes
    kernel = profile.kernel(name)
    others = [Unjoined(k.name, "measured", k.calls, k.total_us, "another kernel") for k in profile.kernels
              if k.name != name]
    triton = sum(1 for k in profile.kernels if looks_like_triton(k.name) or k.triton_scope or k.name == name)
    if kernel is None:
        return MeasuredJoin(source=profile.source, path=profile.path, rows=(), only_measured=tuple(others),
                            only_predicted=(Unjoined(name, "predicted", 1, predicted_us,
                                                     "the profile has no kernel of this name"
                                                     + _closest(name, profile)),),
                            triton_measured=triton, triton_joined=0, notes=notes)
    launches = [ln for ln in profile.launches if ln.name == name]
    same = [ln for ln in launches if grid is not None and ln.grid == grid]
    joined_by, note = "name", ""
    if same:
        joined_by, launches = "name and grid", same
    elif launches:
        note = _grid_note(_grids(launches), grid)
    if launches:
        calls, us, dram, grids = len(launches), sum(ln.us for ln in launches), _dram(launches), _grids(launches)
    else:
        calls, us, dram, grids = kernel.calls, kernel.total_us, kernel.dram_per_call, kernel.grids
    row = MeasuredRow(name=name, kind="", number=0, joined_by=joined_by, measured_calls=calls, measured_us=us,
                      predicted_launches=1, predicted_per_launch_us=predicted_us, measured_dram=dram,
                      predicted_dram=predicted_dram, grids=grids, predicted_grid=grid, note=note)
    return MeasuredJoin(source=profile.source, path=profile.path, rows=(row,), only_measured=tuple(others),
                        only_predicted=(), triton_measured=triton, triton_joined=1, notes=notes)
