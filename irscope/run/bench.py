"""``irscope bench``: each bundled kernel against its PyTorch peer and the device's measured ceilings.

Every size is first checked for correctness, then timed with ``triton.testing.do_bench`` (median,
after warm-up) for every launch config of the kernel; the fastest config is reported and captured,
so ``irscope show KEY`` opens the IR of exactly what ran. Inputs that would fit in L2 are rotated
through several copies so neither side is timed out of cache.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from irscope.compile.kernel_module import load_kernel
from irscope.compile.torch_standin import torch_sees_gpu
from irscope.errors import NoDeviceError, UsageError
from irscope.model.kernels import KernelInfo

L2_ROTATE_FACTOR = 4  # rotate through enough input copies to exceed this many times the L2 size
MAX_COPIES = 8


@dataclass(frozen=True)
class Ceilings:
    """What this device reaches, measured by the command itself.

    Attributes:
        device: the GPU's name.
        copy_gbps: a large device-to-device copy, bytes read plus written per second (GB/s).
        matmul_tflops: a large fp16 cuBLAS product (8192^3), TFLOP/s.
        l2_bytes: the L2 cache size.
        sm_count: streaming multiprocessors.
        gather_gbps: per segment step (bytes), the DRAM segment bytes per second of a Triton gather that uses
            one fp32 of each 64-byte segment (``x[i * step / 4]``); empty when not measured.
    """

    device: str
    copy_gbps: float
    matmul_tflops: float
    l2_bytes: int
    sm_count: int
    gather_gbps: dict[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class BenchRow:
    """One kernel at one size.

    Attributes:
        kernel: kernel name; ``peer`` what it is compared with.
        size: the problem size; ``label`` as text (``4096x4096``).
        metric: ``GB/s`` (memory-bound kernels) or ``TFLOP/s`` (matmul).
        triton_ms / peer_ms: median milliseconds (median over runs of do_bench medians).
        triton_value / peer_value: achieved throughput in ``metric``.
        ratio: triton throughput / peer throughput.
        of_ceiling: triton throughput / the device ceiling for ``metric``.
        config_index / config: the fastest launch config.
        capture_key: the stored capture of that config at this size.
        max_error: largest abs error against the reference, checked before timing.
        skipped: configs that could not run here, with the reason.
    """

    kernel: str
    peer: str
    size: dict[str, int]
    label: str
    metric: str
    triton_ms: float
    peer_ms: float
    triton_value: float
    peer_value: float
    ratio: float
    of_ceiling: float
    config_index: int
    config: dict[str, Any]
    capture_key: str
    max_error: float
    skipped: list[str] = field(default_factory=list)


def size_label(size: dict[str, int]) -> str:
    """``{"M": 4096, "N": 4096, "K": 4096}`` -> ``4096x4096x4096``."""
    return "x".join(str(v) for v in size.values())


def throughput(work: dict[str, float], metric: str, ms: float) -> float:
    """GB/s or TFLOP/s for ``work`` done in ``ms`` milliseconds."""
    if ms <= 0:
        raise ValueError("time must be positive")
    if metric == "TFLOP/s":
        return work["flops"] / (ms * 1e-3) / 1e12
    return work["bytes"] / (ms * 1e-3) / 1e9


def metric_for(work: dict[str, float]) -> str:
    """TFLOP/s when the kernel does more than 50 flops per byte (compute-bound), else GB/s."""
    return "TFLOP/s" if work["flops"] / max(work["bytes"], 1.0) > 50 else "GB/s"


def copies_for(bytes_per_set: float, l2_bytes: int) -> int:
    """How many input sets to rotate through so the working set exceeds L2 several times over."""
    if bytes_per_set <= 0:
        return 1
    need = int(L2_ROTATE_FACTOR * l2_bytes // bytes_per_set) + 1
    return max(1, min(MAX_COPIES, need)) if bytes_per_set < L2_ROTATE_FACTOR * l2_bytes else 1


def sees_gpu() -> bool:
    """Whether torch here has a real GPU (not irscope's offline stand-in answering as one)."""
    import torch

    return torch_sees_gpu(torch)


def require_gpu() -> Any:
    """torch, when it sees a GPU; otherwise a one-line refusal (exit 2)."""
    import torch

    if not torch_sees_gpu(torch):
        raise NoDeviceError("irscope bench needs a GPU and torch sees none here; "
                            "use 'irscope run' for correctness under the interpreter")
    return torch


def measure_ceilings() -> Ceilings:
    """Copy bandwidth and cuBLAS fp16 throughput of this device, measured now."""
    torch = require_gpu()
    from triton.testing import do_bench

    props = torch.cuda.get_device_properties(0)

    def copy_ms() -> float:
        src = torch.empty(2**28, dtype=torch.float32, device="cuda")  # 1 GiB
        dst = torch.empty_like(src)
        return float(do_bench(lambda: dst.copy_(src), return_mode="median"))

    def matmul_ms() -> float:
        a = torch.randn(8192, 8192, dtype=torch.float16, device="cuda")
        b = torch.randn(8192, 8192, dtype=torch.float16, device="cuda")
        c = torch.empty_like(a)
        return float(do_bench(lambda: torch.matmul(a, b, out=c), return_mode="median"))

    from irscope.run.microbench import gather_rates

    copy_time, mm_time = copy_ms(), matmul_ms()
    copy_gbps = 2 * 2**30 / (copy_time * 1e-3) / 1e9
    gathers = gather_rates(torch, do_bench, copy_gbps)
    torch.cuda.empty_cache()
    return Ceilings(device=props.name, copy_gbps=copy_gbps,
                    matmul_tflops=2 * 8192**3 / (mm_time * 1e-3) / 1e12,
                    l2_bytes=int(getattr(props, "L2_cache_size", 50 * 2**20)), sm_count=props.multi_processor_count,
                    gather_gbps=gathers)


def _tensor_sets(module: Any, kernel: KernelInfo, size: dict[str, int], copies: int, torch: Any
                 ) -> list[dict[str, Any]]:
    dtype = getattr(torch, kernel.dtype)
    gen = torch.Generator(device="cuda").manual_seed(0)

    def new(shape: tuple[int, ...], dt: Any, role: str) -> Any:
        dt = getattr(torch, dt) if isinstance(dt, str) else dt
        if role == "output":
            return torch.full(shape, float("nan"), dtype=dt, device="cuda")
        return torch.randn(shape, generator=gen, dtype=torch.float32, device="cuda").to(dt)

    return [module.make_tensors(size, dtype, new) for _ in range(copies)]


def _launcher(module: Any, kernel: KernelInfo, tensors: dict[str, Any], size: dict[str, int],
              config: dict[str, Any], sm_count: int, props: dict[str, int]) -> Any:
    """A zero-argument launch of the kernel for one tensor set (occupancy-sized when the module asks)."""
    fn = getattr(module, kernel.function)
    args, kwargs = module.kernel_args(tensors, size, dict(config), sm_count)
    grid = module.grid(size, config, sm_count)
    if hasattr(module, "occupancy_grid"):
        compiled = fn.warmup(*args, grid=(1,), **kwargs)
        compiled._init_handles()
        grid = module.occupancy_grid(compiled, size, config, props)
    return lambda: fn[grid](*args, **kwargs)


def bench_kernel(kernel: KernelInfo, size: dict[str, int], ceilings: Ceilings, runs: int = 2,
                 store_dir: str | None = None) -> BenchRow:
    """Check, time every config, time the peer, and capture the fastest config."""
    torch = require_gpu()
    import triton
    from triton.testing import do_bench

    module = load_kernel(kernel)
    if not hasattr(module, "peer") or not hasattr(module, "work"):
        raise UsageError(f"kernel {kernel.name} declares no peer()/work() to benchmark against")
    props = triton.runtime.driver.active.utils.get_device_properties(torch.cuda.current_device())
    work = module.work(size)
    metric = metric_for(work)
    backend = "hip" if getattr(torch.version, "hip", None) else "cuda"
    in_bytes = sum(t.numel() * t.element_size() for t in _tensor_sets(module, kernel, size, 1, torch)[0].values())
    sets = _tensor_sets(module, kernel, size, copies_for(in_bytes, ceilings.l2_bytes), torch)
    expected = module.reference(sets[0]).float()
    timings: dict[int, list[float]] = {}
    skipped: list[str] = []
    errors: dict[int, float] = {}
    launchers: dict[int, list[Any]] = {}
    for index, config in enumerate(kernel.configs_for(backend)):
        try:
            launchers[index] = [_launcher(module, kernel, t, size, config, ceilings.sm_count, props) for t in sets]
            launchers[index][0]()
            torch.cuda.synchronize()
        except Exception as exc:  # a config that does not fit this GPU is skipped, and said so
            skipped.append(f"config {index}: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")
            launchers.pop(index, None)
            continue
        got = next(t for name, t in sets[0].items() if name in _outputs(module, size, kernel)).float()
        errors[index] = float((got - expected).abs().nan_to_num(nan=float("inf")).max())
        tol = kernel.tolerance
        if not bool(((got - expected).abs() <= tol["atol"] + tol["rtol"] * expected.abs()).all()):
            skipped.append(f"config {index}: wrong result (max abs error {errors[index]:.3g})")
            launchers.pop(index)
    if not launchers:
        raise UsageError(f"{kernel.name} at {size_label(size)}: no config ran correctly; " + "; ".join(skipped))
    peer_times: list[float] = []
    for _ in range(runs):
        for index, calls in launchers.items():
            timings.setdefault(index, []).append(_time_rotating(do_bench, calls))
        peer_calls = [(lambda t=t: module.peer(t)) for t in sets]
        peer_times.append(_time_rotating(do_bench, peer_calls))
    medians = {i: statistics.median(ts) for i, ts in timings.items()}
    best = min(medians, key=lambda i: medians[i])
    triton_ms, peer_ms = medians[best], statistics.median(peer_times)
    tv, pv = throughput(work, metric, triton_ms), throughput(work, metric, peer_ms)
    ceiling = ceilings.matmul_tflops if metric == "TFLOP/s" else ceilings.copy_gbps
    key = _capture_best(kernel, best, size, store_dir)
    return BenchRow(kernel=kernel.name, peer=getattr(module, "PEER", "torch"), size=dict(size), label=size_label(size),
                    metric=metric, triton_ms=triton_ms, peer_ms=peer_ms, triton_value=tv, peer_value=pv,
                    ratio=tv / pv, of_ceiling=tv / ceiling, config_index=best,
                    config=dict(kernel.configs_for(backend)[best]), capture_key=key, max_error=errors[best],
                    skipped=skipped)


def _outputs(module: Any, size: dict[str, int], kernel: KernelInfo) -> set[str]:
    roles = module.make_tensors(size, kernel.dtype, lambda shape, dt, role: role)
    return {name for name, role in roles.items() if role == "output"}


def _time_rotating(do_bench: Any, calls: list[Any]) -> float:
    """Median ms of one call, cycling through the input copies."""
    state = [0]

    def step() -> None:
        calls[state[0] % len(calls)]()
        state[0] += 1

    return float(do_bench(step, warmup=25, rep=200, return_mode="median"))


def _capture_best(kernel: KernelInfo, config_index: int, size: dict[str, int], store_dir: str | None) -> str:
    """Store the capture of what ran (native target, this config and size); return its key."""
    from irscope.model.targets import resolve_target
    from irscope.request.captures import Request, get_capture

    request = Request(kernel=kernel, target=resolve_target("native"), config_index=config_index, sizes=dict(size))
    return get_capture(request, store_dir).manifest.key


def plot(rows: list[BenchRow], path: str) -> None:
    """One panel per kernel: throughput of Triton and its peer over the sizes, like triton.testing.Benchmark."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib (pip install matplotlib)") from None
    kernels = list(dict.fromkeys(r.kernel for r in rows))
    fig, axes = plt.subplots(1, len(kernels), figsize=(5 * len(kernels), 4), squeeze=False)
    for ax, name in zip(axes[0], kernels, strict=True):
        mine = [r for r in rows if r.kernel == name]
        xs = [r.label for r in mine]
        ax.plot(xs, [r.triton_value for r in mine], marker="o", label=f"Triton ({name})")
        ax.plot(xs, [r.peer_value for r in mine], marker="s", label=mine[0].peer)
        ax.set_title(name)
        ax.set_ylabel(mine[0].metric)
        ax.set_xlabel("size")
        ax.tick_params(axis="x", rotation=20)
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
