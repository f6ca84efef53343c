"""``irscope verify``: check irscope's own claims about captures against the lower stages."""

from __future__ import annotations

import json
from dataclasses import asdict, replace

import click

from irscope.cli.options import json_option, target_value
from irscope.cli.output import write
from irscope.cli.requests import Asked, compile_options
from irscope.errors import UsageError
from irscope.model.paths import store_root
from irscope.request.captures import LaunchSpec
from irscope.request.kinds import kind_of
from irscope.store.store import Capture, Store


def _captures(kernels: tuple[str, ...], targets: tuple[str, ...], config: int | None, all_configs: bool,
              store_dir: str | None, launch: LaunchSpec) -> list[Capture]:
    if not kernels:
        found = Store(store_root(store_dir)).captures()
        if not found:
            raise UsageError("the store holds no captures; name kernels to verify (e.g. irscope verify matmul)")
        return found
    chosen: dict[str, Capture] = {}
    for kernel in kernels:
        for target in targets or (None,):
            asked = Asked(kernel, target, config or 0, launch, store_dir)
            request = asked.request()
            indices = [request.config_index]
            if all_configs:
                declared = kind_of(request.kernel).declared_configs(request.target.backend)
                if declared is None:
                    raise UsageError(f"--all-configs needs a kernel module that declares CONFIGS; {kernel} does not")
                indices = list(range(declared))
            for index in indices:
                cap = asked.capture(replace(request, config_index=index))
                chosen[cap.manifest.key] = cap
    return list(chosen.values())


@click.command("verify")
@click.argument("kernels", nargs=-1, metavar="[KERNEL|KEY]...")
@click.option("--target", "-t", "targets", metavar="TARGET", multiple=True, callback=target_value,
              help="target(s) to check (repeatable; default: as for show)")
@click.option("--config", "-c", "config", type=click.IntRange(min=0), default=None, metavar="N",
              help="launch config index")
@click.option("--all-configs", is_flag=True, help="every launch config of each kernel module")
@click.option("--verbose", "-v", is_flag=True, help="print every finding, not only disagreements")
@json_option
@compile_options
def verify(kernels: tuple[str, ...], targets: tuple[str, ...], config: int | None, all_configs: bool,
           verbose: bool, as_json: bool, store_dir: str | None, launch: LaunchSpec) -> None:
    """Re-derive every claim irscope makes about KERNEL that a lower stage can confirm, and print each
    disagreement: stored files against their sha256, pipeline depth and waits against cp.async /
    wait_group (AMD: global loads), mma kind and instruction shape against the tensor-core
    instructions, registers against ptxas and the cubin, shared memory against the TTGIR, and the
    source lines of dots, loads and stores against each stage's line table. With no KERNEL, every
    capture in the store. Exit status 1 when anything disagrees.

    Example:

        irscope verify matmul --target sm90 --target gfx942
    """
    from irscope.analysis.verify import verify_capture

    results = [verify_capture(c) for c in _captures(kernels, targets, config, all_configs, store_dir, launch)]
    if as_json:
        click.echo(json.dumps([{**asdict(r), "disagreements": len(r.disagreements)} for r in results], indent=2))
    else:
        lines = []
        for r in results:
            agree = sum(1 for f in r.findings if f.status == "agree")
            lines.append(f"{r.kernel} on {r.target}, config {r.config_index} ({r.key}): {agree} agree, "
                         f"{len(r.disagreements)} disagree, {len(r.unchecked)} unchecked\n")
            lines.extend(f"  {f.status:<9} {f.topic:<9} {f.claim}\n  {'':<19} {f.evidence}\n"
                         for f in r.findings if f.status == "disagree" or verbose)
        write("".join(lines), newline=False)
    if any(r.disagreements for r in results):
        raise SystemExit(1)
