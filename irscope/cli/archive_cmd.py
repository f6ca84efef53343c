"""``irscope export`` and ``irscope open``: move captures between machines."""

from __future__ import annotations

from pathlib import Path

import click

from irscope.cli.options import output_file, store_option
from irscope.paths import store_root
from irscope.store import Store


@click.command("export")
@click.argument("selection", nargs=-1)
@click.option("--output", "-o", "output", required=True, metavar="FILE.tar.gz", callback=output_file,
              help="archive to write")
@click.option("--all", "everything", is_flag=True, help="export every capture in the store")
@store_option
def export_cmd(selection: tuple[str, ...], output: str, everything: bool, store_dir: str | None) -> None:
    """Write the captures named by SELECTION (kernel names or capture keys) to an archive.

    Example:

        irscope export matmul add_kernel -o captures.tar.gz
    """
    from irscope.archive import export, select

    captures = select(Store(store_root(store_dir)), list(selection), everything)
    files = export(captures, Path(output))
    click.echo(f"irscope: wrote {len(captures)} capture(s), {files} files, to {output}")
    for cap in captures:
        click.echo(f"  {cap.manifest.kernel:<24} {cap.manifest.target:<7} {cap.manifest.key}")


@click.command("open")
@click.argument("archive", type=click.Path(dir_okay=False))
@store_option
def open_cmd(archive: str, store_dir: str | None) -> None:
    """Add the captures in ARCHIVE (written by 'irscope export') to the store; nothing in it is executed.

    Example:

        irscope open captures.tar.gz && irscope show matmul --target sm90
    """
    from irscope.archive import open_archive

    report = open_archive(Path(archive), Store(store_root(store_dir)))
    click.echo(f"irscope: opened {archive}: {len(report.added)} capture(s) added, "
               f"{len(report.already)} already in the store")
    for cap in report.added:
        click.echo(f"  {cap.manifest.kernel:<24} {cap.manifest.target:<7} {cap.manifest.key}")
