"""On a GPU: irscope's predicted shared-memory bank conflicts against Nsight Compute's counters.

Launches the kernels of tests/data/kernels/bank_conflicts.py (8-way FMA-dot operand loads: a 32x32
tile whose upper and lower half-warps repeat each other's addresses, and a 16x256x64 tile where all 32
lanes differ; the conflict-free twin; a transpose through a layout conversion) and the bundled matmul
and softmax at small sizes, once each. The prediction (irscope.analysis.banks.conflicts on the TTGIR and PTX the JIT
compiled for that very launch) is summed over the launch: each op's conflicts per CTA times the CTAs,
or, for ops inside a loop, times the loop iterations of all CTAs. The measurement is one `ncu` run over
all of them: l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum and _op_st.sum per kernel (and
the cp.async counter when this ncu knows it). Prints one line per kernel and counter; with --out DIR
also writes bank_conflicts.json and bank_conflicts.txt there.

    python3 benchmarks/bank_conflicts_gpu.py --out DIR [--ncu /usr/local/cuda/bin/ncu]
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
TEST_KERNELS = REPO / "tests" / "data" / "kernels" / "bank_conflicts.py"
METRICS = {
    "ld": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "st": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "ldgsts": "l1tex__data_bank_conflicts_pipe_lsu_mem_global_op_ldgsts.sum",
    # all wavefronts, not only the extra ones: tells conflicts within an instruction from other causes
    "wavefronts ld": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "wavefronts st": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
}
OPTIONAL = ("ldgsts", "wavefronts ld", "wavefronts st")
CASES = ("fma_dot_bt_kernel", "fma_dot_bt_wide_kernel", "fma_dot_kernel", "transpose_kernel", "matmul_kernel",
         "softmax_kernel")


def _test_module() -> Any:
    spec = importlib.util.spec_from_file_location("bank_conflict_kernels", TEST_KERNELS)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def launch(name: str) -> tuple[Any, int, int, str]:
    """Launch one case once; (the JIT's compiled kernel, CTAs, loop iterations over all CTAs, kernel file)."""
    import torch
    import triton

    if name == "fma_dot_bt_wide_kernel":
        tiles = [torch.randn(16384, device="cuda") for _ in range(3)]
        compiled = _test_module().fma_dot_bt_wide_kernel[(1,)](*tiles, BM=16, BN=256, BK=64)
        return compiled, 1, 0, str(TEST_KERNELS)
    if name in ("fma_dot_bt_kernel", "fma_dot_kernel", "transpose_kernel"):
        module = _test_module()
        tiles = [torch.randn(32 * 32, device="cuda") for _ in range(3)]
        fn = getattr(module, name)
        args = tiles if "dot" in name else tiles[:2]
        compiled = fn[(1,)](*args, BLOCK=32)
        return compiled, 1, 0, str(TEST_KERNELS)
    from irscope.model.kernels import bundled_kernels

    kernel = "matmul" if name == "matmul_kernel" else "softmax"
    sizes = {"M": 512, "N": 512, "K": 512} if kernel == "matmul" else {"n_rows": 1024, "n_cols": 1024}
    info = bundled_kernels()[kernel]
    module = info.load()
    config = info.config("cuda", 0)

    def new(shape: tuple[int, ...], dt: Any, role: str) -> Any:
        return torch.randn(shape, device="cuda").to(getattr(torch, dt) if isinstance(dt, str) else dt)

    tensors = module.make_tensors(sizes, info.dtype, new)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    args, kwargs = module.kernel_args(tensors, sizes, config, sms)
    grid = module.grid(sizes, config, sms)
    compiled = getattr(module, info.function)[grid](*args, **kwargs)
    ctas = grid[0]
    # matmul: each CTA's K-loop; softmax: the persistent programs walk every row once between them
    iterations = ctas * triton.cdiv(sizes["K"], config["BLOCK_SIZE_K"]) if kernel == "matmul" else sizes["n_rows"]
    torch.cuda.synchronize()
    return compiled, ctas, iterations, str(Path(str(module.__file__)).resolve())


def _sass(compiled: Any) -> Any:
    """The kernel's SASS with line info (nvdisasm on its cubin), so ptxas's widened loads are modelled; None if not."""
    from irscope.parse.lineinfo import parse_sass_lines
    from irscope.toolchain.nvtools import tool_path

    tool = tool_path("nvdisasm")
    cubin = compiled.asm.get("cubin") if hasattr(compiled.asm, "get") else None
    if tool is None or not isinstance(cubin, bytes):
        print("note: no nvdisasm or cubin: the bank model uses the PTX's widths", file=sys.stderr)
        return None
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "kernel.cubin"
        path.write_bytes(cubin)
        run = subprocess.run([str(tool), "-c", "-gi", str(path)], capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        print(f"note: nvdisasm failed ({run.stderr.strip()[:200]}): the bank model uses the PTX's widths",
              file=sys.stderr)
        return None
    return parse_sass_lines(run.stdout)


def predict(compiled: Any, ctas: int, iterations: int, kernel_file: str) -> dict[str, Any]:
    """Predicted conflicts of one launch per ncu counter, and the per-op lines behind them."""
    from irscope.analysis.banks.conflicts import bank_report
    from irscope.views.bank_text import render_bank_report

    report = bank_report(compiled.asm["ttgir"], compiled.asm["ptx"], kernel_file, _sass(compiled))
    totals: dict[str, int | None] = {}
    for counter in METRICS:
        wavefronts = counter.startswith("wavefronts")
        chosen = [a for a in report.accesses if a.counter == counter.rsplit(" ", 1)[-1]]
        if any(a.kind == "unknown" for a in chosen):
            totals[counter] = None
            continue
        per_cta = [round(a.wavefronts_per_instruction * a.instructions_per_warp * report.num_warps) if wavefronts
                   else a.conflicts_per_cta for a in chosen]
        totals[counter] = sum(n * (iterations if a.loop_line else ctas) for n, a in zip(per_cta, chosen, strict=True))
    return {"totals": totals, "text": render_bank_report(report, str(getattr(compiled, "name", "")))}


def child(names: list[str]) -> None:
    """Under ncu: launch every case once."""
    for name in names:
        launch(name)


def known_metrics(ncu: str) -> set[str]:
    """The base metric names this ncu offers (empty when it cannot say)."""
    run = subprocess.run([ncu, "--query-metrics"], capture_output=True, text=True, timeout=120)
    return {line.split()[0] for line in run.stdout.splitlines() if line.strip() and not line.startswith(("-", " "))}


def measure(ncu: str, names: list[str], metrics: list[str]) -> dict[str, dict[str, float]]:
    """Kernel name -> metric -> value, from one ncu run over all cases."""
    regex = "regex:" + "|".join(names)
    command = [ncu, "--csv", "--metrics", ",".join(metrics), "-k", regex, sys.executable, __file__, "--child",
               *names]
    run = subprocess.run(command, capture_output=True, text=True, timeout=170)
    if run.returncode != 0:
        raise SystemExit(f"ncu failed ({run.returncode}): {run.stderr.strip()[-2000:]}")
    body = run.stdout[run.stdout.find('"ID"'):] if '"ID"' in run.stdout else ""
    found: dict[str, dict[str, float]] = {}
    for row in csv.DictReader(io.StringIO(body)):
        kernel = next((n for n in names if n in row.get("Kernel Name", "")), None)
        value = (row.get("Metric Value") or "").replace(",", "")
        if kernel is None or not value:
            continue
        try:
            amount = float(value)
            counts = found.setdefault(kernel, {})
            counts[row["Metric Name"]] = counts.get(row["Metric Name"], 0.0) + amount
        except ValueError:
            continue
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="also write bank_conflicts.json and .txt here")
    parser.add_argument("--ncu",
                        default="/usr/local/cuda/bin/ncu" if Path("/usr/local/cuda/bin/ncu").exists() else "ncu")
    parser.add_argument("--child", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("cases", nargs="*", default=list(CASES))
    args = parser.parse_args()
    if args.child is not None:
        child(args.child)
        return 0
    import torch

    if not torch.cuda.is_available():
        print("bank_conflicts_gpu: no GPU visible to torch; this check needs one", file=sys.stderr)
        return 2
    if shutil.which(args.ncu) is None and not Path(args.ncu).exists():
        print(f"bank_conflicts_gpu: {args.ncu} not found; give --ncu PATH", file=sys.stderr)
        return 2
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="bank-cache-"))  # shared with the ncu child
    predictions = {}
    for name in args.cases:
        compiled, ctas, iterations, kernel_file = launch(name)
        predictions[name] = predict(compiled, ctas, iterations, kernel_file)
    offered = known_metrics(args.ncu)
    metrics = [m for c, m in METRICS.items() if c not in OPTIONAL or m.rsplit(".", 1)[0] in offered]
    # cp.async's counters may come split by cache policy (..._ldgsts_cache_access / _cache_bypass): sum them
    ldgsts = sorted(f"{m}.sum" for m in offered if m.startswith(METRICS["ldgsts"].rsplit(".", 1)[0] + "_"))
    measured = measure(args.ncu, list(args.cases), metrics + ldgsts)
    for values in measured.values():
        parts = [values[m] for m in ldgsts if m in values]
        if parts and METRICS["ldgsts"] not in values:
            values[METRICS["ldgsts"]] = sum(parts)
    if ldgsts and METRICS["ldgsts"] not in metrics:
        metrics.append(METRICS["ldgsts"])
    import triton

    lines = [f"GPU {torch.cuda.get_device_name(0)}, Triton {triton.__version__}; extra shared-memory "
             "wavefronts per launch"]
    lines.append(f"{'kernel':<20} {'counter':<14} {'predicted':>10} {'ncu':>10}  verdict")
    rows = []
    for name in args.cases:
        for counter, metric in METRICS.items():
            if metric not in metrics:
                continue
            predicted = predictions[name]["totals"][counter]
            got = measured.get(name, {}).get(metric)
            if predicted is None or got is None:
                verdict = "n/a"
            elif (predicted == 0) != (got == 0):
                verdict = "WRONG KIND"
            elif predicted == 0 or 0.5 <= got / predicted <= 2:
                verdict = "ok"
            else:
                verdict = "OFF >2x"
            shown = "unknown" if predicted is None else str(predicted)
            lines.append(f"{name:<20} {counter:<14} {shown:>10} {'-' if got is None else f'{got:.0f}':>10}  {verdict}")
            rows.append({"kernel": name, "counter": counter, "metric": metric, "predicted": predicted,
                         "measured": got, "verdict": verdict})
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "bank_conflicts.json").write_text(json.dumps(rows, indent=2))
        details = "\n\n".join(predictions[n]["text"] for n in args.cases)
        (args.out / "bank_conflicts.txt").write_text(text + "\n\n" + details + "\n")
    return 1 if any(r["verdict"] in ("WRONG KIND", "OFF >2x") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
