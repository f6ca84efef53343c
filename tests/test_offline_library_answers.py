"""Offline captures answer what libraries ask besides torch.cuda: the vendor's tool, the GPU's random generators."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from irscope.store.store import Store
from tests.conftest import DATA
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile


@pytest.mark.parametrize(("target", "vendor", "kernel"), [("sm90", "nvidia", "nvidia_scale_kernel"),
                                                          ("gfx942", "amd", "amd_scale_kernel")])
def test_a_program_that_runs_the_vendors_tool_finds_the_targets_vendor(tmp_path: Path, target: str, vendor: str,
                                                                      kernel: str) -> None:
    # FlagGems' vendor detection: nvidia-smi and rocm-smi run, the one that exits 0 names the vendor.
    proc = irscope("capture", "--target", target, "--", sys.executable, str(DATA / "programs" / "vendor_probe.py"),
                   store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"vendor {vendor}\n" in proc.stdout
    if vendor == "nvidia":
        assert "nvidia-smi: NVIDIA H100 80GB HBM3, 9.0\n" in proc.stdout
    assert [c.manifest.kernel for c in Store(tmp_path).captures()] == [kernel]


def test_a_program_that_advances_the_gpu_generators_philox_offset_gets_seed_and_offset(tmp_path: Path) -> None:
    # FlagGems' dropout: torch.cuda.default_generators[i].get_state() is (seed, offset), 16 bytes, on a GPU.
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(DATA / "programs" / "philox_dropout.py"),
                   store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "seed 7 offset 0\nseed 7 offset 4096\n" in proc.stdout  # torch.manual_seed(7); 4096 drawn by the first
    assert [c.manifest.kernel for c in Store(tmp_path).captures()] == ["philox_dropout_kernel"]
