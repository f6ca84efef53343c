"""A kernel's signature read back from its TTIR: each argument's Triton type and its specialization attributes.

What a Triton cache or dump folder holds of a compile has no signature of its own (``<name>.json`` is the
compile's metadata), but the TTIR's public function keeps it: argument names (as ``loc("x_ptr")``), MLIR types
and the JIT's specialization (``tt.divisibility``). Constexpr arguments are folded into the body and are not
among them. Linear in the text; nothing here imports Triton.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from irscope.parse.mlir_attrs import AttrParseError, matching_close
from irscope.parse.mlir_locs import split_top

__all__ = ["KernelArg", "kernel_signature", "triton_type"]

# Example: tt.func public @add_kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("x_ptr"(#loc)), ...
_FUNC = re.compile(r"^\s*tt\.func\s+(?:public\s+)?@(?P<name>[\w$.-]+)\(", re.M)
# Example: %x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("x_ptr"(#loc))      /     %n: i32 loc(#loc4)
_ARG = re.compile(r"^%(?P<name>[\w$.-]+)\s*:\s*(?P<type>[^{]+?)\s*(?:\{(?P<attrs>[^{}]*)\})?\s*(?:loc\(.*)?$", re.S)
# Example: tt.divisibility = 16 : i32
_ATTR = re.compile(r"(?P<key>tt\.[\w.]+)\s*=\s*(?P<value>-?\d+)")
# MLIR element types -> Triton's spelling (``!tt.ptr<f16>`` -> ``*fp16``)
_ELEMENT = {"f16": "fp16", "bf16": "bf16", "f32": "fp32", "f64": "fp64", "i1": "i1", "i8": "i8", "i16": "i16",
            "i32": "i32", "i64": "i64", "f8E4M3FN": "fp8e4nv", "f8E5M2": "fp8e5", "f8E4M3FNUZ": "fp8e4b8",
            "f8E5M2FNUZ": "fp8e5b16", "ui8": "u8", "ui16": "u16", "ui32": "u32", "ui64": "u64"}
_PTR = re.compile(r"^!tt\.ptr<(?P<element>[\w]+)(?:,\s*\d+)?>$")


@dataclass(frozen=True)
class KernelArg:
    """One runtime argument of the kernel.

    Attributes:
        name: the parameter's name (``x_ptr``).
        type: Triton's spelling of its type (``*fp32``, ``i32``), or the MLIR type where Triton has none.
        attrs: its specialization attributes, as Triton's ``attrs`` lists them (``[["tt.divisibility", 16]]``).
    """

    name: str
    type: str
    attrs: tuple[tuple[str, int], ...] = ()


def triton_type(mlir: str) -> str:
    """Triton's spelling of an argument's MLIR type (``!tt.ptr<bf16>`` -> ``*bf16``); the MLIR text otherwise."""
    mlir = mlir.strip()
    if (m := _PTR.match(mlir)) is not None and m["element"] in _ELEMENT:
        return "*" + _ELEMENT[m["element"]]
    return _ELEMENT.get(mlir, mlir)


def kernel_signature(ttir: str, name: str = "") -> tuple[str, list[KernelArg]] | None:
    """The public kernel function's name and arguments (the one called ``name`` when given), or None when the
    text has no ``tt.func`` whose argument list can be read."""
    for m in _FUNC.finditer(ttir):
        if name and m["name"] != name:
            continue
        try:
            close = matching_close(ttir, m.end() - 1)
        except AttrParseError:
            return None
        args: list[KernelArg] = []
        for part in (p for p in split_top(ttir[m.end():close], ",") if p):
            arg = _ARG.match(part)
            if arg is None:
                return None
            attrs = tuple((a["key"], int(a["value"])) for a in _ATTR.finditer(arg["attrs"] or ""))
            args.append(KernelArg(arg["name"], triton_type(arg["type"]), attrs))
        return m["name"], args
    return None
