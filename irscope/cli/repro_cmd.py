"""``irscope repro``: a standalone script that compiles a captured kernel again (for bug reports)."""

from __future__ import annotations

from pathlib import Path

import click

from irscope.cli.options import config_option, kernel_options, output_file, store_option, target_option
from irscope.cli.show import compile_notice
from irscope.request.captures import LaunchSpec, get_capture, make_request


@click.command("repro")
@click.argument("kernel")
@target_option
@config_option
@click.option("--output", "-o", type=click.Path(dir_okay=False), default="repro.py", show_default=True,
              callback=output_file, help="the script to write")
@store_option
@kernel_options
def repro(kernel: str, target: str | None, config: int, output: str, store_dir: str | None,
          launch: LaunchSpec) -> None:
    """Write a standalone script that compiles KERNEL exactly as captured: its source and recorded
    specialization, with Triton alone (no irscope); on a GPU it can launch it with random inputs.

    Example:

        irscope repro matmul --target sm90 -o repro.py && python repro.py --stage ttgir
    """
    from irscope.request.repro import write_repro

    request = make_request(kernel, target, config, launch=launch, store_dir=store_dir)
    capture = get_capture(request, store_dir, on_compile=compile_notice)
    write_repro(capture, Path(output))
    m = capture.manifest
    click.echo(f"wrote {output}: {m.kernel} for {m.target} (config {m.config_index}, Triton {m.triton_version}); "
               f"python {output} --stage ttgir")
