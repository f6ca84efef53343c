"""Across Triton versions and many compiles at once: the speeds of issue 15, as ratios in one run.

    python benchmarks/versions_speed.py --triton VERSION|PYTHON

Prints:
* ``--triton X`` against the same compile in this interpreter: matmul@sm90 captured by the worker of
  another interpreter vs in process, each into a fresh store (target: at most 1.15x);
* ``--triton X`` with the worker kept warm: ``facts`` of matmul's 8 sm80 configs (one command, 8 compiles)
  through the worker vs in process, fresh stores (target: at most 1.15x);
* 8 configs at once: ``facts`` of matmul's sm80 configs with ``-j 2`` vs ``-j 1``, fresh stores
  (target: at most 0.65x on a 2-core machine);
* ``compare --facts-only`` of two warm captures (matmul sm80 vs sm90, both already in the store), wall time of
  the command (target: under 0.5 s).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _run(args: list[str], store: str) -> float:
    """Wall seconds of one ``irscope`` command in a fresh process."""
    env = {**os.environ, "IRSCOPE_HOME": store, "PYTHONPATH": str(REPO)}
    env.pop("IRSCOPE_TRITON", None)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "irscope", *args], capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"irscope {' '.join(args)} failed: {proc.stderr[-500:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--triton", required=True, help="another Triton: a version installed with "
                        "'irscope triton install' in --home, or a Python interpreter")
    parser.add_argument("--home", default=os.environ.get("IRSCOPE_HOME"), help="the store holding the environments")
    args = parser.parse_args()
    home = args.home or tempfile.mkdtemp(prefix="irscope-versions-")

    def fresh() -> str:
        store = tempfile.mkdtemp(prefix="irscope-bench-")
        if Path(home, "tritons").is_dir():
            os.symlink(Path(home, "tritons"), Path(store, "tritons"))  # the managed environments, shared
        return store

    here = _run(["show", "matmul", "--target", "sm90", "--stage", "ttgir"], fresh())
    there = _run(["--triton", args.triton, "show", "matmul", "--target", "sm90", "--stage", "ttgir"], fresh())
    print(f"--triton {args.triton}: {there:.2f} s vs {here:.2f} s in this interpreter: {there / here:.2f}x "
          "(target 1.15x; whole commands, process start and imports included)")
    facts = ["facts", "matmul", "--target", "sm80", "--all-configs", "-j", "1"]
    here = _run(facts, fresh())
    there = _run(["--triton", args.triton, *facts], fresh())
    print(f"--triton {args.triton}, 8 compiles in one command (worker kept warm): {there:.1f} s vs {here:.1f} s in "
          f"this interpreter: {there / here:.2f}x (target 1.15x)")
    one = _run(["facts", "matmul", "--target", "sm80", "--all-configs", "-j", "1"], fresh())
    two = _run(["facts", "matmul", "--target", "sm80", "--all-configs", "-j", "2"], fresh())
    print(f"8 configs (matmul sm80, facts --all-configs): -j 2 {two:.1f} s vs -j 1 {one:.1f} s: {two / one:.2f}x "
          "(target 0.65x)")
    warm = fresh()
    _run(["show", "matmul", "--target", "sm80"], warm)
    _run(["show", "matmul", "--target", "sm90"], warm)
    plain = ["compare", "matmul", "--target", "sm80", "--vs-target", "sm90", "--facts-only"]
    _run(plain, warm)  # reads and caches ptxas -v
    times = [_run(plain, warm) for _ in range(3)]
    print(f"compare --facts-only of two warm captures: {min(times):.2f} s best of 3 (target 0.5 s; "
          "benchmarks/divergence_speed.py times it with the first divergence)")


if __name__ == "__main__":
    main()
