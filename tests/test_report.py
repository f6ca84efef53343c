"""``irscope report`` of a real program capture (transformers' Llama under torch.compile, captured offline for sm90):
every number it prints is checked against ``irscope perf`` / ``irscope resources`` of the same capture, the
program record and the capture's launches.json; verdicts against the variants' own PTX."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from irscope.analysis.report.launch import IN_STREAM_LAUNCH_US, LAUNCH_US
from irscope.model.gpus import GPUS
from irscope.model.program_record import ProgramRecord
from irscope.store.store import Store
from tests.conftest import DATA, invoke, repo_path

pytestmark = pytest.mark.compile


@pytest.fixture(scope="module")
def llama(llama_program: tuple[Path, ProgramRecord], tmp_path_factory: pytest.TempPathFactory
          ) -> tuple[Path, ProgramRecord]:
    """The session's Llama capture (conftest's ``llama_program``), copied: the report writes its cache and the
    variants it compiles into the store, which other tests count."""
    shared, record = llama_program
    store = tmp_path_factory.mktemp("report-llama") / "store"
    shutil.copytree(shared, store, ignore=shutil.ignore_patterns("locks", "staging"))
    return store, record


def _report(store: Path, *args: str) -> dict[str, Any]:
    result = invoke("report", "--json", *args, store=store)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def _perf(store: Path, key: str) -> dict[str, Any]:
    result = invoke("perf", key, "--json", store=store)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_rows_are_the_records_kernels_with_launches_counted_from_it(llama: tuple[Path, ProgramRecord]) -> None:
    store, record = llama
    data = _report(store, "--what-if", "0")
    assert data["program"] == record.id
    steps = record.graphs[0].calls
    assert data["steps"] == steps and "graph 0" in data["steps_from"]
    expected: dict[tuple[str, str], int] = {}
    for graph in record.graphs:
        for use in graph.kernels:
            expected[(use.name, graph.kind)] = expected.get((use.name, graph.kind), 0) + use.per_run * graph.calls
    rows = {(r["name"], r["kind"]): r for r in data["kernels"]}
    assert set(rows) == set(expected)
    for key, launches in expected.items():
        assert rows[key]["launches"] == launches
        assert rows[key]["per_step"] == pytest.approx(launches / steps)
    totals = [r["total_us"] for r in data["kernels"]]
    assert totals == sorted(totals, reverse=True)
    assert sum(r["share"] for r in data["kernels"]) == pytest.approx(1.0)
    assert data["triton_us"] == pytest.approx(sum(totals))
    half = _report(store, "--what-if", "0", "--steps", str(2 * steps))
    assert half["kernels"][0]["per_step"] == pytest.approx(data["kernels"][0]["per_step"] / 2)


def test_list_show_and_report_number_an_inductor_kernels_configs_alike(llama: tuple[Path, ProgramRecord]) -> None:
    """Issue 43 item 3: list labelled three configs of one kernel all `config 0`, show --config 1 said it was not
    recorded, and report called the first `config 1 of 3`. Each is now its place in Inductor's list, everywhere."""
    store, _ = llama
    text = invoke("report", "--what-if", "0", "--top", "3", store=store).output
    checked = 0
    for row in _report(store, "--what-if", "0", "--top", "3")["kernels"][:3]:
        name, chosen = row["name"], Store(store).get(row["chosen"]["key"])
        assert chosen is not None
        mine = sorted((c for c in Store(store).find(name) if c.manifest.target == chosen.manifest.target),
                      key=lambda c: c.manifest.config_index)
        assert [c.manifest.config_index for c in mine] == list(range(len(mine)))  # 0, 1, 2: not 0, 0, 0
        assert row["config"] == chosen.manifest.config_index and row["configs"] == len(mine)
        assert f"config {row['config']} of {row['configs']} (" in text
        listing = invoke("list", name, store=store).output
        for c in mine:
            assert f"config {c.manifest.config_index:<3} {c.manifest.config_text()}" in listing, listing
        shown = invoke("show", name, "--config", str(row["config"]), "--stage", "ttgir", store=store)
        assert shown.exit_code == 0 and shown.output.endswith(chosen.read("ttgir")), shown.output[-500:]
        checked += len(mine) > 1
    assert checked  # a kernel with several configs was among them


def test_each_row_is_what_perf_predicts_for_its_fastest_config(llama: tuple[Path, ProgramRecord]) -> None:
    store, record = llama
    data = _report(store, "--what-if", "0", "--top", "3")
    uses = {(u.name, g.index): u for g in record.graphs for u in g.kernels}
    for row in data["kernels"][:3]:
        main = max(row["uses"], key=lambda u: u["per_run"] * u["calls"])
        use = uses[(row["name"], main["graph"])]
        # perf's time for a launch alone, with the launch cost of a program's stream instead (report/launch.py)
        shift = IN_STREAM_LAUNCH_US - LAUNCH_US
        predicted = {key: _perf(store, key)["predicted_us"] + shift for key in use.keys}
        fastest = min(predicted, key=lambda k: predicted[k])
        assert row["chosen"]["key"] == fastest
        assert row["chosen"]["predicted_us"] == pytest.approx(predicted[fastest])
        assert row["configs"] == len(use.keys) and row["config"] == list(use.keys).index(fastest)
        assert row["config"] == Store(store).get(fastest).manifest.config_index  # as list and show --config number it
        perf = _perf(store, fastest)
        facts = row["chosen"]
        device = perf["device"]
        dram_floor = perf["compulsory_bytes"] / (device["dram_gbs"] * 1e3)
        assert facts["dram_floor_us"] == pytest.approx(dram_floor)
        in_stream = perf["predicted_us"] + shift
        assert facts["distance"] == pytest.approx(in_stream / max(dram_floor, facts["compute_floor_us"]))
        sheet = GPUS[device["name"]].memory_bandwidth_gbs  # the data sheet's peak, as ncu's DRAM percentages
        assert facts["dram_pct"] == pytest.approx(perf["dram_bytes"] / (in_stream * sheet * 1e3))
        assert facts["bound"] == perf["bound"] and tuple(facts["grid"]) == tuple(perf["grid"])


def test_reasons_cite_launches_json_and_the_launch_cost(llama: tuple[Path, ProgramRecord]) -> None:
    store, _ = llama
    data = _report(store, "--what-if", "0", "--top", "5")
    text = invoke("report", "--what-if", "0", "--top", "5", store=store).output
    for row in data["kernels"][:5]:
        facts = row["chosen"]
        capture = Store(store).get(facts["key"])
        assert capture is not None
        first = json.loads((capture.path / "launches.json").read_text())[0]
        assert facts["tensor_bytes"] == sum(t[1] for t in first["tensors"])
        perf = _perf(store, facts["key"])
        assert any("2 us per launch" in a for a in perf["assumptions"])  # the cost of a launch alone
        # in the program's stream the fixed cost is the in-stream one (analysis/report/launch.py)
        assert facts["launch_us"] == IN_STREAM_LAUNCH_US
        assert facts["predicted_us"] == pytest.approx(perf["predicted_us"] - LAUNCH_US + IN_STREAM_LAUNCH_US)
        body = facts["predicted_us"] - facts["launch_us"]
        if body < LAUNCH_US:
            assert f"its body is {body:.2f} us, under the 2 us a launch alone costs" in row["reason"]
            assert row["verdict"]["rung"] == "leave"
        factor = max(perf["dram_bytes"], 0) / facts["tensor_bytes"]
        if factor < 1.2 and perf["requested_bytes"] / facts["tensor_bytes"] >= 1.2:
            assert f"moves {perf['requested_bytes'] / facts['tensor_bytes']:.1f}x its tensors' own bytes" \
                in row["reason"] and "through L2" in row["reason"]
        assert row["reason"] in text


def test_spills_are_ptxas_figures(llama: tuple[Path, ProgramRecord]) -> None:
    store, _ = llama
    data = _report(store, "--what-if", "0", "--top", "0")
    for row in data["kernels"][:4]:
        result = invoke("resources", row["chosen"]["key"], "--json", store=store)
        assert result.exit_code == 0, result.output
        res = json.loads(result.output)
        found = res[0] if isinstance(res, list) else res
        assert row["chosen"]["spill_stores"] == found["spill_stores"]
        assert row["chosen"]["registers"] == found["registers"]


def test_calls_outside_triton_are_named_and_not_modelled(llama: tuple[Path, ProgramRecord]) -> None:
    store, record = llama
    data = _report(store, "--what-if", "0")
    mms = [e for g in record.graphs for e in g.externs if e.op.startswith("aten.mm")]
    assert mms, "the Llama's projections go to cuBLAS"
    rows = [e for e in data["externs"] if e["op"].startswith("aten.mm")]
    assert sum(r["calls"] for r in rows) == sum(
        e.per_run * g.calls for g in record.graphs for e in g.externs if e.op.startswith("aten.mm"))
    for row in rows:
        (m, k), (_, n) = row["shapes"][:2]
        assert row["flops"] == 2 * m * n * k
    text = invoke("report", "--what-if", "0", store=store).output
    assert "aten.mm.out (cuBLAS, inference)" in text and "not modelled: at least" in text
    assert "(a bound, not a prediction)" in text


def test_bad_input_is_one_line_and_exit_2(llama: tuple[Path, ProgramRecord], tmp_path: Path) -> None:
    store, _ = llama
    for args, words in ((["--steps", "0"], "--steps 0"), (["prog-nope"], "unknown program 'prog-nope'")):
        result = invoke("report", *args, store=store)
        assert result.exit_code == 2 and words in result.output, result.output
        assert result.output.count("\n") == 1
    empty = invoke("report", store=tmp_path / "empty")
    assert empty.exit_code == 2 and "no program record" in empty.output and empty.output.count("\n") == 1


def test_a_warm_report_runs_no_model_and_imports_neither_torch_nor_triton(llama: tuple[Path, ProgramRecord]) -> None:
    store, record = llama
    cold = _report(store, "--what-if", "0")
    cache = store / "programs" / record.id / "report"
    assert any(cache.rglob(f"{cold['kernels'][0]['chosen']['key']}.json"))
    code = ("import sys, json\n"
            "import irscope.analysis.perf.capture as c\n"
            "def refuse(*a, **k): raise SystemExit('the model ran on a warm report')\n"
            "c.capture_perf = refuse\n"
            "from click.testing import CliRunner\n"
            "from irscope.cli import cli\n"
            f"r = CliRunner().invoke(cli, ['report', '--json', '--what-if', '0', '--store', {str(store)!r}])\n"
            "print(r.exit_code, json.loads(r.output)['triton_us'], 'torch' in sys.modules, 'triton' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={
        "PYTHONPATH": repo_path(), "PATH": "/usr/bin:/bin", "HOME": str(store)}, check=False)
    exit_code, total, torch, triton = proc.stdout.split()
    assert (exit_code, torch, triton) == ("0", "False", "False"), proc.stderr
    assert float(total) == pytest.approx(cold["triton_us"])
    # a damaged cache file is made again, not trusted
    path = next(cache.rglob(f"{cold['kernels'][0]['chosen']['key']}.json"))
    path.write_text("{}")
    again = _report(store, "--what-if", "0")
    assert again["kernels"][0]["chosen"]["predicted_us"] == pytest.approx(cold["kernels"][0]["chosen"]["predicted_us"])


def test_a_tune_verdict_cites_variants_whose_ptx_has_their_warps(llama: tuple[Path, ProgramRecord]) -> None:
    from irscope.analysis.perf.capture import capture_perf
    from irscope.analysis.report.launch import in_stream
    from irscope.request.launch_cache import recorded_launches
    from irscope.request.perf_launch import perf_device

    store, _ = llama
    data = _report(store, "--what-if", "1", "--top", "1")
    row = data["kernels"][0]
    verdict = row["verdict"]
    tried = verdict["what_ifs"]
    assert tried, verdict
    base = Store(store).get(row["chosen"]["key"])
    assert base is not None
    shape = recorded_launches(base.path, base.manifest.files)[0]
    device = perf_device(None, "sm90", lambda: None)[0]
    for what in tried:
        variant = Store(store).get(what["key"])
        assert variant is not None, what
        warps = int(what["label"].split("=")[1])
        assert what["label"].startswith("num_warps=") and variant.manifest.metadata["num_warps"] == warps
        assert f".reqntid {32 * warps}" in variant.read("ptx")  # the lower stage has the variant's threads
        assert what["predicted_us"] == pytest.approx(in_stream(capture_perf(variant, device, shape)).predicted_us)
    best = min(tried, key=lambda w: w["predicted_us"])
    if best["predicted_us"] < row["chosen"]["predicted_us"] * 0.9:
        assert verdict["rung"] == "tune" and best["label"] in verdict["evidence"]
        assert f"{best['predicted_us']:.2f} us" in verdict["evidence"]
    else:
        assert verdict["rung"] != "tune"


def test_the_tui_opens_the_report_as_a_view_of_its_own(llama: tuple[Path, ProgramRecord]) -> None:
    import asyncio

    from textual.widgets import DataTable

    from irscope.tui.report_app import make_report_app
    from irscope.tui.screens.report import ReportScreen

    store, _ = llama
    text = invoke("report", "--what-if", "0", store=store).output
    data = _report(store, "--what-if", "0")

    async def drive() -> tuple[int, str, str]:
        app = make_report_app(None, str(store), what_if=0)
        async with app.run_test(size=(160, 45)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReportScreen)
            first = screen.detail
            await pilot.press("down")
            await pilot.pause()
            return screen.query_one(DataTable).row_count, first, screen.detail

    rows, first, second = asyncio.run(drive())
    assert rows == len(data["kernels"])
    # the detail pane is the text report's own lines for the highlighted kernel
    assert first.splitlines()[0] == f"1. {data['kernels'][0]['name']} ({data['kernels'][0]['kind']})"
    assert all(line in text for line in first.splitlines())
    assert second.splitlines()[0].startswith(f"2. {data['kernels'][1]['name']}")


def test_the_html_page_holds_the_text_reports_lines(llama: tuple[Path, ProgramRecord], tmp_path: Path) -> None:
    store, _ = llama
    page = tmp_path / "report.html"
    result = invoke("report", "--what-if", "0", "--html", str(page), store=store)
    assert result.exit_code == 0, result.output
    html = page.read_text()
    start = html.index('id="irscope-data">') + len('id="irscope-data">')
    data = json.loads(html[start:html.index("</script>", start)])
    assert data["kind"] == "report"
    assert data["heading"][0] in result.output
    first_detail = data["details"][0].splitlines()
    assert all(line in result.output for line in first_detail)
    assert len(data["rows"]) == len(_report(store, "--what-if", "0")["kernels"])
    assert [e for e in data["externs"] if "not modelled" in e]


def _scaled_facts(store: Path, keys: tuple[str, ...], factor: int, launch_of: str = "") -> dict[str, Any]:
    """Each config's facts at the recorded launch (of ``launch_of``, else its own) made ``factor`` times larger (rows,
    grid and tensors alike)."""
    from dataclasses import replace

    from irscope.analysis.report.facts import capture_config_facts
    from irscope.model.launch import TensorBytes
    from irscope.request.launch_cache import recorded_launches
    from irscope.request.perf_launch import perf_device

    device = perf_device(None, "sm90", lambda: None)[0]
    out = {}
    for key in keys:
        capture = Store(store).get(key)
        assert capture is not None
        source = Store(store).get(launch_of) if launch_of else capture
        assert source is not None
        shape = recorded_launches(source.path, source.manifest.files)[0]
        big = replace(shape, grid=(shape.grid[0] * factor, shape.grid[1], shape.grid[2]),
                      values={k: v * factor if k == "xnumel" else v for k, v in shape.values.items()},
                      tensors=tuple(TensorBytes(t.name, t.nbytes * factor, t.role) for t in shape.tensors))
        out[key] = capture_config_facts(capture, device, big, "scaled", with_bank=False)
    return out


def _one_kernel_record(record: ProgramRecord, name: str) -> ProgramRecord:
    from dataclasses import replace

    graph, use = next((g, u) for g in record.graphs for u in g.kernels if u.name == name)
    return replace(record, graphs=(replace(graph, index=0, calls=1, kernels=(use,), externs=()),))


def test_verdicts_at_a_large_launch_follow_the_models_numbers(llama: tuple[Path, ProgramRecord],
                                                              train_program: tuple[Path, Any], tmp_path: Path) -> None:
    """Kernels at 4096x their launch (a real-size step): the training program's attention softmax (its own
    ``masked_fill(...).softmax``; the Llama's attention is a fused kernel, not Triton's) gets 'write it by hand' for
    the scores it reads and writes in DRAM, the Llama's SiLU pointwise kernel near its floor is left to
    torch.compile."""
    from irscope.analysis.report.build import build_report
    from irscope.request.perf_launch import perf_device
    from irscope.store.programs import read_program

    store = tmp_path / "store"
    shutil.copytree(train_program[0], store, ignore=shutil.ignore_patterns("locks", "staging"))
    record = read_program(store, "latest")
    device = perf_device(None, "sm90", lambda: None)[0]
    softmax = next(u.name for g in record.graphs if g.kind == "forward" for u in g.kernels if "softmax" in u.name)
    one = _one_kernel_record(record, softmax)
    use = one.graphs[0].kernels[0]
    facts = _scaled_facts(store, use.keys, 4096)
    (row,) = build_report(one, facts, device, top=1).kernels
    assert row.verdict is not None and row.verdict.rung == "hand", row.verdict
    capture = Store(store).get(row.chosen.key if row.chosen else "")
    assert capture is not None
    tensors = json.loads((capture.path / "launches.json").read_text())[0]["tensors"]
    name, nbytes, role = max(tensors, key=lambda t: t[1])
    assert role == "inout" and f"its largest tensor, {name} ({nbytes * 4096 / 1e6:.1f} MB), is read and written" \
        in row.verdict.evidence
    assert row.chosen is not None and f"{row.chosen.dram_floor_us:.2f} us at the DRAM bandwidth" in row.verdict.evidence
    # the floor is the model's compulsory traffic at the DRAM bandwidth: at least every tensor moved once
    assert row.chosen.dram_floor_us == pytest.approx(row.chosen.compulsory_bytes / (device.dram_gbs * 1e3))
    assert row.chosen.compulsory_bytes >= sum(t[1] * 4096 for t in tensors)
    store, record = llama
    silu = next(u.name for g in record.graphs for u in g.kernels
                if u.name.startswith("triton_poi_fused__unsafe_view_mul_silu"))
    pointwise = _one_kernel_record(record, silu)
    facts = _scaled_facts(store, pointwise.graphs[0].kernels[0].keys, 4096)
    (row,) = build_report(pointwise, facts, device, top=1).kernels
    assert row.chosen is not None and row.verdict is not None
    body = (row.chosen.predicted_us - row.chosen.launch_us) / row.chosen.floor_us
    if body <= 1.5:
        assert row.verdict.rung == "leave" and f"its body is {body:.1f}x its roofline floor" in row.verdict.evidence
    else:
        assert row.verdict.rung == "leave" and "no variant was predicted" in row.verdict.evidence


def test_the_report_pages_on_a_terminal(llama: tuple[Path, ProgramRecord], tmp_path: Path) -> None:
    """On a terminal shorter than the report, it goes through the pager (a stand-in ``less`` that records it)."""
    import os

    from tests.test_pager import _page

    store, record = llama
    invoke("report", "--what-if", "0", store=store)  # warm: the pty run reads the cache
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    saw = tmp_path / "less-saw"
    fake = bin_dir / "less"
    fake.write_text(f"#!{sys.executable}\nimport sys\nopen({str(saw)!r}, 'wb').write(sys.stdin.buffer.read())\n")
    fake.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("LESS", "PAGER", "MANPAGER")}
    env.update({"TERM": "xterm-256color", "LINES": "20", "COLUMNS": "200", "IRSCOPE_HOME": str(store),
                "PYTHONPATH": repo_path(), "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"})
    _page(["report", "--what-if", "0"], env, seconds=60)
    shown = saw.read_bytes()
    assert f"program {record.id}:".encode() in shown and b"top 10 by predicted total time:" in shown


def test_a_loop_that_did_not_pipeline_is_named_with_its_line(shared_store: Path) -> None:
    """The bundled matmul on sm80 with num_stages=1: its K-loop loads into registers (no cp.async in the PTX), and the
    reason names the loop's ``for`` line; with the default 3 stages no loop is listed."""
    from irscope.analysis.report.facts import capture_config_facts
    from irscope.analysis.report.reasons import kernel_reason
    from irscope.request.captures import LaunchSpec, get_capture, make_request
    from irscope.request.perf_launch import perf_device, perf_shape

    device, sms = perf_device(None, "sm80", lambda: None)
    found = {}
    for settings in ((), ("num_stages=1",)):
        request = make_request("matmul", "sm80", 0, launch=LaunchSpec(settings=settings))
        capture = get_capture(request, str(shared_store))
        found[settings] = (capture, capture_config_facts(capture, device, perf_shape(request, None, sms, capture.path),
                                                         "the bundled launcher's"))
    assert found[()][1].loops == ()
    capture, facts = found[("num_stages=1",)]
    assert "cp.async" in found[()][0].read("ptx") and "cp.async" not in capture.read("ptx")
    (loop,) = facts.loops
    source = capture.read("source").splitlines()
    assert source[loop.line - 1].strip().startswith("for ") and loop.requested == 1
    assert f"loop at line {loop.line} not pipelined" in kernel_reason(facts)


def test_far_from_its_floor_with_no_faster_variant_is_write_it_by_hand(llama: tuple[Path, ProgramRecord]) -> None:
    """The Llama's kernel farthest above its floor at 4096x its launch (the model's own distance; before libdevice's
    sine/cosine slow paths were left out, the rotary kernel was, at 12x; now it is 1.6x); its warps variants,
    compiled and modelled at the same launch, decide between 'tune it' and 'write it by hand'."""
    from irscope.analysis.report.build import build_report
    from irscope.analysis.report.results import WhatIf
    from irscope.request.perf_launch import perf_device
    from irscope.request.program_report import _variant_settings
    from irscope.request.what_if import compile_variant, variant_of

    store, record = llama
    device = perf_device(None, "sm90", lambda: None)[0]
    candidates = []
    for name in {u.name for g in record.graphs for u in g.kernels if u.name.startswith("triton_")}:
        one = _one_kernel_record(record, name)
        facts = _scaled_facts(store, one.graphs[0].kernels[0].keys, 4096)
        (first,) = build_report(one, facts, device, top=1).kernels
        if first.chosen is not None and first.chosen.floor_us > 0:
            candidates.append(((first.chosen.predicted_us - first.chosen.launch_us) / first.chosen.floor_us, name,
                               one, facts, first.chosen))
    body, name, one, facts, chosen = max(candidates, key=lambda c: c[0])
    assert body > 3, (name, body)
    base = Store(store).get(chosen.key)
    assert base is not None
    tried = []
    for settings in _variant_settings(chosen):
        made = compile_variant(variant_of(base, settings), str(store))
        variant = _scaled_facts(store, (made.key,), 4096, launch_of=chosen.key)[made.key]
        assert variant.settings["num_warps"] == settings["num_warps"]
        tried.append(WhatIf(f"num_warps={settings['num_warps']}", made.key, variant.predicted_us))
    (row,) = build_report(one, facts, device, top=1, what_ifs={chosen.key: tuple(tried)}).kernels
    assert row.verdict is not None
    best = min(tried, key=lambda w: w.predicted_us)
    if best.predicted_us < chosen.predicted_us * 0.9:
        assert row.verdict.rung == "tune" and best.label in row.verdict.evidence
    else:
        assert row.verdict.rung == "hand", row.verdict
        assert f"{body:.1f}x its roofline floor ({chosen.floor_us:.2f} us)" in row.verdict.evidence
        assert all(f"{w.label} {w.predicted_us:.2f} us" in row.verdict.evidence for w in tried)


def test_a_training_step_has_forward_and_backward_rows(train_program: tuple[Path, Any], tmp_path: Path) -> None:
    """The two-step training program: its forward and backward graphs' kernels are separate rows, counted per step
    (the forward graph's runs), and its matrix products are cuBLAS calls of both kinds, not modelled."""
    from irscope.store.programs import read_program

    shared, _ = train_program
    store = tmp_path / "store"
    shutil.copytree(shared, store, ignore=shutil.ignore_patterns("locks", "staging"))
    record = read_program(store, "latest")
    data = _report(store, "--what-if", "0", "--top", "3")
    kinds = {g.kind for g in record.graphs}
    assert {"forward", "backward"} <= kinds
    assert {r["kind"] for r in data["kernels"]} == kinds
    forward = next(g for g in record.graphs if g.kind == "forward")
    assert data["steps"] == record.graphs[0].calls == forward.calls
    for graph in record.graphs:
        for use in graph.kernels:
            row = next(r for r in data["kernels"] if r["name"] == use.name and r["kind"] == graph.kind)
            assert any(u["graph"] == graph.index and u["per_run"] == use.per_run for u in row["uses"])
    assert {e["kind"] for e in data["externs"]} >= {"forward", "backward"}
    assert all(e["library"] for e in data["externs"])
    _another_torchs_profile_names_the_twins(store)


def _another_torchs_profile_names_the_twins(store: Path) -> None:
    """The H100's torch.profiler trace of the same program was made with torch 2.11; this capture ran torch 2.13,
    whose Inductor fused three kernels otherwise (``..._tril_view_10`` against ``..._view_10``, say). The join says
    so per kernel, naming the capture's kernel of the same Inductor kind and index and the torch the capture ran,
    and joins nothing on that guess (tests/test_measured_report.py joins the trace to a torch-2.11 capture: all)."""
    import torch

    from irscope.analysis.measured import _inductor_slot
    from irscope.parse.profiles import looks_like_triton

    data = _report(store, "--what-if", "0", "--measured", str(DATA / "artifacts" / "train_step.trace.json.gz"))
    assert data["torch_version"] == torch.__version__
    measured = data["measured"]
    rows = {r["name"] for r in data["kernels"]}
    unjoined = [u for u in measured["only_measured"] if looks_like_triton(u["name"])]
    assert unjoined and measured["joined_share"] == pytest.approx(1 - len(unjoined) / measured["triton_measured"])
    predicted = {u["name"]: u for u in measured["only_predicted"]}
    for item in unjoined:
        twin = next(name for name in predicted if name in item["why"])
        assert _inductor_slot(twin) == _inductor_slot(item["name"]) is not None and twin in rows
        assert f"torch {torch.__version__}" in item["why"]
        assert item["name"] in predicted[twin]["why"]
    assert {r["name"] for r in measured["rows"]} & {u["name"] for u in unjoined} == set()


def test_spills_in_the_reason_are_ptxas_figures_and_the_sass_spills(shared_store: Path) -> None:
    """The bundled matmul on sm80 with 2 warps spills: the reason's bytes are ptxas's, and the SASS stores to local
    memory (STL)."""
    from irscope.analysis.report.facts import capture_config_facts
    from irscope.analysis.report.reasons import kernel_reason
    from irscope.analysis.resources import capture_resources
    from irscope.request.captures import LaunchSpec, get_capture, make_request
    from irscope.request.perf_launch import perf_device, perf_shape

    device, sms = perf_device(None, "sm80", lambda: None)
    request = make_request("matmul", "sm80", 0, launch=LaunchSpec(settings=("num_warps=2",)))
    capture = get_capture(request, str(shared_store))
    facts = capture_config_facts(capture, device, perf_shape(request, None, sms, capture.path), "the launcher's")
    found = capture_resources(capture)
    assert facts.spill_stores == found.spill_stores > 0 and facts.spill_loads == found.spill_loads > 0
    assert f"spills {found.spill_stores} B stored, {found.spill_loads} B loaded per thread" in kernel_reason(facts)
    from irscope.toolchain.stages import read_stage

    assert "STL" in read_stage(capture, "sass")


def test_a_kernel_whose_captures_are_gone_is_not_modelled_and_said_so(llama: tuple[Path, ProgramRecord],
                                                                       tmp_path: Path) -> None:
    store, record = llama
    _report(store, "--what-if", "0")  # the cache warm, so the copy models nothing again
    copy = tmp_path / "store"
    shutil.copytree(store, copy, ignore=shutil.ignore_patterns("locks", "staging"))
    gone = record.graphs[0].kernels[0]
    for key in gone.keys:
        shutil.rmtree(copy / "captures" / key)
        for cached in (copy / "programs" / record.id / "report").rglob(f"{key}*.json"):
            cached.unlink()
    data = _report(copy, "--what-if", "0")
    row = next(r for r in data["kernels"] if r["name"] == gone.name)
    assert not row["modelled"] and row["total_us"] == 0 and "is not in the store" in row["uses"][0]["missing"]
    text = invoke("report", "--what-if", "0", store=copy).output
    assert f"the {sum(not r['modelled'] for r in data['kernels'])} not modelled are not in it" in text
    assert f"not modelled: {row['uses'][0]['missing']}" in text
