"""A facts sweep on Dask against local workers (issue 29): ``--engine dask -j 2`` vs ``-j 2``, side by side.

    python benchmarks/sweep_speed.py [--rounds 2] [--kernels matmul,softmax,vector_add] [--target sm80]

Each round runs ``irscope facts KERNELS --all-configs --target T -j 2`` once with local worker processes
and once with ``--engine dask`` (a LocalCluster of 2 single-threaded worker processes), in that order
and then the other, each in a fresh process with a fresh store and Triton cache, so both really
compile every entry. Prints the wall seconds of each, their median ratio (goal: dask <= 1.2x local) and
whether both gave the same facts (compile time aside).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _facts(engine: str, args: list[str], work: Path) -> tuple[float, list[dict[str, object]]]:
    """Wall seconds of one ``irscope facts`` in a fresh process, fresh store and cache; and its entries."""
    out = work / "facts.json"
    env = {**os.environ, "IRSCOPE_HOME": str(work / "store"), "TRITON_CACHE_DIR": str(work / "cache"),
           "PYTHONPATH": str(REPO), "IRSCOPE_PRECOMPILE": "0"}
    env.pop("IRSCOPE_TRITON", None)
    extra = ["--engine", "dask"] if engine == "dask" else []
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "irscope", "facts", *args, "-j", "2", *extra, "-o", str(out)],
                          capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"irscope facts ({engine}) failed: {proc.stderr[-800:]}")
    entries = json.loads(out.read_text())["entries"]
    for entry in entries:
        entry["facts"].pop("compile_seconds", None)
    return seconds, entries


def main() -> int:
    """Run the rounds and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--kernels", default="matmul,softmax,vector_add")
    parser.add_argument("--target", default="sm80")
    opts = parser.parse_args()
    args = [*opts.kernels.split(","), "--all-configs", "--target", opts.target]
    times: dict[str, list[float]] = {"local": [], "dask": []}
    same = True
    with tempfile.TemporaryDirectory(prefix="irscope-sweep-") as tmp:
        for r in range(opts.rounds):
            order = ("local", "dask") if r % 2 == 0 else ("dask", "local")
            found = {}
            for engine in order:
                work = Path(tmp) / f"{engine}-{r}"
                work.mkdir()
                seconds, entries = _facts(engine, args, work)
                times[engine].append(seconds)
                found[engine] = entries
                print(f"round {r + 1}: {engine:<5} {seconds:6.1f} s  ({len(entries)} entries)", flush=True)
            same = same and found["local"] == found["dask"]
    local, dask = statistics.median(times["local"]), statistics.median(times["dask"])
    print(f"\nfacts {' '.join(args)}: local -j 2 {local:.1f} s, --engine dask -j 2 {dask:.1f} s: "
          f"ratio {dask / local:.2f}x (goal <= 1.2x); same facts: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
