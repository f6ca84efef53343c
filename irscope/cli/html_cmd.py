"""``irscope html``: one capture as one self-contained HTML file, to share."""

from __future__ import annotations

from pathlib import Path

import click

from irscope.cli.options import output_file
from irscope.cli.requests import Asked, dump_notice, kernel_request
from irscope.request.captures import Request
from irscope.store.store import Capture


def write_page(path: str, text: str) -> None:
    """Write a page and say where, with its size."""
    Path(path).write_text(text, encoding="utf-8")
    click.echo(f"wrote {path} ({len(text.encode('utf-8')) / 1e6:.1f} MB)", err=True)


@click.command("html")
@kernel_request()
@click.option("--output", "-o", "output", metavar="FILE.html", callback=output_file,
              help="the file to write (default: KERNEL_TARGET_cN.html here)")
@click.option("--passes/--no-passes", default=True, show_default=True,
              help="include the pass table and each changed pass's diff (the first time, compiles the per-pass dump)")
def html_cmd(asked: Asked, request: Request, capture: Capture, output: str | None, passes: bool) -> None:
    """Write KERNEL's capture as one HTML file that needs nothing else (no network): every stage highlighted,
    a click on a source line marks the lines it became in every stage, the passes with their diffs, the
    layouts with their tile-to-warp maps, loops, resources, perf's verdict, verify's result and the facts.

    Example:

        irscope html matmul --target sm90 -o matmul.html
    """
    from irscope.request.share import gather_capture
    from irscope.views.html_capture import capture_page

    m = capture.manifest
    shared = gather_capture(request, capture, passes=passes, on_compile=dump_notice)
    write_page(output or f"{m.kernel}_{m.target}_c{m.config_index}.html", capture_page(shared))
