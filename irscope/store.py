"""Captures on disk: one directory per capture, keyed by content, written atomically.

Layout under the store root (``--store``, ``IRSCOPE_HOME`` or the user cache dir)::

    captures/<key>/manifest.json     what was compiled, how, and which file holds each stage
    captures/<key>/<kernel>.<ext>    every artifact Triton wrote (ttir, ttgir, llir, ptx, cubin, sass, ...)
    staging/<key>.<pid>.<rand>/      a capture being written; renamed into captures/ when complete

Reading the store never imports Triton or torch.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from irscope.errors import DamagedCaptureError, StoreError, UsageError
from irscope.stages import Stage, get_stage
from irscope.targets import Target

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
_STALE_STAGING_SECONDS = 3600


# Example: __version__ = '3.9.0'
_VERSION_RE = re.compile(r"""^__version__\s*=\s*["']([^"']+)["']""", re.M)


@functools.cache
def triton_version() -> str:
    """Installed Triton's version, read from its __init__.py without importing it (metadata as fallback).

    Read once per process: every capture key needs it, and the TUI computes keys for whole trees.
    """
    import importlib.util

    spec = importlib.util.find_spec("triton")
    if spec is None or spec.origin is None:
        raise UsageError("Triton is not installed; install it with 'pip install triton'")
    try:
        match = _VERSION_RE.search(Path(spec.origin).read_text(encoding="utf-8"))
    except OSError:
        match = None
    if match:
        return match.group(1)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("triton")
    except PackageNotFoundError:
        raise UsageError("Triton is not installed; install it with 'pip install triton'") from None


def _compile_env() -> dict[str, str]:
    return {
        k: v for k, v in sorted(os.environ.items())
        if k.startswith(_KEY_ENV_PREFIXES) and k not in _KEY_ENV_IGNORED
    }


def capture_key(name: str, payload: dict[str, Any], target: Target, config_index: int,
                version: str | None = None) -> str:
    """The content key of a capture: same inputs, same compiled IR, same key."""
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
        checksums: file name -> ``{"size": bytes, "sha256": hex digest}`` for every file in ``files``,
            written when the capture is committed; sizes are checked on every read, digests by
            ``irscope verify``.
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
    checksums: dict[str, dict[str, Any]] = field(default_factory=dict)
    format: int = FORMAT

    def config_text(self) -> str:
        """What tells this capture apart from the kernel's others: its config values, else its constexprs."""
        values = self.config or self.constexprs
        return ", ".join(f"{k}={v}" for k, v in values.items())

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        """Build from a manifest.json dict; unknown keys are ignored, missing ones fail."""
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})


def file_checksum(path: Path) -> dict[str, Any]:
    """``{"size": ..., "sha256": ...}`` of a file, read in chunks."""
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return {"size": size, "sha256": digest.hexdigest()}


@dataclass(frozen=True)
class Capture:
    """One stored compilation of one kernel, config and target.

    Attributes:
        path: its directory.
        manifest: what it holds.
    """

    path: Path
    manifest: Manifest

    def _damaged(self, name: str, why: str) -> DamagedCaptureError:
        return DamagedCaptureError(self.manifest.key, name, why)

    def _expected_size(self, name: str) -> int | None:
        entry = self.manifest.checksums.get(name)
        size = entry.get("size") if isinstance(entry, dict) else None
        return size if isinstance(size, int) else None

    def _check_file(self, name: str) -> Path:
        path = self.path / name
        if "/" in name or "\\" in name or name in ("", ".", ".."):
            raise self._damaged(name, "its manifest names a file outside the capture")
        try:
            size = path.stat().st_size
        except OSError:
            raise self._damaged(name, "it is missing") from None
        if not path.is_file():
            raise self._damaged(name, "it is not a file")
        expected = self._expected_size(name)
        if expected is not None and size != expected:
            raise self._damaged(name, f"it has {size} bytes, the manifest recorded {expected}")
        return path

    def stage_path(self, stage: Stage | str) -> Path:
        """The file holding a stage (its size checked), or an error when it has no such stage or is damaged."""
        st = get_stage(stage, self.manifest.backend) if isinstance(stage, str) else stage
        name = self.manifest.files.get(st.name)
        if name is None:
            raise StoreError(f"capture {self.manifest.key} has no {st.name} file")
        return self._check_file(name)

    def read(self, stage: Stage | str) -> str:
        """The text of a stage; raises DamagedCaptureError when its size differs from the manifest's."""
        path = self.stage_path(stage)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise self._damaged(path.name, f"it cannot be read ({exc.strerror or exc})") from None
        expected = self._expected_size(path.name)
        if expected is not None and len(data) != expected:
            raise self._damaged(path.name, f"it has {len(data)} bytes, the manifest recorded {expected}")
        return data.decode("utf-8", errors="replace")

    def damage(self) -> str | None:
        """Why this capture cannot be trusted (a file missing, or of another size than recorded), or None.

        Only sizes are compared (cheap enough for every lookup); ``verify_files`` also compares digests.
        """
        for name in sorted(set(self.manifest.files.values())):
            try:
                self._check_file(name)
            except DamagedCaptureError as exc:
                return exc.why_line()
        return None

    def verify_files(self) -> list[str]:
        """Every file whose size or sha256 differs from the manifest's, as one line each."""
        problems: list[str] = []
        if not self.manifest.checksums:
            return [f"{self.manifest.key}: no checksums recorded (made by an irscope before manifest format 2)"]
        for name in sorted(set(self.manifest.files.values())):
            try:
                path = self._check_file(name)
                expected = self.manifest.checksums.get(name)
                if not isinstance(expected, dict):
                    problems.append(f"{self.manifest.key}: {name} has no recorded checksum")
                    continue
                if file_checksum(path)["sha256"] != expected.get("sha256"):
                    problems.append(f"{self.manifest.key}: {name}: its sha256 differs from the manifest's")
            except DamagedCaptureError as exc:
                problems.append(f"{self.manifest.key}: {exc.why_line()}")
            except OSError as exc:
                problems.append(f"{self.manifest.key}: {name} cannot be read ({exc.strerror or exc})")
        return problems


class Store:
    """The directory of captures."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.captures_dir = root / "captures"
        self.staging_dir = root / "staging"

    def get(self, key: str) -> Capture | None:
        """The capture with this key, or None when absent or unreadable (then it is captured anew)."""
        path = self.captures_dir / key
        try:
            data = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
            manifest = Manifest.from_json(data)
        except (OSError, ValueError, TypeError):
            return None
        if manifest.format not in READABLE_FORMATS or manifest.key != key:
            return None
        return Capture(path=path, manifest=manifest)

    def captures(self) -> list[Capture]:
        """Every readable capture, oldest first (then by config and key, for captures made in the same second)."""
        if not self.captures_dir.is_dir():
            return []
        found = [c for p in self.captures_dir.iterdir() if (c := self.get(p.name)) is not None]
        return sorted(found, key=lambda c: (c.manifest.created, c.manifest.config_index, c.manifest.key))

    def find(self, name: str) -> list[Capture]:
        """Captures whose key is or starts with ``name``, or whose kernel/function is ``name``; oldest first."""
        exact = self.get(name) if "/" not in name and name not in (".", "..") else None
        if exact is not None:
            return [exact]
        return [c for c in self.captures()
                if c.manifest.key.startswith(name) or name in (c.manifest.kernel, c.manifest.function)]

    def new_staging(self, key: str) -> Path:
        """A fresh private directory to write a capture into."""
        self.staging_dir.mkdir(parents=True, exist_ok=True)
        self._sweep_stale_staging()
        path = self.staging_dir / f"{key}.{os.getpid()}.{os.urandom(4).hex()}"
        path.mkdir()
        return path

    def _sweep_stale_staging(self) -> None:
        """Remove staging directories left behind by killed captures."""
        now = time.time()
        for old in self.staging_dir.iterdir():
            try:
                if now - old.stat().st_mtime > _STALE_STAGING_SECONDS:
                    shutil.rmtree(old, ignore_errors=True)
            except FileNotFoundError:
                continue

    def commit(self, staging: Path, manifest: Manifest) -> Capture:
        """Write the manifest and move a finished staging directory into place, atomically.

        When another process committed the same key first, its capture wins and ours is dropped.
        """
        sums = {name: file_checksum(staging / name) for name in sorted(set(manifest.files.values()))}
        manifest = replace(manifest, checksums=sums, format=FORMAT)
        tmp = staging / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps(manifest.to_json(), indent=2, default=str), encoding="utf-8")
        os.replace(tmp, staging / MANIFEST)
        self.captures_dir.mkdir(parents=True, exist_ok=True)
        final = self.captures_dir / manifest.key
        existing = self.get(manifest.key) if final.exists() else None
        if final.exists() and (existing is None or existing.damage() is not None):
            # A damaged entry (not written by this irscope): move it aside, then replace it.
            shutil.rmtree(final.rename(self.staging_dir / f"broken.{manifest.key}.{os.getpid()}"))
        try:
            os.rename(staging, final)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
            winner = self.get(manifest.key)
            if winner is None:
                raise StoreError(f"could not store capture {manifest.key} in {self.captures_dir}") from None
            return winner
        return Capture(path=final, manifest=manifest)
