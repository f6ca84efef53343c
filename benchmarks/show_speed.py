"""Warm `irscope show` against `python -c "import triton"`, each in fresh processes, medians printed."""

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


def wall(cmd: list[str], env: dict[str, str], runs: int) -> list[float]:
    """Wall seconds of ``runs`` executions of ``cmd`` (output discarded, as when piped)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--target", default="sm90")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "IRSCOPE_HOME": home}
        # The console script a user types; `python -m irscope` when it is not on PATH.
        beside = Path(sys.executable).with_name("irscope")
        exe = str(beside) if beside.is_file() else shutil.which("irscope")
        launcher = [exe] if exe else [sys.executable, "-m", "irscope"]
        show = [*launcher, "show", "matmul", "--stage", "ttgir", "--target", args.target]
        subprocess.run(show, env=env, stdout=subprocess.DEVNULL, check=True)  # the cold capture
        rows = {
            "python -c pass": wall([sys.executable, "-c", "pass"], env, args.runs),
            "python -c 'import triton'": wall([sys.executable, "-c", "import triton"], env, args.runs),
            "irscope show matmul --stage ttgir (warm)": wall(show, env, args.runs),
        }
    med = {k: statistics.median(v) for k, v in rows.items()}
    for name, value in med.items():
        print(f"{name:<44} median {value * 1000:7.1f} ms  (min {min(rows[name]) * 1000:.1f}, {args.runs} runs)")
    ratio = med["irscope show matmul --stage ttgir (warm)"] / med["python -c 'import triton'"]
    print(f"ratio warm show / import triton = {ratio:.2f}  (goal <= 0.50: {'met' if ratio <= 0.5 else 'NOT met'})")


if __name__ == "__main__":
    main()
