"""A TritonParse trace (its structured logging's ``.ndjson``, plain or gzipped) read as kernels.

Each line is one JSON event. A ``compilation`` event's payload holds Triton's metadata (``metadata``: hash,
target, num_warps, num_stages, ``src_constants``), the stages' text (``file_content``: ``<name>.ttir``, ``.ttgir``,
``.llir``, ``.ptx`` or ``.amdgcn``, ``<name>.json``; binaries are not kept) and the kernel's Python
(``python_source``). A ``launch`` event (``enable_trace_launch``) names the compile by ``compilation_metadata.hash``
and gives the grid and each argument (a tensor's shape, dtype and bytes; a scalar's value): those become the
capture's recorded launches, as ``irscope capture`` records them. Lines are bounded in size and count; a line that
is not an event is refused by number, the rest is read.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from irscope.store.ingest.entry import SAFE_NAME, EntryRefused, KernelEntry, files_digest, metadata_target

_TEXT_EXTS = ("ttir", "ttgir", "llir", "ptx", "amdgcn", "json", "source")
_LAUNCHES_PER_KERNEL = 64  # as many launches as a capture keeps of one kernel


@dataclass(frozen=True)
class TraceLimits:
    """What reading one trace may take in.

    Attributes:
        max_line_bytes: one event line (a compile of a large kernel carries its LLVM IR: tens of MB).
        max_bytes: the trace as read (decompressed).
        max_events: lines.
    """

    max_line_bytes: int = 256 * 1024**2
    max_bytes: int = 8 * 1024**3
    max_events: int = 1_000_000


def is_trace(path: Path) -> bool:
    """Whether ``path`` is named as TritonParse names its traces (``*.ndjson``, ``*.ndjson.gz``)."""
    return path.name.endswith((".ndjson", ".ndjson.gz"))


def _open(path: Path) -> IO[bytes]:
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    opened: IO[bytes] = gzip.open(path, "rb") if gz else open(path, "rb")  # type: ignore[assignment]  # noqa: SIM115
    return opened


def _lines(path: Path, limits: TraceLimits, refused: list[str]) -> Any:
    total = 0
    with _open(path) as f:
        for number in range(1, limits.max_events + 2):
            if number > limits.max_events:
                refused.append(f"{path}: more than {limits.max_events} events; the rest was not read")
                return
            try:
                line = f.readline(limits.max_line_bytes + 1)
            except (OSError, EOFError, gzip.BadGzipFile) as exc:
                refused.append(f"{path}: line {number} cannot be read ({exc}); the rest was not read")
                return
            if not line:
                return
            total += len(line)
            if total > limits.max_bytes:
                refused.append(f"{path}: more than --max-bytes ({limits.max_bytes}) decompressed; the rest was not "
                               "read")
                return
            if len(line) > limits.max_line_bytes:
                refused.append(f"{path}: line {number} is longer than {limits.max_line_bytes} bytes; the rest was "
                               "not read")
                return
            yield number, line


def trace_entries(path: Path, limits: TraceLimits) -> tuple[list[KernelEntry], list[str], int]:
    """The compiled kernels of a trace, the refusals (one line each) and how many events were not compiles."""
    refused: list[str] = []
    entries: dict[str, KernelEntry] = {}
    launches: dict[str, list[dict[str, Any]]] = {}
    other = 0
    for number, line in _lines(path, limits, refused):
        where = f"{path}:{number}"
        try:
            event = json.loads(line)
        except ValueError:
            if line.strip():
                refused.append(f"{where}: not a JSON event")
            continue
        if not isinstance(event, dict):
            refused.append(f"{where}: not a JSON object")
            continue
        kind = event.get("event_type")
        try:
            if kind == "compilation":
                entry = _compilation(event, where)
                entries.setdefault(entry.content_hash, entry)
            elif kind == "launch":
                found = _launch(event)
                if found is not None:
                    launches.setdefault(found[0], []).append(found[1])
            else:
                other += 1
        except EntryRefused as why:
            refused.append(str(why))
    for digest, entry in entries.items():
        entry.launches = launches.get(digest, [])[:_LAUNCHES_PER_KERNEL]
    return list(entries.values()), refused, other


def _compilation(event: dict[str, Any], where: str) -> KernelEntry:
    payload = event.get("payload")
    if not isinstance(payload, dict) or not isinstance(payload.get("metadata"), dict):
        raise EntryRefused(f"{where}: a compilation event without a payload's metadata object")
    meta = dict(payload["metadata"])
    name = meta.get("name")
    if not isinstance(name, str) or not SAFE_NAME.match(name + ".ttir"):
        raise EntryRefused(f"{where}: the compilation names no kernel irscope can store ({str(name)[:80]!r})")
    target = metadata_target(meta, where)
    contents = payload.get("file_content")
    if not isinstance(contents, dict):
        raise EntryRefused(f"{where}: {name}'s compilation event holds no file_content object")
    files: dict[str, bytes] = {}
    for fname, text in contents.items():
        if not isinstance(fname, str) or not isinstance(text, str):
            raise EntryRefused(f"{where}: {name}'s file_content maps {str(fname)[:60]!r} to "
                               f"{type(text).__name__}, not a file name to text")
        if not SAFE_NAME.match(fname) or fname.rpartition(".")[2] not in _TEXT_EXTS:
            raise EntryRefused(f"{where}: {name}'s file_content names {fname[:80]!r}, not a stage file of Triton's "
                               "(a name with no path and one of ." + ", .".join(_TEXT_EXTS) + ")")
        files[fname] = text.encode("utf-8")
    digest = meta.get("hash")
    if not (isinstance(digest, str) and re.fullmatch(r"[0-9a-f]{20,128}", digest)):
        digest = files_digest(files)
    constants = meta.get("src_constants")
    constexprs = {str(k): v for k, v in constants.items() if isinstance(v, (bool, int, float, str))} \
        if isinstance(constants, dict) else {}
    source = payload.get("python_source")
    python_file = source.get("file_path", "") if isinstance(source, dict) else ""
    kept = {k: v for k, v in meta.items() if k not in ("env", "src_attrs", "src_constants", "times", "src_cache_key")}
    return KernelEntry(name=name, target=target, metadata=kept, files=files, origin="tritonparse", where=where,
                       content_hash=digest, constexprs=constexprs,
                       python_file=python_file if isinstance(python_file, str) else "")


def _launch(event: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """A launch event as (the compile's hash, the capture's launch record), or None when it says too little."""
    meta, grid, args = event.get("compilation_metadata"), event.get("grid"), event.get("extracted_args")
    if not isinstance(meta, dict) or not isinstance(meta.get("hash"), str) or not isinstance(args, dict):
        return None
    if not (isinstance(grid, list) and 1 <= len(grid) <= 3 and all(isinstance(g, int) and g > 0 for g in grid)):
        return None
    values: dict[str, int] = {}
    tensors: list[list[Any]] = []
    for name, info in args.items():
        if not isinstance(info, dict):
            continue
        if info.get("type") in ("int", "bool") and isinstance(info.get("value"), int):
            values[str(name)] = int(info["value"])
        elif info.get("type") == "tensor" and isinstance(info.get("memory_usage"), int):
            tensors.append([str(name), info["memory_usage"], "inout"])
    return meta["hash"], {"grid": [*grid, 1, 1][:3], "values": values, "tensors": tensors}
