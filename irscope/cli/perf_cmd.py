"""``irscope perf``: a static performance model of one launch of KERNEL (device, work, bank conflicts, verdict)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from irscope.cli.loops_cmd import capture_title
from irscope.cli.options import config_option, json_option, kernel_options, store_option, target_option
from irscope.cli.show import compile_notice
from irscope.errors import UsageError
from irscope.request.captures import LaunchSpec, Request, get_capture, make_request
from irscope.request.kinds import kind_of

if TYPE_CHECKING:
    from irscope.analysis.perf.predict import DeviceModel
    from irscope.model.launch import LaunchShape


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


@click.command("perf")
@click.argument("kernel", required=False)
@target_option
@click.option("--gpu", "gpu_name", metavar="NAME",
              help="the GPU to model (a100, h100, h200, b200, mi300x, mi325x, mi350x, mi355x; default: the target's), "
                   "or 'native' to measure this machine's GPU (copy bandwidth, gather rates, fp16 tensor throughput)")
@click.option("--size", "size_items", metavar="AxB | NAME=N", multiple=True,
              help="problem size of a bundled kernel (repeatable), e.g. --size 8192x8192x8192 or --size K=1024")
@click.option("--grid", "grid_text", metavar="X[,Y[,Z]]",
              help="programs launched (required for FILE:FUNCTION kernels and stored captures)")
@click.option("--gpus", "list_gpus", is_flag=True, help="print the table of known GPUs and their sources, and exit")
@config_option
@json_option
@store_option
@kernel_options
def perf(kernel: str | None, target: str | None, gpu_name: str | None, size_items: tuple[str, ...],
         grid_text: str | None, list_gpus: bool, config: int, as_json: bool, store_dir: str | None,
         launch: LaunchSpec) -> None:
    """Predict how long one launch of KERNEL takes and what bounds it (compute, memory or latency), from the
    compiled code alone: tensor-core and vector FLOPs read from the PTX / AMDGCN, loop trip counts from the
    sizes, DRAM bytes, occupancy, waves, coalescing and shared-memory bank conflicts, against a GPU's data
    sheet (or figures measured with --gpu native). Ends with the changes that would move it most.

    Example:

        irscope perf matmul --target sm90 --size 4096x4096x4096
    """
    from irscope.views.perf_text import perf_json, render_gpu_table, render_perf

    if list_gpus:
        click.echo(render_gpu_table(), nl=False)
        return
    if not kernel:
        raise UsageError("KERNEL is missing; give a bundled kernel (see irscope list), FILE.py:FUNCTION or a stored "
                         "capture, or --gpus for the GPU table")
    request = make_request(kernel, target, config, launch=launch, store_dir=store_dir)
    device, sm_count = _device(gpu_name, request)
    grid = None
    if grid_text is not None:
        from irscope.compile.launch_values import parse_grid

        grid = parse_grid(grid_text)
    if (size_names := kind_of(request.kernel).size_names()) is not None:
        sizes = dict(request.sizes)
        sizes.update(parse_sizes(size_items, size_names))
        request = replace(request, sizes=sizes)
    elif size_items:
        raise UsageError("--size applies to bundled kernels and kernel modules; give FILE:FUNCTION sizes in --args")
    capture = get_capture(request, store_dir, on_compile=compile_notice)
    shape = _shape(request, grid, sm_count, capture.path)
    from irscope.analysis.perf.capture import capture_perf

    report = capture_perf(capture, device, shape)
    if as_json:
        click.echo(json.dumps(perf_json(report), indent=2))
    else:
        click.echo(render_perf(report, capture_title(capture)), nl=False)


def _device(gpu_name: str | None, request: Request) -> tuple[DeviceModel, int]:
    """The device model for ``--gpu`` (or the target's default) and its SM count."""
    from irscope.analysis.perf.predict import device_model
    from irscope.model.gpus import DEFAULT_GPU, GPUS, gpus_for_target, resolve_gpu

    target = request.target.name
    if gpu_name is not None and gpu_name.strip().lower() == "native":
        import torch

        from irscope.errors import NoDeviceError
        from irscope.run.bench import measure_ceilings

        if not torch.cuda.is_available():
            raise NoDeviceError(f"--gpu native measures the local GPU and torch sees none here; name one instead: "
                                f"{', '.join(g.name for g in gpus_for_target(target)) or ', '.join(GPUS)}")
        ceilings = measure_ceilings()
        match = next((g for g in GPUS.values() if g.product.lower() in ceilings.device.lower()
                      or ceilings.device.lower() in g.product.lower()), None)
        base = match or (GPUS[DEFAULT_GPU[target]] if target in DEFAULT_GPU else None)
        if base is None:
            raise UsageError(f"--gpu native: {ceilings.device} is not in irscope's GPU table and {target} has no "
                             f"default; valid --gpu names: {', '.join(GPUS)}")
        device = device_model(base, ceilings.copy_gbps, ceilings.matmul_tflops, ceilings.device, ceilings.gather_gbps)
        return device, ceilings.sm_count
    gpu = resolve_gpu(gpu_name, target)
    if gpu is None:
        known = ", ".join(f"{t} -> {g}" for t, g in DEFAULT_GPU.items())
        raise UsageError(f"no GPU known for target {target}; pass --gpu NAME (defaults: {known}; "
                         f"GPUs for {target}: {', '.join(g.name for g in gpus_for_target(target)) or 'none'})")
    return device_model(gpu), gpu.sm_count


def _shape(request: Request, grid: tuple[int, int, int] | None, sm_count: int, capture_dir: Path) -> LaunchShape:
    """The launch: grid, integer arguments and tensor sizes."""
    return kind_of(request.kernel).launch_shape(request.target, request.config_index, request.sizes, grid, sm_count,
                                                capture_dir)
