"""The launch the performance model needs: integer arguments by name, tensor sizes and roles, and the grid.

A bundled kernel's module says all three (``kernel_args``, ``make_tensors``, ``grid``); this imports it
(and so Triton) and evaluates them on stand-in tensors. A ``FILE:FUNCTION`` kernel's ``--args`` say the
integers and the tensors; its grid must be given.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from math import prod
from pathlib import Path
from typing import Any

from irscope.errors import UsageError
from irscope.model.kernels import KernelInfo
from irscope.model.kernelspec import ArgSpec, FunctionKernel
from irscope.model.launch import (
    DATA_ELEMENTS,
    DATA_ELEMENTS_PER_LAUNCH,
    INTEGER_DTYPES,
    LaunchShape,
    TensorBytes,
    TensorData,
    data_to_json,
)

__all__ = ["DTYPE_BYTES", "arguments_launch", "bundled_launch", "function_launch", "launch_note", "launch_shape",
           "param_names", "parse_grid", "tensor_contents"]

DTYPE_BYTES = {
    "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int8": 1, "uint8": 1, "int16": 2, "int32": 4,
    "int64": 8, "bool": 1, "float8_e4m3fn": 1, "float8_e5m2": 1, "float8_e4m3fnuz": 1, "float8_e5m2fnuz": 1,
    "fp16": 2, "bf16": 2, "fp32": 4, "fp64": 8, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "fp8e4nv": 1, "fp8e5": 1,
}


def parse_grid(text: str) -> tuple[int, int, int]:
    """``"512"`` or ``"32,16"`` -> (512, 1, 1) / (32, 16, 1); a usage error otherwise."""
    try:
        parts = [int(p) for p in text.replace("x", ",").split(",") if p.strip()]
    except ValueError:
        parts = []
    if not 1 <= len(parts) <= 3 or any(p < 1 for p in parts):
        raise UsageError(f"--grid {text!r}: give 1 to 3 positive integers, e.g. --grid 512 or --grid 32,16")
    x, y, z = [*parts, 1, 1][:3]
    return x, y, z


def _grid3(grid: Any) -> tuple[int, int, int]:
    values = [int(g) for g in (grid if isinstance(grid, (tuple, list)) else (grid,))]
    return tuple(([*values, 1, 1])[:3])  # type: ignore[return-value]


def _descriptor_bytes(desc: Any) -> int:
    """The bytes a host TensorDescriptor (TMA) addresses: its shape in its base tensor's elements."""
    dtype = str(getattr(desc.base, "dtype", "")).rsplit(".", 1)[-1]
    size = getattr(desc.base, "element_size", None)
    element = int(size()) if callable(size) else DTYPE_BYTES.get(dtype, 4)
    return element * prod(int(d) for d in desc.shape)


def launch_shape(arg_names: list[str], args: list[Any], kwargs: dict[str, Any], grid: Any,
                 roles: dict[str, str], origin: str, record_data: bool = False) -> LaunchShape:
    """Bind positional and keyword arguments to parameter names; ints become values, tensors sizes, and with
    ``record_data`` small integer tensors their contents (``tensor_contents``)."""
    bound = dict(zip(arg_names, args, strict=False))
    bound.update({k: v for k, v in kwargs.items() if k in arg_names})
    values: dict[str, int] = {}
    tensors: list[TensorBytes] = []
    data: list[TensorData] = []
    skipped: list[str] = []
    for name, value in bound.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            values[name] = value
        elif hasattr(value, "base") and hasattr(value, "block_shape") and hasattr(value, "shape"):
            tensors.append(TensorBytes(name, _descriptor_bytes(value), roles.get(name, "inout")))
        elif hasattr(value, "shape") and hasattr(value, "dtype"):
            dtype = str(value.dtype).rsplit(".", 1)[-1]
            size = getattr(value, "element_size", None)
            element = int(size()) if callable(size) else DTYPE_BYTES.get(dtype, 4)
            tensors.append(TensorBytes(name, element * prod(int(d) for d in value.shape), roles.get(name, "inout")))
            if record_data and dtype in INTEGER_DTYPES:
                room = DATA_ELEMENTS_PER_LAUNCH - sum(len(d.values) for d in data)
                found = tensor_contents(name, value, dtype, room)
                if isinstance(found, TensorData):
                    data.append(found)
                else:
                    skipped.append(f"{name}: {found}")
    return LaunchShape(_grid3(grid), values, tuple(tensors), origin, tuple(data), tuple(skipped))


def launch_note(shape: LaunchShape) -> dict[str, Any]:
    """A recorded launch as the JSON a capture's ``launches.json`` holds (``request/launch_cache`` reads it)."""
    note: dict[str, Any] = {"grid": list(shape.grid), "values": shape.values,
                            "tensors": [[t.name, t.nbytes, t.role] for t in shape.tensors]}
    if shape.data:
        note["data"] = data_to_json(shape.data)
    if shape.not_recorded:
        note["not_recorded"] = list(shape.not_recorded)
    return note


def tensor_contents(name: str, tensor: Any, dtype: str, room: int = DATA_ELEMENTS) -> TensorData | str:
    """The contents of an integer tensor argument in the order the kernel's pointer reads them, or why not."""
    shape = tuple(int(d) for d in tensor.shape)
    count = prod(shape)
    limit = min(DATA_ELEMENTS, room)
    if count > limit:
        return f"{count} elements, over the {limit} a launch records"
    contiguous = getattr(tensor, "is_contiguous", None)
    if callable(contiguous) and not contiguous():
        return "not contiguous (its elements are not read in the order of its shape)"
    try:
        flat = tensor.detach().reshape(-1).cpu().tolist()
    except Exception as exc:  # a fake or meta tensor has no data; a library's own tensor type may refuse
        return f"no data on the launching side ({type(exc).__name__})"
    if not isinstance(flat, list) or not all(isinstance(v, (int, bool)) for v in flat):
        return "no integer data"
    return TensorData(name, dtype, shape, tuple(int(v) for v in flat))


def bundled_launch(kernel: KernelInfo, backend: str, config_index: int, sizes: dict[str, int],
                   sm_count: int, compiled_sms: int | None = None) -> LaunchShape:
    """The launch a bundled kernel module describes for these sizes on a GPU with ``sm_count`` SMs.

    A module whose ``kernel_args`` takes the SM count bakes it into the compiled code (a persistent kernel's
    ``NUM_SMS``): its launch uses ``compiled_sms``, the count it was compiled with (``compiled_sm_count``), so
    the grid and the code agree, and says so when the modelled GPU has another.
    """
    from irscope.compile.kernel_module import load_kernel
    from irscope.compile.specialize import jit_function, mock_tensor_class, stand_in_dtype, takes_sm_count

    module = load_kernel(kernel)
    fn = jit_function(module, kernel.function)
    config = dict(kernel.config(backend, config_index))
    cls = mock_tensor_class()
    roles: dict[str, str] = {}

    def new(shape: tuple[int, ...], dtype: Any, role: str) -> Any:
        tensor = cls(stand_in_dtype(str(dtype).rsplit(".", 1)[-1]), list(shape))
        roles[str(id(tensor))] = role
        return tensor

    tensors = dict(module.make_tensors(sizes, kernel.dtype, new))
    origin = f"{kernel.name}'s grid() for {sm_count} SMs"
    if takes_sm_count(module.kernel_args):
        baked = compiled_sms or sm_count
        if baked != sm_count:
            origin = (f"{kernel.name}'s grid() for {baked} SMs, the count compiled into it (kernel_args' sm_count), "
                      f"not the modelled GPU's {sm_count}")
        sm_count = baked
        args, kwargs = module.kernel_args(tensors, sizes, dict(config), sm_count)
    else:
        args, kwargs = module.kernel_args(tensors, sizes, dict(config))
    try:
        grid = module.grid(sizes, config, sm_count)
    except TypeError:
        grid = module.grid(sizes, config)
    names = list(fn.arg_names)
    by_param = {name: roles.get(str(id(value)), "inout") for name, value in zip(names, args, strict=False)}
    by_param.update({k: roles.get(str(id(v)), "inout") for k, v in kwargs.items()})
    return launch_shape(names, list(args), dict(kwargs), grid, by_param, origin)


def param_names(path: Path, function: str) -> list[str]:
    """The parameter names of ``function`` (qualified or not) defined in ``path``, read from its source with ast."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    leaf = function.rsplit(".", 1)[-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == leaf:
            return [a.arg for a in node.args.args]
    raise UsageError(f"{path} defines no function {leaf!r}")


class _Spec:
    """A tensor argument described by --args (dtype and shape only)."""

    def __init__(self, dtype: str, shape: tuple[int, ...]) -> None:
        self.dtype = dtype
        self.shape = shape


def function_launch(kernel: FunctionKernel, grid: tuple[int, int, int]) -> LaunchShape:
    """The launch of a FILE:FUNCTION kernel from its example arguments and an explicit grid."""
    return arguments_launch(param_names(kernel.path, kernel.function), kernel.args, grid, "--grid")


def arguments_launch(names: list[str], specs: Sequence[ArgSpec], grid: tuple[int, int, int],
                     origin: str) -> LaunchShape:
    """The launch that example arguments (``--args``) describe, bound to the parameters ``names``."""
    positional: list[Any] = []
    named: dict[str, Any] = {}
    for spec in specs:
        value: Any = _Spec(spec.dtype, spec.shape) if spec.kind == "tensor" else spec.value
        if spec.name is None:
            positional.append(value)
        else:
            named[spec.name] = value
    return launch_shape(names, positional, named, grid, {}, origin)
