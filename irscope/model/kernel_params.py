"""A plain ``@triton.jit`` / ``@gluon.jit`` kernel's parameters read with ``ast``: launch errors found before Triton
loads."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from irscope.errors import UsageError

# Launch options that are not kernel arguments.
OPTION_NAMES = ("num_warps", "num_stages", "num_ctas", "maxnreg", "waves_per_eu", "matrix_instr_nonkdim",
                "kpack", "enable_fp_fusion", "launch_cooperative_grid", "launch_pdl")

_PLAIN_JIT_RE = re.compile(r"(?:triton\.|(?:triton\.experimental\.)?gluon\.)?jit(?:\(.*\))?", re.S)


class _Ref(Protocol):
    @property
    def path(self) -> Path: ...
    @property
    def line(self) -> int: ...
    @property
    def defined_as(self) -> str: ...


class _Arg(Protocol):
    @property
    def name(self) -> str | None: ...


class _Kernel(Protocol):
    """What the checks read of a FunctionKernel (kernelspec.py imports this module, not the other way)."""

    @property
    def name(self) -> str: ...
    @property
    def ref(self) -> _Ref: ...
    @property
    def signature(self) -> Sequence[Any]: ...
    @property
    def args(self) -> Sequence[_Arg]: ...
    @property
    def constexprs(self) -> Mapping[str, Any]: ...
    @property
    def options(self) -> Mapping[str, Any]: ...
    @property
    def settings(self) -> Mapping[str, Any]: ...


@dataclass(frozen=True)
class Param:
    """One parameter as its ``def`` line states it: name, whether it has a default, whether it is a constexpr."""

    name: str
    has_default: bool
    is_constexpr: bool


def plain_parameters(ref: _Ref) -> list[Param] | None:
    """The parameters of a function only ``@triton.jit`` or ``@gluon.jit`` decorates, read with ``ast``; else None.

    None too when its decorators may supply values (``@triton.autotune``, ``@triton.heuristics``) or it is not
    found as a plain ``def``: then only Triton can tell.
    """
    if not ref.line or "." in ref.defined_as:
        return None
    try:
        tree = ast.parse(ref.path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
    node = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == ref.defined_as), None)
    if node is None or not node.decorator_list or not all(_PLAIN_JIT_RE.fullmatch(ast.unparse(d))
                                                          for d in node.decorator_list):
        return None
    a = node.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
        return None
    first_default = len(a.args) - len(a.defaults)
    # Triton's KernelParam: a parameter is a constexpr when its annotation's text names constexpr.
    return [Param(arg.arg, i >= first_default,
                  arg.annotation is not None and "constexpr" in ast.unparse(arg.annotation))
            for i, arg in enumerate(a.args)]


def check_constexpr_names(kernel: _Kernel, params: list[Param]) -> None:
    """--constexpr names a constexpr parameter or a launch option (num_stages=4), nothing else."""
    by_name = {p.name: p for p in params}
    settable = [p.name for p in params if p.is_constexpr]
    for name in kernel.constexprs:
        param = by_name.get(name)
        if (param is None and name in OPTION_NAMES) or (param is not None and param.is_constexpr):
            continue
        what = (f"{name!r} is an argument of {kernel.name} but not a tl.constexpr; give its value with --args"
                if param is not None else f"{kernel.name} has no parameter {name!r}")
        raise UsageError(f"--constexpr {name}: {what}; constexpr parameters: {', '.join(settable) or 'none'} "
                         f"(launch options: {', '.join(OPTION_NAMES[:4])}, ...)")


def check_launch_early(kernel: _Kernel) -> None:
    """Refuse, before Triton is imported, the launch errors that need only the kernel's ``def`` line."""
    params = plain_parameters(kernel.ref)
    if params is None:
        return
    check_constexpr_names(kernel, params)
    if kernel.signature:
        _check_signature(kernel, params)
    else:
        _check_args(kernel, params)


def _check_signature(kernel: _Kernel, params: list[Param]) -> None:
    """A --signature that misses or overruns the parameters, as compiling would refuse it."""
    names = [p.name for p in params]
    entries = kernel.signature
    if len(entries) > len(names):
        raise UsageError(f"--signature has {len(entries)} entries but {kernel.name} takes {len(names)} "
                         f"arguments ({', '.join(names)})")
    given = set(kernel.constexprs) | set(kernel.options) | set(kernel.settings)
    if any(n in given for n in names[:len(entries)]):
        return  # compiling says which value is given twice
    uncovered = [p.name for p in params[len(entries):] if p.name not in given and not p.has_default]
    if uncovered:
        raise UsageError(f"--signature has {len(entries)} entries but {kernel.name} takes {len(names)} arguments; "
                         f"missing {', '.join(uncovered)} (give constexprs with --constexpr NAME=VALUE)")


def check_arg_names(kernel_name: str, names: list[str], args: Any) -> None:
    """--args naming no parameter of ``names`` or giving more positional values than there are parameters."""
    positional = [a for a in args if a.name is None]
    keyword = [a.name for a in args if a.name is not None]
    unknown = [n for n in keyword if n not in names and n not in OPTION_NAMES]
    if unknown:
        raise UsageError(f"{kernel_name} has no argument {unknown[0]!r}; its arguments: {', '.join(names)}")
    if len(positional) > len(names):
        raise UsageError(f"{kernel_name} takes {len(names)} arguments; --args gives {len(positional)} positional")


def _check_args(kernel: _Kernel, params: list[Param]) -> None:
    """--args naming no parameter, overrunning them or leaving one without a value, as compiling would refuse it."""
    names = [p.name for p in params]
    check_arg_names(kernel.name, names, kernel.args)
    positional = [a for a in kernel.args if a.name is None]
    keyword = [a.name for a in kernel.args if a.name is not None]
    given = [*names[:len(positional)], *keyword, *kernel.constexprs, *kernel.options, *kernel.settings]
    if len(set(given)) != len(given):
        return  # compiling says which value is given twice, or takes two equal ones
    missing = [p for p in params if p.name not in given and not p.has_default]
    if missing:
        kind = "constexpr" if missing[0].is_constexpr else "argument"
        raise UsageError(f"{kernel.name}: missing {kind} {missing[0].name!r} (give it with "
                         f"{'--constexpr NAME=VALUE' if kind == 'constexpr' else '--args'}); "
                         f"arguments: {', '.join(names)}")
