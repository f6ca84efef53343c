"""Captures on disk: one directory per capture, keyed by content, written atomically.

Layout under the store root (``--store``, ``IRSCOPE_HOME`` or the user cache dir)::

    captures/<key>/manifest.json     what was compiled, how, and which file holds each stage
    captures/<key>/<kernel>.<ext>    every artifact Triton wrote (ttir, ttgir, llir, ptx, cubin, sass, ...)
    staging/<key>.<pid>.<rand>/      a capture being written; renamed into captures/ when complete
    locks/                           file locks (irscope.store.locks): per-pass compiles, live staging directories
    untrusted/<key>                  a capture opened from an archive: its Python is not imported until trusted
    crash/                           tracebacks of internal errors (irscope.cli.crash)
    teardown.log                     what Triton printed while a command's interpreter shut down (irscope.cli.teardown)

Reading the store never imports Triton or torch, and never runs a subprocess: what a tool makes from a
capture's files (its SASS from the cubin, ptxas and nvdisasm reports) is made by irscope.toolchain and
cached in the capture's ``derived/``.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import irscope.store.locks as locks
from irscope.errors import DamagedCaptureError, StoreError, UsageError
from irscope.model.stages import Stage, get_stage, made_from
from irscope.store.manifest import FORMAT, MANIFEST, READABLE_FORMATS, Manifest
from irscope.store.manifest import capture_key as capture_key
from irscope.store.manifest_fields import KEY_RE
from irscope.toolchain.tritons import local_triton_version as local_triton_version
from irscope.toolchain.tritons import triton_version as triton_version

_STALE_STAGING_SECONDS = 3600
_FRESH_LOCK_SECONDS = 60  # a staging lock file this young may be one another process is taking now
# A manifest is a few kilobytes; a larger one is not read.
_MAX_MANIFEST_BYTES = 4 * 1024 * 1024


def file_checksum(path: Path) -> dict[str, Any]:
    """``{"size": ..., "sha256": ...}`` of a file, read in chunks."""
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return {"size": size, "sha256": digest.hexdigest()}


class DerivedStageError(StoreError):
    """A stage the capture keeps no file of, which the toolchain makes from another of its files (SASS from the cubin).

    The store reads files only; such a stage is read with irscope.toolchain.stages.read_stage.
    """

    def __init__(self, key: str, stage: str, source: str) -> None:
        self.key, self.stage, self.source = key, stage, source
        super().__init__(f"capture {key} keeps no {stage} file: its {stage} is made from its {source} by the "
                         "toolchain (irscope.toolchain.stages.read_stage), not read from the store")


@dataclass(frozen=True)
class Capture:
    """One stored compilation of one kernel, config and target: its files, read and checked, never run through a tool.

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

    def artifact_path(self, name: str) -> Path:
        """The file holding an artifact (a stage, the cubin, ...), its size checked; StoreError when there is none."""
        file = self.manifest.files.get(name)
        if file is None:
            first = {"ttir": ("glir", "a Gluon kernel's first IR is its glir"),
                     "glir": ("ttir", "only a Gluon kernel (@gluon.jit) has a glir; this one's first IR is its ttir")}
            other, why = first.get(name, ("", ""))
            hint = f"; {why} (--stage {other})" if other in self.manifest.files else ""
            raise StoreError(f"capture {self.manifest.key} has no {name} file{hint}")
        return self._check_file(file)

    def _stored(self, stage: Stage | str) -> Stage:
        """The stage, refused when the capture keeps no file of it but the toolchain makes it from another."""
        st = get_stage(stage, self.manifest.backend) if isinstance(stage, str) else stage
        source = made_from(st.name, self.manifest.backend, self.manifest.files)
        if source:
            raise DerivedStageError(self.manifest.key, st.name, source)
        return st

    def stage_path(self, stage: Stage | str) -> Path:
        """The file holding a stage (its size checked), or an error when it has no such stage or is damaged.

        A stage the capture keeps no file of (SASS made from the cubin) raises DerivedStageError.
        """
        return self.artifact_path(self._stored(stage).name)

    def read(self, stage: Stage | str) -> str:
        """The text of a stage the capture keeps a file of; DamagedCaptureError when its size is not the recorded one.

        Files only: a stage made from another file (an NVIDIA capture's SASS, from its cubin) raises
        DerivedStageError; irscope.toolchain.stages.read_stage reads every stage, that one included.
        """
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
        """Why this capture is damaged (a file missing, or of another size than recorded), or None.

        Only sizes are compared (cheap enough for every lookup); ``verify_files`` also compares digests.
        """
        for name in sorted(set(self.manifest.files.values())):
            try:
                self._check_file(name)
            except DamagedCaptureError as exc:
                return exc.why_line()
        return None

    def missing_files(self) -> list[str]:
        """The manifest's files that are not in the capture's folder (a stat each: cheap enough for ``list``)."""
        return [name for name in sorted(set(self.manifest.files.values())) if not (self.path / name).is_file()]

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


def _remove(path: Path) -> None:
    """Remove a file or a directory tree."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def store_error(root: Path, exc: OSError, doing: str) -> StoreError:
    """The one-line StoreError for a failed write into the store; a read-only store is named as such."""
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return StoreError(f"the store is read-only: use --store DIR ({root} cannot be written: {doing})")
    where = f"{exc.filename}: " if exc.filename else ""
    return StoreError(f"cannot write the store at {root} ({doing}): {where}{exc.strerror or exc}")


CommitMode = Literal["heal", "keep", "replace"]


class Store:
    """The directory of captures."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.captures_dir = root / "captures"
        self.staging_dir = root / "staging"
        self.locks_dir = root / "locks"
        self.untrusted_dir = root / "untrusted"

    def lookup(self, key: str) -> tuple[Capture | None, str]:
        """``(capture, "")``; ``(None, "")`` when there is no such capture; ``(None, why)`` when it cannot be read."""
        if not key or "/" in key or "\\" in key or key in (".", "..") or not KEY_RE.match(key):
            return None, ""
        path = self.captures_dir / key
        try:
            if not path.exists():
                return None, ""
            if not path.is_dir():
                return None, "it is not a directory"
            size = (path / MANIFEST).stat().st_size
            if size > _MAX_MANIFEST_BYTES:
                return None, f"{MANIFEST} has {size} bytes, more than a manifest can hold"
            data = json.loads((path / MANIFEST).read_bytes().decode("utf-8"))
        except OSError as exc:
            return None, f"{MANIFEST} cannot be read ({exc.strerror or exc})"
        except ValueError as exc:
            return None, f"{MANIFEST} is not valid JSON ({exc})"
        try:
            manifest = Manifest.from_json(data)
        except StoreError as exc:
            return None, str(exc)
        if manifest.format not in READABLE_FORMATS:
            return None, f"{MANIFEST} has format {manifest.format}; this irscope reads {READABLE_FORMATS}"
        if manifest.key != key:
            return None, f"{MANIFEST} names the key {manifest.key!r}, not its directory's"
        return Capture(path=path, manifest=manifest), ""

    def get(self, key: str) -> Capture | None:
        """The capture with this key, or None when absent or unreadable (then it is captured anew)."""
        return self.lookup(key)[0]

    def captures(self) -> list[Capture]:
        """Every readable capture, oldest first (then by config and key, for captures made in the same second)."""
        try:
            names = [p.name for p in self.captures_dir.iterdir()] if self.captures_dir.is_dir() else []
        except OSError:
            return []
        found = [c for name in names if (c := self.get(name)) is not None]
        return sorted(found, key=lambda c: (c.manifest.created, c.manifest.config_index, c.manifest.key))

    def unreadable(self) -> list[tuple[str, str]]:
        """``(key, why)`` for each capture directory that ``captures`` leaves out because it cannot be read."""
        try:
            names = sorted(p.name for p in self.captures_dir.iterdir()) if self.captures_dir.is_dir() else []
        except OSError:
            return []
        return [(name, why) for name in names if KEY_RE.match(name) and (why := self.lookup(name)[1])]

    def find(self, name: str) -> list[Capture]:
        """Captures whose key is or starts with ``name``, or whose kernel/function is ``name``; oldest first.

        A key prefix reaches past the kernel's name (``matmul-sm90``, ``add_kernel-sm90-c0-p-c6``): a bare
        ``l`` or ``mat`` is no kernel's name and names nothing, rather than whichever capture it begins.
        A capture named by its whole key that cannot be read is an error saying why.
        """
        exact, why = self.lookup(name)
        if exact is not None:
            return [exact]
        if why:
            raise StoreError(f"capture {name} cannot be read: {why}; delete {self.captures_dir / name} and capture "
                             "it again (or open its archive again)")
        return [c for c in self.captures()
                if ("-" in name and c.manifest.key.startswith(name))  # a kernel name has no "-"
                or name in (c.manifest.kernel, c.manifest.function)]

    def _staging_lock(self, name: str) -> Path:
        return self.locks_dir / "staging" / f"{name}.lock"

    def new_staging(self, key: str) -> Path:
        """A fresh private directory to write a capture into, locked by this process until committed."""
        name = f"{key}.{os.getpid()}.{os.urandom(4).hex()}"
        path = self.staging_dir / name
        try:
            self.staging_dir.mkdir(parents=True, exist_ok=True)
            self.sweep_staging()
            locks.hold_staging(self._staging_lock(name), path)
            path.mkdir()
        except FileExistsError:
            raise StoreError(f"{self.staging_dir} is not a directory; remove it so irscope can stage captures "
                             "there") from None
        except OSError as exc:
            raise store_error(self.root, exc, "making a staging directory") from None
        return path

    def discard(self, staging: Path) -> None:
        """Remove a staging directory that was not committed, and drop its lock."""
        shutil.rmtree(staging, ignore_errors=True)
        locks.release_staging(self._staging_lock(staging.name), staging)

    def sweep_staging(self) -> list[Path]:
        """Remove staging directories whose owner is gone (its lock can be taken); return them.

        A directory without a lock (left by an older irscope, or a moved-aside damaged capture)
        goes once it is an hour old. One still being written is never removed: its owner holds its lock.
        """
        swept: list[Path] = []
        now = time.time()
        try:
            entries = list(self.staging_dir.iterdir())
        except OSError:
            return swept
        for old in entries:
            lock_path = self._staging_lock(old.name)
            try:
                if lock_path.exists():
                    lock = locks.take(lock_path)
                    if lock is None:
                        continue
                    try:
                        _remove(old)
                    finally:
                        lock.release()
                        lock_path.unlink(missing_ok=True)
                elif now - old.lstat().st_mtime > _STALE_STAGING_SECONDS:
                    _remove(old)
                else:
                    continue
                swept.append(old)
            except OSError:
                continue
        self._sweep_orphan_locks()
        return swept

    def _sweep_orphan_locks(self) -> None:
        """Remove staging locks whose directory is gone and whose owner has ended (a compile that failed).

        A lock file younger than a minute is left alone: it may be one another process has just created and
        not yet locked (filelock creates the file, then locks it), whose staging directory comes next; taking
        it in that moment made that process's own lock fail ("held by another process").
        """
        now = time.time()
        try:
            orphans = [p for p in (self.locks_dir / "staging").glob("*.lock")
                       if not (self.staging_dir / p.name[: -len(".lock")]).exists()]
        except OSError:
            return
        for path in orphans:
            try:
                if now - path.stat().st_mtime < _FRESH_LOCK_SECONDS:
                    continue
                lock = locks.take(path)
                if lock is not None:
                    lock.release()
                    path.unlink(missing_ok=True)
            except OSError:
                continue

    def is_trusted(self, key: str) -> bool:
        """Whether irscope may import or compile this capture's Python (false for one opened from an archive)."""
        try:
            return not (self.untrusted_dir / key).exists()
        except OSError:
            return False

    def untrusted_origin(self, key: str) -> str:
        """The archive an untrusted capture was opened from, in words ('' when not recorded)."""
        try:
            data = json.loads((self.untrusted_dir / key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return ""
        return str(data.get("archive", "")) if isinstance(data, dict) else ""

    def untrusted_keys(self) -> dict[str, dict[str, Any]]:
        """Every capture key marked untrusted, with what was recorded when it was opened."""
        found: dict[str, dict[str, Any]] = {}
        try:
            entries = list(self.untrusted_dir.iterdir())
        except OSError:
            return found
        for entry in entries:
            try:
                data = json.loads(entry.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}
            found[entry.name] = data if isinstance(data, dict) else {}
        return found

    def mark_untrusted(self, key: str, note: dict[str, Any]) -> None:
        """Record, outside the capture, that its Python must not run until the user trusts it."""
        self.untrusted_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.untrusted_dir / f".{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(note, default=str), encoding="utf-8")
        os.replace(tmp, self.untrusted_dir / key)

    def trust(self, key: str) -> bool:
        """Drop a capture's untrusted mark; return whether it had one."""
        try:
            (self.untrusted_dir / key).unlink()
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise store_error(self.root, exc, "trusting a capture") from None
        return True

    def commit(self, staging: Path, manifest: Manifest, existing: CommitMode = "heal",
               untrusted: dict[str, Any] | None = None) -> Capture:
        """Write the manifest and move a finished staging directory into place, atomically.

        ``existing`` says what happens to a capture already under the key: ``heal`` replaces it only
        when it is damaged, ``keep`` never touches it, ``replace`` replaces it. When another process
        committed the same key first, its capture wins and ours is dropped. ``untrusted`` (what an
        archive's capture was opened from) marks the capture untrusted before it appears.
        """
        if not KEY_RE.match(manifest.key):
            raise StoreError(f"refusing to store a capture under the key {manifest.key!r}: not an irscope key")
        try:
            return self._commit(staging, manifest, existing, untrusted)
        except OSError as exc:
            raise store_error(self.root, exc, f"storing capture {manifest.key}") from None
        finally:
            locks.release_staging(self._staging_lock(staging.name), staging)

    def _commit(self, staging: Path, manifest: Manifest, existing: CommitMode,
                untrusted: dict[str, Any] | None) -> Capture:
        sums = {name: file_checksum(staging / name) for name in sorted(set(manifest.files.values()))}
        manifest = replace(manifest, checksums=sums, format=FORMAT)
        tmp = staging / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps(manifest.to_json(), indent=2, default=str), encoding="utf-8")
        os.replace(tmp, staging / MANIFEST)
        self.captures_dir.mkdir(parents=True, exist_ok=True)
        final = self.captures_dir / manifest.key
        present = final.exists() or final.is_symlink()
        if present and existing == "keep":
            shutil.rmtree(staging, ignore_errors=True)
            old, why = self.lookup(manifest.key)
            if old is None:
                raise StoreError(f"capture {manifest.key} is already in the store but cannot be read ({why}); "
                                 "nothing was replaced")
            return old
        if untrusted is not None:
            self.mark_untrusted(manifest.key, untrusted)
        if present:
            old, _ = self.lookup(manifest.key)
            if existing == "replace" or (existing == "heal" and (old is None or old.damage() is not None)):
                # Moved aside first, so the key is never half-removed; then removed.
                aside = self.staging_dir / f"broken.{manifest.key}.{os.getpid()}.{os.urandom(3).hex()}"
                final.rename(aside)
                _remove(aside)
        try:
            os.rename(staging, final)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
            winner = self.get(manifest.key)
            if winner is None:
                raise StoreError(f"could not store capture {manifest.key} in {self.captures_dir}") from None
            return winner
        if untrusted is None:
            self.trust(manifest.key)  # made here: a mark left by an archive's capture of this key no longer applies
        return Capture(path=final, manifest=manifest)


def require_trusted(capture: Capture) -> None:
    """Refuse (exit 2) to import or compile the Python of a capture opened from an archive and not trusted."""
    store = Store(capture.path.parent.parent)
    key = capture.manifest.key
    if store.is_trusted(key):
        return
    origin = store.untrusted_origin(key) or "an archive"
    raise UsageError(f"capture {key} was opened from {origin} and is not trusted: this would import the Python it "
                     f"carries; if you trust its author, run 'irscope trust {key}' (or open the archive with --trust)")
