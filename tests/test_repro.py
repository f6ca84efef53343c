"""`irscope repro`: a standalone script that compiles a capture again with Triton alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from irscope.analysis.diff import normalize
from irscope.cli import cli
from irscope.store.store import Store
from tests.conftest import DATA
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile


def run_script(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a reproducer as a bug-report reader would: no irscope on the path, in an empty folder."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "IRSCOPE_HOME")}
    return subprocess.run([sys.executable, "-I", str(script), *args], capture_output=True, text=True, env=env,
                          cwd=script.parent, timeout=600)


def same_ir(a: str, b: str) -> bool:
    return normalize(a) == normalize(b)


def test_a_bundled_kernel_compiles_again_to_the_same_ttgir(tmp_path, captures, shared_store):
    cap = captures("matmul", "sm90")
    script = tmp_path / "repro.py"
    result = CliRunner().invoke(cli, ["repro", "matmul", "--target", "sm90", "-o", str(script),
                                      "--store", str(shared_store)])
    assert result.exit_code == 0, result.output
    text = script.read_text()
    assert "import irscope" not in text and "from irscope" not in text
    proc = run_script(script, "--stage", "ttgir")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert same_ir(proc.stdout, cap.read("ttgir"))
    ptx = run_script(script, "--stage", "ptx")
    assert ptx.returncode == 0 and ".target sm_90a" in ptx.stdout
    nogpu = run_script(script, "--run")
    import torch

    if not torch.cuda.is_available():
        assert nogpu.returncode == 1 and "--run needs a GPU" in nogpu.stderr and "Traceback" not in nogpu.stderr


def test_a_recorded_program_kernel_carries_only_its_definitions(tmp_path):
    store = tmp_path / "store"
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(DATA / "programs" / "autotuned.py"),
                   store=store)
    assert proc.returncode == 0, proc.stderr
    cap = next(c for c in Store(store).captures() if c.manifest.config_index == 2)
    script = tmp_path / "repro.py"
    made = irscope("repro", cap.manifest.key, "-o", str(script), store=store)
    assert made.returncode == 0, made.stderr
    import ast

    carried = next(node.value.value for node in ast.parse(script.read_text()).body
                   if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "SOURCE")
    assert "def tile_scale_kernel" in carried
    assert "def main" not in carried and "torch.randn" not in carried  # the program's own code stays out
    out = run_script(script, "--stage", "ttgir")
    assert out.returncode == 0, out.stderr[-3000:]
    assert same_ir(out.stdout, cap.read("ttgir"))
    assert '"ttg.num-warps" = 4' in out.stdout  # config 2: num_warps=4


def test_a_function_kernel_with_args(tmp_path, shared_store):
    spec = f"{DATA / 'kernels' / 'off_by_one_add.py'}:add_kernel"
    args = ["--args", "x_ptr=fp32[4096], y_ptr=fp32[4096], out_ptr=fp32[4096], n_elements=4096", "--constexpr",
            "BLOCK_SIZE=256"]
    script = tmp_path / "repro.py"
    made = CliRunner().invoke(cli, ["repro", spec, "--target", "gfx942", "-o", str(script), *args,
                                    "--store", str(shared_store)])
    assert made.exit_code == 0, made.output
    shown = CliRunner().invoke(cli, ["show", spec, "--target", "gfx942", *args, "--store", str(shared_store)])
    out = run_script(script, "--stage", "ttgir")
    assert out.returncode == 0, out.stderr[-3000:]
    assert same_ir(out.stdout, shown.output)
    # --run's default launch: the arguments as given (element types in torch's names)
    assert "'args': 'x_ptr=float32[4096], y_ptr=float32[4096], out_ptr=float32[4096], n_elements=4096'" in \
        script.read_text()


def test_bad_repro_requests_get_one_line(tmp_path):
    unknown = CliRunner().invoke(cli, ["repro", "no_such_kernel"])
    assert unknown.exit_code == 2
    nowhere = CliRunner().invoke(cli, ["repro", "matmul", "-o", str(tmp_path / "missing" / "r.py")])
    assert nowhere.exit_code == 2 and "does not exist" in nowhere.output
