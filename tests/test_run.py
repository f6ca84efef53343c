"""`irscope run` checks kernels against torch under Triton's interpreter on this CPU-only machine."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import DATA, repo_path

pytestmark = pytest.mark.slow


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    # A fresh process: TRITON_INTERPRET must be set before the kernel modules are imported.
    env = {**os.environ, "PYTHONPATH": repo_path()}
    return subprocess.run([sys.executable, "-m", "irscope", "run", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def test_all_bundled_kernels_pass_under_the_interpreter():
    proc = run_cli("--device", "interpreter")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0].split()[:3] == ["kernel", "device", "config"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == {"matmul", "matmul_tma", "softmax", "vector_add"}
    for row in rows.values():
        assert "interpreter" in row and row.rstrip().endswith("PASS")
    # Sizes are not multiples of the blocks, so the masks are exercised.
    assert "a=257x193, b=193x301, c=257x301" in rows["matmul"]
    assert "x=1823x781" in rows["softmax"]


def test_a_wrong_kernel_fails_with_exit_1():
    proc = run_cli(str(DATA / "kernels" / "off_by_one_add.py"), "--device", "interpreter", "--json")
    assert proc.returncode == 1
    import json

    (result,) = json.loads(proc.stdout)
    assert result["passed"] is False and result["unwritten"] == 1


def test_device_gpu_runs_on_a_gpu_and_is_refused_without_one():
    import torch

    proc = run_cli("vector_add", "--device", "gpu")
    from irscope.compile.torch_standin import torch_sees_gpu

    if torch_sees_gpu(torch):  # not torch.cuda: another test may have left irscope's stand-in in this process
        assert proc.returncode == 0, proc.stderr
        assert "cuda:0" in proc.stdout and "PASS" in proc.stdout
    else:
        assert proc.returncode == 2
        assert "torch sees no GPU" in proc.stderr
        assert "Traceback" not in proc.stderr
