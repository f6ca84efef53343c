"""Pass dumps (issue 3): loading and indexing matmul@sm90's whole dump, one pass's diff, a warm
`irscope passes matmul` -- each printed beside its goal and a yardstick.

Goals: load + index the whole dump within 1 s; any one pass's diff within 50 ms; warm
`irscope passes matmul` within 1.5 s. The first run captures (two compiles); that time is printed too.
Issue 18: `irscope passes matmul --llvm` (MLIR and LLVM passes, 210 MB printed) within 1.5x the
plain per-pass compile, both compiled again (the stored dump removed) in the same run, alternating, side by side.
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


def wall(cmd: list[str], env: dict[str, str], runs: int) -> list[float]:
    """Wall seconds of ``runs`` executions of ``cmd`` (output discarded, as when piped)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return times


def timed(fn: object, runs: int) -> list[float]:
    """Wall seconds of ``runs`` calls of ``fn``."""
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        out.append(time.perf_counter() - start)
    return out


def verdict(value: float, goal: float) -> str:
    return f"(goal <= {goal * 1000:.0f} ms: {'met' if value <= goal else 'NOT met'})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--target", default="sm90")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--compiles", type=int, default=3, help="per-pass compiles of each kind, alternating")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "IRSCOPE_HOME": home}
        beside = Path(sys.executable).with_name("irscope")
        exe = str(beside) if beside.is_file() else shutil.which("irscope")
        launcher = [exe] if exe else [sys.executable, "-m", "irscope"]
        passes = [*launcher, "passes", "matmul", "--target", args.target]
        start = time.perf_counter()
        subprocess.run(passes, env=env, stdout=subprocess.DEVNULL, check=True)
        print(f"cold `irscope passes matmul` (artifact + per-pass compiles): {time.perf_counter() - start:.1f} s")

        def fresh_dump(flag: str) -> float:
            """Wall seconds of `passes matmul FLAG` with no stored per-pass dump (the capture stays)."""
            for old in Path(home, "captures").glob("matmul-*/passes*"):
                old.unlink()
            return wall([*passes, *flag.split()], env, 1)[0]

        # Alternating, plain last (its MLIR dump is what the rest of this script reads), medians of --compiles.
        samples: dict[str, list[float]] = {"--llvm": [], "": []}
        for _ in range(args.compiles):
            for flag in samples:
                samples[flag].append(fresh_dump(flag))
        recompile = {flag: statistics.median(values) for flag, values in samples.items()}
        ratio = recompile["--llvm"] / recompile[""]
        load = os.getloadavg()[0]
        print(f"per-pass compile (median of {args.compiles}): plain {recompile[''] * 1000:.0f} ms, --llvm "
              f"{recompile['--llvm'] * 1000:.0f} ms; ratio {ratio:.2f} (goal <= 1.50: "
              f"{'met' if ratio <= 1.5 else 'NOT met'}); load average {load:.2f}")

        os.environ["IRSCOPE_HOME"] = home
        from irscope.analysis.diff import DiffOptions
        from irscope.request.captures import get_capture, make_request
        from irscope.request.compare import diff_points, pass_point
        from irscope.store.passdump import load_dump, scan_dump

        capture = get_capture(make_request("matmul", args.target))
        dump = load_dump(capture.path)
        assert dump is not None
        raw = dump.info.raw_bytes
        print(f"dump: {len(dump.index.passes)} passes, {raw / 1e6:.1f} MB raw, "
              f"{dump.path.stat().st_size / 1e6:.2f} MB stored ({raw / dump.path.stat().st_size:.0f}x)")

        with_index = statistics.median(timed(lambda: load_dump(capture.path), args.runs))
        whole = timed(lambda: [d.text(s.id) for d in [load_dump(capture.path)] for s in d.index.sections],  # type: ignore[union-attr]
                      args.runs)
        scanned = statistics.median(timed(lambda: scan_dump(dump.path), args.runs))
        print(f"load + index from the stored index        median {with_index * 1000:8.1f} ms")
        print(f"  ... and decompress every section         median {statistics.median(whole) * 1000:8.1f} ms "
              f"{verdict(statistics.median(whole), 1.0)}")
        print(f"read + index the .gz alone (no index file) median {scanned * 1000:8.1f} ms {verdict(scanned, 1.0)}")

        options = DiffOptions()
        per_pass: list[tuple[float, str]] = []
        for p in dump.index.passes:

            def one(spec: str = str(p.index)) -> None:
                d = load_dump(capture.path)  # a fresh dump: nothing cached, each diff reads its sections
                diff_points(pass_point(d, spec, "before"), pass_point(d, spec, "after"), options)  # type: ignore[arg-type]

            per_pass.append((statistics.median(timed(one, 3)), f"{p.index} {p.name}"))
        per_pass.sort()
        times = [t for t, _ in per_pass]
        print(f"one pass's diff (load, read, normalise, diff) over {len(times)} passes: "
              f"median {statistics.median(times) * 1000:.1f} ms, "
              f"slowest {times[-1] * 1000:.1f} ms ({per_pass[-1][1]}) {verdict(times[-1], 0.05)}")
        for t, name in per_pass[-3:]:
            print(f"    {t * 1000:7.1f} ms  {name}")

        rows = {
            "python -c 'import triton'": wall([sys.executable, "-c", "import triton"], env, args.runs),
            "irscope passes matmul (warm)": wall(passes, env, args.runs),
        }
        for name, values in rows.items():
            print(f"{name:<32} median {statistics.median(values) * 1000:7.1f} ms  (min {min(values) * 1000:.1f})")
        warm = statistics.median(rows["irscope passes matmul (warm)"])
        ratio = warm / statistics.median(rows["python -c 'import triton'"])
        print(f"ratio warm passes / import triton = {ratio:.2f}; {verdict(warm, 1.5)}")


if __name__ == "__main__":
    main()
