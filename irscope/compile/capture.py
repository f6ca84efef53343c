"""Compile a kernel with Triton's cache and dump directories redirected into a store entry."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from irscope.compile.job import CaptureJob
from irscope.compile.replay import job_replay
from irscope.compile.specialize import CompileJob
from irscope.errors import CompileError
from irscope.model.kernels import KernelInfo
from irscope.model.kernelspec import FunctionKernel, RecordedKernel
from irscope.model.stages import STAGES
from irscope.model.targets import Target
from irscope.store.manifest import new_manifest
from irscope.store.store import Capture, Store, triton_version

_EXT_TO_STAGE = {s.ext: s.name for s in STAGES}


@contextlib.contextmanager
def redirected_triton(root: Path, kernel_dump: bool = True) -> Iterator[tuple[Path, Path]]:
    """Point TRITON_CACHE_DIR / TRITON_DUMP_DIR / TRITON_HOME into ``root`` and force a real compile.

    ``kernel_dump`` False leaves TRITON_KERNEL_DUMP unset: NVIDIA captures skip Triton's SASS dump
    (their SASS is made from the cubin when read, ``irscope.toolchain.sass_lazy``); AMD's LLIR differs with it.
    """
    cache, dump = root / "triton-cache", root / "triton-dump"
    changes = {
        "TRITON_CACHE_DIR": str(cache),
        "TRITON_DUMP_DIR": str(dump),
        "TRITON_HOME": str(root),
        "TRITON_KERNEL_DUMP": "1" if kernel_dump else "0",
        "TRITON_ALWAYS_COMPILE": "1",
    }
    root.mkdir(parents=True, exist_ok=True)
    saved = {k: os.environ.get(k) for k in changes}
    os.environ.update(changes)
    try:
        with quiet_triton(root / "compile.log"):
            yield cache, dump
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def quiet_triton(log: Path) -> Iterator[None]:
    """Send what Triton and its tools print (nvdisasm notes, MLIR output) to ``log``, not the terminal.

    Triton 3.9 also warns once that TRITON_DEFAULT_FP_FUSION is unset; irscope compiles with the
    same default the JIT uses, so that warning is dropped.
    """
    import sys

    sys.stderr.flush()
    saved_fd = os.dup(2)
    start = log.stat().st_size if log.exists() else 0
    with open(log, "ab") as sink, warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*TRITON_DEFAULT_FP_FUSION.*")
        os.dup2(sink.fileno(), 2)
        _LOGS.append((log, start))
        try:
            yield
        finally:
            _LOGS.pop()
            sys.stderr.flush()
            os.dup2(saved_fd, 2)
            os.close(saved_fd)


_LOGS: list[tuple[Path, int]] = []  # the logs quiet_triton is writing now, innermost last, with where each began


# Example: loc("k.py":12:5): error: 'ttg.convert_layout' op ...     /     error: layout has 4 warps, the module 8
_MLIR_ERROR = re.compile(r"(?:^|:\s)error:\s*(?P<what>.+)$")


def mlir_errors(log: Path, start: int = 0, most: int = 3) -> list[str]:
    """The first ``error:`` diagnostics MLIR printed into ``log`` after byte ``start`` (a failed compile's reason)."""
    try:
        with open(log, "rb") as f:
            f.seek(start)
            text = f.read(1 << 20).decode("utf-8", errors="replace")
    except OSError:
        return []
    found = [m["what"].strip() for line in text.splitlines() if (m := _MLIR_ERROR.search(line))]
    return list(dict.fromkeys(found))[:most]


def compile_job(job: CompileJob) -> tuple[Any, float, dict[str, float]]:
    """Run ``triton.compile``; return the CompiledKernel, wall seconds and seconds per stage."""
    import triton
    from triton import knobs

    times: dict[str, float] = {}

    def listener(*, src: Any, metadata: Any, metadata_group: Any, times: Any = None, cache_hit: bool = False,
                 **_: Any) -> None:
        if times is not None:
            stage_times["ir_init"] = times.ir_initialization / 1e6
            for name, micros in times.lowering_stages:
                stage_times[name] = micros / 1e6

    stage_times = times
    saved = knobs.compilation.listener
    knobs.compilation.listener = listener
    start = time.perf_counter()
    try:
        kernel = triton.compile(job.source(), target=job.gpu_target, options=job.options)
    except Exception as exc:
        if _LOGS:  # MLIR's own words: a bare "error encountered during parsing" leaves the reason in the log
            import sys

            sys.stderr.flush()
            for said in mlir_errors(*_LOGS[-1]):
                exc.add_note(said)
        raise CompileError(compile_message(exc, job.fn)) from exc
    finally:
        knobs.compilation.listener = saved
    return kernel, time.perf_counter() - start, times


# Example: "at 3:12:" (line and column relative to the kernel's ``def`` line, in CompilationError)
_REL_POS = re.compile(r"^at (\d+):(\d+):", re.M)


def _def_line(filename: str, first: int) -> int:
    """The line of the ``def`` at or after ``first`` (Triton counts kernel lines from the def, not the decorator)."""
    try:
        lines = Path(filename).read_text(encoding="utf-8").splitlines()
    except OSError:
        return first
    for number in range(first, min(len(lines), first + 50) + 1):
        if lines[number - 1].lstrip().startswith("def "):
            return number
    return first


def compile_message(exc: BaseException, fn: Any = None) -> str:
    """Triton's own words for a failed compile, kept whole, led by the kernel's file:line."""
    text = str(exc).strip() or type(exc).__name__
    notes = [n for n in getattr(exc, "__notes__", ()) if n not in text]
    if notes:  # what MLIR printed (quiet_triton): the reason a bare "error encountered during parsing" leaves out
        text += "\n" + "; ".join(f"MLIR: {n}" for n in notes) if _REL_POS.search(text) else "; " + "; ".join(
            f"MLIR: {n}" for n in notes)
    cause = exc.__cause__ or exc.__context__
    if cause is not None and (not str(cause).strip() or str(cause).strip() not in text):
        # Triton's CompilationError shows where; the error that stopped it is its cause.
        said = str(cause).strip()
        text += f"\n{type(cause).__name__}: {said}" if said else f"\n{type(cause).__name__} (Triton gave no message)"
    where = ""
    match = _REL_POS.search(text)
    first = getattr(fn, "starting_line_number", None)
    path = getattr(getattr(fn, "fn", None), "__code__", None)
    if match and isinstance(first, int) and path is not None:
        where = f"{path.co_filename}:{_def_line(path.co_filename, first) + int(match.group(1)) - 1}: "
    head = f"{where}Triton could not compile {getattr(fn, '__name__', 'the kernel')} ({type(exc).__name__}): "
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if match is None:  # no source excerpt: the reason is the whole message, on the first line
        return head + "; ".join(ln.strip() for ln in lines)
    # The reason first (Triton writes it last, under the excerpt), then the excerpt with its caret.
    return head + lines[-1].strip() + "\n" + "\n".join(text.splitlines()[:-1]).rstrip()


def _collect(cache: Path, dump: Path, dest: Path) -> dict[str, str]:
    """Move Triton's artifacts into ``dest``; return stage/artifact name -> file name."""
    files: dict[str, str] = {}
    for src_dir in (cache, dump):
        for path in sorted(src_dir.rglob("*")):
            if not path.is_file() or path.name.startswith("__grp__") or ".tmp." in path.name:
                continue
            target = dest / path.name
            if target.exists():
                continue
            shutil.move(str(path), target)
            ext = path.suffix.lstrip(".")
            files[_EXT_TO_STAGE.get(ext, ext)] = path.name
    shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(dump, ignore_errors=True)
    return files


def job_for(kernel: KernelInfo | FunctionKernel | RecordedKernel, target: Target, config_index: int,
            sizes: dict[str, int]) -> tuple[CompileJob, dict[str, Any]]:
    """The compile job and the config values, for any kind of kernel that can be compiled."""
    from irscope.compile.function import ensure_driver

    ensure_driver(target)  # the kernel's own target checks must see the target compiled for
    return CaptureJob(kernel=kernel, target=target, config_index=config_index, sizes=sizes).triton_job()


def defining_file(kernel: KernelInfo | FunctionKernel | RecordedKernel, job: CompileJob) -> tuple[Path, str]:
    """The file that defines the compiled function and its name there: the file the IR's positions name.

    Usually the kernel's own path (found from source without importing it); for FILE:FUNCTION kernels
    the code object has the last word, for kernels bound in ways the source reader does not follow.
    """
    return kernel.defining_file(job.fn)


def capture(kernel: KernelInfo | FunctionKernel | RecordedKernel, target: Target, config_index: int, store: Store,
            sizes: dict[str, int] | None = None, force: bool = False) -> Capture:
    """The capture of ``kernel`` for ``target`` with config ``config_index``, compiling it on a miss."""
    sizes = dict(sizes if sizes is not None else kernel.default_sizes())
    key = CaptureJob(kernel=kernel, target=target, config_index=config_index, sizes=sizes).key()
    if not force and (hit := store.get(key)) is not None:
        return hit
    version = triton_version()
    staging = store.new_staging(key)
    try:
        with redirected_triton(staging, kernel_dump=target.backend != "cuda") as (cache, dump):
            job, config = job_for(kernel, target, config_index, sizes)
            compiled, seconds, stage_seconds = compile_job(job)
        files = _collect(cache, dump, staging)
        source, function = defining_file(kernel, job)
        # The text the compile read (a recorded kernel's stored copy, whose locations name its recorded file).
        (staging / "source.py").write_bytes(kernel.source_file(str(source)).read_bytes())
        files["source"] = "source.py"
        if (staging / "compile.log").stat().st_size:
            files["log"] = "compile.log"
        for stray in ("triton-cache", "triton-dump", ".triton"):
            shutil.rmtree(staging / stray, ignore_errors=True)
        constexprs, attrs = job.described()
        meta = compiled.metadata._asdict() if hasattr(compiled.metadata, "_asdict") else dict(compiled.metadata)
        manifest = new_manifest(
            key=key,
            kernel=kernel.name,
            kernel_path=str(source),
            function=function,
            config_index=config_index,
            config=config,
            sizes=sizes,
            dtype=kernel.dtype,
            target=target,
            triton_version=version,
            signature=job.signature,
            constexprs=constexprs,
            attrs=attrs,
            options=job.options,
            metadata=meta,
            compile_seconds=seconds,
            stage_seconds=stage_seconds,
            files=files,
            origin=kernel.origin,
            arguments=kernel.describe_arguments(),
            replay=job_replay(job),
            settings=getattr(kernel, "settings", {}),
        )
        return store.commit(staging, manifest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
