"""A program captured offline keeps the grids it launched its kernels with, and commands given a capture's key
take that capture's own target."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from irscope.store.store import Store
from tests.conftest import DATA
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile
PROGRAM = DATA / "programs" / "two_kernels.py"


@pytest.fixture(scope="module")
def sm100_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("sm100-program")
    proc = irscope("capture", "--target", "sm100", "--", sys.executable, str(PROGRAM), store=store)
    assert proc.returncode == 0, proc.stderr
    return store


def _key(store: Path, kernel: str, config: int) -> str:
    return next(c.manifest.key for c in Store(store).captures()
                if c.manifest.kernel == kernel and c.manifest.config_index == config)


def test_perf_of_an_offline_program_capture_uses_the_grid_the_program_launched(sm100_store: Path) -> None:
    add = irscope("perf", _key(sm100_store, "add_kernel", 0), "--json", store=sm100_store)
    assert add.returncode == 0, add.stderr
    report = json.loads(add.stdout)
    assert report["grid"] == [4, 1, 1]  # triton.cdiv(4096, 1024), the program's literal grid
    assert report["grid_origin"] == "the program's grid 4x1x1, its one launch"
    # scale_kernel's grid is a lambda of the autotune config: each config's capture keeps its own evaluation.
    for config, programs in ((0, 16), (1, 4)):
        scale = irscope("perf", _key(sm100_store, "scale_kernel", config), "--json", store=sm100_store)
        assert scale.returncode == 0, scale.stderr
        assert json.loads(scale.stdout)["grid"] == [programs, 1, 1]
    given = irscope("perf", _key(sm100_store, "add_kernel", 0), "--grid", "7", "--json", store=sm100_store)
    other = json.loads(given.stdout)
    assert other["grid"] == [7, 1, 1]  # --grid still overrides the recorded launch's grid, and says so ...
    assert other["grid_origin"] == ("--grid 7x1x1, not the program's grid 4x1x1: only the grid replaced, the "
                                    "arguments and tensor sizes are its launch's")
    assert other["compulsory_bytes"] == report["compulsory_bytes"] > 0  # ... keeping the recorded tensors


def test_perf_grid_equal_to_the_recorded_one_keeps_the_recorded_arguments(sm100_store: Path) -> None:
    # issue #40: --grid G, G the recorded grid, predicted another time than no --grid: the arguments were dropped
    key = _key(sm100_store, "add_kernel", 0)
    plain = json.loads(irscope("perf", key, "--json", store=sm100_store).stdout)
    same = json.loads(irscope("perf", key, "--grid", "4", "--json", store=sm100_store).stdout)
    assert same["grid_origin"] == "--grid 4x1x1, as the program launched it (its recorded arguments)"
    assert not any("tensor sizes unknown" in a for a in same["assumptions"] + [same["dram_assumption"]])
    for field in ("predicted_us", "dram_bytes", "compulsory_bytes", "loops", "bound"):
        assert same[field] == plain[field], field


def test_facts_of_a_key_take_the_captures_target_and_check_replays_it(sm100_store: Path, tmp_path: Path) -> None:
    key = _key(sm100_store, "add_kernel", 0)
    out = tmp_path / "facts.json"
    facts = irscope("facts", key, "-o", str(out), store=sm100_store)
    assert facts.returncode == 0, facts.stderr
    (entry,) = json.loads(out.read_text())["entries"]
    assert entry["target"] == "sm100"
    check = irscope("check", str(out), store=sm100_store)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_kernel_launched_with_several_grids_uses_the_first_and_says_which(tmp_path: Path) -> None:
    from irscope.request.kinds import _recorded_launch
    from irscope.request.launch_cache import recorded_launches

    entry = {"values": {"n": 4096}, "tensors": [["x_ptr", 16384, "inout"]]}
    (tmp_path / "launches.json").write_text(json.dumps([{**entry, "grid": [4, 1, 1]}, {**entry, "grid": [8, 2, 1]},
                                                        {"grid": "not a grid"}]))
    launches = recorded_launches(tmp_path, {"launches": "launches.json"})
    assert [s.grid for s in launches] == [(4, 1, 1), (8, 2, 1)]  # the malformed entry is left out
    assert _recorded_launch(launches).origin == ("the program's grid 4x1x1, its first of 2 launches "
                                                 "(grids 4x1x1, 8x2x1; --grid for another)")
    assert _recorded_launch([launches[0], launches[0]]).origin == "the program's grid 4x1x1, the same in all 2 launches"
