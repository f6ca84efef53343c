"""What a FILE:FUNCTION kernel declares (its arguments, @triton.autotune configs and heuristics), for the commands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from irscope.model.kernelspec import FunctionKernel


@dataclass(frozen=True)
class FunctionInfo:
    """The launch-relevant declarations of a @triton.jit function and the decorators around it.

    Attributes:
        arguments: its parameters in order, a constexpr one as ``constexpr NAME``.
        configs: its @triton.autotune configs as keyword dicts (one empty dict when it is not autotuned).
        heuristics: the names @triton.heuristics computes, in decorator order.
    """

    arguments: tuple[str, ...]
    configs: list[dict[str, Any]]
    heuristics: tuple[str, ...]


def function_info(kernel: FunctionKernel, where: str | None = None) -> FunctionInfo:
    """Import the kernel's module (and so Triton) and read what it declares; ``where`` names it in errors."""
    from irscope.compile.function import load_object, unwrap

    unwrapped = unwrap(load_object(kernel), where or kernel.ref.spec)
    return FunctionInfo(arguments=tuple(("constexpr " if p.is_constexpr else "") + p.name for p in unwrapped.fn.params),
                        configs=unwrapped.configs, heuristics=tuple(name for name, _ in unwrapped.heuristics))


def function_configs(kernel: FunctionKernel, where: str | None = None) -> list[dict[str, Any]]:
    """The kernel's @triton.autotune configs (one empty config when it is not autotuned)."""
    from irscope.compile.function import load_object, unwrap

    return unwrap(load_object(kernel), where or kernel.ref.spec).configs
