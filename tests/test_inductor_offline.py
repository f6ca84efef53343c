"""torch.compile programs captured offline: Inductor writes and compiles its Triton kernels for the target (issue 18 item 6)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from irscope.store.store import Store
from tests.conftest import DATA
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile


@pytest.mark.parametrize(("target", "device", "stage"), [
    ("sm90", "DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9", "ptx"),
    ("gfx942", "DeviceProperties(type='hip', index=0, multi_processor_count=304, cc='gfx942', major=9", "amdgcn"),
])
def test_inductor_kernels_are_written_for_the_stood_in_gpu_and_compiled_for_the_target(tmp_path: Path, target: str,
                                                                                       device: str, stage: str) -> None:
    proc = irscope("capture", "--target", target, "--", sys.executable, str(DATA / "programs" / "inductor_demo.py"),
                   store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "inductor output matches eager" in proc.stdout  # the program ran on, eagerly on the CPU
    captures = Store(tmp_path).captures()
    assert captures and {c.manifest.kernel for c in captures} == {"triton_poi_fused_add_gelu_0"}
    for capture in captures:
        assert capture.manifest.target == target and stage in capture.manifest.files
        source = capture.read("source")
        # Inductor's own record of the device it generated the kernel for: the stand-in's answers.
        assert device in source
    assert "NOT captured" not in proc.stderr


def test_without_a_target_on_a_machine_without_gpu_inductor_kernels_compile_for_sm90(tmp_path: Path) -> None:
    """No --target and no GPU: capture compiles for sm90, as every other command does, and says so; the tensors
    the program puts on the (stand-in) GPU give Inductor a GPU graph, so it writes Triton kernels."""
    from irscope.model.targets import native_target

    if native_target() is not None:
        pytest.skip("this machine has a GPU: the program would run on it")
    proc = irscope("capture", "--", sys.executable, str(DATA / "programs" / "inductor_cpu.py"), store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "(offline for sm90 as an NVIDIA H100 80GB HBM3: no GPU on this machine, so launches compile and do not run; " \
           "--target chooses another target), exit status 0" in proc.stderr
    found = Store(tmp_path).captures()
    assert found and all(c.manifest.target == "sm90" and c.manifest.kernel.startswith("triton_") for c in found)


def test_a_dynamic_shape_graph_is_captured_with_its_size_as_a_runtime_argument(tmp_path: Path) -> None:
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(DATA / "programs" / "inductor_dynamic.py"),
                   store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "16.0" in proc.stdout  # the program ran on, eagerly
    (capture,) = Store(tmp_path).captures()
    assert capture.manifest.kernel == "triton_poi_fused_mul_0"
    assert capture.manifest.signature["xnumel"] == "i32"  # not a constant: the size stays symbolic in the kernel
    assert "NOT captured" not in proc.stderr
