"""``irscope list``: kernels, their configs, targets, stages and what the store holds."""

from __future__ import annotations

import json
from collections.abc import Mapping

import click

from irscope.cli.options import json_option, store_option
from irscope.kernels import KernelInfo, bundled_kernels, get_kernel
from irscope.kernelspec import parse_function_ref
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


def _list_function(spec: str, as_json: bool) -> None:
    """The configs of a FILE:FUNCTION kernel (its autotune configs, or one default config)."""
    from irscope.compile.function import load_object, unwrap
    from irscope.kernelspec import FunctionKernel

    ref = parse_function_ref(spec)
    assert ref is not None
    unwrapped = unwrap(load_object(FunctionKernel(ref=ref)), spec)
    params = [("constexpr " if p.is_constexpr else "") + p.name for p in unwrapped.fn.params]
    if as_json:
        click.echo(json.dumps({"kernel": spec, "path": str(ref.path), "line": ref.line or None,
                               "function": ref.defined_as, "arguments": params,
                               "configs": unwrapped.configs,
                               "heuristics": [name for name, _ in unwrapped.heuristics]}, indent=2, default=str))
        return
    where = f"{ref.path}:{ref.line}" if ref.line else str(ref.path)
    if ref.module_file is not None:
        where += f", re-exported by {ref.module_file.name}"
    named = ref.qualname if ref.defined_as == ref.qualname else f"{ref.qualname} = {ref.defined_as}"
    lines = [f"{named}  ({where})", f"  arguments: {', '.join(params)}"]
    if unwrapped.heuristics:
        lines.append(f"  heuristics: {', '.join(name for name, _ in unwrapped.heuristics)}")
    lines.append("  configs (@triton.autotune):" if len(unwrapped.configs) > 1 or unwrapped.configs[0] else
                 "  configs: one (not autotuned; give num_warps/num_stages with --num-warps/--num-stages)")
    lines += [f"    {i}: {_config_text(c)}" for i, c in enumerate(unwrapped.configs) if c]
    click.echo("\n".join(lines))


@click.command("list")
@click.argument("kernel", required=False)
@json_option
@store_option
def list_cmd(kernel: str | None, as_json: bool, store_dir: str | None) -> None:
    """List kernels, their launch configs, targets, stages and stored captures.

    With KERNEL (a bundled name, a kernel-module path or FILE.py:FUNCTION), list that kernel's
    configs in full; for FILE:FUNCTION these are its @triton.autotune configs.

    Example:

        irscope list matmul
    """
    if kernel and parse_function_ref(kernel) is not None:
        _list_function(kernel, as_json)
        return
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
        how = f"from {m.program}" if m.origin == "program" else f"config {m.config_index}"
        out.append(f"  {m.kernel:<14} {m.target:<7} {how:<10}  Triton {m.triton_version}  "
                   f"{m.compile_seconds:.2f} s  {m.created}  {m.key}")
    click.echo("\n".join(out))
