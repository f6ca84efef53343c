"""What a compiling command is asked: KERNEL and its shared options, resolved before the command runs.

``kernel_request`` adds KERNEL, ``--target``, ``--config``, ``--triton``, ``--store`` and the FILE:FUNCTION
launch options to a command, resolves them to a request (``irscope.request.captures.make_request``) and
hands the command what its signature names: ``request``, ``capture`` (from the store, compiled on a miss)
and ``asked`` (the options as given, for a second request or a capture of its own). The notices a
command prints while it compiles live here too.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

from irscope.cli.options import (
    config_option,
    kernel_options,
    retry_option,
    stage_option,
    store_option,
    target_option,
    triton_option,
)
from irscope.request.captures import LaunchSpec, Request, get_capture, make_request

if TYPE_CHECKING:
    from irscope.store.store import Capture

# What a command may ask to be handed, by parameter name.
HANDED = ("asked", "request", "capture")


def compile_notice(request: Request) -> None:
    """Tell the user a compile is starting (it takes seconds)."""
    from irscope.store.store import triton_version

    settings = getattr(request.kernel, "settings", None) or {}
    variant = f", --set {' '.join(f'{k}={v}' for k, v in settings.items())}" if settings else ""
    click.echo(f"irscope: compiling {request.kernel.name} for {request.target.name} "
               f"(config {request.config_index}{variant}, Triton {triton_version()})...", err=True)


def dump_notice(capture: Capture) -> None:
    """Tell the user a per-pass compile is starting (it takes seconds)."""
    m = capture.manifest
    click.echo(f"irscope: compiling {m.kernel} for {m.target} again with per-pass dumps (config {m.config_index})...",
               err=True)


@dataclass(frozen=True)
class Asked:
    """KERNEL and the options that describe its compile, as the command line gave them.

    Attributes:
        kernel: a bundled kernel, a kernel-module path, FILE.py:FUNCTION or a stored capture's name or key.
        target: ``--target`` (None: native with a GPU, else sm90).
        config: ``--config``.
        launch: the FILE:FUNCTION launch options and ``--set``.
        store_dir: ``--store`` (None: $IRSCOPE_HOME, else the user cache dir).
    """

    kernel: str
    target: str | None = None
    config: int = 0
    launch: LaunchSpec = field(default_factory=LaunchSpec)
    store_dir: str | None = None

    def request(self, stage: str | None = None) -> Request:
        """The request these options name; ``stage`` is checked against its target (a usage error names valid ones)."""
        return make_request(self.kernel, self.target, self.config, stage, launch=self.launch, store_dir=self.store_dir)

    def capture(self, request: Request, recapture: bool = False) -> Capture:
        """``request``'s capture from the store, compiled (saying so on stderr) on a miss or with ``recapture``."""
        return get_capture(request, self.store_dir, recapture=recapture, on_compile=compile_notice)


def compile_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--triton``, ``--retry``, ``--store`` and the FILE:FUNCTION launch options (packed as ``launch``), for any
    compiling command."""
    for option in (kernel_options, store_option, triton_option, retry_option):
        f = option(f)
    return f


def kernel_request(*, stage: str | None = None, optional: bool = False,
                   check: Callable[..., None] | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Add KERNEL and the shared options, and hand the command its resolved ``request``, ``capture`` and ``asked``.

    The command names the ones it wants as parameters; a ``capture`` parameter makes the kernel compile
    (on a miss) before the command runs. ``stage`` adds ``--stage`` with that default, checked against the
    target when the request is made and handed on as ``stage``. With ``optional`` KERNEL may be left out,
    and then the command is handed None for each. ``check`` is called first with the command's other
    options (and ``kernel``), so a bad option is refused before the kernel is resolved or compiled.
    """

    def deco(f: Callable[..., Any]) -> Callable[..., Any]:
        wanted = [name for name in inspect.signature(f).parameters if name in HANDED]
        if not wanted:
            raise TypeError(f"{f.__name__} takes none of {', '.join(HANDED)}: kernel_request has nothing to hand it")

        @functools.wraps(f)
        def command(*args: Any, kernel: str | None, target: str | None, config: int, store_dir: str | None,
                    launch: LaunchSpec, **kw: Any) -> Any:
            if check is not None:
                check(kernel=kernel, **kw)
            handed: dict[str, Any] = dict.fromkeys(wanted)
            if kernel is not None:
                asked = Asked(kernel, target, config, launch, store_dir)
                request = asked.request(kw["stage"] if stage is not None else None)
                handed.update(asked=asked, request=request)
                if "capture" in wanted:
                    handed["capture"] = asked.capture(request)
            return f(*args, **kw, **{name: handed[name] for name in wanted})

        decorated: Callable[..., Any] = compile_options(command)
        decorated = target_option(config_option(decorated))
        if stage is not None:
            decorated = stage_option(stage)(decorated)
        return click.argument("kernel", required=not optional)(decorated)

    return deco
