"""``irscope report``: every kernel a program capture launched, its predicted time, reason and verdict."""

from __future__ import annotations

import json
import sys

import click

from irscope.cli.options import json_option, store_option
from irscope.cli.output import write


def _progress(message: str) -> None:
    """A line on the terminal while a cold report models its kernels or compiles variants."""
    click.echo(f"irscope: {message}", err=True)


@click.command("report")
@click.argument("program", required=False)
@click.option("--steps", type=int, default=None, metavar="N",
              help="the steps the per-step columns divide by (default: the runs of graph 0, the first compiled)")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True, metavar="N",
              help="kernels that get a one-line reason and a verdict")
@click.option("--what-if", "what_if", type=click.IntRange(min=0), default=3, show_default=True, metavar="N",
              help="compile num_warps/num_stages variants of the top N kernels for their verdicts (0: none)")
@click.option("--gpu", "gpu_name", metavar="NAME", help="the GPU to model (default: the target's)")
@click.option("--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="worker processes for kernels not modelled before (default: one per core)")
@click.option("--html", "html_path", metavar="FILE", help="also write the report as an HTML page")
@click.option("--measured", "measured_path", metavar="FILE",
              help="a profile of the program on a GPU (a torch.profiler trace, a Proton .hatchet or an ncu --csv "
                   "file, maybe gzipped): each kernel's measured time next to the predicted, largest disagreement "
                   "first")
@json_option
@click.option("--color/--no-color", default=None, help="force or disable colours (default: on a terminal)")
@click.option("--pager/--no-pager", default=None, help="page on a terminal (default: output taller than the screen)")
@store_option
def report(program: str | None, steps: int | None, top: int, what_if: int, gpu_name: str | None, jobs: int | None,
           html_path: str | None, measured_path: str | None, as_json: bool, color: bool | None, pager: bool | None,
           store_dir: str | None) -> None:
    """Report every Triton kernel a program capture launched (PROGRAM: its id, a prefix, or latest; default
    latest), Inductor's and the program's own @triton.jit or library kernels (graph "jit") alike: launches per
    step, the config the model predicts fastest of those compiled, predicted time per launch and in total, share
    of the program's predicted Triton time, distance from its roofline floor, DRAM share of peak, spills, loops
    that did not pipeline and the model lines it came from; sorted by predicted total time. The top kernels get a
    one-line reason and a verdict (leave it to torch.compile, tune it, write it by hand; for a jit kernel: leave
    it as it is, tune it, rework it by hand) with the numbers behind it. Calls outside Triton (cuBLAS, cuDNN, ATen) are
    listed as not modelled. Results are cached beside the program record: a second report reads them without running
    the model.

    Example:

        irscope capture --target sm90 -- python train.py   # needs your program

        irscope report latest --steps 10   # needs a program capture (the line above)

        irscope report latest --measured trace.json   # needs a GPU profile of the program (docs/measured.md)
    """
    from irscope.analysis.measured import join_report
    from irscope.parse.profiles import read_profile
    from irscope.request.program_report import ReportOptions, program_report
    from irscope.views.measured_text import measured_json, render_measured
    from irscope.views.report_text import render_report, report_json

    profile = read_profile(measured_path) if measured_path is not None else None  # a bad file fails before the model
    options = ReportOptions(program=program, steps=steps, top=top, what_if=min(what_if, top), gpu=gpu_name,
                            jobs=jobs)
    result = program_report(store_dir, options, _progress if sys.stderr.isatty() else None)
    measured = join_report(profile, result) if profile is not None else None
    if html_path is not None:
        from irscope.cli.html_cmd import write_page
        from irscope.views.html_report import render_report_page

        write_page(html_path, render_report_page(result, measured))
    if as_json:
        data = report_json(result)
        if measured is not None:
            data["measured"] = measured_json(measured)
        click.echo(json.dumps(data, indent=2))
    else:
        text = render_report(result, top)
        if measured is not None:
            text += "\n" + "\n".join(render_measured(measured)) + "\n"
        write(text, color=color, pager=pager)
