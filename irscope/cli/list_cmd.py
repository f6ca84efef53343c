"""``irscope list``: kernels, their configs, targets, stages and what the store holds."""

from __future__ import annotations

import json
from collections.abc import Mapping

import click

from irscope.cli.options import json_option, store_option
from irscope.kernels import KernelInfo, bundled_kernels, get_kernel
from irscope.paths import store_root
from irscope.stages import stages_for
from irscope.store import Store
from irscope.targets import TARGETS


def _config_text(config: Mapping[str, object]) -> str:
    return " ".join(f"{k}={v}" for k, v in config.items())


def _kernel_detail(info: KernelInfo) -> list[str]:
    lines = [f"{info.name}  ({info.path})", f"  {info.description}",
             f"  jit function {info.function}, dtype {info.dtype}, sizes {_config_text(info.sizes)}"]
    for backend, configs in info.configs.items():
        lines.append(f"  configs for {backend} targets:")
        lines += [f"    {i}: {_config_text(c)}" for i, c in enumerate(configs)]
    return lines


@click.command("list")
@click.argument("kernel", required=False)
@json_option
@store_option
def list_cmd(kernel: str | None, as_json: bool, store_dir: str | None) -> None:
    """List kernels, their launch configs, targets, stages and stored captures.

    With KERNEL, list that kernel's configs in full.

    Example:

        irscope list matmul
    """
    kernels = [get_kernel(kernel)] if kernel else list(bundled_kernels().values())
    store = Store(store_root(store_dir))
    captures = store.captures()
    if as_json:
        click.echo(json.dumps({
            "kernels": [{"name": k.name, "path": str(k.path), "function": k.function, "description": k.description,
                         "dtype": k.dtype, "sizes": k.sizes, "configs": k.configs} for k in kernels],
            "targets": [{"name": t.name, "backend": t.backend, "arch": t.arch, "description": t.description,
                         "stages": [s.name for s in stages_for(t.backend)]} for t in TARGETS.values()],
            "captures": [{"key": c.manifest.key, "kernel": c.manifest.kernel, "target": c.manifest.target,
                          "config": c.manifest.config_index, "triton_version": c.manifest.triton_version,
                          "path": str(c.path)} for c in captures],
        }, indent=2))
        return
    out: list[str] = []
    if kernel:
        out += _kernel_detail(kernels[0])
    else:
        out.append("Kernels (configs for cuda / hip):")
        width = max(len(k.name) for k in kernels)
        for k in kernels:
            counts = f"{len(k.configs_for('cuda'))}/{len(k.configs_for('hip'))}"
            out.append(f"  {k.name:<{width}}  {counts:>5}  {k.description}")
    out.append("")
    out.append("Targets:")
    for t in TARGETS.values():
        stages = ", ".join(s.name for s in stages_for(t.backend))
        out.append(f"  {t.name:<7} {t.vendor:<6} {t.description:<28} stages: {stages}")
    out.append("  native  the local GPU (default when one is present; else sm90)")
    out.append("")
    shown = [c for c in captures if not kernel or c.manifest.kernel == kernels[0].name]
    out.append(f"Captures in {store.root}: {len(shown)}")
    for c in shown:
        m = c.manifest
        out.append(f"  {m.kernel:<12} {m.target:<7} config {m.config_index}  Triton {m.triton_version}  "
                   f"{m.compile_seconds:.2f} s  {m.created}")
    click.echo("\n".join(out))
