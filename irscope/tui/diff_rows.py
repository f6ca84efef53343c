"""The rows a diff is drawn as, unified or side by side, built only when they are asked for.

A lowering pass's diff runs to ~15,000 lines, and building every row before the first frame used to
cost more than computing the diff. DiffRows lays a diff out as runs instead (a hunk header, a run of
unchanged lines, a run of removed lines followed by the added lines that replace them) and makes a
row when it is drawn, searched or copied. Laying out costs one step per difflib opcode.

Pure data, no Textual.
"""

from __future__ import annotations

import bisect
import itertools
import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from irscope.analysis.diff import DiffLine, TextDiff


@dataclass(frozen=True)
class DiffRow:
    """One drawn row of a diff.

    Attributes:
        kind: ``hunk`` (an ``@@`` header), ``line`` or ``note`` (a sentence instead of a diff).
        left: the old side's line (side by side), or the line itself (unified).
        right: the new side's line (side by side only; the same object as ``left`` for unchanged lines).
        text: the header or note text.
    """

    kind: str
    left: DiffLine | None = None
    right: DiffLine | None = None
    text: str = ""

    @property
    def tag(self) -> str:
        """``' '`` unchanged, ``'-'`` removed, ``'+'`` added, ``'~'`` replaced (side by side); '' for other rows."""
        if self.kind != "line":
            return ""
        if self.left is not None and (self.right is None or self.right is self.left):
            return self.left.tag
        return "+" if self.left is None else "~"


def tabs_expanded(lines: Sequence[str]) -> Sequence[str]:
    """The lines with tabs expanded to 8-column stops, as the document view shows them (the same object
    when none has a tab).

    A terminal moves to the next tab stop on a tab while Rich counts it as no cell, so a drawn tab would
    shift the rest of the row and leave stale cells behind it (PTX and SASS indent with tabs).
    """
    if not any(map(operator.contains, lines, itertools.repeat("\t"))):
        return lines
    return [line.expandtabs(8) if "\t" in line else line for line in lines]


def hunk_header(old_start: int, old_len: int, new_start: int, new_len: int) -> str:
    """The ``@@ -a,b +c,d @@`` line of a hunk."""
    return f"@@ -{old_start},{old_len} +{new_start},{new_len} @@"


@dataclass(frozen=True)
class _Run:
    """Consecutive rows of one kind.

    Attributes:
        start: the first row's index.
        kind: ``hunk``, ``same`` (unchanged lines) or ``change`` (removed lines, then added lines).
        i / j: 0-based index of the first old / new line.
        removed / added: lines taken from the old / new side.
        text: a header's text.
    """

    start: int
    kind: str
    i: int = 0
    j: int = 0
    removed: int = 0
    added: int = 0
    text: str = ""


class DiffRows:
    """A diff's rows, as a sequence that makes each row on demand.

    Unified: a header per hunk, then its lines (removed lines before the added ones that replace them).
    Side by side: removed lines paired with the added lines of the same change, unchanged lines on both
    sides.
    """

    def __init__(self, diff: TextDiff, side_by_side: bool) -> None:
        self.side_by_side = side_by_side
        self._left: Sequence[str] = tabs_expanded(diff.hunks[0].left) if diff.hunks else ()
        self._right: Sequence[str] = tabs_expanded(diff.hunks[0].right) if diff.hunks else ()
        self._runs: list[_Run] = []
        self._count = 0
        for hunk in diff.hunks:
            self._add(_Run(self._count, "hunk", text=hunk_header(hunk.old_start, hunk.old_len, hunk.new_start,
                                                                   hunk.new_len)), 1)
            pending: list[int] | None = None  # [i, j, removed, added] of the change being gathered
            for tag, i1, i2, j1, j2 in hunk.ops:
                if tag == "equal":
                    self._flush(pending)
                    pending = None
                    self._add(_Run(self._count, "same", i=i1, j=j1, removed=i2 - i1, added=j2 - j1), i2 - i1)
                    continue
                if pending is not None and pending[3] and i2 > i1:
                    self._flush(pending)  # removed lines after added ones start a new pairing
                    pending = None
                if pending is None:
                    pending = [i1, j1, 0, 0]
                pending[2] += i2 - i1
                pending[3] += j2 - j1
            self._flush(pending)
        self._starts = [run.start for run in self._runs]

    def _add(self, run: _Run, rows: int) -> None:
        if rows:
            self._runs.append(run)
            self._count += rows

    def _flush(self, pending: list[int] | None) -> None:
        if pending is not None:
            i, j, removed, added = pending
            rows = max(removed, added) if self.side_by_side else removed + added
            self._add(_Run(self._count, "change", i=i, j=j, removed=removed, added=added), rows)

    def __len__(self) -> int:
        return self._count

    def _run(self, row: int) -> _Run:
        if not 0 <= row < self._count:
            raise IndexError(row)
        return self._runs[bisect.bisect_right(self._starts, row) - 1]

    def __getitem__(self, row: int) -> DiffRow:
        if row < 0:
            row += self._count
        run = self._run(row)
        k = row - run.start
        if run.kind == "hunk":
            return DiffRow("hunk", text=run.text)
        if run.kind == "same":
            line = DiffLine(" ", run.i + k + 1, run.j + k + 1, self._left[run.i + k])
            return DiffRow("line", left=line, right=line if self.side_by_side else None)
        removed = DiffLine("-", run.i + k + 1, None, self._left[run.i + k]) if k < run.removed else None
        if self.side_by_side:
            added = DiffLine("+", None, run.j + k + 1, self._right[run.j + k]) if k < run.added else None
            return DiffRow("line", left=removed, right=added)
        if removed is not None:
            return DiffRow("line", left=removed)
        k -= run.removed
        return DiffRow("line", left=DiffLine("+", None, run.j + k + 1, self._right[run.j + k]))

    def __iter__(self) -> Iterator[DiffRow]:
        return (self[row] for row in range(self._count))

    def tag(self, row: int) -> str:
        """The row's tag (see DiffRow.tag), without building the row."""
        run = self._run(row)
        if run.kind == "hunk":
            return ""
        if run.kind == "same":
            return " "
        k = row - run.start
        if not self.side_by_side:
            return "-" if k < run.removed else "+"
        if k >= run.removed:
            return "+"
        return "~" if k < run.added else "-"

    @property
    def changes(self) -> list[int]:
        """The first row of each run of changed rows."""
        out = []
        previous = ""
        for run in self._runs:
            if run.kind == "change" and previous != "change":
                out.append(run.start)
            previous = run.kind
        return out

    def width(self) -> int:
        """Characters of the widest row as text: the tag and the line (unified), or ``left | right``."""
        widest = 0
        a, b = self._left, self._right
        for run in self._runs:
            if run.kind == "hunk":
                widest = max(widest, len(run.text))
                continue
            old = a[run.i:run.i + run.removed]
            new = b[run.j:run.j + run.added]
            if run.kind == "same":
                longest = max(map(len, old), default=0)
                widest = max(widest, 2 * longest + 3 if self.side_by_side else longest + 1)
            elif not self.side_by_side:
                widest = max(widest, max(map(len, old), default=-1) + 1, max(map(len, new), default=-1) + 1)
            else:
                paired = min(len(old), len(new))
                widest = max(widest, 3 + max(map(operator.add, map(len, old[:paired]), map(len, new[:paired])),
                                             default=0),
                             3 + max(map(len, old[paired:]), default=0), 3 + max(map(len, new[paired:]), default=0))
        return widest
