"""The child process of per-pass captures and timing runs: ``python -m irscope.compile.worker SPEC``.

Triton opens ``MLIR_DUMP_PATH`` once per process as a static, buffered stream that is flushed only
at exit, so a dump file cannot be split by stage from inside the compiling process. Without that
variable MLIR prints to stderr unbuffered, in order with what this worker writes there. So each
capture runs here, in its own process with stderr piped to the parent, and the worker writes
marker lines (``// -----// irscope stage-begin ttgir``) around every compile stage and prints the
IR each stage hands to the next. SPEC is JSON naming the mode and a pickle of the request (kernel, target, config,
sizes).
"""

from __future__ import annotations

import json
import os
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

MARK = "// -----// irscope"
# LLVM's dbgs(), buffered (see irscope.compile.dbgstream), while a per-pass compile prints its dump.
_STREAM: list[Any] = []


def emit(text: str) -> None:
    """Write to fd 2 directly, after anything Python buffered, so markers stay in order with MLIR's output."""
    data = text.encode("utf-8", errors="replace")
    if _STREAM:
        _STREAM[0].write(data)
        _STREAM[0].flush()
        return
    sys.stderr.flush()
    while data:
        written = os.write(2, data)
        data = data[written:]


def buffer_dump() -> Callable[[], None]:
    """Buffer what LLVM and MLIR print (and this process's stderr) through one stream; return the undo."""
    from triton._C import libtriton

    from irscope.compile.dbgstream import TextToStream, buffered_dbgs

    stream = buffered_dbgs(str(libtriton.__file__))
    if stream is None:
        return lambda: None
    sys.stderr.flush()
    saved = sys.stderr
    sys.stderr = TextToStream(stream)
    _STREAM.append(stream)

    def undo() -> None:
        _STREAM.clear()
        stream.close()
        sys.stderr = saved

    return undo


class Clock:
    """Seconds since the current compile started, for timing markers."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def now(self) -> str:
        """The elapsed time as a marker value."""
        return f"{time.perf_counter() - self.start:.6f}"


def _wrap_stage(ext: str, fn: Callable[[Any, Any], Any], state: dict[str, Any]) -> Callable[[Any, Any], Any]:
    """A stage function that reports where it begins and ends and prints the IR it hands on."""

    def run(src: Any, metadata: Any) -> Any:
        state["stage"] = ext
        emit(f"\n{MARK} stage-begin {ext} t={state['clock'].now()}\n")
        start = time.perf_counter()
        out = fn(src, metadata)
        seconds = time.perf_counter() - start
        if state["print_ir"] and ext in ("ttir", "ttgir"):
            emit(f"\n{MARK} mlir-output {ext}\n{out}\n")
        if state["print_llvm"] and isinstance(out, str) and ext == "llir":
            emit(f"\n{MARK} stage-output {ext}\n{out}\n")
        emit(f"\n{MARK} stage-end {ext} seconds={seconds:.6f} t={state['clock'].now()}\n")
        state["stage"] = ""
        return out

    return run


def install_hooks(target: Any, state: dict[str, Any]) -> None:
    """Wrap the backend's stages and LLVM's translation entry points for this process only."""
    from triton._C.libtriton import llvm
    from triton.compiler import make_backend

    backend_cls = type(make_backend(target))
    original_add_stages = backend_cls.add_stages

    def add_stages(self: Any, stages: dict[str, Any], options: Any, language: Any) -> None:
        original_add_stages(self, stages, options, language)
        for ext in list(stages):
            stages[ext] = _wrap_stage(ext, stages[ext], state)

    backend_cls.add_stages = add_stages
    to_module = llvm.to_module
    optimize_module = llvm.optimize_module

    def to_module_hook(mod: Any, context: Any, *args: Any, **kwargs: Any) -> Any:
        stage = state["stage"] or "llir"
        emit(f"\n{MARK} translate-begin {stage} t={state['clock'].now()}\n")
        if state["print_ir"]:
            emit(f"\n{MARK} mlir-output {stage}\n{mod}\n")
        return to_module(mod, context, *args, **kwargs)

    def optimize_hook(llvm_mod: Any, *args: Any, **kwargs: Any) -> Any:
        stage = state["stage"] or "llir"
        if state["print_llvm"]:
            emit(f"\n{MARK} llvm-input {stage}\n{llvm_mod}\n")
        emit(f"\n{MARK} optimize-begin {stage} t={state['clock'].now()}\n")
        out = optimize_module(llvm_mod, *args, **kwargs)
        emit(f"\n{MARK} optimize-end {stage} t={state['clock'].now()}\n")
        return out

    llvm.to_module = to_module_hook
    llvm.optimize_module = optimize_hook


def run(spec: dict[str, Any]) -> dict[str, Any]:
    """Compile as the spec says; return what the parent needs to know."""
    import pickle

    from irscope.compile.specialize import gpu_target

    with open(spec["request"], "rb") as f:
        kernel, target, config_index, sizes = pickle.load(f)
    state: dict[str, Any] = {"stage": "", "clock": Clock(), "print_ir": spec["mode"] == "passes",
                             "print_llvm": bool(spec.get("llvm"))}
    install_hooks(gpu_target(target), state)
    undo = buffer_dump() if spec["mode"] == "passes" and spec.get("buffer", True) else (lambda: None)
    try:
        return _compile_runs(spec, kernel, target, config_index, sizes, state)
    finally:
        undo()


def _compile_runs(spec: dict[str, Any], kernel: Any, target: Any, config_index: int, sizes: dict[str, int],
                  state: dict[str, Any]) -> dict[str, Any]:
    """Compile ``repeat`` times, with markers around each compile."""
    import triton

    from irscope.compile.capture import compile_message, job_for
    from irscope.compile.recorded_ir import recorded_ir_job

    recorded = spec.get("recorded_ir") or {}
    job: Any
    ir_only = bool((getattr(kernel, "replay", None) or {}).get("ir_only"))
    # an opened dump folder does not say which Triton wrote it: its module is compiled by the one chosen
    if recorded and recorded.get("triton_version") in ((triton.__version__, "") if ir_only else (triton.__version__,)):
        # A kernel recorded from a program: compile the IR Triton generated then, not the program's Python.
        job = recorded_ir_job(kernel, target, recorded["path"])
    elif ir_only:  # opened artifacts: their module, or nothing
        made = recorded.get("triton_version")
        return {"ok": False, "error": f"its recorded module is Triton {made}'s IR, not Triton {triton.__version__}'s: "
                f"compile it with that Triton (irscope triton install {made}, then --triton {made})",
                "seconds": [], "triton_version": triton.__version__}
    else:
        job = job_for(kernel, target, config_index, sizes)[0]
    runs: list[float] = []
    for i in range(max(1, int(spec.get("repeat", 1)))):
        state["clock"] = Clock()
        emit(f"\n{MARK} compile-begin run={i}\n")
        start = time.perf_counter()
        try:
            triton.compile(job.source(), target=job.gpu_target, options=job.options)
        except Exception as exc:  # Triton raises many kinds; the parent gets its message
            emit(f"\n{MARK} compile-failed run={i}\n")
            return {"ok": False, "error": compile_message(exc), "seconds": runs, "triton_version": triton.__version__}
        runs.append(time.perf_counter() - start)
        emit(f"\n{MARK} compile-end run={i} seconds={runs[-1]:.6f}\n")
    emit(f"\n{MARK} dump-end\n")
    return {"ok": True, "error": "", "seconds": runs, "triton_version": triton.__version__}


def main() -> int:
    """Entry point: read the spec, compile, print the result as one JSON line on stdout."""
    from irscope.errors import IrscopeError

    spec = json.loads(sys.argv[1])
    warnings.filterwarnings("ignore", message=".*TRITON_DEFAULT_FP_FUSION.*")
    try:
        result = run(spec)
    except IrscopeError as exc:
        result = {"ok": False, "error": str(exc), "seconds": [], "triton_version": ""}
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0 if result["ok"] else 3


if __name__ == "__main__":
    sys.exit(main())
