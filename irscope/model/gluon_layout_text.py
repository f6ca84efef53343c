"""A Gluon layout written as its Python constructor, read as plain data (``--constexpr
layout="gl.BlockedLayout(...)"``).

Gluon kernels take their layouts as constexprs (``layout: gl.constexpr``). On the command line a layout is given
as the constructor text a kernel author writes, ``gl.BlockedLayout([1, 4], [32, 1], [4, 1], [1, 0])``. The text
is read with :mod:`ast`, never evaluated: only the layout classes named here, called with literal arguments
(numbers, booleans, ``None``, lists and tuples of them, and other layouts for ``parent=``), are accepted.
compile/ builds Triton's object from the result.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from irscope.errors import UsageError

_GLUON = "triton.experimental.gluon.language"
# Each layout class Gluon offers, and the module of triton.experimental.gluon.language that defines it.
LAYOUT_MODULES: dict[str, str] = {
    **dict.fromkeys(("AutoLayout", "CoalescedLayout", "BlockedLayout", "SliceLayout", "DistributedLinearLayout",
                     "DotOperandLayout", "NVMMADistributedLayout", "NVMMASharedLayout", "SwizzledSharedLayout",
                     "PaddedSharedLayout", "SharedLinearLayout"), _GLUON),
    "TensorMemoryLayout": f"{_GLUON}.nvidia.blackwell",
    "TensorMemoryScalesLayout": f"{_GLUON}.nvidia.blackwell",
    "AMDMFMALayout": f"{_GLUON}.amd",
    "AMDWMMALayout": f"{_GLUON}.amd",
}
# Example: gl.BlockedLayout([1, 4], [32, 1], [4, 1], [1, 0])  (a qualified or bare class name, then a call)
_LOOKS_LIKE_CALL = re.compile(r"^\s*[A-Za-z_][\w.]*\s*\(")


@dataclass(frozen=True)
class LayoutCall:
    """One layout constructor call, its arguments as literals (or other calls).

    Attributes:
        name: the layout class (``BlockedLayout``), one of ``LAYOUT_MODULES``.
        args: positional arguments, in order.
        kwargs: keyword arguments as ``(name, value)`` pairs, in the order written.
    """

    name: str
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()

    @property
    def module(self) -> str:
        """The Gluon module that defines the class."""
        return LAYOUT_MODULES[self.name]

    def text(self) -> str:
        """The call as canonical constructor text (``gl.`` prefix dropped), which :func:`parse_layout` reads back."""
        parts = [_literal_text(a) for a in self.args] + [f"{k}={_literal_text(v)}" for k, v in self.kwargs]
        return f"{self.name}({', '.join(parts)})"


def looks_like_layout(text: str) -> bool:
    """Whether a --constexpr value is written as a call (``gl.BlockedLayout(...)``), so it must be a layout."""
    return bool(_LOOKS_LIKE_CALL.match(text))


def parse_layout(text: str, what: str = "layout") -> LayoutCall:
    """``gl.BlockedLayout([1, 4], [32, 1], [4, 1], [1, 0])`` -> a :class:`LayoutCall`; anything else: one UsageError."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise UsageError(f"{what} {text!r} is not Python constructor text ({exc.msg}); {_VALID}") from None
    if not isinstance(tree.body, ast.Call):
        raise UsageError(f"{what} {text!r} is not a layout constructor call; {_VALID}")
    return _call(tree.body, text, what)


_VALID = ("write a Gluon layout's constructor with literal arguments, e.g. "
          "gl.BlockedLayout([1, 4], [32, 1], [4, 1], [1, 0]); layouts: " + ", ".join(LAYOUT_MODULES))


def _call(node: ast.Call, text: str, what: str) -> LayoutCall:
    name = _class_name(node.func)
    if name not in LAYOUT_MODULES:
        shown = name or ast.unparse(node.func)
        raise UsageError(f"{what} {text!r}: {shown} is not a Gluon layout; {_VALID}")
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        raise UsageError(f"{what} {text!r}: *args and **kwargs are not literal arguments; {_VALID}")
    return LayoutCall(name=name, args=tuple(_value(a, text, what) for a in node.args),
                      kwargs=tuple((str(k.arg), _value(k.value, text, what)) for k in node.keywords))


def _class_name(func: ast.expr) -> str:
    """``gl.BlockedLayout`` / ``ttgl.nvidia.blackwell.TensorMemoryLayout`` / ``BlockedLayout`` -> the last name."""
    node = func
    while isinstance(node, ast.Attribute):
        node = node.value
    if not isinstance(node, ast.Name):
        return ""  # a call or subscript in the qualifier: not a plain name
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _value(node: ast.expr, text: str, what: str) -> Any:
    if isinstance(node, ast.Call):
        return _call(node, text, what)
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_value(e, text, what) for e in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        value = node.operand.value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return -value
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (bool, int, float, str))):
        return node.value
    raise UsageError(f"{what} {text!r}: {ast.unparse(node)} is not a literal; {_VALID}")


def _literal_text(value: Any) -> str:
    if isinstance(value, LayoutCall):
        return value.text()
    if isinstance(value, list):
        return "[" + ", ".join(_literal_text(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(_literal_text(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def encoded_layout_text(data: Any) -> str:
    """The constructor text of a layout as irscope records it (``{"class": ..., "fields": {...}}``), keywords named."""
    def value(v: Any) -> Any:
        if isinstance(v, dict) and "layout" in v:
            return _RecordedCall(encoded_layout_text(v["layout"]))
        if isinstance(v, dict) and "tuple" in v:
            return tuple(value(x) for x in v["tuple"])
        if isinstance(v, list):
            return [value(x) for x in v]
        return v

    if not isinstance(data, dict):
        return "?"
    fields = data.get("fields", {})
    parts = [f"{k}={_literal_text(value(v))}" for k, v in (fields.items() if isinstance(fields, dict) else ())]
    return f"{data.get('class', '?')}({', '.join(parts)})"


class _RecordedCall(str):
    """A nested layout's text, printed as it is."""

    def __repr__(self) -> str:
        return str(self)
