"""``irscope export`` and ``irscope open``: move captures between machines, and open what Triton wrote."""

from __future__ import annotations

from pathlib import Path

import click

from irscope.cli.options import output_file, store_option
from irscope.errors import UsageError
from irscope.model.paths import store_root
from irscope.store.archive import Limits
from irscope.store.store import Store


@click.command("export")
@click.argument("selection", nargs=-1)
@click.option("--output", "-o", "output", required=True, metavar="FILE.tar.gz", callback=output_file,
              help="archive to write")
@click.option("--all", "everything", is_flag=True, help="export every capture and program record in the store")
@click.option("--program", "programs", multiple=True, metavar="ID",
              help="export a program capture: its record (what 'report' reads) and every capture it names; an id, "
                   "a prefix of one, or latest (repeatable)")
@store_option
def export_cmd(selection: tuple[str, ...], output: str, everything: bool, programs: tuple[str, ...],
               store_dir: str | None) -> None:
    """Write the captures named by SELECTION (kernel names or capture keys) to an archive.

    With --program, a program capture travels whole: opened elsewhere, 'irscope report' reads it as it reads the
    run that made it.

    Example:

        irscope export matmul add_kernel -o captures.tar.gz
        irscope export --program latest -o train_step.tar.gz   # needs a program capture
    """
    from irscope.store.archive import export, select
    from irscope.store.programs import program_files

    store = Store(store_root(store_dir))
    records, named, missing = program_files(store, programs, everything)
    captures = select(store, list(selection), everything) if selection or everything or not programs else []
    have = {c.manifest.key for c in captures}
    captures += [c for c in named if c.manifest.key not in have]
    done = export(captures, Path(output), records)
    also = f" and {len(records)} program record(s)" if records else ""
    click.echo(f"irscope: wrote {len(captures)} capture(s){also}, {done.files} files, to {output}")
    for key in missing:
        click.echo(f"irscope: warning: a program names the capture {key}, which the store lacks: report will list "
                   "its launches without a model", err=True)
    for cap in captures:
        click.echo(f"  {cap.manifest.kernel:<24} {cap.manifest.target:<7} {cap.manifest.key}")
    for skipped in done.skipped:
        click.echo(f"irscope: warning: left out {skipped}", err=True)
    for damaged in done.damaged:
        click.echo(f"irscope: warning: exported as it is, damaged: {damaged}", err=True)
    for key, why in store.unreadable() if everything else []:
        click.echo(f"irscope: warning: left out the capture {key}, which cannot be read: {why}", err=True)


@click.command("open")
@click.argument("archive", metavar="PATH", type=click.Path())
@store_option
@click.option("--replace", "replace", multiple=True, metavar="KEY",
              help="replace the store's capture under KEY with the archive's (repeatable); nothing else is replaced")
@click.option("--trust", is_flag=True,
              help="trust the added captures: let passes/timing/diff --pass import the Python they carry")
@click.option("--max-bytes", type=click.IntRange(min=1), default=Limits.max_bytes, show_default=True,
              help="refuse an archive whose files unpack to more bytes than this")
@click.option("--max-members", type=click.IntRange(min=1), default=Limits.max_members, show_default=True,
              help="refuse an archive with more members than this")
@click.option("--max-ratio", type=click.IntRange(min=1), default=Limits.max_ratio, show_default=True,
              help="refuse an archive that unpacks to more than this many times its size")
def open_cmd(archive: str, store_dir: str | None, replace: tuple[str, ...], trust: bool, max_bytes: int,
             max_members: int, max_ratio: int) -> None:
    """Add the captures in PATH to the store; nothing in it is imported or executed.

    PATH is an archive written by 'irscope export', a Triton cache folder (TRITON_CACHE_DIR,
    ~/.triton/cache, or one compile's folder in it), a kernel dump folder (TRITON_KERNEL_DUMP=1 with
    TRITON_DUMP_DIR), or a TritonParse trace (.ndjson, .ndjson.gz). Each kernel of a folder or trace
    becomes one capture (its stages, Triton's metadata, the launches a trace recorded); one that
    cannot be read is named in one line, and the exit status is 1, while the others are added.

    Only captures the store lacks are added; nothing is removed or replaced unless named with
    --replace. The archive is checked whole (member names, sizes, manifests, checksums) before
    anything is written. Opened captures can be read at once (show, layouts, loops, map,
    resources, tui); commands that would import their Python (passes, timing, diff --pass) need
    'irscope trust' first, or --trust here.

    Example:

        irscope open captures.tar.gz && irscope show matmul --target sm90   # needs an archive
    """
    from irscope.store.archive import open_archive
    from irscope.store.ingest import is_artifact

    if not Path(archive).exists():
        raise UsageError(f"{archive} does not exist: give an archive of 'irscope export', a Triton cache or dump "
                         "folder, or a TritonParse trace (.ndjson, .ndjson.gz)")
    if is_artifact(Path(archive)):
        _open_artifacts(Path(archive), Store(store_root(store_dir)), max_bytes, max_members)
        return
    limits = Limits(max_bytes=max_bytes, max_members=max_members, max_ratio=max_ratio)
    report = open_archive(Path(archive), Store(store_root(store_dir)), limits, replace, trust)
    click.echo(f"irscope: opened {archive}: {len(report.added)} capture(s) added, "
               f"{len(report.already)} already in the store")
    for cap in report.added:
        click.echo(f"  {cap.manifest.kernel:<24} {cap.manifest.target:<7} {cap.manifest.key}")
    for pid in report.programs:
        click.echo(f"  program {pid}: 'irscope report {pid}' reads it")
    for pid in report.programs_already:
        click.echo(f"  program {pid}: already in the store")
    for key in report.unreadable:
        click.echo(f"irscope: warning: the store's capture {key} cannot be read and was left as it is; "
                   f"--replace {key} replaces it with the archive's", err=True)
    if report.added and not trust:
        click.echo("irscope: the added captures are untrusted: commands that would import their Python need "
                   f"'irscope trust {archive}' first", err=True)


def _open_artifacts(path: Path, store: Store, max_bytes: int, max_members: int) -> None:
    from irscope.store.ingest import open_artifacts

    report = open_artifacts(path, store, max_bytes, max_members)
    click.echo(f"irscope: opened {path} ({report.described()}): {len(report.added)} capture(s) added, "
               f"{len(report.already)} already in the store" + (f", {report.passed_over} folder(s) or event(s) "
                                                                 "without a compile passed over"
                                                                 if report.passed_over else ""))
    for cap in report.added + report.already:
        m = cap.manifest
        click.echo(f"  {m.kernel:<24} {m.target:<7} {m.key}")
    for line in report.refused:
        click.echo(f"irscope: refused {line}", err=True)
    if report.added:
        click.echo("irscope: 'irscope passes KEY --recompile' compiles one of these again from its recorded module "
                   "(no Python is run); timing and what-ifs need the launch, which Triton's artifacts do not hold",
                   err=True)
    if report.refused:
        raise SystemExit(1)
