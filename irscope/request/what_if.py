"""What if: a stored capture compiled again with other settings, for another target or with another Triton.

The TUI's what-if form (irscope.tui.screens.what_if) asks what to change; this module turns the change
into a variant (plain data), finds it in the store when a neighbour compiled ahead (or an earlier what-if)
made it, else compiles it in the warm compile worker (irscope.compile.remote, started and warmed up while
the form is open), and diffs a stage of the variant against its base. Nothing here draws anything.
"""

from __future__ import annotations

import contextlib
import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from irscope.errors import IrscopeError, UsageError
from irscope.store.store import Capture, Store

if TYPE_CHECKING:
    from irscope.analysis.diff import TextDiff
    from irscope.request.captures import Request
    from irscope.toolchain.tritons import TritonEnv

# What the variant's report needs, imported while the user fills in the form.
_REPORT_MODULES = ("irscope.request.compare", "irscope.views.diff", "irscope.views.facts_text",
                   "irscope.request.settings", "irscope.request.factsfile", "irscope.request.captures",
                   "irscope.toolchain.tritons", "irscope.analysis.diff")


@dataclass(frozen=True)
class Variant:
    """One what-if compile, as plain data.

    Attributes:
        kernel: what to compile: the base's capture key, or (another target or Triton) its kernel module.
        target: the target name.
        config: the config index.
        settings: ``NAME=VALUE`` items: the base's settings with the changed ones over them.
        triton: the Triton version to compile with (None: this interpreter's).
        label: the changes in words (``num_warps=8, target sm80``).
    """

    kernel: str
    target: str
    config: int
    settings: tuple[str, ...]
    triton: str | None
    label: str


@dataclass(frozen=True)
class Made:
    """What asking for a variant gave: its capture key, or why it did not compile.

    Attributes:
        key: the variant's capture key ('' when it failed).
        error: Triton's (or irscope's) message in one line ('' when it compiled).
    """

    key: str = ""
    error: str = ""


def local_version() -> str:
    """This interpreter's Triton version (read from its files)."""
    from irscope.store.store import local_triton_version

    return local_triton_version()


def foreign_triton(base: Capture) -> str | None:
    """The base's Triton version when it is not this interpreter's, else None."""
    version = base.manifest.triton_version
    return None if version == local_version() else version


def settable_values(base: Capture) -> dict[str, Any]:
    """The names a what-if may set for ``base`` (launch options and constexprs) and their values now."""
    from irscope.request.captures import request_for
    from irscope.request.settings import settable

    return settable(request_for(base), base)


def variant_of(base: Capture, settings: dict[str, Any], target: str | None = None,
               triton: str | None = None) -> Variant:
    """The variant of ``base`` with ``settings`` changed (and, when given, another target or Triton)."""
    m = base.manifest
    items = tuple(f"{k}={v}" for k, v in {**m.settings, **settings}.items())
    moved = target is not None or triton is not None  # compile the kernel module, not the stored capture
    kernel = (m.kernel if m.origin == "bundled" else m.kernel_path) if moved else m.key
    where = [f"target {target}"] if target is not None else []
    where += [f"triton {triton}"] if triton is not None else []
    label = ", ".join([f"{k}={v}" for k, v in settings.items()] + where)
    return Variant(kernel=kernel, target=target or m.target, config=m.config_index, settings=items,
                   triton=triton or foreign_triton(base), label=label)


def _worker_env(store: str | Path, triton: str | None) -> TritonEnv | None:
    """The foreign Triton environment a what-if compiles with (None: this interpreter's)."""
    from irscope.toolchain.tritons import resolve

    env = resolve(triton, Path(store)) if triton else None
    return env if env is not None and env.foreign else None


def _variant_request(variant: Variant, store: str) -> tuple[Request, str, TritonEnv | None]:
    """The request a variant makes (resolved as the chosen Triton would), its store key and that Triton."""
    from irscope.request.captures import LaunchSpec, make_request
    from irscope.toolchain.tritons import using

    env = _worker_env(store, variant.triton)
    with using(env):
        request = make_request(variant.kernel, variant.target, variant.config,
                               launch=LaunchSpec(settings=variant.settings), store_dir=store)
        return request, request.key(), env


def stored_variant(variant: Variant, store: str) -> Made | None:
    """The variant when it is in the store already (a neighbour compiled ahead, an earlier what-if), else None.

    Imports no Triton.
    """
    try:
        _, key, _ = _variant_request(variant, store)
    except UsageError:
        return None
    hit = Store(Path(store)).get(key)
    return Made(key=hit.manifest.key) if hit is not None else None


def compile_variant(variant: Variant, store: str) -> Made:
    """Compile a variant in the warm compile worker (of its Triton)."""
    from irscope.compile.remote import worker

    try:
        request, _, env = _variant_request(variant, store)
        made = worker(env).capture(request.job(), store)
    except IrscopeError as exc:
        return Made(error=" ".join(str(exc).split()))
    return Made(key=made.manifest.key)


def warm_worker(base: Capture, triton: str | None = None) -> None:
    """Start the compile worker and let it compile once for the base's target (Triton's first-compile set-up)."""
    from irscope.compile.remote import worker

    with contextlib.suppress(IrscopeError):  # the real compile starts it again and reports why it cannot
        worker(_worker_env(base.path.parent.parent, triton)).warm_up(base.manifest.target)


def warm_imports() -> None:
    """Import the modules a variant's report needs (the analysis, diff and facts modules)."""
    for module in _REPORT_MODULES:
        importlib.import_module(module)


def variant_diff(base: Capture, variant: Capture, stage: str) -> TextDiff:
    """One stage of ``variant`` against the same stage of ``base`` (TTGIR when the base's backend lacks it)."""
    from irscope.analysis.diff import DiffOptions
    from irscope.model.stages import get_stage
    from irscope.request.compare import diff_points, stage_point

    try:
        get_stage(stage, base.manifest.backend)
    except UsageError:
        stage = "ttgir"
    return diff_points(stage_point(base, stage, f"{stage} of the base"),
                       stage_point(variant, stage, f"{stage} of the variant"), DiffOptions(normalize_ssa=True))
