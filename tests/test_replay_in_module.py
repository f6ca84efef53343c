"""A recorded kernel whose source alone is not enough is replayed in its own module, under the stand-in the
capture ran under, with its package reached the way the program reached it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import DATA
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile


def test_a_what_if_of_a_kernel_from_a_package_loaded_by_path_imports_its_module_offline(tmp_path: Path) -> None:
    # The package's __init__ needs an unbuilt extension; its module needs a variable the program set, asks
    # torch.cuda for the GPU at import time and picks exp2 with an if statement: the replay needs the module,
    # its package, the program's environment and the device stand-in.
    program = DATA / "programs" / "unbuilt_package.py"
    proc = irscope("capture", "--target", "sm100", "--", sys.executable, str(program), store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    compare = irscope("compare", "exp_twice_kernel", "--set", "num_warps=8", store=tmp_path)
    assert compare.returncode == 0, compare.stderr
    assert "set num_warps=8" in compare.stdout
    ttgir = irscope("show", "exp_twice_kernel", "--set", "num_warps=8", "--stage", "ttgir", store=tmp_path)
    assert ttgir.returncode == 0, ttgir.stderr
    assert '"ttg.num-warps" = 8' in ttgir.stdout and "math.exp2" in ttgir.stdout  # the module's own if chose exp2
    # The source alone is enough for twice_kernel, but its import of the sibling module needs the package.
    twice = irscope("compare", "twice_kernel", "--set", "num_warps=2", store=tmp_path)
    assert twice.returncode == 0, twice.stderr
