"""One kernel found in a user's Triton artifacts, and the one way it becomes a capture in the store.

A Triton cache entry, a kernel dump folder and a TritonParse compilation event each give a kernel's name, its
target, Triton's metadata and its stage files; :func:`store_entry` turns any of them into a capture through
``new_manifest``, staged and committed whole (never half a capture), marked untrusted with where it came from.
Nothing read here is imported or executed.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from irscope.model.launch import LAUNCHES_FILE
from irscope.model.stages import STAGES
from irscope.model.targets import Target, target_for
from irscope.parse.ttir_signature import kernel_signature
from irscope.store.manifest import capture_key, new_manifest
from irscope.store.store import Capture, Store

# Triton's file extensions -> the capture's file keys (``.source``, the frontend's TTIR, is the recorded module
# irscope.compile.recorded_ir compiles again; ``.json`` is Triton's metadata)
_EXT_TO_KEY = {**{s.ext: s.name for s in STAGES if s.name != "source"}, "source": "recorded_ir", "json": "json"}
# A file name an artifact may carry into the capture: a kernel name and one of Triton's extensions, no path
SAFE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.$-]{0,199}$")
# where each kind of artifact comes from, in words (the manifest's ``origin``)
ORIGINS = {"cache": "a Triton cache folder", "dump": "a Triton kernel dump folder",
           "tritonparse": "a TritonParse trace"}


class EntryRefused(ValueError):
    """One kernel of the artifacts cannot be read: the message says which and why, in one line."""


@dataclass
class KernelEntry:
    """What the artifacts say of one compile.

    Attributes:
        name: the kernel's name.
        target: what it was compiled for.
        metadata: Triton's metadata of the compile (``<name>.json``), or what the IR says of it (dumps).
        files: file name in the capture -> its bytes (stage files, Triton's metadata).
        origin: ``cache``, ``dump`` or ``tritonparse``; ``where`` the folder or trace (and event) it came from.
        content_hash: Triton's hash of the compile, or (a dump has none) a sha256 of its files.
        constexprs: the constexpr values where the artifacts recorded them (TritonParse), else empty.
        launches: recorded launches in the capture's ``launches.json`` form, else empty.
        python_file: the kernel's Python file as the IR's locations name it (never read).
    """

    name: str
    target: Target
    metadata: dict[str, Any]
    files: dict[str, bytes]
    origin: str
    where: str
    content_hash: str
    constexprs: dict[str, Any] = field(default_factory=dict)
    launches: list[dict[str, Any]] = field(default_factory=list)
    python_file: str = ""

    @property
    def key(self) -> str:
        return capture_key(self.name, {}, self.target, 0, triton_hash=self.content_hash)


def metadata_target(metadata: Mapping[str, Any], where: str) -> Target:
    """The target Triton's metadata names (``{"backend": "cuda", "arch": 90, "warp_size": 32}``)."""
    found = metadata.get("target")
    if not isinstance(found, dict):
        raise EntryRefused(f"{where}: its metadata names no target (a 'target' object)")
    backend, arch, warp = found.get("backend"), found.get("arch"), found.get("warp_size")
    arch_ok = (backend == "cuda" and isinstance(arch, int) and not isinstance(arch, bool)) or \
        (backend == "hip" and isinstance(arch, str) and re.fullmatch(r"gfx[0-9a-f]{2,5}", arch) is not None)
    if not arch_ok or not isinstance(warp, int) or isinstance(warp, bool) or warp not in (32, 64):
        raise EntryRefused(f"{where}: its target {json.dumps(found)[:120]} is not one Triton writes "
                           "(backend 'cuda' with an integer arch, or 'hip' with a gfx name; warp_size 32 or 64)")
    return target_for(str(backend), arch if isinstance(arch, (int, str)) else str(arch), warp)


def files_digest(files: Mapping[str, bytes]) -> str:
    """A sha256 over the files' names and bytes (the key of a compile that has no Triton hash)."""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()


def _file_keys(entry: KernelEntry) -> dict[str, str]:
    keys: dict[str, str] = {}
    for fname in sorted(entry.files):
        ext = fname.rsplit(".", 1)[-1]
        key = _EXT_TO_KEY.get(ext, ext if ext in ("cubin", "hsaco") else None)
        if key is not None and key not in keys:
            keys[key] = fname
    return keys


def store_entry(store: Store, entry: KernelEntry) -> tuple[Capture, bool]:
    """The entry as a capture of the store (committed whole, untrusted) and whether it was added now."""
    key = entry.key
    present, _ = store.lookup(key)
    if present is not None:
        return present, False
    files = _file_keys(entry)
    if "ttir" not in files and "ttgir" not in files:
        raise EntryRefused(f"{entry.where}: holds neither TTIR nor TTGIR of {entry.name}")
    ttir = entry.files.get(files.get("ttir", ""), b"").decode("utf-8", errors="replace")
    found = kernel_signature(ttir, entry.name) if ttir else None
    args = found[1] if found is not None else []
    meta = entry.metadata
    staging = store.new_staging(key)
    try:
        for fname in files.values():
            (staging / fname).write_bytes(entry.files[fname])
        if entry.launches:
            (staging / LAUNCHES_FILE).write_text(json.dumps(entry.launches), encoding="utf-8")
            files["launches"] = LAUNCHES_FILE
        config = {k: meta[k] for k in ("num_warps", "num_stages", "num_ctas") if isinstance(meta.get(k), int)}
        manifest = new_manifest(
            key=key, kernel=entry.name, kernel_path=entry.python_file, function=entry.name, target=entry.target,
            config_index=0, config=config, triton_version=str(meta.get("triton_version", "") or ""),
            signature={a.name: a.type for a in args}, constexprs=entry.constexprs,
            attrs={a.name: [list(x) for x in a.attrs] for a in args if a.attrs},
            options={k: v for k, v in meta.items() if k not in ("target", "hash", "name") and _small_plain(v)},
            metadata=meta, compile_seconds=0.0, stage_seconds={}, files=files, origin=entry.origin,
            program=entry.where,
        )
        note = {"archive": entry.where, "sha256": entry.content_hash,
                "opened": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}
        return store.commit(staging, manifest, existing="keep", untrusted=note), True
    finally:
        store.discard(staging)


def _small_plain(value: Any) -> bool:
    """Whether a metadata value is small plain JSON (library paths and long lists stay in ``<name>.json``)."""
    return isinstance(value, (bool, int, float, str)) and len(str(value)) <= 200
