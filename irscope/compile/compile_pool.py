"""Compiles that a program under ``irscope capture --target`` asks for, run in forked children, ``-j`` at once.

The program runs once. Each launch it makes becomes a :class:`PreloadJob` (plain data: which JIT
function, Triton's own serialized specialization, which autotune config); a forked worker compiles
it with ``JITFunction.preload`` (the JIT's own path), the recording listener writes the record, and
the worker takes the next job (up to ``WORKER_JOBS``, for the JIT functions it inherited). Compiled
in the program's process, every compile grew it (fla's chunk_gla forward:
+143 MB over 122 compiles): each leaves its TTIR module and builder, with their MLIR context, in
reference cycles that only a full garbage collection frees, and the native memory freed then is not
handed back to the system. In a worker that memory goes with the worker, so the program's memory stays
flat however many kernels it compiles, and compiles overlap with one another and with the program.

What Triton computes once per process (``triton_key``, a hash of Triton's whole install, 0.4-0.8 s; the
backend's tool versions) is computed by the ``warm_up`` callable (``triton_warm.warm_triton``) in a thread of
the program while the program imports its own packages, so the workers inherit it instead of redoing it in each (a
compile in a fresh fork took 1.8 s, 0.6 s after). Each JIT function's ``cache_key`` is computed in the parent for the
same reason. Where ``os.fork`` is missing, every job runs in the program's process, one by one.

At the program's exit the workers are told to stop after the job they have, and the program exits
without waiting for them (its own teardown, about 1.2 s with torch, overlaps their last compiles). Each
worker holds a lock in ``locks`` for its whole life; ``irscope capture`` waits for every one
(:func:`wait_for_workers`) before it reads the records.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import sys
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

WORKERS_FOLDER = "workers"  # in the capture session: one lock per worker, held while it lives


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

    def to_line(self) -> bytes:
        """The job as one JSON line, as a worker reads it from its pipe."""
        return (json.dumps({"kernel": self.kernel, "specialization": self.specialization,
                            "config": list(self.config) if self.config is not None else None,
                            "autotune": self.autotune}) + "\n").encode("utf-8")

    @classmethod
    def from_line(cls, line: bytes) -> PreloadJob:
        """Read :meth:`to_line`'s line (the worker is a fork of the pool's process: the same code wrote it)."""
        data = json.loads(line)
        config = data["config"]
        return cls(kernel=data["kernel"], specialization=data["specialization"],
                   config=(int(config[0]), dict(config[1])) if config is not None else None,
                   autotune=data["autotune"])


def default_jobs() -> int:
    """The cores this process may use."""
    affinity = getattr(os, "sched_getaffinity", None)
    return max(1, len(affinity(0)) if affinity is not None else (os.cpu_count() or 1))


@dataclass
class _Worker:
    """A forked compiler that takes jobs over a pipe until told to stop.

    Attributes:
        pid: its process id.
        send: the pipe end the parent writes jobs to (one JSON line each; an empty line: stop).
        recv: the pipe end it writes one byte to per finished job (end of file: it is gone).
        kernels: the JIT functions it inherited (``module:qualname`` -> id): it compiles only those.
        busy: whether a job is under way.
        given: how many jobs it has been given.
    """

    pid: int
    send: int
    recv: int
    kernels: dict[str, int]
    busy: bool = False
    given: int = 0


# Jobs per worker before it is replaced: each compile leaves native memory that only a full collection frees
# (see above), and a worker never collects (that would copy every page of the program's heap).
WORKER_JOBS = 32


class CompilePool:
    """Runs each job once (a repeated launch with the same specialization is not compiled again).

    A forked compiler (worker) takes job after job over a pipe, as long as the job's JIT function is one it
    inherited: a fork and an exit per compile cost the program's whole page table each time (fla's chunk_gla
    forward, 122 compiles: 9 s of system time, 4-5 s with workers). A job for a JIT function that came later
    goes to a new worker, forked then; an idle worker that does not know it makes room.
    """

    def __init__(self, jobs: int, run: Callable[[Any, PreloadJob], None], warm_up: Callable[[], None] | None = None,
                 locks: Path | None = None) -> None:
        """``warm_up`` runs in a thread at once (joined before the first fork); ``locks``: :func:`wait_for_workers`."""
        self.jobs = jobs
        self.run = run
        self.kernels: dict[str, Any] = {}
        self.seen: set[tuple[int, str]] = set()
        self.workers: list[_Worker] = []
        self.owner = os.getpid()
        self.lock = threading.Lock()
        self.locks = locks
        self.forkless = not hasattr(os, "fork")
        self.warming: threading.Thread | None = None
        if warm_up is not None:
            self.warming = threading.Thread(target=warm_up, name="irscope-warm-triton", daemon=True)
            self.warming.start()

    def submit(self, jit: Any, job: PreloadJob) -> None:
        """Compile ``job`` (for ``jit``) in a worker when one is free; return at once if it is."""
        with self.lock:
            if os.getpid() != self.owner:  # the program forked: its children start with no compiles of ours
                self.workers, self.owner = [], os.getpid()
            if (id(jit), job.specialization) in self.seen:
                return
            self.seen.add((id(jit), job.specialization))
            self.kernels[job.kernel] = jit
            from irscope.compile.listener_chain import program_listens

            # In this process: every compile while the program has its own compilation listener, which must see
            # each compile as on a GPU (and every compile where there is no fork).
            if self.forkless or program_listens():
                self.run(jit, job)
                return
            if self.warming is not None:  # a fork must not copy a thread mid-way; it finished long ago, normally
                self.warming.join()
                self.warming = None
            getattr(jit, "cache_key", None)  # hashes the kernel's source and dependencies once, here
            line = job.to_line()
            while True:
                worker = self._free_worker(job.kernel, id(jit))
                if worker is None:  # a worker could not start: this job, and every later one, runs here
                    self.forkless = True
                    self.run(jit, job)
                    return
                try:
                    os.write(worker.send, line)  # one line in an empty pipe: never blocks
                except OSError:  # it died since it was last seen: another takes the job
                    self._forget(worker)
                    continue
                worker.busy, worker.given = True, worker.given + 1
                return

    def _free_worker(self, kernel: str, ident: int) -> _Worker | None:
        """An idle worker that knows ``kernel``, else a new one (retiring an idle one that does not); None: no fork."""
        while True:
            self._collect(wait=False)
            idle = [w for w in self.workers if not w.busy]
            for worker in idle:
                if worker.kernels.get(kernel) == ident and worker.given < WORKER_JOBS:
                    return worker
            if len(self.workers) < self.jobs:
                return self._fork()
            if idle:
                self._retire(idle[0])
                continue
            self._collect(wait=True)

    def _fork(self) -> _Worker | None:
        """A new worker, once it holds its lock (it writes ``r``), or None when it died first."""
        jobs_r, jobs_w = os.pipe()
        done_r, done_w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        with warnings.catch_warnings():  # Python 3.12+ warns on every fork of a process with threads
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:
            for other in self.workers:  # the other workers' pipes are the parent's alone
                os.close(other.send)
                os.close(other.recv)
            os.close(jobs_w)
            os.close(done_r)
            self._serve(jobs_r, done_w)
        os.close(jobs_r)
        os.close(done_w)
        worker = _Worker(pid, jobs_w, done_r, {name: id(fn) for name, fn in self.kernels.items()})
        if os.read(done_r, 1) != b"r":  # it died before it could serve (its lock folder is gone, say)
            self._forget(worker)
            return None
        self.workers.append(worker)
        return worker

    def _serve(self, jobs: int, done: int) -> None:
        """The worker: run each job read from ``jobs``, writing a byte to ``done`` after each; stop at an empty line."""
        import gc

        gc.disable()  # a collection would touch (and so copy) every page of the program's heap
        code = 1
        try:
            held = _hold_worker_lock(self.locks) if self.locks is not None else None
            os.write(done, b"r")
            with os.fdopen(jobs, "rb") as lines:
                for line in lines:
                    if not line.strip():
                        break
                    job = PreloadJob.from_line(line)
                    self.run(self.kernels[job.kernel], job)
                    sys.stdout.flush()
                    sys.stderr.flush()
                    os.write(done, b"d")
            code = 0
            del held  # kept until here: the lock goes with the process
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)  # never return into the program: the parent runs it

    def _collect(self, wait: bool) -> None:
        """Note which busy workers finished their job or died; with ``wait``, until at least one has."""
        while True:
            busy = [w for w in self.workers if w.busy]
            if not busy:
                return
            ready, _, _ = select.select([w.recv for w in busy], [], [], 0.5 if wait else 0.0)
            for worker in busy:
                if worker.recv in ready:
                    if os.read(worker.recv, 64):
                        worker.busy = False
                    else:  # it died (a crash in a compile): that job is not recorded, as in any crashed compile
                        self._forget(worker)
            if ready or not wait:
                return

    def _forget(self, worker: _Worker) -> None:
        """Drop a worker that died, and reap it."""
        for fd in (worker.send, worker.recv):
            with contextlib.suppress(OSError):  # already closed
                os.close(fd)
        if worker in self.workers:
            self.workers.remove(worker)
        with contextlib.suppress(ChildProcessError):  # reaped by the program (one that waits for any child)
            os.waitpid(worker.pid, 0)

    def _retire(self, worker: _Worker) -> None:
        """Tell an idle worker to stop (an empty line: the program's own forks may hold its pipe open) and reap it."""
        with contextlib.suppress(OSError):  # it is gone already
            os.write(worker.send, b"\n")
        self._forget(worker)

    def drain(self) -> None:
        """Wait for every compile still running, then let the workers go."""
        with self.lock:
            if os.getpid() != self.owner:
                return
            while any(w.busy for w in self.workers):
                self._collect(wait=True)
            for worker in list(self.workers):
                self._retire(worker)

    def release(self) -> None:
        """At the program's exit: tell each worker to stop after its job, and return at once (see the module's note).

        Without ``locks`` nothing could wait for the workers after the program, so this drains instead.
        """
        if self.locks is None:
            self.drain()
            return
        with self.lock:
            if os.getpid() != self.owner:
                return
            for worker in self.workers:
                with contextlib.suppress(OSError):  # it is gone already
                    os.write(worker.send, b"\n")  # queued behind its job, if it has one
                for fd in (worker.send, worker.recv):
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self.workers = []


def _hold_worker_lock(folder: Path) -> Any:
    """Take this worker's lock (``<pid>.lock`` in ``folder``); the caller keeps the object until the worker exits."""
    from filelock import FileLock

    lock = FileLock(str(folder / f"{os.getpid()}.lock"))
    lock.acquire()
    return lock


def wait_for_workers(folder: Path) -> None:
    """Return when every worker that took a lock in ``folder`` has exited (their compiles' records are written).

    A worker that outlived the program is this process's child when :func:`adopt_orphans` was called before the
    program started; it is reaped here.
    """
    from filelock import FileLock

    waited: set[str] = set()
    while True:
        pending = sorted(p for p in folder.glob("*.lock") if p.name not in waited) if folder.is_dir() else []
        if not pending:
            return
        for path in pending:
            with FileLock(str(path)):  # free once that worker's process is gone
                waited.add(path.name)
            with contextlib.suppress(ChildProcessError, ValueError):  # not our child (reaped by its parent)
                os.waitpid(int(path.stem), 0)


def adopt_orphans() -> None:
    """On Linux, make this process the reaper of its descendants whose parent exits (PR_SET_CHILD_SUBREAPER).

    The program's compile workers may outlive it (see the module's note); they are then reparented here, and
    :func:`wait_for_workers` reaps them, instead of to an init process that may never do so.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER

