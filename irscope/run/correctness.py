"""Run a kernel once and compare it with its torch reference.

Inputs are fresh random tensors at sizes that are not multiples of the block sizes; outputs are
poisoned with NaN first, so an element the kernel forgets to write fails the check. On a machine
without a GPU the kernel runs under Triton's CPU interpreter (TRITON_INTERPRET=1), which must be
set before the kernel module is imported: ``@triton.jit`` reads it at decoration time.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from irscope.compile.kernel_module import load_kernel
from irscope.errors import NoDeviceError, UsageError
from irscope.model.kernels import KernelInfo

DEVICES = ("auto", "gpu", "interpreter")


@dataclass(frozen=True)
class RunResult:
    """The outcome of one correctness run.

    Attributes:
        kernel: kernel name.
        device: ``cuda:0 (NVIDIA H200)`` or ``interpreter``.
        config_index: the launch config used.
        shapes: ``name=shape`` of each tensor.
        dtype: element type.
        max_abs_error / max_rel_error: largest errors against the reference (rel: abs / max(|ref|, atol)).
        atol / rtol: the tolerance applied, elementwise ``|out - ref| <= atol + rtol * |ref|``.
        unwritten: output elements still NaN (poison) after the run.
        passed: within tolerance and nothing left unwritten.
        seconds: wall time of the launch (including compilation or interpretation).
        error: why the kernel could not run at all ('' when it ran).
    """

    kernel: str
    device: str
    config_index: int
    shapes: str
    dtype: str
    max_abs_error: float
    max_rel_error: float
    atol: float
    rtol: float
    unwritten: int
    passed: bool
    seconds: float
    error: str = ""


def choose_device(requested: str) -> str:
    """``gpu`` or ``interpreter``: what ``auto`` means here (torch sees a GPU or not)."""
    if requested not in DEVICES:
        raise UsageError(f"unknown device {requested!r}; valid: {', '.join(DEVICES)}")
    if requested == "interpreter":
        return "interpreter"
    from irscope.run.bench import sees_gpu

    has_gpu = sees_gpu()
    if requested == "gpu" and not has_gpu:
        raise NoDeviceError("--device gpu: torch sees no GPU on this machine; use --device interpreter")
    return "gpu" if has_gpu else "interpreter"


def prepare(mode: str) -> None:
    """Set up the process for a mode; must run before any kernel module is imported."""
    if mode == "interpreter":
        os.environ["TRITON_INTERPRET"] = "1"


def check_kernel(kernel: KernelInfo, mode: str, config_index: int = 0, seed: int = 0,
                 sizes: dict[str, int] | None = None) -> RunResult:
    """Run ``kernel`` once on ``mode`` ('gpu' or 'interpreter') and compare with its reference."""
    import torch

    module = load_kernel(kernel)
    backend = "cuda"
    device = "cpu"
    device_name = "interpreter"
    sm_count: int | None = None
    if mode == "gpu":
        device = "cuda"
        props = torch.cuda.get_device_properties(0)
        sm_count = props.multi_processor_count
        backend = "hip" if getattr(torch.version, "hip", None) else "cuda"
        device_name = f"cuda:0 ({props.name})"
    config = dict(kernel.config(backend, config_index))
    sizes = dict(sizes or kernel.test_sizes)
    dtype = getattr(torch, kernel.dtype)
    gen = torch.Generator(device="cpu").manual_seed(seed)

    def new(shape: tuple[int, ...], dt: Any, role: str) -> Any:
        dt = getattr(torch, dt) if isinstance(dt, str) else dt
        if role == "output":
            return torch.full(shape, float("nan"), dtype=dt, device=device)
        return torch.randn(shape, generator=gen, dtype=torch.float32).to(dtype=dt, device=device)

    tensors = module.make_tensors(sizes, dtype, new)
    args, kwargs = module.kernel_args(tensors, sizes, config)
    fn = getattr(module, kernel.function)
    shapes = ", ".join(f"{n}={'x'.join(map(str, t.shape))}" for n, t in tensors.items())
    start = time.perf_counter()
    try:
        fn[module.grid(sizes, config, sm_count)](*args, **kwargs)
        if mode == "gpu":
            torch.cuda.synchronize()
    except Exception as exc:  # a kernel that cannot run is a failed row, not a crash of the whole table
        return RunResult(kernel=kernel.name, device=device_name, config_index=config_index, shapes=shapes,
                         dtype=kernel.dtype, max_abs_error=float("nan"), max_rel_error=float("nan"),
                         atol=float(kernel.tolerance["atol"]), rtol=float(kernel.tolerance["rtol"]), unwritten=0,
                         passed=False, seconds=time.perf_counter() - start, error=explain_failure(exc, mode))
    seconds = time.perf_counter() - start
    expected = module.reference(tensors).float()
    roles = module.make_tensors(sizes, kernel.dtype, lambda shape, dt, role: role)
    got = next(t for name, t in tensors.items() if roles[name] == "output").float()
    unwritten = int(torch.isnan(got).sum()) - int(torch.isnan(expected).sum())
    diff = (got - expected).abs().nan_to_num(nan=float("inf"))
    atol, rtol = float(kernel.tolerance["atol"]), float(kernel.tolerance["rtol"])
    max_abs = float(diff.max()) if diff.numel() else 0.0
    max_rel = float((diff / expected.abs().clamp_min(atol)).max()) if diff.numel() else 0.0
    within = bool((diff <= atol + rtol * expected.abs()).all())
    return RunResult(kernel=kernel.name, device=device_name, config_index=config_index, shapes=shapes,
                     dtype=kernel.dtype, max_abs_error=max_abs, max_rel_error=max_rel, atol=atol, rtol=rtol,
                     unwritten=max(unwritten, 0), passed=within and unwritten <= 0, seconds=seconds)


def explain_failure(exc: BaseException, mode: str) -> str:
    """One line on why a launch failed, with the known remedy when there is one."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if mode == "interpreter" and "only 0-dimensional arrays can be converted" in text:
        import numpy
        import triton

        return (f"Triton {triton.__version__}'s interpreter fails with numpy {numpy.__version__} "
                "(seen with Triton 3.6 and numpy >= 2.4; Triton 3.9 works); pip install 'numpy<2.4' to run it")
    return f"{type(exc).__name__}: {text}"
