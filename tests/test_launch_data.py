"""A launch's data: the contents of the small integer tensors a kernel loads its loop bounds from are recorded with
the launch, and the performance model evaluates the loads from them; without them it names the tensor that would
decide the bound. A library's own varlen kernel (fla's ``chunk_fwd_kernel_h``, bounds from ``cu_seqlens``) and a
paged-KV decode kernel (bounds from ``seq_lens``) captured from programs; the same kernel by FILE:FUNCTION with
``--data``."""

from __future__ import annotations

import json
import math
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from irscope.model.launch import DATA_ELEMENTS, LaunchShape, TensorData, data_from_json
from irscope.store.store import Store
from tests.conftest import DATA, invoke
from tests.test_program_capture import irscope

FLA = DATA / "programs" / "fla_varlen_state.py"
PAGED = DATA / "programs" / "paged_decode_batch.py"
PAGED_KERNEL = DATA / "kernels" / "paged_decode.py"
PAGED_ARGS = ("q_ptr=fp16[8,8,128],k_cache=fp16[2048,8,16,128],v_cache=fp16[2048,8,16,128],out_ptr=fp16[8,8,128],"
              "block_tables=i32[8,256],seq_lens=i32[8],scale=0.1,stride_bt=256,max_blocks=256,HEAD_DIM=128,PAGE=16")


def _program(path: Path) -> dict[str, object]:
    """The module-level constants of a test program, read without running it."""
    namespace: dict[str, object] = {}
    for line in path.read_text().splitlines():
        if line.startswith(("LENS", "PAGE")):
            exec(line, namespace)
    return namespace


def _only_capture(store: Path, kernel: str) -> tuple[str, Path]:
    (capture,) = [c for c in Store(store).captures() if c.manifest.kernel == kernel]
    return capture.manifest.key, capture.path


def _loop(report: dict[str, object]) -> dict[str, object]:
    (loop,) = report["loops"]  # type: ignore[misc]
    return loop  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def fla_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("fla")
    store = tmp_path_factory.mktemp("fla-varlen")
    proc = irscope("capture", "--target", "sm90", "--autotune", "first", "--", sys.executable, str(FLA), store=store)
    assert proc.returncode == 0, proc.stderr
    return store


@pytest.mark.compile
def test_a_library_varlen_kernel_takes_its_loop_trips_from_the_recorded_cu_seqlens(fla_store: Path) -> None:
    lens = _program(FLA)["LENS"]
    assert isinstance(lens, list)
    key, path = _only_capture(fla_store, "chunk_fwd_kernel_h")
    (launch,) = json.loads((path / "launches.json").read_text())
    recorded = {name: values for name, _dtype, _shape, values in launch["data"]}
    assert recorded["cu_seqlens"] == [0, *[sum(lens[:i + 1]) for i in range(len(lens))]]
    report = json.loads(invoke("perf", key, "--json", store=fla_store).stdout)
    loop = _loop(report)
    # one program per (K tile, V tile, sequence, head): each runs its sequence's cdiv(len, BT=64) chunks
    assert loop["trips"] == pytest.approx(sum(math.ceil(n / 64) for n in lens) / len(lens))
    assert "the contents of cu_seqlens" in str(loop["trips_note"])
    assert not any("line" in u and "counted once" in u for u in report["uncertain"])


@pytest.mark.compile
def test_without_the_contents_the_loop_is_unknown_and_names_the_tensor_that_decides_it(fla_store: Path) -> None:
    from irscope.analysis.perf.capture import capture_perf
    from irscope.analysis.perf.device import device_model
    from irscope.model.gpus import GPUS
    from irscope.request.launch_cache import recorded_launches

    key, path = _only_capture(fla_store, "chunk_fwd_kernel_h")
    capture = Store(fla_store).get(key)
    (shape,) = recorded_launches(path, capture.manifest.files)
    blind = capture_perf(capture, device_model(GPUS["h200"]), replace(shape, data=()), with_bank=False)
    (loop,) = blind.loops
    assert loop.trips is None
    assert "cu_seqlens" in loop.trips_note and "--data" in loop.trips_note


@pytest.mark.compile
def test_a_paged_decode_program_records_seq_lens_and_block_tables(tmp_path: Path) -> None:
    constants = _program(PAGED)
    lens, page = constants["LENS"], constants["PAGE"]
    assert isinstance(lens, list) and isinstance(page, int)
    store = tmp_path / "store"
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(PAGED), store=store)
    assert proc.returncode == 0, proc.stderr
    key, path = _only_capture(store, "paged_decode")
    (launch,) = json.loads((path / "launches.json").read_text())
    recorded = {name: (shape, values) for name, _dtype, shape, values in launch["data"]}
    assert recorded["seq_lens"] == ([len(lens)], lens)
    assert recorded["block_tables"][0] == [len(lens), 256]
    assert sorted(recorded["block_tables"][1]) == list(range(len(lens) * 256))  # the shuffled page numbers
    loop = _loop(json.loads(invoke("perf", key, "--json", store=store).stdout))
    assert loop["trips"] == pytest.approx(sum(math.ceil(n / page) for n in lens) / len(lens))
    assert "differs per program (1..250)" in str(loop["trips_note"])


@pytest.mark.compile
def test_function_kernels_take_contents_from_data_and_refuse_bad_data(tmp_path: Path) -> None:
    store = tmp_path / "store"
    kernel = f"{PAGED_KERNEL}:paged_decode"
    base = ("perf", kernel, "--args", PAGED_ARGS, "--grid", "8,8", "--json")
    blind = json.loads(invoke(*base, store=store).stdout)
    assert _loop(blind)["trips"] is None and "seq_lens" in str(_loop(blind)["trips_note"])
    lens = [10, 20, 30, 40, 50, 60, 70, 4000]
    listed = tmp_path / "lens.json"
    listed.write_text(json.dumps(lens))
    for given in (",".join(map(str, lens)), f"@{listed}"):
        report = json.loads(invoke(*base, "--data", f"seq_lens={given}", store=store).stdout)
        assert _loop(report)["trips"] == pytest.approx(sum(math.ceil(n / 16) for n in lens) / len(lens))
    # a length list shorter than the grid: the programs past it read what was not given, so the bound is unknown
    short = json.loads(invoke(*base, "--data", "seq_lens=10,20", store=store).stdout)
    assert _loop(short)["trips"] is None
    too_many = tmp_path / "big.json"
    too_many.write_text(json.dumps(list(range(DATA_ELEMENTS + 1))))
    for bad, says in (("seq_lens=1,x", "not integers"), ("lens=1,2", "not an integer-pointer parameter"),
                      ("seq_lens", "no NAME="), (f"seq_lens=@{tmp_path / 'none.json'}", "cannot read"),
                      ("seq_lens=[1, [2, true]]", "not a list of at most"),
                      (f"seq_lens=@{too_many}", "not a list of at most")):
        result = invoke(*base, "--data", bad, store=store)
        assert result.exit_code == 2, (bad, result.output)
        assert says in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_recorded_contents_are_checked_where_they_are_read() -> None:
    good = [["seq_lens", "int32", [3], [1, 2, 3]]]
    assert data_from_json(good) == ((TensorData("seq_lens", "int32", (3,), (1, 2, 3)),), "")
    for bad in ("x", [["a", "int32", [1]]], [["a", "int32", [1], ["1"]]], [["a", "int32", [-1], [1]]],
                [["a", "int32", [1], [True]]], [["a", "i", [1], list(range(DATA_ELEMENTS + 1))]]):
        contents, problem = data_from_json(bad)
        assert contents == () and problem.startswith("data")


def test_a_stored_launch_with_malformed_contents_is_not_used(tmp_path: Path) -> None:
    from irscope.request.launch_cache import _decode, _encode

    shape = LaunchShape((2, 1, 1), {"n": 4}, (), "x", (TensorData("lens", "int32", (2,), (5, 6)),), ("big: too large",))
    assert _decode(_encode(shape)) == shape
    assert _decode({**_encode(shape), "data": [["lens", "int32", [2], "56"]]}) is None
    assert _decode({**_encode(shape), "not_recorded": [1]}) is None
