"""The offline compile pool: forked workers take job after job; a crash loses only its own job; at the program's exit
the workers finish their jobs on their own, and ``wait_for_workers`` waits for them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from irscope.compile import compile_pool
from irscope.compile.compile_pool import CompilePool, PreloadJob
from tests.conftest import repo_path


class _Jit:
    """Stands in for a JITFunction (the pool only keeps it and hands it back)."""

    def __init__(self, name: str) -> None:
        self.name = name


def _pool(log: Path, crash_on: str = "", seconds: float = 0.0, locks: Path | None = None) -> CompilePool:
    def run(jit: _Jit, job: PreloadJob) -> None:
        if job.specialization == crash_on:
            os._exit(3)  # as a compile that crashes the process
        time.sleep(seconds)
        with log.open("a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()} {jit.name} {job.specialization} {job.config}\n")

    return CompilePool(2, run, locks=locks)


def _lines(log: Path) -> list[list[str]]:
    return [line.split(" ", 3) for line in log.read_text(encoding="utf-8").splitlines()]


def test_workers_take_many_jobs_and_a_new_kernel_gets_a_new_worker(tmp_path: Path) -> None:
    log = tmp_path / "log"
    pool = _pool(log)
    first, later = _Jit("first"), _Jit("later")
    for i in range(12):
        pool.submit(first, PreloadJob("m:first", f"s{i}", config=(i, {"BLOCK": 16}), autotune={"mode": "all"}))
    pool.submit(first, PreloadJob("m:first", "s3"))  # the same specialization again: not compiled twice
    pool.submit(later, PreloadJob("m:later", "t0"))
    pool.drain()
    lines = _lines(log)
    assert sorted(s for _, _, s, _ in lines) == sorted([f"s{i}" for i in range(12)] + ["t0"])
    workers = {pid for pid, name, _, _ in lines if name == "first"}
    assert str(os.getpid()) not in workers and len(workers) <= 2  # 12 jobs, at most 2 forks
    later_pid = next(pid for pid, name, _, _ in lines if name == "later")
    assert later_pid not in workers  # forked after "later" was known
    assert "(4, {'BLOCK': 16})" in next(c for _, _, s, c in lines if s == "s4")  # the config survives the pipe
    assert pool.workers == []


def test_a_worker_is_replaced_after_its_share_of_jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compile_pool, "WORKER_JOBS", 2)
    log = tmp_path / "log"
    pool = _pool(log)
    jit = _Jit("k")
    for i in range(9):
        pool.submit(jit, PreloadJob("m:k", f"s{i}"))
    pool.drain()
    counts: dict[str, int] = {}
    for pid, _, _, _ in _lines(log):
        counts[pid] = counts.get(pid, 0) + 1
    assert sum(counts.values()) == 9 and max(counts.values()) <= 2 and len(counts) >= 5
    assert str(os.getpid()) not in counts


def test_a_crashing_compile_loses_only_its_job(tmp_path: Path) -> None:
    log = tmp_path / "log"
    pool = _pool(log, crash_on="s3")
    jit = _Jit("k")
    for i in range(8):
        pool.submit(jit, PreloadJob("m:k", f"s{i}"))
    pool.drain()
    assert sorted(s for _, _, s, _ in _lines(log)) == [f"s{i}" for i in range(8) if i != 3]
    assert pool.workers == []


def test_at_the_programs_exit_workers_finish_their_jobs_and_are_waited_for(tmp_path: Path) -> None:
    log, locks = tmp_path / "log", tmp_path / "workers"
    locks.mkdir()
    pool = _pool(log, seconds=1.0, locks=locks)
    jit = _Jit("k")
    for i in range(3):  # the third waits for a free worker
        pool.submit(jit, PreloadJob("m:k", f"s{i}"))
    start = time.monotonic()
    pool.release()  # as at the program's exit: nothing waits here
    assert time.monotonic() - start < 0.5
    assert pool.workers == []
    assert len(_lines(log)) < 3  # the third job at least is still being compiled
    assert len(list(locks.glob("*.lock"))) == 2  # one lock per worker
    compile_pool.wait_for_workers(locks)
    assert sorted(s for _, _, s, _ in _lines(log)) == ["s0", "s1", "s2"]
    for path in locks.glob("*.lock"):  # each worker is gone, and reaped (it is this process's child here)
        with pytest.raises(ChildProcessError):
            os.waitpid(int(path.stem), os.WNOHANG)


def test_the_warm_up_runs_in_a_thread_and_is_over_before_the_first_fork(tmp_path: Path) -> None:
    log = tmp_path / "log"
    state = {"warm": "no"}

    def warm() -> None:
        time.sleep(0.3)
        state["warm"] = "yes"

    def run(jit: _Jit, job: PreloadJob) -> None:
        with log.open("a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()} {state['warm']} {job.specialization} -\n")

    start = time.monotonic()
    pool = CompilePool(2, run, warm_up=warm)
    assert time.monotonic() - start < 0.2 and state["warm"] == "no"  # the program goes on meanwhile
    pool.submit(_Jit("k"), PreloadJob("m:k", "s0"))
    pool.drain()
    [(pid, warm_seen, spec, _)] = _lines(log)
    assert pid != str(os.getpid()) and (warm_seen, spec) == ("yes", "s0")  # a worker, forked after the warm-up


def test_a_worker_that_cannot_start_leaves_its_job_to_the_program(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(folder: Path) -> None:
        raise OSError(f"{folder} is read-only")

    monkeypatch.setattr(compile_pool, "_hold_worker_lock", refuse)  # the forked child inherits this
    log = tmp_path / "log"
    pool = _pool(log, locks=tmp_path)
    jit = _Jit("k")
    for i in range(3):
        pool.submit(jit, PreloadJob("m:k", f"s{i}"))
    pool.release()
    assert [(pid, s) for pid, _, s, _ in _lines(log)] == [(str(os.getpid()), f"s{i}") for i in range(3)]


def test_warming_triton_fills_what_its_first_compile_would_compute() -> None:
    # In a fresh process: after the warm-up, Triton's cache key and the backend's tool version are cached, so a
    # worker forked then inherits them instead of hashing Triton's 500 MB library again.
    code = """
from triton.backends.compiler import GPUTarget
from triton.runtime.cache import triton_key
from triton.backends.nvidia import compiler as nvidia
from irscope.compile import triton_warm
assert triton_key.cache_info().currsize == 0 and nvidia.get_ptxas_version.cache_info().currsize == 0
triton_warm.import_compile_modules()
triton_warm.warm_triton(GPUTarget("cuda", 90, 32))
print(triton_key.cache_info().currsize, nvidia.get_ptxas_version.cache_info().currsize)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": repo_path()})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["1", "1"]
