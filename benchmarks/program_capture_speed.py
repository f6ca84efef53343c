"""Issue 18: `irscope capture --target sm90 -- python <fla chunk_gla forward>` within 30 s on 2 cores.

Runs the capture of a real library program (fla's chunk_gla forward on small shapes, the program
below) into a fresh store and prints its wall time, how many kernels were captured and not, the
load average before and after (the machine may be shared), and a per-compile breakdown by stage
from the captures' manifests. fla-core is looked for on PYTHONPATH and in ``--site`` (default
/tmp/libsite); without it the benchmark says so and exits 0.
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

PROGRAM = '''"""fla chunk_gla forward on small shapes (CPU tensors; irscope captures the Triton compiles)."""
import torch
from fla.ops.gla import chunk_gla

B, T, H, K, V = 1, 256, 2, 64, 64
q = torch.randn(B, T, H, K, device="cuda")
k = torch.randn(B, T, H, K, device="cuda")
v = torch.randn(B, T, H, V, device="cuda")
g = torch.nn.functional.logsigmoid(torch.randn(B, T, H, K, device="cuda"))
o, _ = chunk_gla(q, k, v, g)
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--target", default="sm90")
    parser.add_argument("--site", default="/tmp/libsite", help="where fla-core is installed (added to PYTHONPATH)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--goal", type=float, default=30.0, help="seconds")
    args = parser.parse_args()
    repo = Path(__file__).resolve().parents[1]
    path = os.pathsep.join(p for p in (str(repo), args.site, os.environ.get("PYTHONPATH", "")) if p)
    probe = subprocess.run([sys.executable, "-c", "import fla.ops.gla"], env={**os.environ, "PYTHONPATH": path},
                           capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["?"])[-1]
        print(f"skipped: fla-core is not importable (PYTHONPATH and --site {args.site}): {last}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp, "fla_gla_fwd.py")
        program.write_text(PROGRAM, encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": path, "IRSCOPE_HOME": str(Path(tmp, "home"))}
        load_before = os.getloadavg()[0]
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "irscope", "capture", "--target", args.target, "-j",
                               str(args.jobs), "--", sys.executable, str(program)],
                              env=env, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        load_after = os.getloadavg()[0]
        captured = done.stdout.count("  captured ") + done.stderr.count("  captured ")
        missed = [ln for ln in (done.stdout + done.stderr).splitlines() if "NOT captured:" in ln]
        manifests = [json.loads(p.read_text(encoding="utf-8"))
                     for p in Path(tmp, "home", "captures").glob("*/manifest.json")]
    print(f"capture of fla chunk_gla forward for {args.target}, -j {args.jobs}, {os.cpu_count()} cores: "
          f"{wall:.1f} s, exit status {done.returncode}, {captured} captured, {len(missed)} not captured")
    print(f"load average: {load_before:.2f} before, {load_after:.2f} after")
    if manifests:
        stages: dict[str, list[float]] = {}
        for m in manifests:
            for name, seconds in m.get("stage_seconds", {}).items():
                stages.setdefault(name, []).append(seconds)
        total = [sum(m.get("stage_seconds", {}).values()) for m in manifests]
        print(f"per compile ({len(manifests)} stored): median {statistics.median(total):.3f} s in Triton's stages; "
              + ", ".join(f"{k} {statistics.mean(v):.3f}" for k, v in stages.items()) + " (mean s)")
        same = sum(1 for m in manifests if m.get("same_code_as"))
        print(f"captures sharing another config's code (stopped after TTGIR, same_code_as): {same}")
        sass = sum(1 for m in manifests if "sass" in m.get("files", {}))
        print(f"captures storing a .sass from Triton's dump: {sass} (others make it from the cubin when read)")
    print(f"goal <= {args.goal:.0f} s: {'met' if wall <= args.goal else 'NOT met'}")
    if done.returncode != 0:
        print(done.stderr[-2000:])


if __name__ == "__main__":
    main()
