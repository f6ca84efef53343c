"""`irscope layouts` as a user meets it."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from irscope.cli import cli
from tests.conftest import invoke

DATA = Path(__file__).parent / "data" / "layouts"
SM80 = str(DATA / "matmul.sm80.ttgir")
FORMS = str(Path(__file__).parent / "data" / "ttgir_corpus" / "snippets" / "mlir_forms.ttgir")
MALFORMED = str(DATA / "snippets" / "malformed.ttgir")


def test_report_of_a_file() -> None:
    result = invoke("layouts", "--file", SM80)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("target cuda:80, 8 warps, 32 threads per warp\n")
    assert ("#blocked1  [blocked]\n  each thread holds 1x8 contiguous fp16 (the layout allows one 16-byte load)"
            in result.output)
    assert "convert_layout ops: 1" in result.output
    assert all(len(line) <= 100 for line in result.output.splitlines())


def test_json_report() -> None:
    result = invoke("layouts", "--file", SM80, "--json")
    data = json.loads(result.output)
    assert data["source"] == SM80 and len(data["modules"]) == 1
    labels = [layout["label"] for layout in data["modules"][0]["layouts"]]
    assert labels[:4] == ["#blocked", "#blocked1", "#mma", "#shared"]


def test_map_and_svg_image(tmp_path: Path) -> None:
    image = tmp_path / "mma.svg"
    result = invoke("layouts", "--file", SM80, "--map", "mma", "--view", "hardware", "--warp", "1", "--image",
                    str(image))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("#mma, 128x256, hardware view\n")
    assert f"wrote {image}" in result.output
    assert ET.parse(image).getroot().tag.endswith("svg")


def test_a_piped_map_names_the_warp() -> None:
    """Issue 28 item 12: piped (no colour), each cell names its warp: rows 0 and 127 differ only in the warp."""
    result = invoke("layouts", "--file", SM80, "--map", "blocked1")
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line.split()[1:] for line in result.output.splitlines() if line.split()[:1]
            and line.split()[0].isdigit()}
    assert rows["0"][0] == "w0:T0:0" and rows["127"][0] == "w7:T24:24"
    assert "cells show w<warp>:T<lane>:<register> of the lowest thread holding the element" in result.output
    coloured = CliRunner().invoke(cli, ["layouts", "--file", SM80, "--map", "blocked1"], env={"FORCE_COLOR": "1"})
    assert "\x1b[" in coloured.output and "T0:0" in coloured.output and "w0:" not in coloured.output
    no_color = CliRunner().invoke(cli, ["layouts", "--file", SM80, "--map", "blocked1"],
                                  env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "w0:T0:0" in no_color.output  # a terminal with NO_COLOR shows no colour either


def test_map_json_is_tritons_dump_text() -> None:
    result = invoke("layouts", "--file", SM80, "--map", "#blocked1", "--shape", "4x64", "--json")
    data = json.loads(result.output)
    assert data["shape"] == [4, 64] and data["view"] == "tensor"
    assert data["text"].startswith("[[  T0:0| T32:0| T64:0|")  # 4 rows, 8 warps stacked: warps replicate


def test_map_of_layouts_defined_over_lines_with_comments() -> None:
    """Issue 12 item 6: `#blocked` spans two lines and `#dotB` shares a line; both map, at their used shape."""
    for alias, header in (("blocked", "#blocked, 64x64, tensor view"), ("dotB", "#dotB, 64x64, tensor view")):
        result = invoke("layouts", "--file", FORMS, "--map", alias)
        assert result.exit_code == 0, result.output
        assert result.output.startswith(header)


def test_tui_says_why_a_layout_has_no_map() -> None:
    """The layouts panel's message: an unreadable or placeholder layout is not called shared memory."""
    from irscope.analysis.layouts.explain import analyze_layouts
    from irscope.tui.widgets.layouts_panel import no_map_reason

    report = analyze_layouts(Path(FORMS).read_text())
    reasons = {info.label: no_map_reason(info) for info in report.layouts}
    assert reasons["#gluon.auto_encoding"] == (
        "irscope cannot draw this layout (Gluon's placeholder; Triton chooses the layout in a later pass).")
    assert reasons["#shared"] == "this layout places data in shared or tensor memory, not in threads."
    assert reasons["#blocked"] is None and reasons["#dotB"] is None
    bad = analyze_layouts(Path(MALFORMED).read_text())
    assert no_map_reason(bad.get("#missing")) == "irscope cannot draw this layout (missing threadsPerWarp)."  # type: ignore[arg-type]


def test_multi_module_file_and_module_choice() -> None:
    path = str(DATA / "snippets" / "lit_multi_module.mlir")
    result = invoke("layouts", "--file", path)
    assert "== module 1 of 2 ==" in result.output and "== module 2 of 2 ==" in result.output
    mapped = invoke("layouts", "--file", path, "--module", "2", "--map", "blocked")
    assert mapped.output.startswith("#blocked, 512, tensor view")


@pytest.mark.parametrize(("args", "needle"), [
    (["--file", SM80, "--map", "mmma"], "unknown layout '#mmma' (did you mean '#mma'?); valid: #blocked, #blocked1"),
    (["--file", SM80, "--map", "shared"], "#shared is a swizzled_shared layout (memory, not registers)"),
    (["--file", SM80, "--map", "mma", "--shape", "100x64"], "--shape '100x64': every dim must be a power of two"),
    (["--file", SM80, "--map", "mma", "--image", "x.png"], "--image writes SVG only"),
    (["--file", "no/such.ttgir"], "TTGIR file no/such.ttgir does not exist"),
    ([], "give a KERNEL (see irscope list) or --file some.ttgir"),
    (["matmul", "--stage", "ptx"], "layouts live in the ttgir stage, not 'ptx'"),
    (["--file", SM80, "--module", "3", "--map", "mma"], "--module 3: the file has 1 module(s)"),
    (["--file", FORMS, "--map", "#gluon.auto_encoding"],
     "#gluon.auto_encoding cannot be mapped: Gluon's placeholder; Triton chooses the layout in a later pass"),
    (["--file", MALFORMED, "--map", "missing"], "#missing cannot be mapped: missing threadsPerWarp"),
])
def test_bad_input_is_one_line(args: list[str], needle: str) -> None:
    result = invoke("layouts", *args)
    assert result.exit_code == 2, result.output
    assert needle in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize(("key", "message"), [
    ("warp", "#blocked1 cannot be mapped: missing warp: Triton requires the bases register, lane, warp and block "
             "(it has warps)"),
    ("lane", "#blocked1 cannot be mapped: missing lane: Triton requires the bases register, lane, warp and block "
             "(it has lanes)"),
])
def test_a_misspelled_linear_key_is_refused_in_one_line(tmp_path: Path, key: str, message: str) -> None:
    """Issue 28 item 6: a `#ttg.linear` with `lanes = ...` drew a map that ended in an IndexError (exit 70)."""
    blocked1 = ("#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], "
                "order = [1, 0]}>")
    bases = {"register": "[[0, 1], [0, 2], [0, 4]]", "lane": "[[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]]",
             "warp": "[[4, 0], [8, 0], [16, 0]]", "block": "[]"}
    linear = ", ".join(f"{k}{'s' if k == key else ''} = {v}" for k, v in bases.items())
    path = tmp_path / "linear.ttgir"
    path.write_text(Path(SM80).read_text().replace(blocked1, f"#blocked1 = #ttg.linear<{{{linear}}}>"))
    report = invoke("layouts", "--file", str(path))
    assert report.exit_code == 0 and "problem: #blocked1: cannot read ttg.linear: missing " + key in report.output
    result = invoke("layouts", "--file", str(path), "--map", "blocked1")
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [f"irscope: error: {message}"]


@pytest.mark.compile
def test_report_of_a_bundled_kernel(shared_store: Path) -> None:
    result = invoke("layouts", "matmul", "--target", "sm90", "--store", str(shared_store))
    assert result.exit_code == 0, result.output
    assert "#mma  [nvidia_mma]\n  nvidia_mma v3 (Hopper wgmma)" in result.output


@pytest.mark.compile
def test_layouts_after_a_pass(captures, shared_store) -> None:
    """--pass reads the per-pass dump: the mma layout appears at accelerate-matmul, not before."""
    captures("matmul", "sm90")
    store = ["--store", str(shared_store), "--target", "sm90"]
    before = CliRunner().invoke(cli, ["layouts", "matmul", "--pass", "tritongpu-coalesce", *store])
    after = CliRunner().invoke(cli, ["layouts", "matmul", "--pass", "tritongpu-accelerate-matmul", *store])
    assert before.exit_code == 0 and after.exit_code == 0, before.output + after.output
    assert "[nvidia_mma]" not in before.stdout and "[blocked]" in before.stdout
    assert "#mma  [nvidia_mma]\n  nvidia_mma v3 (Hopper wgmma), instrShape 16x256x16" in after.stdout
    bad = CliRunner().invoke(cli, ["layouts", "matmul", "--pass", "tritongpu-pipelin3", *store])
    assert bad.exit_code == 2 and "unknown pass 'tritongpu-pipelin3'" in bad.output
