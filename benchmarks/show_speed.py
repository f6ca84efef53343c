"""Warm `irscope show` beside a bare `python -c pass` start and `python -c "import triton"`, fresh processes, medians.

The goal (issue 25): a warm ``irscope show matmul --stage ttgir`` costs at most 6x a bare interpreter start. The
processes run as a user's would: with their bytecode cached (``PYTHONDONTWRITEBYTECODE`` is dropped, so the
cold capture writes it), output discarded as when piped. The commands take turns, and each one's CPU time is
printed beside its wall time: on a busy machine the wall times grow, the CPU times far less. The last two rows
start Python with ``-S`` (no site module, so none of the machine's ``.pth`` files runs at start-up; their paths
go on PYTHONPATH): a ``.pth`` that imports much (this sandbox's imports certifi, pathlib and re) makes the bare
start slower and the ratio look better than on a plain install.

    PYTHONPATH=$PWD python benchmarks/show_speed.py [--runs 15] [--target sm90]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL_VS_PASS = 6.0
SHOW = "irscope show matmul --stage ttgir (warm)"
PASS = "python -c pass"
TRITON = "python -c 'import triton'"
SHOW_S = "python -S -m irscope show matmul --stage ttgir (warm)"
PASS_S = "python -S -c pass"


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one run of ``cmd``, output discarded as when piped.

    It runs in the store's folder, so ``python -m`` imports irscope from PYTHONPATH as the console script does,
    not from the current directory.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   cwd=env["IRSCOPE_HOME"])
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def interleaved(commands: dict[str, tuple[list[str], dict[str, str]]],
                runs: int) -> dict[str, list[tuple[float, float]]]:
    """Each command ``runs`` times, taking turns, so a load that comes and goes weighs on all of them alike."""
    rows: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (cmd, env) in commands.items():
            rows[name].append(timed(cmd, env))
    return rows


def ratio_line(show: str, bare: str, wall: dict[str, float], cpu: dict[str, float]) -> str:
    """``show`` against ``bare``: the goal's ratio in wall time, and the same in CPU time."""
    ratio = wall[show] / wall[bare]
    return (f"ratio {show.split(' (')[0]} / {bare} = {ratio:.2f}x  (goal <= {GOAL_VS_PASS:g}x: "
            f"{'met' if ratio <= GOAL_VS_PASS else 'NOT met'}; in CPU time {cpu[show] / cpu[bare]:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--target", default="sm90")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["IRSCOPE_HOME"] = home
        # The same without site: no .pth file runs (a machine's own may import much at every start), the paths
        # they add given on PYTHONPATH instead.
        bare_env = {**env, "PYTHONPATH": os.pathsep.join(p for p in sys.path[1:] if p)}
        # The console script a user types; `python -m irscope` when it is not on PATH.
        beside = Path(sys.executable).with_name("irscope")
        exe = str(beside) if beside.is_file() else shutil.which("irscope")
        launcher = [exe] if exe else [sys.executable, "-m", "irscope"]
        show = [*launcher, "show", "matmul", "--stage", "ttgir", "--target", args.target]
        subprocess.run(show, env=env, stdout=subprocess.DEVNULL, check=True)  # the cold capture
        subprocess.run(show, env=env, stdout=subprocess.DEVNULL, check=True)  # a first warm one, not counted
        rows = interleaved({PASS: ([sys.executable, "-c", "pass"], env),
                            TRITON: ([sys.executable, "-c", "import triton"], env),
                            SHOW: (show, env),
                            PASS_S: ([sys.executable, "-S", "-c", "pass"], bare_env),
                            SHOW_S: ([sys.executable, "-S", "-m", "irscope", *show[len(launcher):]], bare_env)},
                           args.runs)
    wall = {k: statistics.median(w for w, _ in v) for k, v in rows.items()}
    cpu = {k: statistics.median(c for _, c in v) for k, v in rows.items()}
    for name, value in wall.items():
        print(f"{name:<54} median {value * 1000:7.1f} ms  (min {min(w for w, _ in rows[name]) * 1000:.1f}; "
              f"CPU median {cpu[name] * 1000:.1f} ms; {args.runs} runs)")
    print(f"irscope's own share of the warm show: {(wall[SHOW] - wall[PASS]) * 1000:.1f} ms over a bare start "
          f"({(wall[SHOW_S] - wall[PASS_S]) * 1000:.1f} ms without site)")
    print(ratio_line(SHOW, PASS, wall, cpu))
    print(ratio_line(SHOW_S, PASS_S, wall, cpu))
    print(f"ratio warm show / import triton = {wall[SHOW] / wall[TRITON]:.2f}")


if __name__ == "__main__":
    main()
