"""``--measured``: a profile joined to the model as text (a section under ``report`` / ``perf``), as JSON, and as
the two table columns the TUI's and the HTML page's kernel tables add."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from irscope.analysis.measured import MeasuredJoin, MeasuredRow, Unjoined
from irscope.views.words import us_text as _us

__all__ = ["MEASURED_HEADS", "measured_cells", "measured_json", "measured_line", "render_measured"]

MEASURED_HEADS = ("measured", "meas/pred")
_NAME_WIDTH = 52


def _bytes(value: float) -> str:
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if value >= size:
            return f"{value / size:.2f} {unit}"
    return f"{value:.0f} B"


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def _short(name: str) -> str:
    return name if len(name) <= _NAME_WIDTH else name[:_NAME_WIDTH - 3] + "..."


def _dram(row: MeasuredRow) -> str:
    if row.measured_dram is None:
        return "-"
    predicted = _bytes(row.predicted_dram) if row.predicted_dram is not None else "?"
    return f"{_bytes(row.measured_dram)} / {predicted} ({_ratio(row.dram_ratio)})"


def _heading(join: MeasuredJoin) -> str:
    outside = [u for u in join.only_measured if "not a Triton kernel" in u.why]
    return (f"measured ({join.source}, {join.path}): {join.triton_joined} of {join.triton_measured} Triton kernels "
            f"joined by name ({join.joined_share:.0%})"
            + (f"; {len(outside)} kernel(s) outside Triton" if outside else ""))


def _unjoined(entry: Unjoined) -> str:
    time = f"{_us(entry.us)} measured" if entry.side == "measured" else f"{_us(entry.us)} predicted"
    return f"  {entry.name}: {entry.calls} launch(es), {time}: {entry.why}"


def render_measured(join: MeasuredJoin, *, others: bool = True) -> list[str]:
    """The section: the heading, the joined kernels largest disagreement first, what joined nothing, the notes.
    ``others``: list the profile's kernels that joined nothing (``perf`` leaves them out: they are other kernels)."""
    out = [_heading(join) if others else f"measured ({join.source}, {join.path}):"]
    if join.rows:
        has_dram = any(r.measured_dram is not None for r in join.rows)
        head = (f"  {'#':>3}  {'kernel':<{_NAME_WIDTH}} {'graph':<9} {'calls':>6} {'measured':>10} {'predicted':>10} "
                f"{'meas/pred':>9}" + ("  DRAM measured / predicted per launch" if has_dram else ""))
        out += [head, "  " + "-" * (len(head) - 2)]
        for row in join.rows:
            predicted = _us(row.predicted_per_launch_us) if row.predicted_per_launch_us is not None else "-"
            number = str(row.number) if row.number else "-"
            out.append(f"  {number:>3}  {_short(row.name):<{_NAME_WIDTH}} {row.kind or '-':<9} {row.measured_calls:>6} "
                       f"{_us(row.measured_per_call_us):>10} {predicted:>10} {_ratio(row.ratio):>9}"
                       + (f"  {_dram(row)}" if has_dram else ""))
        out.append("  (#: the report's row; times per launch; calls: the measured launches; meas/pred: measured over "
                   "predicted time)")
        for row in join.rows:
            if row.note or row.joined_by != "name":
                out.append(f"  note: {row.name}: joined by {row.joined_by}" + (f"; {row.note}" if row.note else ""))
    else:
        out.append("  nothing joined")
    measured = join.only_measured if others else ()
    if measured:
        out.append("in the profile only:")
        out += [_unjoined(u) for u in measured]
    if join.only_predicted:
        out.append("in the capture only:")
        out += [_unjoined(u) for u in join.only_predicted]
    out += [f"  note: {note}" for note in join.notes]
    return out


def measured_json(join: MeasuredJoin) -> dict[str, Any]:
    """The join as JSON data: every field, each row's per-launch time and ratios included."""
    data = asdict(join)
    data["joined_share"] = join.joined_share
    for row, plain in zip(join.rows, data["rows"], strict=True):
        plain["measured_per_call_us"] = row.measured_per_call_us
        plain["ratio"] = row.ratio
        plain["dram_ratio"] = row.dram_ratio
    return data


def measured_cells(join: MeasuredJoin, count: int) -> list[tuple[str, str]]:
    """For report rows 1..count, the measured time per launch and the ratio ("" where the row joined nothing)."""
    by_number = {r.number: r for r in join.rows}
    cells = []
    for number in range(1, count + 1):
        row = by_number.get(number)
        cells.append(("", "") if row is None else (_us(row.measured_per_call_us), _ratio(row.ratio)))
    return cells


def measured_line(join: MeasuredJoin, number: int) -> str:
    """Report row ``number``'s measurement in one line (the TUI's detail pane)."""
    row = next((r for r in join.rows if r.number == number), None)
    if row is None:
        return f"   measured: nothing in the profile ({join.source}) joined this row"
    predicted = _us(row.predicted_per_launch_us) if row.predicted_per_launch_us is not None else "not modelled"
    return (f"   measured: {_us(row.measured_per_call_us)} per launch over {row.measured_calls} launch(es) "
            f"({join.source}), predicted {predicted}, measured/predicted {_ratio(row.ratio)}"
            + (f"; DRAM {_dram(row)}" if row.measured_dram is not None else "")
            + (f"; {row.note}" if row.note else ""))
