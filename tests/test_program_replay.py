"""Replays (passes, diff --pass, timing) of stored kernels compile them from what was recorded, never the program."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from irscope.compile.replay import extract_kernel
from irscope.errors import UsageError
from tests.conftest import DATA, repo_path
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile
PROGRAMS = DATA / "programs"
TILE_ARGS = "x_ptr=fp32[512,256], out_ptr=fp32[512,256], M=512, N=256, stride=256"


def run_in(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m irscope ARGS`` with ``cwd`` as working directory (for relative --store paths)."""
    full = {k: v for k, v in os.environ.items() if k != "IRSCOPE_HOME"}
    full.update({"PYTHONPATH": repo_path(), **(env or {})})
    return subprocess.run([sys.executable, "-m", "irscope", *args], capture_output=True, text=True, env=full,
                          cwd=cwd, timeout=600)


def last_ttgir_pass(passes_json: str) -> int:
    rows = json.loads(passes_json)["passes"]
    return [r["index"] for r in rows if r["stage"] == "ttgir"][-1]


def test_a_recorded_script_is_replayed_without_running_it(tmp_path: Path) -> None:
    marker = tmp_path / "runs.txt"
    env = {"IRSCOPE_TEST_MARKER": str(marker)}
    script = str(PROGRAMS / "toplevel_autotune.py")
    proc = run_in(tmp_path, "capture", "--store", "rel-store", "--target", "sm90", "--", sys.executable, script,
                  env=env)
    assert proc.returncode == 0, proc.stderr
    assert marker.read_text() == "ran\n"
    # The script launches at module level and autotunes: importing it would run it (and fail offline on
    # the autotuner's benchmarker). A relative --store reaches the child compile too.
    passes = run_in(tmp_path, "passes", "scaled_copy_kernel", "--config", "1", "--store", "rel-store", "--json",
                    env=env)
    assert passes.returncode == 0, passes.stderr
    assert marker.read_text() == "ran\n"
    assert json.loads(passes.stdout)["config"] == 1
    # The replay compiles config 1 (BLOCK=512, num_warps=4) exactly as the program's launch did, down to the
    # locations (file, line and column of every op).
    diff = run_in(tmp_path, "diff", "scaled_copy_kernel", "--config", "1", "--store", "rel-store", "--keep-locs",
                  "--from", "ttgir", "--to", str(last_ttgir_pass(passes.stdout)), env=env)
    assert diff.returncode == 0, diff.stderr
    assert "are identical after normalisation" in diff.stdout
    timing = run_in(tmp_path, "timing", "scaled_copy_kernel", "--config", "0", "--repeat", "1", "--store",
                    "rel-store", "--json", env=env)
    assert timing.returncode == 0, timing.stderr
    assert json.loads(timing.stdout)["config"] == 0
    assert marker.read_text() == "ran\n"


def test_a_file_function_capture_is_replayed_by_name_and_all_configs_covers_autotune(tmp_path: Path) -> None:
    spec = f"{PROGRAMS / 'autotuned.py'}:tile_scale_kernel"
    table = irscope("resources", spec, "--args", TILE_ARGS, "--all-configs", store=tmp_path)
    assert table.returncode == 0, table.stderr
    lines = [line.split() for line in table.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert [(row[0], row[1], row[2], row[3]) for row in lines] == [
        ("0", "16/32", "1", "1"), ("1", "32/64", "2", "2"), ("2", "64/32", "4", "3"), ("3", "128/64", "8", "4")]
    passes = irscope("passes", "tile_scale_kernel", "--config", "2", "--json", store=tmp_path)
    assert passes.returncode == 0, passes.stderr
    diff = irscope("diff", "tile_scale_kernel", "--config", "2", "--keep-locs", "--from", "ttgir", "--to",
                   str(last_ttgir_pass(passes.stdout)), store=tmp_path)
    assert diff.returncode == 0 and "are identical after normalisation" in diff.stdout, diff.stdout + diff.stderr
    # The same configs recorded from the program give the same figures, config by config.
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(PROGRAMS / "autotuned.py"),
                   store=tmp_path / "program")
    assert proc.returncode == 0, proc.stderr
    recorded = irscope("resources", "tile_scale_kernel", "--all-configs", store=tmp_path / "program")
    assert recorded.returncode == 0, recorded.stderr
    assert recorded.stdout == table.stdout


SOURCE = '''import os
import triton
import triton.language as tl
from .local import helper_value

SCALE = tl.constexpr(2.0)
SIZE = int(os.environ.get("SIZE", "4"))


@triton.jit
def _twice(x):
    return x * SCALE


@triton.autotune(configs=[triton.Config({"B": 8})],
                 key=["n"])
@triton.jit
def good(x_ptr, n, B: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, B), _twice(tl.load(x_ptr + tl.arange(0, B))))


@triton.jit
def computed(x_ptr):
    tl.store(x_ptr, SIZE)


@triton.jit
def relative(x_ptr):
    tl.store(x_ptr, helper_value)
'''


def test_the_replay_module_keeps_what_the_kernel_needs_on_its_own_lines() -> None:
    replay = extract_kernel(SOURCE, "good", "prog.py")
    kept = replay.text.splitlines()
    original = SOURCE.splitlines()
    assert replay.kept == ("triton", "tl", "SCALE", "_twice", "good")
    for number in (2, 3, 6, 10, 11, 12, 17, 18, 19):  # imports, the constant, the helper, the kernel: same lines
        assert kept[number - 1] == original[number - 1]
    assert "autotune" not in replay.text and "import os" not in replay.text and "SIZE" not in replay.text
    with pytest.raises(UsageError, match=r"needs 'SIZE', computed by the program at prog.py:7 "
                                         r"\(int\(os.environ.get\('SIZE', '4'\)\)\)"):
        extract_kernel(SOURCE, "computed", "prog.py")
    with pytest.raises(UsageError, match=r"needs 'helper_value' from a relative import \(prog.py:4\)"):
        extract_kernel(SOURCE, "relative", "prog.py")
    with pytest.raises(UsageError, match=r"prog\.py defines no function 'missing' at module level"):
        extract_kernel(SOURCE, "missing", "prog.py")


def test_a_package_kernel_with_relative_imports_is_replayed_by_name(tmp_path: Path) -> None:
    env = {"PYTHONPATH": repo_path(DATA / "pkgs"), "IRSCOPE_HOME": str(tmp_path)}
    show = run_in(tmp_path, "show", "relative_kernels.ops:scale_kernel", "--signature", "*fp32:16, *fp32:16, i32, 1024",
                  "--stage", "ttir", env=env)
    assert show.returncode == 0, show.stderr
    assert "dense<5.000000e+00>" in show.stdout  # SCALE, read by the helper from .consts
    passes = run_in(tmp_path, "passes", "scale_kernel", "--store", str(tmp_path), "--json", env=env)
    assert passes.returncode == 0, passes.stderr
    diff = run_in(tmp_path, "diff", "scale_kernel", "--store", str(tmp_path), "--from", "ttgir", "--to",
                  str(last_ttgir_pass(passes.stdout)), env=env)
    assert diff.returncode == 0 and "are identical after normalisation" in diff.stdout, diff.stdout + diff.stderr


def test_on_a_gpu_a_compile_inside_an_autotuner_is_matched_to_its_config() -> None:
    """The recording hook's rule for real runs (no GPU here to run one): the config whose values the compile has."""
    from types import SimpleNamespace

    import triton

    from irscope.compile import program_hook

    jit = SimpleNamespace(params=[])
    tuner = SimpleNamespace(fn=SimpleNamespace(fn=jit), configs=[  # an Autotuner over a Heuristics over the jit
        triton.Config({"BLOCK": 128}, num_warps=2), triton.Config({"BLOCK": 512}, num_warps=4),
        triton.Config({"BLOCK": 512}, num_warps=8)])
    metadata = {"num_warps": 8, "num_stages": 3}
    program_hook._STATE.autotuner = tuner
    try:
        found = program_hook._current_config(SimpleNamespace(fn=jit, constants={(3,): 512}), metadata,
                                             lambda p: "BLOCK")
        other = program_hook._current_config(SimpleNamespace(fn=object(), constants={(3,): 512}), metadata,
                                             lambda p: "BLOCK")
    finally:
        program_hook._STATE.autotuner = None
    assert found == (2, {"BLOCK": 512, "num_warps": 8, "num_ctas": 1, "num_stages": 3})
    assert other == (None, {})  # another kernel compiled while the autotuner runs (a hook's) is no config of it
