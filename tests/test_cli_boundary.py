"""The CLI boundary: internal errors, OS errors, unbounded maps and the TUI without a terminal.

Hostile layouts are made by altering one alias of a TTGIR file Triton printed (tests/data/layouts),
so every other line is exactly what the compiler writes.
"""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from irscope.model.kernelspec import SIGNATURE_TYPES
from tests.conftest import invoke

DATA = Path(__file__).resolve().parent / "data" / "layouts"
REAL = (DATA / "matmul.sm80.ttgir").read_text()
BLOCKED1 = ("#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], "
            "order = [1, 0]}>")


def altered(tmp_path: Path, new_blocked1: str) -> str:
    """The real sm80 matmul TTGIR with #blocked1 replaced; the file's path."""
    assert BLOCKED1 in REAL
    path = tmp_path / "altered.ttgir"
    path.write_text(REAL.replace(BLOCKED1, f"#blocked1 = {new_blocked1}"))
    return str(path)


def one_error_line(result: object) -> str:
    """The single stderr line of a refusal (asserting there is exactly one and no traceback)."""
    err = result.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in err + result.stdout, err  # type: ignore[attr-defined]
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# -- the last-resort handler -------------------------------------------------------------------


def test_an_internal_error_is_one_line_and_a_crash_log(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from irscope.store.store import Store

    def broken(self: Store) -> list[object]:
        raise ZeroDivisionError("division by zero in the store walk")

    monkeypatch.setattr(Store, "captures", broken)
    result = invoke("list", "--store", str(tmp_path / "store"))
    assert result.exit_code == 70  # type: ignore[attr-defined]
    line = one_error_line(result)
    assert line.startswith("irscope: internal error: ZeroDivisionError: division by zero in the store "
                           "walk (traceback in ")
    assert line.endswith("; IRSCOPE_DEBUG=1 prints it)")
    log = Path(line.split("traceback in ", 1)[1].split(";", 1)[0])
    assert log.parent == tmp_path / "store" / "crash"
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and "in broken" in text and text.startswith("irscope ")

    monkeypatch.setenv("IRSCOPE_DEBUG", "1")
    debug = invoke("list", "--store", str(tmp_path / "store"))
    assert "Traceback (most recent call last)" in debug.stderr  # type: ignore[attr-defined]
    assert debug.stderr.strip().splitlines()[-1].startswith("irscope: internal error: ZeroDivisionError")  # type: ignore[attr-defined]


def test_an_unusable_store_puts_the_crash_log_in_the_temp_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from irscope.store.store import Store

    def broken(self: Store) -> list[object]:
        raise RuntimeError("boom")

    monkeypatch.setattr(Store, "captures", broken)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    result = invoke("list", "--store", "/proc/irscope-no-such-store")
    line = one_error_line(result)
    assert f"traceback in {tmp_path / 'tmp' / 'irscope-crash'}" in line


def test_an_os_error_is_one_line_with_the_path(tmp_path: Path) -> None:
    """Writing the map's image where the file system refuses: exit 1, the path and the reason."""
    result = invoke("layouts", "--file", str(DATA / "matmul.sm80.ttgir"), "--map", "blocked1", "--image",
                    "/proc/irscope-map.svg")
    assert result.exit_code == 1, result.output  # type: ignore[attr-defined]
    assert one_error_line(result) == "irscope: error: /proc/irscope-map.svg: No such file or directory"


# -- values that made no sense were accepted ----------------------------------------------------


@pytest.mark.parametrize(("args", "needle"), [
    (["show", ""], "KERNEL is empty"),
    (["show", "matmul", "--target", ""], "Invalid value for '--target' / '-t': is empty; valid: sm80"),
    (["layouts", "--file", str(DATA / "matmul.sm80.ttgir"), "--map", "blocked1", "--shape", ""],
     "--shape '' is not like 128x64"),
    (["layouts", "--file", str(DATA / "matmul.sm80.ttgir"), "--map", "mma", "--view", "hardware", "--warp", "999"],
     "--warp 999: #mma with shape 128x256 has 8 warp(s), 0..7"),
    (["diff", "matmul", "--from", "ttir", "--to", "ttgir", "-U", "-5"], "-5 is not in the range 0<=x<=100000"),
    (["show", "kernels/vector_add.py:add_kernel", "--signature", "*fp32:16, i32", "--num-stages", "-1"],
     "-1 is not in the range x>=0"),
    (["show", "kernels/vector_add.py:add_kernel", "--signature", "*fp32:16, i32", "--num-warps", "3"],
     "3 is not a power of two from 1 to 32"),
    (["show", "kernels/vector_add.py:add_kernel", "--signature", "*fp32:16, i32", "--num-warps", "0"],
     "0 is not a power of two from 1 to 32"),
    (["show", "kernels/vector_add.py:add_kernel", "--signature", "*f16:16, i32"],
     "unknown type 'f16'; valid: i1, i8, i16, i32, i64, u1, u8, u16, u32, u64, fp16, bf16, fp32, fp64"),
    (["graph", "matmul", "--out", "/no-such-dir/g.svg"], "the folder /no-such-dir does not exist"),
    (["export", "matmul", "-o", ""], "Invalid value for '--output' / '-o': is empty"),
    (["export", "matmul", "-o", "/tmp"], "/tmp is a directory; give a file name"),
    (["show", "matmul", "--store", "/proc/self/status"], "/proc/self/status is a file, not a directory"),
    (["facts", "matmul", "--engine", "bogus"], "'bogus' is not an engine; give local, dask"),
    (["html", "matmul", "-o", "/nonexistent/dir/m.html"], "the folder /nonexistent/dir does not exist"),
    (["list", "--store", str(DATA / "matmul.sm80.ttgir")], "matmul.sm80.ttgir is a file, not a directory"),
    (["--bogus", "list"], "No such option '--bogus' ('irscope --help' lists what is valid)"),
    (["show", "matmul", "--bogus"], "No such option '--bogus'. (Did you mean"),
    (["show"], "Missing argument 'KERNEL' ('irscope show --help' lists what is valid)"),
    (["show", "matmul", "extra"], "unexpected extra argument (extra) ('irscope show --help' lists what is valid)"),
    (["triton", "bogus"], "No such command 'bogus' ('irscope triton --help' lists what is valid)"),
])
def test_meaningless_values_are_usage_errors(args: list[str], needle: str) -> None:
    """A bad option value, an unknown option, a missing or extra argument: exit 2 and one line saying what is valid."""
    repo = Path(__file__).resolve().parent.parent
    cwd = os.getcwd()
    os.chdir(repo)
    try:
        result = invoke(*args)
    finally:
        os.chdir(cwd)
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    assert needle in result.stderr, result.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in result.output  # type: ignore[attr-defined]
    assert one_error_line(result).startswith("irscope: error: ")


def test_signature_types_are_the_ones_triton_reads() -> None:
    """Every type irscope accepts in --signature is one Triton's own signature parser knows."""
    language = pytest.importorskip("triton.language")
    for name in SIGNATURE_TYPES:
        language.str_to_ty(name, None)
        language.str_to_ty("*" + name, None)
        language.str_to_ty("*k" + name, None)
    with pytest.raises(KeyError):
        language.str_to_ty("f16", None)


def test_num_warps_rule_is_tritons() -> None:
    """Triton's CUDA options assert a power of two, the rule --num-warps applies before compiling."""
    compiler = pytest.importorskip("triton.backends.nvidia.compiler")
    compiler.CUDAOptions(num_warps=4)
    for bad in (0, 3):
        with pytest.raises(AssertionError, match="power of 2"):
            compiler.CUDAOptions(num_warps=bad)


def test_a_kernel_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    kernel = tmp_path / "k.py"
    kernel.write_bytes((Path(__file__).resolve().parent.parent / "kernels" / "vector_add.py").read_bytes()
                       + b"\n# caf\xe9\n")
    result = invoke("show", str(kernel))
    assert result.exit_code == 2  # type: ignore[attr-defined]
    assert one_error_line(result) == f"irscope: error: kernel file {kernel} is not UTF-8 text (byte " \
        f"{kernel.read_bytes().index(bytes([0xE9]))}); save it as UTF-8"


def test_a_ttgir_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "m.ttgir"
    path.write_bytes(REAL.encode() + b"// caf\xe9\n")
    result = invoke("layouts", "--file", str(path))
    assert result.exit_code == 2  # type: ignore[attr-defined]
    assert one_error_line(result).startswith(f"irscope: error: TTGIR file {path} is not UTF-8 text (byte ")


def test_a_kernel_name_too_long_for_a_file_name() -> None:
    result = invoke("show", "k" * 5000 + ".py")
    assert result.exit_code == 2  # type: ignore[attr-defined]
    line = one_error_line(result)
    assert "(5003 characters) cannot be opened: File name too long" in line and len(line) < 300


# -- unbounded work ----------------------------------------------------------------------------


@pytest.mark.parametrize(("layout", "needle"), [
    ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 1099511627776], warpsPerCTA = [8, 1], "
     "order = [1, 0]}>",
     "threadsPerWarp holds 1099511627776, outside 0..4294967295"),
    ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [5]}>",
     "must have one rank (sizePerThread 2, threadsPerWarp 2, warpsPerCTA 2, order 1)"),
    ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 5]}>",
     "order = [1, 5] is not a permutation of 0..1"),
    ("#ttg.blocked<{sizePerThread = [1, 8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>",
     "(sizePerThread 3, threadsPerWarp 2, warpsPerCTA 2, order 2)"),
    ("#ttg.blocked<{sizePerThread = [1, 6], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>",
     "sizePerThread = [1, 6]: every element must be a power of two"),
    ("#ttg.linear<{register = [[0, 1], [0, 100000000000000000000]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], "
     "warp = [[4, 0], [8, 0], [16, 0]], block = []}>", "register holds 100000000000000000000, outside 0..2147483647"),
    ("#ttg.linear<{register = [[0, 1], [0, 2], [1, 4]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], "
     "warp = [[4, 0], [8, 0], [16, 0]], block = []}>", "register basis [1, 4] moves along more than one dim"),
    ("#ttg.linear<{register = [[0, 1], [0, 2], [0, 4]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], "
     "warp = [[4, 0], [8, 0], [16, 0], [0, 0]], block = []}>",
     "warp has 4 bases, which is 16 warps per CTA; the module has 8 (ttg.num-warps)"),
    ("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 3}>", "kWidth = 3: must be a power of two"),
    ("#ttg.dot_op<{opIdx = 2, parent = #mma, kWidth = 2}>", "opIdx = 2: must be 0 or 1"),
    ("#ttg.slice<{dim = 2, parent = #blocked}>", "dim = 2: the parent layout has rank 2, so dim must be in 0..1"),
])
def test_layouts_triton_would_reject_are_one_problem_line(tmp_path: Path, layout: str, needle: str) -> None:
    """Reported as a problem naming the field; the report still prints; --map refuses in one line."""
    path = altered(tmp_path, layout)
    report = invoke("layouts", "--file", path)
    assert report.exit_code == 0, report.output  # type: ignore[attr-defined]
    text = " ".join(report.stdout.split())  # type: ignore[attr-defined]
    assert "problem: #blocked1: invalid ttg." in text and needle in text
    drawn = invoke("layouts", "--file", path, "--map", "blocked1", "--shape", "64x64")
    assert drawn.exit_code == 2  # type: ignore[attr-defined]
    line = one_error_line(drawn)
    assert line.startswith("irscope: error: #blocked1 cannot be mapped: invalid: ") and needle in line


@pytest.mark.parametrize(("layout", "slots"), [
    ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [2147483648, 1], order = [1, 0]}>",
     "2^39 hardware slots (8 registers x 32 lanes x 2147483648 warps)"),
    ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 1073741824], warpsPerCTA = [8, 1], order = [1, 0]}>",
     "2^39 hardware slots (16 registers x 4294967296 lanes x 8 warps)"),
])
def test_huge_but_valid_layouts_are_refused_before_anything_is_enumerated(tmp_path: Path, layout: str,
                                                                         slots: str) -> None:
    """Valid for Triton's verifier, far too big to draw: one line within seconds, not a hang."""
    path = altered(tmp_path, layout)
    start = time.perf_counter()
    result = invoke("layouts", "--file", path, "--map", "blocked1", "--shape", "64x64")
    assert time.perf_counter() - start < 10
    assert result.exit_code == 2  # type: ignore[attr-defined]
    assert one_error_line(result) == (f"irscope: error: #blocked1 with shape 64x64: it spreads over {slots}; maps "
                                      "draw at most 1048576")


def test_a_huge_shape_is_refused_and_max_elements_raises_the_bound() -> None:
    real = str(DATA / "matmul.sm80.ttgir")
    refused = invoke("layouts", "--file", real, "--map", "mma", "--shape", "16384x16384")
    assert refused.exit_code == 2  # type: ignore[attr-defined]
    assert one_error_line(refused) == ("irscope: error: #mma with shape 16384x16384 has 268435456 elements; maps draw "
                                       "at most 1048576 (give a smaller --shape, or raise --max-elements)")
    assert invoke("layouts", "--file", real, "--map", "mma", "--shape", "2048x1024").exit_code == 2  # type: ignore[attr-defined]
    drawn = invoke("layouts", "--file", real, "--map", "mma", "--shape", "2048x1024", "--max-elements", str(1 << 21))
    assert drawn.exit_code == 0, drawn.output  # type: ignore[attr-defined]
    assert "#mma, 2048x1024, tensor view" in drawn.stdout  # type: ignore[attr-defined]


# -- the TUI -----------------------------------------------------------------------------------


def test_tui_without_a_terminal_exits_2_at_once(tmp_path: Path) -> None:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "irscope", "tui", "vector_add", "--store", str(tmp_path)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False)
    assert time.perf_counter() - start < 30
    assert done.returncode == 2
    assert done.stderr.strip() == ("irscope: error: irscope tui needs a terminal (stdin and stdout are not one); for "
                                   "text use irscope show, layouts, passes or diff")


def _run_in_terminal(args: list[str], env: dict[str, str], timeout: float) -> tuple[int, str]:
    """Run a command on a pseudo-terminal; its exit status and everything it wrote."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the command
        os.execvpe(args[0], args, env)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    status = None
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            chunks.append(data)
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(code)
            break
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        status = -9
    os.close(fd)
    return status, b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.compile
def test_tui_crash_at_start_up_is_one_line_and_a_non_zero_status(captures: object, tmp_path: Path) -> None:
    """A crash inside the app printed Textual's traceback and exited 0; now the screen closes, one line names
    the crash log, status 70. (A damaged manifest no longer crashes it at all: see the next test.) The crash
    is planted by the test, in the child process only, on the main screen's mount."""
    capture = captures("vector_add", "sm90")  # type: ignore[operator]
    store = tmp_path / "store"
    shutil.copytree(capture.path, store / "captures" / capture.path.name)
    env = {**os.environ, "IRSCOPE_HOME": str(store), "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    env.pop("IRSCOPE_DEBUG", None)
    plant = ("import sys\nfrom irscope.tui.screens.main import MainScreen\n"
             "def boom(self):\n    raise TypeError('planted by the test')\n"
             "MainScreen.on_mount = boom\nfrom irscope.cli import cli\n"
             "cli(prog_name='irscope', args=sys.argv[1:])\n")
    status, output = _run_in_terminal([sys.executable, "-c", plant, "tui", "vector_add", "--target", "sm90",
                                       "--no-passes"], env, timeout=60)
    assert status == 70, output[-2000:]
    assert "Traceback" not in output
    assert "irscope: internal error: TypeError: planted by the test" in output
    logs = list((store / "crash").glob("*.log"))
    assert len(logs) == 1 and "Traceback (most recent call last)" in logs[0].read_text()


@pytest.mark.compile
def test_tui_starts_on_a_store_with_a_damaged_manifest(captures: object, tmp_path: Path) -> None:
    """A manifest listing its files wrongly crashed the TUI at start-up (exit 0); now that capture is
    unreadable, so it is compiled again and the app opens on it."""
    import asyncio

    from irscope.tui.app import make_app

    capture = captures("vector_add", "sm90")  # type: ignore[operator]
    store = tmp_path / "store"
    shutil.copytree(capture.path, store / "captures" / capture.path.name)
    manifest = store / "captures" / capture.path.name / "manifest.json"
    data = json.loads(manifest.read_text())
    data["files"] = 12345
    manifest.write_text(json.dumps(data))

    async def drive() -> None:
        app = make_app(kernel="vector_add", target="sm90", store_dir=str(store), record_passes=False)
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(100):
                await pilot.pause(0.1)
                try:
                    if json.loads(manifest.read_text()).get("files") != 12345:
                        break
                except FileNotFoundError:
                    continue  # the damaged capture's directory is being swapped for the recompiled one
            assert app.crash is None

    asyncio.run(drive())
    assert isinstance(json.loads(manifest.read_text())["files"], dict)  # compiled again: the entry healed


def test_an_archive_error_is_one_line(tmp_path: Path) -> None:
    """tarfile's reasons per compression method arrive on several lines; the CLI prints them on one."""
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(b"x")
    result = invoke("open", str(junk), "--store", str(tmp_path / "store"))
    assert result.exit_code == 1  # type: ignore[attr-defined]  # a bad archive, not a bad command line
    line = one_error_line(result)
    assert line.startswith(f"irscope: error: {junk}: not a readable capture archive")


def test_tui_refuses_an_unusable_store_before_the_screen_opens() -> None:
    """It used to open and show each background compile failing with 'NotADirectoryError'."""
    env = {**os.environ, "TERM": "xterm-256color"}
    status, output = _run_in_terminal([sys.executable, "-m", "irscope", "tui", "vector_add", "--store",
                                       "/proc/irscope-no-such/store"], env, timeout=60)
    assert status == 1, output[-2000:]
    assert output.strip().splitlines()[-1].strip() == ("irscope: error: the store /proc/irscope-no-such/store cannot "
                                                       "be created: No such file or directory")
