"""Give each row of MLIR's timing report the pass number ``irscope passes`` and ``diff --pass`` use.

The pass dump prints IR before every *run* of a pass, in execution order: its numbers are the ones
users type. MLIR's timing report has one row per pass *instance*, in a tree: a nested pipeline
(``'tt.func' Pipeline``, ``'any' Pipeline``) is one row per operation name and parent, made where it
first ran, and every pass that later runs in a pipeline of that name is listed under it. So the
inliner's canonicalizer, run once per function, is one timing row but six dump passes, and a
canonicalizer that ran in an ``'any'`` pipeline after the pipeliner is listed before it. Counting the
report's rows therefore numbers passes differently from the dump; this module matches the two by
pass class, stage and anchor instead, so both speak of pass 36 as the same pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from irscope.parse.passes import PassSnapshot
from irscope.parse.timing import PassTime

_TOP_ANCHORS = ("builtin.module", "")


@dataclass(frozen=True)
class TimedRow:
    """A pass row of a timing report with where it ran.

    Attributes:
        row: the report row.
        pipeline: '' for a pass of the stage's own pass manager, else the operation its nested
            pipeline ran on (``tt.func``, ``llvm.func``, ``any``).
    """

    row: PassTime
    pipeline: str


@dataclass(frozen=True)
class UntimedPass:
    """A pass of the dump that no row of the timing report stands for.

    Attributes:
        number: its number in the dump.
        stage: the stage it ran in.
        name: its pass argument.
    """

    number: int
    stage: str
    name: str


def timed_rows(rows: Sequence[PassTime]) -> list[TimedRow]:
    """The pass rows of one compile's reports, each with the nested pipeline it ran in."""
    out: list[TimedRow] = []
    parents: dict[int, PassTime] = {}
    for row in rows:
        parents = {d: r for d, r in parents.items() if d < row.depth}
        parents[row.depth] = row
        if row.kind != "pass":
            continue
        parent = parents.get(row.depth - 1) if row.depth > 0 else None
        if parent is None:
            pipeline = ""
        elif parent.kind == "pipeline":
            # Example: 'tt.func' Pipeline
            pipeline = parent.name.removesuffix(" Pipeline").strip("'") or "any"
        else:
            pipeline = "any"  # a dynamic pipeline a pass ran from inside itself
        out.append(TimedRow(row=row, pipeline=pipeline))
    return out


def _fits(row: TimedRow, snap: PassSnapshot) -> bool:
    """Whether a dump pass can be a run of this timing row."""
    if snap.pass_class != row.row.name or snap.stage != row.row.stage:
        return False
    if not row.pipeline:
        return snap.anchor in _TOP_ANCHORS
    return row.pipeline == "any" or snap.anchor == row.pipeline


def _align(rows: Sequence[TimedRow], snaps: Sequence[PassSnapshot]) -> list[int | None]:
    """For each row, the dump pass (position in ``snaps``) of the longest order-keeping match."""
    n, m = len(rows), len(snaps)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = max(best[i + 1][j], best[i][j + 1],
                             1 + best[i + 1][j + 1] if _fits(rows[i], snaps[j]) else 0)
    out: list[int | None] = [None] * n
    i = j = 0
    while i < n and j < m:
        if _fits(rows[i], snaps[j]) and best[i][j] == 1 + best[i + 1][j + 1]:
            out[i] = j
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


def number_rows(rows: Sequence[TimedRow], passes: Sequence[PassSnapshot]) -> list[tuple[int, ...]]:
    """For each timing row, the dump numbers of the runs it covers (empty when the dump has none)."""
    runs: list[list[int]] = [[] for _ in rows]
    for stage in dict.fromkeys(r.row.stage for r in rows):
        mine = [k for k, r in enumerate(rows) if r.row.stage == stage]
        snaps = [p for p in passes if p.stage == stage]
        matched = _align([rows[k] for k in mine], snaps)
        taken: set[int] = set()
        for k, j in zip(mine, matched, strict=True):
            if j is not None:
                runs[k].append(snaps[j].index)
                taken.add(j)
        # A pass in a nested pipeline may run many times (once per function) under one timing row.
        for j, snap in enumerate(snaps):
            if j in taken:
                continue
            fits = [k for k in mine if rows[k].pipeline and _fits(rows[k], snap)]
            if not fits:
                continue
            empty = [k for k in fits if not runs[k]]
            before = [k for k in fits if runs[k] and min(runs[k]) < snap.index]
            owner = empty[0] if empty else max(before, key=lambda k: max(runs[k])) if before else fits[0]
            runs[owner].append(snap.index)
    return [tuple(sorted(r)) for r in runs]


def untimed_passes(passes: Sequence[PassSnapshot], numbered: Sequence[tuple[int, ...]],
                   stages: Sequence[str]) -> list[UntimedPass]:
    """Dump passes of the timed stages that no timing row covers."""
    covered = {n for runs in numbered for n in runs}
    return [UntimedPass(number=p.index, stage=p.stage, name=p.name) for p in passes
            if p.stage in stages and p.index not in covered]


def span(numbers: Sequence[int]) -> str:
    """``36``, ``1-6`` or ``25,40``: dump numbers as people read them."""
    if not numbers:
        return "-"
    if len(numbers) > 1 and list(numbers) == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}-{numbers[-1]}"
    return ",".join(str(n) for n in numbers)
