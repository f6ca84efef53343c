"""Writing a capture's per-pass dump: one gzip member per pass section, an index, stale files swept.

irscope.store.passdump reads what is written here; below ``irscope.request.passdump`` (which asks for a
compile on a miss) and ``irscope.compile.passes`` (which streams a compile's dump into ``write_dump``).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from irscope.parse.passes import SectionSplitter
from irscope.store.dump_writer import SectionWriter
from irscope.store.store import store_error

FORMAT = 1
FLAVOURS = ("mlir", "llvm")
_STALE_SECONDS = 600
FAILED = "passes-failed"


def index_path(directory: Path, flavour: str, prefix: str = "passes") -> Path:
    """The JSON index of a flavour's dump (``prefix`` FAILED: of its last failed compile)."""
    return directory / f"{prefix}.{flavour}.json"


def effects_path(directory: Path, flavour: str) -> Path:
    """The cached effects of a flavour's dump."""
    return directory / f"passes.{flavour}.effects.json"


def atomic_write_text(path: Path, text: str) -> None:
    """Write a file under a temporary name, then rename it into place."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(3).hex()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_dump(directory: Path, flavour: str, chunks: Iterable[bytes], meta: Callable[[], dict[str, Any]]) -> Path:
    """Store a dump arriving in chunks; return the index path.

    ``meta`` is called once the chunks are exhausted (the compile printing them has ended) and
    fills DumpInfo's other fields.
    """
    token = f"{int(time.time())}-{os.getpid()}-{os.urandom(3).hex()}"
    tmp = directory / f".passes.{flavour}.{token}.gz.tmp"
    splitter = SectionSplitter()
    rows: list[list[Any]] = []
    raw = 0
    # LLVM dumps are ten times larger and repeat the module after every pass: the fastest level
    # stores matmul's 210 MB in 8 MB instead of 7 MB, at a third of level 6's time.
    level = 6 if flavour == "mlir" else 1
    try:
        out_file = open(tmp, "wb")  # noqa: SIM115 -- closed by the with block below
    except OSError as exc:
        raise store_error(directory.parent.parent, exc, "storing a per-pass dump") from None
    with out_file as out:
        writer = SectionWriter(out, level)  # compresses on a thread while this one reads and cuts
        try:
            for chunk in chunks:
                raw += len(chunk)
                for section, data in splitter.feed(chunk):
                    writer.add(section, data)
            for section, data in splitter.close():
                writer.add(section, data)
            rows = writer.close()
        except BaseException:
            with contextlib.suppress(Exception):
                writer.close()  # the thread stops before the file goes
            tmp.unlink(missing_ok=True)  # a dump cut off by an error here is no dump at all
            raise
    info = {"format": FORMAT, "flavour": flavour, "raw_bytes": raw, **meta(), "sections": rows}
    # Only a compile that ended well makes the dump; a failed one is kept apart, for the record.
    prefix = FAILED if info.get("error") else "passes"
    name = f"{prefix}.{flavour}.{token}.gz"
    os.replace(tmp, directory / name)
    info["file"] = name
    path = index_path(directory, flavour, prefix)
    atomic_write_text(path, json.dumps(info))
    if prefix == "passes":
        effects_path(directory, flavour).unlink(missing_ok=True)
        index_path(directory, flavour, FAILED).unlink(missing_ok=True)
    _sweep(directory, flavour, keep=name)
    return path


def _sweep(directory: Path, flavour: str, keep: str) -> None:
    """Remove older dumps of this flavour that no index names (left by earlier or concurrent captures)."""
    now = time.time()
    for tmp in directory.glob(f".passes.{flavour}.*.tmp"):  # left by a capture that was killed
        try:
            if now - tmp.stat().st_mtime > _STALE_SECONDS:
                tmp.unlink()
        except FileNotFoundError:
            continue
    for prefix in ("passes", FAILED):
        for old in directory.glob(f"{prefix}.{flavour}.*.gz"):
            if old.name == keep:
                continue
            try:
                if now - old.stat().st_mtime > _STALE_SECONDS or _named_file(directory, flavour, prefix) != old.name:
                    old.unlink()
            except FileNotFoundError:
                continue


def _named_file(directory: Path, flavour: str, prefix: str = "passes") -> str:
    try:
        return str(json.loads(index_path(directory, flavour, prefix).read_text(encoding="utf-8")).get("file", ""))
    except (OSError, ValueError, AttributeError):
        return ""
