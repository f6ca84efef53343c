"""``irscope map`` and ``irscope annotate``: the kernel's source lines through every stage."""

from __future__ import annotations

import json
import shutil

import click

from irscope.cli.options import F, json_option, not_empty
from irscope.cli.output import write
from irscope.cli.requests import kernel_request
from irscope.errors import UsageError
from irscope.store.store import Capture


def _stages(values: tuple[str, ...]) -> tuple[str, ...] | None:
    """``--stage ptx --stage sass`` or ``--stage ptx,sass`` -> ('ptx', 'sass'); none -> None (all)."""
    found = tuple(s.strip().lower() for v in values for s in v.split(",") if s.strip())
    return found or None


def _width(full: bool) -> int:
    return 0 if full else max(80, shutil.get_terminal_size((150, 40)).columns)


def _stage_option(f: F) -> F:
    """``--stage`` for map and annotate: several stages, repeated or comma-separated."""
    return click.option("--stage", "-s", "stages", multiple=True, metavar="STAGE", callback=not_empty,
                        help="stages to map (repeat or comma-separate; default: every stage with positions: "
                             "ttir, ttgir, llir, ptx, sass or amdgcn)")(f)


@click.command("map")
@click.option("--line", "-l", "line", type=click.IntRange(min=1), required=True,
              help="the kernel source line to follow")
@_stage_option
@kernel_request()
@click.option("--limit", type=click.IntRange(min=0), default=12, show_default=True, metavar="N",
              help="lines shown per stage (0: all)")
@click.option("--full", is_flag=True, help="do not cut long lines to the terminal width")
@json_option
def map_cmd(capture: Capture, line: int, stages: tuple[str, ...], limit: int, full: bool, as_json: bool) -> None:
    """List the IR lines of each stage that KERNEL's source line N became.

    An op inlined from Triton's library (tl.cdiv, tl.dot's helpers) or from a @jit helper counts for
    the kernel line that called it. SASS positions come from nvdisasm -gi on the capture's cubin.
    A torch.compile (Inductor) kernel's model source lines head the map.

    Example:

        irscope map matmul --line 78 --target sm90
    """
    from irscope.analysis.loops import capture_loops, unroll_notes
    from irscope.analysis.sourcemap import build_source_map
    from irscope.views.sourcemap_text import map_json, render_map

    if limit < 0:
        raise UsageError(f"--limit must be 0 or more, not {limit}")
    smap = build_source_map(capture, _stages(stages))
    smap.check_line(line)
    notes = unroll_notes(capture_loops(capture)[0], line)
    from irscope.store.programs import capture_provenance
    from irscope.views.provenance_text import provenance_json, provenance_lines

    prov = capture_provenance(capture)  # an Inductor kernel's model lines, above its own lines' map
    if as_json:
        data = map_json(smap, line, notes)
        click.echo(json.dumps({**data, "provenance": provenance_json(prov)} if prov is not None else data, indent=2))
        return
    head = "\n".join(provenance_lines(prov)) + "\n\n" if prov is not None else ""
    write(head + render_map(smap, line, limit=limit, width=_width(full), notes=notes), newline=False)


@click.command("annotate")
@_stage_option
@kernel_request()
@click.option("--full", is_flag=True, help="do not cut long lines to the terminal width")
@json_option
def annotate(capture: Capture, stages: tuple[str, ...], full: bool, as_json: bool) -> None:
    """Print KERNEL's source with, per line, how many ops or instructions each stage has for it.

    The bar shows the share of the last stage given (SASS, or AMDGCN, by default), so the heavy
    lines stand out.

    Example:

        irscope annotate matmul --stage ttgir,ptx,sass
    """
    from irscope.analysis.sourcemap import build_source_map
    from irscope.views.sourcemap_text import annotate_json, render_annotate

    chosen = _stages(stages)
    smap = build_source_map(capture, chosen)
    if as_json:
        click.echo(json.dumps(annotate_json(smap), indent=2))
        return
    write(render_annotate(smap, focus=chosen[-1] if chosen else None, width=_width(full)), newline=False)
