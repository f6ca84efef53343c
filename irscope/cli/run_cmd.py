"""``irscope run``: run kernels for correctness against their torch references."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from irscope.model.kernels import bundled_kernels, get_kernel
from irscope.run.correctness import DEVICES, RunResult, check_kernel, choose_device, prepare


def render_results(results: list[RunResult]) -> str:
    """A plain-text table of run results."""
    head = ("kernel", "device", "config", "shapes", "dtype", "max abs err", "max rel err", "tolerance", "result")
    rows = [head] + [
        (r.kernel, r.device, str(r.config_index), r.shapes, r.dtype, f"{r.max_abs_error:.3g}",
         f"{r.max_rel_error:.3g}", f"atol {r.atol:g} rtol {r.rtol:g}",
         _verdict(r))
        for r in results
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    table = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    return "\n".join(table + [f"{r.kernel}: {r.error}" for r in results if r.error])


def _verdict(r: RunResult) -> str:
    if r.error:
        return "ERROR (see below)"
    if r.passed:
        return "PASS"
    return "FAIL" + (f" ({r.unwritten} unwritten)" if r.unwritten else "")


@click.command("run")
@click.argument("kernels", nargs=-1)
@click.option("--device", type=click.Choice(DEVICES), default="auto", show_default=True,
              help="where to run: the GPU torch sees, or Triton's CPU interpreter (auto: GPU if present)")
@click.option("--config", "-c", "config", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="launch config index")
@click.option("--seed", type=int, default=0, show_default=True, help="seed of the random inputs")
@click.option("--json", "as_json", is_flag=True, help="print JSON instead of a table")
def run(kernels: tuple[str, ...], device: str, config: int, seed: int, as_json: bool) -> None:
    """Run KERNELS (default: all bundled) once and compare each with its torch reference.

    Inputs are random at sizes that are not multiples of the block sizes; outputs are poisoned with
    NaN first. Exits 1 when any kernel fails.

    Example:

        irscope run matmul softmax --device interpreter
    """
    infos = [get_kernel(k) for k in kernels] or list(bundled_kernels().values())
    mode = choose_device(device)
    prepare(mode)
    results = [check_kernel(info, mode, config_index=config, seed=seed) for info in infos]
    if as_json:
        click.echo(json.dumps([asdict(r) for r in results], indent=2))
    else:
        click.echo(render_results(results))
    if not all(r.passed for r in results):
        raise SystemExit(1)
