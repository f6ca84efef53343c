"""Gluon layout constexprs as plain data and back: records, replays and the offline compile pool carry them.

A ``@gluon.jit`` kernel takes its layouts as constexprs (``layout: gl.constexpr``). Triton's JIT hands a launch's
constexprs to a ``jit_cache_hook`` as JSON (``serialize_specialization_data``), which cannot hold a layout object;
offline capture goes through that hook, so :func:`install` has layouts encoded there (as :func:`encode_layout`
writes them) and :func:`decoding_preload` rebuilds them when ``JITFunction.preload`` compiles the job.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
from collections.abc import Iterator
from typing import Any

from irscope.errors import UsageError
from irscope.model.gluon_layout_text import LAYOUT_MODULES, LayoutCall, parse_layout

_PACKAGE = "triton.experimental.gluon."
_MARK = "irscope_gluon_layout"  # the key of a layout in Triton's serialized specialization


def is_layout(value: Any) -> bool:
    """Whether ``value`` is a Gluon layout object (a dataclass defined in ``triton.experimental.gluon``)."""
    kind = type(value)
    return (dataclasses.is_dataclass(value) and not isinstance(value, type)
            and kind.__module__.startswith(_PACKAGE) and kind.__name__.lstrip("_").endswith("Layout"))


def encode_layout(value: Any) -> dict[str, Any]:
    """A layout object as JSON: its class, the module defining it, and each constructor field."""
    kind = type(value)
    return {"class": kind.__name__, "module": kind.__module__,
            "fields": {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}}


def _encode(value: Any) -> Any:
    if is_layout(value):
        return {"layout": encode_layout(value)}
    if type(value).__name__ == "constexpr":
        return _encode(value.value)
    if isinstance(value, tuple):
        return {"tuple": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"a Gluon layout field holds {type(value).__name__} {value!r}, which irscope cannot record")


def decode_layout(data: dict[str, Any]) -> Any:
    """The layout object :func:`encode_layout` described (its class must be one of Gluon's)."""
    module, name = str(data.get("module", "")), str(data.get("class", ""))
    if not module.startswith(_PACKAGE):
        raise UsageError(f"a recorded layout names {module}.{name}, which is not a Gluon layout class")
    try:
        cls: Any = getattr(importlib.import_module(module), name, None)
    except ImportError:
        cls = None
    if not isinstance(cls, type) or not dataclasses.is_dataclass(cls):
        raise UsageError(f"the installed Triton has no Gluon layout {module}.{name}; this kernel cannot be rebuilt")
    fields = data.get("fields", {})
    try:
        return cls(**{str(k): _decode(v) for k, v in (fields.items() if isinstance(fields, dict) else ())})
    except (TypeError, ValueError, AssertionError) as exc:
        raise UsageError(f"a recorded {name} cannot be rebuilt with this Triton's Gluon ({exc or 'refused'})") from None


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and "layout" in value:
        return decode_layout(value["layout"])
    if isinstance(value, dict) and "tuple" in value:
        return tuple(_decode(v) for v in value["tuple"])
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def build_layout(call: LayoutCall, text: str = "", what: str = "layout") -> Any:
    """The layout object of a parsed constructor call (nested layouts built first); a bad argument: UsageError."""
    cls = getattr(importlib.import_module(LAYOUT_MODULES[call.name]), call.name, None)
    if cls is None:
        raise UsageError(f"the installed Triton has no Gluon {call.name} ({LAYOUT_MODULES[call.name]})")

    def built(value: Any) -> Any:
        if isinstance(value, LayoutCall):
            return build_layout(value, text, what)
        if isinstance(value, list):
            return [built(v) for v in value]
        if isinstance(value, tuple):
            return tuple(built(v) for v in value)
        return value

    try:
        return cls(*[built(a) for a in call.args], **{k: built(v) for k, v in call.kwargs})
    except (TypeError, ValueError, AssertionError) as exc:
        fields = ", ".join(f.name for f in dataclasses.fields(cls) if f.init)
        why = str(exc).split("\n")[0] or "an argument failed Gluon's checks (list lengths must equal the rank)"
        raise UsageError(f"{what} {text or call.text()!r}: {call.name}({fields}) refused it: {why}") from None


def layout_from_text(text: str, what: str = "layout") -> Any:
    """The layout object of constructor text such as ``gl.BlockedLayout([1, 4], [32, 1], [4, 1], [1, 0])``."""
    return build_layout(parse_layout(text, what), text, what)


def install() -> None:
    """Let Triton serialize a launch's layout constexprs for the ``jit_cache_hook`` (offline capture)."""
    from triton.runtime import jit

    original = jit.serialize_specialization_data
    if getattr(original, "irscope_layouts", False):
        return

    def serialize(name: Any, signature: Any, constants: dict[Any, Any], *rest: Any) -> str:
        plain = {key: {_MARK: encode_layout(_unwrapped(v))} if is_layout(_unwrapped(v)) else v
                 for key, v in constants.items()}
        return original(name, signature, plain, *rest)

    serialize.irscope_layouts = True  # type: ignore[attr-defined]
    jit.serialize_specialization_data = serialize


def _unwrapped(value: Any) -> Any:
    return value.value if type(value).__name__ == "constexpr" else value


@contextlib.contextmanager
def decoding_preload(jit: Any) -> Iterator[None]:
    """While ``jit.preload`` runs, layouts :func:`install` encoded reach the compile as layout objects again."""
    compile_job = jit._do_compile

    def do_compile(key: Any, signature: Any, device: Any, constexprs: dict[Any, Any], *rest: Any,
                   **options: Any) -> Any:
        rebuilt = {path: decode_layout(_unwrapped(v)[_MARK]) if _is_marked(_unwrapped(v)) else v
                   for path, v in constexprs.items()}
        return compile_job(key, signature, device, rebuilt, *rest, **options)

    jit._do_compile = do_compile
    try:
        yield
    finally:
        del jit._do_compile  # the class's method again


def _is_marked(value: Any) -> bool:
    return isinstance(value, dict) and _MARK in value
