"""Find a capture in the store, or make it: the one entry point commands use to get IR.

A KERNEL argument is, in this order: ``file.py:function`` or ``package.module:function`` (with
``--signature`` or ``--args``), a bundled kernel name, a kernel-module path, or the name or key
of a capture already in the store (one recorded by ``irscope capture`` or opened from an archive).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from irscope.compile.job import CaptureJob
from irscope.errors import CompileError, DamagedCaptureError, UsageError, closest
from irscope.model.kernels import bundled_kernels, get_kernel
from irscope.model.kernelspec import RecordedKernel, function_kernel
from irscope.model.paths import require_writable, store_root
from irscope.model.stages import Stage, get_stage
from irscope.model.targets import TARGETS, Target, default_target_name, resolve_target
from irscope.request.kinds import KernelSource, StoredKernel, kind_of
from irscope.store.failed import (
    FailedCompile,
    failed_compile,
    forget_failure,
    now_utc,
    reason_line,
    remember_failure,
)
from irscope.store.ingest.entry import ORIGINS
from irscope.store.store import Capture, Store, require_trusted, triton_version

RETRY_ENV = "IRSCOPE_RETRY"  # set by --retry (global or a command's), so child processes retry too


@dataclass(frozen=True)
class LaunchSpec:
    """How the user described a launch on the command line (for FILE:FUNCTION kernels).

    Attributes:
        signature: Triton AOT signature text (``"*fp16:16, i32, 128"``).
        args: example arguments (``"x=fp16[4096], n=4096"``).
        constexprs: ``NAME=VALUE`` items.
        options: num_warps / num_stages given explicitly.
        settings: ``--set NAME=VALUE`` items: a what-if variant of whatever kernel is named.
    """

    signature: str | None = None
    args: str | None = None
    constexprs: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    settings: tuple[str, ...] = ()

    def given(self) -> bool:
        """Whether any launch description was given (``--set`` applies to every kernel, so it does not count)."""
        return bool(self.signature or self.args or self.constexprs
                    or any(v is not None for v in self.options.values()))

    def cli_args(self) -> list[str]:
        """The options that describe this launch on a command line (``--set`` items not included)."""
        out = ["--signature", self.signature] if self.signature else []
        out += ["--args", self.args] if self.args else []
        out += [arg for item in self.constexprs for arg in ("--constexpr", item)]
        for name, value in self.options.items():
            out += [f"--{name.replace('_', '-')}", str(value)] if value is not None else []
        return out


@dataclass(frozen=True)
class Request:
    """What the user asked for, validated.

    Attributes:
        kernel: a registered kernel module, a FILE:FUNCTION kernel, or a stored capture.
        target: the resolved target.
        config_index: the launch config.
        sizes: problem sizes the specialization is derived from (kernel modules only).
    """

    kernel: KernelSource
    target: Target
    config_index: int
    sizes: dict[str, int]

    def key(self) -> str:
        """The capture key for this request."""
        return kind_of(self.kernel).key(self.target, self.config_index, self.sizes)

    def job(self) -> CaptureJob:
        """The compile this request names, as plain data (a stored capture's: the one that makes it again)."""
        stored = kind_of(self.kernel).stored
        if stored is not None:
            again = request_for(stored)  # checks first that its Python may be imported
            return kind_of(again.kernel).job(again.target, again.config_index, again.sizes)
        return kind_of(self.kernel).job(self.target, self.config_index, self.sizes)


def recorded_configs(captures: list[Capture]) -> str:
    """``0 (BLOCK=256, num_warps=2), 1 (BLOCK=1024, num_warps=4)``: the configs these captures hold."""
    seen: dict[int, str] = {}
    for c in captures:
        text = c.manifest.config_text()
        seen.setdefault(c.manifest.config_index, f"{c.manifest.config_index}" + (f" ({text})" if text else ""))
    return ", ".join(seen[i] for i in sorted(seen))


def _stored(kernel: str, target: str | None, store_dir: str | None, config: int = 0) -> Request | None:
    """A request for a stored capture named by key, key prefix, kernel or function name, and config."""
    store = Store(store_root(store_dir))
    found = store.find(kernel)
    if not found:
        return None
    if not any(c.manifest.key == kernel for c in found):  # by name: the captures themselves, not --set variants
        found = [c for c in found if not c.manifest.settings] or found
    if target is not None:
        wanted = resolve_target(target).name
        matching = [c for c in found if c.manifest.target == wanted]
        if not matching:
            have = sorted({c.manifest.target for c in found})
            raise UsageError(f"no capture of {kernel!r} for target {wanted}; captured for: {', '.join(have)}")
        found = matching
    else:
        default = default_target_name()
        preferred = [c for c in found if c.manifest.target == default]
        found = preferred or found
    exact = len(found) == 1 and found[0].manifest.key == kernel
    if not (exact and config == 0):  # a key names one capture; --config (default 0) picks among a name's configs
        with_config = [c for c in found if c.manifest.config_index == config]
        if not with_config:
            where = f" for {found[0].manifest.target}" if len({c.manifest.target for c in found}) == 1 else ""
            raise UsageError(f"config {config} is not recorded for {kernel}{where}; recorded: "
                             f"{recorded_configs(found)}")
        found = with_config
    chosen = found[-1]
    m = chosen.manifest
    if not exact:
        from irscope.request.recorded_args import resolution_note

        slot = [c for c in found if c.manifest.target == m.target and c.manifest.config_index == m.config_index]
        note = resolution_note(kernel, slot, chosen)
        if note:
            sys.stderr.write(f"irscope: {note}\n")
    tgt = TARGETS.get(m.target) or Target(name=m.target, backend=m.backend, arch=m.arch, warp_size=m.warp_size,
                                          description="recorded target")
    return Request(kernel=StoredKernel(chosen), target=tgt, config_index=m.config_index, sizes=dict(m.sizes))


def make_request(kernel: str, target: str | None = None, config: int = 0, stage: str | None = None,
                 launch: LaunchSpec | None = None, store_dir: str | None = None) -> Request:
    """Validate a user's kernel, target, config and (optional) stage; raise UsageError naming valid choices.

    With ``--set`` items in ``launch`` the request is for that what-if variant (checked here, before any compile).
    """
    request = _make_request(kernel, target, config, stage, launch, store_dir)
    if launch is None or not launch.settings:
        return request
    from irscope.request.settings import apply, parse_settings

    wanted = parse_settings(launch.settings)
    base = kind_of(request.kernel).stored
    if base is not None:
        request = request_for(base)
    else:
        base = Store(store_root(store_dir)).get(request.key())
    return apply(request, wanted, base)


def _make_request(kernel: str, target: str | None, config: int, stage: str | None, launch: LaunchSpec | None,
                  store_dir: str | None) -> Request:
    launch = launch or LaunchSpec()
    if not kernel.strip():
        raise UsageError("KERNEL is empty; give a bundled kernel (see irscope list), a kernel-module path, "
                         "FILE.py:FUNCTION or a stored capture's name or key")
    func = function_kernel(kernel, launch.signature, launch.args, launch.constexprs, launch.options)
    if func is not None:
        tgt = resolve_target(target)
        if stage is not None:
            get_stage(stage, tgt.backend)
        if config < 0:
            raise UsageError(f"config must be 0 or more, not {config}")
        return Request(kernel=func, target=tgt, config_index=config, sizes={})
    if launch.given():
        raise UsageError("--signature/--args/--constexpr/--num-warps/--num-stages apply to kernels given as "
                         "FILE.py:FUNCTION or package.module:FUNCTION")
    try:
        info = get_kernel(kernel)
    except UsageError:
        stored = _stored(kernel, target, store_dir, config)
        if stored is None and kernel.isidentifier():  # a name: suggest from the recorded kernels too
            names = known_kernel_names(store_dir)
            recorded = [n for n in names if n not in bundled_kernels()]
            more = f" and {len(recorded) - 10} more (irscope list)" if len(recorded) > 10 else ""
            valid = ", ".join(bundled_kernels()) + (f"; recorded: {', '.join(recorded[:10])}{more}" if recorded else "")
            raise UsageError(f"unknown kernel {kernel!r}{closest(kernel, names)}; valid: {valid}") from None
        if stored is None:
            raise
        if stage is not None:
            get_stage(stage, stored.target.backend)
        return stored
    tgt = resolve_target(target)
    if stage is not None:
        get_stage(stage, tgt.backend)
    info.config(tgt.backend, config)
    return Request(kernel=info, target=tgt, config_index=config, sizes=dict(info.sizes))


def _check_python(kernel: KernelSource) -> None:
    """A usage error naming the line when a FILE:FUNCTION kernel's file (or the module it is looked up in) is not
    valid Python."""
    import ast

    ref = getattr(kernel, "ref", None)
    if ref is None or getattr(kernel, "obj", None) is not None:
        return
    for path in dict.fromkeys((ref.lookup_file, ref.path)):
        try:
            ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except SyntaxError as exc:
            raise UsageError(f"{path}:{exc.lineno}: not valid Python: {exc.msg}") from None
        except (OSError, UnicodeDecodeError, ValueError):
            continue  # the import that follows says what is wrong with it


def get_capture(request: Request, store_dir: str | None = None, recapture: bool = False,
                on_compile: Callable[[Request], None] | None = None) -> Capture:
    """The stored capture for a request; compiles (importing Triton) only on a miss or when asked."""
    kind = kind_of(request.kernel)
    if kind.stored is not None:
        if recapture:
            raise UsageError(f"{request.kernel.name} was recorded from a program or an archive; irscope cannot "
                             "compile it again (run the program under 'irscope capture' again)")
        return _checked_stored(kind.stored)
    store = Store(store_root(store_dir))
    hit, unreadable = (None, "") if recapture else store.lookup(request.key())
    if unreadable:
        sys.stderr.write(f"irscope: capture {request.key()} cannot be read ({unreadable}); compiling it again\n")
    if hit is not None:
        why = hit.damage() if hit.manifest.checksums else "made by an older irscope, without checksums"
        if why is None:
            return remember(request, hit)
        if not kind.compiles_when_damaged:
            raise _damaged_error(hit, why)
        sys.stderr.write(f"irscope: capture {hit.manifest.key} is damaged ({why}); compiling it again\n")
        recapture = True
    if not kind.compiles_on_miss:
        raise UsageError(f"capture {request.key()} is not in {store.root}; recorded kernels are not compiled anew")
    require_writable(store.root)
    key = request.key()
    known = None if retrying() else failed_compile(store.root, key)
    if known is not None:
        raise CompileError(remembered_failure(known))
    _check_python(request.kernel)  # a file that does not parse needs no compile to say so
    if on_compile is not None:
        on_compile(request)
    # The one way down: the request as plain data, compiled here or by the selected Triton's worker.
    from irscope.compile.remote import compile_job

    try:
        made = compile_job(request.job(), store, force=recapture)
    except CompileError as exc:  # Triton rejected it: later commands answer from the record, until --retry
        remember_failure(store.root, FailedCompile(
            key=key, kernel=request.kernel.name, target=request.target.name, triton_version=triton_version(),
            when=now_utc(), reason=reason_line(str(exc)), message=str(exc)))
        raise
    forget_failure(store.root, key)
    return remember(request, made)


def retrying() -> bool:
    """Whether ``--retry`` (``$IRSCOPE_RETRY``) asks to compile again what Triton rejected before."""
    return os.environ.get(RETRY_ENV, "") not in ("", "0")


def remembered_failure(known: FailedCompile) -> str:
    """What a command says instead of compiling again: who rejected it when, why, and how to compile it again."""
    return (f"Triton {known.triton_version} rejected this compile on {known.when[:10]} ({known.reason}); "
            f"--retry compiles it again\n{known.message}")


# Requests of captures made in this process (the Python API registers kernel objects here), so a
# capture can be compiled again (per-pass dumps) without re-describing its launch.
_REQUESTS: dict[str, Request] = {}


def _damaged_error(capture: Capture, why: str) -> DamagedCaptureError:
    """The one-line error for a damaged capture that irscope cannot compile again by itself."""
    m = capture.manifest
    if m.origin == "program" and m.program:
        hint = f"record it again with: irscope capture -- {m.program}"
    else:
        hint = f"delete {capture.path} and capture it again (or open its archive again)"
    name, _, what = why.partition(": ")
    return DamagedCaptureError(m.key, name, what or why, hint)


def _checked_stored(capture: Capture) -> Capture:
    """A stored-only capture, after checking its files' sizes against its manifest."""
    why = capture.damage()
    if why is not None:
        raise _damaged_error(capture, why)
    return capture


def remember(request: Request, capture: Capture) -> Capture:
    """Record which request made ``capture``; return it."""
    _REQUESTS[capture.manifest.key] = request
    return capture


def request_for(capture: Capture) -> Request:
    """The request that can compile ``capture`` again (for per-pass dumps and timing)."""
    m = capture.manifest
    if m.key in _REQUESTS:
        return _REQUESTS[m.key]
    if m.origin in ORIGINS:  # opened from Triton's own artifacts: compiled again only when asked (its passes)
        from irscope.request.opened_files import recompile_refusal

        raise UsageError(recompile_refusal(capture))
    require_trusted(capture)  # what follows imports a file the manifest names
    if m.origin in ("bundled", "module") and m.kernel_path:
        from pathlib import Path

        from irscope.model.kernels import read_kernel

        info = read_kernel(Path(m.kernel_path), bundled=m.origin == "bundled")
        tgt = TARGETS.get(m.target) or resolve_target(m.target)
        made = Request(kernel=info, target=tgt, config_index=m.config_index, sizes=dict(m.sizes))
        if m.settings:  # a what-if variant: the same settings on the module's config
            from irscope.request.settings import apply

            made = apply(made, dict(m.settings))
        return made
    source = capture.path / m.files.get("source", "source.py")
    if m.origin in ("program", "function") and m.replay and source.is_file():
        tgt = TARGETS.get(m.target) or Target(name=m.target, backend=m.backend, arch=m.arch, warp_size=m.warp_size,
                                              description="recorded target")
        kernel = RecordedKernel(path=source, qualname=m.function or m.kernel, replay=m.replay, key=m.key)
        return Request(kernel=kernel, target=tgt, config_index=m.config_index, sizes={})
    if m.origin in ("program", "function"):
        raise UsageError(f"{m.key} was stored without its specialization (made by an older irscope) and cannot be "
                         "compiled again from the store alone; capture it again")
    raise UsageError(f"{m.key} ({m.origin}) cannot be compiled again from the store alone; capture it in this "
                     "process with irscope.capture(...) or name it as FILE:FUNCTION with its launch")


def stage_text(capture: Capture, stage: str) -> tuple[Stage, str]:
    """A stage of a capture and its text (SASS made from the cubin included)."""
    from irscope.toolchain.stages import read_stage

    st = get_stage(stage, capture.manifest.backend)
    return st, read_stage(capture, st)


def known_kernel_names(store_dir: str | None = None) -> list[str]:
    """Bundled kernel names and the names of kernels in the store, for error messages."""
    stored = {c.manifest.kernel for c in Store(store_root(store_dir)).captures()}
    return sorted(set(bundled_kernels()) | stored)


__all__ = ["KernelSource", "LaunchSpec", "Request", "StoredKernel", "closest", "get_capture", "make_request",
           "request_for", "stage_text"]
