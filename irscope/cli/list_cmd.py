"""``irscope list``: kernels, their configs, targets, stages and what the store holds."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING

import click

from irscope.cli.options import json_option, kernel_options, store_option
from irscope.errors import UsageError
from irscope.model.kernels import KernelInfo, bundled_kernels, get_kernel
from irscope.model.kernelspec import parse_function_ref
from irscope.model.paths import store_root
from irscope.model.stages import stages_for
from irscope.model.targets import TARGETS
from irscope.store.store import Capture, Manifest, Store

if TYPE_CHECKING:
    from irscope.request.captures import LaunchSpec


def _config_text(config: Mapping[str, object]) -> str:
    return " ".join(f"{k}={v}" for k, v in config.items())


def _kernel_detail(info: KernelInfo) -> list[str]:
    lines = [f"{info.name}  ({info.path})", f"  {info.description}",
             f"  jit function {info.function}, dtype {info.dtype}, sizes {_config_text(info.sizes)}"]
    for backend, configs in info.configs.items():
        lines.append(f"  configs for {backend} targets:")
        lines += [f"    {i}: {_config_text(c)}" for i, c in enumerate(configs)]
    return lines


def _list_function(spec: str, as_json: bool, launch: LaunchSpec) -> None:
    """The configs of a FILE:FUNCTION kernel (its autotune configs, or one default config).

    A launch (``--args``/``--signature``/...) copied from the ``show`` that comes next is read and checked, so
    that the command line which will choose ``--config`` lists the configs first.
    """
    from irscope.model.kernelspec import FunctionKernel, function_kernel
    from irscope.request.functions import function_info

    ref = parse_function_ref(spec)
    assert ref is not None
    kernel = FunctionKernel(ref=ref)
    if launch.given():
        kernel = function_kernel(spec, launch.signature, launch.args, launch.constexprs, launch.options) or kernel
    info = function_info(kernel, spec)
    if as_json:
        click.echo(json.dumps({"kernel": spec, "path": str(ref.path), "line": ref.line or None,
                               "function": ref.defined_as, "arguments": list(info.arguments),
                               "configs": info.configs, "heuristics": list(info.heuristics)},
                              indent=2, default=str))
        return
    where = f"{ref.path}:{ref.line}" if ref.line else str(ref.path)
    if ref.module_file is not None:
        where += f", re-exported by {ref.module_file.name}"
    named = ref.qualname if ref.defined_as == ref.qualname else f"{ref.qualname} = {ref.defined_as}"
    lines = [f"{named}  ({where})", f"  arguments: {', '.join(info.arguments)}"]
    if info.heuristics:
        lines.append(f"  heuristics: {', '.join(info.heuristics)}")
    lines.append("  configs (@triton.autotune):" if len(info.configs) > 1 or info.configs[0] else
                 "  configs: one (not autotuned; give num_warps/num_stages with --num-warps/--num-stages)")
    lines += [f"    {i}: {_config_text(c)}" for i, c in enumerate(info.configs) if c]
    click.echo("\n".join(lines))


def _how(m: Manifest) -> str:
    """How a capture was made and what tells it apart from the kernel's other captures."""
    values = m.config_text()
    how = f"config {m.config_index}" + (f" ({values})" if values else "")
    return f"{how}, from {m.program}" if m.origin == "program" else how


def _same_code(m: Manifest, captures: list[Capture]) -> str:
    """``same code as config 3: ...`` for a capture that holds another config's later stages."""
    from irscope.request.programs import same_code_note

    known = any(c.manifest.key == m.same_code_as for c in captures)
    return same_code_note(m, captures) + ("" if known else f" ({m.same_code_as})")


def _list_stored(name: str, captures: list[Capture], as_json: bool) -> None:
    """The captures of a recorded kernel (or the one capture a key names): configs, targets, keys."""
    from irscope.request.recorded_args import recorded_args_text

    used = _used_by_name(name, captures)
    if as_json:
        click.echo(json.dumps({"kernel": name, "captures": [
            {"key": c.manifest.key, "kernel": c.manifest.kernel, "target": c.manifest.target,
             "config": c.manifest.config_index, "config_values": c.manifest.config,
             "constexprs": c.manifest.constexprs, "options": c.manifest.options, "origin": c.manifest.origin,
             "program": c.manifest.program, "triton_version": c.manifest.triton_version, "path": str(c.path),
             "arguments": c.manifest.arguments, "used_by_name": c.manifest.key in used}
            for c in captures]}, indent=2, default=str))
        return
    first = captures[0].manifest
    origins = Counter(c.manifest.origin for c in captures)
    kinds = (first.origin if len(origins) == 1 else
             ", ".join(f"{n} from {_ORIGINS.get(o, o)}" for o, n in sorted(origins.items())))
    lines = [f"{name}  ({len(captures)} capture{'s' if len(captures) != 1 else ''}, {kinds})"]
    programs = {c.manifest.program for c in captures}
    if first.program and len(programs) == 1:
        lines.append(f"  recorded from: {first.program}")
    slots = Counter((c.manifest.target, c.manifest.config_index) for c in captures)
    for c in sorted(captures, key=lambda c: (c.manifest.target, c.manifest.config_index, c.manifest.created)):
        m = c.manifest
        values = m.config_text()
        opts = ", ".join(f"{k}={m.options[k]}" for k in ("num_warps", "num_stages") if k in m.options
                         and f"{k}=" not in values)
        detail = ", ".join(p for p in (values, opts) if p)
        lines.append(f"  {m.target:<7} config {m.config_index:<3} {detail}")
        lines.append(f"          {m.key}")
        shared = slots[(m.target, m.config_index)] > 1  # then say what tells it from the others of its slot
        told = [f"made {m.created}" if shared else "", _made_from(m, len(origins) > 1) if len(programs) > 1 else "",
                _specialized(m) if shared else ""]
        if any(told):
            lines.append(f"          {'; '.join(t for t in told if t)}")
        if recorded_args_text(m):
            lines.append(f"          launch: --args {recorded_args_text(m)} (commands by name reuse it; perf needs "
                         "--grid)")
        if shared and m.key in used:
            lines.append(f"          used by commands that name {name} (the newest of its target and config)")
        if m.same_code_as:
            lines.append(f"          {_same_code(m, captures)}")
    if any(n > 1 for n in slots.values()):
        newest = max(captures, key=lambda c: c.manifest.created).manifest
        lines.append(f"  select one with: irscope show {newest.key} (its key; captures of one target and config "
                     "differ by key)")
    else:
        last = max(captures, key=lambda c: (c.manifest.target, c.manifest.config_index)).manifest
        lines.append(f"  select one with: irscope show {name} --target {last.target} --config {last.config_index}")
    click.echo("\n".join(lines))


def _used_by_name(name: str, captures: list[Capture]) -> set[str]:
    """The keys a command by ``name`` (with --target and --config) resolves to: each slot's newest capture."""
    if any(c.manifest.key == name for c in captures):
        return {name}
    plain = [c for c in captures if not c.manifest.settings] or captures  # --set variants only when all are
    newest: dict[tuple[str, int], str] = {}
    for c in sorted(plain, key=lambda c: (c.manifest.created, c.manifest.config_index, c.manifest.key)):
        newest[(c.manifest.target, c.manifest.config_index)] = c.manifest.key
    return set(newest.values())


# What each origin of a capture is, in a listing that holds several.
_ORIGINS = {"bundled": "a bundled kernel", "module": "a kernel module", "function": "FILE:FUNCTION",
            "program": "a program run"}


def _made_from(m: Manifest, kind: bool) -> str:
    """``from python train.py``, ``from ops.py:add_kernel (FILE:FUNCTION)`` (``kind``: with the kind it is)."""
    source = m.program if m.origin == "program" and m.program else f"{m.kernel_path}:{m.function}"
    return f"from {source}" + (f" ({_ORIGINS.get(m.origin, m.origin)})" if kind else "")


def _specialized(m: Manifest) -> str:
    """``divisible by 16: x_ptr, n``: the arguments the JIT's specialization marked divisible (``tt.divisibility``)."""
    by_attr: dict[str, list[str]] = {}
    for arg, attrs in m.attrs.items():
        for attr in attrs if isinstance(attrs, list) else []:
            if isinstance(attr, list) and len(attr) == 2 and attr[0] == "tt.divisibility":
                by_attr.setdefault(f"divisible by {attr[1]}", []).append(str(arg))
    return "; ".join(f"{what}: {', '.join(args)}" for what, args in by_attr.items())


@click.command("list")
@click.argument("kernel", required=False)
@kernel_options
@json_option
@store_option
def list_cmd(kernel: str | None, launch: LaunchSpec, as_json: bool, store_dir: str | None) -> None:
    """List kernels, their launch configs, targets, stages and stored captures.

    With KERNEL (a bundled name, a kernel-module path or FILE.py:FUNCTION), list that kernel's
    configs in full; for FILE:FUNCTION these are its @triton.autotune configs (a launch given as
    to show, --args or --signature, is accepted and checked, so show's command line lists them). With the name or
    key of a stored capture (recorded by 'irscope capture'), list its captures: target, config
    index, the values that tell the configs apart, the launch a FILE:FUNCTION capture recorded (which
    commands by name reuse) and, where several share a target and config, the one a name uses.

    Example:

        irscope list matmul
    """
    if launch.settings:
        raise UsageError("--set applies to the commands that compile a kernel; list shows what the kernel declares")
    if kernel and parse_function_ref(kernel) is not None:
        _list_function(kernel, as_json, launch)
        return
    if launch.given():
        raise UsageError("--signature/--args/--constexpr/--num-warps/--num-stages apply to kernels given as "
                         "FILE.py:FUNCTION or package.module:FUNCTION")
    store = Store(store_root(store_dir))
    try:
        kernels = [get_kernel(kernel)] if kernel else list(bundled_kernels().values())
    except UsageError:
        stored = store.find(kernel) if kernel else []
        if not stored:
            raise
        _list_stored(kernel or "", stored, as_json)
        return
    captures = store.captures()
    unreadable = [] if kernel else store.unreadable()
    if as_json:
        click.echo(json.dumps({
            "kernels": [{"name": k.name, "path": str(k.path), "function": k.function, "description": k.description,
                         "dtype": k.dtype, "sizes": k.sizes, "configs": k.configs} for k in kernels],
            "targets": [{"name": t.name, "backend": t.backend, "arch": t.arch, "description": t.description,
                         "stages": [s.name for s in stages_for(t.backend)]} for t in TARGETS.values()],
            "captures": [{"key": c.manifest.key, "kernel": c.manifest.kernel, "target": c.manifest.target,
                          "config": c.manifest.config_index, "config_values": c.manifest.config,
                          "origin": c.manifest.origin, "triton_version": c.manifest.triton_version,
                          "path": str(c.path), "missing": c.missing_files()} for c in captures],
            "unreadable": [{"key": key, "why": why} for key, why in unreadable],
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
        stages = ", ".join(s.name for s in stages_for(t.backend) if s.name != "glir")  # glir: Gluon kernels only
        out.append(f"  {t.name:<7} {t.vendor:<6} {t.description:<28} stages: {stages} (Gluon kernels: glir too)")
    out.append("  native  the local GPU, when there is one (then the default target; without a GPU the default is "
               "sm90)")
    out.append("")
    shown = [c for c in captures if not kernel or c.manifest.kernel == kernels[0].name]
    out.append(f"Captures in {store.root}: {len(shown)}"
               + (f" (and {len(unreadable)} that cannot be read)" if unreadable else ""))
    hows = {c.manifest.key: _how(c.manifest) for c in shown}
    name_width = max((len(c.manifest.kernel) for c in shown), default=0)
    how_width = max((len(h) for h in hows.values()), default=0)
    for c in shown:  # every column starts where the same column of the other rows does, however long the names
        m = c.manifest
        missing = c.missing_files()
        damaged = f"  DAMAGED: {', '.join(missing)} missing (irscope show {m.key} says more)" if missing else ""
        out.append(f"  {m.kernel:<{name_width}} {m.target:<7} {hows[m.key]:<{how_width}}  Triton {m.triton_version:<7} "
                   f"{m.compile_seconds:>6.2f} s  {m.created}  {m.key}{damaged}")
    out += [f"  cannot read {key}: {why}" for key, why in unreadable]
    click.echo("\n".join(out))
