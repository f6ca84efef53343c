"""The times the README promises a newcomer, measured: the first `irscope show`, and the test suite.

* cold show: ``irscope show matmul --stage ttgir`` in a fresh store and a fresh Triton cache (imports, the
  offline compile, the store's commit), as the README's first call; a warm one after it for comparison;
* ``--quick``: the quick tier, ``python -m pytest -m "not compile"`` (docs/testing.md);
* ``--suite``: the whole suite, ``python -m pytest`` as the README runs it (about 25 minutes on 2 cores).

Each runs in fresh processes from the repository root; the numbers are wall seconds. Run it on a quiet machine:
the suite's time is the machine's as much as irscope's.

    PYTHONPATH=$PWD python benchmarks/first_hour_times.py [--runs 3] [--quick] [--suite]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], env: dict[str, str], quiet: bool = True) -> tuple[float, int]:
    """Wall seconds and exit status of one run of ``cmd`` from the repository root."""
    start = time.perf_counter()
    out = subprocess.DEVNULL if quiet else None
    code = subprocess.run(cmd, env=env, cwd=REPO, stdout=out, stderr=out, check=False).returncode
    return time.perf_counter() - start, code


def launcher() -> list[str]:
    """The console script a user types; ``python -m irscope`` when it is not on PATH."""
    beside = Path(sys.executable).with_name("irscope")
    exe = str(beside) if beside.is_file() else shutil.which("irscope")
    return [exe] if exe else [sys.executable, "-m", "irscope"]


def show_times(runs: int, target: str) -> tuple[list[float], list[float]]:
    """Cold (fresh store and Triton cache each time) and warm seconds of ``irscope show matmul --stage ttgir``."""
    show = [*launcher(), "show", "matmul", "--stage", "ttgir", "--target", target]
    cold, warm = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            env.update(IRSCOPE_HOME=f"{home}/store", TRITON_CACHE_DIR=f"{home}/triton-cache", TRITON_HOME=home)
            seconds, code = timed(show, env)
            if code != 0:
                raise SystemExit(f"first_hour_times: {' '.join(show)} exited {code}")
            cold.append(seconds)
            warm.append(timed(show, env)[0])
    return cold, warm


def pytest_time(extra: list[str]) -> tuple[float, int]:
    """Wall seconds and exit status of ``python -m pytest EXTRA`` (its output shown)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return timed([sys.executable, "-m", "pytest", "-q", *extra], env, quiet=False)


def line(name: str, values: list[float]) -> str:
    return (f"{name:<48} median {statistics.median(values):7.2f} s  (min {min(values):.2f}, "
            f"max {max(values):.2f}, {len(values)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="cold shows, each in a fresh store (default 3)")
    parser.add_argument("--target", default="sm90")
    parser.add_argument("--quick", action="store_true", help='also time the quick tier (pytest -m "not compile")')
    parser.add_argument("--suite", action="store_true",
                        help="also time the whole test suite (the README says how long it takes)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    cold, warm = show_times(args.runs, args.target)
    results = [line(f"first irscope show matmul --stage ttgir (cold, {args.target})", cold),
               line("the same show again (warm)", warm)]
    for flag, name, extra in ((args.quick, "quick tier: python -m pytest -m 'not compile'", ["-m", "not compile"]),
                              (args.suite, "test suite: python -m pytest", [])):
        if flag:
            seconds, code = pytest_time(extra)
            results.append(f"{name:<48} {seconds / 60:7.1f} min ({seconds:.0f} s, exit status {code})")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    print("\n".join(results))


if __name__ == "__main__":
    main()
