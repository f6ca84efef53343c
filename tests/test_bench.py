"""`irscope bench` on this CPU-only machine: the refusal, and the roofline arithmetic it reports."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from irscope.cli import cli
from irscope.compile.kernel_module import load_kernel
from irscope.errors import UsageError
from irscope.model.kernels import bundled_kernels, read_kernel
from irscope.run.bench import copies_for, metric_for, size_label, throughput


def test_bench_refuses_without_a_gpu_and_validates_sizes_first():
    import torch

    bad = CliRunner().invoke(cli, ["bench", "matmul", "--sizes", "4096x4096"])
    assert bad.exit_code == 2 and "this kernel's sizes are MxNxK" in bad.output
    result = CliRunner().invoke(cli, ["bench", "vector_add"])
    from irscope.compile.torch_standin import torch_sees_gpu

    if torch_sees_gpu(torch):  # not torch.cuda: another test may have left irscope's stand-in in this process
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 2
        assert result.output.strip() == ("irscope: error: irscope bench needs a GPU and torch sees none here; "
                                         "use 'irscope run' for correctness under the interpreter")


def test_work_per_kernel_and_size():
    mods = {name: load_kernel(info) for name, info in bundled_kernels().items()}
    assert mods["vector_add"].work({"n_elements": 2**28}) == {"bytes": 3 * 4 * 2**28, "flops": 2**28}
    assert mods["softmax"].work({"n_rows": 4096, "n_cols": 4096})["bytes"] == 2 * 4 * 4096 * 4096
    mm = mods["matmul"].work({"M": 4096, "N": 4096, "K": 4096})
    assert mm == {"bytes": 2 * 3 * 4096 * 4096, "flops": 2 * 4096**3}
    assert mods["matmul_tma"].work({"M": 8192, "N": 8192, "K": 8192}) == mods["matmul"].work(
        {"M": 8192, "N": 8192, "K": 8192})
    assert metric_for(mm) == "TFLOP/s"
    assert metric_for(mods["softmax"].work({"n_rows": 4096, "n_cols": 4096})) == "GB/s"
    assert metric_for(mods["vector_add"].work({"n_elements": 1024})) == "GB/s"
    # Every bundled kernel can be benchmarked: a peer, a work model and sizes.
    for name, info in bundled_kernels().items():
        assert hasattr(mods[name], "peer") and hasattr(mods[name], "work") and info.bench_sizes, name


def test_throughput_units():
    # 2*4096^3 flops in 0.2169 ms is 633.6 TFLOP/s (the H200 run in docs/performance.md).
    assert throughput({"flops": 2 * 4096**3, "bytes": 0}, "TFLOP/s", 0.2169) == pytest.approx(633.65, rel=1e-3)
    # 3 GiB moved in 0.75 ms is 4295 GB/s.
    assert throughput({"flops": 0, "bytes": 3 * 2**30}, "GB/s", 0.75) == pytest.approx(4294.97, rel=1e-4)
    with pytest.raises(ValueError):
        throughput({"flops": 1, "bytes": 1}, "GB/s", 0)


def test_inputs_that_fit_in_l2_are_rotated():
    l2 = 60 * 2**20
    assert copies_for(32 * 2**20, l2) == 8  # 32 MiB of inputs: capped at 8 copies
    assert copies_for(128 * 2**20, l2) == 2  # 128 MiB: two copies exceed 4x L2
    assert copies_for(3 * 2**30, l2) == 1  # 3 GiB never fits
    assert size_label({"M": 4096, "N": 4096, "K": 4096}) == "4096x4096x4096"


def test_kernel_facts_must_be_literals(tmp_path):
    path = tmp_path / "k.py"
    path.write_text('NAME = "k"\nKERNEL = "f"\nDTYPE = "float32"\nSIZES = {"n": 4}\nCONFIGS = [{}]\n'
                    "BENCH_SIZES = [{'n': 2**28}]\ndef f():\n    pass\n")
    with pytest.raises(UsageError, match=r"k.py:6: BENCH_SIZES must be a plain literal"):
        read_kernel(path)


def test_torch_standing_in_for_a_gpu_is_not_a_gpu_to_time_on() -> None:
    """Once a replay or FILE:FUNCTION import put irscope's stand-in into torch (it stays for the process), torch says
    a GPU is there; bench, run and perf's measured ceilings must still see none (CI hung timing a 4096^3 matmul on
    the CPU this way)."""
    import subprocess
    import sys

    code = """
import torch
from irscope.compile.torch_standin import patch_torch
from irscope.errors import NoDeviceError
from irscope.model.gpus import GPUS
from irscope.run.bench import require_gpu, sees_gpu
from irscope.run.correctness import choose_device
before = sees_gpu()
patch_torch(torch, GPUS["h100"])
try:
    require_gpu()
    refused = False
except NoDeviceError:
    refused = True
print(before, torch.cuda.is_available(), sees_gpu(), refused, choose_device("auto"))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["False", "True", "False", "True", "interpreter"]
