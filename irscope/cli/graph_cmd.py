"""``irscope graph``: KERNEL's data flow, or Triton's pass pipeline, drawn with Graphviz."""

from __future__ import annotations

from pathlib import Path

import click

from irscope.cli.loops_cmd import capture_title
from irscope.cli.options import (
    config_option,
    kernel_options,
    not_empty,
    output_file,
    store_option,
    target_option,
)
from irscope.cli.show import compile_notice
from irscope.errors import UsageError
from irscope.request.captures import LaunchSpec, get_capture, make_request

_GRAPH_STAGES = ("ttir", "ttgir")


@click.command("graph")
@click.argument("kernel")
@click.option("--stage", "-s", default="ttgir", show_default=True, metavar="STAGE", callback=not_empty,
              help="the IR whose data flow to draw: ttgir or ttir")
@click.option("--pipeline", is_flag=True,
              help="draw the pass pipeline instead (each pass that changed the IR, with its summary)")
@click.option("--out", "-o", "out", type=click.Path(path_type=Path), default=None, callback=output_file,
              help="file to write: .svg, .png or .pdf (drawn by Graphviz's dot), or .dot; default: DOT text on stdout")
@click.option("--constants", is_flag=True, help="include arith.constant ops (left out to keep the graph readable)")
@target_option
@config_option
@store_option
@kernel_options
def graph(kernel: str, stage: str, pipeline: bool, out: Path | None, constants: bool, target: str | None,
          config: int, store_dir: str | None, launch: LaunchSpec) -> None:
    """Draw KERNEL's data flow (ops as boxes, values as edges coloured by their layout, convert_layout,
    shared-memory and async-copy ops highlighted, loops as clusters), or with --pipeline the passes
    Triton ran and what each changed. Without Graphviz's dot program the .dot file is written, the
    command says how to install Graphviz, and exits with status 1.

    Example:

        irscope graph matmul --stage ttgir --out matmul.svg

        irscope graph matmul --pipeline --out passes.svg
    """
    from irscope.views.graph_dot import SUPPORTED, flow_dot, pipeline_dot, pipeline_steps, write_graph

    stage = stage.lower()
    if stage not in _GRAPH_STAGES:
        raise UsageError(f"graph --stage takes {' or '.join(_GRAPH_STAGES)} (the MLIR stages), not {stage!r}")
    if out is not None and out.suffix.lstrip(".").lower() not in SUPPORTED:
        raise UsageError(f"--out {out}: unknown picture format {out.suffix or '(none)'}; use one of "
                         f"{', '.join('.' + s for s in SUPPORTED)}")
    request = make_request(kernel, target, config, launch=launch, store_dir=store_dir)
    capture = get_capture(request, store_dir, on_compile=compile_notice)
    if pipeline:
        from irscope.cli.passes import dump_notice
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
