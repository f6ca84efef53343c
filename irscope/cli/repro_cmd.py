"""``irscope repro``: a standalone script that compiles a captured kernel again (for bug reports)."""

from __future__ import annotations

from pathlib import Path

import click

from irscope.cli.options import output_file
from irscope.cli.requests import kernel_request
from irscope.store.store import Capture


@click.command("repro")
@kernel_request()
@click.option("--output", "-o", type=click.Path(dir_okay=False), default="repro.py", show_default=True,
              callback=output_file, help="the script to write")
def repro(capture: Capture, output: str) -> None:
    """Write a standalone script that compiles KERNEL exactly as captured: its source and recorded
    specialization, with Triton alone (no irscope); on a GPU it can launch it with random inputs.

    Example:

        irscope repro matmul --target sm90 -o repro.py && python repro.py --stage ttgir
    """
    from irscope.request.repro import write_repro

    write_repro(capture, Path(output))
    m = capture.manifest
    click.echo(f"wrote {output}: {m.kernel} for {m.target} (config {m.config_index}, Triton {m.triton_version}); "
               f"python {output} --stage ttgir")
