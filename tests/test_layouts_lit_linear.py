"""The `#ttg.linear` layouts of Triton's lit tests (tests/data/layouts/lit_linear) and edge cases around what
Triton accepts, through irscope and through Triton 3.9 itself: its parser's verdict (accept or refuse) and its
own layout printer (Gluon's format_tensor_view / format_hardware_view on the layout Triton parsed). Where
Triton 3.9's printer is not installed, Triton's recorded answers (dumps/lit_linear.json.xz, written by
tests/data/layouts/regenerate.py) stand in for it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke
from lit_linear_oracle import (
    LIT,
    LIVE_ELEMENTS,
    LitLayout,
    bases,
    dump_shape,
    edge_modules,
    lit_layouts,
    lit_modules,
    read_recorded,
    triton_verdicts,
    triton_views,
)

from irscope.parse.layouts import DistributedLinearLayout, parse_layouts, split_modules
from irscope.store.store import triton_version
from irscope.views.layout_text import format_hardware_view, format_tensor_view

_LIVE = tuple(int(p) for p in triton_version().split(".")[:2] if p.isdigit()) >= (3, 9)
RECORDED = read_recorded()
LAYOUTS = lit_layouts(RECORDED["verdicts"])
MODULES = [*lit_modules(), *edge_modules()]


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Triton's parser's verdict on every module: live with Triton >= 3.9, else as recorded."""
    if not _LIVE:
        return dict(RECORDED["verdicts"])
    folder = tmp_path_factory.mktemp("verdicts")
    paths = []
    for i, (_, text) in enumerate(MODULES):
        paths.append(folder / f"m{i}.mlir")
        paths[-1].write_text(text)
    live = dict(zip([name for name, _ in MODULES], triton_verdicts(paths), strict=True))
    assert live == RECORDED["verdicts"], "Triton's verdicts moved: rerun tests/data/layouts/regenerate.py lit"
    return live


def test_the_lit_data_is_what_the_issue_needs() -> None:
    """Layouts with fewer warp bases than the module's warps, and broadcast (zero) bases, are among them."""
    assert len(LAYOUTS) >= 200 and set(RECORDED["views"]) == {c.key for c in LAYOUTS}
    assert len(list(LIT.glob("*.mlir"))) >= 50  # the lit files of Triton that name a #ttg.linear layout
    refused = [name for name, _ in lit_modules() if RECORDED["verdicts"][name] != "accept"]
    assert len(refused) >= 3, refused  # expected-error lit modules whose #ttg.linear layout Triton refuses
    fewer = [c for c in LAYOUTS if isinstance(c.layout, DistributedLinearLayout) and 1 << len(c.layout.warp) <
             warps_of(c)]
    assert len(fewer) >= 4, [c.key for c in fewer]
    assert any(any(not any(b) for b in c.layout.warp) for c in LAYOUTS if isinstance(c.layout, DistributedLinearLayout))


@pytest.mark.parametrize("name", [name for name, _ in MODULES])
def test_irscope_refuses_exactly_what_triton_refuses(name: str, verdicts: dict[str, str]) -> None:
    """One side accepting a module whose linear layout the other refuses fails, whichever side it is."""
    text = dict(MODULES)[name]
    problems = [p for p in parse_layouts(text).problems if p.startswith("#l: ") or "linear" in p]
    if verdicts[name] == "accept":
        assert problems == [], f"Triton accepts {name}; irscope refuses it"
    else:  # "refuse", or "crash": Triton aborts on a non-surjective layout
        assert len(problems) == 1 and "invalid ttg.linear" in problems[0], f"Triton refuses {name}; irscope: {problems}"


@pytest.mark.parametrize("case", LAYOUTS, ids=[c.key for c in LAYOUTS])
def test_lit_linear_layouts_are_drawn_as_triton_draws_them(case: LitLayout, tmp_path: Path) -> None:
    assert isinstance(case.layout, DistributedLinearLayout), f"irscope refuses {case.key}: {case.layout!r}"
    recorded = RECORDED["views"][case.key]
    shape = dump_shape(case.shape)
    assert recorded["shape"] == shape
    assert format_tensor_view(case.layout, shape) == recorded["tensor"]
    assert format_hardware_view(case.layout, shape) == recorded["hardware"]
    if not _LIVE:
        return
    theirs: Any = triton_views(case.module, tmp_path / "module.mlir")[bases(case.layout)]
    for each in {tuple(shape), tuple(dump_shape(case.shape, LIVE_ELEMENTS))}:  # the recorded cut, the lit shape
        assert format_tensor_view(case.layout, list(each)) == theirs.format_tensor_view(list(each)), each
        assert format_hardware_view(case.layout, list(each)) == theirs.format_hardware_view(list(each)), each
    assert theirs.format_tensor_view(shape) == recorded["tensor"], "rerun tests/data/layouts/regenerate.py lit"


def warps_of(case: LitLayout) -> int:
    return int(re.search(r'"ttg.num-warps" = (\d+)', case.module)[1])  # type: ignore[index]


def module_reports(output: str) -> list[str]:
    """`layouts --file` output, one part per module (headed `== module i of n ==` where there are several)."""
    parts = re.split(r"^== module \d+ of \d+ ==$", output, flags=re.M)
    return parts[1:] if len(parts) > 1 else parts


@pytest.mark.parametrize("path", sorted(LIT.glob("*.mlir")), ids=lambda p: p.stem)
def test_layouts_file_calls_no_lit_linear_layout_invalid(path: Path, verdicts: dict[str, str]) -> None:
    """`layouts --file F`, every module: no problem line where Triton accepts the module, an invalid ttg.linear where
    it refuses it; each linear alias maps, naming the warps holding copies."""
    report = invoke("layouts", "--file", path)
    assert report.exit_code == 0, report.output
    parts = module_reports(report.output)
    assert len(parts) == len(split_modules(path.read_text())), report.output
    for number, part in enumerate(parts, start=1):
        if verdicts[f"{path.stem}.{number}"] == "accept":
            assert not re.search(r"\binvalid\b|^problem", part, flags=re.M), f"module {number}: {part}"
        else:
            assert "problem: #" in part and "invalid ttg.linear" in part, f"module {number}: {part}"
    # --map: the file's first linear alias, and every one that names fewer warps than its module runs
    cases = [c for c in LAYOUTS if c.key.startswith(f"{path.stem}.") and not c.alias.startswith("inline")]
    for case in (c for i, c in enumerate(cases) if i == 0 or 1 << len(c.layout.warp) < warps_of(c)):  # type: ignore
        module = case.key.split(".")[1]
        drawn = invoke("layouts", "--file", path, "--module", module, "--map", f"#{case.alias}")
        assert drawn.exit_code == 0, drawn.output
        warps = warps_of(case)
        named = 1 << len(case.layout.warp)  # type: ignore[attr-defined]
        note = f"the module runs {warps} warps; #{case.alias} names {named}, so warps {named}-{warps - 1} hold " \
               f"copies of warps 0-{named - 1} (zero warp bases)"
        assert (note in drawn.output) == (named < warps), drawn.output


def test_the_issue_example_maps() -> None:
    """Issue 44: `--module 2 --map '#src_layout' --shape 32x32` exited 2 calling the layout invalid."""
    drawn = invoke("layouts", "--file", LIT / "amd-concat-op.mlir", "--module", "2", "--map", "#src_layout",
                   "--shape", "32x32")
    assert drawn.exit_code == 0, drawn.output
    assert "warps 2-3 hold copies of warps 0-1" in drawn.output
