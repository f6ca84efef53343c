"""Render a pass table: one row per pass that changed the IR, the others folded and counted."""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text

from irscope.analysis.passes import PassEffect, PassTable

_OPTIONS_WIDTH = 48
_DEFAULT_ONLY = frozenset({"canonicalize", "inline", "cse", "sccp", "symbol-dce"})
_DUMP_SWITCHES = ("dump-intermediate-steps=",)
_FOLD_NAMES = 4


@dataclass(frozen=True)
class TableTitle:
    """What the table is about, for its caption.

    Attributes:
        kernel / target / config: the request.
        triton_version: the Triton that printed the dump.
    """

    kernel: str
    target: str
    config: int
    triton_version: str


def shown_options(row: PassEffect) -> str:
    """The options worth a column: MLIR's generic passes print only their defaults, and the dump
    switches irscope turned on are not the user's."""
    if row.step or row.name in _DEFAULT_ONLY:
        return ""
    kept = [o for o in row.options.split() if not o.startswith(_DUMP_SWITCHES)]
    text = " ".join(kept)
    return text if len(text) <= _OPTIONS_WIDTH else text[:_OPTIONS_WIDTH - 1] + "…"


def _pass_cell(row: PassEffect) -> Text:
    text = Text("  ↳ " + row.step if row.step else row.name, style="bold" if row.status == "changed" else "")
    if opts := shown_options(row):
        text.append("{" + opts + "}", style="dim")
    return text


def _fold_row(table: Table, folded: list[PassEffect], show_stage: str) -> None:
    names = ", ".join(r.name for r in folded[:_FOLD_NAMES]) + (", …" if len(folded) > _FOLD_NAMES else "")
    first, last = folded[0].index, folded[-1].index
    span = f"{first}" if first == last else f"{first}-{last}"
    table.add_row(Text(span, style="dim"), Text(show_stage, style="cyan"),
                  Text(f"· {len(folded)} unchanged", style="dim italic"), "", "", Text(names, style="dim italic"))


def render_pass_table(table: PassTable, title: TableTitle, show_all: bool = False) -> Table:
    """The pass table as a rich Table; unchanged passes fold into one line per run unless ``show_all``."""
    changed = sum(1 for r in table.rows if r.changed and not r.step)
    passes = sum(1 for r in table.rows if not r.step)
    caption = (f"{passes} passes: {changed} changed the IR, {table.unchanged} changed nothing"
               + ("" if show_all else " (folded; --all lists them)"))
    out = Table(title=f"{title.kernel} on {title.target}, config {title.config}: passes of Triton "
                      f"{title.triton_version}",
                caption=caption, box=None, pad_edge=False, header_style="bold", expand=False,
                title_justify="left", caption_justify="left")
    out.add_column("#", justify="right", no_wrap=True)
    out.add_column("stage", no_wrap=True)
    out.add_column("pass")
    out.add_column("+", justify="right", style="green", no_wrap=True)
    out.add_column("-", justify="right", style="red", no_wrap=True)
    out.add_column("what changed", ratio=1)
    folded: list[PassEffect] = []
    last_stage = ""

    def stage_label(stage: str) -> str:
        nonlocal last_stage
        label = stage if stage != last_stage else ""
        last_stage = stage
        return label

    for row in table.rows:
        if row.status == "unchanged" and not show_all:
            if not row.step:
                folded.append(row)
            continue
        if folded:
            _fold_row(out, folded, stage_label(folded[0].stage))
            folded = []
        style = "red" if row.status in ("failed", "unreadable") else "dim" if row.status == "unknown" else ""
        summary = row.summary or ("(nothing)" if row.status == "unchanged" else "")
        out.add_row("" if row.step else str(row.index), Text(stage_label(row.stage), style="cyan"), _pass_cell(row),
                    str(row.added) if row.added else "", str(row.removed) if row.removed else "",
                    Text(summary, style=style))
    if folded:
        _fold_row(out, folded, stage_label(folded[0].stage))
    return out
