"""What the performance model runs a launch on: the device (a data sheet, or figures measured on a GPU) and the launch.

``irscope perf`` and the benchmarks choose both here: ``perf_device`` the GPU of ``--gpu`` (or the target's),
``measured_device`` the model of a GPU whose ceilings were measured (``--gpu native``, a benchmark's run),
``perf_shape`` the grid, integer arguments and tensor sizes of one launch. Nothing here imports Triton
or torch; a kernel module's launcher is evaluated (importing Triton) by ``compile/launch_values``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from irscope.compile.launch_values import parse_grid
from irscope.errors import NoDeviceError, UsageError
from irscope.request.captures import Request
from irscope.request.kinds import kind_of

if TYPE_CHECKING:
    from irscope.analysis.perf.device import DeviceModel
    from irscope.model.gpus import Gpu
    from irscope.model.launch import LaunchShape

__all__ = ["Measured", "measured_device", "native_gpu", "parse_data", "parse_grid", "parse_sizes", "perf_device",
           "perf_shape", "sized_request"]

_DATA_FILE_BYTES = 16 << 20  # a --data file larger than this is refused before it is read


class Measured(Protocol):
    """Ceilings measured on a GPU (``irscope.run.bench.Ceilings`` is one)."""

    @property
    def device(self) -> str:
        """The GPU's name, as the driver reports it."""

    @property
    def copy_gbps(self) -> float:
        """A large device copy, bytes read plus written per second (GB/s)."""

    @property
    def matmul_tflops(self) -> float:
        """A large fp16 cuBLAS product, TFLOP/s."""

    @property
    def sm_count(self) -> int:
        """Streaming multiprocessors."""

    @property
    def gather_gbps(self) -> dict[int, float]:
        """DRAM segment bytes per second of a gather, by the step between its segments."""


def native_gpu(device: str, target: str) -> Gpu:
    """The row of irscope's GPU table for a GPU the driver names ``device``, else ``target``'s usual GPU."""
    from irscope.model.gpus import DEFAULT_GPU, GPUS

    match = next((g for g in GPUS.values() if g.product.lower() in device.lower()
                  or device.lower() in g.product.lower()), None)
    base = match or (GPUS[DEFAULT_GPU[target]] if target in DEFAULT_GPU else None)
    if base is None:
        raise UsageError(f"--gpu native: {device} is not in irscope's GPU table and {target} has no "
                         f"default; valid --gpu names: {', '.join(GPUS)}")
    return base


def measured_device(measured: Measured, target: str) -> DeviceModel:
    """The model of the GPU ``measured`` was taken on: its table row, with the measured figures in place."""
    from irscope.analysis.perf.device import device_model

    return device_model(native_gpu(measured.device, target), measured.copy_gbps, measured.matmul_tflops,
                        measured.device, measured.gather_gbps)


def perf_device(gpu_name: str | None, target: str,
                measure: Callable[[], Measured | None]) -> tuple[DeviceModel, int]:
    """The device model for ``--gpu`` (``native``: ``measure`` this machine's GPU, None when there is none) and its
    SMs."""
    from irscope.analysis.perf.device import device_model
    from irscope.model.gpus import DEFAULT_GPU, GPUS, gpus_for_target, resolve_gpu

    if gpu_name is not None and gpu_name.strip().lower() == "native":
        measured = measure()
        if measured is None:
            raise NoDeviceError(f"--gpu native measures the local GPU and torch sees none here; name one instead: "
                                f"{', '.join(g.name for g in gpus_for_target(target)) or ', '.join(GPUS)}")
        return measured_device(measured, target), measured.sm_count
    gpu = resolve_gpu(gpu_name, target)
    if gpu is None:
        known = ", ".join(f"{t} -> {g}" for t, g in DEFAULT_GPU.items())
        raise UsageError(f"no GPU known for target {target}; pass --gpu NAME (defaults: {known}; "
                         f"GPUs for {target}: {', '.join(g.name for g in gpus_for_target(target)) or 'none'})")
    return device_model(gpu), gpu.sm_count


def parse_sizes(items: tuple[str, ...], names: list[str]) -> dict[str, int]:
    """``("8192x8192x8192",)`` or ``("M=8192", "K=1024")`` -> sizes by name; a usage error naming the valid names."""
    valid = f"this kernel's sizes are {', '.join(names)} (e.g. --size {'x'.join('4096' for _ in names)} or " \
            f"--size {names[0] if names else 'N'}=4096)"
    sizes: dict[str, int] = {}
    for item in items:
        try:
            if "=" in item:
                name, value = item.split("=", 1)
                if name.strip() not in names:
                    raise UsageError(f"--size {item!r}: unknown size {name.strip()!r}; {valid}")
                sizes[name.strip()] = int(value)
            else:
                dims = [int(d) for d in item.lower().split("x")]
                if len(dims) != len(names):
                    raise UsageError(f"--size {item!r}: {len(dims)} numbers for {len(names)} sizes; {valid}")
                sizes.update(zip(names, dims, strict=True))
        except ValueError:
            raise UsageError(f"--size {item!r}: not a number; {valid}") from None
    bad = [k for k, v in sizes.items() if v < 1]
    if bad:
        raise UsageError(f"--size: {', '.join(bad)} must be positive; {valid}")
    return sizes


def sized_request(request: Request, size_items: tuple[str, ...]) -> Request:
    """``request`` at the problem sizes ``--size`` gives (bundled kernels and kernel modules only)."""
    names = kind_of(request.kernel).size_names()
    if names is not None:
        return replace(request, sizes={**request.sizes, **parse_sizes(size_items, names)})
    if size_items:
        raise UsageError("--size applies to bundled kernels and kernel modules; give FILE:FUNCTION sizes in --args")
    return request


def perf_shape(request: Request, grid: tuple[int, int, int] | None, sm_count: int, capture_dir: Path) -> LaunchShape:
    """The launch the model runs: grid, integer arguments and tensor sizes (``grid``: ``--grid``, or None)."""
    return kind_of(request.kernel).launch_shape(request.target, request.config_index, request.sizes, grid, sm_count,
                                                capture_dir)


def _flat_ints(value: object, out: list[int], limit: int) -> bool:
    """Append the integers of a (nested) JSON list to ``out``; False on anything else or past ``limit``."""
    if isinstance(value, bool) or not isinstance(value, (int, list)):
        return False
    if isinstance(value, int):
        out.append(value)
        return len(out) <= limit
    return all(_flat_ints(v, out, limit) for v in value)


def parse_data(items: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """``("seq_lens=12,300,7", "block_tables=@tables.json")`` -> contents by parameter name; a usage error otherwise.

    A file holds a JSON list of integers (nested lists are flattened in order, as a contiguous tensor's memory) or
    integers separated by commas or white space.
    """
    import json

    from irscope.model.launch import DATA_ELEMENTS

    valid = "give --data NAME=1,2,3 or --data NAME=@FILE (a JSON list of integers, or integers separated by commas)"
    found: dict[str, tuple[int, ...]] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or not name.isidentifier():
            raise UsageError(f"--data {item!r}: no NAME=; {valid}")
        where = f"--data {name}"
        if text.startswith("@"):
            path = Path(text[1:]).expanduser()
            try:
                if path.stat().st_size > _DATA_FILE_BYTES:
                    raise UsageError(f"{where}: {path} is over {_DATA_FILE_BYTES >> 20} MB; {valid}")
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise UsageError(f"{where}: cannot read {path} ({exc.__class__.__name__}); {valid}") from None
        values: list[int] = []
        stripped = text.strip()
        if stripped.startswith("["):
            try:
                parsed = json.loads(stripped)
            except ValueError:
                raise UsageError(f"{where}: not a JSON list of integers; {valid}") from None
            if not _flat_ints(parsed, values, DATA_ELEMENTS):
                raise UsageError(f"{where}: not a list of at most {DATA_ELEMENTS} integers; {valid}")
        else:
            try:
                values = [int(v) for v in stripped.replace(",", " ").split()]
            except ValueError:
                raise UsageError(f"{where}: not integers; {valid}") from None
        if not values or len(values) > DATA_ELEMENTS:
            raise UsageError(f"{where}: give 1 to {DATA_ELEMENTS} integers; {valid}")
        found[name] = tuple(values)
    return found
