"""`irscope compare`, `facts`, `check` and `irscope.testing.assert_facts`, on real captures."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from irscope.analysis.facts import capture_facts, compare_facts, parse_tolerance
from irscope.analysis.resources import capture_resources
from irscope.errors import UsageError
from irscope.testing import assert_facts
from tests.conftest import invoke

pytestmark = pytest.mark.compile


def test_facts_agree_with_the_lower_stages_and_resources(captures):
    cap = captures("matmul", "sm90")
    facts = capture_facts(cap).values
    ttgir = cap.read("ttgir")
    # The mma shape comes from the PTX; the TTGIR's mma layout says which one it must be.
    n = re.search(r"versionMajor = 3, .*instrShape = \[16, (\d+), 16\]", ttgir)
    assert n is not None and facts["mma.shape"] == [f"m64n{n.group(1)}k16"] and facts["mma.kind"] == ["wgmma"]
    assert facts["instructions.ptx.mma"] == cap.read("ptx").count("wgmma.mma_async")
    res = capture_resources(cap)
    assert facts["registers"] == res.registers and facts["shared_bytes"] == res.shared_total
    assert facts["loop1.pipelined"] and facts["loop1.stages"] == cap.manifest.config["num_stages"]
    assert facts["loop1.async_copies"] == 2  # one for A, one for B: cp.async-fed shared buffers
    layouts = facts["layouts"]
    assert any(text.startswith("ttg.nvidia_mma<{versionMajor = 3") for text in layouts)


@pytest.mark.parametrize("kernel,target", [("matmul", "sm90"), ("softmax", "sm80"), ("matmul", "gfx942")])
def test_quick_facts_are_the_full_facts_without_the_tool_runs(captures, kernel, target):
    """The what-if report's first answer (no nvdisasm, no ptxas -v) never disagrees with the whole one."""
    import fnmatch

    from irscope.analysis.facts import SLOW_FACTS

    cap = captures(kernel, target)
    quick, full = capture_facts(cap, quick=True).values, capture_facts(cap).values
    assert quick and all(full[name] == value for name, value in quick.items())
    left_out = [name for name in full if name not in quick]
    assert all(any(fnmatch.fnmatch(name, g) for g in SLOW_FACTS) for name in left_out)
    if target.startswith("sm"):
        assert "registers" in left_out and "instructions.sass.total" in left_out and "loop1.stages" in quick
    else:
        assert not left_out  # AMD: nothing runs a tool, the quick read is the whole one


def test_compare_two_targets_reports_the_tensor_core_change(captures, shared_store):
    captures("matmul", "sm80")
    captures("matmul", "sm90")
    result = invoke("compare", "matmul", "--target", "sm80", "--vs-target", "sm90", "--store", str(shared_store))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()  # stderr says when the per-pass dumps compile
    assert lines[0].startswith("A: matmul sm80 c0") and lines[1].startswith("B: matmul sm90 c0")
    assert any(re.match(r"\s+mma\.kind\s+\+ wgmma$", line) for line in lines)
    assert any(line.strip() == "- mma.sync" for line in lines)
    assert re.search(r"other facts are equal \(--all lists them\)", result.output)
    data = json.loads(invoke("compare", "matmul", "--target", "sm80", "--vs-target", "sm90", "--json",
                             "--store", str(shared_store)).output)
    changed = {c["fact"]: c for c in data["changed"]}
    assert changed["mma.shape"]["a"] == ["m16n8k16"] and changed["mma.shape"]["b"] == ["m64n256k16"]
    assert data["a"]["facts"]["registers"] == capture_resources(captures("matmul", "sm80")).registers


def test_compare_with_a_stage_diff_and_bad_requests(captures, shared_store):
    captures("vector_add", "sm90")
    captures("vector_add", "sm90", 1)
    both = invoke("compare", "vector_add", "--vs-config", "1", "--stage", "ttgir", "--store", str(shared_store))
    assert both.exit_code == 0, both.output
    assert "facts differ" in both.output and "--- ttgir of A" in both.output
    same = invoke("compare", "vector_add", "--store", str(shared_store))
    assert same.exit_code == 2 and "both sides are capture" in same.output
    bad = invoke("compare", "vector_add", "--vs-triton", "2.0", "--store", str(shared_store))
    assert bad.exit_code == 2 and "older than irscope supports" in bad.output


def test_facts_then_check_passes_and_a_moved_fact_fails(tmp_path, shared_store):
    snapshot = tmp_path / "facts.json"
    made = invoke("facts", "vector_add", "--target", "sm90", "--target", "gfx942", "--all-configs", "-j", "1",
                  "-o", str(snapshot), "--store", str(shared_store))
    assert made.exit_code == 0, made.output
    data = json.loads(snapshot.read_text())
    import kernels.vector_add as va

    assert len(data["entries"]) == 2 * len(va.CONFIGS)  # every config, for both targets
    ok = invoke("check", str(snapshot), "-j", "1", "--store", str(shared_store))
    assert ok.exit_code == 0, ok.output
    assert ok.output.strip().endswith(f"{len(data['entries'])} entries: {len(data['entries'])} as recorded, 0 changed")

    # A snapshot from a different compiler: a register count and a layout that are not what we get now.
    entry = data["entries"][0]
    entry["facts"]["registers"] = entry["facts"]["registers"] + 4
    entry["facts"]["layouts"] = entry["facts"]["layouts"] + ["ttg.blocked<{made up}>"]
    snapshot.write_text(json.dumps(data))
    moved = invoke("check", str(snapshot), "-j", "1", "--store", str(shared_store))
    assert moved.exit_code == 1
    assert "CHANGED  vector_add sm90 c0" in moved.output and "registers" in moved.output
    assert "- ttg.blocked<{made up}>" in moved.output
    with pytest.raises(AssertionError, match="registers"):
        assert_facts(snapshot, store=shared_store)

    # A tolerance covers the registers; the layout still fails; both cover -> exit 0.
    tolerated = invoke("check", str(snapshot), "-j", "1", "--tolerance", "registers=4", "--store", str(shared_store))
    assert tolerated.exit_code == 1 and "(within tolerance)" in tolerated.output
    data["entries"][0]["facts"]["layouts"].pop()
    data["tolerances"] = {"registers": "100%"}
    snapshot.write_text(json.dumps(data))
    assert invoke("check", str(snapshot), "-j", "1", "--store", str(shared_store)).exit_code == 0
    assert_facts(snapshot, store=shared_store)


def test_parallel_jobs_give_the_same_facts(tmp_path, shared_store):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    for path, jobs in ((one, "1"), (two, "2")):
        result = invoke("facts", "vector_add", "softmax", "--target", "sm80", "-j", jobs, "-o", str(path),
                        "--store", str(shared_store))
        assert result.exit_code == 0, result.output
    a, b = json.loads(one.read_text()), json.loads(two.read_text())
    for x, y in zip(a["entries"], b["entries"], strict=True):
        x["facts"].pop("compile_seconds")
        y["facts"].pop("compile_seconds")
        assert x == y


@pytest.mark.parametrize("content, said", [
    ("not json", "is not a facts file (not JSON"),
    ('{"format": 99, "entries": []}', "is not a facts file of format 1"),
    ('{"format": 1, "entries": [{"kernel": "matmul"}]}', "entry 0 needs kernel"),
    ('{"format": 1, "entries": []}', "has no entries"),
    ('{"format": 1, "tolerances": {"registers": "lots"}, "entries": []}', "is not a number"),
])
def test_a_bad_facts_file_gets_one_line(tmp_path, content, said):
    path = tmp_path / "facts.json"
    path.write_text(content)
    result = invoke("check", str(path))
    assert result.exit_code == 2, result.output
    assert said in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_tolerances():
    assert parse_tolerance("registers=5%") == ("registers", 5.0, True)
    assert parse_tolerance("instructions.*=10")[1:] == (10.0, False)
    for bad in ("registers", "=5", "registers=-1", "registers=x%"):
        with pytest.raises(UsageError):
            parse_tolerance(bad)
    before = {"registers": 100, "instructions.sass.total": 500, "compile_seconds": 1.0, "mma.kind": ["wgmma"]}
    after = {"registers": 104, "instructions.sass.total": 560, "compile_seconds": 9.0, "mma.kind": ["mma.sync"]}
    deltas = {d.name: d for d in compare_facts(before, after, [parse_tolerance("registers=5%"),
                                                               parse_tolerance("instructions.*=10")])}
    assert deltas["registers"].allowed and not deltas["instructions.sass.total"].allowed
    assert "compile_seconds" not in deltas  # noisy: compared only when a tolerance names it
    assert not deltas["mma.kind"].allowed


def test_facts_refuses_bad_input(tmp_path):
    assert invoke("facts", "matmul", "--config", "0", "--all-configs").exit_code == 2
    bad = invoke("facts", "matmul", "--tolerance", "registers")
    assert bad.exit_code == 2 and "FACT=AMOUNT" in bad.output
    unknown = invoke("facts", "no_such_kernel")
    assert unknown.exit_code == 2
    assert Path(tmp_path).exists()


def test_resources_of_every_config_compiled_in_parallel_match_one_at_a_time(tmp_path, shared_store):
    parallel = invoke("resources", "vector_add", "--target", "gfx942", "--all-configs", "-j", "2", "--json",
                      "--store", str(tmp_path / "fresh"))
    assert parallel.exit_code == 0, parallel.output
    assert "compiling 4 configs of vector_add for gfx942, 2 at a time" in parallel.output
    serial = invoke("resources", "vector_add", "--target", "gfx942", "--all-configs", "-j", "1", "--json",
                    "--store", str(tmp_path / "serial"))
    rows = lambda out: json.loads(out[out.index("["):])  # noqa: E731  (stderr's notice comes first here)
    assert rows(parallel.output) == rows(serial.output)


def test_resources_of_every_nvidia_config_run_the_tools_j_at_a_time(tmp_path, captures, monkeypatch):
    # ptxas and cuobjdump on each config were left to the parent, one after another, once -j's workers had compiled
    # them: now -j of them at a time (threads), with the figures of one at a time
    import shutil
    import threading

    import irscope.analysis.resources as resources

    keys = [captures("vector_add", "sm90", i).manifest.key for i in range(4)]
    for name in ("two", "one"):
        for key in keys:
            shutil.copytree(captures.store / "captures" / key, tmp_path / name / "captures" / key,
                            ignore=shutil.ignore_patterns("derived"))
    seen: set[str] = set()
    both = threading.Barrier(2, timeout=60)  # passed only by two configs' resources at once
    real = resources.capture_resources

    def measured(capture):
        seen.add(threading.current_thread().name)
        both.wait()
        return real(capture)

    monkeypatch.setattr(resources, "capture_resources", measured)
    two = invoke("resources", "vector_add", "--target", "sm90", "--all-configs", "-j", "2", "--json",
                 "--store", str(tmp_path / "two"))
    assert two.exit_code == 0, two.output
    assert len(seen) == 2, seen
    monkeypatch.setattr(resources, "capture_resources", real)
    one = invoke("resources", "vector_add", "--target", "sm90", "--all-configs", "-j", "1", "--json",
                 "--store", str(tmp_path / "one"))
    assert one.exit_code == 0 and json.loads(two.output) == json.loads(one.output)
    assert [r["registers"] for r in json.loads(one.output)] == [capture_resources(captures("vector_add", "sm90", i))
                                                                .registers for i in range(4)]


def test_compare_compiles_both_missing_sides_at_once(tmp_path):
    both = invoke("compare", "vector_add", "--target", "sm80", "--vs-target", "gfx942", "--json", "-j", "2",
                  "--store", str(tmp_path / "a"))
    assert both.exit_code == 0, both.output
    assert "compiling both sides (vector_add sm80 c0 and vector_add gfx942 c0) at once" in both.output
    one = invoke("compare", "vector_add", "--target", "sm80", "--vs-target", "gfx942", "--json", "-j", "1",
                 "--store", str(tmp_path / "b"))
    assert "at once" not in one.output
    strip = lambda out: json.loads(out[out.index("{"):])  # noqa: E731
    first, second = strip(both.output), strip(one.output)
    for data in (first, second):
        for side in ("a", "b"):
            data[side]["facts"].pop("compile_seconds")
    assert [c["fact"] for c in first["changed"]] == [c["fact"] for c in second["changed"]]
    assert first["a"]["facts"] == second["a"]["facts"] and first["b"]["key"] == second["b"]["key"]
