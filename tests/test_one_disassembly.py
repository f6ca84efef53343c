"""The SASS readers share one ``nvdisasm -c -gi -gp -hex`` run: what is cut from it is what ``nvdisasm -c -gi``,
``nvdisasm -c -gp`` and (laid out as Triton's ``.sass``) ``cuobjdump -sass`` print, byte for byte, on real cubins:
the tutorials' matmul on sm90, the TMA matmul on sm100 (an indirect branch, calls into the guard-rail
subroutines), softmax on sm80, a ``noinline`` call, and Inductor's kernels of the committed training step."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from irscope.analysis.sourcemap import sass_listing
from irscope.cli import cli
from irscope.store.archive import open_archive
from irscope.store.store import Capture, Store
from irscope.toolchain import nvtools, sass_lazy
from irscope.toolchain.nvdisasm_split import ARGS, split_listing
from irscope.toolchain.sass_lazy import format_cuobjdump, format_nvdisasm, sass_from_cubin
from irscope.toolchain.stages import read_stage
from tests.conftest import DATA

pytestmark = pytest.mark.compile


def _tool(binary: str, *args: str, cubin: Path) -> str:
    tool = nvtools.tool_path(binary)
    assert tool is not None, f"{binary} ships with Triton"
    done = subprocess.run([str(tool), *args, str(cubin)], capture_output=True, text=True, check=True)
    return done.stdout


def _assert_one_run_is_three(cubin: Path) -> str:
    whole = _tool("nvdisasm", *ARGS, cubin=cubin)
    assert split_listing(whole, "source") == _tool("nvdisasm", "-c", "-gi", cubin=cubin)
    assert split_listing(whole, "ptx") == _tool("nvdisasm", "-c", "-gp", cubin=cubin)
    ours, theirs = format_nvdisasm(whole), format_cuobjdump(_tool("cuobjdump", "-sass", cubin=cubin).encode())
    assert not ours.problem and not theirs.problem
    assert ours.text == theirs.text
    return ours.text


def _cubin(capture: Capture) -> Path:
    return capture.path / capture.manifest.files["cubin"]


@pytest.mark.parametrize(("kernel", "target", "config", "seen"), [
    ("matmul", "sm90", 0, "HGMMA"),
    ("matmul_tma", "sm100", 2, "BRX"),
    ("softmax", "sm80", 0, "SHFL.BFLY"),
])
def test_the_bundled_kernels(captures: Any, kernel: str, target: str, config: int, seen: str) -> None:
    text = _assert_one_run_is_three(_cubin(captures(kernel, target, config)))
    assert seen in text


def test_a_noinline_call(tmp_path: Path) -> None:
    store = tmp_path / "store"
    result = CliRunner().invoke(cli, [
        "show", f"{DATA / 'kernels' / 'noinline_call.py'}:scaled_copy", "--target", "sm90", "--stage", "sass",
        "--args", "src=fp32[1024], dst=fp32[1024], n=1024, factor=2.0", "--constexpr", "BLOCK=256",
        "--store", str(store)])
    assert result.exit_code == 0, result.output
    (capture,) = Store(store).captures()
    text = _assert_one_run_is_three(_cubin(capture))
    assert "CALL.REL.NOINC 0x" in text and result.output.endswith(text)


def test_inductor_kernels_of_a_training_step(tmp_path: Path) -> None:
    added = open_archive(DATA / "program_report" / "captures.tar.gz", Store(tmp_path / "store")).added
    cubins = sorted((_cubin(c) for c in added if "cubin" in c.manifest.files), key=lambda p: p.stat().st_size)
    assert len(cubins) >= 6
    for cubin in cubins[:3] + cubins[-3:]:  # the smallest and the largest
        _assert_one_run_is_three(cubin)


def test_a_fresh_capture_disassembles_once(captures: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    capture = captures("matmul", "sm90")
    shutil.rmtree(capture.path / "derived", ignore_errors=True)
    sass_lazy._MEMO.clear()
    ran: list[str] = []
    real = nvtools.subprocess.run

    def counted(argv: list[str], *args: Any, **kwargs: Any) -> Any:
        ran.append(Path(argv[0]).name)
        return real(argv, *args, **kwargs)

    monkeypatch.setattr(nvtools.subprocess, "run", counted)
    sass = read_stage(capture, "sass")
    listing, why = sass_listing(capture)  # the source lines, and the PTX lines where inline asm moved them
    assert listing is not None and not why and any(i.frames for i in listing.instructions)
    assert nvtools.sass_with_ptx_lines(capture).ok
    assert ran == ["nvdisasm"]
    assert sass == format_cuobjdump(_tool("cuobjdump", "-sass", cubin=_cubin(capture)).encode()).text


def test_what_cannot_be_laid_out_falls_back_to_cuobjdump(captures: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    two = ".text.a:\n        /*0000*/   EXIT ;   /* 0x000000000000794d */\n   /* 0x000fea0003800000 */\n.text.b:\n"
    assert format_nvdisasm(two).problem == "nvdisasm listed 2 functions, not one"
    unknown = ".text.a:\n        /*0000*/   BRA `(.L_x_9) ;   /* 0x000000000000794d */\n   /* 0x000fea0003800000 */\n"
    assert "never defines" in format_nvdisasm(unknown).problem
    capture = captures("softmax", "sm80")
    shutil.rmtree(capture.path / "derived", ignore_errors=True)
    sass_lazy._MEMO.clear()
    monkeypatch.setattr(sass_lazy, "format_nvdisasm", lambda text: format_nvdisasm(two))
    cuobjdump = _tool("cuobjdump", "-sass", cubin=_cubin(capture))
    assert sass_from_cubin(capture) == format_cuobjdump(cuobjdump.encode()).text
    assert (capture.path / "derived" / "cuobjdump-sass.json").is_file()


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(" \t\n/*0x1f;:.`()$_LBRAFile\"#")), max_size=400))
def test_odd_text_never_crashes(text: str) -> None:
    for keep in ("source", "ptx"):
        split_listing(text, keep)
    format_nvdisasm(text)


def test_long_odd_lines_stay_linear() -> None:
    line = "        /*0000*/" + " " * 200_000 + "BRA `(" + "x" * 200_000
    start = time.perf_counter()
    split_listing(line + "\n" + line, "source")
    format_nvdisasm(line + "\n" + line)
    format_cuobjdump(("\t\tFunction : k\n\t.headerflags\n" + line + "\n" + line).encode())
    assert time.perf_counter() - start < 2.0
