"""The join of ``--measured`` on real GPU measurements: the H200's torch.profiler totals of three Hugging Face
training steps (tests/data/program_report/validation.json, issue 31: each kernel's calls and device time, the
report's rows of the same programs captured offline) joined to those report rows by name.

The totals are derived data (validate.py summed the trace per kernel), so they are put into ``MeasuredProfile`` as
typed kernels, not written out as a file; the rows are the committed report rows, with the model's facts of the
sampled kernels computed again from their committed captures, as tests/test_report_validation.py does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from irscope.analysis.measured import join_launch, join_report
from irscope.analysis.report.results import KernelRow, ProgramReport
from irscope.parse.profiles import MeasuredKernel, MeasuredProfile, looks_like_triton
from irscope.store.archive import open_archive
from irscope.store.store import Store
from irscope.views.measured_text import measured_json, render_measured
from tests.conftest import DATA

FOLDER = DATA / "program_report"


@pytest.fixture(scope="module")
def validation(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    store = tmp_path_factory.mktemp("measured-validation")
    open_archive(FOLDER / "captures.tar.gz", Store(store))
    return json.loads((FOLDER / "validation.json").read_text(encoding="utf-8")), store


def _profile(data: dict[str, Any]) -> MeasuredProfile:
    kernels = [MeasuredKernel(name=name, calls=int(k["calls"]), total_us=float(k["device_us"]))
               for name, k in data["profile"]["kernels"].items()]
    return MeasuredProfile(source="torch.profiler", path="validation.json",
                           kernels=tuple(sorted(kernels, key=lambda k: -k.total_us)))


def _report(data: dict[str, Any], store: Path) -> ProgramReport:
    from irscope.request.program_report import facts_of

    steps = int(data["profile"]["steps"])
    rows = []
    for row in data["rows"]:
        facts = facts_of(str(store), row["key"], data["gpu"], data["target"]) if row["name"] in data["sampled"] \
            else None
        assert not isinstance(facts, str), facts
        launches = round(row["per_step"] * steps)
        per_launch = facts.predicted_us if facts is not None else row["per_launch_us"]
        rows.append(KernelRow(name=row["name"], kind=row["kind"], uses=(), per_step=row["per_step"],
                              launches=launches, per_launch_us=per_launch, step_us=per_launch * row["per_step"],
                              total_us=per_launch * launches, low_us=per_launch, high_us=per_launch, share=0.0,
                              chosen=facts))
    return ProgramReport(program=data["profile"]["model"], command=data["command"], target=data["target"],
                         gpu=data["gpu"], steps=steps, steps_from="the profile's", kernels=tuple(rows), externs=(),
                         triton_us=0.0, step_us=0.0)


@pytest.mark.parametrize("model", ["llama", "gpt2", "bert"])
def test_every_triton_kernel_of_a_real_training_step_joins_by_name(validation: tuple[dict[str, Any], Path],
                                                                   model: str) -> None:
    models, store = validation
    data = models[model]
    profile, report = _profile(data), _report(data, store)
    join = join_report(profile, report)
    triton = {k.name for k in profile.kernels if looks_like_triton(k.name)}
    assert join.triton_measured == len(triton) >= 30
    assert join.joined_share == 1.0 and not join.only_predicted  # the bar is 95%
    assert {r.name for r in join.rows} == triton
    # what joined nothing is the GPU's other kernels: cuBLAS's nvjet, memsets, ATen's, cuDNN's, each said so
    assert {u.name for u in join.only_measured} == {k.name for k in profile.kernels} - triton
    assert all("not a Triton kernel of the capture" in u.why for u in join.only_measured)
    assert any(u.name.startswith("nvjet_") for u in join.only_measured)
    for row in join.rows:
        kernel = profile.kernel(row.name)
        assert kernel is not None and (row.measured_calls, row.measured_us) == (kernel.calls, kernel.total_us)
        same = [r for r in report.kernels if r.name == row.name]
        if len(same) > 1:  # a forward and a backward kernel of one name, and a profile without grids: summed
            assert row.joined_by == "name, rows summed" and row.kind == "+".join(dict.fromkeys(r.kind for r in same))
            assert row.predicted_launches == sum(r.launches for r in same)
            continue
        chosen = report.kernels[row.number - 1].chosen
        if chosen is None:  # not among the committed captures: no prediction to compare, and said so, last
            assert (row.predicted_per_launch_us, row.ratio, row.note) == (None, None, "not modelled")
        else:
            assert row.predicted_per_launch_us == chosen.predicted_us
            assert row.ratio == pytest.approx(kernel.per_call_us / chosen.predicted_us)
    # the sampled kernels, modelled again: measured over predicted per launch, largest disagreement first
    compared = [r for r in join.rows if r.ratio is not None]
    assert {r.name for r in compared} == set(data["sampled"]) and len(compared) >= 3
    assert join.rows[:len(compared)] == tuple(compared)
    off = [r.off_by for r in compared]
    assert off == sorted(off, reverse=True) and off[0] > 1
    text = "\n".join(render_measured(join))
    assert text.startswith(f"measured (torch.profiler, validation.json): {len(triton)} of {len(triton)} Triton "
                           "kernels joined by name (100%)")
    worst = join.rows[0]
    assert f"{worst.measured_per_call_us:.2f} us" in text and f"{worst.ratio:.2f}x" in text
    plain = measured_json(join)
    assert plain["joined_share"] == 1.0 and plain["rows"][0]["ratio"] == worst.ratio


def test_one_launch_joins_by_name_and_says_so_when_the_profile_lacks_it(validation: tuple[dict[str, Any], Path]
                                                                         ) -> None:
    models, _ = validation
    data = models["gpt2"]
    profile = _profile(data)
    name = data["sampled"][0]
    kernel = profile.kernel(name)
    assert kernel is not None
    one = join_launch(profile, name, (64, 1, 1), 10.0, 2e6, "predicted as a launch in a stream")
    (row,) = one.rows
    assert row.joined_by == "name" and row.measured_calls == kernel.calls
    assert row.ratio == pytest.approx(kernel.per_call_us / 10.0)
    assert one.notes[0] == "predicted as a launch in a stream"
    missing = join_launch(profile, name[:-1] + "9", None, 10.0, None)
    assert not missing.rows and missing.only_predicted[0].why.startswith("the profile has no kernel of this name")
    assert missing.only_predicted[0].why.endswith(f"(did you mean {name!r}?)")


def test_the_html_page_and_the_tui_show_the_measured_columns(validation: tuple[dict[str, Any], Path]) -> None:
    import asyncio

    from textual.widgets import DataTable

    from irscope.tui.report_app import ReportApp
    from irscope.tui.screens.report import ReportScreen
    from irscope.views.html_report import render_report_page, report_page_data
    from irscope.views.report_text import TABLE_HEADS

    models, store = validation
    data = models["bert"]
    report = _report(data, store)
    join = join_report(_profile(data), report)
    first = next(r for r in join.rows if r.ratio is not None)
    page = report_page_data(report, join)
    assert page["heads"] == [*TABLE_HEADS, "measured", "meas/pred"]
    assert page["rows"][first.number - 1][-2:] == [f"{first.measured_per_call_us:.2f} us", f"{first.ratio:.2f}x"]
    assert page["measured"] == render_measured(join)
    assert report_page_data(report)["measured"] == [] and len(report_page_data(report)["heads"]) == len(TABLE_HEADS)
    html = render_report_page(report, join)
    assert '"measured"' in html and "drawMeasured" in html  # the page's script draws the Measured tab

    async def drive() -> tuple[list[str], str]:
        app = ReportApp(report, measured=join)
        async with app.run_test(size=(220, 45)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReportScreen)
            heads = [str(c.label) for c in screen.query_one(DataTable).columns.values()]
            for _ in range(first.number - 1):
                await pilot.press("down")
            await pilot.pause()
            return heads, screen.detail

    heads, detail = asyncio.run(drive())
    assert heads == [*TABLE_HEADS, "measured", "meas/pred"]
    assert (f"measured: {first.measured_per_call_us:.2f} us per launch over {first.measured_calls} launch(es) "
            f"(torch.profiler), predicted {first.predicted_per_launch_us:.2f} us, measured/predicted "
            f"{first.ratio:.2f}x") in detail
