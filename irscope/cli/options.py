"""Option bundles shared by commands, as decorators."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from irscope.cli.crash import STORE_META, short_path
from irscope.cli.teardown import remember_store
from irscope.model.stages import STAGE_NAMES
from irscope.model.targets import TARGET_CHOICES

F = TypeVar("F", bound=Callable[..., Any])


def _choice_help(what: str, choices: tuple[str, ...]) -> str:
    return f"{what}: {', '.join(choices)}"


def not_empty(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Refuse ``--option ""``: an empty value is a mistake, never a request for the default."""
    values = value if isinstance(value, tuple) else (value,)
    if any(isinstance(v, str) and not v.strip() for v in values):
        raise click.BadParameter("is empty; leave the option out for its default")
    return value


def target_value(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """``--target``: not empty (the name itself is checked against the targets when it is resolved)."""
    values = value if isinstance(value, tuple) else (value,)
    if any(isinstance(v, str) and not v.strip() for v in values):
        raise click.BadParameter(f"is empty; valid: {', '.join(TARGET_CHOICES)}")
    return value


def target_option(f: F) -> F:
    """``--target``: sm80, sm90, sm100, gfx942, gfx950 or native (default: native with a GPU, else sm90)."""
    return click.option(
        "--target", "-t", metavar="TARGET", default=None, callback=target_value,
        help=_choice_help("GPU target (default: native when a GPU is present, else sm90)", TARGET_CHOICES),
    )(f)


def config_option(f: F) -> F:
    """``--config N``: which of the kernel's launch configs (see ``irscope list KERNEL``)."""
    return click.option("--config", "-c", "config", type=click.IntRange(min=0), default=0, show_default=True,
                        metavar="N",
                        help="index of the kernel's launch config (irscope list KERNEL shows them)")(f)


def stage_option(default: str | None = "ttgir") -> Callable[[F], F]:
    """``--stage``: one of the stages (validated against the target later, to name the target's stages)."""

    def deco(f: F) -> F:
        return click.option("--stage", "-s", metavar="STAGE", default=default, show_default=True, callback=not_empty,
                            help=_choice_help("stage", STAGE_NAMES))(f)

    return deco


def json_option(f: F) -> F:
    """``--json``: machine-readable output."""
    return click.option("--json", "as_json", is_flag=True, help="print JSON instead of text")(f)


def store_value(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--store``: not empty, and a directory where it exists; remembered for the crash log."""
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter("is empty; give a directory, or leave --store out for $IRSCOPE_HOME or the "
                                 "user cache dir")
    path = Path(value).expanduser()
    try:
        if path.exists() and not path.is_dir():
            raise click.BadParameter(f"{short_path(value)} is a file, not a directory")
    except OSError as exc:
        raise click.BadParameter(f"{short_path(value)}: {exc.strerror}") from None
    ctx.meta[STORE_META] = value
    remember_store(value)
    return value


def store_option(f: F) -> F:
    """``--store DIR``: the capture store (default: $IRSCOPE_HOME or the user cache dir)."""
    return click.option("--store", "store_dir", metavar="DIR", default=None, callback=store_value,
                        help="capture store directory (default: $IRSCOPE_HOME, else the user cache dir)")(f)


TRITON_HELP = ("compile with this Triton: a version installed with 'irscope triton install', or a Python "
               "interpreter that has Triton (default: $IRSCOPE_TRITON, else this interpreter's)")


def choose_triton(spec: str | None) -> None:
    """Make the Triton ``spec`` names the one that compiles (``irscope --triton`` and a command's ``--triton``)."""
    if spec is None:
        return
    from irscope.model.paths import store_root
    from irscope.toolchain.tritons import resolve, select

    select(resolve(spec, store_root(None)))


def triton_value(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """``--triton`` after the command: chosen while the command line is read, as the global option is."""
    choose_triton(value)


def triton_option(f: F) -> F:
    """``--triton VERSION|PYTHON``: the Triton this command compiles with (the global ``irscope --triton`` too)."""
    return click.option("--triton", metavar="VERSION|PYTHON", default=None, expose_value=False, callback=triton_value,
                        help=TRITON_HELP)(f)


RETRY_HELP = "compile again what Triton rejected before (a rejected compile is remembered, and answered at once)"


def choose_retry(value: bool) -> None:
    """``--retry``: compile again the compiles Triton rejected before (``irscope --retry`` and a command's)."""
    if value:
        from irscope.request.captures import RETRY_ENV

        os.environ[RETRY_ENV] = "1"


def retry_value(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``--retry`` after the command: chosen while the command line is read, as the global option is."""
    choose_retry(value)


def retry_option(f: F) -> F:
    """``--retry``: compile again what Triton rejected before (the global ``irscope --retry`` too)."""
    return click.option("--retry", is_flag=True, expose_value=False, callback=retry_value, help=RETRY_HELP)(f)


# num_warps: Triton's backends assert a power of two; a CTA holds at most 1024 threads (32 warps of 32).
MAX_NUM_WARPS = 32


def num_warps_value(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """``--num-warps``: a power of two from 1 to 32, as Triton's backends require."""
    if value is not None and not (1 <= value <= MAX_NUM_WARPS and value & (value - 1) == 0):
        raise click.BadParameter(f"{value} is not a power of two from 1 to {MAX_NUM_WARPS} (Triton requires a power "
                                 "of two; a block holds at most 1024 threads)")
    return value


def kernel_options(f: F) -> F:
    """``--signature`` / ``--args`` / ``--constexpr`` / ``--num-warps`` / ``--num-stages`` / ``--set``, packed as
    ``launch``.

    They describe the launch of a kernel given as FILE.py:FUNCTION or package.module:FUNCTION.
    """
    import functools

    from irscope.request.captures import LaunchSpec

    @functools.wraps(f)
    def wrapper(*a: Any, signature: str | None, args_text: str | None, constexpr_items: tuple[str, ...],
                num_warps: int | None, num_stages: int | None, settings: tuple[str, ...], **kw: Any) -> Any:
        kw["launch"] = LaunchSpec(signature=signature, args=args_text, constexprs=constexpr_items,
                                  options={"num_warps": num_warps, "num_stages": num_stages}, settings=settings)
        return f(*a, **kw)

    options = [
        click.option("--signature", metavar="SIG", default=None, callback=not_empty,
                     help='FILE:FUNCTION launch in Triton AOT syntax, e.g. "*fp16:16, *fp16:16, i32:16, 1024"'),
        click.option("--args", "args_text", metavar="ARGS", default=None, callback=not_empty,
                     help='FILE:FUNCTION example arguments, e.g. "x=fp16[4096,4096], y=fp16[4096,4096], n=4096"'),
        click.option("--constexpr", "constexpr_items", metavar="NAME=VALUE", multiple=True, callback=not_empty,
                     help="a constexpr of a FILE:FUNCTION kernel (repeatable), e.g. --constexpr BLOCK_SIZE=1024"),
        click.option("--num-warps", type=int, default=None, callback=num_warps_value,
                     help="num_warps of a FILE:FUNCTION kernel (a power of two, 1 to 32)"),
        click.option("--num-stages", type=click.IntRange(min=0), default=None,
                     help="num_stages of a FILE:FUNCTION kernel (0 or more)"),
        click.option("--set", "settings", metavar="NAME=VALUE", multiple=True, callback=not_empty,
                     help="what if: a launch option (num_warps, num_stages, maxnreg, waves_per_eu, ...) or a constexpr "
                          "on top of the config, for any kernel (repeatable), e.g. --set num_stages=2"),
    ]
    decorated: Any = wrapper
    for option in reversed(options):
        decorated = option(decorated)
    return cast(F, decorated)


def output_file(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """An output file option: not empty, not a directory, in a directory that exists and is writable.

    Checked when the command line is read, so a bad path is refused before any compile or drawing.
    """
    import os

    if value is None:
        return None
    text = os.fspath(value)
    if not text.strip():
        raise click.BadParameter("is empty; give a file name")
    path = Path(text).expanduser()
    try:
        if path.is_dir():
            raise click.BadParameter(f"{short_path(text)} is a directory; give a file name")
        folder = path.parent
        if not folder.is_dir():
            raise click.BadParameter(f"the folder {short_path(folder)} does not exist")
    except OSError as exc:
        raise click.BadParameter(f"{short_path(text)}: {exc.strerror}") from None
    if not os.access(folder, os.W_OK):
        raise click.BadParameter(f"the folder {short_path(folder)} is not writable")
    return value


def jobs_option(what: str) -> Callable[[F], F]:
    """``--jobs/-j N``: how many compiles run at once in worker processes (``what`` says which)."""
    def deco(f: F) -> F:
        return click.option("--jobs", "-j", "jobs", type=click.IntRange(min=1), default=None, metavar="N",
                            help=f"{what} (default: the number of cores)")(f)

    return deco


def _engine_value(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """An --engine value as an Engine (None: local workers); a bad one is a usage error."""
    if value is None:
        return None
    from irscope.errors import UsageError
    from irscope.request.engines import parse_engine

    try:
        return parse_engine(value)
    except UsageError as exc:
        raise click.BadParameter(str(exc).removeprefix("--engine ")) from None


def engine_option(f: F) -> F:
    """``--engine local|dask|dask=ADDRESS``: where the jobs run (-j is the local cluster's size)."""
    return click.option("--engine", "engine", default=None, metavar="ENGINE", callback=_engine_value,
                        help="where the compiles run: local (worker processes here, the default), dask (a Dask "
                             "LocalCluster of -j workers) or dask=ADDRESS (a running scheduler, e.g. "
                             "dask=tcp://HOST:8786)")(f)
