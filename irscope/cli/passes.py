"""``irscope passes``: every pass of Triton's pipeline, in order, with what it changed."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from irscope.cli.options import json_option
from irscope.cli.output import write_rich
from irscope.cli.requests import Asked, dump_notice, kernel_request
from irscope.request.captures import Request
from irscope.request.kinds import kind_of


@click.command("passes")
@kernel_request()
@json_option
@click.option("--all", "show_all", is_flag=True, help="list the passes that changed nothing too")
@click.option("--llvm", is_flag=True,
              help="also dump LLVM's own passes (optimizer and code generator); large and slow to capture")
@click.option("--recapture", is_flag=True,
              help="compile again even when the store has the dump (a recorded kernel: its per-pass dump only)")
@click.option("--color/--no-color", default=None,
              help="force or disable colours (default: on a terminal, unless NO_COLOR is set)")
def passes(asked: Asked, request: Request, as_json: bool, show_all: bool, llvm: bool, recapture: bool,
           color: bool | None) -> None:
    """List the passes Triton ran on KERNEL, in order, with lines added and removed and what changed.

    The first request compiles the kernel once more with MLIR's per-pass dumps on (a few seconds;
    stored compressed beside the capture). Each pass's effect is the difference between its input
    and the next pass's input (or its stage's result, for the last pass of a stage). Passes that
    changed nothing are folded and counted unless --all is given.

    Example:

        irscope passes matmul --target sm90

        irscope passes matmul --target gfx942 --all
    """
    from irscope.request.passdump import cached_pass_table, get_pass_dump

    # A recorded kernel's artifacts come from its program: --recapture compiles its per-pass dump only.
    stored = kind_of(request.kernel).stored is not None
    capture = asked.capture(request, recapture=recapture and not stored)
    dump = get_pass_dump(request, capture, llvm=llvm, recapture=recapture, on_compile=dump_notice)
    table = cached_pass_table(dump)
    for problem in table.problems:
        click.echo(f"irscope: warning: {problem}", err=True)
    m = capture.manifest
    if as_json:
        click.echo(json.dumps({
            "kernel": m.kernel, "target": m.target, "config": m.config_index,
            "triton_version": dump.info.triton_version or m.triton_version, "dump": str(dump.path),
            "complete": table.complete, "unchanged": table.unchanged,
            "passes": [asdict(r) for r in table.rows], "problems": [str(p) for p in table.problems],
        }, indent=2))
        return
    from irscope.views.passes import TableTitle, render_pass_table

    title = TableTitle(kernel=m.kernel, target=m.target, config=m.config_index,
                       triton_version=dump.info.triton_version or m.triton_version)
    write_rich(render_pass_table(table, title, show_all=show_all), color=color)
