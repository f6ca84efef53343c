"""Record the IR around every pass of a capture's compile, in a compile of its own.

The artifact capture and the per-pass capture cannot share a compile: Triton's MLIR dump stream
is a per-process singleton, ``MLIR_ENABLE_DUMP`` changes Triton's cache key, and the dump slows
the compile it instruments. So this module re-runs the capture's exact request in a child process
(irscope.compile.worker) with a fresh Triton cache and streams what it prints into the store.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import pickle
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from irscope.compile.dbgstream import widen_pipe
from irscope.compile.job import CaptureJob, JobSource, as_job
from irscope.compile.recorded_ir import recorded_ir_path
from irscope.errors import CompileError, StoreError
from irscope.model.kernelspec import RecordedKernel
from irscope.store.passwrite import write_dump
from irscope.store.store import Capture
from irscope.toolchain.tritons import worker_command

# Variables that make Triton print or time things; each worker sets exactly the ones its mode needs.
_DEBUG_ENV = ("MLIR_ENABLE_DUMP", "MLIR_DUMP_PATH", "LLVM_IR_ENABLE_DUMP", "MLIR_ENABLE_TIMING", "LLVM_ENABLE_TIMING",
              "TRITON_KERNEL_DUMP", "TRITON_DUMP_DIR", "NVPTX_ENABLE_DUMP", "AMDGCN_ENABLE_DUMP",
              "TRITON_REPRODUCER_PATH", "MLIR_ENABLE_DIAGNOSTICS", "TRITON_ENABLE_LLVM_DEBUG", "TRITON_LLVM_DEBUG_ONLY",
              # The interpreter replaces @triton.jit: a compile never runs under it (irscope run sets it).
              "TRITON_INTERPRET")
_CHUNK = 1 << 20


def check_source(capture: Capture, kernel_path: Path) -> None:
    """Refuse to re-run a compile whose kernel file changed since the capture was made."""
    m = capture.manifest
    source_copy = capture.path / m.files.get("source", "source.py")
    try:
        same = hashlib.sha256(kernel_path.read_bytes()).digest() == hashlib.sha256(source_copy.read_bytes()).digest()
    except OSError:
        same = False
    if not same:
        raise StoreError(f"{kernel_path} changed (or is gone) since capture {m.key} was made; "
                         "run the command with --recapture")


def worker_spec(request: CaptureJob | JobSource, capture: Capture, mode: str, root: Path, llvm: bool = False,
                repeat: int = 1, buffer: bool = True) -> dict[str, Any]:
    """What the worker needs to compile the capture's job again; the job travels as a pickle in ``root``.

    A request for a stored capture names the compile that can make it again (its stored source and
    recorded specialization, see ``irscope.request.captures.request_for``).
    """
    job = as_job(request)
    kernel = job.kernel
    # A FILE:FUNCTION capture stores the file that defines the function (see capture.defining_file).
    # an opened artifact's compile reads its module from the capture itself (irscope.request.opened): no file to check
    ir_only = isinstance(kernel, RecordedKernel) and bool(kernel.replay.get("ir_only"))
    if not ir_only:
        check_source(capture, kernel.source_file(capture.manifest.kernel_path))
    path = root / "request.pickle"
    with open(path, "wb") as f:
        pickle.dump((kernel, job.target, job.config_index, dict(job.sizes)), f)
    spec: dict[str, Any] = {"mode": mode, "request": str(path), "llvm": llvm, "repeat": repeat, "buffer": buffer}
    if mode == "passes" and kernel.compiles_recorded_ir:
        recorded = kernel.path if isinstance(kernel, RecordedKernel) and ir_only else \
            recorded_ir_path(capture.path, capture.manifest.kernel)
        if recorded is not None:  # the worker uses it when its Triton is the capture's
            spec["recorded_ir"] = {"path": str(recorded), "triton_version": capture.manifest.triton_version}
    return spec


def worker_env(root: Path, settings: dict[str, str]) -> dict[str, str]:
    """The child's environment: ours less Triton's debug switches, plus ``settings``, Triton pointed into ``root``."""
    from irscope.toolchain.tritons import selected

    env = {k: v for k, v in os.environ.items() if k not in _DEBUG_ENV}
    if selected() is None:  # another Triton's worker finds irscope through worker_command, after its own Triton
        here = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH", "")) if p)
    env.update({"TRITON_CACHE_DIR": str(root / "cache"), "TRITON_HOME": str(root), "TRITON_ALWAYS_COMPILE": "1"})
    env.update(settings)
    return env


class Worker:
    """One run of the worker process; iterate ``stream()`` for its stderr, then read ``result``."""

    def __init__(self, request: CaptureJob | JobSource, capture: Capture, mode: str, settings: dict[str, str],
                 llvm: bool = False, repeat: int = 1, buffer: bool = True) -> None:
        self.request = request
        self.buffer = buffer  # buffer what the compile prints (irscope.compile.dbgstream)
        self.capture = capture
        self.mode = mode
        self.settings = settings
        self.llvm = llvm
        self.repeat = repeat
        self.result: dict[str, Any] = {}
        self.returncode = 0

    def stream(self) -> Iterator[bytes]:
        """Run the worker, yielding what it prints on stderr as it comes."""
        with tempfile.TemporaryDirectory(prefix="irscope-worker-") as tmp:
            root = Path(tmp)
            spec = worker_spec(self.request, self.capture, self.mode, root, self.llvm, self.repeat, self.buffer)
            out_path = root / "result.json"
            with open(out_path, "wb") as out:
                proc = subprocess.Popen(worker_command("irscope.compile.worker", json.dumps(spec)),
                                        stdout=out, stderr=subprocess.PIPE, cwd=root,
                                        env=worker_env(root, self.settings))
                assert proc.stderr is not None
                widen_pipe(proc.stderr.fileno())  # the worker prints on while this process stores
                try:
                    while chunk := proc.stderr.read(_CHUNK):
                        yield chunk
                finally:
                    proc.stderr.close()
                    self.returncode = proc.wait()
            lines = out_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
            try:
                self.result = json.loads(lines[-1]) if lines else {}
            except ValueError:
                self.result = {}
        if not self.result:
            self.result = {"ok": False, "error": f"the compile process died (exit status {self.returncode})",
                           "seconds": [], "triton_version": ""}


def capture_passes(request: CaptureJob | JobSource, capture: Capture, llvm: bool = False) -> Path:
    """Compile the job (or the request's job) again with per-pass dumps on; store the dump beside its capture; return
    its index.

    A compile that fails raises CompileError; what it printed is kept apart (store.passdump.load_failed_dump),
    never as the capture's dump.

    With ``llvm`` the LLVM pass pipeline (optimizer and code generator) is dumped too; that dump is
    large (about 200 MB for matmul on sm90 before compression) and slow to print.
    """
    settings = {"MLIR_ENABLE_DUMP": "1"}
    if llvm:
        settings["LLVM_IR_ENABLE_DUMP"] = "1"
    worker = Worker(request, capture, "passes", settings, llvm=llvm)

    def meta() -> dict[str, Any]:
        result = worker.result
        error = "" if result.get("ok") else str(result.get("error") or "the compile failed without a message")
        return {"triton_version": result.get("triton_version", ""), "error": error,
                "compile_seconds": round(sum(result.get("seconds", [])), 4),
                "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}

    stream = worker.stream()
    first = next(stream, b"")  # runs worker_spec's checks before anything is written
    path = write_dump(capture.path, "llvm" if llvm else "mlir", _chain(first, stream), meta)
    if not worker.result.get("ok"):
        raise CompileError(f"the per-pass compile of {capture.manifest.key} failed; nothing is stored as its dump "
                           f"(the next request compiles it again):\n{meta()['error']}")
    return path


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield first
    yield from rest
