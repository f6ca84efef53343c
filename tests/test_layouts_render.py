"""Layout maps: the coloured terminal grid, the SVG image, and the text report."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.text import Text

from irscope.analysis.layouts.explain import analyze_layouts
from irscope.analysis.layouts.views import layout_grid
from irscope.parse import layouts as L
from irscope.parse.layouts import parse_layouts
from irscope.views.layout_map import PALETTE, MapCell, build_map, render_layout_map, render_layout_svg
from irscope.views.layout_report import layout_report_data, render_layout_report

DATA = Path(__file__).parent / "data" / "layouts"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def sm90() -> L.LayoutTable:
    return parse_layouts((DATA / "matmul.sm90.ttgir").read_text())


def _lines(text: Text) -> list[str]:
    return text.plain.splitlines()


def test_tensor_map_fits_100_columns_and_says_what_was_folded(sm90: L.LayoutTable) -> None:
    blocked1 = sm90.aliases["blocked1"]
    text = render_layout_map(blocked1, [128, 64], width=100)
    lines = _lines(text)
    assert lines[0] == "#blocked1, 128x64, tensor view"
    assert all(cell_len(line) <= 100 for line in lines)
    assert "showing rows 0-7 and 121-127 of 128" in lines
    assert "showing columns 0-5 and 58-63 of 64" in lines
    row0 = lines[2].split()
    assert row0[:7] == ["0", "T0:0", "T0:1", "T0:2", "T0:3", "T0:4", "T0:5"] and "…" in row0
    assert row0[-1] == "T7:7"  # element (0, 63): lane 7, its 8th register
    assert any(line.strip() == "⋮" for line in lines)


def test_cells_are_coloured_by_warp(sm90: L.LayoutTable) -> None:
    text = render_layout_map(sm90.aliases["blocked1"], [128, 64])
    styles = {str(span.style) for span in text.spans}
    assert f"black on {PALETTE[0]}" in styles and f"black on {PALETTE[7]}" in styles
    grid = layout_grid(sm90.aliases["blocked1"], [128, 64])
    last_row_warp = grid.holders()[127 * 64][0].warp
    data = build_map(sm90.aliases["blocked1"], [128, 64], max_cols=12)
    assert data.cells[-1][0] is not None and data.cells[-1][0].warp == last_row_warp == 7
    assert data.warps == (0, 1, 6, 7)


def test_plain_maps_name_the_warp_that_colour_shows(sm90: L.LayoutTable) -> None:
    """Issue 28 item 12: without colour, rows 1 and 121 of the wgmma map both read `T4:..` (warp 0 lane 4
    against warp 7 lane 4); the plain form names the warp, the coloured form keeps its short labels."""
    mma = sm90.aliases["mma"]
    grid = layout_grid(mma, [128, 256])
    holders = grid.holders()
    assert (holders[1 * 256][0].warp, holders[1 * 256][0].lane) == (0, 4)
    assert (holders[121 * 256][0].warp, holders[121 * 256][0].lane) == (7, 4)
    plain = {line.split()[0]: line.split()[1:] for line in _lines(render_layout_map(mma, [128, 256], plain=True))
             if line.split()[:1] and line.split()[0].isdigit()}
    assert plain["1"][0] == "w0:T4:0" and plain["121"][0] == "w7:T4:2"
    notes = _lines(render_layout_map(mma, [128, 256], plain=True))
    assert "cells show w<warp>:T<lane>:<register> of the lowest thread holding the element" in notes
    coloured = render_layout_map(mma, [128, 256])
    rows = {line.split()[0]: line.split()[1:] for line in _lines(coloured) if line.split()[:1]
            and line.split()[0].isdigit()}
    assert rows["1"][0] == rows["121"][0][:3] + "0" == "T4:0"  # the same lane: only the colour tells the warps apart
    assert "cells show T<lane>:<register> of the lowest thread holding the element; colour = warp" in _lines(coloured)
    assert all(cell_len(line) <= 100 for line in notes)
    one_warp = L.BlockedLayout(size_per_thread=(1, 1), threads_per_warp=(4, 8), warps_per_cta=(1, 1), order=(1, 0))
    assert build_map(one_warp, [4, 8], plain=True).cells[0][0] == MapCell("T0:0", 0)  # one warp: nothing to tell


def test_small_map_is_not_folded() -> None:
    mma = L.NvidiaMmaLayout(version_major=2, version_minor=0, warps_per_cta=(2, 2), instr_shape=(16, 8))
    data = build_map(mma, [16, 16], max_rows=16, max_cols=16)
    assert None not in data.row_labels and None not in data.col_labels
    assert data.cells[0][0] is not None and data.cells[0][0].text == "T0:0"
    # (8, 9) is (8, 1) of warp 1's 16x8 tile: PTX's c3 of lane 0 (labels are lanes within the warp)
    assert data.cells[8][9] == MapCell("T0:3", 1)
    assert data.cells[0][8] is not None and data.cells[0][8].warp == 1
    assert not any(note.startswith("showing") for note in data.notes)


def test_hardware_map_shows_one_warp_and_how_the_others_move(sm90: L.LayoutTable) -> None:
    text = render_layout_map(sm90.aliases["mma"], [128, 256], view="hardware")
    lines = _lines(text)
    assert lines[0] == "#mma, 128x256, hardware view"
    assert lines[2].split()[:3] == ["T0", "(0,0)", "(0,1)"]
    assert all(cell_len(line) <= 100 for line in lines[:-2])
    joined = " ".join(lines)
    assert "warp 1: +(16,0)" in joined and "showing registers 0-" in joined
    other = build_map(sm90.aliases["mma"], [128, 256], "hardware", warp=3)
    assert other.cells[0][0] is not None and other.cells[0][0].text == "(48,0)"


def test_replication_and_rank_notes() -> None:
    blocked = L.BlockedLayout(size_per_thread=(1, 2), threads_per_warp=(4, 8), warps_per_cta=(2, 2), order=(1, 0))
    data = build_map(blocked, [4, 4])
    assert "every element is held by 16 slots (broadcast)" in data.notes  # 4 warps x 32 lanes x 2 regs / 16
    row = L.BlockedLayout(size_per_thread=(4,), threads_per_warp=(32,), warps_per_cta=(8,), order=(0,))
    flat = build_map(row, [1024], max_cols=16)
    assert "the 1024 elements are wrapped 16 per row" in flat.notes and flat.row_labels[1] == "16"
    cube = L.BlockedLayout(size_per_thread=(1, 1, 4), threads_per_warp=(1, 4, 8), warps_per_cta=(2, 1, 1),
                           order=(2, 1, 0))
    plane = build_map(cube, [2, 4, 32], batch=1)
    assert "showing the 4x32 plane at index 1 of the leading dims [2]" in plane.notes
    assert plane.cells[0][0] is not None and plane.cells[0][0].warp == 1


def test_bad_view_is_refused(sm90: L.LayoutTable) -> None:
    with pytest.raises(ValueError, match="view must be one of tensor, hardware"):
        build_map(sm90.aliases["mma"], [128, 256], "sideways")


def test_svg_is_well_formed_with_cells_legend_and_notes(sm90: L.LayoutTable) -> None:
    svg = render_layout_svg(sm90.aliases["mma"], [32, 32])
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    rects = root.findall(f"{SVG}rect")
    texts = [t.text for t in root.findall(f"{SVG}text")]
    assert texts[0] == "#mma, 32x32, tensor view"
    # 32x32 cells + background + one legend swatch per warp present (2 warps: rows 0-15 and 16-31)
    assert len(rects) == 1 + 32 * 32 + 2
    assert {r.get("fill") for r in rects[1:-2]} == {PALETTE[0], PALETTE[1]}
    assert "T0:0" in texts and any(t and t.startswith("cells show") for t in texts)


def test_svg_of_a_large_tensor_is_folded(sm90: L.LayoutTable) -> None:
    root = ET.fromstring(render_layout_svg(sm90.aliases["blocked"], [64, 256], view="tensor", max_rows=8, max_cols=8))
    texts = [t.text for t in root.findall(f"{SVG}text")]
    assert "…" in texts and "showing columns 0-3 and 253-255 of 256" in texts


def test_text_report_and_json_data() -> None:
    report = analyze_layouts((DATA / "matmul.sm80.ttgir").read_text())
    text = render_layout_report(report).plain
    lines = text.splitlines()
    assert lines[0] == "target cuda:80, 8 warps, 32 threads per warp"
    assert all(len(line) <= 100 for line in lines)
    assert "#mma  [nvidia_mma]" in lines
    assert "  128x256: 128 elements per thread; 32-bit registers: f32 128, f16 64" in lines
    assert any("line 210: %2 128x256xf16  #mma -> #blocked" in line for line in lines)
    data = layout_report_data(report)
    mma = next(item for item in data["layouts"] if item["label"] == "#mma")
    assert mma["layout"]["version_major"] == 2 and mma["layout"]["instr_shape"] == [16, 8]
    assert mma["registers"][0]["elements_per_thread"] == 128
    assert data["conversions"][0]["loc"].endswith("gen_kernels.py:73:5")
    assert data["module"]["target"] == "cuda:80"


def test_a_conversion_keeps_its_source_path_whole() -> None:
    """A path with hyphens (pytest's tmp dirs, most checkouts) is never broken across lines at a hyphen."""
    path = "/tmp/pytest-of-root/pytest-241/docs-run0/repo/kernels/gen_kernels.py"
    ttgir = (DATA / "matmul.sm80.ttgir").read_text().replace("/work/main/tests/data/layouts/gen_kernels.py", path)
    lines = render_layout_report(analyze_layouts(ttgir)).plain.splitlines()
    conversion = next(line for line in lines if line.startswith("  line 210: %2 128x256xf16"))
    assert conversion.endswith(f"({path}:73:5)"), conversion
