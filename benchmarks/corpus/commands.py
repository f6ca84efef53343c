"""Every command on every capture: the jobs, a pool of long-lived workers, and how each result is classified."""

from __future__ import annotations

import ast
import json
import os
import select
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from capture import Layout, pythonpath

HERE = Path(__file__).resolve().parent
STAGES = {"cuda": ("source", "ttir", "ttgir", "llir", "ptx", "sass"),
          "hip": ("source", "ttir", "ttgir", "llir", "amdgcn")}
COMMANDS = ("show", "layouts", "loops", "map", "resources", "perf", "verify", "passes", "compare", "facts")


@dataclass(frozen=True)
class Job:
    """One command on one capture: ``id`` is ``RUN/KEY/NAME`` (NAME: the command, ``show:STAGE`` for show)."""

    id: str
    run: str
    key: str
    kernel: str
    name: str
    argv: tuple[str, ...]


def _map_line(capture: Path, function: str) -> int:
    """The first statement line of ``function`` in the capture's source.py (1 when it cannot be found)."""
    try:
        tree = ast.parse((capture / "source.py").read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return 1
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == function and node.body:
            body = node.body[1:] if isinstance(node.body[0], ast.Expr) and len(node.body) > 1 else node.body
            return body[0].lineno
    return 1


def stages(manifest: dict[str, Any]) -> tuple[str, ...]:
    """The stages ``show`` is asked for: the target's, a Gluon kernel's glir in place of the ttir it has not."""
    names = STAGES.get(str(manifest.get("backend")), STAGES["cuda"])
    files = manifest.get("files") or {}
    return tuple("glir" if s == "ttir" and "glir" in files and "ttir" not in files else s for s in names)


def _argv(name: str, key: str, store: Path, capture: Path, manifest: dict[str, Any], scratch: Path) -> list[str]:
    base = [key, "--store", str(store)]
    if name.startswith("show:"):
        return ["show", *base, "--stage", name.split(":", 1)[1]]
    if name == "map":
        return ["map", *base, "--line", str(_map_line(capture, str(manifest.get("function", ""))))]
    if name == "compare":
        warps = int((manifest.get("options") or {}).get("num_warps") or 4)
        return ["compare", *base, "--set", f"num_warps={warps * 2 if warps < 16 else warps // 2}"]
    if name == "facts":
        return ["facts", *base, "-o", str(scratch / f"{key}.facts.json")]
    return [name, *base]


def captured_keys(run: Path) -> list[str]:
    """The keys the program capture made (not those a command made later, as compare's variants)."""
    try:
        record = json.loads((run / "capture.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    keys = record.get("keys")
    if keys is None:  # a capture.json written before keys were kept: the store's captures of the program
        keys = [p.name for p in (run / "store" / "captures").glob("*-p-*")]
    return sorted(k for k in keys if (run / "store" / "captures" / k / "manifest.json").is_file())


def jobs(layout: Layout, runs: list[Path], commands: tuple[str, ...], per_kernel: int | None) -> Iterator[Job]:
    """Every (capture, command) of ``runs``; ``per_kernel`` keeps the first N captures of each kernel name."""
    for run in runs:
        captures = [run / "store" / "captures" / key / "manifest.json" for key in captured_keys(run)]
        seen: dict[str, int] = {}
        for path in captures:
            try:
                manifest = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            kernel, key = str(manifest.get("kernel", "?")), path.parent.name
            seen[kernel] = seen.get(kernel, 0) + 1
            if per_kernel is not None and seen[kernel] > per_kernel:
                continue
            scratch = run / "scratch"
            scratch.mkdir(exist_ok=True)
            for command in commands:
                names = [f"show:{s}" for s in stages(manifest)] if command == "show" else [command]
                for name in names:
                    argv = _argv(name, key, run / "store", path.parent, manifest, scratch)
                    yield Job(f"{run.name}/{key}/{name}", run.name, key, kernel, name, tuple(argv))


def _lines(output: str) -> list[str]:
    return [ln for ln in output.splitlines() if ln.strip() and not ln.startswith("irscope: compiling")]


def classify(job: Job, answer: dict[str, Any]) -> dict[str, Any]:
    """ok / refused (exit != 0, no traceback: its line) / failed (traceback, crash, timeout, verify disagreement)."""
    out, code = str(answer.get("output") or ""), answer.get("exit")
    row: dict[str, Any] = {"id": job.id, "run": job.run, "key": job.key, "kernel": job.kernel, "command": job.name,
                           "exit": code, "seconds": answer.get("seconds")}
    lines = _lines(out)
    if answer.get("timeout"):
        return {**row, "status": "failed", "why": "timeout", "line": f"no answer after {answer['timeout']} s"}
    if answer.get("traceback") or "Traceback (most recent call last)" in out:
        tb = str(answer.get("traceback") or out).strip().splitlines()
        return {**row, "status": "failed", "why": "traceback", "line": tb[-1][:300] if tb else "",
                "trace": "\n".join(tb[-25:])}
    if code == 70 or "internal error" in out:
        return {**row, "status": "failed", "why": "internal error", "line": (lines or [""])[-1][:300]}
    if code == 0:
        return {**row, "status": "ok"}
    if job.name == "verify" and code == 1 and lines and not lines[0].startswith("irscope:"):
        disagree = [ln.strip() for ln in lines if ln.strip().startswith("disagree")]
        return {**row, "status": "failed", "why": "verify disagreement", "line": lines[0][:300],
                "disagree": disagree[:12]}
    refusal = [ln for ln in lines if ln.startswith("irscope:")] or lines or [f"exit {code}, nothing printed"]
    return {**row, "status": "refused", "line": refusal[-1][:300], "one_line": len(lines) == 1}


class Worker:
    """One ``worker.py`` process, restarted after a timeout or a death."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.proc: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen([sys.executable, str(HERE / "worker.py")], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                         env=self.env, start_new_session=True)
        return self.proc

    def ask(self, job: Job, timeout: float) -> dict[str, Any]:
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps({"id": job.id, "argv": list(job.argv)}) + "\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], timeout)
        line = proc.stdout.readline() if ready else ""
        if not line:
            self.stop()
            return {"timeout": timeout} if not ready else {"exit": -9, "output": "",
                                                           "traceback": "the worker process died"}
        return dict(json.loads(line))

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, 9)
            self.proc.wait()
        self.proc = None


def run_jobs(layout: Layout, todo: list[Job], workers: int, timeout: float,
             progress: Callable[[dict[str, Any]], None]) -> None:
    """Run ``todo`` on ``workers`` workers, appending each classified result to layout.results."""
    import time

    env = dict(os.environ, PYTHONPATH=pythonpath(*layout.sites()), IRSCOPE_PRECOMPILE="0",
               TORCHINDUCTOR_COMPILE_THREADS="1")
    queue = list(reversed(todo))
    lock = threading.Lock()

    def serve() -> None:
        worker = Worker(env)
        try:
            while True:
                with lock:
                    if not queue:
                        return
                    job = queue.pop()
                start = time.monotonic()
                answer = worker.ask(job, timeout)
                answer["seconds"] = round(time.monotonic() - start, 2)
                row = classify(job, answer)
                with lock:
                    with open(layout.results, "a", encoding="utf-8") as fh:
                        fh.write(json.dumps(row) + "\n")
                    progress(row)
        finally:
            worker.stop()

    threads = [threading.Thread(target=serve, daemon=True) for _ in range(max(1, workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def done_ids(layout: Layout) -> set[str]:
    """The ids already in the results file (a rerun skips them)."""
    if not layout.results.is_file():
        return set()
    ids = set()
    for line in layout.results.read_text(encoding="utf-8").splitlines():
        try:
            ids.add(json.loads(line)["id"])
        except (ValueError, KeyError):
            continue
    return ids
