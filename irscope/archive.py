"""Portable captures: ``irscope export`` writes captures to a .tar.gz, ``irscope open`` reads one back.

Opening never executes anything from the archive and refuses any member that is not a plain file
or folder under ``captures/<key>/`` (absolute paths, ``..``, links, devices), before writing a
single byte into the store.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

from irscope.errors import UsageError
from irscope.store import MANIFEST, Capture, Manifest, Store

# Example: captures/matmul-sm90-c0-6e2b0226839ff92ca38a/matmul_kernel.ttgir
_MEMBER_RE = re.compile(r"^captures/(?P<key>[A-Za-z0-9_.+-]+)(?:/(?P<file>[A-Za-z0-9_.+-]+))?/?$")
_MAX_MEMBER_BYTES = 512 * 1024 * 1024


@dataclass(frozen=True)
class OpenReport:
    """What ``irscope open`` did.

    Attributes:
        added: captures now in the store.
        already: keys that the store had already.
    """

    added: list[Capture]
    already: list[str]


def select(store: Store, selection: list[str], everything: bool = False) -> list[Capture]:
    """The captures named by keys, key prefixes or kernel names (all with ``everything``)."""
    if everything:
        found = store.captures()
        if not found:
            raise UsageError(f"the store {store.root} holds no captures")
        return found
    if not selection:
        raise UsageError("name what to export (a kernel name or capture key), or use --all")
    chosen: dict[str, Capture] = {}
    for item in selection:
        matches = store.find(item)
        if not matches:
            raise UsageError(f"no capture matches {item!r}; 'irscope list' shows the captures in {store.root}")
        chosen.update({c.manifest.key: c for c in matches})
    return list(chosen.values())


def export(captures: list[Capture], out: Path) -> int:
    """Write the captures into a gzipped tar; return the number of files written."""
    count = 0
    tmp = out.with_name(out.name + ".tmp")
    with tarfile.open(tmp, "w:gz") as tar:
        for cap in captures:
            for path in sorted(cap.path.iterdir()):
                if path.is_file() and not path.is_symlink():
                    info = tar.gettarinfo(str(path), arcname=f"captures/{cap.manifest.key}/{path.name}")
                    info.uid = info.gid = 0
                    info.uname = info.gname = ""
                    info.mode = 0o644
                    with path.open("rb") as fh:
                        tar.addfile(info, fh)
                    count += 1
    tmp.replace(out)
    return count


def _check_members(tar: tarfile.TarFile, source: Path) -> dict[str, list[tarfile.TarInfo]]:
    """Validate every member; group the files by capture key."""
    groups: dict[str, list[tarfile.TarInfo]] = {}
    for member in tar.getmembers():
        name = member.name
        match = _MEMBER_RE.match(name)
        if name.startswith("/") or ".." in Path(name).parts or match is None:
            raise UsageError(f"{source}: refusing member {name!r}: only captures/<key>/<file> paths may be opened")
        if not (member.isfile() or member.isdir()):
            raise UsageError(f"{source}: refusing member {name!r}: links and special files are not allowed")
        if member.isfile():
            if match.group("file") is None:
                raise UsageError(f"{source}: refusing member {name!r}: a file directly under captures/")
            if member.size > _MAX_MEMBER_BYTES:
                raise UsageError(f"{source}: refusing member {name!r}: {member.size} bytes is too large")
            groups.setdefault(match.group("key"), []).append(member)
    if not groups:
        raise UsageError(f"{source} holds no captures (expected captures/<key>/manifest.json members)")
    return groups


def open_archive(source: Path, store: Store) -> OpenReport:
    """Add the captures of an archive written by ``export`` to the store."""
    if not source.is_file():
        raise UsageError(f"{source} does not exist")
    try:
        tar = tarfile.open(source, "r:*")  # noqa: SIM115 -- closed by the with block below
    except (tarfile.TarError, OSError) as exc:
        raise UsageError(f"{source} is not a capture archive (.tar.gz): {exc}") from None
    added: list[Capture] = []
    already: list[str] = []
    with tar:
        groups = _check_members(tar, source)
        for key, members in groups.items():
            blobs: dict[str, bytes] = {}
            for member in members:
                handle = tar.extractfile(member)
                if handle is None:
                    raise UsageError(f"{source}: cannot read member {member.name!r}")
                blobs[Path(member.name).name] = handle.read()
            if MANIFEST not in blobs:
                raise UsageError(f"{source}: capture {key} has no {MANIFEST}")
            try:
                manifest = Manifest.from_json(json.loads(blobs[MANIFEST].decode("utf-8")))
            except (ValueError, TypeError, UnicodeDecodeError) as exc:
                raise UsageError(f"{source}: capture {key} has an unreadable {MANIFEST}: {exc}") from None
            if manifest.key != key or not set(manifest.files.values()) <= set(blobs):
                raise UsageError(f"{source}: capture {key} is inconsistent (manifest key or files do not match)")
            for name, expected in manifest.checksums.items():
                blob = blobs.get(name)
                if blob is None or not isinstance(expected, dict):
                    continue
                if len(blob) != expected.get("size") or hashlib.sha256(blob).hexdigest() != expected.get("sha256"):
                    raise UsageError(f"{source}: capture {key} is damaged: {name} differs from the size and sha256 "
                                     "its manifest recorded")
            if store.get(key) is not None:
                already.append(key)
                continue
            staging = store.new_staging(key)
            try:
                for name, data in blobs.items():
                    if name != MANIFEST:
                        (staging / name).write_bytes(data)
                added.append(store.commit(staging, manifest))
            finally:
                shutil.rmtree(staging, ignore_errors=True)
    return OpenReport(added=added, already=already)


def build_member(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    """Add one in-memory file (used by tests to build archives)."""
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = int(time.time())
    tar.addfile(info, io.BytesIO(data))
