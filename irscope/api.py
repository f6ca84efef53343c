"""The Python API: ``irscope.capture(kernel, *args, target="sm90", **constexprs)``."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from irscope.errors import UsageError
from irscope.model.definition import source_digest
from irscope.model.kernelspec import ArgSpec, FunctionKernel, FunctionRef
from irscope.model.targets import resolve_target
from irscope.request.captures import LaunchSpec, Request, get_capture, make_request
from irscope.store.store import Capture

_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "waves_per_eu", "matrix_instr_nonkdim", "kpack")


def _arg_spec(name: str | None, value: Any) -> ArgSpec:
    """An example argument from a real value (a torch tensor or anything with data_ptr/dtype/shape)."""
    if hasattr(value, "data_ptr") and hasattr(value, "dtype"):
        dtype = str(value.dtype).rsplit(".", 1)[-1]
        return ArgSpec(name=name, kind="tensor", dtype=dtype, shape=tuple(int(d) for d in getattr(value, "shape", ())),
                       aligned=int(value.data_ptr()) % 16 == 0)
    if isinstance(value, bool):
        return ArgSpec(name=name, kind="bool", value=value)
    if isinstance(value, int):
        return ArgSpec(name=name, kind="int", value=value)
    if isinstance(value, float):
        return ArgSpec(name=name, kind="float", value=value)
    if value is None:
        return ArgSpec(name=name, kind="none")
    if isinstance(value, str):
        return ArgSpec(name=name, kind="str", value=value)
    raise UsageError(f"cannot use {type(value).__name__} {value!r} as a kernel argument for a capture")


def _object_kernel(obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> FunctionKernel:
    """A FunctionKernel for a kernel object the caller holds (JITFunction, Autotuner, Heuristics)."""
    inner = obj
    while not hasattr(inner, "params") and hasattr(inner, "fn"):
        inner = inner.fn
    py = getattr(inner, "fn", None)
    if not hasattr(inner, "params") or py is None:
        raise UsageError(f"{obj!r} is not a Triton kernel (@triton.jit, optionally autotuned)")
    source = inspect.getsourcefile(py)
    if source is None:
        raise UsageError(f"cannot find the source file of {py.__qualname__}")
    path = Path(source).resolve()
    ref = FunctionRef(spec=f"{path}:{py.__qualname__}", path=path, module=None, qualname=py.__qualname__)
    positional = tuple(_arg_spec(None, a) for a in args)
    # As the JIT binds them: tensors and plain arguments by name, tl.constexpr parameters, launch options.
    constexpr_names = {p.name for p in inner.params if p.is_constexpr}
    options = {k: v for k, v in kwargs.items() if k in _OPTIONS}
    constexprs = {k: v for k, v in kwargs.items() if k not in options and not hasattr(v, "data_ptr")
                  and (k in constexpr_names or k not in inner.arg_names)}
    named = tuple(_arg_spec(k, v) for k, v in kwargs.items() if k not in options and k not in constexprs)
    return FunctionKernel(ref=ref, args=positional + named, constexprs=constexprs, options=options,
                          source_sha=source_digest(path), obj=obj)


def capture(kernel: Any, *args: Any, target: str = "sm90", config: int = 0, store: str | None = None,
            **kwargs: Any) -> Capture:
    """Capture a kernel offline, as the JIT would compile it for these arguments on ``target``.

    ``kernel`` is a kernel object (``@triton.jit``, optionally ``@triton.autotune``d), a bundled
    kernel name (then no arguments), a kernel-module path, or ``"file.py:function"``. ``args`` and
    ``kwargs`` are example arguments: torch tensors (or anything with ``data_ptr``/``dtype``/
    ``shape``; CPU tensors are fine), ints, floats; keyword constexprs; and launch options
    (num_warps, num_stages, ...). ``config`` picks an autotune config.
    """
    if isinstance(kernel, str):
        if args:
            raise UsageError("for a kernel given by name, pass the launch as --args-style text: "
                             "irscope.capture('file.py:fn', args='x=fp16[64], n=64')")
        launch = LaunchSpec(signature=kwargs.pop("signature", None), args=kwargs.pop("args", None),
                            constexprs=tuple(f"{k}={v!r}" for k, v in kwargs.items() if k not in _OPTIONS),
                            options={k: v for k, v in kwargs.items() if k in _OPTIONS})
        return get_capture(make_request(kernel, target, config, launch=launch, store_dir=store), store)
    request = Request(kernel=_object_kernel(kernel, args, kwargs), target=resolve_target(target),
                      config_index=config, sizes={})
    return get_capture(request, store)


def read_stage(capture: Capture, stage: str) -> str:
    """The text of one stage of a capture (``ttgir``, ``ptx``, ``sass``, ...): SASS is made from the cubin on first
    read and kept in the capture, as ``irscope show`` does."""
    from irscope.toolchain.stages import read_stage as _read_stage

    return _read_stage(capture, stage)
