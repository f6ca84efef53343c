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


def test_a_module_replay_after_an_extraction_of_the_same_file_compiles_its_own_kernel(tmp_path: Path) -> None:
    # A worker process that replays two kernels of one file: the first is extracted (its text served under the
    # file's name by linecache), the second needs its module imported. Triton must read the second's own
    # source, not the extracted text at its line (Liger's rms_norm forward after its backward: StopIteration).
    import importlib
    import sys

    from irscope.compile.replay import load_replayed

    package = tmp_path / "twokernels"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    source = (
        "import triton\nimport triton.language as tl\n\n"
        "if hasattr(tl, 'exp2'):\n    fast_exp = tl.exp2\nelse:\n    fast_exp = tl.exp\n\n\n"
        "@triton.jit\ndef needs_if_kernel(x_ptr, n, BLOCK: tl.constexpr):\n"
        "    offs = tl.arange(0, BLOCK)\n    tl.store(x_ptr + offs, fast_exp(tl.load(x_ptr + offs)))\n\n\n"
        "@triton.jit\ndef plain_kernel(y_ptr, m, BLOCK: tl.constexpr):\n"
        "    offs = tl.arange(0, BLOCK)\n    tl.store(y_ptr + offs, tl.load(y_ptr + offs) * 2)\n"
    )
    path = package / "ops.py"
    path.write_text(source, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        plain = load_replayed(path, "plain_kernel", "twokernels.ops", str(path))
        needs_if = load_replayed(path, "needs_if_kernel", "twokernels.ops", str(path))
        assert "def plain_kernel(" in plain.src
        assert "def needs_if_kernel(" in needs_if.src, needs_if.src
        assert [p.name for p in needs_if.params] == ["x_ptr", "n", "BLOCK"]
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("twokernels")]:
            del sys.modules[name]
        importlib.invalidate_caches()


def test_a_what_if_of_a_kernel_whose_module_runs_the_vendors_tool_at_import_sees_the_captures_tools(
        tmp_path: Path) -> None:
    # FlagGems finds its vendor at import by running nvidia-smi / rocm-smi (DeviceDetector): the replay of a kernel
    # of such a module (addmm_kernel, topk's _MIN_FLOAT16_VAL = tl.constexpr(torch.finfo(...).min)) imports it
    # under the stand-in tools the capture had, so it finds the same vendor and compiles the same kernel.
    program = DATA / "programs" / "probed_package.py"
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(program), store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "vendor nvidia\n" in proc.stdout
    compare = irscope("compare", "vendor_scale_kernel", "--set", "num_warps=8", store=tmp_path)
    assert compare.returncode == 0, compare.stderr
    ttgir = irscope("show", "vendor_scale_kernel", "--set", "num_warps=8", "--stage", "ttgir", store=tmp_path)
    assert ttgir.returncode == 0, ttgir.stderr
    assert '"ttg.num-warps" = 8' in ttgir.stdout
    assert "dense<2.000000e+00>" in ttgir.stdout  # the NVIDIA scale: the module saw the capture's nvidia-smi
    assert "dense<-6.550400e+04>" in ttgir.stdout  # torch.finfo(torch.float16).min, computed by the module


def test_a_what_if_of_a_kernel_with_a_tl_constexpr_decorated_helper_keeps_the_decorator(tmp_path: Path) -> None:
    # FlagGems' sort and scan kernels type their values with ``@tl.constexpr def get_int_t(...)``: the replay's
    # extracted module must keep that decorator (Triton rejects a plain function: "Unsupported function referenced").
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(DATA / "programs" / "constexpr_helper.py"),
                   store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    ttgir = irscope("show", "as_uint_kernel", "--set", "num_warps=8", "--stage", "ttgir", store=tmp_path)
    assert ttgir.returncode == 0, ttgir.stderr
    assert '"ttg.num-warps" = 8' in ttgir.stdout
    assert "tt.bitcast" in ttgir.stdout and "-> tensor<256xi32" in ttgir.stdout  # get_int_t(32, False): uint32


@pytest.mark.parametrize(("top", "said"), [
    ("import not_installed_anywhere_xyz\nVALUE = not_installed_anywhere_xyz.value()\n",
     "(not_installed_anywhere_xyz is not installed here: the program's dependency, not irscope's fault)"),
    ("VALUE = int('nine')\n", "(raised by the program's own code at {path}:5)"),
    ("VALUE = triton.runtime.driver.active.get_vendor_table()\n",
     "(irscope's fault: its offline stand-in has no driver.active.get_vendor_table)"),
])
def test_a_replay_whose_module_cannot_be_imported_says_whose_fault_it_is(tmp_path: Path, top: str, said: str) -> None:
    # The kernel reads a value only its module's code computes (int('nine') is run from the extracted text), and
    # importing the module fails: the one line says
    # whether the module needs a package not installed here, the program's code raised, or irscope's stand-in lacks
    # the piece the code asked for.
    import importlib

    from irscope.compile.function import ensure_driver
    from irscope.compile.replay import load_replayed
    from irscope.errors import UsageError
    from irscope.model.targets import resolve_target

    ensure_driver(resolve_target("sm90"))
    package = tmp_path / "faulty_kernels"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    path = package / "ops.py"
    path.write_text("import triton\nimport triton.language as tl\n\n\n" + top + "\n\n@triton.jit\n"
                    "def value_kernel(x_ptr):\n    tl.store(x_ptr, VALUE)\n", encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(UsageError) as refused:
            load_replayed(path, "value_kernel", "faulty_kernels.ops", str(path))
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("faulty_kernels")]:
            del sys.modules[name]
        importlib.invalidate_caches()
    line = str(refused.value)
    assert "\n" not in line
    assert "faulty_kernels.ops failed too: " in line or line.startswith("the recorded source of value_kernel cannot be"
                                                                        " compiled here: ValueError"), line
    assert line.endswith(said.format(path=path)), line
