"""How long ``irscope report`` takes on a program with hundreds of kernels: cold (nothing cached) and warm.

The program is benchmarks/programs/wide_train_step.py (a training step of GPT-style blocks of eleven widths: about
200 distinct Triton kernels, forward and backward), captured offline for sm90 into --store unless a program record is
there already. Cold: the report's cache and the captures' ``derived/`` files (the SASS and tool reports made from
them) are removed first, as right after the capture; warm: the same command again (median of --runs). Each run is
``python -m irscope report --what-if 0`` in a fresh process, its text output thrown away (the page is not drawn).

    python benchmarks/report_speed.py --store /tmp/report-bench [--runs 3] [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROGRAM = REPO / "benchmarks" / "programs" / "wide_train_step.py"


def _irscope(store: Path, *args: str) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
           "IRSCOPE_HOME": str(store)}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "irscope", *args], capture_output=True, text=True, env=env,
                          check=False)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"irscope {' '.join(args)} failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    return seconds, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True, help="store holding (or to hold) the program capture")
    parser.add_argument("--runs", type=int, default=3, help="warm runs (median)")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes for the cold run")
    args = parser.parse_args()
    store = args.store.absolute()
    if not (store / "programs").is_dir() or not any((store / "programs").iterdir()):
        seconds, _ = _irscope(store, "capture", "--target", "sm90", "--", sys.executable, str(PROGRAM))
        print(f"captured {PROGRAM.name} in {seconds:.0f} s")
    for folder in (store / "programs").iterdir():
        shutil.rmtree(folder / "report", ignore_errors=True)
    for capture in (store / "captures").iterdir():
        shutil.rmtree(capture / "derived", ignore_errors=True)
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    cold, _ = _irscope(store, "report", "--what-if", "0", *jobs)
    warm = []
    for _ in range(args.runs):
        seconds, _ = _irscope(store, "report", "--what-if", "0")
        warm.append(seconds)
    _, text = _irscope(store, "report", "--what-if", "0", "--json")
    data = json.loads(text)
    configs = sum(u["configs"] for k in data["kernels"] for u in k["uses"])
    print(f"program {data['program']}: {len(data['kernels'])} Triton kernels, {configs} compiled configs, "
          f"{len(data['externs'])} extern rows; {os.cpu_count()} cores")
    print(f"{'':<8}{'cold':>10}{'warm (median of ' + str(args.runs) + ')':>26}")
    print(f"{'report':<8}{cold:>9.1f}s{statistics.median(warm):>25.2f}s")


if __name__ == "__main__":
    main()
