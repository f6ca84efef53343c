"""A program's failure that irscope's hook or stand-in caused is reported as irscope's (issue 26 item 4)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from irscope.compile.program_fault import failure_clause
from irscope.compile.standin_faults import FATAL, MISSING, PACKAGE, STACKS, StandInHasNo, blame
from irscope.store.store import Store
from tests.conftest import DATA
from tests.test_program_capture import irscope


@pytest.mark.compile
def test_a_program_that_needs_what_the_stand_in_cannot_do_is_told_so_and_keeps_its_captures(tmp_path: Path) -> None:
    """Launching a CompiledKernel itself (as Triton's own tests do) needs the driver's launcher: offline there is
    none. The one line says the stand-in could not answer, names the piece, and the kernel compiled before stays."""
    proc = irscope("capture", "--target", "sm90", "--", sys.executable,
                   str(DATA / "programs" / "compiled_kernel_launch.py"), store=tmp_path)
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last == ("irscope: the program failed (exit status 1) because irscope's offline stand-in cannot answer "
                    "driver.active.launcher_cls (it launches on the GPU, and offline nothing runs), not the "
                    "program's fault; the 1 kernel(s) compiled before it stopped were kept; no program record was "
                    "written (the store holds no program yet)")
    (capture,) = Store(tmp_path).captures()
    assert capture.manifest.kernel == "scale_kernel" and "tt.store" in capture.read("ttgir")


def test_an_attribute_the_stand_in_lacks_is_named_as_the_cause(tmp_path: Path) -> None:
    def lacking() -> None:
        raise StandInHasNo("driver.active.get_empty_cache_for_benchmark")

    try:
        try:
            lacking()
        except AttributeError as exc:
            raise RuntimeError("the program's own wrapper") from exc  # a library re-raising it
    except RuntimeError as exc:
        record = blame(exc)
    assert (record["cause"], record["missing"]) == ("irscope", "driver.active.get_empty_cache_for_benchmark")
    _write(tmp_path / FATAL, record)
    assert failure_clause(tmp_path, 1) == ("the program failed (exit status 1) because irscope's offline stand-in has "
                                           "no driver.active.get_empty_cache_for_benchmark, not the program's fault")


def test_an_exception_raised_in_irscopes_code_is_irscopes_and_one_raised_in_the_programs_is_not(tmp_path: Path) -> None:
    from irscope.compile.torch_standin import DeviceProperties

    try:
        DeviceProperties(None)  # type: ignore[arg-type]
    except AttributeError as exc:
        ours = blame(exc)
    assert ours["cause"] == "irscope" and ours["where"].startswith("irscope/compile/torch_standin.py:")
    try:
        {}["missing"]
    except KeyError as exc:
        theirs = blame(exc)
    assert theirs == {"cause": "program", "missing": "", "where": "", "error": "KeyError: 'missing'"}
    _write(tmp_path / FATAL, theirs)
    _write(tmp_path / MISSING, {"missing": "driver.active._obj", "why": ""})  # a probe the program survived
    assert failure_clause(tmp_path, 1) == "the program failed (exit status 1)"


def test_a_fatal_signal_inside_irscopes_code_names_the_frame(tmp_path: Path) -> None:
    """A C++ abort (as autograd's, asking a CPU-only torch for a CUDA stream) under irscope's offline Inductor
    compile: Python's own fatal-signal dump of the thread names irscope's frame."""
    where = PACKAGE / "compile" / "inductor_offline.py"
    program = textwrap.dedent(f"""
        import faulthandler, os
        faulthandler.enable(file=open({str(tmp_path / STACKS)!r}, "w"), all_threads=True)
        code = compile("def _compile_for_target():\\n    os.abort()\\n", {str(where)!r}, "exec")
        scope = {{"os": os}}
        exec(code, scope)
        scope["_compile_for_target"]()
    """)
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, env=dict(os.environ), timeout=60)
    assert proc.returncode < 0
    assert failure_clause(tmp_path, proc.returncode) == (
        "the program was killed by SIGABRT inside irscope's irscope/compile/inductor_offline.py:2 in "
        "_compile_for_target (irscope's offline stand-in, most likely, not the program)")


def _write(folder: Path, record: dict[str, object]) -> None:
    import json

    folder.mkdir(parents=True, exist_ok=True)
    n = len(list(folder.glob("*.json")))
    (folder / f"0-{n:05d}.json").write_text(json.dumps(record), encoding="utf-8")


def test_a_not_captured_line_says_whose_fault_when_the_record_does() -> None:
    from irscope.compile.program import failure_line

    record = {"name": "attn_fwd", "error": "Traceback ...\nAttributeError: no get_empty_cache_for_benchmark",
              "cause": "irscope", "missing": "driver.active.get_empty_cache_for_benchmark"}
    assert failure_line(record) == ("attn_fwd: AttributeError: no get_empty_cache_for_benchmark (irscope's offline "
                                    "stand-in or hook lacked driver.active.get_empty_cache_for_benchmark, not the "
                                    "kernel's fault)")
    assert failure_line({"name": "k", "error": "CompilationError: bad", "cause": "triton"}) == \
        "k: CompilationError: bad (Triton rejected it)"
    assert failure_line({"name": "k", "error": "RuntimeError: x"}) == "k: RuntimeError: x"
