"""Triton's cache folders (``TRITON_CACHE_DIR``, ``~/.triton/cache``) and kernel dump folders (``TRITON_KERNEL_DUMP``
with ``TRITON_DUMP_DIR``) read as kernels.

Both hold one folder per compile. A cache entry has ``<name>.json`` (Triton's metadata: hash, target, num_warps,
num_stages, shared, triton_version) beside ``<name>.ttir``, ``.ttgir``, ``.llir``, ``.ptx`` and ``.cubin`` (NVIDIA)
or ``.amdgcn`` and ``.hsaco`` (AMD), ``<name>.source`` (the frontend's TTIR) and ``__grp__<name>.json``. A dump
folder has the stage files alone (and ``.sass``); its target and warps are read from the TTGIR's module
attributes. Folders of other things (the launcher's build, Inductor's files) are passed over and counted.
Only regular files are read, never through a link; sizes are bounded before anything is read.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from irscope.model.targets import target_for
from irscope.store.ingest.entry import SAFE_NAME, EntryRefused, KernelEntry, files_digest, metadata_target

_STAGE_EXTS = ("ttir", "ttgir", "llir", "ptx", "cubin", "amdgcn", "hsaco", "source", "sass", "json")
# Example: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90",
#          "ttg.threads-per-warp" = 32 : i32} {     (Triton 3.5+; older ones spelled it triton_gpu.)
_MODULE_INT = re.compile(r'"?(?:ttg|triton_gpu)\.(?P<key>num-warps|num-ctas|threads-per-warp)"?\s*=\s*(?P<v>\d+)')
_MODULE_TARGET = re.compile(r'"?(?:ttg|triton_gpu)\.target"?\s*=\s*"(?P<backend>cuda|hip):(?P<arch>[0-9a-z]+)"')


@dataclass(frozen=True)
class FolderLimits:
    """What reading a folder of compiles may take in.

    Attributes:
        max_entries: compile folders looked at.
        max_file_bytes: one file's size.
        max_bytes: all files read together.
    """

    max_entries: int = 20_000
    max_file_bytes: int = 512 * 1024**2
    max_bytes: int = 8 * 1024**3


def _regular_files(folder: Path) -> dict[str, int]:
    """The folder's regular files (not links, not folders) by name, with their sizes."""
    found: dict[str, int] = {}
    with os.scandir(folder) as it:
        for e in it:
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                found[e.name] = st.st_size
    return found


def _read(folder: Path, names: dict[str, int], limits: FolderLimits, budget: list[int]) -> dict[str, bytes]:
    """The named files' bytes, each opened without following a link and checked against the limits."""
    out: dict[str, bytes] = {}
    for name, size in sorted(names.items()):
        if size > limits.max_file_bytes:
            raise EntryRefused(f"{folder / name}: {size} bytes, more than --max-bytes allows for one file "
                               f"({limits.max_file_bytes})")
        if size > budget[0]:
            raise EntryRefused(f"{folder / name}: reading it would pass --max-bytes ({limits.max_bytes}) in all")
        fd = os.open(folder / name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as f:
            data = f.read(limits.max_file_bytes + 1)
        budget[0] -= len(data)
        out[name] = data
    return out


def _stage_files(folder: Path) -> dict[str, dict[str, int]]:
    """Kernel name -> its stage files in the folder (``__grp__`` lists and other files left out)."""
    by_kernel: dict[str, dict[str, int]] = {}
    for name, size in _regular_files(folder).items():
        stem, _, ext = name.rpartition(".")
        if ext in _STAGE_EXTS and stem and not stem.startswith("__grp__") and SAFE_NAME.match(name):
            by_kernel.setdefault(stem, {})[name] = size
    return by_kernel


def _metadata(data: bytes, where: str) -> dict[str, Any]:
    try:
        meta = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise EntryRefused(f"{where}: its metadata is not JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise EntryRefused(f"{where}: its metadata is not a JSON object")
    for k, want in (("name", str), ("hash", str), ("num_warps", int), ("num_stages", int)):
        if k in meta and not isinstance(meta[k], want):
            raise EntryRefused(f"{where}: its metadata's {k!r} is not {'a string' if want is str else 'an integer'}")
    return meta


def _from_ttgir(name: str, files: dict[str, bytes], where: str) -> dict[str, Any]:
    """A dump's metadata as its TTGIR module says it (target, num_warps, num_ctas, threads per warp)."""
    ttgir = files.get(f"{name}.ttgir", b"")[:1 << 20].decode("utf-8", errors="replace")
    head = next((line for line in ttgir.splitlines() if line.startswith("module")), "")
    target = _MODULE_TARGET.search(head)
    if target is None:
        raise EntryRefused(f"{where}: its TTGIR names no target (a module attribute ttg.target = \"cuda:90\")")
    ints = {m["key"]: int(m["v"]) for m in _MODULE_INT.finditer(head)}
    backend = target["backend"]
    arch: int | str = int(target["arch"]) if backend == "cuda" and target["arch"].isdigit() else target["arch"]
    warp = ints.get("threads-per-warp", 32 if backend == "cuda" else 64)
    meta: dict[str, Any] = {"name": name, "target": {"backend": backend, "arch": arch, "warp_size": warp}}
    if "num-warps" in ints:
        meta["num_warps"] = ints["num-warps"]
    if "num-ctas" in ints:
        meta["num_ctas"] = ints["num-ctas"]
    return meta


def _python_file(files: dict[str, bytes]) -> str:
    """The kernel's Python file as the TTIR's first location names it (``#loc = loc("/x/k.py":7:1)``)."""
    for name, data in files.items():
        if name.endswith(".ttir"):
            m = re.search(rb'^#loc\d* = loc\("(?P<f>[^"\n]{1,400})":\d+:\d+\)', data[:65536], re.M)
            if m:
                return m["f"].decode("utf-8", errors="replace")
    return ""


def folder_entries(folder: Path, limits: FolderLimits) -> tuple[list[KernelEntry], list[str], int]:
    """The kernels of a cache or dump folder (or of one compile's folder), the refusals (one line each) and how
    many folders held no kernel."""
    entries: list[KernelEntry] = []
    refused: list[str] = []
    skipped = 0
    budget = [limits.max_bytes]
    for sub in _compile_folders(folder, limits):
        try:
            by_kernel = _stage_files(sub)
        except OSError as exc:
            refused.append(f"{sub}: cannot be read ({exc.strerror or exc})")
            continue
        kernels = {k: v for k, v in by_kernel.items() if any(n.endswith((".ttir", ".ttgir")) for n in v)}
        if not kernels:
            skipped += 1
            continue
        for name, names in sorted(kernels.items()):
            where = str(sub if len(kernels) == 1 else sub / name)
            try:
                entries.append(_entry(sub, name, names, limits, budget, where))
            except EntryRefused as why:
                refused.append(str(why))
            except OSError as exc:
                refused.append(f"{where}: cannot be read ({exc.strerror or exc})")
    return entries, refused, skipped


def _compile_folders(folder: Path, limits: FolderLimits) -> Iterator[Path]:
    """The folder itself when it is one compile's, else its sub-folders (not through links), at most max_entries."""
    if any(n.endswith((".ttir", ".ttgir")) for n in _regular_files(folder)):
        yield folder
        return
    with os.scandir(folder) as it:
        subs = sorted(e.name for e in it if e.is_dir(follow_symlinks=False))
    for count, name in enumerate(subs, 1):
        if count > limits.max_entries:
            raise EntryRefused(f"{folder}: more than {limits.max_entries} folders; --max-members raises the bound")
        yield folder / name


def _entry(sub: Path, name: str, names: dict[str, int], limits: FolderLimits, budget: list[int],
           where: str) -> KernelEntry:
    files = _read(sub, names, limits, budget)
    meta_bytes = files.pop(f"{name}.json", None)
    if meta_bytes is not None:
        meta = _metadata(meta_bytes, where)
        origin = "cache"
        target = metadata_target(meta, where)
        found = meta.get("hash")
        digest = found if isinstance(found, str) and re.fullmatch(r"[0-9a-f]{20,128}", found) else files_digest(files)
        files[f"{name}.json"] = meta_bytes
    else:
        meta = _from_ttgir(name, files, where)
        origin = "dump"
        t = meta["target"]
        target = target_for(t["backend"], t["arch"], t["warp_size"])
        digest = files_digest(files)
    named = meta.get("name")
    kernel = named if isinstance(named, str) and named else name
    return KernelEntry(name=kernel, target=target, metadata=meta, files=files, origin=origin, where=where,
                       content_hash=digest, python_file=_python_file(files))
