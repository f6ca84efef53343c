"""Background compiles of a capture's neighbours: which variants, and when they must not run."""

from __future__ import annotations

from pathlib import Path

import pytest

from irscope.request import neighbours as nb
from irscope.request.captures import get_capture, make_request
from irscope.request.factsfile import launch_spec
from irscope.request.settings import settable
from irscope.store.store import Store


def test_the_neighbours_of_the_matmul_config():
    request = make_request("matmul", "sm90", 0)
    found = nb.neighbours(settable(request), "cuda")
    assert found == [{"num_stages": 4}, {"num_stages": 2}, {"num_warps": 16}, {"num_warps": 4},
                     {"BLOCK_SIZE_M": 256}, {"BLOCK_SIZE_M": 64}, {"BLOCK_SIZE_N": 512}, {"BLOCK_SIZE_N": 128},
                     {"BLOCK_SIZE_K": 128}, {"BLOCK_SIZE_K": 32}]  # GROUP_SIZE_M is not a block size


def test_neighbours_stay_within_what_triton_accepts():
    found = nb.neighbours({"num_warps": 32, "num_stages": 1, "BLOCK": 16, "XBLOCK": 1 << 20}, "cuda")
    assert {"num_warps": 64} not in found and {"num_stages": 0} not in found
    assert {"BLOCK": 8} not in found and {"XBLOCK": 1 << 21} not in found
    assert {"num_warps": 16} in found and {"BLOCK": 32} in found


def test_when_background_compiles_must_not_run(tmp_path, monkeypatch):
    monkeypatch.setenv(nb.ENV_SWITCH, "0")
    assert not nb.enabled() and nb.why_not() == f"{nb.ENV_SWITCH}=0"
    monkeypatch.delenv(nb.ENV_SWITCH)
    power = tmp_path / "power"
    for name, kind, online in (("BAT0", "Battery", None), ("AC", "Mains", "0")):
        (power / name).mkdir(parents=True)
        (power / name / "type").write_text(kind + "\n")
        if online is not None:
            (power / name / "online").write_text(online + "\n")
    assert nb.on_battery(power)
    (power / "AC" / "online").write_text("1\n")
    assert not nb.on_battery(power)
    assert not nb.on_battery(tmp_path / "nothing-here")  # a desktop without power-supply information
    assert nb.busy(lambda: (3.9, 0.0, 0.0), cores=2) and not nb.busy(lambda: (1.2, 0.0, 0.0), cores=2)


@pytest.mark.compile
def test_precompiled_neighbours_are_store_hits(tmp_path):
    store = tmp_path / "store"
    job = {"kernel": "vector_add", "target": "sm80", "config": 1}
    said: list[str] = []
    made = nb.precompile(job, store, said.append, why=lambda: "")
    # num_stages from the base capture's options (3), its num_warps (8) and BLOCK_SIZE (2048), each up and down
    assert said == ["compiled num_stages=4", "compiled num_stages=2", "compiled num_warps=16", "compiled num_warps=4",
                    "compiled BLOCK_SIZE=4096", "compiled BLOCK_SIZE=1024"] and made == 6
    before = len(Store(store).captures())
    for items in (("num_stages=2",), ("num_warps=16",), ("num_warps=4",), ("BLOCK_SIZE=1024",)):
        request = make_request("vector_add", "sm80", 1, launch=launch_spec({"settings": list(items)}),
                               store_dir=str(store))
        assert Store(store).get(request.key()) is not None
        get_capture(request, str(store))
    assert len(Store(store).captures()) == before  # opening a neighbour compiled nothing


@pytest.mark.compile
def test_precompile_stops_when_told(tmp_path):
    said: list[str] = []
    made = nb.precompile({"kernel": "vector_add", "target": "sm80"}, tmp_path, said.append, why=lambda: "on battery")
    assert made == 0 and said == ["stopped: on battery"]
    assert Path(tmp_path).exists()
