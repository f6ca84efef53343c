"""A Triton dtype given as a constexpr value on the command line: ``--constexpr compute_type=tl.bfloat16``.

Kernels take dtypes as constexprs (a MoE kernel's ``compute_type``, an accumulator's ``ACC_TYPE``); the JIT
receives the ``triton.language.dtype`` object and specializes on it. The command line names one as Triton
spells it (``tl.bfloat16``, ``triton.language.float8e4nv``, ``gl.float16``), by its short name (``bf16``,
``fp8e4nv``) or by torch's (``float8_e4m3fn``); the value is kept as ``{"dtype": NAME}``, NAME Triton's own
(``tl.bfloat16.name``, what ``program_hook.encode_constant`` records), and built where the kernel compiles.
Nothing here imports Triton.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["DTYPE_NAMES", "dtype_constexpr", "dtype_value", "is_dtype_value"]

# Every spelling accepted -> Triton's dtype name (``tl.dtype(NAME)``).
DTYPE_NAMES: dict[str, str] = {
    "float16": "fp16", "fp16": "fp16", "half": "fp16",
    "bfloat16": "bf16", "bf16": "bf16",
    "float32": "fp32", "fp32": "fp32",
    "float64": "fp64", "fp64": "fp64",
    "int1": "int1", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
    "float8e4nv": "fp8e4nv", "fp8e4nv": "fp8e4nv", "float8_e4m3fn": "fp8e4nv",
    "float8e5": "fp8e5", "fp8e5": "fp8e5", "float8_e5m2": "fp8e5",
    "float8e4b8": "fp8e4b8", "fp8e4b8": "fp8e4b8", "float8_e4m3fnuz": "fp8e4b8",
    "float8e5b16": "fp8e5b16", "fp8e5b16": "fp8e5b16", "float8_e5m2fnuz": "fp8e5b16",
    "float8e4b15": "fp8e4b15", "fp8e4b15": "fp8e4b15",
}
# ``tl.``, ``triton.language.`` or Gluon's ``gl.`` (the same dtype objects).
_PREFIX = re.compile(r"^(?:tl|gl|triton\.language|triton\.experimental\.gluon\.language)\.(?P<name>\w+)$")


def dtype_constexpr(text: str, bare: bool = True) -> dict[str, str] | None:
    """``{"dtype": "bf16"}`` for ``tl.bfloat16`` (and, when ``bare``, ``bfloat16``); None when ``text`` names none.

    A prefixed name that is no dtype (``tl.bfloat61``) is None too: the caller's refusal lists :data:`DTYPE_NAMES`.
    """
    text = text.strip()
    prefixed = _PREFIX.match(text)
    name = prefixed.group("name") if prefixed else text if bare else None
    found = DTYPE_NAMES.get(name) if name is not None else None
    return {"dtype": found} if found is not None else None


def is_dtype_value(value: Any) -> bool:
    """Whether ``value`` is what :func:`dtype_constexpr` returns."""
    return isinstance(value, dict) and set(value) == {"dtype"} and value["dtype"] in DTYPE_NAMES.values()


def dtype_value(text: str) -> bool:
    """Whether ``text`` is written as a Triton dtype attribute (``tl.NAME``), so it must name a dtype."""
    return bool(_PREFIX.match(text.strip()))
