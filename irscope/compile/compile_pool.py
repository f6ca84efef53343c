"""Compiles that a program under ``irscope capture --target`` asks for, run in forked children, ``-j`` at once.

The program runs once. Each launch it makes becomes a :class:`PreloadJob` (plain data: which JIT
function, Triton's own serialized specialization, which autotune config); a forked child compiles
it with ``JITFunction.preload`` (the JIT's own path), the recording listener writes the record, and
the child exits. Compiled in the program's process, every compile grew it (fla's chunk_gla forward:
+143 MB over 122 compiles): each leaves its TTIR module and builder, with their MLIR context, in
reference cycles that only a full garbage collection frees, and the native memory freed then is not
handed back to the system. In a child that memory goes with the child, so the program's memory stays
flat however many kernels it compiles, and compiles overlap with one another and with the program. The first job runs in the program's process: it
fills what Triton computes once per process (``triton_key``, a hash of Triton's whole install,
0.8 s here; the backend's tool versions; the compiler's lazy imports), which the children inherit
instead of redoing in each (a compile in a fresh fork took 1.8 s, 0.6 s after). Each JIT function's
``cache_key`` is computed in the parent for the same reason. Where ``os.fork`` is missing, every
job runs in the program's process, one by one.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

JOBS_ENV = "IRSCOPE_CAPTURE_JOBS"


@dataclass(frozen=True)
class PreloadJob:
    """One compile: the JIT function (``module:qualname``), Triton's specialization data, the config.

    Attributes:
        kernel: the JIT function's ``module:qualname``.
        specialization: the JSON ``JITFunction.preload`` takes (the launch's exact specialization).
        config: ``(index, values)`` of the autotune config being compiled, or None.
        autotune: how that autotuner's configs were chosen (``ConfigChoice.as_record``), or empty.
    """

    kernel: str
    specialization: str
    config: tuple[int, dict[str, Any]] | None = None
    autotune: dict[str, Any] = field(default_factory=dict)


def default_jobs() -> int:
    """The cores this process may use."""
    affinity = getattr(os, "sched_getaffinity", None)
    return max(1, len(affinity(0)) if affinity is not None else (os.cpu_count() or 1))


def jobs_from_env() -> int:
    """How many compiles may run at once (``-j``), as ``irscope capture`` asked."""
    try:
        return max(1, int(os.environ.get(JOBS_ENV, "")))
    except ValueError:
        return default_jobs()


class CompilePool:
    """Runs each job once (a repeated launch with the same specialization is not compiled again)."""

    def __init__(self, jobs: int, run: Callable[[Any, PreloadJob], None]) -> None:
        self.jobs = jobs
        self.run = run
        self.kernels: dict[str, Any] = {}
        self.seen: set[tuple[int, str]] = set()
        self.running: list[int] = []
        self.owner = os.getpid()
        self.lock = threading.Lock()
        self.warm = False

    def submit(self, jit: Any, job: PreloadJob) -> None:
        """Compile ``job`` (for ``jit``) in a child when one is free; return at once if it is."""
        with self.lock:
            if os.getpid() != self.owner:  # the program forked: its children start with no compiles of ours
                self.running, self.owner = [], os.getpid()
            if (id(jit), job.specialization) in self.seen:
                return
            self.seen.add((id(jit), job.specialization))
            self.kernels[job.kernel] = jit
            from irscope.compile.listener_chain import program_listens

            # In this process: the first compile (children inherit its warm caches), and every compile while the
            # program has its own compilation listener, which must see each compile as on a GPU.
            if not self.warm or not hasattr(os, "fork") or program_listens():
                self.run(jit, job)
                if not self.warm:
                    import gc

                    self.warm = True
                    gc.collect()  # the first compile's MLIR module, held in cycles (see above)
                return
            getattr(jit, "cache_key", None)  # hashes the kernel's source and dependencies once, here
            while len(self.running) >= self.jobs:
                self._reap(wait=True)
            sys.stdout.flush()
            sys.stderr.flush()
            with warnings.catch_warnings():  # Python 3.12+ warns on every fork of a process with threads
                warnings.simplefilter("ignore", DeprecationWarning)
                pid = os.fork()
            if pid == 0:
                self._child(job)
            self.running.append(pid)

    def _child(self, job: PreloadJob) -> None:
        import gc

        gc.disable()  # short-lived: a collection would touch (and so copy) every page of the program's heap
        code = 1
        try:
            self.run(self.kernels[job.kernel], job)
            code = 0
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)  # never return into the program: the parent runs it

    def _reap(self, wait: bool) -> None:
        """Collect finished children; with ``wait``, until at least one has finished."""
        while True:
            for pid in list(self.running):
                try:
                    done, _ = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:  # reaped by someone else (a program that waits for any child)
                    done = pid
                if done:
                    self.running.remove(pid)
            if not wait or len(self.running) < self.jobs or not self.running:
                return
            time.sleep(0.005)

    def drain(self) -> None:
        """Wait for every compile still running (at the program's exit)."""
        with self.lock:
            if os.getpid() != self.owner:
                return
            while self.running:
                self._reap(wait=False)
                if self.running:
                    time.sleep(0.005)
