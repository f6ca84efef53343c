"""``irscope resources``: registers, spills, shared memory and occupancy of KERNEL, for one or every config."""

from __future__ import annotations

import json
from dataclasses import replace

import click

from irscope.captures import LaunchSpec, get_capture, make_request
from irscope.cli.loops_cmd import capture_title
from irscope.cli.options import config_option, json_option, kernel_options, store_option, target_option
from irscope.cli.show import compile_notice
from irscope.errors import UsageError
from irscope.kernels import KernelInfo


@click.command("resources")
@click.argument("kernel")
@target_option
@config_option
@click.option("--all-configs", "all_configs", is_flag=True,
              help="every launch config of the kernel (compiling those not yet captured), one line each")
@json_option
@store_option
@kernel_options
def resources(kernel: str, target: str | None, config: int, all_configs: bool, as_json: bool,
              store_dir: str | None, launch: LaunchSpec) -> None:
    """Show registers per thread, spills, shared and local memory of KERNEL and the occupancy they
    allow per SM (A100, H100/H200, B200) or per CU (MI300X, MI355X), offline: NVIDIA figures from the
    capture's cubin and Triton's bundled ptxas -v, AMD figures from the AMDGCN metadata.

    Example:

        irscope resources matmul --target sm90 --all-configs
    """
    from irscope.analysis.resources import capture_resources
    from irscope.views.resources_text import render_resource_table, render_resources, resources_json

    request = make_request(kernel, target, config, launch=launch, store_dir=store_dir)
    if not all_configs:
        capture = get_capture(request, store_dir, on_compile=compile_notice)
        found = capture_resources(capture)
        if as_json:
            click.echo(json.dumps(resources_json([found])[0], indent=2))
            return
        click.echo(render_resources(found, capture_title(capture)), nl=False)
        return
    if not isinstance(request.kernel, KernelInfo):
        raise UsageError("--all-configs needs a kernel module that declares CONFIGS (a bundled kernel or a "
                         "kernel-module path)")
    configs = request.kernel.configs_for(request.target.backend)
    rows = [capture_resources(get_capture(replace(request, config_index=i), store_dir, on_compile=compile_notice))
            for i in range(len(configs))]
    if as_json:
        click.echo(json.dumps(resources_json(rows), indent=2))
        return
    title = (f"{request.kernel.function} on {request.target.name}: {len(rows)} configs"
             + (f" ({rows[0].occupancy.gpu} limits)" if rows and rows[0].occupancy else ""))
    click.echo(render_resource_table(rows, title), nl=False)
