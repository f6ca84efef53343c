"""What a Triton user already has, opened as captures: Triton cache folders, kernel dump folders, TritonParse traces.

``irscope open PATH`` comes here when PATH is a folder or a TritonParse trace (archives are
``irscope.store.archive``'s). Every kernel found becomes one capture through ``store_entry``; a kernel that cannot
be read is refused in one line and the others are still added. Read-only and untrusted: nothing in the
artifacts is imported or executed, sizes and counts are bounded before reading.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from irscope.errors import UsageError
from irscope.store.ingest.entry import ORIGINS, EntryRefused, KernelEntry, store_entry
from irscope.store.ingest.folders import FolderLimits, folder_entries
from irscope.store.ingest.tritonparse_trace import TraceLimits, is_trace, trace_entries
from irscope.store.store import Capture, Store

__all__ = ["IngestReport", "is_artifact", "open_artifacts"]


@dataclass
class IngestReport:
    """What opening a user's artifacts did.

    Attributes:
        kind: ``cache``, ``dump``, ``tritonparse`` or ``mixed`` (a folder of cache and dump entries).
        added / already: captures written now / already in the store (the same compile's key).
        refused: one line per kernel, folder or line that could not be read.
        passed_over: folders or events that held no compile (the launcher's build, Inductor's files, other events).
    """

    kind: str
    added: list[Capture] = field(default_factory=list)
    already: list[Capture] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    passed_over: int = 0

    def described(self) -> str:
        return ORIGINS.get(self.kind, "a folder of Triton cache and dump entries")


def is_artifact(path: Path) -> bool:
    """Whether ``path`` is for this module (a folder or a TritonParse trace) rather than an irscope archive."""
    return path.is_dir() or is_trace(path)


def open_artifacts(path: Path, store: Store, max_bytes: int, max_members: int) -> IngestReport:
    """Add every kernel of a cache folder, dump folder or TritonParse trace to the store."""
    if path.is_symlink() and path.is_dir():
        path = path.resolve()
    if path.is_dir():
        try:
            entries, refused, skipped = folder_entries(path, FolderLimits(max_entries=max_members,
                                                                          max_file_bytes=min(max_bytes, 512 << 20),
                                                                          max_bytes=max_bytes))
        except EntryRefused as why:
            raise UsageError(str(why)) from None
        except OSError as exc:
            raise UsageError(f"{path} cannot be read: {exc.strerror or exc}") from None
    elif path.is_file():
        try:
            entries, refused, skipped = trace_entries(path, TraceLimits(max_bytes=max_bytes))
        except OSError as exc:
            raise UsageError(f"{path} cannot be read: {exc.strerror or exc}") from None
    else:
        raise UsageError(f"{path} does not exist")
    kinds = {e.origin for e in entries}
    report = IngestReport(kind=kinds.pop() if len(kinds) == 1 else ("mixed" if kinds else _kind_named(path)),
                          refused=refused, passed_over=skipped)
    if not entries and not refused:
        what = "TritonParse compilation events" if path.is_file() else \
            "compile folders (<name>.ttir, .ttgir, ... with <name>.json in a Triton cache)"
        raise UsageError(f"{path} holds no kernels: found no {what}")
    _store_all(entries, store, report)
    return report


def _kind_named(path: Path) -> str:
    return "tritonparse" if path.is_file() else "cache"


def _store_all(entries: list[KernelEntry], store: Store, report: IngestReport) -> None:
    seen: set[str] = set()
    for entry in entries:
        if entry.key in seen:
            continue
        seen.add(entry.key)
        try:
            capture, added = store_entry(store, entry)
        except EntryRefused as why:
            report.refused.append(str(why))
            continue
        (report.added if added else report.already).append(capture)
