"""``irscope resources``: registers, spills, shared memory and occupancy of KERNEL, for one or every config."""

from __future__ import annotations

import json
from dataclasses import replace

import click

from irscope.analysis.resources import Resources
from irscope.cli.loops_cmd import capture_title
from irscope.cli.options import jobs_option, json_option
from irscope.cli.output import write
from irscope.cli.requests import Asked, kernel_request
from irscope.errors import IrscopeError, UsageError
from irscope.model.paths import store_root
from irscope.request.captures import Request
from irscope.request.kinds import kind_of
from irscope.store.store import Capture, Store
from irscope.views.words import counted


def _every_config(request: Request, asked: Asked, jobs: int = 1) -> list[Capture]:
    """A capture of each of the kernel's configs: declared CONFIGS, @triton.autotune configs, or those recorded."""
    kernel = request.kernel
    kind = kind_of(kernel)
    if kind.stored is not None:
        m = kind.stored.manifest
        found = [c for c in Store(store_root(asked.store_dir)).find(m.kernel)
                 if c.manifest.target == m.target and c.manifest.origin == m.origin and c.manifest.program == m.program]
        latest = {c.manifest.config_index: c for c in found}  # oldest first: the latest capture of each config wins
        return [latest[i] for i in sorted(latest)]
    count = kind.config_count(request.target.backend)
    if count is None:
        raise UsageError(f"--all-configs does not apply to {kernel.name}; name the kernel with --config N")
    if jobs > 1:
        _compile_missing(request, asked, count, jobs)
    return [asked.capture(replace(request, config_index=i)) for i in range(count)]


def _compile_missing(request: Request, asked: Asked, count: int, jobs: int) -> None:
    """Compile the configs not yet in the store, ``jobs`` at a time in worker processes."""
    from irscope.request.factsfile import Job, launch_data, run_jobs
    from irscope.toolchain.tritons import selected

    store = Store(store_root(asked.store_dir))
    missing = [i for i in range(count) if store.get(replace(request, config_index=i).key()) is None]
    if len(missing) < 2:
        return
    data = launch_data(asked.launch)
    click.echo(f"irscope: compiling {counted(len(missing), 'config')} of {request.kernel.name} for "
               f"{request.target.name}, "
               f"{min(jobs, len(missing))} at a time...", err=True)
    chosen = selected()
    done = run_jobs([Job(kernel=asked.kernel, target=request.target.name, config=i, launch=data) for i in missing],
                    store.root, str(chosen.python) if chosen else None, jobs, facts=False)
    failed = [o for o in done if o.error]
    if failed:
        raise IrscopeError("; ".join(f"config {o.job.config}: {o.error}" for o in failed))


@click.command("resources")
@kernel_request()
@click.option("--all-configs", "all_configs", is_flag=True,
              help="every launch config of the kernel (declared CONFIGS, @triton.autotune configs, or the configs "
                   "recorded by 'irscope capture'; compiling those not yet captured), one line each")
@jobs_option("with --all-configs: compile N configs at a time in worker processes")
@json_option
def resources(asked: Asked, request: Request, all_configs: bool, jobs: int | None, as_json: bool) -> None:
    """Show registers per thread, spills, shared and local memory of KERNEL and the occupancy they
    allow per SM (A100, H100/H200, B200) or per CU (MI300X, MI355X), offline: NVIDIA figures from the
    capture's cubin and Triton's bundled ptxas -v, AMD figures from the AMDGCN metadata.

    Example:

        irscope resources matmul --target sm90 --all-configs
    """
    from irscope.analysis.resources import capture_resources
    from irscope.views.resources_text import render_resource_table, render_resources, resources_json

    if not all_configs:
        capture = asked.capture(request)
        found = capture_resources(capture)
        if as_json:
            click.echo(json.dumps(resources_json([found])[0], indent=2))
        else:
            write(render_resources(found, capture_title(capture)), newline=False)
        _fail_unlaunchable([found])
        return
    from irscope.request.factsfile import default_workers

    workers = jobs or default_workers()
    rows = _resources_of(_every_config(request, asked, workers), workers)
    if as_json:
        click.echo(json.dumps(resources_json(rows), indent=2))
    else:
        title = (f"{rows[0].kernel} on {request.target.name}: {counted(len(rows), 'config')}"
                 + (f" ({rows[0].occupancy.gpu} limits)" if rows and rows[0].occupancy else ""))
        write(render_resource_table(rows, title), newline=False)
    _fail_unlaunchable(rows)


def _resources_of(captures: list[Capture], workers: int) -> list[Resources]:
    """Each capture's resources, ``workers`` at a time: most of it is ptxas and cuobjdump run on each (threads
    suffice: the tools are processes of their own), which the worker processes that compiled them left undone."""
    from irscope.analysis.resources import capture_resources

    if workers <= 1 or len(captures) <= 1:
        return [capture_resources(c) for c in captures]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(workers, len(captures))) as pool:
        return list(pool.map(capture_resources, captures))


def _fail_unlaunchable(rows: list[Resources]) -> None:
    """Exit 1 naming each config whose CTA (workgroup) cannot be launched on the target at all."""
    bad = [r for r in rows if r.occupancy is not None and not r.occupancy.fits]
    if bad:
        raise IrscopeError("; ".join(f"{r.kernel} config {r.config_index} cannot be launched on "
                                     f"{r.occupancy.gpu if r.occupancy else r.target}: "
                                     + "; ".join(r.occupancy.problems if r.occupancy else ()) for r in bad))
