"""A slice of the corpus (benchmarks/corpus/): real Liger-Kernel code captured for three targets, every command run.

Liger-Kernel is pinned in the dev extra (its only dependencies are torch and Triton), so CI has it from the
README's install command. The slice is one driver case (RMSNorm forward and backward: two kernels) on sm90, sm100
and gfx942, and every command of the corpus on each capture; the runner's own classification must find no
failure (no traceback, no crash, no timeout, no verify disagreement) and each refusal must be one line.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, repo_path

RUNNER = REPO / "benchmarks" / "corpus" / "run.py"
TARGETS = ("sm90", "sm100", "gfx942")


def _runner(work: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**__import__("os").environ, "PYTHONPATH": repo_path()}
    return subprocess.run([sys.executable, str(RUNNER), "--work", str(work), *args], capture_output=True,
                          text=True, env=env, timeout=600)


@pytest.mark.compile
def test_corpus_slice_liger_every_command_three_targets(tmp_path: Path) -> None:
    assert importlib.util.find_spec("liger_kernel") is not None, \
        "liger-kernel is not installed: pip install -e '.[dev]' installs the pinned one"
    work = tmp_path / "corpus"
    captured = _runner(work, "capture", "--sources", "liger", "--targets", ",".join(TARGETS), "--only", "^rms_norm$",
                       "--autotune", "first", "-j", "2")
    assert captured.returncode == 0, captured.stdout + captured.stderr
    for target in TARGETS:
        record = json.loads((work / "runs" / f"liger-{target}" / "capture.json").read_text())
        assert record["rc"] == 0 and record["tracebacks"] == 0, record
        assert [c["case"] for c in record["cases"] if c["ok"]] == ["rms_norm"], record["cases"]
        kernels = {json.loads(p.read_text())["kernel"]
                   for p in (work / "runs" / f"liger-{target}" / "store" / "captures").glob("*/manifest.json")}
        assert {"_rms_norm_forward_kernel", "_rms_norm_backward_kernel"} <= kernels, (target, kernels)

    ran = _runner(work, "commands", "--sources", "liger", "--targets", ",".join(TARGETS), "-j", "2")
    rows = [json.loads(line) for line in (work / "results.jsonl").read_text().splitlines()]
    failed = [(r["run"], r["kernel"], r["command"], r.get("why"), r.get("line")) for r in rows
              if r["status"] == "failed"]
    assert not failed, failed
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert {r["run"] for r in rows} == {f"liger-{t}" for t in TARGETS}
    commands = {r["command"].split(":")[0] for r in rows}
    assert commands == {"show", "layouts", "loops", "map", "resources", "perf", "verify", "passes", "compare",
                        "facts"}
    assert {r["command"] for r in rows if r["run"] == "liger-gfx942"} >= {"show:amdgcn", "show:ttgir"}
    ok = [r for r in rows if r["status"] == "ok"]
    assert len(ok) >= len(rows) // 2, [(r["command"], r.get("line")) for r in rows if r["status"] != "ok"]
    assert all(r["one_line"] for r in rows if r["status"] == "refused"), \
        [(r["command"], r["line"]) for r in rows if r["status"] == "refused" and not r["one_line"]]
    rerun = _runner(work, "commands", "--sources", "liger", "--targets", ",".join(TARGETS))
    assert "0 commands to run" in rerun.stdout, rerun.stdout  # resumable: nothing is run twice


@pytest.mark.compile
def test_liger_norm_backwards_split_rows_over_the_targets_sms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Liger's norm backwards choose ``rows_per_program = ceil(n_rows / sm_count)`` with ``sm_count`` read only
    ``if X.device.type == "cuda"``: offline for an H200 (132 SMs) the 256 rows go 2 to a program, as the H200 itself
    compiled them (benchmarks/standin_parity.py), not 256 to one program."""
    assert importlib.util.find_spec("liger_kernel") is not None, \
        "liger-kernel is not installed: pip install -e '.[dev]' installs the pinned one"
    from irscope.store.store import Store
    from tests.test_program_capture import irscope

    monkeypatch.setenv("CORPUS_ONLY", "^(rms_norm|layer_norm|fused_add_rms_norm)$")
    driver = REPO / "benchmarks" / "corpus" / "drivers" / "liger_driver.py"
    proc = irscope("capture", "--target", "sm90", "--gpu", "h200", "--", sys.executable, str(driver), store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    manifests = {c.manifest.kernel: c.manifest for c in Store(tmp_path).captures()}
    # A constexpr in layer_norm's and fused_add_rms_norm's backward; an i32 in rms_norm's, where 2 (unlike 256) is
    # not divisible by 16, so its TTGIR argument carries no tt.divisibility, as on the H200.
    assert manifests["_layer_norm_backward_kernel"].constexprs["rows_per_program"] == 2
    assert manifests["_fused_add_rms_norm_backward_kernel"].constexprs["rows_per_program"] == 2
    rms = manifests["_rms_norm_backward_kernel"]
    assert rms.signature["rows_per_program"] == "i32" and not rms.attrs.get("rows_per_program"), rms.attrs
