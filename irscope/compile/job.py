"""One compile to make, as plain data: the seam between resolving a request and compiling it.

``irscope.request.captures`` resolves what the user named (kernel, target, config, ``--set``) into a
``CaptureJob``; ``irscope.compile`` compiles it, in this process or in a worker process of another
Triton (``irscope.compile.remote``), which receives it as JSON (``to_data`` / ``from_data``).

What a compile asks of its kernel, each kind of kernel answers itself (``KernelInfo``, ``FunctionKernel``,
``RecordedKernel``: ``kind``, ``name``, ``key_payload``, ``to_data``, ``origin``, ``dtype``, ``default_sizes``,
``describe_arguments``, ``source_file``, ``defining_file``, ``compiles_recorded_ir``). ``KINDS`` is the one
registry from a kind to what only compile/ knows of it: how its JSON form becomes a kernel again, and which
Triton compile job it makes. Nothing here imports Triton, nor ``irscope.request``; the job builders import the
rest of ``irscope.compile`` only when called.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from irscope.errors import UsageError
from irscope.model.kernels import KernelInfo
from irscope.model.kernelspec import FunctionKernel, RecordedKernel
from irscope.model.targets import Target
from irscope.store.store import capture_key

if TYPE_CHECKING:
    from irscope.compile.specialize import CompileJob

CompilableKernel = KernelInfo | FunctionKernel | RecordedKernel


@dataclass(frozen=True)
class CaptureJob:
    """A compile irscope can make: a kernel that has source, a target, a config and the problem sizes.

    Attributes:
        kernel: a kernel module, a FILE:FUNCTION kernel, or a recorded specialization with its source.
        target: the target compiled for.
        config_index: the launch config.
        sizes: problem sizes the specialization is derived from (kernel modules only).
    """

    kernel: CompilableKernel
    target: Target
    config_index: int
    sizes: dict[str, int]

    def key(self) -> str:
        """The capture key of this compile (the same in every process that computes it)."""
        payload = self.kernel.key_payload(self.target.backend, self.config_index, self.sizes)
        if isinstance(payload, str):  # the kernel carries its key (a recorded one)
            return payload
        return capture_key(self.kernel.name, payload, self.target, self.config_index)

    def triton_job(self) -> tuple[CompileJob, dict[str, Any]]:
        """The Triton compile of this job (imports the kernel, and so Triton) and the config values it used."""
        return KINDS[self.kernel.kind].triton_job(self.kernel, self.target, self.config_index, self.sizes)

    def to_data(self) -> dict[str, Any]:
        """The job as JSON-ready data; ``from_data`` rebuilds it (same key) in any process that has the files."""
        return {"kernel": self.kernel.to_data(), "target": dataclasses.asdict(self.target),
                "config_index": self.config_index, "sizes": dict(self.sizes)}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> CaptureJob:
        """Rebuild a job from ``to_data``'s output; UsageError when a kernel file changed meanwhile."""
        described = data["kernel"]
        kind = KINDS.get(described["kind"])
        if kind is None:
            raise UsageError(f"unknown kernel kind {described['kind']!r} in a compile job")
        return cls(kernel=kind.from_data(described), target=Target(**data["target"]),
                   config_index=int(data["config_index"]), sizes=dict(data["sizes"]))


@dataclass(frozen=True)
class Kind:
    """What compile/ knows of one kind of kernel.

    Attributes:
        from_data: the kernel again from its JSON form (``to_data``).
        triton_job: its Triton compile job and the config values it used, for (kernel, target, config, sizes).
    """

    from_data: Callable[[dict[str, Any]], CompilableKernel]
    triton_job: Callable[[Any, Target, int, dict[str, int]], tuple[CompileJob, dict[str, Any]]]


def _module_job(kernel: KernelInfo, target: Target, config_index: int,
                sizes: dict[str, int]) -> tuple[CompileJob, dict[str, Any]]:
    from irscope.compile.specialize import kernel_job

    return kernel_job(kernel, target, config_index, sizes), kernel.config(target.backend, config_index)


def _function_job(kernel: FunctionKernel, target: Target, config_index: int,
                  sizes: dict[str, int]) -> tuple[CompileJob, dict[str, Any]]:
    from irscope.compile.function import function_job

    return function_job(kernel, target, config_index)


def _recorded_job(kernel: RecordedKernel, target: Target, config_index: int,
                  sizes: dict[str, int]) -> tuple[CompileJob, dict[str, Any]]:
    from irscope.compile.function import recorded_job

    return recorded_job(kernel, target), {}


# The one registry of the kinds of kernel a compile job can hold, by the ``kind`` each kernel class declares.
KINDS: dict[str, Kind] = {
    KernelInfo.kind: Kind(from_data=KernelInfo.from_data, triton_job=_module_job),
    FunctionKernel.kind: Kind(from_data=FunctionKernel.from_data, triton_job=_function_job),
    RecordedKernel.kind: Kind(from_data=RecordedKernel.from_data, triton_job=_recorded_job),
}


class JobSource(Protocol):
    """Anything that can say which compile it names (``irscope.request.captures.Request`` does)."""

    def job(self) -> CaptureJob:
        """The compile."""
        ...


def as_job(source: CaptureJob | JobSource) -> CaptureJob:
    """``source`` itself when it is a job, else the job it names."""
    return source if isinstance(source, CaptureJob) else source.job()
