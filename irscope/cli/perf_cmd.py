"""``irscope perf``: a static performance model of one launch of KERNEL (device, work, bank conflicts, verdict)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from irscope.cli.loops_cmd import capture_title
from irscope.cli.options import json_option
from irscope.cli.output import write
from irscope.cli.requests import Asked, kernel_request
from irscope.errors import UsageError
from irscope.request.captures import Request

if TYPE_CHECKING:
    from irscope.run.bench import Ceilings


def _gpu_table(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``--gpus``: print the table of known GPUs and exit, whatever else the command line says."""
    if value and not ctx.resilient_parsing:
        from irscope.views.perf_text import render_gpu_table

        write(render_gpu_table(), newline=False)
        ctx.exit()


def _measure_here() -> Ceilings | None:
    """This machine's GPU ceilings, measured now (seconds); None when torch sees no GPU."""
    from irscope.model.targets import native_target
    from irscope.run.bench import measure_ceilings, sees_gpu

    if native_target() is None or not sees_gpu():  # torch may be irscope's offline stand-in
        return None

    return measure_ceilings()


def _check(*, kernel: str | None, **_: Any) -> None:
    if not kernel:
        raise UsageError("KERNEL is missing; give a bundled kernel (see irscope list), FILE.py:FUNCTION or a stored "
                         "capture, or --gpus for the GPU table")


@click.command("perf")
@click.option("--gpu", "gpu_name", metavar="NAME",
              help="the GPU to model (a100, h100, h200, b200, mi300x, mi325x, mi350x, mi355x; default: the target's), "
                   "or 'native' to measure this machine's GPU (copy bandwidth, gather rates, fp16 tensor throughput)")
@click.option("--size", "size_items", metavar="AxB | NAME=N", multiple=True,
              help="problem size of a bundled kernel (repeatable), e.g. --size 8192x8192x8192 or --size K=1024")
@click.option("--grid", "grid_text", metavar="X[,Y[,Z]]",
              help="programs launched (default: a bundled kernel's grid(), a program capture's recorded launch, "
                   "whose arguments --grid keeps; required for FILE:FUNCTION kernels, by name too, whose recorded "
                   "--args it binds, and captures that recorded no launch)")
@click.option("--data", "data_items", metavar="NAME=VALUES|@FILE", multiple=True,
              help="the contents of an integer tensor the kernel loads its loop bounds or indices from (sequence "
                   "lengths, offsets, block tables), e.g. --data seq_lens=17,300,2048 or --data seq_lens=@lens.json; "
                   "replaces what a program capture recorded for it")
@click.option("--gpus", is_flag=True, is_eager=True, expose_value=False, callback=_gpu_table,
              help="print the table of known GPUs and their sources, and exit")
@click.option("--explain", "-v", "explain", is_flag=True,
              help="after the verdict, the derivation: the device's figures and sources, each loop's trips and work, "
                   "every shared-memory access, the assumptions")
@click.option("--measured", "measured_path", metavar="FILE",
              help="a GPU profile with this kernel's launches (a torch.profiler trace, a Proton .hatchet or an ncu "
                   "--csv file, maybe gzipped): its measured time per launch (and DRAM bytes, from ncu) next to the "
                   "predicted, joined by the kernel's name and, where the file has grids, the launch's grid")
@kernel_request(optional=True, check=_check)
@json_option
def perf(asked: Asked, request: Request, gpu_name: str | None, size_items: tuple[str, ...], grid_text: str | None,
         data_items: tuple[str, ...], explain: bool, measured_path: str | None, as_json: bool) -> None:
    """Predict how long one launch of KERNEL takes and what bounds it (compute, memory or latency), from the
    compiled code alone: tensor-core and vector FLOPs read from the PTX / AMDGCN, loop trip counts from the
    sizes, DRAM bytes, occupancy, waves, coalescing and shared-memory bank conflicts, against a GPU's data
    sheet (or figures measured with --gpu native). First the verdict (the time, the bound, the changes that would
    move it most) and a line each on the launch, the work and the shared accesses; --explain adds how it got there.

    Example:

        irscope perf matmul --target sm90 --size 4096x4096x4096

        irscope perf triton_poi_fused_0 --measured trace.json   # needs a GPU profile (docs/measured.md)
    """
    from irscope.model.launch import with_data
    from irscope.parse.profiles import read_profile
    from irscope.request.perf_launch import parse_data, parse_grid, perf_device, perf_shape, sized_request
    from irscope.views.perf_text import perf_json, render_perf

    profile = read_profile(measured_path) if measured_path is not None else None  # a bad file fails before the model
    device, sm_count = perf_device(gpu_name, request.target.name, _measure_here)
    grid = parse_grid(grid_text) if grid_text is not None else None
    given = parse_data(data_items)
    request = sized_request(request, size_items)
    capture = asked.capture(request)
    if gpu_name is None:
        _refuse_unlaunchable(capture)
    if given:
        from irscope.analysis.values import parse_scalar_program

        pointers = parse_scalar_program(capture.read("ttgir")).pointers
        unknown = [name for name in given if name not in pointers]
        if unknown:
            raise UsageError(f"--data {', '.join(unknown)}: not an integer-pointer parameter of "
                             f"{capture.manifest.function}"
                             f"; its integer tensors are {', '.join(pointers) or 'none'}")
    shape = with_data(perf_shape(request, grid, sm_count, capture.path), given, "--data")
    from irscope.analysis.perf.capture import capture_perf

    report = capture_perf(capture, device, shape)
    measured = None
    if profile is not None:
        from irscope.analysis.measured import join_launch
        from irscope.analysis.report.launch import IN_STREAM_LAUNCH_US, LAUNCH_US, in_stream

        if profile.source == "ncu":  # ncu times each launch alone, as perf predicts it
            predicted, basis = report.predicted_us, f"predicted as a launch alone ({LAUNCH_US:g} us launch cost), " \
                "as ncu times it"
        else:  # a stream's launches, as irscope report predicts them
            predicted = in_stream(report).predicted_us
            basis = (f"predicted as a launch in a stream ({IN_STREAM_LAUNCH_US:g} us launch cost in place of perf's "
                     f"{LAUNCH_US:g} us alone, as irscope report does), as {profile.source} times it")
        measured = join_launch(profile, report.kernel, report.grid, predicted, report.dram_bytes, basis)
    if as_json:
        data = perf_json(report)
        if measured is not None:
            from irscope.views.measured_text import measured_json

            data["measured"] = measured_json(measured)
        click.echo(json.dumps(data, indent=2))
    else:
        text = render_perf(report, capture_title(capture), explain=explain)
        if measured is not None:
            from irscope.views.measured_text import render_measured

            text += "\n" + "\n".join(render_measured(measured, others=False)) + "\n"
        write(text, newline=False)


def _refuse_unlaunchable(capture: Any) -> None:
    """One line, exit 1, when one CTA (workgroup) of the capture cannot be launched on its target's GPU at all."""
    from irscope.analysis.resources import capture_resources
    from irscope.errors import IrscopeError

    found = capture_resources(capture)
    occ = found.occupancy
    if occ is not None and not occ.fits:
        raise IrscopeError(f"{found.kernel} config {found.config_index} cannot be launched on {occ.gpu}: "
                           + "; ".join(occ.problems) + "; there is no launch to model (irscope resources says more)")
