"""``irscope passes``: every pass of Triton's pipeline, in order, with what it changed."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from irscope.cli.options import json_option
from irscope.cli.output import write_rich
from irscope.cli.requests import Asked, dump_notice, kernel_request
from irscope.errors import UsageError
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
@click.option("--recompile", is_flag=True,
              help="a capture 'irscope open' made: compile its recorded TTIR module (<name>.source) again with its "
                   "recorded signature and options, with the Triton that made it (no Python of it is run)")
@click.option("--color/--no-color", default=None,
              help="force or disable colours (default: on a terminal, unless NO_COLOR is set)")
def passes(asked: Asked, request: Request, as_json: bool, show_all: bool, llvm: bool, recapture: bool,
           recompile: bool, color: bool | None) -> None:
    """List the passes Triton ran on KERNEL, in order, with lines added and removed and what changed.

    The first request compiles the kernel once more with MLIR's per-pass dumps on (a few seconds;
    stored compressed beside the capture). Each pass's effect is the difference between its input
    and the next pass's input (or its stage's result, for the last pass of a stage). Passes that
    changed nothing are folded and counted unless --all is given.

    Example:

        irscope passes matmul --target sm90

        irscope passes matmul --target gfx942 --all

    A capture 'irscope open' made from Triton's cache, dump or TritonParse trace is compiled again only with
    --recompile: its recorded TTIR module, as Triton's frontend made it, not its Python.
    """
    from irscope.request.opened import from_ttir, is_opened, opened_request
    from irscope.request.passdump import cached_pass_table, get_pass_dump

    # A recorded kernel's artifacts come from its program: --recapture compiles its per-pass dump only.
    stored = kind_of(request.kernel).stored is not None
    capture = asked.capture(request, recapture=recapture and not stored)
    if is_opened(capture) and recompile:
        request = opened_request(capture)  # its recorded module, never its Python
        if from_ttir(capture):
            click.echo(f"irscope: note: {capture.manifest.key} keeps no <name>.source, so its TTIR is compiled again: "
                       "the TTIR passes run on their own output (and change nothing); from TTGIR on it is the "
                       "original compile", err=True)
    elif recompile:
        raise UsageError(f"--recompile is for captures 'irscope open' made; {capture.manifest.key} was not "
                         "(--recapture compiles it again)")
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
