"""Offline, ``warmup()`` gives back the compiled kernel: its handles read from the binary, as a GPU's driver would."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from irscope.analysis.resources import capture_resources
from irscope.compile.offline_warmup import WarmKernel, amd_handles
from irscope.store.store import Store
from tests.conftest import DATA, invoke
from tests.test_program_capture import irscope

PROGRAM = DATA / "programs" / "warmup_occupancy.py"


@pytest.mark.compile
@pytest.mark.parametrize("target", ["sm90", "gfx942"])
def test_a_warmed_up_kernel_has_the_registers_and_shared_memory_of_its_capture(tmp_path: Path, target: str) -> None:
    # Triton's fused-softmax tutorial sizes its persistent grid from warmup(): _init_handles(), n_regs, shared.
    proc = irscope("capture", "--target", target, "--", sys.executable, str(PROGRAM), store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (line,) = [ln for ln in proc.stdout.splitlines() if ln.startswith("n_regs ")]
    words = line.split()
    said = {name: int(value) for name, value in zip(words[::2], words[1::2], strict=True)}
    (capture,) = Store(tmp_path).captures()  # compiled once, by warmup; the launch after it compiles nothing
    res = capture_resources(capture)
    assert res.registers is not None and said["n_regs"] == res.registers
    assert said["shared"] == res.shared_dynamic and said["n_spills"] == 0
    assert said["threads"] >= 8 * capture.manifest.warp_size  # num_warps=8 fits the block
    assert said["programs"] > 0
    perf = invoke("perf", "row_softmax_kernel", store=tmp_path)  # the launch of the warmed-up kernel gives the grid
    assert perf.exit_code == 0, perf.output
    assert f"the program's grid {said['programs']}x1x1, its one launch" in perf.output


def test_launching_a_warmed_up_kernel_runs_nothing_and_reads_the_compiled_kernel() -> None:
    class Compiled:
        def __init__(self) -> None:
            self.name = "k"
            self.asm = {"amdgcn": "  .vgpr_count:     40\n  .vgpr_spill_count: 2\n  .max_flat_workgroup_size: 256\n"}
            self.metadata = {"shared": 0}

    compiled = Compiled()
    warm = WarmKernel(compiled)
    assert warm[(4, 1, 1)](1, 2) is None and warm.run(1) is None
    assert (warm.n_regs, warm.n_spills, warm.n_max_threads) == (40, 2, 256)
    assert warm.metadata == {"shared": 0} and warm.asm is compiled.asm
    assert amd_handles("  .vgpr_count: 8\n") == (8, 0, 1024)
