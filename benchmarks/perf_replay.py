"""Replay perf_model_validation's table offline: today's model (sm90, meta tensors) against a saved H200 run's numbers.

``python benchmarks/perf_replay.py perf.json [--cases a,b]`` re-runs the model of every case with the
device figures that run measured (its ``ceilings``) and checks it against that run's do_bench times and
ncu metrics, so the model can be changed and re-checked without a GPU.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import perf_model_validation as pmv  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", help="the perf.json a GPU run of perf_model_validation.py wrote")
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    args = parser.parse_args()
    import torch

    from irscope.analysis.perf.predict import device_model
    from irscope.model.targets import resolve_target
    from irscope.request.perf_launch import measured_device, native_gpu
    from irscope.run.bench import Ceilings

    saved = json.loads(Path(args.run).read_text(encoding="utf-8"))
    kept = saved["ceilings"]
    gathers = kept.get("gather_gbps")
    ceilings = Ceilings(device=saved["gpu"], copy_gbps=kept["copy_gbps"], matmul_tflops=kept["matmul_tflops"],
                        l2_bytes=kept.get("l2_bytes", 0), sm_count=kept.get("sm_count", 0),
                        gather_gbps={int(k): v for k, v in gathers.items()} if isinstance(gathers, dict) else {})
    native = measured_device(ceilings, "sm90")  # the table's row for the GPU that run named, measured figures in
    sheet = device_model(native_gpu(saved["gpu"], "sm90"))
    store = tempfile.mkdtemp(prefix="irscope-replay-")
    results: list[pmv.Result] = []
    for old in saved["cases"]:
        if args.cases and old["name"] not in args.cases.split(","):
            continue
        launch = pmv._case(old["name"]).build(torch, native.sm_count, device="meta")
        result = pmv.Result(old["name"], old["flaw"], old["kernel"], old["grid"], measured_us=old["measured_us"],
                            ncu=old["ncu"], ncu_bound=old["ncu_bound"])
        result.model, result.model_datasheet, _ = pmv._model(launch, resolve_target("sm90"), store, native, sheet)
        result.checks = pmv._checks(result)
        results.append(result)
    shutil.rmtree(store, ignore_errors=True)
    pmv.print_table(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
