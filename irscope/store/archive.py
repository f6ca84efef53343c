"""Portable captures: ``irscope export`` writes captures to a .tar.gz, ``irscope open`` reads one back.

An archive is someone else's file. Opening it reads it twice, as a stream, never seeking: the
first pass checks every member (a plain file or folder under ``captures/<key>/`` with a key as
irscope writes them, or a program record ``programs/<id>/program.json``), the caps on size, member
count and compression ratio, each manifest's fields, each file's size and sha256, and each program
record's fields, and writes nothing; the second pass writes each new capture into a staging
directory and renames it into place, then each new program record (what ``report`` reads).
Nothing already in the store is removed or replaced unless asked (``replace``), and opened captures
are marked untrusted in the store (outside the capture), so their Python is never imported until the
user trusts them.
"""

from __future__ import annotations

import datetime as _dt
import gzip
import hashlib
import io
import json
import re
import tarfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from irscope.errors import StoreError, UsageError
from irscope.model.program_record import ProgramRecord
from irscope.store.manifest_fields import FILE_NAME_RE, KEY_RE
from irscope.store.programs import PROGRAM_FILE, list_programs, write_program
from irscope.store.store import MANIFEST, Capture, CommitMode, Manifest, Store, file_checksum

_MAX_MANIFEST_BYTES = 4 * 1024 * 1024
_CHUNK = 1 << 20
_GZIP_MAGIC = b"\x1f\x8b"
# Ratios are only judged past this much output: tar headers of a few tiny files compress very well.
_RATIO_FLOOR = 16 * 1024 * 1024
_MAX_PROGRAM_BYTES = 16 * 1024 * 1024  # a program record lists graphs and kernels: a few hundred KB for a big model
_PROGRAM_ID_RE = re.compile(r"^prog-[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$")
_PROGRAM = "program:"  # the key _members gives a program record's member: this prefix and the record's id


class ArchiveError(StoreError):
    """An archive is damaged, or holds something ``irscope open`` refuses; nothing was written."""


@dataclass(frozen=True)
class Limits:
    """What opening one archive may unpack.

    Attributes:
        max_bytes: total size of its files, uncompressed (real captures: a few MB each; per-pass
            dumps are stored compressed).
        max_members: number of members (a capture has about ten files).
        max_ratio: uncompressed bytes per compressed byte (IR text compresses about 5-10x).
    """

    max_bytes: int = 2 * 1024**3
    max_members: int = 20_000
    max_ratio: int = 100


@dataclass(frozen=True)
class OpenReport:
    """What ``irscope open`` did.

    Attributes:
        added: captures now in the store.
        already: keys that the store had already (left as they were).
        unreadable: keys the store has but cannot read, left as they were (``--replace KEY`` replaces one).
        trusted: whether the added captures were trusted on opening.
        programs: the program records added (ids), each naming the captures of one ``irscope capture`` run.
        programs_already: the program records the store had already (left as they were).
    """

    added: list[Capture]
    already: list[str]
    unreadable: list[str] = field(default_factory=list)
    trusted: bool = False
    programs: list[str] = field(default_factory=list)
    programs_already: list[str] = field(default_factory=list)


@dataclass
class _Planned:
    """One capture of the archive, checked: its manifest and each file's size and sha256."""

    key: str
    manifest: Manifest | None = None
    files: dict[str, tuple[int, str]] = field(default_factory=dict)
    manifest_blob: bytes = b""


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


@dataclass(frozen=True)
class Exported:
    """What ``export`` wrote: the number of files, and each file it left out (``KEY/NAME: why``)."""

    files: int
    skipped: tuple[str, ...] = ()
    damaged: tuple[str, ...] = ()  # files written as they are, though the manifest or a dump index says otherwise


def _unexportable(path: Path) -> str:
    """Why a file of a capture's directory cannot go into an archive (``open`` would refuse it), or ``""``."""
    if path.name.startswith(".") and path.name.endswith(".tmp"):
        return "a partial file, left by a write that was interrupted"
    if path.is_symlink():
        return "a link"
    if not path.is_file():
        return "not a plain file"
    if not FILE_NAME_RE.match(path.name):
        return "a name an archive cannot carry"
    return ""


_DERIVED = "derived"  # irscope.toolchain.derived's folder (the store reaches no toolchain code)


def export(captures: list[Capture], out: Path, programs: tuple[Path, ...] = ()) -> Exported:
    """Write the captures, and the program records at ``programs`` (``programs/<id>/program.json`` files), into a
    gzipped tar; the number of files written and those left out, with why."""
    from irscope.store.passdump import dump_problems

    count = 0
    skipped: list[str] = []
    damaged: list[str] = []
    tmp = out.with_name(out.name + ".tmp")
    with tarfile.open(tmp, "w:gz") as tar:
        for record in programs:
            build_member(tar, f"programs/{record.parent.name}/{PROGRAM_FILE}", record.read_bytes())
            count += 1
        for cap in captures:
            damaged += [p.removeprefix(f"{cap.manifest.key}: ") for p in cap.verify_files()
                        if "no checksums recorded" not in p]
            damaged += [f"{cap.manifest.key}/{p}" for p in dump_problems(cap.path)]
            for path in sorted(cap.path.iterdir()):
                if path.name == _DERIVED and path.is_dir() and not path.is_symlink():
                    continue  # what irscope made from the capture's files (its SASS, tool reports): made again
                if why := _unexportable(path):
                    skipped.append(f"{cap.manifest.key}/{path.name}: {why}")
                    continue
                try:
                    fh = path.open("rb")
                except OSError as exc:
                    skipped.append(f"{cap.manifest.key}/{path.name}: it cannot be read ({exc.strerror or exc})")
                    continue
                with fh:
                    info = tar.gettarinfo(fileobj=fh, arcname=f"captures/{cap.manifest.key}/{path.name}")
                    info.uid = info.gid = 0
                    info.uname = info.gname = ""
                    info.mode = 0o644
                    tar.addfile(info, fh)
                count += 1
    tmp.replace(out)
    return Exported(count, tuple(skipped), tuple(damaged))


class _Capped(io.RawIOBase):
    """The decompressed archive as a stream that stops once it passes the caps."""

    def __init__(self, source: Path, raw: IO[bytes], limits: Limits) -> None:
        self.source = source
        self.limits = limits
        self.compressed = max(1, source.stat().st_size)
        magic = raw.read(2)
        raw.seek(0)
        self.inner: IO[bytes] | gzip.GzipFile = gzip.GzipFile(fileobj=raw) if magic == _GZIP_MAGIC else raw
        # Headers and padding: at most about 1.5 KiB a member beyond its data.
        self.budget = limits.max_bytes + 1536 * (limits.max_members + 4)
        self.seen = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.inner.read(len(buffer))
        self.seen += len(data)
        if self.seen > self.budget:
            raise ArchiveError(f"{self.source}: refused: it unpacks to more than {self.limits.max_bytes} bytes "
                               "(--max-bytes raises the cap)")
        if self.seen > _RATIO_FLOOR and self.seen > self.limits.max_ratio * self.compressed:
            raise ArchiveError(f"{self.source}: refused: it unpacks to more than {self.limits.max_ratio} times its "
                               f"size of {self.compressed} bytes, as a compression bomb does (--max-ratio raises "
                               "the cap)")
        buffer[:len(data)] = data
        return len(data)


def _members(source: Path, limits: Limits) -> Iterator[tuple[tarfile.TarFile, tarfile.TarInfo, str, str]]:
    """Each member with its capture key and file name ('' for a folder), checked; the archive is streamed. A program
    record's member has the key ``program:<id>``."""
    try:
        raw = source.open("rb")
    except OSError as exc:
        raise ArchiveError(f"{source}: cannot be read ({exc.strerror or exc})") from None
    count = 0
    declared = 0
    try:
        capped = _Capped(source, raw, limits)
        with raw, tarfile.open(fileobj=capped, mode="r|") as tar:
            for member in tar:
                count += 1
                if count > limits.max_members:
                    raise ArchiveError(f"{source}: refused: more than {limits.max_members} members "
                                       "(--max-members raises the cap)")
                key, name = _check_member(source, member)
                declared += member.size if member.isfile() else 0
                if member.size > limits.max_bytes or declared > limits.max_bytes:
                    raise ArchiveError(f"{source}: refused: member {member.name!r} claims {member.size} bytes, past "
                                       f"the cap of {limits.max_bytes} bytes in all (--max-bytes raises it)")
                yield tar, member, key, name
            while capped.read(_CHUNK):  # the rest, so a cut-short or damaged gzip is noticed
                pass
    except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise ArchiveError(f"{source}: not a readable capture archive (.tar.gz): {_why(exc)}") from None
    except OSError as exc:
        raise ArchiveError(f"{source}: cannot be read ({exc.strerror or exc})") from None


def _why(exc: BaseException) -> str:
    if isinstance(exc, EOFError):
        return "it is cut short"
    return str(exc) or type(exc).__name__


def _check_member(source: Path, member: tarfile.TarInfo) -> tuple[str, str]:
    """A member's capture key and file name, or ArchiveError saying why it is refused."""
    parts = member.name.split("/")
    if parts and parts[-1] == "" and member.isdir():
        parts = parts[:-1]
    refuse = f"{source}: refusing member {member.name!r}"
    if not (member.isfile() or member.isdir()):
        raise ArchiveError(f"{refuse}: links and special files are not allowed")
    if parts in (["captures"], ["programs"]) and member.isdir():
        return "", ""
    if parts[:1] == ["programs"]:
        return _check_program_member(refuse, member, parts)
    if len(parts) not in (2, 3) or parts[0] != "captures":
        raise ArchiveError(f"{refuse}: only captures/<key>/<file> and programs/<id>/{PROGRAM_FILE} paths may be "
                           "opened")
    key = parts[1]
    if not KEY_RE.match(key):
        raise ArchiveError(f"{refuse}: {key!r} is not a capture key as irscope writes them "
                           "(KERNEL-TARGET-cN-<20 hex digits>)")
    name = parts[2] if len(parts) == 3 else ""
    if member.isfile() and not name:
        raise ArchiveError(f"{refuse}: a file where a capture folder belongs")
    if name and not FILE_NAME_RE.match(name):
        raise ArchiveError(f"{refuse}: {name!r} is not a plain file name")
    if member.isdir() and name:
        raise ArchiveError(f"{refuse}: folders inside a capture are not allowed")
    return key, name


def _check_program_member(refuse: str, member: tarfile.TarInfo, parts: list[str]) -> tuple[str, str]:
    if not _PROGRAM_ID_RE.match(parts[1] if len(parts) > 1 else ""):
        raise ArchiveError(f"{refuse}: {parts[1] if len(parts) > 1 else ''!r} is not a program id as irscope "
                           "writes them (prog-YYYYMMDD-HHMMSS-<6 hex digits>)")
    if len(parts) == 2 and member.isdir():
        return "", ""
    if len(parts) != 3 or parts[2] != PROGRAM_FILE or not member.isfile():
        raise ArchiveError(f"{refuse}: a program's folder holds one file, {PROGRAM_FILE}")
    if member.size > _MAX_PROGRAM_BYTES:
        raise ArchiveError(f"{refuse}: {member.size} bytes; a program record is at most {_MAX_PROGRAM_BYTES >> 20} "
                           "MiB")
    return _PROGRAM + parts[1], PROGRAM_FILE


def _program(source: Path, pid: str, blob: bytes) -> ProgramRecord:
    """A program record of the archive, checked: JSON of its format, under its own id."""
    try:
        record = ProgramRecord.from_json(json.loads(blob.decode("utf-8")))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ArchiveError(f"{source}: program {pid}: {PROGRAM_FILE} is not a program record ({exc})") from None
    if record.id != pid:
        raise ArchiveError(f"{source}: program {pid}: its {PROGRAM_FILE} names the id {record.id!r}")
    return record


def _read_member(source: Path, tar: tarfile.TarFile, member: tarfile.TarInfo) -> Iterator[bytes]:
    """A member's data in chunks; a damaged or cut-short archive is an ArchiveError."""
    try:
        handle = tar.extractfile(member)
        if handle is None:
            return
        while chunk := handle.read(_CHUNK):
            yield chunk
    except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise ArchiveError(f"{source}: not a readable capture archive (.tar.gz): {_why(exc)}") from None
    except OSError as exc:
        raise ArchiveError(f"{source}: cannot be read ({exc.strerror or exc})") from None


def _plan(source: Path, limits: Limits) -> tuple[dict[str, _Planned], dict[str, ProgramRecord]]:
    """First pass: check everything, write nothing."""
    plans: dict[str, _Planned] = {}
    programs: dict[str, ProgramRecord] = {}
    for tar, member, key, name in _members(source, limits):
        if not key or not member.isfile():
            continue
        if key.startswith(_PROGRAM):
            pid = key.removeprefix(_PROGRAM)
            if pid in programs:
                raise ArchiveError(f"{source}: refusing member {member.name!r}: it appears twice")
            programs[pid] = _program(source, pid, b"".join(_read_member(source, tar, member)))
            continue
        plan = plans.setdefault(key, _Planned(key))
        if name in plan.files:
            raise ArchiveError(f"{source}: refusing member {member.name!r}: it appears twice")
        if name == MANIFEST and member.size > _MAX_MANIFEST_BYTES:
            raise ArchiveError(f"{source}: capture {key}: {MANIFEST} has {member.size} bytes; a manifest is a few KB")
        digest = hashlib.sha256()
        size = 0
        blob = bytearray()
        for chunk in _read_member(source, tar, member):
            digest.update(chunk)
            size += len(chunk)
            if name == MANIFEST:
                blob += chunk
        plan.files[name] = (size, digest.hexdigest())
        if name == MANIFEST:
            plan.manifest_blob = bytes(blob)
    if not plans:
        raise ArchiveError(f"{source} holds no captures (expected captures/<key>/manifest.json members)")
    for plan in plans.values():
        plan.manifest = _manifest(source, plan)
    return plans, programs


def _manifest(source: Path, plan: _Planned) -> Manifest:
    """A capture's manifest, checked against its key and files."""
    key = plan.key
    if MANIFEST not in plan.files:
        raise ArchiveError(f"{source}: capture {key} has no {MANIFEST}")
    try:
        manifest = Manifest.from_json(json.loads(plan.manifest_blob.decode("utf-8")))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ArchiveError(f"{source}: capture {key}: {MANIFEST} is not valid JSON ({exc})") from None
    except StoreError as exc:
        raise ArchiveError(f"{source}: capture {key}: {exc}") from None
    if manifest.key != key:
        raise ArchiveError(f"{source}: capture {key}: its {MANIFEST} names the key {manifest.key!r}")
    missing = sorted(set(manifest.files.values()) - set(plan.files))
    if missing:
        raise ArchiveError(f"{source}: capture {key}: its {MANIFEST} names {missing[0]}, which the archive lacks")
    for name, expected in manifest.checksums.items():
        got = plan.files.get(name)
        if got is not None and (got[0] != expected["size"] or got[1] != expected["sha256"]):
            raise ArchiveError(f"{source}: capture {key} is damaged: {name} differs from the size and sha256 "
                               "its manifest recorded")
    return manifest


def open_archive(source: Path, store: Store, limits: Limits | None = None, replace: tuple[str, ...] = (),
                 trust: bool = False) -> OpenReport:
    """Add the captures of an archive written by ``export`` to the store; only new keys are written.

    ``replace`` names keys whose capture in the store is replaced by the archive's; ``trust``
    lets irscope import the added captures' Python (otherwise ``irscope trust`` must be run).
    """
    limits = limits or Limits()
    if not source.is_file():
        raise UsageError(f"{source} does not exist or is not a file")
    plans, programs = _plan(source, limits)
    unknown = sorted(set(replace) - set(plans))
    if unknown:
        raise UsageError(f"--replace {unknown[0]}: {source} holds no capture with that key")
    report = OpenReport(added=[], already=[], trusted=trust)
    wanted: dict[str, _Planned] = {}
    for key, plan in plans.items():
        present, why = store.lookup(key)
        if key in replace or (present is None and not why):
            wanted[key] = plan
        elif why:
            report.unreadable.append(key)
        else:
            report.already.append(key)
    if not wanted:
        _add_programs(store, programs, report)
        return report
    note = None if trust else {
        "archive": str(source.resolve()), "sha256": file_checksum(source)["sha256"],
        "opened": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }
    staged = _stage(source, store, limits, wanted)
    try:
        for key, staging in staged.items():
            manifest = wanted[key].manifest
            assert manifest is not None
            mode: CommitMode = "replace" if key in replace else "keep"
            report.added.append(store.commit(staging, manifest, existing=mode, untrusted=note))
    finally:
        for staging in staged.values():
            store.discard(staging)
    _add_programs(store, programs, report)
    return report


def _add_programs(store: Store, programs: dict[str, ProgramRecord], report: OpenReport) -> None:
    """Write the archive's program records the store lacks (after their captures, so a record never names a
    capture the open did not add)."""
    have = set(list_programs(store.root))
    for pid, record in programs.items():
        if pid in have:
            report.programs_already.append(pid)
        else:
            write_program(store.root, record)
            report.programs.append(pid)


def _stage(source: Path, store: Store, limits: Limits, wanted: dict[str, _Planned]) -> dict[str, Path]:
    """Second pass: write each wanted capture's files into a staging directory, checked against the first pass."""
    staged: dict[str, Path] = {}
    try:
        for key in wanted:
            staged[key] = store.new_staging(key)
        for tar, member, key, name in _members(source, limits):
            if key not in wanted or not member.isfile() or name == MANIFEST:  # a program's key is never wanted
                continue
            digest = hashlib.sha256()
            size = 0
            try:
                with (staged[key] / name).open("wb") as out:
                    for chunk in _read_member(source, tar, member):
                        digest.update(chunk)
                        size += len(chunk)
                        out.write(chunk)
            except OSError as exc:
                raise StoreError(f"cannot write {staged[key] / name}: {exc.strerror or exc}") from None
            if wanted[key].files.get(name) != (size, digest.hexdigest()):
                raise ArchiveError(f"{source}: changed while it was being opened ({member.name}); nothing was added")
    except BaseException:
        for staging in staged.values():
            store.discard(staging)
        raise
    return staged


def trust_archive(source: Path, store: Store) -> list[str]:
    """Trust every capture that was opened from this archive (same sha256); return their keys."""
    digest = file_checksum(source)["sha256"]
    keys = [key for key, note in store.untrusted_keys().items() if note.get("sha256") == digest]
    for key in keys:
        store.trust(key)
    return keys


def build_member(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    """Add one in-memory file (used by tests to build archives)."""
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = int(time.time())
    tar.addfile(info, io.BytesIO(data))
