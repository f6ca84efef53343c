"""``irscope report`` of a program that launches its own @triton.jit kernels beside a torch.compile'd function
(tests/data/programs/inductor_and_jit.py, captured offline for sm90): every recorded launch is a row, modelled like
Inductor's; the capture's summary counts what it captured; a failed capture leaves ``latest`` alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from irscope.analysis.report.launch import IN_STREAM_LAUNCH_US, LAUNCH_US
from irscope.request.launch_cache import recorded_launches
from irscope.store.programs import list_programs, read_program
from irscope.store.store import Store
from tests.conftest import DATA, invoke, repo_path

pytestmark = pytest.mark.compile
PROGRAM = DATA / "programs" / "inductor_and_jit.py"
JIT = {"add_kernel", "scale_kernel", "square_kernel"}


def _capture(store: Path, script: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": repo_path(), "IRSCOPE_HOME": str(store)}
    return subprocess.run([sys.executable, "-m", "irscope", "capture", "--target", "sm90", "--", sys.executable,
                           str(script)], capture_output=True, text=True, env=env, timeout=600)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    store = tmp_path_factory.mktemp("report-jit") / "store"
    proc = _capture(store, PROGRAM)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return store, proc


def _json(store: Path, *args: str) -> dict[str, Any]:
    result = invoke(*args, "--json", store=store)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_every_recorded_launch_is_a_row_modelled_like_inductors(mixed: tuple[Path, Any]) -> None:
    store, _ = mixed
    record = read_program(store, "latest")
    captures = {c.manifest.key: c for c in Store(store).captures()}
    inductor = {u.name for g in record.graphs for u in g.kernels}
    assert len(inductor) == 1 and {c.manifest.kernel for c in captures.values()} == inductor | JIT
    data = _json(store, "report", "--what-if", "0")
    rows = {r["name"]: r for r in data["kernels"]}
    assert set(rows) == inductor | JIT and all(r["chosen"] is not None for r in rows.values())
    assert {rows[n]["kind"] for n in JIT} == {"jit"} and rows[inductor.pop()]["kind"] == "inference"
    by_name: dict[str, list[str]] = {}
    for key, capture in captures.items():
        by_name.setdefault(capture.manifest.kernel, []).append(key)
    shift = IN_STREAM_LAUNCH_US - LAUNCH_US
    for name in JIT:
        keys = by_name[name]
        launches = max(len(recorded_launches(captures[k].path, captures[k].manifest.files)) for k in keys)
        assert rows[name]["launches"] == launches  # square_kernel: its three launches
        predicted = {k: _json(store, "perf", k)["predicted_us"] + shift for k in keys}
        fastest = min(predicted, key=lambda k: predicted[k])
        assert rows[name]["chosen"]["key"] == fastest and rows[name]["configs"] == len(keys)
        assert rows[name]["total_us"] == pytest.approx(launches * predicted[fastest])
        assert rows[name]["verdict"]["words"] in ("leave it as it is", "tune it", "rework it by hand")
    assert rows["square_kernel"]["launches"] == 3 and rows["scale_kernel"]["configs"] == 2
    assert data["triton_us"] == pytest.approx(sum(r["total_us"] for r in rows.values()))
    text = invoke("report", "--what-if", "0", store=store).output
    assert "4 Triton kernels (4 modelled)" in text


def test_the_summary_counts_what_was_captured(mixed: tuple[Path, Any]) -> None:
    store, proc = mixed
    record = read_program(store, "latest")
    assert proc.stderr.count("  captured ") + proc.stdout.count("  captured ") == len(record.keys) == 6
    assert (f"irscope: program {record.id}: 6 captures of 4 kernels; 1 kernel launched by 1 torch.compile "
            f"graph, 3 launched outside them; irscope report {record.id} models them") in proc.stderr


def test_a_failed_capture_writes_no_record_and_leaves_latest(mixed: tuple[Path, Any], tmp_path: Path) -> None:
    store, _ = mixed
    before = list_programs(store)
    keys = {c.manifest.key for c in Store(store).captures()}
    proc = _capture(store, tmp_path / "no_such_script.py")
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("irscope: the program failed (exit status 2); no kernel was compiled")
    assert last.endswith(f"no program record was written (`irscope report` still reads the one before, "
                         f"{before[-1]})")
    assert list_programs(store) == before and {c.manifest.key for c in Store(store).captures()} == keys
    assert not any(p.name.startswith(".") for p in (store / "programs").iterdir())  # no half-written record
    assert not any((store / "staging").iterdir()) if (store / "staging").is_dir() else True
    assert _json(store, "report", "--what-if", "0")["program"] == before[-1]
