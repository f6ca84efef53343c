"""The performance model on the foreign validation set: kernels nobody here wrote, measured with ncu on an H200.

tests/data/perf_foreign holds, per measured launch, the exact launch (grid, integer arguments, tensor bytes), ncu's
values and the capture the H200's JIT compiled for it (benchmarks/perf_foreign.py made both; README.md there says
how). This test opens the captures into a temporary store, runs the model with the H200's data-sheet figures on
each recorded launch, and fails when a share of kernels within the tolerances (time 25%, DRAM bytes 15%, the
bound) falls below the baseline committed with the data: a change that makes the model worse on them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from irscope.store.archive import open_archive
from irscope.store.store import Store

DATA = Path(__file__).resolve().parent / "data" / "perf_foreign"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import perf_foreign  # noqa: E402


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], dict[str, float], dict[str, Any]]:
    data = json.loads((DATA / "measurements.json").read_text())
    store = Store(tmp_path_factory.mktemp("foreign") / "store")
    report = open_archive(DATA / "captures.tar.gz", store)
    assert len(report.added) == len({e["capture"] for e in data["entries"] if e["capture"]})
    rows, shares = perf_foreign.score(data["entries"], store, perf_foreign.h200())
    return rows, shares, data


def test_the_set_is_what_the_issue_asks(scored: tuple[list[dict[str, Any]], dict[str, float], dict[str, Any]]) -> None:
    rows, _, data = scored
    sources = {e["source"] for e in data["entries"] if e["capture"] and e["ncu"]}
    assert len(rows) >= 24, f"{len(rows)} scored kernels"
    assert sources >= {"liger", "tutorial", "fla", "flag_gems", "inductor"}
    # ncu measured each of them: a time, DRAM bytes and a bound from its speed of light
    for e in data["entries"]:
        assert e["ncu"]["gpu__time_duration.sum"] > 0 and e["ncu_bound"] in ("memory", "compute", "latency")


def test_the_score_is_no_worse_than_the_baseline(
        scored: tuple[list[dict[str, Any]], dict[str, float], dict[str, Any]]) -> None:
    rows, shares, data = scored
    print("\n" + perf_foreign.table(rows))
    print(f"score: {shares}; baseline: {data['baseline']}")
    assert shares["kernels"] == data["baseline"]["kernels"]
    for what in ("time", "dram", "bound"):
        assert shares[what] >= data["baseline"][what] - 1e-9, \
            f"{what}: {shares[what]:.3f} of the foreign kernels within tolerance, baseline {data['baseline'][what]:.3f}"


def test_merging_keeps_the_committed_entries_and_captures(tmp_path: Path) -> None:
    # --build-data --merge-into: the existing folder's entries and captures stay, the result folders' follow (the
    # score itself is test_the_score_is_no_worse_than_the_baseline's: not computed a second time here)
    assert perf_foreign.build_data([], tmp_path / "out", merge_into=DATA, rescore=False) == 0
    before = json.loads((DATA / "measurements.json").read_text())
    after = json.loads((tmp_path / "out" / "measurements.json").read_text())
    assert after["entries"] == before["entries"]
    assert after["baseline"] == pytest.approx(before["baseline"])
    store = Store(tmp_path / "store")
    added = open_archive(tmp_path / "out" / "captures.tar.gz", store).added
    assert sorted(c.manifest.key for c in added) == sorted({e["capture"] for e in before["entries"] if e["capture"]})
    for capture in added:  # stripped as before: no library source text, no LLVM IR
        files = json.loads((capture.path / "manifest.json").read_text())["files"]
        assert "source" not in files and "llir" not in files
