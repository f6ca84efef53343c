"""File locks in the store (``locks/`` under its root), through the ``filelock`` package.

A lock is held by an open file; the operating system drops it when its process ends, so a lock
that can be taken proves its owner is gone. Two kinds are used:

    locks/<key>.lock               one irscope at a time writes a capture's per-pass dump
    locks/staging/<name>.lock      held while staging/<name>/ is being written
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # filelock is imported where a lock is taken: reading the store takes none (a warm show)
    from filelock import FileLock

# Staging locks held by this process, by staging path; released when the capture is committed.
_HELD: dict[str, FileLock] = {}


def take(path: Path) -> FileLock | None:
    """The lock at ``path`` taken at once, or None when another live process holds it."""
    from filelock import FileLock, Timeout

    lock = FileLock(str(path))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return None
    return lock


def hold_staging(lock_path: Path, staging: Path) -> None:
    """Take the lock of a staging directory about to be made, and keep it for this process's lifetime."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    lock = take(lock_path)
    if lock is None:
        raise OSError(f"{lock_path} is held by another process")
    _HELD[str(staging)] = lock


def release_staging(lock_path: Path, staging: Path) -> None:
    """Drop a staging directory's lock (its capture is committed or discarded) and its lock file."""
    lock = _HELD.pop(str(staging), None)
    if lock is not None:
        lock.release()
        lock_path.unlink(missing_ok=True)


@contextlib.contextmanager
def exclusive(path: Path, what: str) -> Iterator[None]:
    """Hold the lock at ``path`` for the block, waiting (and saying so) while another irscope holds it.

    Where the lock cannot be made (a read-only store) the block runs unlocked: such a store is
    only read.
    """
    from filelock import FileLock, Timeout

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(path))
        try:
            lock.acquire(timeout=0)
        except Timeout:
            sys.stderr.write(f"irscope: waiting for another irscope working on {what}...\n")
            lock.acquire()
    except OSError:
        yield
        return
    try:
        yield
    finally:
        lock.release()
