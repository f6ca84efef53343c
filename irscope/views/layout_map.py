"""Pictures of a distributed layout: a coloured terminal grid (rich Text) and an SVG for slides.

Two views, as in Triton's own dumps: the *tensor* view draws the tensor and labels each element
with the lane and register holding it (colour = warp; without colour the label names the warp too,
``w7:T4:0``); the *hardware* view draws one warp as a
grid of lanes x registers, each cell naming the tensor element that slot holds. Large tensors are
folded: the first and last rows and columns are kept and an ellipsis marks the cut, and a footer
says what was folded. Pure functions: they return text, they write nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from rich.text import Text

from irscope.analysis.layouts.linear import LinearLayout
from irscope.analysis.layouts.views import LayoutGrid, layout_grid
from irscope.parse.layouts import Layout

__all__ = ["PALETTE", "MapCell", "MapView", "build_map", "render_layout_map", "render_layout_svg"]

# Distinct, light background colours (black text stays readable); warps cycle through them.
PALETTE = (
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
    "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f", "#a6cee3", "#b2df8a", "#fb9a99", "#cab2d6",
)
VIEWS = ("tensor", "hardware")


@dataclass(frozen=True)
class MapCell:
    """One drawn cell.

    Attributes:
        text: the label (`T5:2` in the tensor view, `w3:T5:2` in its plain form, `(3,17)` in the hardware view).
        warp: the warp whose colour the cell takes.
    """

    text: str
    warp: int


@dataclass(frozen=True)
class MapView:
    """A folded 2-D picture of a layout, ready for any renderer.

    Attributes:
        title: what is drawn (`#mma, 128x256, tensor view`).
        row_labels: one label per drawn row; None marks a folded gap.
        col_labels: one label per drawn column; None marks a folded gap.
        cells: rows of cells, aligned with the labels; None inside a gap.
        warps: warps that appear, for the legend.
        notes: sentences for the footer (what was folded, replication, other warps).
    """

    title: str
    row_labels: tuple[str | None, ...]
    col_labels: tuple[str | None, ...]
    cells: tuple[tuple[MapCell | None, ...], ...]
    warps: tuple[int, ...]
    notes: tuple[str, ...]


def _keep(count: int, limit: int) -> list[int | None]:
    """Indices to draw out of `count`: all of them, or the first and last with a None gap."""
    if count <= limit:
        return list(range(count))
    head = (limit - 1) // 2 + (limit - 1) % 2
    tail = limit - 1 - head
    return [*range(head), None, *range(count - tail, count)]


def _folded(kept: Sequence[int | None], count: int, noun: str) -> str | None:
    if None not in kept:
        return None
    head = kept.index(None)
    tail = len(kept) - head - 1
    return f"showing {noun} 0-{head - 1} and {count - tail}-{count - 1} of {count}"


def _plane(shape: Sequence[int], max_cols: int) -> tuple[int, int, int]:
    """(rows, cols, leading) of the 2-D plane drawn for a shape; rank 1 wraps into rows that fit."""
    if len(shape) == 1:
        n = shape[0]
        cols = min(n, 1 << max(0, max_cols.bit_length() - 1))
        return max(1, n // cols), cols, 1
    leading = math.prod(shape[:-2]) if len(shape) > 2 else 1
    return shape[-2], shape[-1], leading


def _tensor_label(warp: int, lane: int, register: int, with_warp: bool) -> str:
    """`T<lane>:<register>`, or `w<warp>:T<lane>:<register>` where no colour tells the warps apart."""
    return f"w{warp}:T{lane}:{register}" if with_warp else f"T{lane}:{register}"


def _tensor_view(grid: LayoutGrid, title: str, max_rows: int, max_cols: int, batch: int, plain: bool) -> MapView:
    rows, cols, leading = _plane(grid.shape, max_cols)
    with_warp = plain and grid.num_warps > 1
    holders = grid.holders()
    base = min(batch, leading - 1) * rows * cols
    kept_rows, kept_cols = _keep(rows, max_rows), _keep(cols, max_cols)
    cells = []
    warps: set[int] = set()
    for r in kept_rows:
        row: list[MapCell | None] = []
        for c in kept_cols:
            if r is None or c is None:
                row.append(None)
                continue
            first = holders[base + r * cols + c][0]
            warps.add(first.warp)
            row.append(MapCell(_tensor_label(first.warp, first.lane, first.register, with_warp), first.warp))
        cells.append(tuple(row))
    rank1 = len(grid.shape) == 1
    row_labels = tuple(None if r is None else str(r * cols if rank1 else r) for r in kept_rows)
    col_labels = tuple(None if c is None else (f"+{c}" if rank1 else str(c)) for c in kept_cols)
    notes = ["cells show w<warp>:T<lane>:<register> of the lowest thread holding the element" if with_warp else
             "cells show T<lane>:<register> of the lowest thread holding the element; colour = warp"]
    if rank1:
        notes.append(f"the {grid.shape[0]} elements are wrapped {cols} per row")
    if leading > 1:
        notes.append(f"showing the {rows}x{cols} plane at index {batch} of the leading dims {list(grid.shape[:-2])}")
    notes += [n for n in (_folded(kept_rows, rows, "rows"), _folded(kept_cols, cols, "columns")) if n]
    if grid.replication() > 1:
        notes.append(f"every element is held by {grid.replication()} slots (broadcast)")
    return MapView(title, row_labels, col_labels, tuple(cells), tuple(sorted(warps)), tuple(notes))


def _coord_text(grid: LayoutGrid, element: int) -> str:
    return "(" + ",".join(str(c) for c in grid.coords(element)) + ")"


def _warp_notes(grid: LayoutGrid, warp: int) -> list[str]:
    """How the other warps relate to the drawn one (a shift when their bits do not overlap)."""
    if grid.num_warps == 1:
        return []
    base = [grid.slot(0, warp, lane, r) for lane in range(grid.lanes) for r in range(grid.registers)]
    shifts = []
    for other in range(grid.num_warps):
        if other == warp:
            continue
        mine = [grid.slot(0, other, lane, r) for lane in range(grid.lanes) for r in range(grid.registers)]
        delta = mine[0] ^ base[0]
        if all(a ^ b == delta for a, b in zip(mine, base, strict=True)):
            if delta == 0:
                moved = "same elements"
            elif all(a & delta == 0 for a in base):  # disjoint bits: the XOR is a plain offset
                moved = "+" + _coord_text(grid, delta)
            else:
                moved = "xor " + _coord_text(grid, delta)
            shifts.append(f"warp {other}: {moved}")
        else:
            shifts.append(f"warp {other}: different pattern")
    shown = "; ".join(shifts[:7]) + ("; ..." if len(shifts) > 7 else "")
    return [f"other warps hold warp {warp}'s pattern moved by: {shown}"]


def _hardware_view(grid: LayoutGrid, title: str, max_rows: int, max_cols: int, warp: int) -> MapView:
    warp = min(max(warp, 0), grid.num_warps - 1)
    kept_rows, kept_cols = _keep(grid.lanes, max_rows), _keep(grid.registers, max_cols)
    cells = []
    for lane in kept_rows:
        row: list[MapCell | None] = []
        for r in kept_cols:
            if lane is None or r is None:
                row.append(None)
            else:
                row.append(MapCell(_coord_text(grid, grid.slot(0, warp, lane, r)), warp))
        cells.append(tuple(row))
    notes = [f"warp {warp}: one row per lane, one column per register; cells show the tensor element held"]
    notes += [n for n in (_folded(kept_rows, grid.lanes, "lanes"), _folded(kept_cols, grid.registers, "registers"))
              if n]
    notes += _warp_notes(grid, warp)
    return MapView(
        title,
        tuple(None if lane is None else f"T{lane}" for lane in kept_rows),
        tuple(None if r is None else f"r{r}" for r in kept_cols),
        tuple(cells),
        (warp,),
        tuple(notes),
    )


def build_map(
    layout: Layout | LinearLayout,
    shape: Sequence[int],
    view: str = "tensor",
    *,
    max_rows: int = 16,
    max_cols: int = 12,
    warp: int = 0,
    batch: int = 0,
    label: str = "",
    plain: bool = False,
) -> MapView:
    """Fold a layout into the cells a renderer draws; `view` is "tensor" or "hardware".

    `plain`: the cells are drawn without colour, so the tensor view's labels name the warp as well.
    """
    return _build(layout, layout_grid(layout, shape), view, max_rows, max_cols, warp, batch, label, plain)


def _build(
    layout: Layout | LinearLayout, grid: LayoutGrid, view: str, max_rows: int, max_cols: int, warp: int, batch: int,
    label: str, plain: bool = False,
) -> MapView:
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(VIEWS)}, not {view!r}")
    name = label or (layout.label if isinstance(layout, Layout) else "layout")
    title = f"{name}, {'x'.join(str(s) for s in grid.shape)}, {view} view"
    if view == "tensor":
        return _tensor_view(grid, title, max_rows, max_cols, batch, plain)
    return _hardware_view(grid, title, max_rows, max_cols, warp)


def _fit_columns(grid: LayoutGrid, view: str, width: int, plain: bool = False) -> int:
    """How many cell columns fit in `width` terminal columns for this view."""
    if view == "tensor":
        cell = len(_tensor_label(grid.num_warps - 1, grid.lanes - 1, grid.registers - 1,
                                 plain and grid.num_warps > 1)) + 1
        header = len(str(grid.num_elements)) + 1
    else:
        cell = len(_coord_text(grid, grid.num_elements - 1)) + 1
        header = len(f"T{grid.lanes - 1}") + 1
    return max(3, (width - header) // cell)


def render_layout_map(
    layout: Layout | LinearLayout,
    shape: Sequence[int],
    view: str = "tensor",
    *,
    width: int = 100,
    max_rows: int = 16,
    warp: int = 0,
    batch: int = 0,
    label: str = "",
    plain: bool = False,
) -> Text:
    """A coloured grid for the terminal, folded to fit `width` columns.

    `plain`: the text will be shown without colour (piped, ``NO_COLOR``), so the tensor view's cells
    name their warp (`w7:T4:0`) instead of leaving it to the colour.
    """
    grid = layout_grid(layout, shape)
    view_data = _build(layout, grid, view, max_rows, _fit_columns(grid, view, width, plain), warp, batch, label, plain)
    widest = max((len(c.text) for row in view_data.cells for c in row if c), default=1)
    widest = max(widest, *(len(c) for c in view_data.col_labels if c))
    header = max((len(r) for r in view_data.row_labels if r), default=1)
    out = Text()
    out.append(view_data.title + "\n", style="bold")
    out.append(" " * (header + 1))
    for col in view_data.col_labels:
        out.append((col if col is not None else "…").rjust(widest) + " ", style="dim")
    out.append("\n")
    for row_label, row in zip(view_data.row_labels, view_data.cells, strict=True):
        if row_label is None:
            out.append("⋮".rjust(header) + "\n", style="dim")
            continue
        out.append(row_label.rjust(header) + " ", style="dim")
        for cell in row:
            if cell is None:
                out.append("…".rjust(widest) + " ", style="dim")
            else:
                colour = PALETTE[cell.warp % len(PALETTE)]
                out.append(cell.text.rjust(widest), style=f"black on {colour}")
                out.append(" ")
        out.append("\n")
    out.append("warps: ", style="dim")
    for w in view_data.warps:
        out.append(f" {w} ", style=f"black on {PALETTE[w % len(PALETTE)]}")
        out.append(" ")
    out.append("\n")
    for note in view_data.notes:
        out.append(note + "\n", style="dim")
    return out


def render_layout_svg(
    layout: Layout | LinearLayout,
    shape: Sequence[int],
    view: str = "tensor",
    *,
    max_rows: int = 32,
    max_cols: int = 32,
    warp: int = 0,
    batch: int = 0,
    label: str = "",
) -> str:
    """An SVG image of the layout map (cells coloured per warp, labels, legend, notes)."""
    data = build_map(layout, shape, view, max_rows=max_rows, max_cols=max_cols, warp=warp, batch=batch, label=label)
    widest = max((len(c.text) for row in data.cells for c in row if c), default=4)
    cell_w, cell_h, font = max(36, 7 * widest + 8), 20, 11
    left = 10 + 7 * max((len(r) for r in data.row_labels if r), default=2)
    top = 50
    width = left + cell_w * len(data.col_labels) + 20
    grid_h = cell_h * len(data.row_labels)
    legend_y = top + grid_h + 24
    height = legend_y + 30 + 16 * len(data.notes)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="{font}">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="10" y="22" font-size="15" font-weight="bold">{escape(data.title)}</text>',
    ]
    for j, col in enumerate(data.col_labels):
        x = left + j * cell_w + cell_w / 2
        parts.append(f'<text x="{x:.1f}" y="{top - 6}" text-anchor="middle" fill="#666">{escape(col or "…")}</text>')
    for i, (row_label, row) in enumerate(zip(data.row_labels, data.cells, strict=True)):
        y = top + i * cell_h
        parts.append(
            f'<text x="{left - 6}" y="{y + cell_h - 6}" text-anchor="end" fill="#666">{escape(row_label or "⋮")}</text>'
        )
        for j, cell in enumerate(row):
            x = left + j * cell_w
            if cell is None:
                parts.append(f'<text x="{x + cell_w / 2:.1f}" y="{y + cell_h - 6}" text-anchor="middle" '
                             'fill="#999">…</text>')
                continue
            colour = PALETTE[cell.warp % len(PALETTE)]
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell_w}" height="{cell_h}" fill="{colour}" stroke="white"/>'
                f'<text x="{x + cell_w / 2:.1f}" y="{y + cell_h - 6}" text-anchor="middle">{escape(cell.text)}</text>'
            )
    x = 10
    parts.append(f'<text x="{x}" y="{legend_y}" fill="#666">warps</text>')
    x += 50
    for w in data.warps:
        colour = PALETTE[w % len(PALETTE)]
        parts.append(
            f'<rect x="{x}" y="{legend_y - 13}" width="28" height="18" fill="{colour}"/>'
            f'<text x="{x + 14}" y="{legend_y}" text-anchor="middle">{w}</text>'
        )
        x += 32
    for k, note in enumerate(data.notes):
        parts.append(f'<text x="10" y="{legend_y + 26 + 16 * k}" fill="#444">{escape(note)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
