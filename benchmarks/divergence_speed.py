"""``compare`` with its first divergence against a plain ``compare``, on two warm captures (#29).

    python benchmarks/divergence_speed.py                                  # matmul sm90 vs --set num_stages=2
    python benchmarks/divergence_speed.py --triton 3.5.1 --vs-triton current --home /tmp/tritons-home

Both sides are compiled, their per-pass dumps stored and one compare run first (ptxas -v and nvdisasm are
cached beside the captures); then ``compare`` (first divergence included) and ``compare --facts-only`` run
alternately, three times each, in fresh processes. Prints the best wall time of each and their ratio
(target: under 2 s with the first divergence).
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
    parser.add_argument("--kernel", default="matmul")
    parser.add_argument("--target", default="sm90")
    parser.add_argument("--triton", help="the first side's Triton (a version installed in --home, or a Python)")
    parser.add_argument("--vs-triton", help="the second side's Triton")
    parser.add_argument("--set", dest="settings", action="append", default=None,
                        help="the second side's what-if (default without --vs-triton: num_stages=2)")
    parser.add_argument("--home", default=os.environ.get("IRSCOPE_HOME"), help="the store holding the environments")
    args = parser.parse_args()
    store = tempfile.mkdtemp(prefix="irscope-divergence-")
    if args.home and Path(args.home, "tritons").is_dir():
        os.symlink(Path(args.home, "tritons"), Path(store, "tritons"))  # the managed environments, shared
    first = [args.kernel, "--target", args.target] + (["--triton", args.triton] if args.triton else [])
    settings = args.settings if args.settings is not None else ([] if args.vs_triton else ["num_stages=2"])
    sets = [arg for item in settings for arg in ("--set", item)]
    second = [args.kernel, "--target", args.target, *sets]
    second += ["--triton", args.vs_triton] if args.vs_triton else (["--triton", args.triton] if args.triton else [])
    for side in (first, second):
        _run(["passes", *side], store)  # the capture and its per-pass dump
    compare = ["compare", *first, *(["--vs-triton", args.vs_triton] if args.vs_triton else []), *sets]
    _run(compare, store)  # reads and caches ptxas -v / nvdisasm for both sides
    full: list[float] = []
    plain: list[float] = []
    for _ in range(3):
        full.append(_run(compare, store))
        plain.append(_run([*compare, "--facts-only"], store))
    best, base = min(full), min(plain)
    print(f"compare with the first divergence: {best:.2f} s, plain compare (--facts-only): {base:.2f} s, "
          f"ratio {best / base:.2f}x (best of 3 each, alternated; target under 2 s; {' '.join(compare)})")


if __name__ == "__main__":
    main()
