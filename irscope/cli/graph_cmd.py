"""``irscope graph``: KERNEL's data flow, or Triton's pass pipeline, drawn with Graphviz."""

from __future__ import annotations

from pathlib import Path

import click

from irscope.cli.loops_cmd import capture_title
from irscope.cli.options import not_empty, output_file
from irscope.cli.requests import dump_notice, kernel_request
from irscope.errors import UsageError
from irscope.request.captures import Request
from irscope.store.store import Capture

_GRAPH_STAGES = ("ttir", "ttgir")


def _check(*, stage: str, out: Path | None, **_: object) -> None:
    """What graph refuses before it resolves the kernel: a stage that is not MLIR, a picture format Graphviz lacks."""
    from irscope.views.graph_dot import SUPPORTED

    if stage.lower() not in _GRAPH_STAGES:
        raise UsageError(f"graph --stage takes {' or '.join(_GRAPH_STAGES)} (the MLIR stages), not {stage.lower()!r}")
    if out is not None and out.suffix.lstrip(".").lower() not in SUPPORTED:
        raise UsageError(f"--out {out}: unknown picture format {out.suffix or '(none)'}; use one of "
                         f"{', '.join('.' + s for s in SUPPORTED)}")


@click.command("graph")
@click.option("--stage", "-s", default="ttgir", show_default=True, metavar="STAGE", callback=not_empty,
              help="the IR whose data flow to draw: ttgir or ttir")
@click.option("--pipeline", is_flag=True,
              help="draw the pass pipeline instead (each pass that changed the IR, with its summary)")
@click.option("--out", "-o", "out", type=click.Path(path_type=Path), default=None, callback=output_file,
              help="file to write: .svg, .png or .pdf (drawn by Graphviz's dot), or .dot; default: DOT text on stdout")
@click.option("--constants", is_flag=True, help="include arith.constant ops (left out to keep the graph readable)")
@kernel_request(check=_check)
def graph(request: Request, capture: Capture, stage: str, pipeline: bool, out: Path | None, constants: bool) -> None:
    """Draw KERNEL's data flow (ops as boxes, values as edges coloured by their layout, convert_layout,
    shared-memory and async-copy ops highlighted, loops as clusters), or with --pipeline the passes
    Triton ran and what each changed. Without Graphviz's dot program the .dot file is written, the
    command says how to install Graphviz, and exits with status 1.

    Example:

        irscope graph matmul --stage ttgir --out matmul.svg

        irscope graph matmul --pipeline --out passes.svg
    """
    from irscope.views.graph_dot import flow_dot, pipeline_dot, pipeline_steps, write_graph

    stage = stage.lower()
    if pipeline:
        from irscope.request.passdump import cached_pass_table, get_pass_dump

        table = cached_pass_table(get_pass_dump(request, capture, on_compile=dump_notice))
        dot = pipeline_dot(pipeline_steps(table.rows), f"{capture_title(capture)}: pass pipeline")
    else:
        from irscope.analysis.dataflow import build_flow_graph

        flow = build_flow_graph(capture.read(stage), capture.manifest.kernel_path, constants=constants)
        dot = flow_dot(flow, f"{capture_title(capture)}: {stage} data flow")
    if out is None:
        click.echo(dot.source, nl=False)
        return
    written = write_graph(dot, out)
    if written.path == out:
        click.echo(written.message)
        return
    click.echo(f"irscope: {written.message}", err=True)
    click.get_current_context().exit(1)
