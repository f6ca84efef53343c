"""Compile a job here or in another interpreter (another Triton): a warm worker process and its small protocol.

``compile_job`` is the one way from a resolved request (``irscope.compile.job.CaptureJob``, plain data)
to a stored capture: in this process, or, with ``--triton``, through a worker of that Triton's
interpreter. The worker is started once per Triton environment and kept for the life of the process
(``worker``), so several compiles in one command pay its start and ``import triton`` once.

The worker reads one JSON request per line on its stdin and writes one JSON reply per line on its
stdout, until its stdin ends; what Triton prints goes to the worker's stderr (a file the parent
keeps for error messages), never between the replies.

Request (protocol 2)::

    {"protocol": 2, "op": "hello"}
    {"protocol": 2, "op": "capture", "store": "/path/store", "force": false, "job": JOB,
     "env": {...}, "cwd": "/path"}
    {"protocol": 2, "op": "warm", "target": "sm90"}

JOB is plain data (``CaptureJob.to_data``): the kernel (``module`` / ``function`` / ``recorded``), the
target, the config index and the sizes, so the same job could run on any machine that has the files.
``env`` and ``cwd`` are the parent's at the time of the request: the worker compiles in them, as a
worker started for that one request would.

Reply::

    {"protocol": 2, "ok": true, "triton": "3.5.1", "python": [3, 12, 3], "pid": 1234}       (hello)
    {"protocol": 2, "ok": true, "triton": "3.5.1", "key": "matmul-sm90-c0-..."}            (capture)
    {"protocol": 2, "ok": true, "triton": "3.5.1", "seconds": 1.9}                         (warm: Triton imported
                                                       and a tiny kernel compiled for the target, thrown away)
    {"protocol": 2, "ok": false, "error": "...", "kind": "compile" | "usage" | "internal", "exit_code": 2}

A request of another protocol version gets an ``ok: false`` reply and the worker exits (status 3).
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from irscope.compile.job import CaptureJob
from irscope.errors import CompileError, IrscopeError, StoreError, UsageError
from irscope.store.store import Capture, Store
from irscope.toolchain.tritons import ENV_VAR, TritonEnv, irscope_root, select, selected, worker_command

PROTOCOL = 2
# How much of the worker's stderr an error message quotes.
_TAIL_BYTES = 4096


def job_data(kernel: Any, target: Any, config_index: int, sizes: dict[str, int]) -> dict[str, Any]:
    """A compile job as plain JSON data (see the module docstring)."""
    return CaptureJob(kernel=kernel, target=target, config_index=config_index, sizes=dict(sizes)).to_data()


def job_from_data(data: dict[str, Any]) -> tuple[Any, Any, int, dict[str, int]]:
    """Rebuild ``(kernel, target, config_index, sizes)`` from ``job_data``'s output."""
    job = CaptureJob.from_data(data)
    return job.kernel, job.target, job.config_index, job.sizes


def compile_job(job: CaptureJob, store: Store, force: bool = False) -> Capture:
    """Compile ``job`` into ``store`` with the selected Triton (in this process when none is selected)."""
    env = selected()
    if env is not None:  # --triton: compile in that Triton's interpreter, into the same store
        return worker(env).capture(job, store, force)
    from irscope.compile.capture import capture

    return capture(job.kernel, job.target, job.config_index, store, job.sizes, force=force)


class WorkerClient:
    """A worker process of one Triton environment, started on first use and kept running.

    Thread-safe (one request at a time); a worker that died is started again once per request.
    """

    def __init__(self, env: TritonEnv | None) -> None:
        self.env = env
        self.where = env.describe() if env is not None and env.foreign else f"this interpreter ({sys.executable})"
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None
        self._stderr: IO[bytes] | None = None
        self._sources: dict[str, str] = {}  # kernel file -> the source digest this worker has imported
        self._owner = os.getpid()
        self.pid = 0
        self.warmed: set[str] = set()  # targets the worker has compiled for (warm_up)

    def _start(self) -> None:
        import tempfile

        self._stop()
        env = dict(os.environ)
        if self.env is None or not self.env.foreign:  # this interpreter: the worker runs this irscope's code
            env["PYTHONPATH"] = os.pathsep.join(p for p in (str(irscope_root()), env.get("PYTHONPATH", "")) if p)
        self._stderr = tempfile.TemporaryFile(prefix="irscope-worker-")  # noqa: SIM115 -- closed in _stop
        try:
            self._proc = subprocess.Popen(worker_command("irscope.compile.remote", env=self.env),
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                                          text=True, encoding="utf-8", env=env)
        except OSError as exc:
            error = UsageError(f"cannot start the compile worker of {self.where}: {exc.strerror or exc}")
            error.exit_code = 1
            raise error from None
        self._sources.clear()
        self.warmed = set()
        self._owner = os.getpid()
        reply = self._exchange({"op": "hello"})
        if not reply.get("ok"):
            raise _error(reply)
        self.pid = int(reply.get("pid", 0))

    def start(self) -> WorkerClient:
        """Start the worker now unless it runs; return self."""
        with self._lock:
            if not self.alive():
                self._start()
        return self

    def alive(self) -> bool:
        """Whether the worker process runs (and was started by this process)."""
        return self._proc is not None and self._proc.poll() is None and self._owner == os.getpid()

    def _exchange(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one request, read its reply; an ``ok`` false reply when the worker is gone or garbled."""
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps({"protocol": PROTOCOL, **message}, default=str) + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
        except (BrokenPipeError, OSError, ValueError):
            line = ""
        try:
            reply = json.loads(line) if line.strip() else {}
        except ValueError:
            reply = {}
        if not isinstance(reply, dict) or "ok" not in reply:
            try:
                status = proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                status = proc.wait()
            return {"ok": False, "kind": "internal", "exit_code": 1, "dead": True,
                    "error": f"the compile worker of {self.where} stopped (exit status {status}): {self._tail()}"}
        if reply.get("protocol") != PROTOCOL:
            return {"ok": False, "kind": "internal", "exit_code": 1,
                    "error": f"the compile worker of {self.where} speaks protocol {reply.get('protocol')}, "
                             f"not {PROTOCOL}"}
        return reply

    def _tail(self) -> str:
        """The last lines the worker wrote on stderr, as one line."""
        if self._stderr is None:
            return ""
        self._stderr.seek(0, os.SEEK_END)
        self._stderr.seek(max(0, self._stderr.tell() - _TAIL_BYTES))
        text = self._stderr.read().decode("utf-8", errors="replace")
        return " ".join(text.strip().splitlines()[-3:])[-400:]

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """One request and its reply (``ok`` false with a reason on failure); a dead worker is restarted once."""
        with self._lock:
            for attempt in (0, 1):
                if not self.alive():
                    try:
                        self._start()
                    except IrscopeError as exc:
                        return {"ok": False, "kind": "internal", "exit_code": exc.exit_code, "error": str(exc)}
                reply = self._exchange(message)
                if not reply.get("dead") or attempt:
                    reply.pop("dead", None)
                    return reply
        raise AssertionError("unreachable")

    def hello(self) -> dict[str, Any]:
        """The worker's hello reply (its Triton, Python and process id)."""
        return self.request({"op": "hello"})

    def capture(self, job: CaptureJob, store: Store | Path | str, force: bool = False) -> Capture:
        """Compile ``job`` in the worker into ``store``; the capture, read back from the store."""
        store = store if isinstance(store, Store) else Store(Path(store))
        self._reload_changed(job)
        reply = self.request({"op": "capture", "store": str(Path(store.root).absolute()), "force": force,
                              "job": job.to_data(), "env": dict(os.environ), "cwd": os.getcwd()})
        if not reply["ok"]:
            raise _error(reply)
        key = str(reply["key"])
        made = store.get(key)
        if made is None:
            raise StoreError(f"the compile worker reported capture {key}, but it is not in {store.root}")
        return made

    def warm_up(self, target: str) -> float:
        """Have the worker import Triton and compile once for ``target`` (into a throwaway store), so that the
        next compile costs only itself; the seconds that took."""
        reply = self.request({"op": "warm", "target": target})
        if not reply["ok"]:
            raise _error(reply)
        self.warmed.add(target)
        return float(reply.get("seconds", 0.0))

    def _reload_changed(self, job: CaptureJob) -> None:
        """Start the worker again when a kernel file it has imported changed since (a module is imported once)."""
        path, digest = str(getattr(job.kernel, "path", "")), str(getattr(job.kernel, "source_sha", ""))
        with self._lock:
            if path and digest and self._sources.get(path, digest) != digest and self.alive():
                self._stop()
            if path and digest:
                self._sources[path] = digest

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and getattr(self, "_owner", None) == os.getpid():
            try:
                if proc.stdin is not None:
                    proc.stdin.close()
                proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def close(self) -> None:
        """End the worker (its stdin closes; it exits at end of input)."""
        with self._lock:
            self._stop()


def _error(reply: dict[str, Any]) -> IrscopeError:
    """The exception for an ``ok`` false reply: Triton's message as a CompileError, else one line with its status."""
    if reply.get("kind") == "compile":
        return CompileError(str(reply["error"]))
    error = UsageError(str(reply["error"]))
    error.exit_code = int(reply.get("exit_code", 1))
    return error


_WORKERS: dict[str, WorkerClient] = {}
_WORKERS_LOCK = threading.Lock()


def worker(env: TritonEnv | None = None, start: bool = True) -> WorkerClient:
    """The warm worker of ``env`` (None: this interpreter), started unless ``start`` is false."""
    name = str(env.python) if env is not None and env.foreign else ""
    with _WORKERS_LOCK:
        client = _WORKERS.get(name)
        if client is None or client._owner != os.getpid():  # a forked child starts its own
            client = _WORKERS[name] = WorkerClient(env if name else None)
    return client.start() if start else client


def warm(env: TritonEnv | None = None) -> threading.Thread:
    """Start the worker of ``env`` in the background (its start and ``import triton`` overlap other work)."""
    def run() -> None:
        try:
            worker(env)
        except IrscopeError:
            return  # the first real request starts it again and reports why it cannot run

    thread = threading.Thread(target=run, name="irscope-warm-worker", daemon=True)
    thread.start()
    return thread


@atexit.register
def close_all() -> None:
    """End every worker this process started."""
    with _WORKERS_LOCK:
        clients = list(_WORKERS.values())
        _WORKERS.clear()
    for client in clients:
        client.close()


def call(message: dict[str, Any]) -> dict[str, Any]:
    """Send one request to the worker of the selected Triton (this interpreter's when none is); its reply."""
    return worker(selected(), start=False).request(message)


def serve(message: dict[str, Any]) -> dict[str, Any]:
    """Answer one request (this runs in the worker)."""
    from irscope.toolchain.tritons import local_triton_version

    if message.get("protocol") != PROTOCOL:
        return {"ok": False, "kind": "internal", "exit_code": 1,
                "error": f"this worker speaks protocol {PROTOCOL}, the request is {message.get('protocol')}"}
    version = local_triton_version()
    if message.get("op") == "hello":
        return {"ok": True, "triton": version, "python": list(sys.version_info[:3]), "pid": os.getpid()}
    if message.get("op") == "capture":
        from irscope.compile.capture import capture

        _adopt(message)
        job = CaptureJob.from_data(message["job"])
        made = capture(job.kernel, job.target, job.config_index, Store(Path(message["store"])), job.sizes,
                       force=bool(message.get("force")))
        return {"ok": True, "triton": version, "key": made.manifest.key}
    if message.get("op") == "warm":
        return {"ok": True, "triton": version, "seconds": _warm_up(message.get("target"))}
    return {"ok": False, "kind": "usage", "exit_code": 2, "error": f"unknown request {message.get('op')!r}"}


def _warm_up(target_name: Any) -> float:
    """Import Triton and compile a tiny bundled kernel for a target into a throwaway store: Triton's first
    compile in a process loads its backend and LLVM (a second or more), which the next real compile then skips."""
    import tempfile
    import time

    from irscope.compile.capture import capture
    from irscope.model.kernels import get_kernel
    from irscope.model.targets import resolve_target

    start = time.perf_counter()
    target = resolve_target(str(target_name) if target_name else None)
    kernel = get_kernel("vector_add")
    with tempfile.TemporaryDirectory(prefix="irscope-warm-") as scratch:
        capture(kernel, target, 0, Store(Path(scratch)), dict(kernel.sizes), force=True)
    return round(time.perf_counter() - start, 3)


def _adopt(message: dict[str, Any]) -> None:
    """Compile in the parent's environment variables and directory, as a worker started for this request would."""
    env = message.get("env")
    if isinstance(env, dict):
        env = {str(k): str(v) for k, v in env.items() if k != ENV_VAR}  # this worker's Triton is its own
        for name in [k for k in os.environ if k not in env]:
            del os.environ[name]
        os.environ.update(env)
    cwd = message.get("cwd")
    if isinstance(cwd, str) and os.path.isdir(cwd):
        os.chdir(cwd)


def _answer(message: Any) -> dict[str, Any]:
    """The reply to one request; failures become ``ok`` false replies (a traceback goes to stderr)."""
    try:
        if not isinstance(message, dict):
            raise UsageError("a worker request is one JSON object per line")
        reply = serve(message)
    except CompileError as exc:
        reply = {"ok": False, "kind": "compile", "exit_code": exc.exit_code, "error": str(exc)}
    except IrscopeError as exc:
        reply = {"ok": False, "kind": "usage", "exit_code": exc.exit_code, "error": str(exc)}
    except Exception as exc:  # the parent reports it as one line; the traceback stays on our stderr
        import traceback

        traceback.print_exc()
        reply = {"ok": False, "kind": "internal", "exit_code": 1, "error": f"{type(exc).__name__}: {exc}"}
    reply["protocol"] = PROTOCOL
    return reply


def main() -> int:
    """Worker entry point: answer request lines on stdin, one reply line each on stdout, until stdin ends.

    Exits 0 at the end of its input, 3 after a request it cannot read or of another protocol version.
    """
    import warnings

    warnings.filterwarnings("ignore", message=".*TRITON_DEFAULT_FP_FUSION.*")
    select(None)  # a worker compiles with its own interpreter's Triton, whatever the parent selected
    # Replies go to the real stdout; anything else printed to stdout (a kernel module's print) goes to stderr.
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        replies.write(json.dumps(_answer(message), default=str) + "\n")
        replies.flush()
        if not isinstance(message, dict) or message.get("protocol") != PROTOCOL:
            return 3  # a parent that writes something else cannot talk to us
    return 0


if __name__ == "__main__":
    sys.exit(main())
