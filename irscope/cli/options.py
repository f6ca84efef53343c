"""Option bundles shared by commands, as decorators."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import click

from irscope.stages import STAGE_NAMES
from irscope.targets import TARGET_CHOICES

F = TypeVar("F", bound=Callable[..., Any])


def _choice_help(what: str, choices: tuple[str, ...]) -> str:
    return f"{what}: {', '.join(choices)}"


def target_option(f: F) -> F:
    """``--target``: sm80, sm90, sm100, gfx942, gfx950 or native (default: native with a GPU, else sm90)."""
    return click.option(
        "--target", "-t", metavar="TARGET", default=None,
        help=_choice_help("GPU target (default: native when a GPU is present, else sm90)", TARGET_CHOICES),
    )(f)


def config_option(f: F) -> F:
    """``--config N``: which of the kernel's launch configs (see ``irscope list KERNEL``)."""
    return click.option("--config", "-c", "config", type=int, default=0, show_default=True, metavar="N",
                        help="index of the kernel's launch config (irscope list KERNEL shows them)")(f)


def stage_option(default: str | None = "ttgir") -> Callable[[F], F]:
    """``--stage``: one of the stages (validated against the target later, to name the target's stages)."""

    def deco(f: F) -> F:
        return click.option("--stage", "-s", metavar="STAGE", default=default, show_default=True,
                            help=_choice_help("stage", STAGE_NAMES))(f)

    return deco


def json_option(f: F) -> F:
    """``--json``: machine-readable output."""
    return click.option("--json", "as_json", is_flag=True, help="print JSON instead of text")(f)


def store_option(f: F) -> F:
    """``--store DIR``: the capture store (default: $IRSCOPE_HOME or the user cache dir)."""
    return click.option("--store", "store_dir", metavar="DIR", default=None,
                        help="capture store directory (default: $IRSCOPE_HOME, else the user cache dir)")(f)


def kernel_options(f: F) -> F:
    """``--signature`` / ``--args`` / ``--constexpr`` / ``--num-warps`` / ``--num-stages``, packed as ``launch``.

    They describe the launch of a kernel given as FILE.py:FUNCTION or package.module:FUNCTION.
    """
    import functools

    from irscope.captures import LaunchSpec

    @functools.wraps(f)
    def wrapper(*a: Any, signature: str | None, args_text: str | None, constexpr_items: tuple[str, ...],
                num_warps: int | None, num_stages: int | None, **kw: Any) -> Any:
        kw["launch"] = LaunchSpec(signature=signature, args=args_text, constexprs=constexpr_items,
                                  options={"num_warps": num_warps, "num_stages": num_stages})
        return f(*a, **kw)

    options = [
        click.option("--signature", metavar="SIG", default=None,
                     help='FILE:FUNCTION launch in Triton AOT syntax, e.g. "*fp16:16, *fp16:16, i32:16, 1024"'),
        click.option("--args", "args_text", metavar="ARGS", default=None,
                     help='FILE:FUNCTION example arguments, e.g. "x=fp16[4096,4096], y=fp16[4096,4096], n=4096"'),
        click.option("--constexpr", "constexpr_items", metavar="NAME=VALUE", multiple=True,
                     help="a constexpr of a FILE:FUNCTION kernel (repeatable), e.g. --constexpr BLOCK_SIZE=1024"),
        click.option("--num-warps", type=int, default=None, help="num_warps of a FILE:FUNCTION kernel"),
        click.option("--num-stages", type=int, default=None, help="num_stages of a FILE:FUNCTION kernel"),
    ]
    decorated: Any = wrapper
    for option in reversed(options):
        decorated = option(decorated)
    return cast(F, decorated)
