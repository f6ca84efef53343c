"""The committed copies of device.sh's profiles (tests/data/artifacts/train_step.*.gz), trimmed and gzipped.

    python benchmarks/artifacts/measured_copies.py ART_DIR [--out tests/data/artifacts]

ART_DIR is device.sh's ``art`` folder. The torch.profiler trace keeps its GPU events (kernels, copies, sets) and
its top-level fields, and drops the CPU side (operators, runtime calls, flows), which ``--measured`` does not read;
the Proton profile and the ncu CSV are kept whole. Each is gzipped (``-9``, no timestamp).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")


def _write(out: Path, data: bytes) -> None:
    out.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    print(f"measured_copies: {out} {out.stat().st_size} bytes")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("art", type=Path)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "tests/data/artifacts")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    trace = json.loads((args.art / "train_step.trace.json").read_text(encoding="utf-8"))
    trace["traceEvents"] = [e for e in trace["traceEvents"] if isinstance(e, dict) and e.get("cat") in GPU_CATS]
    _write(args.out / "train_step.trace.json.gz", json.dumps(trace, separators=(",", ":")).encode())
    _write(args.out / "train_step.hatchet.gz", (args.art / "train_step.hatchet").read_bytes())
    _write(args.out / "train_step.ncu.csv.gz", (args.art / "train_step.ncu.csv").read_bytes())
    return 0


if __name__ == "__main__":
    sys.exit(main())
