"""``irscope facts`` and ``irscope check``: snapshot a compilation's facts, and fail CI when they move."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from irscope.cli.options import (
    engine_option,
    jobs_option,
    json_option,
    not_empty,
    output_file,
    store_option,
    target_value,
    triton_option,
)
from irscope.cli.requests import Asked, compile_options
from irscope.request.captures import LaunchSpec
from irscope.views.words import counted


@contextmanager
def _progress(total: int, what: str) -> Iterator[Callable[[Any], None]]:
    """A progress bar on stderr (a terminal), else nothing."""
    if total <= 1 or not sys.stderr.isatty():
        yield lambda job: None
        return
    bar: Any
    with click.progressbar(length=total, label=what, file=sys.stderr, show_pos=True,
                           item_show_func=lambda job: job.label() if job is not None else None) as bar:
        yield lambda job: bar.update(1, job)


def _configs(kernel: str, target: str, launch: LaunchSpec, store_dir: str | None) -> list[int]:
    """Every config index of a kernel for a target (its launch configs, autotune configs or recorded configs)."""
    from irscope.request.kinds import kind_of

    request = Asked(kernel, target, 0, launch, store_dir).request()
    kind = kind_of(request.kernel)
    if (count := kind.config_count(request.target.backend)) is not None:
        return list(range(count))
    if kind.stored is not None:
        from irscope.model.paths import store_root
        from irscope.store.store import Store

        found = Store(store_root(store_dir)).find(kernel)
        return sorted({c.manifest.config_index for c in found if c.manifest.target == request.target.name})
    return [0]


def _default_target(kernel: str, launch: LaunchSpec, store_dir: str | None) -> str:
    """The target a kernel is compiled for without --target: a stored capture's own, else the default."""
    return Asked(kernel, None, 0, launch, store_dir).request().target.name


@click.command("facts")
@click.argument("kernels", nargs=-1, required=True)
@click.option("--target", "-t", "targets", metavar="TARGET", multiple=True, callback=target_value,
              help="a target to compile for (repeatable; default: sm90)")
@click.option("--config", "-c", "configs", type=click.IntRange(min=0), multiple=True, metavar="N",
              help="a config index (repeatable; default: 0)")
@click.option("--all-configs", is_flag=True, help="every config of each kernel")
@click.option("--tolerance", "tolerances", metavar="FACT=AMOUNT", multiple=True, callback=not_empty,
              help="written into the file for check, e.g. registers=8, 'instructions.*=5%', compile_seconds=any")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, callback=output_file,
              help="write the snapshot here (default: print it)")
@jobs_option("compile N entries at a time in worker processes")
@engine_option
@compile_options
def facts(kernels: tuple[str, ...], targets: tuple[str, ...], configs: tuple[int, ...], all_configs: bool,
          tolerances: tuple[str, ...], output: str | None, jobs: int | None, engine: Any, store_dir: str | None,
          launch: LaunchSpec) -> None:
    """Snapshot the facts of KERNELS' compilations (loops, mma, layouts, registers, spills, shared
    memory, occupancy, instruction mix) for 'irscope check' to guard in CI.

    Example:

        irscope facts matmul softmax --target sm90 --target gfx942 --all-configs -o facts.json

        irscope facts matmul softmax --all-configs --engine dask -j 2 -o facts.json
    """
    from irscope.analysis.facts import parse_tolerance
    from irscope.errors import UsageError
    from irscope.model.paths import require_writable, store_root
    from irscope.request.factsfile import Job, default_workers, launch_data, run_jobs, snapshot, validate
    from irscope.store.store import triton_version
    from irscope.toolchain.tritons import selected

    if all_configs and configs:
        raise UsageError("give --config N or --all-configs, not both")
    rules = {}
    for text in tolerances:
        name, _, amount = text.partition("=")
        parse_tolerance(text)
        rules[name.strip()] = amount.strip()
    plain_launch = launch_data(launch)
    job_list: list[Job] = []
    for kernel in kernels:
        for target in targets or (_default_target(kernel, launch, store_dir),):
            indices = _configs(kernel, target, launch, store_dir) if all_configs else list(configs or (0,))
            job_list += [Job(kernel=kernel, target=target, config=i, launch=plain_launch) for i in indices]
    root = store_root(store_dir)
    validate(job_list, root)
    require_writable(root)
    chosen = selected()
    with _progress(len(job_list), "compiling") as step:
        outcomes = run_jobs(job_list, root, str(chosen.python) if chosen else None, jobs or default_workers(), step,
                            engine=engine)
    failed = [o for o in outcomes if o.error]
    for o in failed:
        click.echo(f"irscope: error: {o.job.label()}: {o.error}", err=True)
    if failed:
        raise SystemExit(1)
    text = json.dumps(snapshot(outcomes, triton_version(), rules), indent=1, default=str) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    Path(output).write_text(text, encoding="utf-8")
    facts = sum(len(o.facts) for o in outcomes)
    click.echo(f"wrote {counted(len(outcomes), 'entry', 'entries')} ({counted(facts, 'fact')}) to {output}")


@click.command("check")
@click.argument("snapshot_file", metavar="FACTS.json", type=click.Path(dir_okay=False))
@click.option("--tolerance", "tolerances", metavar="FACT=AMOUNT", multiple=True, callback=not_empty,
              help="allow a fact to move this much (repeatable; adds to the file's), e.g. registers=8 or "
                   "'instructions.*=5%'")
@click.option("--html", "html_file", metavar="FILE.html", callback=output_file,
              help="also write the result as one self-contained HTML page (a CI artifact), the changed entries first")
@jobs_option("compile N entries at a time in worker processes")
@engine_option
@json_option
@triton_option
@store_option
def check(snapshot_file: str, tolerances: tuple[str, ...], html_file: str | None, jobs: int | None, engine: Any,
          as_json: bool, store_dir: str | None) -> None:
    """Compile every entry of FACTS.json again (with the Triton chosen now, e.g. --triton) and exit 1
    listing the facts that changed beyond their tolerance; 0 when none did.

    Example:

        irscope --triton 3.6.0 check facts.json --tolerance registers=5%   # needs Triton 3.6.0

        irscope check facts.json --html check.html   # needs facts.json from irscope facts

        irscope check facts.json --engine dask=tcp://10.0.0.5:8786   # needs a running Dask scheduler
    """
    from irscope.model.paths import require_writable, store_root
    from irscope.request.factsfile import check_snapshot, default_workers
    from irscope.toolchain.tritons import selected
    from irscope.views.facts_text import render_deltas

    root = store_root(store_dir)
    require_writable(root)
    chosen = selected()
    path = Path(snapshot_file)
    from irscope.request.factsfile import read_snapshot

    total = len(read_snapshot(path)[0])  # a malformed file is refused before anything compiles
    with _progress(total, "checking") as step:
        results = check_snapshot(path, root, str(chosen.python) if chosen else None, tolerances,
                                 jobs or default_workers(), step, engine=engine)
    bad = [r for r in results if r.failed]
    if html_file is not None:
        _write_check_page(html_file, snapshot_file, results)
    if as_json:
        click.echo(json.dumps([{**r.job.to_json(), "failed": r.failed, "error": r.error,
                                "changed": [{"fact": d.name, "was": d.before, "now": d.after, "allowed": d.allowed}
                                            for d in r.deltas]} for r in results], indent=2, default=str))
    else:
        for r in results:
            if r.error:
                click.echo(f"ERROR    {r.job.label()}: {r.error}")
                continue
            click.echo(f"{'CHANGED' if r.failed else 'ok':<8} {r.job.label()}"
                       + (f"  ({r.label})" if r.label else ""))
            for line in render_deltas(r.deltas, "was", "now"):
                click.echo(f"  {line}")
        moved = sum(1 for r in bad for d in r.deltas if not d.allowed)
        click.echo(f"{counted(len(results), 'entry', 'entries')}: {len(results) - len(bad)} as recorded, "
                   f"{len(bad)} changed"
                   + (f" ({moved} facts beyond tolerance)" if moved else ""))
    if bad:
        raise SystemExit(1)


def _write_check_page(html_file: str, snapshot_file: str, results: list[Any]) -> None:
    """The check's result as one HTML page."""
    from irscope.analysis.share import CheckEntry, SharedCheck
    from irscope.cli.html_cmd import write_page
    from irscope.store.store import triton_version
    from irscope.views.html_compare import check_page

    entries = tuple(CheckEntry(label=r.job.label(), note=r.label, failed=r.failed, error=r.error, deltas=r.deltas)
                    for r in results)
    write_page(html_file, check_page(SharedCheck(snapshot=snapshot_file, triton_version=triton_version(),
                                                 entries=entries)))
