"""Standalone reproducers: one Python file that compiles a captured kernel exactly as it was captured.

The file holds the kernel's source (for a recorded or FILE:FUNCTION kernel only the definitions it
needs, see irscope.compile.replay; for a kernel module the whole module) and its recorded
specialization: signature, constexprs, attributes and options. It needs Triton alone to compile
(``python repro.py --target sm90 --stage ttgir``) and torch to launch on a GPU (``--run``). This is
what a Triton bug report needs; irscope itself is not needed to run it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from irscope.errors import UsageError
from irscope.model.targets import TARGETS
from irscope.store.store import Capture


def _specialization(capture: Capture) -> dict[str, Any]:
    """The exact ``triton.compile`` inputs: recorded, or rebuilt from the kernel module for older captures."""
    m = capture.manifest
    if m.replay and "signature" in m.replay:
        return dict(m.replay)
    if m.origin not in ("bundled", "module"):
        raise UsageError(f"{m.key} was stored without its specialization (made by an older irscope); capture it "
                         "again to write a reproducer")
    from irscope.compile.capture import job_for
    from irscope.compile.replay import job_replay
    from irscope.request.captures import request_for
    from irscope.request.kinds import kind_of

    request = request_for(capture)
    if kind_of(request.kernel).stored is not None:
        raise UsageError(f"{m.key} cannot be compiled again from the store alone; capture it again")
    again = request.job()
    job, _ = job_for(again.kernel, again.target, again.config_index, again.sizes)
    return job_replay(job)


def _source(capture: Capture) -> tuple[str, str]:
    """The source the script carries and the name of the file it is written to when the script runs."""
    from irscope.compile.replay import extract_kernel

    m = capture.manifest
    text = capture.read("source")
    name = Path(m.kernel_path).name or "kernel.py"
    if m.origin in ("bundled", "module"):
        return text, name  # a kernel module: its own tensors, arguments and grid come with it
    function = m.function.rsplit(".", 1)[-1] or m.kernel
    return extract_kernel(text, function, name, str(m.replay.get("module", ""))).text, name


_ARGS_EXAMPLE = ' --args "x=fp16[4096], n=4096" --grid 32'


def render_repro(capture: Capture) -> str:
    """The reproducer script for ``capture``."""
    from irscope import __version__

    m = capture.manifest
    spec = _specialization(capture)
    source, filename = _source(capture)
    launch: dict[str, Any] = {}
    if m.origin in ("bundled", "module"):
        launch = {"sizes": m.sizes, "dtype": m.dtype, "config": m.config}
    elif m.arguments.startswith("args: "):
        launch = {"args": m.arguments[len("args: "):].split("; ")[0]}
    targets = {name: [t.backend, t.arch, t.warp_size] for name, t in TARGETS.items()}
    values = {
        "KERNEL": m.function.rsplit(".", 1)[-1] or m.kernel,
        "FILENAME": filename,
        "SOURCE": source,
        "SIGNATURE": spec["signature"],
        "CONSTANTS": spec.get("constants", []),
        "ATTRS": spec.get("attrs", []),
        "OPTIONS": {k: v for k, v in spec.get("options", {}).items() if k != "extern_libs"},
        "RECORDED": {"key": m.key, "target": m.target, "triton": m.triton_version, "origin": m.origin,
                     "program": m.program, "created": m.created},
        "LAUNCH": launch,
        "TARGETS": targets,
    }
    header = (f'"""Reproducer for the Triton kernel {values["KERNEL"]}, written by irscope {__version__}.\n\n'
              f'Captured as {m.key}: compiled for {m.target} by Triton {m.triton_version}.\n'
              "Compile it again (Triton alone, no GPU needed) and print a stage:\n\n"
              f"    python {{script}} --target {m.target} --stage ttgir\n\n"
              "Launch it on a GPU with random inputs (needs torch):\n\n"
              f"    python {{script}} --run{'' if launch else _ARGS_EXAMPLE}\n"
              '"""\n').replace("{script}", "repro.py")
    data = "\n".join(f"{name} = {_literal(value)}" for name, value in values.items())
    return header + _TEMPLATE.replace("# @DATA@", data)


def _literal(value: Any) -> str:
    """Python source for plain data; text of several lines as a raw triple-quoted string when it can be."""
    if isinstance(value, str) and "\n" in value and "\'\'\'" not in value and not value.endswith(("\\", "\'")):
        return "r\'\'\'" + value + "\'\'\'"
    return repr(value)


_TEMPLATE = r'''
from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys
import tempfile

# @DATA@


def load_kernel():
    """Write the kernel's source to a file of its original name and import it (Triton reads source files)."""
    folder = tempfile.mkdtemp(prefix="repro-")
    path = os.path.join(folder, FILENAME)
    with open(path, "w", encoding="utf-8") as f:
        f.write(SOURCE)
    spec = importlib.util.spec_from_file_location(os.path.splitext(FILENAME)[0] + "_repro", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def unwrap(obj):
    while not hasattr(obj, "params") and hasattr(obj, "fn"):
        obj = obj.fn
    return obj


def decode(value):
    (kind, payload), = value.items()
    import triton.language as tl

    if kind in ("bool", "int", "float", "str"):
        return payload
    if kind == "none":
        return None
    if kind == "constexpr":
        return tl.constexpr(decode(payload))
    if kind == "dtype":
        return tl.dtype(payload)
    if kind == "tuple":
        return tuple(decode(v) for v in payload)
    if kind == "layout":
        return gluon_layout(payload)
    raise SystemExit(f"cannot rebuild the constexpr {payload}")


def gluon_layout(data):
    """A Gluon kernel's layout constexpr, from its class and constructor fields."""
    import importlib

    if not data["module"].startswith("triton.experimental.gluon."):
        raise SystemExit(f"{data['module']}.{data['class']} is not a Gluon layout")

    def field(value):
        if isinstance(value, dict) and "layout" in value:
            return gluon_layout(value["layout"])
        if isinstance(value, dict) and "tuple" in value:
            return tuple(field(v) for v in value["tuple"])
        return [field(v) for v in value] if isinstance(value, list) else value

    cls = getattr(importlib.import_module(data["module"]), data["class"])
    return cls(**{name: field(value) for name, value in data["fields"].items()})


def compile_kernel(target_name):
    import dataclasses

    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource, make_backend

    if target_name not in TARGETS:
        raise SystemExit(f"unknown target {target_name!r}; valid: {', '.join(TARGETS)}")
    fn = unwrap(getattr(load_kernel(), KERNEL))
    target = GPUTarget(*TARGETS[target_name])
    fields = {f.name for f in dataclasses.fields(make_backend(target).parse_options({}))}
    options = {k: tuple(v) if isinstance(v, list) else v for k, v in OPTIONS.items() if k in fields}
    if getattr(fn, "is_gluon", lambda: False)():  # a @gluon.jit kernel: its IR starts as Gluon IR
        from triton.experimental.gluon._runtime import GluonASTSource as ASTSource
    source = ASTSource(fn, dict(SIGNATURE), {tuple(p): decode(v) for p, v in CONSTANTS},
                       {tuple(p): v for p, v in ATTRS})
    return triton.compile(source, target=target, options=options)


_ARG = re.compile(r"^\s*(?:(\w+)\s*=\s*)?(?:(\w+)\[([\d,\s]*)\](@unaligned)?|(-?[\d.eE+-]+|True|False|None))\s*$")
_DTYPES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64", "fp8e4nv": "float8_e4m3fn",
           "fp8e5": "float8_e5m2", "fp8e4b8": "float8_e4m3fnuz", "fp8e5b16": "float8_e5m2fnuz", "i8": "int8",
           "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "i1": "bool"}


def parse_args(text, params, torch):
    """``x=fp16[4096], n=4096`` -> values by parameter name (random tensors on the GPU)."""
    out, position = {}, 0
    for part in [p for p in re.split(r",\s*(?![^\[]*\])", text) if p.strip()]:
        match = _ARG.match(part)
        if match is None:
            raise SystemExit(f"cannot read the argument {part!r}; write name=fp16[4096,4096] or name=4096")
        name = match.group(1) or params[position]
        position += 1
        if match.group(2):
            dtype = getattr(torch, _DTYPES.get(match.group(2), match.group(2)))
            shape = [int(d) for d in match.group(3).split(",") if d.strip()]
            value = torch.randn(shape, device="cuda").to(dtype) if dtype.is_floating_point else \
                torch.randint(0, 8, shape, device="cuda").to(dtype)
            out[name] = value
        else:
            out[name] = eval(match.group(5), {})  # a number, True, False or None
    return out


def run(args_text, grid_text):
    import torch

    if not torch.cuda.is_available():
        raise SystemExit("--run needs a GPU that torch sees; without one, compile and print a stage instead "
                         "(--target T --stage ttgir)")
    module = load_kernel()
    kernel = getattr(module, KERNEL)
    fn = unwrap(kernel)
    params = [p.name for p in fn.params]
    constexprs = {params[p[0]]: decode(v) for p, v in CONSTANTS if len(p) == 1 and p[0] < len(params)}
    constexprs = {k: getattr(v, "value", v) for k, v in constexprs.items()}
    launch = {k: OPTIONS[k] for k in ("num_warps", "num_stages", "num_ctas") if k in OPTIONS}
    if LAUNCH.get("sizes") is not None:  # a kernel module: its own tensors, arguments and grid
        dtype = getattr(torch, LAUNCH["dtype"])

        def new(shape, dt, role):
            dt = getattr(torch, dt) if isinstance(dt, str) else dt
            return torch.randn(shape, dtype=torch.float32, device="cuda").to(dt)

        sizes, config = LAUNCH["sizes"], dict(LAUNCH["config"])
        tensors = module.make_tensors(sizes, dtype, new)
        call_args, kwargs = module.kernel_args(tensors, sizes, config)
        sm = torch.cuda.get_device_properties(0).multi_processor_count
        grid = module.grid(sizes, config, sm)
        kernel[grid](*call_args, **kwargs)
    else:
        text = args_text or LAUNCH.get("args")
        if not text or not grid_text:
            raise SystemExit("give the launch: --args \"x=fp16[4096], n=4096\" (every non-constexpr argument, in "
                             "order or by name) and --grid 32 or --grid 32,4")
        values = parse_args(text, [p for p in params if p not in constexprs], torch)
        grid = tuple(int(g) for g in grid_text.split(","))
        fn[grid](*[values[p] for p in params if p not in constexprs], **constexprs, **launch)
    torch.cuda.synchronize()
    print(f"launched {KERNEL} on {torch.cuda.get_device_name()} with grid {grid}: ok")


def main():
    import warnings

    warnings.filterwarnings("ignore", message=".*TRITON_DEFAULT_FP_FUSION.*")  # the options below say it
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default=RECORDED["target"], help=f"one of {', '.join(TARGETS)}")
    parser.add_argument("--stage", default="ttgir", help="ttir, ttgir, llir, ptx, amdgcn (or sass with a GPU tool)")
    parser.add_argument("--run", action="store_true", help="launch on this machine's GPU with random inputs")
    parser.add_argument("--args", default=None, help='the launch arguments, e.g. "x=fp16[4096], n=4096"')
    parser.add_argument("--grid", default=None, help="the launch grid, e.g. 32 or 32,4")
    ns = parser.parse_args()
    if ns.run:
        run(ns.args, ns.grid)
        return
    compiled = compile_kernel(ns.target)
    if ns.stage not in compiled.asm:
        raise SystemExit(f"no stage {ns.stage!r}; this target has: {', '.join(compiled.asm)}")
    text = compiled.asm[ns.stage]
    sys.stdout.write(text if isinstance(text, str) else text.hex())


if __name__ == "__main__":
    main()
'''


def write_repro(capture: Capture, path: Path) -> None:
    """Write the reproducer for ``capture`` to ``path`` (whole, or not at all)."""
    import os

    text = render_repro(capture)
    compile(text, str(path), "exec")  # a script that would not even parse is never written
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
