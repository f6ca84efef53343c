"""The offline compile pool: forked workers take job after job; a crash loses only its own job."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from irscope.compile import compile_pool
from irscope.compile.compile_pool import CompilePool, PreloadJob


class _Jit:
    """Stands in for a JITFunction (the pool only keeps it and hands it back)."""

    def __init__(self, name: str) -> None:
        self.name = name


def _pool(log: Path, crash_on: str = "") -> CompilePool:
    def run(jit: _Jit, job: PreloadJob) -> None:
        if job.specialization == crash_on:
            os._exit(3)  # as a compile that crashes the process
        with log.open("a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()} {jit.name} {job.specialization} {job.config}\n")

    return CompilePool(2, run)


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
    assert lines[0][0] == str(os.getpid())  # the first compile warms the program's own process
    workers = {pid for pid, name, _, _ in lines[1:] if name == "first"}
    assert str(os.getpid()) not in workers and len(workers) <= 2  # 11 jobs, at most 2 forks
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
    for pid, _, _, _ in _lines(log)[1:]:
        counts[pid] = counts.get(pid, 0) + 1
    assert sum(counts.values()) == 8 and max(counts.values()) <= 2 and len(counts) >= 4


def test_a_crashing_compile_loses_only_its_job(tmp_path: Path) -> None:
    log = tmp_path / "log"
    pool = _pool(log, crash_on="s3")
    jit = _Jit("k")
    for i in range(8):
        pool.submit(jit, PreloadJob("m:k", f"s{i}"))
    pool.drain()
    assert sorted(s for _, _, s, _ in _lines(log)) == [f"s{i}" for i in range(8) if i != 3]
    assert pool.workers == []
