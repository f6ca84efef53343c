"""``irscope loops``: were KERNEL's loops software-pipelined, and with which instructions."""

from __future__ import annotations

import json

import click

from irscope.cli.options import config_option, json_option, kernel_options, store_option, target_option
from irscope.cli.show import compile_notice
from irscope.request.captures import LaunchSpec, get_capture, make_request
from irscope.store.store import Capture


def capture_title(capture: Capture) -> str:
    """``matmul_kernel on sm90, config 0 (num_warps 8, num_stages 3)``."""
    m = capture.manifest
    opts = ", ".join(f"{k} {m.options[k]}" for k in ("num_warps", "num_stages") if m.options.get(k) is not None)
    return f"{m.function} on {m.target}, config {m.config_index}" + (f" ({opts})" if opts else "")


@click.command("loops")
@click.argument("kernel")
@target_option
@config_option
@json_option
@store_option
@kernel_options
def loops(kernel: str, target: str | None, config: int, as_json: bool, store_dir: str | None,
          launch: LaunchSpec) -> None:
    """Show each loop of KERNEL: source line, asked and achieved pipeline stages, async copies before
    and in the loop, waits with their pending counts, the matrix instruction (mma.sync, wgmma,
    mfma), how its operands reach it, and the PTX/SASS or AMDGCN instructions that confirm it.
    For a loop left unpipelined it says why, when the IR tells.

    Example:

        irscope loops matmul --target sm90
    """
    from irscope.analysis.loops import capture_loops
    from irscope.views.loops_text import loops_json, render_loops

    request = make_request(kernel, target, config, launch=launch, store_dir=store_dir)
    capture = get_capture(request, store_dir, on_compile=compile_notice)
    found, missing = capture_loops(capture)
    if as_json:
        click.echo(json.dumps(loops_json(found, missing), indent=2))
        return
    click.echo(render_loops(found, capture_title(capture), missing), nl=False)
