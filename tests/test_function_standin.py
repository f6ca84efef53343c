"""FILE:FUNCTION on a library module that asks for the GPU when imported (FlagGems' DeviceDetector runs nvidia-smi /
rocm-smi at import): issue #40, it failed with the library's "No device were detected" while ``irscope capture`` ran
the same module under the device stand-in. The module is now imported under that stand-in, answering as the target's
GPU, and a failure the stand-in causes says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import DATA
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile
PROBED = DATA / "pkgs" / "probed_kernels"


@pytest.mark.parametrize(("target", "scale"), [("sm90", "2.000000e+00"), ("gfx942", "3.000000e+00")])
def test_a_module_that_probes_the_gpu_at_import_sees_the_targets(target: str, scale: str, tmp_path: Path) -> None:
    proc = irscope("show", f"{PROBED / 'ops.py'}:vendor_scale_kernel", "--args", "fp32[1024], 1024",
                   "--constexpr", "BLOCK=1024", "--target", target, "--stage", "ttir", store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"arith.constant dense<{scale}> : tensor<1024xf32>" in proc.stdout  # the vendor the target's tools name


def test_an_import_the_standin_cannot_serve_says_so(tmp_path: Path) -> None:
    proc = irscope("show", f"{PROBED / 'shared_events.py'}:copy_kernel", "--args", "fp32[1024], fp32[1024], 1024",
                   "--constexpr", "BLOCK=1024", "--target", "sm90", store=tmp_path)
    assert proc.returncode == 2, proc.stderr
    (line,) = [x for x in proc.stderr.splitlines() if x.startswith("irscope: error:")]
    assert line.startswith(f"irscope: error: importing {PROBED / 'shared_events.py'} failed: StandInCannot: ")
    assert line.endswith("; the module was imported under irscope's offline device stand-in (torch and the driver "
                         "answering as NVIDIA H100 80GB HBM3), which caused this (torch.cuda.Event.ipc_handle)")
    assert "Traceback" not in proc.stderr
