"""A capture's manifest (what it holds and how it was made), its content key, and the one builder of new ones.

Both ways irscope makes a capture build its manifest with :func:`new_manifest`: compiling a kernel module or a
FILE:FUNCTION kernel here (``irscope.compile.capture``), and storing what a program compiled under ``irscope
capture`` (``irscope.compile.program``). Which of Triton's metadata a manifest keeps (:data:`METADATA_KEYS`) and
the shape of a capture key (:func:`capture_key`) are written here once. Nothing here imports Triton.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from irscope.errors import StoreError
from irscope.model.targets import Target
from irscope.store.manifest_fields import FIELD_CHECKS, json_type
from irscope.toolchain.tritons import triton_version

# The manifest's format: 2 added per-file sizes and sha256 digests (``checksums``). Format-1 manifests
# are still read; their files cannot be checked, so compilable kernels are compiled anew.
FORMAT = 2
READABLE_FORMATS = (1, 2)
# The format that enters capture keys: unchanged by format 2, so keys stay stable.
KEY_FORMAT = 1
MANIFEST = "manifest.json"
# Environment variables that change what Triton compiles; they enter the capture key. Ours and
# those that only move files around (cache, dump, home) are left out.
_KEY_ENV_PREFIXES = ("TRITON_", "MLIR_", "LLVM_", "AMDGCN_", "NVPTX_", "DISABLE_", "ENABLE_")
_KEY_ENV_IGNORED = frozenset({
    "TRITON_CACHE_DIR", "TRITON_DUMP_DIR", "TRITON_HOME", "TRITON_KERNEL_DUMP", "TRITON_ALWAYS_COMPILE",
    "TRITON_INTERPRET", "TRITON_PRINT_AUTOTUNING", "TRITON_OVERRIDE_DIR", "TRITON_CACHE_MANAGER",
    "MLIR_ENABLE_DUMP", "MLIR_DUMP_PATH", "LLVM_IR_ENABLE_DUMP", "TRITON_PTXAS_PATH_ECHO",
    "MLIR_ENABLE_TIMING", "LLVM_ENABLE_TIMING",
})
# Triton's own metadata fields worth keeping in the manifest (the rest is in <kernel>.json). Triton 3.9 writes
# no ``cluster_dims``; older ones do.
METADATA_KEYS = ("name", "hash", "num_warps", "num_ctas", "num_stages", "shared", "tmem_size", "global_scratch_size",
                 "profile_scratch_size", "cluster_dims", "arch", "ptx_version", "waves_per_eu", "triton_version")


def _compile_env() -> dict[str, str]:
    return {
        k: v for k, v in sorted(os.environ.items())
        if k.startswith(_KEY_ENV_PREFIXES) and k not in _KEY_ENV_IGNORED
    }


def capture_key(name: str, payload: dict[str, Any], target: Target, config_index: int, version: str | None = None,
                *, triton_hash: str = "") -> str:
    """The content key of a capture, ``<name>-<target>-c<config>-<digest>``: same inputs, same compiled IR, same key.

    The digest is the first 20 hex digits of a sha256 over ``payload``, the target, the Triton ``version`` (the
    installed one by default) and the environment variables that change what Triton compiles. A compile recorded
    from a program is keyed by Triton's own hash of it instead (``triton_hash``, which covers all of that; then
    ``payload`` is not read), after a ``p``: ``add_kernel-sm90-c0-p-0123456789abcdef0123``.
    """
    if triton_hash:
        digest = f"p-{triton_hash[:20]}"
    else:
        blob = json.dumps({
            "format": KEY_FORMAT,
            **payload,
            "target": [target.backend, target.arch, target.warp_size],
            "triton": version or triton_version(),
            "env": _compile_env(),
        }, sort_keys=True, default=str).encode()
        digest = hashlib.sha256(blob).hexdigest()[:20]
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:60]
    return f"{safe}-{target.name}-c{config_index}-{digest}"


@dataclass(frozen=True)
class Manifest:
    """What a capture holds and how it was made.

    Attributes:
        key: the content key (also the directory name).
        kernel: kernel name; ``kernel_path`` its module file and ``function`` the jit function.
        config_index / config: which launch config, and its values.
        sizes / dtype: the problem the specialization was derived from.
        target / backend / arch / warp_size: what it was compiled for.
        triton_version: the Triton that compiled it.
        signature / constexprs / attrs: the JIT specialization (``attrs`` maps argument name to
            Triton's attribute list, e.g. ``[["tt.divisibility", 16]]``).
        options: the backend options Triton compiled with.
        metadata: Triton's metadata (num_warps, num_stages, shared, hash, ...).
        compile_seconds: wall time of ``triton.compile``; ``stage_seconds`` per stage when known.
        files: stage or artifact name -> file name inside the capture directory.
        created: UTC time the capture was made.
        origin: ``bundled``, ``module`` (a kernel-module file), ``function`` (FILE:FUNCTION),
            ``program`` (recorded by ``irscope capture``).
        arguments: the launch as the user described it (FILE:FUNCTION kernels).
        program: the command line a ``program`` capture came from.
        replay: for ``program`` and ``function`` captures, the exact specialization (signature, typed constexprs,
            attrs, options) to compile the recorded kernel again from its stored source.
        autotune: for a config of an autotuned kernel recorded offline, how its configs were chosen
            (``--autotune`` mode, how many, which compiled, why each other one was pruned).
        checksums: file name -> ``{"size": bytes, "sha256": hex digest}`` for every file in ``files``,
            written when the capture is committed; sizes are checked on every read, digests by
            ``irscope verify``.
        settings: ``--set`` values this what-if variant was compiled with (already in ``config``), else empty.
        same_code_as: offline program captures: the key of the capture whose compile made the same TTGIR (only
            ``num_stages`` differed), whose later stages this one holds; else empty.
    """

    key: str
    kernel: str
    kernel_path: str
    function: str
    config_index: int
    config: dict[str, Any]
    sizes: dict[str, int]
    dtype: str
    target: str
    backend: str
    arch: int | str
    warp_size: int
    triton_version: str
    signature: dict[str, str]
    constexprs: dict[str, Any]
    attrs: dict[str, Any]
    options: dict[str, Any]
    metadata: dict[str, Any]
    compile_seconds: float
    stage_seconds: dict[str, float] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    created: str = ""
    origin: str = "bundled"
    arguments: str = ""
    program: str = ""
    replay: dict[str, Any] = field(default_factory=dict)
    autotune: dict[str, Any] = field(default_factory=dict)
    checksums: dict[str, dict[str, Any]] = field(default_factory=dict)
    format: int = FORMAT
    settings: dict[str, Any] = field(default_factory=dict)
    same_code_as: str = ""

    def config_text(self) -> str:
        """What tells this capture apart from the kernel's others: its config values, else its constexprs."""
        values = self.config or self.constexprs
        text = ", ".join(f"{k}={v}" for k, v in values.items())
        if self.settings:
            text += "; set " + ", ".join(f"{k}={v}" for k, v in self.settings.items())
        return text

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``same_code_as`` only where set: other manifests stay as they were).

        Shallow: the field values are JSON values already, shared with this manifest (``asdict``'s deep copy took
        a third of storing a program's captures).
        """
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        if not self.same_code_as:
            del data["same_code_as"]
        return data

    @classmethod
    def from_json(cls, data: object) -> Manifest:
        """Build from a manifest.json value, checking every field's type; unknown keys are ignored.

        Raises StoreError naming the first field that is missing or of the wrong type.
        """
        if not isinstance(data, dict):
            raise StoreError(f"{MANIFEST} holds {json_type(data)}, not an object")
        values: dict[str, Any] = {}
        for name, f in cls.__dataclass_fields__.items():
            if name not in data:
                if f.default is MISSING and f.default_factory is MISSING:
                    raise StoreError(f"{MANIFEST} lacks the field {name!r}")
                continue
            problem = FIELD_CHECKS[name](data[name])
            if problem:
                raise StoreError(f"{MANIFEST}: field {name!r} {problem}")
            values[name] = data[name]
        return cls(**values)




def _plain(value: Any) -> Any:
    """``value`` as plain JSON (tuples as lists, anything JSON cannot hold as its text), as manifest.json keeps it."""
    return json.loads(json.dumps(value, default=str))


def new_manifest(*, key: str, kernel: str, kernel_path: str, function: str, target: Target, config_index: int,
                 config: Mapping[str, Any], triton_version: str, signature: Mapping[str, str],
                 constexprs: Mapping[str, Any], attrs: Mapping[str, Any], options: Mapping[str, Any],
                 metadata: Mapping[str, Any], compile_seconds: float, stage_seconds: Mapping[str, float],
                 files: Mapping[str, str], origin: str, sizes: Mapping[str, int] | None = None, dtype: str = "",
                 arguments: str = "", program: str = "", replay: Mapping[str, Any] | None = None,
                 autotune: Mapping[str, Any] | None = None, settings: Mapping[str, Any] | None = None,
                 same_code_as: str = "") -> Manifest:
    """The manifest of a capture made now: every way irscope makes one comes through here.

    ``metadata`` is Triton's whole metadata: the manifest keeps :data:`METADATA_KEYS` of it. Values become plain
    JSON (what ``manifest.json`` reads back), seconds are rounded to 0.1 ms, and ``created`` is now, in UTC.
    The field meanings are :class:`Manifest`'s.
    """
    import datetime as _dt

    return Manifest(
        key=key, kernel=kernel, kernel_path=kernel_path, function=function,
        config_index=config_index, config=_plain(dict(config)), sizes=dict(sizes or {}), dtype=dtype,
        target=target.name, backend=target.backend, arch=target.arch, warp_size=target.warp_size,
        triton_version=triton_version, signature=dict(signature), constexprs=dict(constexprs), attrs=dict(attrs),
        options=_plain(dict(options)), metadata=_plain({k: metadata[k] for k in METADATA_KEYS if k in metadata}),
        compile_seconds=round(compile_seconds, 4), stage_seconds={k: round(v, 4) for k, v in stage_seconds.items()},
        files=dict(files), created=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"), origin=origin,
        arguments=arguments, program=program, replay=dict(replay or {}), autotune=dict(autotune or {}),
        settings=_plain(dict(settings or {})), same_code_as=same_code_as,
    )
