"""Cold irscope capture against a bare triton.compile of the same specialized kernel, in one process.

Both compile from scratch (a fresh, empty Triton cache each time) after a warm-up compile, so
imports and one-time initialisation are paid by neither; medians of alternating runs are printed.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kernel", default="matmul")
    parser.add_argument("--target", default="sm90")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    import triton

    from irscope.compile.capture import capture, quiet_triton, redirected_triton
    from irscope.compile.specialize import kernel_job
    from irscope.request.captures import make_request
    from irscope.store.store import Store

    req = make_request(args.kernel, args.target)
    tmp = Path(tempfile.mkdtemp())
    job = kernel_job(req.kernel, req.target, req.config_index, req.sizes)

    def bare() -> float:
        """A plain triton.compile of the JIT-specialized job, cache pointed at an empty dir."""
        root = Path(tempfile.mkdtemp(dir=tmp))
        import os

        os.environ["TRITON_CACHE_DIR"] = str(root)
        with quiet_triton(root / "log"):
            start = time.perf_counter()
            triton.compile(job.source(), target=job.gpu_target, options=job.options)
            return time.perf_counter() - start

    def ours() -> float:
        """irscope's full cold capture: specialization, redirected dumps, SASS, store commit."""
        store = Store(Path(tempfile.mkdtemp(dir=tmp)))
        start = time.perf_counter()
        capture(req.kernel, req.target, req.config_index, store, req.sizes)
        return time.perf_counter() - start

    with redirected_triton(tmp / "warmup"):
        triton.compile(job.source(), target=job.gpu_target, options=job.options)
    bare_t, ours_t = [], []
    for _ in range(args.runs):
        bare_t.append(bare())
        ours_t.append(ours())
    b, o = statistics.median(bare_t), statistics.median(ours_t)
    print(f"Triton {triton.__version__}, {args.kernel}@{args.target}, {args.runs} runs each")
    print(f"bare triton.compile      median {b:6.3f} s  (min {min(bare_t):.3f})")
    print(f"irscope cold capture     median {o:6.3f} s  (min {min(ours_t):.3f})")
    print(f"ratio capture / compile = {o / b:.3f}  (goal <= 1.15: {'met' if o / b <= 1.15 else 'NOT met'})")


if __name__ == "__main__":
    main()
