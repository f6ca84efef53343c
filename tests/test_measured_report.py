"""``irscope report --measured`` on real profiles of tests/data/programs/inductor_train_step.py, made on an H100
(Triton 3.6.0, torch 2.11; tests/data/artifacts/README.md says how): the training step captured offline for sm90 with
that torch and Triton, exported with its program record (``export --program``) and opened here, joined to the GPU's
torch.profiler trace, Proton profile and ncu CSV by name. (The session's own capture, made with torch 2.13, joined
to the same trace: tests/test_report.py's training-step test, which models it anyway.)"""

from __future__ import annotations

import asyncio
import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from irscope.parse.profiles import looks_like_triton, read_profile
from irscope.store.store import Store
from tests.conftest import DATA, invoke
from tests.derived_cache import open_with_derived

pytestmark = pytest.mark.compile

ART = DATA / "artifacts"
PROFILES = {"torch.profiler": ART / "train_step.trace.json.gz", "proton": ART / "train_step.hatchet.gz",
            "ncu": ART / "train_step.ncu.csv.gz"}
CAPTURE = ART / "train_step-sm90-torch-2.11.tar.gz"  # irscope capture --target sm90 --gpu h100 under torch 2.11


@pytest.fixture(scope="module")
def train(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The program capture opened from its archive into a fresh store, and its report."""
    store = tmp_path_factory.mktemp("measured") / "store"
    opened = open_with_derived(CAPTURE, Store(store))
    assert len(opened.added) == 62 and len(opened.programs) == 1
    return store, _json("report", "--what-if", "0", store=store)


def _json(*args: str, store: Path) -> dict[str, Any]:
    result = invoke(*args, "--json", store=store)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


@pytest.mark.parametrize("source", sorted(PROFILES))
def test_report_measured_joins_the_training_steps_triton_kernels_by_name(train: tuple[Path, dict[str, Any]],
                                                                         source: str) -> None:
    store, report = train
    data = _json("report", "--what-if", "0", "--measured", str(PROFILES[source]), store=store)
    measured = data["measured"]
    assert measured["source"] == source
    profile = read_profile(PROFILES[source])
    triton = [k for k in profile.kernels if looks_like_triton(k.name)]
    # the bar: >= 95% of the profile's Triton kernels joined by name
    assert measured["triton_measured"] == len(triton) > 0
    assert measured["joined_share"] >= 0.95
    rows = {r["name"]: r for r in report["kernels"]}
    for row in measured["rows"]:
        kernel = profile.kernel(row["name"])
        assert kernel is not None
        number = row["number"]
        assert data["kernels"][number - 1]["name"] == row["name"]
        if row["joined_by"] == "name":  # one report row of this name: the name's launches, all of them
            assert (row["measured_calls"], row["measured_us"]) == (kernel.calls, pytest.approx(kernel.total_us))
            assert row["predicted_per_launch_us"] == pytest.approx(rows[row["name"]]["per_launch_us"])
        assert row["ratio"] == pytest.approx(row["measured_per_call_us"] / row["predicted_per_launch_us"])
    # largest disagreement first, either way
    off = [max(r["ratio"], 1 / r["ratio"]) for r in measured["rows"] if r["ratio"]]
    assert off == sorted(off, reverse=True)
    # nothing dropped: every measured kernel is joined or listed with why, every report row too
    listed = {r["name"] for r in measured["rows"]} | {u["name"] for u in measured["only_measured"]}
    assert listed == {k.name for k in profile.kernels}
    assert {r["name"] for r in measured["rows"]} | {u["name"] for u in measured["only_predicted"]} == set(rows)
    assert all(u["why"] for u in measured["only_measured"] + measured["only_predicted"])
    outside = [u for u in measured["only_measured"] if not looks_like_triton(u["name"])]
    assert all("not a Triton kernel of the capture" in u["why"] for u in outside)


def test_the_html_page_and_the_tui_show_the_measured_columns(train: tuple[Path, dict[str, Any]],
                                                             tmp_path: Path) -> None:
    from textual.widgets import DataTable

    from irscope.tui.report_app import make_report_app
    from irscope.tui.screens.report import ReportScreen

    store, _ = train
    trace = str(PROFILES["torch.profiler"])
    text = invoke("report", "--what-if", "0", "--measured", trace, store=store).output
    page = tmp_path / "report.html"
    result = invoke("report", "--what-if", "0", "--measured", trace, "--html", str(page), store=store)
    assert result.exit_code == 0, result.output
    html = page.read_text()
    start = html.index('id="irscope-data">') + len('id="irscope-data">')
    data = json.loads(html[start:html.index("</script>", start)])
    assert data["heads"][-2:] == ["measured", "meas/pred"]
    assert data["measured"] and all(line in text for line in data["measured"])  # the text report's own section
    measured = _json("report", "--what-if", "0", "--measured", trace, store=store)["measured"]
    first = min(measured["rows"], key=lambda r: r["number"])
    cells = data["rows"][first["number"] - 1]
    assert cells[-1] == f"{first['ratio']:.2f}x" and cells[-2].endswith("us")

    async def drive() -> tuple[list[str], str]:
        app = make_report_app(None, str(store), what_if=0, measured=trace)
        async with app.run_test(size=(220, 45)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReportScreen)
            table = screen.query_one(DataTable)
            heads = [str(c.label) for c in table.columns.values()]
            for _ in range(first["number"] - 1):
                await pilot.press("down")
            await pilot.pause()
            return heads, screen.detail

    heads, detail = asyncio.run(drive())
    assert heads[-2:] == ["measured", "meas/pred"]
    assert f"measured/predicted {first['ratio']:.2f}x" in detail and "(torch.profiler)" in detail


def test_one_name_of_two_rows_is_split_by_grid_or_summed_without_grids(train: tuple[Path, dict[str, Any]]) -> None:
    """A forward and a backward kernel may share a name: two rows of the real report given one name, and the real
    trace's launches of the second renamed alike, are told apart by their grids; without grids, compared summed."""
    from dataclasses import replace

    from irscope.analysis.measured import join_report
    from irscope.parse.profiles import parse_profile
    from irscope.request.program_report import ReportOptions, program_report

    store, _ = train
    report = program_report(str(store), ReportOptions(what_if=0))
    trace = read_profile(PROFILES["torch.profiler"])
    grids = {k.name: k.grids for k in trace.kernels}
    pair = [(i, r, r.chosen.grid) for i, r in enumerate(report.kernels)
            if r.chosen is not None and grids.get(r.name) == (r.chosen.grid,)]  # one measured grid: the modelled
    (i, a, _), (j, b, _) = next((x, y) for x in pair for y in pair if x[2] != y[2])
    kernels = list(report.kernels)
    kernels[j] = replace(b, name=a.name)
    renamed = replace(report, kernels=tuple(kernels))
    events = json.loads(gzip.decompress(PROFILES["torch.profiler"].read_bytes()))
    for event in events["traceEvents"]:
        if event.get("cat") == "kernel" and event.get("name") == b.name:
            event["name"] = a.name
    split = join_report(parse_profile(json.dumps(events)), renamed)
    mine = {r.number: r for r in split.rows if r.name == a.name}
    assert set(mine) == {i + 1, j + 1} and {r.joined_by for r in mine.values()} == {"name and grid"}
    assert mine[i + 1].measured_calls == trace.kernel(a.name).calls  # type: ignore[union-attr]
    assert mine[j + 1].measured_calls == trace.kernel(b.name).calls  # type: ignore[union-attr]
    for event in events["traceEvents"]:
        event.get("args", {}).pop("grid", None)
    (summed,) = [r for r in join_report(parse_profile(json.dumps(events)), renamed).rows if r.name == a.name]
    assert summed.joined_by == "name, rows summed" and summed.predicted_launches == a.launches + b.launches


def test_a_program_capture_travels_whole_and_bad_records_are_refused(tmp_path: Path) -> None:
    """``export --program`` writes the record beside its captures; ``open`` adds it after them, once; the report of
    the opened copy is the report of the store it came from. A record that is not one, or names another id, or a
    member outside ``programs/<id>/program.json``, refuses the whole archive in one line, writing nothing."""
    import tarfile

    from irscope.store.archive import build_member

    first = tmp_path / "first"
    assert len(open_with_derived(CAPTURE, Store(first)).programs) == 1
    again = tmp_path / "again.tar.gz"
    out = invoke("export", "--program", "latest", "-o", str(again), store=first)
    assert out.exit_code == 0 and "62 capture(s) and 1 program record(s)" in out.output, out.output
    second = tmp_path / "second"
    opened = invoke("open", str(again), store=second)
    assert opened.exit_code == 0 and "'irscope report prog-" in opened.output, opened.output
    for derived in (first / "captures").glob("*/derived"):  # the tool runs, which export leaves out: made again
        shutil.copytree(derived, second / "captures" / derived.parent.name / "derived")
    assert "already in the store" in invoke("open", str(again), store=second).output
    a = _json("report", "--what-if", "0", store=first)
    b = _json("report", "--what-if", "0", store=second)
    assert [(r["name"], r["per_launch_us"]) for r in a["kernels"]] == [(r["name"], r["per_launch_us"])
                                                                       for r in b["kernels"]]
    with tarfile.open(CAPTURE) as tar:
        record = next(m for m in tar.getmembers() if m.name.startswith("programs/"))
        pid = record.name.split("/")[1]
        blob = tar.extractfile(record).read()  # type: ignore[union-attr]
    cases = {
        "not JSON": (f"programs/{pid}/program.json", b"{", "is not a program record"),
        "wrong types": (f"programs/{pid}/program.json", json.dumps({"format": 1, "id": pid}).encode(),
                        "is not a program record"),
        "another id": (f"programs/{pid}/program.json",
                       blob.replace(pid.encode(), b"prog-20200101-000000-abcdef"), "names the id"),
        "bad id": ("programs/../../etc/program.json", blob, "is not a program id"),
        "another file": (f"programs/{pid}/run.py", b"import os", "holds one file"),
    }
    for label, (name, data, words) in cases.items():
        bad = tmp_path / f"{label.replace(' ', '_')}.tar.gz"
        with tarfile.open(CAPTURE) as src, tarfile.open(bad, "w:gz") as tar:
            for member in src.getmembers():
                if member.name.startswith("captures/"):
                    tar.addfile(member, src.extractfile(member) if member.isfile() else None)
            build_member(tar, name, data)
        store = tmp_path / f"s-{label.replace(' ', '_')}"
        result = invoke("open", str(bad), store=store)
        assert result.exit_code != 0 and words in result.output, (label, result.output)
        assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output, label
        assert all(not (store / part).exists() or not any((store / part).iterdir())
                   for part in ("programs", "captures")), label
