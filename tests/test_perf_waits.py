"""What a launch waits for, on kernels written as serving libraries write them (tests/data/kernels), compiled for
sm90 and given the contents of their index tensors (``--data``), as a captured program records them (issue 40):

- a varlen kernel finds its sequence by a binary search over ``query_start_loc`` (an ``scf.while``): the model
  follows the search with the recorded offsets, so its KV loop's trips come from ``seq_lens`` at the found index,
  per program; and the launch ends no sooner than its longest program, which runs its pages alone at the end;
- a paged attention loop with tensor cores waits for all its copies at the top of each iteration
  (``ttg.async_wait {num = 0}``): the stages its prologue issued ahead cover no round trip;
- a histogram of expert ids in one loop of scalar loads: its round trips after the first touch of each line hit the
  L2, and its scalar loads move one element per CTA, not one per thread;
- the held-out half's vLLM capture (Triton 3.6) names the binary search's bound ``%right`` after the variable that
  holds ``num_seqs``: the launch's ``num_seqs`` still gives it its value.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from irscope.analysis.perf.dependent import drained_loops
from irscope.analysis.perf.figures import DRAM_LATENCY_NS
from irscope.analysis.perf.replicas import replicated_loads
from irscope.analysis.perf.work import evaluate_trips
from irscope.analysis.values import parse_scalar_program
from irscope.store.archive import open_archive
from irscope.store.store import Store
from tests.conftest import DATA, invoke

KERNELS = DATA / "kernels"
SEQ_LENS = [100, 2000, 300, 40]
PAGED = ("q_ptr=bf16[64,16,128],k_cache=bf16[32768,128],v_cache=bf16[32768,128],out_ptr=fp32[64,16,128],"
         "block_tables=i32[64,32],seq_lens=i32[64],scale=0.1,stride_bt=32,HEAD_DIM=128,PAGE=16,BLOCK_Q=16")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("perf-waits")


def _perf(store: Path, *args: str) -> dict[str, Any]:
    result = invoke("perf", *args, "--json", store=store)
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def _ttgir(store: Path, kernel: str) -> str:
    (capture,) = [c for c in Store(store).captures() if c.manifest.kernel == kernel]
    return capture.read("ttgir")


def _varlen(store: Path) -> dict[str, Any]:
    return _perf(store, f"{KERNELS / 'varlen_search.py'}:varlen_pages", "--args",
                 "kv_ptr=fp16[65536,128],out_ptr=fp32[16,128],query_start_loc=i32[5],seq_lens=i32[4],num_seqs=4,"
                 "HEAD_DIM=128,BLOCK_Q=4,PAGE=16", "--grid", "8", "--data", "query_start_loc=0,1,2,3,4",
                 "--data", "seq_lens=" + ",".join(map(str, SEQ_LENS)))


@pytest.mark.compile
def test_a_binary_search_over_the_query_starts_finds_each_programs_sequence(store: Path) -> None:
    """Programs 0-2 find sequences 0-2 (one query each), programs 3-7 sequence 3: the pages loop runs
    ceil(seq_len / 16) times at the sequence each program found (before, the ``scf.while``'s result had no value and
    the loop's trips were unknown)."""
    report = _varlen(store)
    (_search, pages) = report["loops"]
    found = [0, 1, 2, 3, 3, 3, 3, 3]
    trips = [math.ceil(SEQ_LENS[s] / 16) for s in found]
    assert pages["trips"] == pytest.approx(sum(trips) / len(trips))
    assert f"differs per program ({min(trips)}..{max(trips)})" in pages["trips_note"]
    assert "query_start_loc, seq_lens" in pages["trips_note"]


@pytest.mark.compile
def test_the_launch_ends_no_sooner_than_its_longest_program(store: Path) -> None:
    """Sequence 1's 125 pages against a mean of 21: the longest program's round trips make the time, and the verdict
    says so (before, the mean program's 21 iterations did: 20 us for what takes at least 112)."""
    report = _varlen(store)
    longest = math.ceil(max(SEQ_LENS) / 16)
    assert f"the longest program runs the loop at line 38 {longest} times (the mean program 21)" in \
        report["bound_reason"]
    assert report["predicted_us"] >= longest * DRAM_LATENCY_NS * 1e-3
    assert report["bound"] == "latency"


@pytest.mark.compile
def test_a_loop_that_waits_for_all_its_copies_waits_a_round_trip_per_iteration(store: Path) -> None:
    """num_stages 3, but the KV loop's ``ttg.async_wait {num = 0}`` waits for the copies the last iteration issued
    for this one: 32 pages are 32 round trips in turn, plus the seq_len and first page index before the loop (before:
    the 2 stages ahead were taken to cover two of every three, 12.7 round trips)."""
    lens = ",".join(["512"] * 64)
    report = _perf(store, f"{KERNELS / 'paged_dot.py'}:paged_dot", "--args", PAGED, "--grid", "64",
                   "--num-stages", "3", "--data", f"seq_lens={lens}")
    ttgir = _ttgir(store, "paged_dot")
    (loop,) = report["loops"]
    assert loop["trips"] == 32
    span = next((lo, hi) for lo, hi in _loop_spans(ttgir))
    assert drained_loops(ttgir, [span]) == {span}
    assert "34.0 DRAM round trips of 900 ns" in report["bound_reason"]
    assert report["predicted_us"] >= 34 * DRAM_LATENCY_NS * 1e-3


def _loop_spans(ttgir: str) -> list[tuple[int, int]]:
    lines = ttgir.splitlines()
    spans = []
    for i, line in enumerate(lines):
        if "scf.for" in line:
            indent = len(line) - len(line.lstrip())
            end = next(j for j in range(i + 1, len(lines))
                       if lines[j].lstrip().startswith("}") and len(lines[j]) - len(lines[j].lstrip()) == indent)
            spans.append((i + 1, end + 1))
    return spans


@pytest.mark.compile
def test_round_trips_to_a_small_table_hit_the_l2(store: Path) -> None:
    """64 programs of 384 ids: each iteration loads an id, then the counter at it (768 round trips in turn), but a
    CTA touches only 14 new lines (1.5 KiB of ids, its 256-byte counter row): the other round trips are L2 hits, at
    about a sixth of the DRAM's (before: 768 x 900 ns, 693 us; ncu measured vLLM's same stage 1 at 47 us on an H100).
    The scalar loads are one element per CTA: the DRAM bytes are the ids and the counters, once."""
    report = _perf(store, f"{KERNELS / 'count_ids.py'}:count_ids", "--args",
                   "ids_ptr=i32[24576],counts_ptr=i32[65,64],num_experts=64,numel=24576,tokens_per_program=384",
                   "--grid", "64")
    reason = report["bound_reason"]
    assert "each waits 768 round trips of" in reason
    per_trip = float(reason.split("768 round trips of ")[1].split(" ns")[0])
    assert per_trip < DRAM_LATENCY_NS / 5
    assert report["predicted_us"] < 768 * DRAM_LATENCY_NS * 1e-3 / 5
    assert report["dram_bytes"] == pytest.approx(24576 * 4 + 65 * 64 * 4, rel=0.01)
    # every one of the CTA's 128 threads issues the scalar loads for one address: 127 copies of 4 bytes each
    copies = replicated_loads(_ttgir(store, "count_ids"))
    assert sorted(copies.values()) == [4.0 * 127, 4.0 * 127]


def test_a_parameter_named_after_the_variable_holding_it_keeps_its_value(tmp_path: Path) -> None:
    """Triton 3.6 named vLLM's ``num_seqs`` argument ``%right`` (``right = num_seqs`` in its binary search): the
    location chain says which parameter it is, so the launch's ``num_seqs`` bounds the search and the KV loop's
    trips come from the recorded ``seq_lens`` (before: 'its bounds need arguments with no value (right)')."""
    half = DATA / "perf_foreign" / "test"
    entries = json.loads((half / "measurements.json").read_text())["entries"]
    entry = next(e for e in entries if e["kernel"] == "kernel_unified_attention_2d" and e["grid"][0] == 80)
    store = Store(tmp_path / "store")
    open_archive(half / "captures.tar.gz", store)
    capture = store.get(entry["capture"])
    assert capture is not None
    ttgir = capture.read("ttgir")
    assert parse_scalar_program(ttgir).params == {"right": "num_seqs"}
    data = {d[0]: d[3] for d in entry["data"]}
    trips = {t.ttgir_line: t for t in evaluate_trips(ttgir, entry["values"], tuple(entry["grid"]), data)}
    (kv,) = [t for t in trips.values() if t.trips is not None]
    lens = data["seq_lens_ptr"]
    assert kv.busiest == math.ceil(max(lens) / 16)


@pytest.mark.compile
def test_a_bool_flag_loaded_through_a_pointer_bitcast_decides_the_early_return(store: Path) -> None:
    """Two of the eight requests are flagged: 25% of the programs get past ``if not flag: return`` (before: the
    bitcast pointer's load had no value, the branch was assumed not taken and every program did the work)."""
    report = _perf(store, f"{KERNELS / 'flagged_rows.py'}:flagged_rows", "--args",
                   "flags_ptr=bool[8],cu_tokens_ptr=i32[9],x_ptr=fp32[4096,128],out_ptr=fp32[8,128],D=128",
                   "--grid", "8", "--data", "flags_ptr=0,1,0,0,0,0,0,1",
                   "--data", "cu_tokens_ptr=0,10,20,30,40,50,60,70,4000")
    assert any("25.0% of the programs get past them" in a for a in report["assumptions"])
    assert not any("depends on values known only when it runs" in u for u in report["uncertain"])
    none = _perf(store, f"{KERNELS / 'flagged_rows.py'}:flagged_rows", "--args",
                 "flags_ptr=bool[8],cu_tokens_ptr=i32[9],x_ptr=fp32[4096,128],out_ptr=fp32[8,128],D=128",
                 "--grid", "8", "--data", "flags_ptr=0,0,0,0,0,0,0,0",
                 "--data", "cu_tokens_ptr=0,10,20,30,40,50,60,70,4000")
    # no request flagged: every program returns after its flag's load, and no loop past the return runs
    (loop,) = none["loops"]
    assert loop["executions"] == 0
    assert none["predicted_us"] < 2 * DRAM_LATENCY_NS * 1e-3 + 2.5
