"""``irscope timing``: how long each stage and MLIR pass of KERNEL's compile takes."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from irscope.cli.options import json_option
from irscope.cli.output import write_rich
from irscope.cli.requests import dump_notice, kernel_request
from irscope.request.captures import Request
from irscope.store.store import Capture


@click.command("timing")
@kernel_request()
@json_option
@click.option("--repeat", "-r", type=click.IntRange(1, 20), default=3, show_default=True,
              help="compiles to time (medians are shown)")
@click.option("--all", "show_all", is_flag=True, help="list every MLIR pass, not just the slowest")
@click.option("--color/--no-color", default=None,
              help="force or disable colours (default: on a terminal, unless NO_COLOR is set)")
def timing(request: Request, capture: Capture, as_json: bool, repeat: int, show_all: bool,
           color: bool | None) -> None:
    """Time KERNEL's compile per phase, stage and MLIR pass, and weigh Triton's MLIR pipeline against ptxas.

    Each timing compiles again from scratch in a clean process (fresh Triton cache, no dumps) with
    MLIR's pass timer on (MLIR_ENABLE_TIMING=1), --repeat times; medians are shown. Passes carry
    their numbers from the per-pass dump (compiled first when the store lacks it), the numbers
    `irscope passes` and `diff --pass N` use.

    Example:

        irscope timing matmul --target sm90

        irscope timing matmul --target gfx942 --repeat 5 --all
    """
    from irscope.request.kinds import kind_of
    from irscope.request.passdump import get_pass_dump
    from irscope.request.timing import measure_timing
    from irscope.store.store import require_trusted

    if kind_of(request.kernel).stored is not None:
        require_trusted(capture)  # timing compiles the capture's own source again
    dump = get_pass_dump(request, capture, on_compile=dump_notice)  # the pass numbers every command shares
    click.echo(f"irscope: timing {repeat} compile(s) of {capture.manifest.kernel} for {capture.manifest.target}...",
               err=True)
    result = measure_timing(request, capture, repeat, dump)
    for problem in result.problems:
        click.echo(f"irscope: warning: {problem}", err=True)
    m = capture.manifest
    if as_json:
        click.echo(json.dumps({"kernel": m.kernel, "target": m.target, "config": m.config_index,
                               "triton_version": result.triton_version, **asdict(result.timing),
                               "problems": [str(p) for p in result.problems]}, indent=2))
        return
    from irscope.views.timing import render_timing

    title = f"{m.kernel} on {m.target}, config {m.config_index}: compile time (Triton {result.triton_version})"
    write_rich(render_timing(result.timing, title, show_all=show_all), color=color)
