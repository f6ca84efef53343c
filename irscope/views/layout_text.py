"""Triton's own plain-text layout dumps, reproduced: the tensor view and the hardware view.

These produce exactly what Triton 3.9 prints for
`triton.experimental.gluon.language.<Layout>(...).format_tensor_view(shape)` and
`.format_hardware_view(shape)` (and `triton-tensor-layout`), so a user can diff the two.
"""

from __future__ import annotations

from collections.abc import Sequence

from irscope.analysis.layouts.linear import LinearLayout
from irscope.analysis.layouts.views import LayoutGrid, layout_grid
from irscope.parse.layouts import Layout

__all__ = ["format_hardware_view", "format_tensor_view"]


def _labels(grid: LayoutGrid) -> list[str]:
    """Per flat element, its holders as `T<thread>:<register>` joined by `|`, aligned like Triton.

    Each label is left-padded so that block, thread and register numbers all take the width of
    their largest possible value, exactly as Triton pads them.
    """
    threads = grid.num_warps * grid.lanes
    regs = grid.registers
    width_b, width_t, width_r = len(str(grid.num_blocks)), len(str(threads)), len(str(regs))
    reg_pad = [width_r - len(str(r)) for r in range(regs)]
    reg_text = [f":{r}" for r in range(regs)]
    spaces = [" " * n for n in range(width_b + width_t + width_r + 1)]
    parts: list[list[str]] = [[] for _ in range(grid.num_elements)]
    slots = grid.slot_elements
    start = 0
    for b in range(grid.num_blocks):
        block = f"B{b}:" if grid.num_blocks > 1 else ""
        for thread in range(threads):
            prefix = f"{block}T{thread}"
            pad = width_b - len(str(b)) + width_t - len(str(thread))
            for r, element in enumerate(slots[start : start + regs]):
                parts[element].append(spaces[pad + reg_pad[r]] + prefix + reg_text[r])
            start += regs
    return ["|".join(p) for p in parts]


def _coord_strings(grid: LayoutGrid) -> list[str]:
    """Per flat element, its coordinate as Triton's hardware view prints it: `( 3,17)`."""
    widths = [len(str(s)) for s in grid.shape]
    out = []
    for element in range(grid.num_elements):
        coords = grid.coords(element)
        out.append("(" + ",".join(str(c).rjust(w) for c, w in zip(coords, widths, strict=True)) + ")")
    return out


def _nested(grid: LayoutGrid, cells: list[str], separator: str) -> str:
    """Lay out one string per element as nested bracketed rows, the way Triton's dump does."""
    shape = grid.shape
    rank = len(shape)
    out: list[str] = []
    new_line = True
    for i, cell in enumerate(cells):
        index = grid.coords(i)
        opened = 0
        for j in range(rank - 1, -1, -1):
            if index[j] != 0:
                break
            out.append("[")
            opened += 1
        if new_line:
            out.append(" " * (rank - opened))
            new_line = False
        out.append(cell)
        following = grid.coords((i + 1) % grid.num_elements)
        for j in range(rank - 1, -1, -1):
            if following[j] != 0:
                break
            out.append("]")
        if following[-1] == 0:
            out.append("\n")
            new_line = True
        else:
            out.append(separator)
    return "".join(out)


def format_tensor_view(layout: Layout | LinearLayout, shape: Sequence[int]) -> str:
    """For each element of `shape`, the threads and registers holding it (Triton's tensor view)."""
    grid = layout_grid(layout, shape)
    return _nested(grid, _labels(grid), ", ")


def format_hardware_view(layout: Layout | LinearLayout, shape: Sequence[int]) -> str:
    """For each warp, one line per register listing each lane's element (Triton's hardware view)."""
    grid = layout_grid(layout, shape)
    names = _coord_strings(grid)
    slots = grid.slot_elements
    per_warp = grid.lanes * grid.registers
    out: list[str] = []
    for b in range(grid.num_blocks):
        if grid.num_blocks > 1:
            out.append(f"Block{b}:\n")
        for w in range(grid.num_warps):
            out.append(f"Warp{w}:\n")
            base = (b * grid.num_warps + w) * per_warp
            for r in range(grid.registers):
                lanes = slots[base + r : base + per_warp : grid.registers]
                out.append(", ".join([names[e] for e in lanes]) + "\n")
    return "".join(out)
