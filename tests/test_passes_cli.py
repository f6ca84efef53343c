"""``irscope passes``, ``diff`` and ``timing`` on real captures: answering the questions from the CLI alone."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from passes_fixtures import PassDumps, pass_dumps_fixture  # noqa: F401

from irscope.cli import cli
from tests.conftest import invoke

pytestmark = pytest.mark.compile


@pytest.mark.parametrize(("target", "tensor_core", "pipeliner", "added"), [
    ("sm90", "nvidia_mma v3, instrShape 16x256x16", "tritongpu-pipeline", "ttg.async_copy_global_to_local"),
    ("sm80", "nvidia_mma v2, instrShape 16x8", "tritongpu-pipeline", "ttg.async_copy_global_to_local"),
    ("gfx942", "amd_mfma v3", "tritonamdgpu-pipeline", "ttg.local_store"),
])
def test_which_pass_made_the_tensor_core_layout_and_pipelined_the_loop(
        pass_dumps: PassDumps, shared_store: Path, target: str, tensor_core: str, pipeliner: str, added: str) -> None:
    pass_dumps("matmul", target)
    result = invoke("passes", "matmul", "--target", target, "--json", "--no-color", store=shared_store)
    assert result.exit_code == 0, result.output
    rows = [r for r in json.loads(result.stdout)["passes"] if not r["step"]]
    assert [r["index"] for r in rows] == list(range(len(rows)))
    (introducer,) = [r for r in rows if tensor_core in r["summary"]]
    assert "accelerate-matmul" in introducer["name"]
    (pipelined,) = [r for r in rows if "stages expanded into prologue" in r["summary"]]
    assert pipelined["name"] == pipeliner
    shown = invoke("diff", "matmul", "--target", target, "--pass", pipeliner, "--no-color", store=shared_store)
    assert shown.exit_code == 0
    plus = [ln for ln in shown.stdout.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    assert any(added in ln for ln in plus)
    assert shown.stdout.startswith(f"--- before {pipeliner} (pass {pipelined['index']}, ttgir)\n")


def test_passes_table_folds_unchanged_passes(pass_dumps: PassDumps, shared_store: Path) -> None:
    pass_dumps("matmul", "sm90")
    folded = invoke("passes", "matmul", "--target", "sm90", "--no-color", store=shared_store)
    assert folded.exit_code == 0
    assert "tritongpu-accelerate-matmul" in folded.output and "#blocked -> #mma: nvidia_mma v3" in folded.output
    assert "· 3 unchanged" in folded.output and "changed nothing (folded; --all lists them)" in folded.output
    assert "tritongpu-pipeline{num-stages=3}" in folded.output  # irscope's own dump switch is not shown
    full = invoke("passes", "matmul", "--target", "sm90", "--all", "--no-color", store=shared_store)
    assert "(nothing)" in full.output and "· 3 unchanged" not in full.output
    assert len(full.output.splitlines()) > len(folded.output.splitlines())


def test_diff_noise_controls_and_layouts(pass_dumps: PassDumps, shared_store: Path) -> None:
    pass_dumps("matmul", "sm90")
    raw = invoke("diff", "matmul", "-t", "sm90", "--pass", "tritongpu-pipeline", "--no-normalize-ssa",
                 store=shared_store)
    ssa = invoke("diff", "matmul", "-t", "sm90", "--pass", "tritongpu-pipeline", "--normalize-ssa", store=shared_store)
    # By default the pipeliner's diff hides its renumbering (most of it), says so, and keeps the printed names.
    auto = invoke("diff", "matmul", "-t", "sm90", "--pass", "tritongpu-pipeline", store=shared_store)
    assert auto.stdout == ssa.stdout and "SSA renumbering ignored" in auto.stdout.splitlines()[-1]
    assert "irscope: SSA renumbering ignored: " in auto.stderr and "--no-normalize-ssa" in auto.stderr
    assert "+    %a_47 = ttg.memdesc_index %a[%c0_i32]" in auto.stdout  # names as printed, not %a or %#
    assert len(auto.stdout.splitlines()) * 2 < len(raw.stdout.splitlines())
    assert json.loads(invoke("diff", "matmul", "-t", "sm90", "--pass", "tritongpu-pipeline",
                          "--json", store=shared_store).stdout)["options"]["normalize_ssa"] is False  # --json: as asked
    locs = invoke("diff", "matmul", "-t", "sm90", "--pass", "tritongpu-pipeline", "--keep-locs", store=shared_store)
    count = [int(r.output.splitlines()[-1].split()[0]) for r in (raw, ssa)]
    assert count[1] < count[0]
    assert " loc(" not in raw.output and " loc(" in locs.output
    side = invoke("diff", "matmul", "-t", "sm90", "--pass", "tritongpu-pipeline", "--side-by-side", "--no-color",
                  store=shared_store)
    assert side.exit_code == 0 and "┃" in side.output
    step = invoke("diff", "matmul", "-t", "sm90", "--pass", "tritongpu-pipeline/LowerLoops", "--no-color",
                  store=shared_store)
    assert "SSA names erased" in step.output and "ttg.async_copy_global_to_local" in step.output
    stages = invoke("diff", "matmul", "-t", "sm90", "--from", "ttir", "--to", "ttgir", "--no-color", store=shared_store)
    assert "+#mma = #ttg.nvidia_mma<{versionMajor = 3" in stages.output
    span = invoke("diff", "matmul", "-t", "sm90", "--from", "tritongpu-coalesce", "--to", "tritongpu-accelerate-matmul",
                  "--json", "--no-color", store=shared_store)
    data = json.loads(span.stdout)
    assert data["left"].startswith("before tritongpu-coalesce") and data["right"].startswith(
        "after tritongpu-accelerate-matmul") and data["added"] > 0


def test_diff_across_targets_and_configs(captures: object, shared_store: Path) -> None:
    targets = invoke("diff", "matmul", "--target", "sm80", "--vs-target", "sm90", "--no-color", store=shared_store)
    assert targets.exit_code == 0
    minus = [ln for ln in targets.output.splitlines() if ln.startswith("-#mma")]
    plus = [ln for ln in targets.output.splitlines() if ln.startswith("+#mma")]
    assert "versionMajor = 2" in minus[0] and "versionMajor = 3" in plus[0]
    configs = invoke("diff", "matmul", "-t", "sm90", "--config", "0", "--vs-config", "2", "--no-color",
                     store=shared_store)
    assert configs.exit_code == 0 and "instrShape = [16, 128, 16]" in configs.output
    assert configs.stdout.startswith("--- ttgir sm90 config 0\n+++ ttgir sm90 config 2\n")


@pytest.mark.parametrize(("args", "needle"), [
    (["--pass", "tritongpu-pipelin3"], "unknown pass 'tritongpu-pipelin3' (closest: tritongpu-pipeline"),
    (["--pass", "canonicalize"], "canonicalize runs "),
    (["--from", "tritongpu-pipeline", "--to", "tritongpu-coalesce"], "runs before --from"),
    (["--pass", "cse", "--from", "ttir"], "give either --pass or --from/--to"),
    ([], "say what to compare"),
    (["--vs-target", "sm80", "--pass", "cse"], "do not combine"),
    (["--vs", "softmax", "--vs-config", "1"], "--vs names the other capture itself; it does not combine"),
])
def test_bad_diff_requests_are_one_line(pass_dumps: PassDumps, shared_store: Path, args: list[str],
                                        needle: str) -> None:
    pass_dumps("matmul", "sm90")
    result = CliRunner().invoke(cli, ["diff", "matmul", "-t", "sm90", "--store", str(shared_store), *args])
    assert result.exit_code == 2
    assert needle in result.output and len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_damaged_dump_is_one_warning_and_the_rest_is_shown(pass_dumps: PassDumps, tmp_path: Path) -> None:
    dump = pass_dumps("vector_add", "sm90")
    store = tmp_path / "store"
    shutil.copytree(dump.path.parent, store / "captures" / dump.path.parent.name)
    gz = store / "captures" / dump.path.parent.name / dump.path.name
    (store / "captures" / dump.path.parent.name / "passes.mlir.effects.json").unlink(missing_ok=True)
    gz.write_bytes(gz.read_bytes()[: gz.stat().st_size * 2 // 3])
    result = CliRunner().invoke(cli, ["passes", "vector_add", "-t", "sm90", "--store", str(store),
                                                      "--no-color"])
    assert result.exit_code == 0
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    (warning,) = result.stderr.strip().splitlines()
    assert warning.startswith(f"irscope: warning: {gz}:") and "cut short" in warning
    assert "tritongpu-coalesce" in result.stdout


def test_timing_weighs_mlir_against_ptxas(captures: object, shared_store: Path) -> None:
    result = invoke("timing", "vector_add", "--target", "sm80", "--repeat", "1", "--json", "--no-color",
                    store=shared_store)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    names = [p["name"] for p in data["phases"]]
    assert names == ["frontend", "mlir", "llvm", "codegen", "assembler", "other"]
    assert data["assembler"] == "ptxas" and 0 < data["mlir_vs_assembler"] < 1
    assert [s for s, _ in data["stages"]] == ["ttir", "ttgir", "llir", "ptx", "cubin"]
    assert {p["stage"] for p in data["passes"]} == {"ttir", "ttgir", "llir"}
    assert any(p["pass_class"] == "TritonGPUCoalesce" for p in data["passes"])
    text = invoke("timing", "vector_add", "--target", "sm80", "--repeat", "1", "--no-color", store=shared_store)
    assert "MLIR pipeline" in text.output and "ptxas (PTX to cubin)" in text.output


def test_timing_numbers_passes_as_passes_and_diff_do(pass_dumps: PassDumps, shared_store: Path) -> None:
    """Issue 14: timing's pass 36 was coalesce-async-copy while passes' 36 was the pipeliner."""
    pass_dumps("matmul", "sm90")
    listed = json.loads(invoke("passes", "matmul", "--target", "sm90", "--json", "--all", "--no-color",
                              store=shared_store).stdout)
    by_number = {r["index"]: r for r in listed["passes"] if not r["step"]}
    result = invoke("timing", "matmul", "--target", "sm90", "--repeat", "1", "--json", "--no-color", store=shared_store)
    assert result.exit_code == 0, result.output
    timed = json.loads(result.stdout)
    assert timed["passes"] and not timed["untimed"]
    covered = set()
    for row in timed["passes"]:
        assert row["number"] is not None, row
        for number in row["runs"]:
            assert (by_number[number]["name"], by_number[number]["pass_class"]) == (row["name"], row["pass_class"])
            assert by_number[number]["stage"] == row["stage"]
        covered.update(row["runs"])
    assert covered == {n for n, r in by_number.items() if r["stage"] in ("ttir", "ttgir", "llir")}
    pipeliner = next(r for r in timed["passes"] if r["name"] == "tritongpu-pipeline")["number"]
    nested = next(r for r in timed["passes"] if len(r["runs"]) > 1)  # the inliner's canonicalizer, once per function
    for number, name in ((pipeliner, "tritongpu-pipeline"), (nested["runs"][-1], nested["name"])):
        diff = json.loads(invoke("diff", "matmul", "--target", "sm90", "--pass", str(number), "--json", "--no-color",
                                store=shared_store).stdout)
        assert diff["left"] == f"before {name} (pass {number}, {by_number[number]['stage']})"
    text = invoke("timing", "matmul", "--target", "sm90", "--repeat", "1", "--all", "--no-color",
                  store=shared_store).stdout
    assert any(line.split()[:3] == [str(pipeliner), "ttgir", "tritongpu-pipeline"] for line in text.splitlines())


def test_llvm_passes_when_asked(captures: object, shared_store: Path) -> None:
    result = invoke("passes", "vector_add", "--target", "sm80", "--llvm", "--json", "--all", "--no-color",
                    store=shared_store)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert not data["problems"] and data["complete"]
    rows = [r for r in data["passes"] if not r["step"]]
    irs = [(r["ir"], r["stage"]) for r in rows]
    # MLIR passes, then LLVM's -O3 pipeline in llir, then the NVPTX code generator (LLVM IR, then machine IR).
    assert irs.index(("llvm", "llir")) > irs.index(("mlir", "llir"))
    assert irs.index(("llvm", "ptx")) < irs.index(("mir", "ptx"))
    first_llvm = next(r for r in rows if r["ir"] == "llvm")
    assert first_llvm["status"] != "unknown"  # compared with the LLVM IR handed to the optimizer
    instcombine = next(r for r in rows if r["name"] == "InstCombinePass" and r["status"] == "changed")
    assert "instructions" in instcombine["summary"]
    assert any(r["name"] == "nvptx-isel" and r["ir"] == "mir" for r in rows)
    diff = invoke("diff", "vector_add", "--target", "sm80", "--llvm", "--pass", "InstCombinePass:1", "--no-color",
                  store=shared_store)
    assert diff.exit_code == 0 and any(ln.startswith("-") and "extractelement" in ln
                                       for ln in diff.output.splitlines())
