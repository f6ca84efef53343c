"""One compile to make, as plain data: the seam between resolving a request and compiling it.

``irscope.request.captures`` resolves what the user named (kernel, target, config, ``--set``) into a
``CaptureJob``; ``irscope.compile`` compiles it, in this process or in a worker process of another
Triton (``irscope.compile.remote``), which receives it as JSON (``to_data`` / ``from_data``).
Nothing here imports Triton, and nothing here imports ``irscope.request.captures`` or ``irscope.compile``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from irscope.errors import UsageError
from irscope.model.kernels import KernelInfo, read_kernel
from irscope.model.kernelspec import ArgSpec, FunctionKernel, FunctionRef, RecordedKernel, SignatureEntry
from irscope.model.targets import Target
from irscope.store.store import capture_key

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
        kernel = self.kernel
        if isinstance(kernel, RecordedKernel):
            return kernel.key
        if isinstance(kernel, FunctionKernel):
            payload = kernel.key_payload(self.config_index)
        else:
            payload = kernel.key_payload(self.target.backend, self.config_index, self.sizes)
        return capture_key(kernel.name, payload, self.target, self.config_index)

    def to_data(self) -> dict[str, Any]:
        """The job as JSON-ready data; ``from_data`` rebuilds it (same key) in any process that has the files."""
        kernel = self.kernel
        described: dict[str, Any]
        if isinstance(kernel, KernelInfo):
            described = {"kind": "module", "path": str(kernel.path), "bundled": kernel.bundled,
                         "source_sha": kernel.source_sha, "configs": kernel.configs, "settings": kernel.settings}
        elif isinstance(kernel, FunctionKernel):
            described = {"kind": "function", "ref": _plain(kernel.ref),
                         "signature": [_plain(e) for e in kernel.signature], "args": [_plain(a) for a in kernel.args],
                         "constexprs": kernel.constexprs, "options": kernel.options, "source_sha": kernel.source_sha,
                         "settings": kernel.settings}
        elif isinstance(kernel, RecordedKernel):
            described = {"kind": "recorded", "path": str(kernel.path), "qualname": kernel.qualname,
                         "replay": kernel.replay, "key": kernel.key, "settings": kernel.settings,
                         "settings_of": kernel.settings_of}
        else:
            raise UsageError(f"{type(kernel).__name__} kernels cannot be compiled")
        return {"kernel": described, "target": _plain(self.target), "config_index": self.config_index,
                "sizes": dict(self.sizes)}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> CaptureJob:
        """Rebuild a job from ``to_data``'s output; UsageError when a kernel file changed meanwhile."""
        k = data["kernel"]
        kernel: CompilableKernel
        if k["kind"] == "module":
            info = read_kernel(Path(k["path"]), bundled=bool(k["bundled"]))
            if info.source_sha != k["source_sha"]:
                raise UsageError(f"{k['path']} changed while it was being compiled; run the command again")
            # The configs travel too: a --set variant changed one of them.
            kernel = dataclasses.replace(info, configs={b: [dict(c) for c in cs] for b, cs in k["configs"].items()},
                                         settings=dict(k.get("settings", {})))
        elif k["kind"] == "function":
            ref = dict(k["ref"])
            ref["path"] = Path(ref["path"])
            ref["module_file"] = Path(ref["module_file"]) if ref.get("module_file") else None
            kernel = FunctionKernel(
                ref=FunctionRef(**ref),
                signature=tuple(SignatureEntry(**e) for e in k["signature"]),
                args=tuple(ArgSpec(**{**a, "shape": tuple(a.get("shape", ()))}) for a in k["args"]),
                constexprs=dict(k["constexprs"]), options=dict(k["options"]), source_sha=k["source_sha"],
                settings=dict(k.get("settings", {})))
        elif k["kind"] == "recorded":
            kernel = RecordedKernel(path=Path(k["path"]), qualname=k["qualname"], replay=k["replay"], key=k["key"],
                                    settings=dict(k.get("settings", {})), settings_of=str(k.get("settings_of", "")))
        else:
            raise UsageError(f"unknown kernel kind {k['kind']!r} in a compile job")
        return cls(kernel=kernel, target=Target(**data["target"]), config_index=int(data["config_index"]),
                   sizes=dict(data["sizes"]))


class JobSource(Protocol):
    """Anything that can say which compile it names (``irscope.request.captures.Request`` does)."""

    def job(self) -> CaptureJob:
        """The compile."""
        ...


def as_job(source: CaptureJob | JobSource) -> CaptureJob:
    """``source`` itself when it is a job, else the job it names."""
    return source if isinstance(source, CaptureJob) else source.job()


def _plain(obj: Any) -> dict[str, Any]:
    """A dataclass as JSON-ready data (paths as text, tuples as lists; a kernel object held in memory is left out)."""
    out = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if f.name == "obj":
            continue
        out[f.name] = str(value) if isinstance(value, Path) else list(value) if isinstance(value, tuple) else value
    return out
