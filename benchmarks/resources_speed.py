"""``irscope resources KERNEL --all-configs -j 2`` against ``-j 1``, each on a fresh store, taking turns; medians.

The goal (issue 43): on two idle cores ``-j 2`` takes at most 0.6x the time of ``-j 1`` (matmul for sm80: 8
configs). Each run compiles every config (``-j 2``: in two worker processes), then runs cuobjdump and ptxas -v on
each capture (``-j 2``: two at a time). Wall and CPU seconds (the process and its children) are printed for each,
and the ratio of the medians; on a shared machine the wall times grow, so run it where the cores are idle
(``taskset -c 0,1`` pins it to two).

    PYTHONPATH=$PWD python benchmarks/resources_speed.py [--kernel matmul] [--target sm80] [--runs 2]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL = 0.6
REPO = Path(__file__).resolve().parent.parent


def timed(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``irscope ARGS`` on a fresh store (and a fresh Triton cache)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "IRSCOPE_HOME": f"{tmp}/store", "TRITON_CACHE_DIR": f"{tmp}/triton",
               "IRSCOPE_PRECOMPILE": "0",
               "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "irscope", *args], env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kernel", default="matmul")
    parser.add_argument("--target", default="sm80")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    base = ["resources", args.kernel, "--target", args.target, "--all-configs"]
    rows: dict[str, list[tuple[float, float]]] = {"-j 1": [], "-j 2": []}
    for _ in range(args.runs):
        for jobs in rows:
            rows[jobs].append(timed([*base, *jobs.split()]))
    print(f"irscope {' '.join(base)}, fresh store each run, {args.runs} runs each, taking turns; "
          f"{len(os.sched_getaffinity(0))} cores")
    wall = {k: statistics.median(w for w, _ in v) for k, v in rows.items()}
    for jobs, runs in rows.items():
        print(f"{jobs}: wall {wall[jobs]:.1f} s (runs {', '.join(f'{w:.1f}' for w, _ in runs)}), "
              f"CPU {statistics.median(c for _, c in runs):.1f} s")
    ratio = wall["-j 2"] / wall["-j 1"]
    print(f"ratio -j 2 / -j 1 = {ratio:.2f}x (goal <= {GOAL}x: {'met' if ratio <= GOAL else 'NOT met'})")


if __name__ == "__main__":
    main()
