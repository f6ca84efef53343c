"""Offline captures answer what libraries ask besides torch.cuda: the vendor's tool, the GPU's random generators."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from irscope.compile.cpu_refusal import MISSING, explain
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


def test_a_seed_above_2_to_the_63_is_a_gpu_generators_uint64(tmp_path: Path) -> None:
    # torch.seed() gives seeds up to 2**64 - 1; a CUDA generator's state holds it as a uint64 (read as int64: -5).
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(DATA / "programs" / "philox_dropout.py"),
                   "big", store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "seed -5 offset 0\nseed -5 offset 4096\n" in proc.stdout


@pytest.mark.parametrize(("mode", "function", "line"), [
    ("type", "where_out", "programs/device_dispatch.py:32 refused a CPU tensor (`assert len(devices)"),
    ("index", "scale_forward", "programs/device_dispatch.py:40 refused a CPU tensor (`table = TABLES[device_index]`: "
                               "TypeError: list indices must be integers or slices, not NoneType)"),
])
def test_a_library_that_refuses_the_stand_ins_cpu_tensors_is_told_apart_from_a_program_bug(
        tmp_path: Path, mode: str, function: str, line: str) -> None:
    # FlagGems' where (no operand off the CPU) and gemlite's GEMV (device.index is None) on the gradient autograd
    # hands a custom backward that saved no GPU tensor, which the stand-in does not mark: its doing, said so.
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(DATA / "programs" / "device_dispatch.py"),
                   mode, "backward", store=tmp_path)
    assert proc.returncode == 1
    (said,) = [s for s in proc.stderr.splitlines() if s.startswith("  NOT captured:")]
    assert said.startswith(f"  NOT captured: {function}: {line}"), said
    assert "the offline stand-in keeps tensors on the CPU, where a GPU's would say cuda:0" in said


@pytest.mark.parametrize(("mode", "where"), [("type", ""), ("index", ""), ("type", "custom_op"),
                                             ("index", "custom_op")])
def test_a_library_that_dispatches_on_the_tensors_device_sees_the_gpu(tmp_path: Path, mode: str, where: str) -> None:
    # The same library code on tensors the program made on the driver's device: as on a GPU, cuda:0, index 0; also
    # inside a torch.library.custom_op's kernel (gemlite's forward_functional, whose GEMV reads W_q.device.index).
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(DATA / "programs" / "device_dispatch.py"),
                   mode, *filter(None, [where]), store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [c.manifest.kernel for c in Store(tmp_path).captures()] == ["select_kernel"]


def test_an_error_on_a_line_that_reads_no_device_is_not_blamed_on_the_stand_in() -> None:
    def index_by(positions: list[int], count: None) -> int:
        return positions[count]  # type: ignore[index]  # reads no device: a program bug

    def pick(tables: list[int], device_index: None) -> int:
        return tables[device_index]  # type: ignore[index]

    with pytest.raises(TypeError) as plain:
        index_by([1], None)
    with pytest.raises(TypeError) as refused:
        pick([1], None)
    assert explain(plain.value) is None
    found = explain(refused.value)
    assert found is not None and (found["name"], found["cause"], found["missing"]) == ("pick", "irscope", MISSING)
