"""``irscope bench``: kernel speed against PyTorch and the device's own ceilings (needs a GPU)."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from irscope.cli.options import not_empty, output_file, store_option
from irscope.errors import UsageError
from irscope.model.kernels import bundled_kernels, get_kernel


def _parse_sizes(text: str, names: list[str]) -> list[dict[str, int]]:
    """``4096x4096,8192x8192`` -> one dict per size, in the kernel's size names."""
    sizes = []
    for part in [p for p in text.split(",") if p.strip()]:
        try:
            dims = [int(d) for d in part.lower().split("x")]
        except ValueError:
            raise UsageError(f"--sizes {part!r}: expected numbers joined by x, e.g. 4096x4096") from None
        if len(dims) != len(names):
            raise UsageError(f"--sizes {part!r}: this kernel's sizes are {'x'.join(names)}")
        sizes.append(dict(zip(names, dims, strict=True)))
    return sizes


@click.command("bench")
@click.argument("kernels", nargs=-1)
@click.option("--sizes", metavar="AxB,...", callback=not_empty,
              help="sizes to sweep (one kernel only), e.g. 4096x4096,8192x8192")
@click.option("--runs", type=click.IntRange(min=1), default=2, show_default=True,
              help="timing runs; the median of their medians is kept")
@click.option("--plot", "plot_path", metavar="FILE.png", callback=output_file,
              help="write a plot of throughput against size")
@click.option("--json", "as_json", is_flag=True, help="print JSON instead of a table")
@store_option
def bench(kernels: tuple[str, ...], sizes: str | None, runs: int, plot_path: str | None, as_json: bool,
          store_dir: str | None) -> None:
    """Time KERNELS (default: all bundled) against their PyTorch peers on the local GPU.

    Each size is checked for correctness first; every launch config is timed and the fastest is
    reported with the key of its capture (open it with 'irscope show KEY'). Throughput is also
    given as a fraction of this GPU's measured copy bandwidth or cuBLAS fp16 rate.

    Example:

        irscope bench matmul matmul_tma --plot matmul.png   # needs a GPU
    """
    from irscope.run.bench import bench_kernel, measure_ceilings, plot, require_gpu

    infos = [get_kernel(k) for k in kernels] or list(bundled_kernels().values())
    if sizes and len(infos) != 1:
        raise UsageError("--sizes applies to one kernel at a time")
    if runs < 1:
        raise UsageError("--runs must be at least 1")
    sweeps = [(info, _parse_sizes(sizes, list(info.sizes)) if sizes else (info.bench_sizes or [info.sizes]))
              for info in infos]
    require_gpu()
    ceilings = measure_ceilings()
    rows = []
    for info, sweep in sweeps:
        for size in sweep:
            row = bench_kernel(info, size, ceilings, runs=runs, store_dir=store_dir)
            rows.append(row)
            if not as_json:
                click.echo(f"  {row.kernel} {row.label}: {row.triton_value:.1f} {row.metric} "
                           f"({row.ratio:.2f}x {row.peer})", err=True)
    if plot_path:
        plot(rows, plot_path)
    if as_json:
        click.echo(json.dumps({"ceilings": asdict(ceilings), "rows": [asdict(r) for r in rows]}, indent=2))
        return
    click.echo(f"{ceilings.device}: copy {ceilings.copy_gbps:.0f} GB/s, cuBLAS fp16 "
               f"{ceilings.matmul_tflops:.0f} TFLOP/s "
               f"(measured now), {ceilings.sm_count} SMs, L2 {ceilings.l2_bytes // 2**20} MiB")
    head: tuple[str, ...] = ("kernel", "size", "config", "max err", "triton ms", "triton", "peer", "peer ms", "peer",
                             "vs peer", "of ceiling")
    table: list[tuple[str, ...]] = [head] + [(r.kernel, r.label, str(r.config_index), f"{r.max_error:.2g}",
                                             f"{r.triton_ms:.4f}",
                       f"{r.triton_value:.1f} {r.metric}", r.peer, f"{r.peer_ms:.4f}", f"{r.peer_value:.1f}",
                       f"{r.ratio:.3f}x", f"{100 * r.of_ceiling:.0f}%") for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for cells in table:
        click.echo("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip())
    click.echo("")
    for r in rows:
        click.echo(f"{r.kernel} {r.label}: config {r.config_index} -> irscope show {r.capture_key}")
        for note in r.skipped:
            click.echo(f"    skipped {note}")
    if plot_path:
        click.echo(f"plot written to {plot_path}")
