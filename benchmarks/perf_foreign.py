"""On a GPU: the foreign validation set of ``irscope perf``: kernels nobody here wrote, each at a realistic size.

Sources: Liger-Kernel, fla-core (flash-linear-attention), flag-gems, Triton's tutorials (their kernels read from
``--tutorials DIR``/tutorial_kernels.py, never kept in this repository) and torch.compile (Inductor) output. The
libraries are imported as installed; nothing of theirs is copied here.

    python3 perf_foreign.py --driver-all --launches L.jsonl [--cases REGEX]   # what irscope capture and ncu run
    python3 perf_foreign.py --ncu OUTDIR [--cases REGEX]                    # ncu over the driver, per source
    python3 perf_foreign.py --list
    python3 perf_foreign.py --build-data RESULTS_DIR... --out tests/data/perf_foreign/fit   # here, no GPU
    python3 perf_foreign.py --build-data NEW_RESULTS... --merge-into tests/data/perf_foreign/fit --out ...

``--half test`` (with any of them) takes the held-out half's cases instead (perf_foreign_test.py: sources the fit
half has none of); its data goes to tests/data/perf_foreign/test. The fit half is frozen: a constant of the model
may be fitted on it, never on the test half.

The driver builds each case, launches it twice (compiles, autotunes, warms up), then launches it once more
inside an NVTX range ``measure``, which is what ncu profiles (``--nvtx-include measure/``). During that launch
every Triton kernel launch is recorded (``CompiledKernel.launch_metadata``, called when
``triton.knobs.runtime.launch_enter_hook`` is set): kernel name, Triton's hash (the capture key's suffix), grid,
integer arguments, each tensor argument's bytes and the contents of the small integer tensors (sequence lengths,
block tables, expert ids: ``data``, as irscope's own launch records keep them), as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
for _path in (HERE, Path.cwd() / "benchmarks"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

NCU_DEFAULT = "/usr/local/cuda/bin/ncu"
# Fewer metrics than perf_model_validation.METRICS: fewer replay passes per kernel, so the whole set fits a lease.
FOREIGN_METRICS = [
    "gpu__time_duration.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "lts__t_sector_hit_rate.pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__maximum_warps_per_active_cycle_pct",
    "launch__grid_size",
    "launch__registers_per_thread",
    "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__cycles_elapsed.avg.per_second",
]


@dataclass(frozen=True)
class Case:
    """One foreign case: its source, name, and how to build it (``build(torch) -> run``, run launches it once)."""

    source: str
    name: str
    build: Callable[[Any], Callable[[], Any]]


# ---- the launch recorder ---------------------------------------------------------------------------------------

RECORDS: list[dict[str, Any]] = []
_RECORDING = {"on": False, "case": ""}


def _arg_names(kernel: Any, count: int) -> list[str]:
    fn = getattr(getattr(kernel, "src", None), "fn", None)
    names = list(getattr(fn, "arg_names", []) or [])
    if len(names) == count:
        return names
    constexprs = set(getattr(fn, "constexprs", []) or [])
    runtime = [n for i, n in enumerate(names) if i not in constexprs]
    if len(runtime) == count:
        return runtime
    return [f"arg{i}" for i in range(count)]


def _descriptor(name: str, desc: Any) -> dict[str, Any]:
    """A TensorDescriptor argument: the bytes its shape addresses in its base tensor, and the descriptor itself."""
    base = desc.base
    shape = [int(d) for d in desc.shape]
    elements = 1
    for d in shape:
        elements *= d
    return {"name": name, "nbytes": elements * int(base.element_size()), "dtype": str(base.dtype).rsplit(".", 1)[-1],
            "shape": shape, "descriptor": {"strides": [int(s) for s in desc.strides],
                                           "block_shape": [int(b) for b in desc.block_shape],
                                           "base_shape": [int(d) for d in base.shape]}}


def _record(kernel: Any, grid: Any, args: tuple[Any, ...]) -> None:
    from irscope.compile.launch_values import tensor_contents
    from irscope.model.launch import DATA_ELEMENTS_PER_LAUNCH, INTEGER_DTYPES, TensorData, data_to_json

    names = _arg_names(kernel, len(args))
    values: dict[str, int] = {}
    tensors: list[dict[str, Any]] = []
    data: list[TensorData] = []
    not_recorded: list[str] = []
    for name, value in zip(names, args, strict=False):
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            values[name] = int(value)
        elif hasattr(value, "data_ptr") and hasattr(value, "element_size") and hasattr(value, "shape"):
            dtype = str(value.dtype).rsplit(".", 1)[-1]
            tensors.append({"name": name, "nbytes": int(value.numel() * value.element_size()),
                            "dtype": dtype, "shape": [int(d) for d in value.shape]})
            if dtype in INTEGER_DTYPES:  # the launch's own contents, read before the kernel runs
                found = tensor_contents(name, value, dtype, DATA_ELEMENTS_PER_LAUNCH - sum(len(d.values) for d in data))
                if isinstance(found, TensorData):
                    data.append(found)
                else:
                    not_recorded.append(f"{name}: {found}")
        elif hasattr(value, "base") and hasattr(value, "block_shape"):  # a host TensorDescriptor (TMA)
            tensors.append(_descriptor(name, value))
    try:
        grid3 = [int(g) for g in grid][:3]
    except TypeError:
        grid3 = [int(grid)]
    grid3 += [1] * (3 - len(grid3))
    meta = getattr(kernel, "metadata", None)
    RECORDS.append({"case": _RECORDING["case"], "index": len(RECORDS), "kernel": str(kernel.name),
                    "hash": str(getattr(kernel, "hash", "")), "grid": grid3, "values": values, "tensors": tensors,
                    "num_warps": int(getattr(meta, "num_warps", 0) or 0),
                    "num_stages": int(getattr(meta, "num_stages", 0) or 0),
                    "shared": int(getattr(meta, "shared", 0) or 0),
                    **({"data": data_to_json(data)} if data else {}),
                    **({"not_recorded": not_recorded} if not_recorded else {})})


def install_recorder() -> None:
    """Record every Triton launch made while ``_RECORDING['on']`` (Triton 3.x: via CompiledKernel.launch_metadata)."""
    import triton
    from triton.compiler import compiler

    original = compiler.CompiledKernel.launch_metadata

    def launch_metadata(self: Any, grid: Any, stream: Any, *args: Any) -> Any:
        if _RECORDING["on"]:
            try:
                _record(self, grid, args)
            except Exception as exc:  # a record is data; never break the launch
                print(f"perf_foreign: cannot record {getattr(self, 'name', '?')}: {exc}", file=sys.stderr)
        return original(self, grid, stream, *args)

    compiler.CompiledKernel.launch_metadata = launch_metadata  # type: ignore[method-assign]
    knobs = getattr(triton, "knobs", None)
    def hook(*_args: Any, **_kwargs: Any) -> None:
        return None

    if knobs is not None:
        knobs.runtime.launch_enter_hook = hook
    else:  # older Triton
        compiler.CompiledKernel.launch_enter_hook = hook


# ---- the cases ---------------------------------------------------------------------------------------------------

def _rand(torch: Any, *shape: int, dtype: Any = None) -> Any:
    return torch.randn(*shape, device="cuda", dtype=dtype or torch.bfloat16)


def _liger_cases() -> list[Case]:
    def rms_norm(torch: Any) -> Callable[[], Any]:
        from liger_kernel.ops.rms_norm import LigerRMSNormFunction
        x, w = _rand(torch, 8192, 4096), _rand(torch, 4096)
        return lambda: LigerRMSNormFunction.apply(x, w, 1e-6)

    def fused_add_rms_norm(torch: Any) -> Callable[[], Any]:
        from liger_kernel.ops.fused_add_rms_norm import LigerFusedAddRMSNormFunction
        x, r, w = _rand(torch, 8192, 4096), _rand(torch, 8192, 4096), _rand(torch, 4096)
        return lambda: LigerFusedAddRMSNormFunction.apply(x, r, w, 1e-6)

    def layer_norm(torch: Any) -> Callable[[], Any]:
        from liger_kernel.ops.layer_norm import LigerLayerNormFunction
        x, w, b = _rand(torch, 8192, 4096), _rand(torch, 4096), _rand(torch, 4096)
        return lambda: LigerLayerNormFunction.apply(x, w, b, 1e-6)

    def swiglu(torch: Any) -> Callable[[], Any]:
        from liger_kernel.ops.swiglu import LigerSiLUMulFunction
        a, b = _rand(torch, 8192, 11008), _rand(torch, 8192, 11008)
        return lambda: LigerSiLUMulFunction.apply(a, b)

    def geglu(torch: Any) -> Callable[[], Any]:
        from liger_kernel.ops.geglu import LigerGELUMulFunction
        a, b = _rand(torch, 8192, 11008), _rand(torch, 8192, 11008)
        return lambda: LigerGELUMulFunction.apply(a, b)

    def rope(torch: Any) -> Callable[[], Any]:
        from liger_kernel.ops.rope import LigerRopeFunction
        q, k = _rand(torch, 4, 32, 2048, 128), _rand(torch, 4, 8, 2048, 128)
        cos, sin = _rand(torch, 1, 2048, 128), _rand(torch, 1, 2048, 128)
        return lambda: LigerRopeFunction.apply(q, k, cos, sin)

    def cross_entropy(torch: Any) -> Callable[[], Any]:
        from liger_kernel.ops.cross_entropy import LigerCrossEntropyFunction
        x = _rand(torch, 8192, 32000)
        t = torch.randint(0, 32000, (8192,), device="cuda")
        return lambda: LigerCrossEntropyFunction.apply(x, t, None)

    def dyt(torch: Any) -> Callable[[], Any]:
        from liger_kernel.ops.dyt import LigerDyTFunction
        x, alpha = _rand(torch, 8192, 4096), _rand(torch, 1)
        g, b = _rand(torch, 4096), _rand(torch, 4096)
        return lambda: LigerDyTFunction.apply(x, alpha, g, b)

    def group_norm(torch: Any) -> Callable[[], Any]:
        from liger_kernel.ops.group_norm import LigerGroupNormFunction
        x = _rand(torch, 32, 256, 4096)
        w, b = _rand(torch, 256), _rand(torch, 256)
        return lambda: LigerGroupNormFunction.apply(x, w, b, 256, 32, 1e-6)

    def kl_div(torch: Any) -> Callable[[], Any]:
        from liger_kernel.ops.kl_div import LigerKLDivLossFunction
        p = torch.log_softmax(_rand(torch, 8192, 32000, dtype=torch.float32), -1)
        q = torch.softmax(_rand(torch, 8192, 32000, dtype=torch.float32), -1)
        return lambda: LigerKLDivLossFunction.apply(p, q, "batchmean", False, 1e-10)

    def jsd(torch: Any) -> Callable[[], Any]:
        from liger_kernel.ops.jsd import LigerJSDFunction
        p = torch.log_softmax(_rand(torch, 8192, 32000, dtype=torch.float32), -1)
        q = torch.log_softmax(_rand(torch, 8192, 32000, dtype=torch.float32), -1)
        return lambda: LigerJSDFunction.apply(p, q)

    builds = [("rms_norm fwd 8192x4096 bf16", rms_norm), ("fused_add_rms_norm fwd 8192x4096 bf16", fused_add_rms_norm),
              ("layer_norm fwd 8192x4096 bf16", layer_norm), ("swiglu fwd 8192x11008 bf16", swiglu),
              ("geglu fwd 8192x11008 bf16", geglu), ("rope fwd q4x32x2048x128 bf16", rope),
              ("cross_entropy fwd 8192x32000 bf16", cross_entropy), ("dyt fwd 8192x4096 bf16", dyt),
              ("group_norm fwd 32x256x4096 bf16", group_norm), ("kl_div fwd 8192x32000 fp32", kl_div),
              ("jsd fwd 8192x32000 fp32", jsd)]
    return [Case("liger", f"liger {name}", build) for name, build in builds]


def _tutorial_module() -> Any:
    import importlib.util

    folder = Path(os.environ.get("FOREIGN_TUTORIALS", Path.cwd() / ".foreign" / "tutorials"))
    path = folder / "tutorial_kernels.py"
    spec = importlib.util.spec_from_file_location("tutorial_kernels", path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(f"{path}: Triton's tutorial kernels are not there (set FOREIGN_TUTORIALS)")
    module = importlib.util.module_from_spec(spec)
    sys.modules["tutorial_kernels"] = module
    spec.loader.exec_module(module)
    return module


def _tutorial_cases() -> list[Case]:
    def persistent_matmul(torch: Any) -> Callable[[], Any]:
        t = _tutorial_module()
        m = n = k = 8192
        a, b = _rand(torch, m, k, dtype=torch.float16), _rand(torch, k, n, dtype=torch.float16)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        grid = (min(sms, (m // 128) * (n // 128)),)
        return lambda: t.matmul_kernel_persistent[grid](
            a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
            BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, NUM_SMS=sms, num_warps=4,
            num_stages=3)

    def attention(head_dim: int) -> Callable[[Any], Callable[[], Any]]:
        # The tutorial's TMA forward (_attn_fwd_tma with host TensorDescriptors, what it runs on Hopper): Triton
        # 3.6's TritonGPUPipeline fails on its block-pointer _attn_fwd once the JIT specialises the pointers
        # (divisible by 16) and the unit strides together, at any num_stages > 1; the TMA kernel compiles there
        # for sm90 at the same configs (checked offline with `irscope triton install 3.6.0`).
        def build(torch: Any) -> Callable[[], Any]:
            from triton.tools.tensor_descriptor import TensorDescriptor

            t = _tutorial_module()
            if not hasattr(t, "_attn_fwd_tma"):
                raise AttributeError("tutorial_kernels.py has no _attn_fwd_tma: add _attn_fwd_inner_tma and "
                                     "_attn_fwd_tma from 06-fused-attention.py @003da478")
            z, h, n_ctx = 4, 32, 4096
            q, k, v = (_rand(torch, z, h, n_ctx, head_dim, dtype=torch.float16) for _ in range(3))
            o = torch.empty_like(q)
            m = torch.empty(z, h, n_ctx, device="cuda", dtype=torch.float32)
            block_m, block_n, warps, stages = 128, 64, 4 if head_dim == 64 else 8, 3
            rows = z * h * n_ctx
            desc = [TensorDescriptor(x, shape=[rows, head_dim], strides=[head_dim, 1], block_shape=[block, head_dim])
                    for x, block in ((q, block_m), (k, block_n), (v, block_n), (o, block_m))]
            grid = (n_ctx // block_m, z * h, 1)
            return lambda: t._attn_fwd_tma[grid](
                head_dim ** -0.5, m, z, h, *desc, n_ctx, HEAD_DIM=head_dim, BLOCK_M=block_m, BLOCK_N=block_n,
                FP8_OUTPUT=False, STAGE=1, num_warps=warps, num_stages=stages)
        return build

    def layer_norm(torch: Any) -> Callable[[], Any]:
        t = _tutorial_module()
        x = _rand(torch, 4096, 8192, dtype=torch.float16)
        w, b = _rand(torch, 8192, dtype=torch.float16), _rand(torch, 8192, dtype=torch.float16)
        y = torch.empty_like(x)
        mean = torch.empty(4096, device="cuda", dtype=torch.float32)
        rstd = torch.empty(4096, device="cuda", dtype=torch.float32)
        return lambda: t._layer_norm_fwd_fused[(4096,)](x, y, w, b, mean, rstd, x.stride(0), 8192, 1e-5,
                                                       BLOCK_SIZE=8192, num_warps=8)

    def softmax(torch: Any) -> Callable[[], Any]:
        t = _tutorial_module()
        x = _rand(torch, 4096, 4096, dtype=torch.float32)
        y = torch.empty_like(x)
        return lambda: t.softmax_kernel[(4096,)](y, x, x.stride(0), y.stride(0), 4096, BLOCK_SIZE=4096,
                                                 num_warps=16)

    return [Case("tutorial", "tutorial persistent matmul 8192^3 fp16 128x128x64 w4 s3", persistent_matmul),
            Case("tutorial", "tutorial attention fwd TMA Z4 H32 N4096 D64 fp16 128x64 s3", attention(64)),
            Case("tutorial", "tutorial attention fwd TMA Z4 H32 N4096 D128 fp16 128x64 s3", attention(128)),
            Case("tutorial", "tutorial layer_norm fwd 4096x8192 fp16", layer_norm),
            Case("tutorial", "tutorial fused softmax 4096x4096 fp32", softmax)]


def _fla_cases() -> list[Case]:
    def gla(torch: Any) -> Callable[[], Any]:
        from fla.ops.gla import chunk_gla
        b, t, h, d = 2, 4096, 16, 128
        q, k, v = (_rand(torch, b, t, h, d) for _ in range(3))
        g = torch.nn.functional.logsigmoid(_rand(torch, b, t, h, d, dtype=torch.float32)) / 16
        return lambda: chunk_gla(q, k, v, g.to(torch.bfloat16))

    def gated_delta(torch: Any) -> Callable[[], Any]:
        from fla.ops.gated_delta_rule import chunk_gated_delta_rule
        b, t, h, d = 2, 4096, 16, 128
        q, k, v = (_rand(torch, b, t, h, d) for _ in range(3))
        g = torch.nn.functional.logsigmoid(_rand(torch, b, t, h, dtype=torch.float32))
        beta = torch.rand(b, t, h, device="cuda", dtype=torch.bfloat16)
        return lambda: chunk_gated_delta_rule(q, k, v, g, beta, use_qk_l2norm_in_kernel=True)

    return [Case("fla", "fla chunk_gla fwd B2 T4096 H16 D128 bf16", gla),
            Case("fla", "fla chunk_gated_delta_rule fwd B2 T4096 H16 D128 bf16", gated_delta)]


def _gems_cases() -> list[Case]:
    def op(name: str, make: Callable[[Any], tuple[Any, ...]], call: Callable[..., Any]) -> Case:
        def build(torch: Any) -> Callable[[], Any]:
            import flag_gems
            args = make(torch)
            return lambda: call(flag_gems, *args)
        return Case("flag_gems", f"flag_gems {name}", build)

    return [op("add 2^28 bf16", lambda torch: (_rand(torch, 2**28), _rand(torch, 2**28)),
               lambda fg, a, b: fg.add(a, b)),
            op("softmax 8192x8192 bf16", lambda torch: (_rand(torch, 8192, 8192),),
               lambda fg, x: fg.softmax(x, -1)),
            op("layer_norm 8192x4096 bf16", lambda torch: (_rand(torch, 8192, 4096), _rand(torch, 4096),
                                                           _rand(torch, 4096)),
               lambda fg, x, w, b: fg.layer_norm(x, [4096], w, b, 1e-5)),
            op("sum dim=-1 8192x8192 bf16", lambda torch: (_rand(torch, 8192, 8192),),
               lambda fg, x: fg.sum_dim(x, [-1])),
            op("mm 4096^3 bf16", lambda torch: (_rand(torch, 4096, 4096), _rand(torch, 4096, 4096)),
               lambda fg, a, b: fg.mm(a, b))]


def _inductor_cases() -> list[Case]:
    def block(torch: Any) -> Callable[[], Any]:
        import torch.nn.functional as F
        x = _rand(torch, 8192, 4096)
        w1, w2 = _rand(torch, 11008, 4096) * 0.02, _rand(torch, 4096, 11008) * 0.02
        ln_w, ln_b = _rand(torch, 4096), _rand(torch, 4096)

        def mlp(x: Any) -> Any:
            h = F.layer_norm(x, (4096,), ln_w, ln_b)
            return x + F.linear(F.gelu(F.linear(h, w1)), w2)

        compiled = torch.compile(mlp)
        return lambda: compiled(x)

    def softmax_block(torch: Any) -> Callable[[], Any]:
        x = _rand(torch, 8192, 32000)
        compiled = torch.compile(lambda x: torch.softmax(x.float() * 0.5, -1).to(torch.bfloat16))
        return lambda: compiled(x)

    return [Case("inductor", "inductor LayerNorm+MLP(GELU)+residual 8192x4096 bf16", block),
            Case("inductor", "inductor scaled softmax 8192x32000 bf16->fp32", softmax_block)]


CASES: list[Case] = _liger_cases() + _tutorial_cases() + _fla_cases() + _gems_cases() + _inductor_cases()
HALF = {"name": "fit"}  # which half's cases the driver runs: --half


def _cases() -> list[Case]:
    if HALF["name"] == "test":
        import perf_foreign_test

        return perf_foreign_test.CASES
    return CASES


def _selected(pattern: str | None) -> list[Case]:
    return [c for c in _cases() if pattern is None or re.search(pattern, c.name)]


# ---- the driver --------------------------------------------------------------------------------------------------

def _nvtx(torch: Any) -> Any:
    """torch.cuda.nvtx, or (offline, under irscope capture --target's stand-in, no NVTX) a range that does nothing."""
    try:
        torch.cuda.nvtx.range_push("probe")
        torch.cuda.nvtx.range_pop()
        return torch.cuda.nvtx
    except RuntimeError:
        class Off:
            def range_push(self, _name: str) -> None:
                return None

            def range_pop(self) -> None:
                return None
        return Off()


def driver_all(pattern: str | None, launches: Path) -> int:
    """Build and launch each selected case (two warm-ups, one measured launch in NVTX range 'measure')."""
    os.environ.setdefault("TORCHINDUCTOR_USE_STATIC_CUDA_LAUNCHER", "0")
    import torch

    install_recorder()
    failed = 0
    with launches.open("a") as out:
        for case in _selected(pattern):
            try:
                run = case.build(torch)
                for _ in range(2):
                    run()
                torch.cuda.synchronize()
                start = len(RECORDS)
                _RECORDING.update(on=True, case=case.name)
                nvtx = _nvtx(torch)
                nvtx.range_push("measure")
                run()
                torch.cuda.synchronize()
                nvtx.range_pop()
                _RECORDING["on"] = False
                for rec in RECORDS[start:]:
                    out.write(json.dumps({**rec, "source": case.source}) + "\n")
                out.flush()
                print(f"perf_foreign: {case.name}: {len(RECORDS) - start} Triton launch(es)", flush=True)
                del run
                torch.cuda.empty_cache()
            except Exception:
                _RECORDING["on"] = False
                failed += 1
                print(f"perf_foreign: {case.name} FAILED:\n{traceback.format_exc()}", flush=True)
    return 1 if failed else 0


def ncu_all(outdir: Path, pattern: str | None, ncu: str, timeout: float) -> int:
    """One ncu process per source over the driver; each writes OUTDIR/ncu-SOURCE.csv and launches-SOURCE.jsonl."""
    outdir.mkdir(parents=True, exist_ok=True)
    sources = sorted({c.source for c in _selected(pattern)}, key=[c.source for c in _cases()].index)
    for source in sources:
        names = "|".join(re.escape(c.name) for c in _selected(pattern) if c.source == source)
        launches = outdir / f"launches-{source}.jsonl"
        launches.unlink(missing_ok=True)
        command = [ncu, "--target-processes", "all", "--nvtx", "--nvtx-include", "measure/",
                   "--clock-control", "none", "--cache-control", "all", "--print-units", "base", "--csv",
                   "--page", "raw", "--metrics", ",".join(FOREIGN_METRICS),
                   sys.executable, str(Path(__file__).resolve()), "--half", HALF["name"], "--driver-all",
                   "--launches", str(launches), "--cases", f"^({names})$"]
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
            (outdir / f"ncu-{source}.csv").write_text(run.stdout)
            (outdir / f"ncu-{source}.err").write_text(run.stderr[-20000:])
            print(f"perf_foreign: ncu {source}: exit {run.returncode}, {len(run.stdout)} bytes", flush=True)
        except subprocess.TimeoutExpired as exc:
            text = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
            (outdir / f"ncu-{source}.csv").write_text(text)
            print(f"perf_foreign: ncu {source}: timed out after {timeout:.0f} s", flush=True)
    return 0


# ---- joining launches, ncu rows and captures; the model's score (any machine, no GPU) ----------------------------

TIME_TOL, DRAM_TOL = 0.25, 0.15


def _jsonl(files: list[Path]) -> list[dict[str, Any]]:
    return [json.loads(line) for f in files for line in f.read_text().splitlines() if line.strip()]


def join(run_dirs: list[Path], keys: list[str]) -> list[dict[str, Any]]:
    """One entry per measured Triton launch: its case, the launch, ncu's values and bound, and its capture key.

    The key is the capture of the launch's own Triton hash when the capture run compiled it; else (Inductor
    regenerates its kernels per process) the capture run's launch of the same case, kernel and ordinal.
    """
    from perf_model_validation import _number, _parse_csv, ncu_bound

    entries = []
    for run in run_dirs:
        captured = _jsonl(sorted(run.glob("launches-capture-*.jsonl")))
        for csv_file in sorted(run.glob("ncu-*.csv")):
            source = csv_file.stem.removeprefix("ncu-")
            rows = _parse_csv(csv_file.read_text())
            used: set[int] = set()
            seen: dict[tuple[str, str], int] = {}
            for rec in _jsonl([run / f"launches-{source}.jsonl"]):
                match = next((i for i, row in enumerate(rows) if i not in used
                              and row.get("Kernel Name", "").split("(", 1)[0].strip() == rec["kernel"]), None)
                values: dict[str, float] = {}
                if match is not None:
                    used.add(match)
                    values = {m: v for m in FOREIGN_METRICS if (v := _number(rows[match].get(m, ""))) is not None}
                ordinal = seen[(rec["case"], rec["kernel"])] = seen.get((rec["case"], rec["kernel"]), -1) + 1
                key, how = _key(rec["hash"], keys), "hash"
                if not key:
                    twins = [c for c in captured if (c["case"], c["kernel"]) == (rec["case"], rec["kernel"])]
                    twin = twins[ordinal] if ordinal < len(twins) else None
                    key, how = (_key(twin["hash"], keys), "same case, kernel and ordinal") if twin else ("", "")
                entry = {**rec, "index": len(entries), "ncu": values, "ncu_bound": ncu_bound(values),
                         "capture": key, "capture_match": how if key else "none"}
                if not values:
                    entry["ncu_missing"] = NO_NCU_ROW
                entries.append(entry)
    return entries


NO_NCU_ROW = ("ncu profiled no launch of this kernel in the 'measure' range (a push/pop NVTX range is the pushing "
              "thread's: autograd runs a CUDA backward on its own thread, outside it)")


def _key(triton_hash: str, keys: list[str]) -> str:
    return next((k for k in keys if triton_hash and k.endswith(triton_hash[:20])), "")


def predict(entry: dict[str, Any], store: Any, device: Any) -> dict[str, Any]:
    """The model's prediction for one recorded launch (its capture, grid, integer arguments, tensor bytes and the
    recorded contents of its small integer tensors)."""
    from irscope.analysis.perf.capture import capture_perf

    capture = store.get(entry["capture"])
    report = capture_perf(capture, device, launch_of(entry))
    return {"predicted_us": report.predicted_us, "dram_bytes": report.dram_bytes, "bound": report.bound,
            "why": report.bound_reason, "dram_why": report.dram_assumption}


def launch_of(entry: dict[str, Any]) -> Any:
    """The recorded launch as the model's LaunchShape (``data``: the contents recorded with it, if any)."""
    from irscope.model.launch import LaunchShape, TensorBytes, data_from_json

    tensors = tuple(TensorBytes(t["name"], int(t["nbytes"]), t.get("role", "inout")) for t in entry["tensors"])
    data, problem = data_from_json(entry.get("data"))
    if problem:
        raise ValueError(f"entry {entry.get('index')} ({entry.get('kernel')}): {problem}")
    return LaunchShape(tuple(entry["grid"]), dict(entry["values"]), tensors, "the recorded launch", data,
                       tuple(entry.get("not_recorded", ())))


def score(entries: list[dict[str, Any]], store: Any, device: Any) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """Each scored kernel's row (ncu against the model) and the shares within the tolerances."""
    rows = []
    for e in entries:
        ncu = e["ncu"]
        if not e["capture"] or "gpu__time_duration.sum" not in ncu:
            continue
        p = predict(e, store, device)
        us = ncu["gpu__time_duration.sum"] / 1000.0
        dram = ncu.get("dram__bytes_read.sum", 0.0) + ncu.get("dram__bytes_write.sum", 0.0)
        rows.append({"case": e["case"], "kernel": e["kernel"], "ncu_us": us, "predicted_us": p["predicted_us"],
                     "ratio": p["predicted_us"] / us, "ncu_dram_mb": dram / 1e6,
                     "predicted_dram_mb": p["dram_bytes"] / 1e6, "ncu_bound": e["ncu_bound"], "bound": p["bound"],
                     "time_ok": abs(p["predicted_us"] - us) <= TIME_TOL * us,
                     "dram_ok": dram > 0 and abs(p["dram_bytes"] - dram) <= DRAM_TOL * dram,
                     "bound_ok": p["bound"] == e["ncu_bound"], "why": p["why"], "dram_why": p["dram_why"]})
    n = max(1, len(rows))
    shares = {"kernels": float(len(rows)),
              **{k: sum(r[f"{k}_ok"] for r in rows) / n for k in ("time", "dram", "bound")}}
    return rows, shares


# What a verdict says when the model knows its figure for the cause is a guess: an assumed rate or hit share
MISS_CAUSES = ("uncertain", "not modelled", "lower bound")


def far_misses(rows: list[dict[str, Any]], factor: float = 2.0) -> list[tuple[dict[str, Any], str, str]]:
    """The rows whose time or DRAM bytes are off by more than ``factor``: (row, what, the verdict's text for it)."""
    out = []
    for r in rows:
        if not 1 / factor <= r["ratio"] <= factor:
            out.append((r, "time", r["why"]))
        if r["ncu_dram_mb"] and not 1 / factor <= r["predicted_dram_mb"] / r["ncu_dram_mb"] <= factor:
            out.append((r, "dram", r["dram_why"]))
    return out


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table."""
    out = ["| kernel (case) | ncu us | predicted us | ratio | DRAM MB ncu / predicted | bound ncu / model |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['kernel']} ({r['case']}) | {r['ncu_us']:.1f} | {r['predicted_us']:.1f} | {r['ratio']:.2f} | "
                   f"{r['ncu_dram_mb']:.0f} / {r['predicted_dram_mb']:.0f} | {r['ncu_bound']} / {r['bound']} |")
    return "\n".join(out)


def h200(name: str = "h200") -> Any:
    """The H200's data-sheet device model (what ``irscope perf --gpu h200`` uses), or another sm90 GPU's by name
    (a half measured on the card the device lent: its measurements.json says ``gpu``)."""
    from irscope.analysis.perf.device import device_model
    from irscope.model.gpus import resolve_gpu

    gpu = resolve_gpu(name, "sm90")
    assert gpu is not None, name
    return device_model(gpu)


def build_data(run_dirs: list[Path], out: Path, merge_into: Path | None = None, rescore: bool = True,
               gpu: str = "h200") -> int:
    """From the device's result folders: the stripped capture archive and measurements.json (with the baseline).

    With ``merge_into`` (a folder this wrote before) its entries and captures stay as they are and the result
    folders' launches follow them; the baseline is the score over all of them (``rescore=False``, with no result
    folders: the folder's own baseline, kept).
    """
    import tempfile

    from irscope.store.archive import export, open_archive
    from irscope.store.store import Store

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "store")
        old: list[dict[str, Any]] = []
        if merge_into is not None:
            old = json.loads((merge_into / "measurements.json").read_text())["entries"]
            open_archive(merge_into / "captures.tar.gz", store, trust=False)
        kept = {e["capture"] for e in old if e["capture"]}
        for run in run_dirs:
            open_archive(run / "captures.tar.gz", store, trust=False)
        keys = sorted(c.manifest.key for c in store.captures())
        new = [{**e, "index": len(old) + e["index"]} for e in join(run_dirs, keys)]
        entries = old + new
        for key in sorted({e["capture"] for e in new if e["capture"]} - kept):
            _strip(store.get(key).path)
        used = sorted({e["capture"] for e in entries if e["capture"]})
        store = Store(Path(tmp) / "store")
        export([store.get(k) for k in used], out / "captures.tar.gz")
        check = Store(Path(tmp) / "check")
        open_archive(out / "captures.tar.gz", check)
        if rescore or run_dirs or merge_into is None:
            rows, shares = score(entries, check, h200(gpu))
        else:
            rows, shares = [], json.loads((merge_into / "measurements.json").read_text())["baseline"]
    data = {"about": f"irscope perf on foreign kernels, measured with ncu on an {gpu.upper()}: see README.md",
            **({"gpu": gpu} if gpu != "h200" else {}), "tolerances": {"time": TIME_TOL, "dram": DRAM_TOL},
            "baseline": shares, "entries": entries}
    (out / "measurements.json").write_text(json.dumps(data, indent=1) + "\n")
    print(table(rows))
    print(json.dumps(shares))
    return 0


def _strip(folder: Path) -> None:
    """Leave out the other projects' source text (source.py, .source) and the LLVM IR the model does not read."""
    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    for stage in ("source", "llir"):
        name = manifest["files"].pop(stage, None)
        if name:
            (folder / name).unlink(missing_ok=True)
            manifest["checksums"].pop(name, None)
    for path in folder.iterdir():
        if path.suffix == ".source":
            path.unlink()
            manifest["checksums"].pop(path.name, None)
    manifest_path.write_text(json.dumps(manifest, indent=1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--driver-all", action="store_true")
    parser.add_argument("--launches", type=Path, default=Path("launches.jsonl"))
    parser.add_argument("--cases", default=None, help="a regular expression over case names")
    parser.add_argument("--ncu", type=Path, default=None, metavar="OUTDIR")
    parser.add_argument("--ncu-bin", default=NCU_DEFAULT)
    parser.add_argument("--timeout", type=float, default=240.0)
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--build-data", type=Path, nargs="+", default=None, metavar="RESULTS_DIR",
                        help="the device's result folders -> --out's measurements.json and captures.tar.gz")
    parser.add_argument("--half", choices=("fit", "test"), default="fit",
                        help="the fit half's cases (perf_foreign.py) or the held-out half's (perf_foreign_test.py)")
    parser.add_argument("--out", type=Path, default=None, help="default tests/data/perf_foreign/HALF")
    parser.add_argument("--gpu", default="h200", help="with --build-data: the card ncu measured on (h200, h100)")
    parser.add_argument("--merge-into", type=Path, default=None, metavar="DATA_DIR",
                        help="with --build-data: keep this folder's entries and captures, add the result folders'")
    args = parser.parse_args(argv)
    HALF["name"] = args.half
    out = args.out or Path("tests/data/perf_foreign") / args.half
    if args.list:
        for case in _selected(args.cases):
            print(f"{case.source:<10} {case.name}")
        return 0
    if args.build_data:
        return build_data(args.build_data, out, args.merge_into, gpu=args.gpu)
    if args.driver_all:
        return driver_all(args.cases, args.launches)
    if args.ncu is not None:
        return ncu_all(args.ncu, args.cases, args.ncu_bin, args.timeout)
    parser.error("give --driver-all, --ncu OUTDIR or --list")
    return 2


if __name__ == "__main__":
    sys.exit(main())
