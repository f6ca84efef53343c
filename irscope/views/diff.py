"""Render an IR diff, unified (like ``diff -u``) or side by side, as rich Text."""

from __future__ import annotations

from rich.text import Text

from irscope.analysis.diff import DiffLine, Hunk, TextDiff

_ADDED = "green"
_REMOVED = "red"
_HUNK = "cyan"


def _summary(diff: TextDiff) -> str:
    notes = []
    if not diff.options.keep_locs:
        notes.append("locations stripped")
    if diff.options.normalize_ssa:
        notes.append("SSA renumbering ignored")
    if diff.options.inline_aliases:
        notes.append("aliases inlined")
    if diff.options.erase_ssa:
        notes.append("SSA names erased: one side is a pass's internal step, printed without names")
    tail = f" ({', '.join(notes)})" if notes else ""
    if not diff.changed:
        same = "identical" if diff.identical_raw else "identical after normalisation"
        return f"{diff.left} and {diff.right} are {same}{tail}"
    return f"+{diff.added} -{diff.removed} lines{tail}"


def render_unified(diff: TextDiff) -> Text:
    """``--- left`` / ``+++ right`` headers, ``@@`` hunk lines, then -/+ lines."""
    out = Text()
    out.append(f"--- {diff.left}\n", style="bold")
    out.append(f"+++ {diff.right}\n", style="bold")
    for hunk in diff.hunks:
        out.append(f"@@ -{hunk.old_start},{hunk.old_len} +{hunk.new_start},{hunk.new_len} @@\n", style=_HUNK)
        for line in hunk.lines:
            style = _ADDED if line.tag == "+" else _REMOVED if line.tag == "-" else ""
            out.append(f"{line.tag}{line.text}\n", style=style)
    out.append(_summary(diff) + "\n", style="dim")
    return out


def pair_lines(hunk: Hunk) -> list[tuple[DiffLine | None, DiffLine | None]]:
    """Left/right line pairs: unchanged lines face themselves, a run of removals faces the additions after it."""
    pairs: list[tuple[DiffLine | None, DiffLine | None]] = []
    removed: list[DiffLine] = []
    added: list[DiffLine] = []

    def flush() -> None:
        for i in range(max(len(removed), len(added))):
            pairs.append((removed[i] if i < len(removed) else None, added[i] if i < len(added) else None))
        removed.clear()
        added.clear()

    for line in hunk.lines:
        if line.tag == " ":
            flush()
            pairs.append((line, line))
        elif line.tag == "-":
            if added:
                flush()
            removed.append(line)
        else:
            added.append(line)
    flush()
    return pairs


def _cell(line: DiffLine | None, number: int | None, width: int, style: str) -> Text:
    if line is None:
        return Text(" " * (width + 6))
    body = line.text if len(line.text) <= width else line.text[:width - 1] + "…"
    cell = Text(f"{number or '':>5} ", style="dim")
    cell.append(body.ljust(width), style=style)
    return cell


def render_side_by_side(diff: TextDiff, width: int = 160) -> Text:
    """Two columns, left and right, each line cut to fit half of ``width``."""
    column = max(20, (width - 15) // 2)
    out = Text()
    out.append(f"{'':6}{diff.left[:column]:<{column}} │ {'':6}{diff.right[:column]}\n", style="bold")
    for hunk in diff.hunks:
        out.append(f"@@ -{hunk.old_start},{hunk.old_len} +{hunk.new_start},{hunk.new_len} @@\n", style=_HUNK)
        for left, right in pair_lines(hunk):
            same = left is right
            out.append_text(_cell(left, left.old if left else None, column, "" if same else _REMOVED))
            out.append(" │ " if same else " ┃ ", style="dim" if same else "yellow")
            out.append_text(_cell(right, right.new if right else None, column, "" if same else _ADDED))
            out.append("\n")
    out.append(_summary(diff) + "\n", style="dim")
    return out
