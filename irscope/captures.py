"""Find a capture in the store, or make it: the one entry point commands use to get IR."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from irscope.kernels import KernelInfo, get_kernel
from irscope.paths import store_root
from irscope.stages import Stage, get_stage
from irscope.store import Capture, Store, capture_key
from irscope.targets import Target, resolve_target


@dataclass(frozen=True)
class Request:
    """What the user asked for, validated.

    Attributes:
        kernel: the kernel's declared facts.
        target: the resolved target.
        config_index: the launch config, checked against the kernel's configs for the target.
        sizes: problem sizes the specialization is derived from.
    """

    kernel: KernelInfo
    target: Target
    config_index: int
    sizes: dict[str, int]

    def key(self) -> str:
        """The capture key for this request."""
        return capture_key(self.kernel, self.target, self.config_index, self.sizes)


def make_request(kernel: str, target: str | None = None, config: int = 0, stage: str | None = None) -> Request:
    """Validate a user's kernel, target, config and (optional) stage; raise UsageError naming valid choices."""
    info = get_kernel(kernel)
    tgt = resolve_target(target)
    if stage is not None:
        get_stage(stage, tgt.backend)
    info.config(tgt.backend, config)
    return Request(kernel=info, target=tgt, config_index=config, sizes=dict(info.sizes))


def get_capture(request: Request, store_dir: str | None = None, recapture: bool = False,
                on_compile: Callable[[Request], None] | None = None) -> Capture:
    """The stored capture for a request; compiles (importing Triton) only on a miss or when asked."""
    store = Store(store_root(store_dir))
    if not recapture and (hit := store.get(request.key())) is not None:
        return hit
    if on_compile is not None:
        on_compile(request)
    from irscope.compile.capture import capture

    return capture(request.kernel, request.target, request.config_index, store, request.sizes, force=recapture)


def stage_text(capture: Capture, stage: str) -> tuple[Stage, str]:
    """A stage of a capture and its text."""
    st = get_stage(stage, capture.manifest.backend)
    return st, capture.read(st)
