"""What if: ``--set NAME=VALUE`` changes a launch option or a constexpr on top of the chosen config.

A variant is a capture of its own (its key includes the settings), so it is compiled once, stays in
the store and compares like any capture. Names and values are checked before anything compiles:
an unknown name lists the settable ones with their current values, and a value Triton would
refuse (a ``num_warps`` that is not a power of two, a block size over Triton's tensor limit) is
refused with the reason.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from irscope.errors import UsageError
from irscope.model.dtype_text import dtype_constexpr
from irscope.model.gluon_layout_text import looks_like_layout, parse_layout
from irscope.request.kinds import kind_of

# Launch options per backend; every other name must be a constexpr of the kernel.
OPTIONS = {
    "cuda": ("num_warps", "num_stages", "num_ctas", "maxnreg"),
    "hip": ("num_warps", "num_stages", "waves_per_eu", "matrix_instr_nonkdim", "kpack"),
}
# Triton's limit on a tensor's elements (TRITON_MAX_TENSOR_NUMEL in triton/language/core.py).
MAX_NUMEL = 1 << 20
# Example: BLOCK_SIZE_K, BLOCK_M, BLOCK, XBLOCK, R0_BLOCK, TILE_N   (names Triton kernels give tile sizes)
BLOCK_NAME = re.compile(r"(?:^|_)(?:BLOCK|TILE)(?:_|$)|BLOCK$|^BLOCK", re.I)
# Example: num_warps=8   |   BLOCK_SIZE_K=32   |   USE_TMA=true
_ITEM = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*(\S.*?)\s*$")


def parse_settings(items: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """``("num_stages=2", "BLOCK_SIZE_K=32")`` -> typed values; UsageError for a malformed item."""
    out: dict[str, Any] = {}
    for item in items:
        match = _ITEM.match(item)
        if match is None:
            raise UsageError(f"--set {item!r}: write NAME=VALUE, e.g. --set num_stages=2 or --set BLOCK_SIZE_K=32")
        name, text = match.groups()
        if name in out:
            raise UsageError(f"--set {name} is given twice")
        out[name] = _value(text)
        dtype = dtype_constexpr(text, bare=False)  # tl.bfloat16: a dtype constexpr; a bare word stays a string
        if dtype is not None:
            out[name] = dtype
        if looks_like_layout(text):  # a Gluon layout constexpr, as its constructor: checked, built where it compiles
            out[name] = {"layout": parse_layout(text, f"--set {name}").text()}
    return out


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def _power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


def check_value(name: str, value: Any, current: Any, backend: str) -> None:
    """Refuse a value Triton would reject, saying why."""
    def need(ok: bool, why: str) -> None:
        if not ok:
            raise UsageError(f"--set {name}={value!r}: {why}")

    is_int = isinstance(value, int) and not isinstance(value, bool)
    if name == "num_warps":
        need(is_int and _power_of_two(value) and value <= 32 // (1 if backend == "cuda" else 2),
             "num_warps must be a power of two from 1 to " + ("32" if backend == "cuda" else "16")
             + " (a block holds at most 1024 threads)")
    elif name == "num_stages":
        need(is_int and 0 <= value <= 16, "num_stages must be a whole number from 0 to 16")
    elif name == "num_ctas":
        need(is_int and _power_of_two(value) and value <= 16, "num_ctas must be a power of two from 1 to 16")
    elif name == "maxnreg":
        need(is_int and 16 <= value <= 255, "maxnreg must be a whole number from 16 to 255 (ptxas's range)")
    elif name == "waves_per_eu":
        need(is_int and 0 <= value <= 16, "waves_per_eu must be a whole number from 0 (let the compiler choose) to 16")
    elif name == "matrix_instr_nonkdim":
        need(value in (0, 16, 32), "matrix_instr_nonkdim must be 0 (let the compiler choose), 16 or 32")
    elif name == "kpack":
        need(value in (1, 2), "kpack must be 1 or 2")
    elif current is not None and current != "?":
        if isinstance(current, bool):
            need(isinstance(value, bool), f"{name} is a boolean here (now {current}); give true or false")
        elif isinstance(current, int):
            need(is_int, f"{name} is a whole number here (now {current})")
            if BLOCK_NAME.search(name) and _power_of_two(current):
                need(_power_of_two(value), "a block size must be a power of two (tl.arange's length must be)")
                need(value <= MAX_NUMEL, f"a block dimension of {value} exceeds Triton's tensor limit of "
                                         f"{MAX_NUMEL} elements")
        elif isinstance(current, float):
            need(isinstance(value, (int, float)) and not isinstance(value, bool), f"{name} is a number (now {current})")


def check_settings(settings: dict[str, Any], settable: dict[str, Any], backend: str) -> None:
    """Every name settable, every value acceptable; UsageError otherwise."""
    for name, value in settings.items():
        if name not in settable:
            listed = ", ".join(f"{k}={v}" for k, v in settable.items())
            raise UsageError(f"--set {name}: not a launch option or constexpr of this kernel; settable: {listed}")
        check_value(name, value, settable[name], backend)


def _with_options(values: dict[str, Any], backend: str, known: dict[str, Any]) -> dict[str, Any]:
    """Constexpr values plus every launch option (its value where known, else Triton's default)."""
    out = {k: v for k, v in values.items() if k not in OPTIONS[backend]}
    for name in OPTIONS.get(backend, ()):
        out[name] = known.get(name, values.get(name, "default"))
    return out


def settable(request: Any, base: Any = None) -> dict[str, Any]:
    """Names ``--set`` accepts for a request, with their current values (``base``: its capture, when stored)."""
    backend = request.target.backend
    known = dict(base.manifest.options) if base is not None else {}
    values, options = kind_of(request.kernel).settable(backend, request.config_index, base)
    return _with_options(values, backend, {**options, **known})


def apply(request: Any, settings: dict[str, Any], base: Any = None) -> Any:
    """The request of the variant: ``settings`` on top of the request's config (checked first)."""
    if not settings:
        return request
    current = settable(request, base)
    check_settings(settings, current, request.target.backend)
    # A value the config already has changes nothing: the request stays the base's (same key, same capture).
    settings = {k: v for k, v in settings.items() if current.get(k) != v or isinstance(current.get(k), bool)
                != isinstance(v, bool)}
    if not settings:
        return request
    backend = request.target.backend
    kernel = kind_of(request.kernel).with_settings(settings, request.target, request.config_index, OPTIONS[backend])
    return replace(request, kernel=kernel)
