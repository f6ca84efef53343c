"""``irscope loops``: were KERNEL's loops software-pipelined, and with which instructions."""

from __future__ import annotations

import json

import click

from irscope.cli.options import json_option
from irscope.cli.output import write
from irscope.cli.requests import kernel_request
from irscope.store.store import Capture


def capture_title(capture: Capture) -> str:
    """``matmul_kernel on sm90, config 0 (num_warps 8, num_stages 3)``."""
    m = capture.manifest
    opts = ", ".join(f"{k} {m.options[k]}" for k in ("num_warps", "num_stages") if m.options.get(k) is not None)
    return f"{m.function} on {m.target}, config {m.config_index}" + (f" ({opts})" if opts else "")


@click.command("loops")
@click.option("--grid", "grid_text", metavar="X[,Y[,Z]]",
              help="programs launched, for how many contend for a spin loop's lock (default: a program capture's "
                   "recorded launch)")
@kernel_request()
@json_option
def loops(grid_text: str | None, capture: Capture, as_json: bool) -> None:
    """Show each loop of KERNEL: source line, asked and achieved pipeline stages, async copies before
    and in the loop, waits with their pending counts, the matrix instruction (mma.sync, wgmma,
    mfma), how its operands reach it, and the PTX/SASS or AMDGCN instructions that confirm it.
    For a loop left unpipelined it says why, when the IR tells. A loop spinning on an atomic
    compare-and-swap is shown as a spin lock: its release and how many programs share each lock.

    Example:

        irscope loops matmul --target sm90
    """
    from irscope.analysis.loops import capture_loops
    from irscope.request.perf_launch import parse_grid
    from irscope.views.loops_text import loops_json, render_loops

    grid = parse_grid(grid_text) if grid_text is not None else None
    if grid is None:
        from irscope.request.launch_cache import recorded_launches

        launches = recorded_launches(capture.path, capture.manifest.files)
        grid = launches[0].grid if launches else None
    found, missing = capture_loops(capture)
    if as_json:
        click.echo(json.dumps(loops_json(found, missing, grid), indent=2))
        return
    write(render_loops(found, capture_title(capture), missing, grid), newline=False)
