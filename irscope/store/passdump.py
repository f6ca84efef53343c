"""Reading a capture's per-pass dump on disk: its index, and each section decompressed when first asked for.

Files beside the capture's manifest, per flavour (``mlir``: MLIR passes; ``llvm``: MLIR and LLVM), written by
irscope.store.passwrite::

    passes.<flavour>.<token>.gz    the raw dump, one gzip member per section (``zcat`` gives it back whole)
    passes.<flavour>.json          which .gz holds it, and each section's line, header and member offsets
    passes.<flavour>.effects.json  pass effects computed from it (cached by irscope.request.passdump)

The JSON names its .gz, and both are written under temporary names and renamed, so a reader
never pairs an index with another capture's data. Reading never imports Triton and never compiles:
getting a dump that is not stored yet (a compile) is irscope.request.passdump's.

A compile that failed (or died) is never stored as the dump: what it printed before the failure
goes to ``passes-failed.<flavour>.<token>.gz`` and ``passes-failed.<flavour>.json`` (same format,
with the error), which only ``load_failed_dump`` reads, so the next request compiles again. An
index that carries an error (older irscope versions stored failures there) counts as no dump.
"""

from __future__ import annotations

import json
import zlib
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from irscope.errors import StoreError
from irscope.parse.passes import (
    DumpProblem,
    PassIndex,
    Section,
    SectionSplitter,
    index_passes,
    section_body,
)
from irscope.store.passwrite import FAILED, FORMAT, index_path

__all__ = ["DumpInfo", "DumpReadError", "PassDump", "dump_problems", "load_dump", "load_failed_dump", "scan_dump"]

_READ_CHUNK = 1 << 16
_CACHE_TEXTS = 8


class DumpReadError(StoreError):
    """A section of a stored dump cannot be read (the file is damaged or cut short).

    ``line`` is where that section starts in the dump; ``reported`` says the dump's problems already
    cover it (the file was found cut short before this line).
    """

    def __init__(self, path: Path, line: int, what: str, reported: bool = False) -> None:
        super().__init__(f"{path}:{line}: {what}")
        self.line = line
        self.what = what
        self.reported = reported


@dataclass(frozen=True)
class DumpInfo:
    """How a stored dump was made.

    Attributes:
        flavour: ``mlir`` or ``llvm``.
        file: name of the .gz beside the index.
        triton_version: the Triton that printed it.
        created: UTC time of the capture.
        raw_bytes: size of the dump uncompressed.
        compile_seconds: wall time of the compile that printed it (slowed by the printing).
        error: Triton's message when that compile failed, else ''.
    """

    flavour: str
    file: str
    triton_version: str
    created: str
    raw_bytes: int
    compile_seconds: float
    error: str = ""


@dataclass(frozen=True)
class _Member:
    """Where one section's gzip member lies in the .gz file."""

    offset: int
    length: int


class PassDump:
    """A stored dump: its pass index (from the JSON) and section texts decompressed on demand."""

    def __init__(self, path: Path, info: DumpInfo, index: PassIndex, members: dict[int, _Member],
                 texts: dict[int, str] | None = None, problems: Iterable[DumpProblem] = ()) -> None:
        self.path = path
        self.info = info
        self.index = index
        self._members = members
        self._texts = texts
        self._cache: OrderedDict[int, str] = OrderedDict()
        problems = list(problems)
        # When the file itself is damaged, the index's "the dump stops early" notes say the same again.
        self.problems: list[DumpProblem] = [*(p for p in index.problems if not (problems and p.cut)), *problems]

    def text(self, section: int) -> str:
        """A section's whole text, header included."""
        if self._texts is not None:
            if section not in self._texts:
                raise self._error(section, "this part of the dump was not read", reported=bool(self.problems))
            return self._texts[section]
        if section in self._cache:
            self._cache.move_to_end(section)
            return self._cache[section]
        member = self._members.get(section)
        if member is None:
            raise self._error(section, "this part of the dump is missing", reported=bool(self.problems))
        try:
            with open(self.path, "rb") as f:
                f.seek(member.offset)
                blob = f.read(member.length)
            if len(blob) < member.length:
                raise self._error(section, "the file is cut short here")
            text = zlib.decompress(blob, wbits=31).decode("utf-8", errors="replace")
        except zlib.error as exc:
            raise self._error(section, f"damaged data ({exc})") from None
        except OSError as exc:
            raise self._error(section, f"cannot read ({exc.strerror})") from None
        self._cache[section] = text
        if len(self._cache) > _CACHE_TEXTS:
            self._cache.popitem(last=False)
        return text

    def body(self, section: int) -> str:
        """A section's IR, without its header line."""
        return section_body(self.text(section))

    def _error(self, section: int, what: str, reported: bool = False) -> DumpReadError:
        line = self.index.sections[section].line if 0 <= section < len(self.index.sections) else 0
        return DumpReadError(self.path, line, what, reported)


def load_dump(directory: Path, flavour: str = "mlir") -> PassDump | None:
    """The stored dump of this flavour in a capture directory, or None when there is none."""
    try:
        data = json.loads(index_path(directory, flavour).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            data = None
    except (OSError, ValueError):
        data = None
    if data is not None and data.get("error"):
        return None  # an older irscope stored a failed compile's dump as the dump: compile again
    if data is not None and (directory / str(data.get("file", ""))).is_file():
        try:
            return _from_index(directory, data)
        except (KeyError, TypeError, ValueError, IndexError):
            data = None  # a damaged index: read the .gz itself below
    candidates = sorted(directory.glob(f"passes.{flavour}.*.gz"), key=lambda p: p.stat().st_mtime)
    if not candidates:
        return None
    return scan_dump(candidates[-1], flavour)


def dump_problems(directory: Path) -> list[str]:
    """What is wrong with the per-pass dumps a capture directory's indexes name, one line each (``export`` says
    it): a .gz that is missing, cut short, or whose gzip members do not decompress to their end."""
    found: list[str] = []
    for index in sorted(directory.glob("passes.*.json")):
        if index.name.endswith(".effects.json") or index.is_symlink():
            continue
        try:
            data = json.loads(index.read_text(encoding="utf-8"))
            name = str(data["file"])
            sections = data["sections"]
        except (OSError, ValueError, KeyError, TypeError):
            found.append(f"{index.name}: the index cannot be read")
            continue
        path = directory / name
        if not path.is_file():
            found.append(f"{name}: missing (named by {index.name})")
            continue
        try:
            # [id, line, size, offset, length, ...]
            end = max((int(row[3]) + int(row[4]) for row in sections), default=0)
            if path.stat().st_size < end:
                found.append(f"{name}: cut short ({path.stat().st_size} of {end} bytes)")
                continue
            with open(path, "rb") as f:
                for row in sections:
                    f.seek(int(row[3]))
                    zlib.decompress(f.read(int(row[4])), wbits=31)
        except (zlib.error, OSError, ValueError, TypeError, IndexError) as exc:
            found.append(f"{name}: damaged ({exc})")
    return found


def load_failed_dump(directory: Path, flavour: str = "mlir") -> PassDump | None:
    """What the last failed per-pass compile printed before it failed (with its error), or None."""
    try:
        data = json.loads(index_path(directory, flavour, FAILED).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        if not (directory / str(data.get("file", ""))).is_file():
            return None
        return _from_index(directory, data)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def _from_index(directory: Path, data: dict[str, Any]) -> PassDump:
    path = directory / str(data["file"])
    size = path.stat().st_size
    sections: list[Section] = []
    members: dict[int, _Member] = {}
    problems: list[DumpProblem] = []
    for sid, line, raw_size, offset, length, header, *rest in data["sections"]:
        sections.append(Section(id=int(sid), line=int(line), header=str(header), size=int(raw_size),
                                lines=int(rest[0]) if rest else 0))
        if offset + length <= size:
            members[int(sid)] = _Member(offset=int(offset), length=int(length))
        elif not problems:
            problems.append(DumpProblem(str(path), int(line), "the file is cut short here; the passes before this "
                                        "line are usable"))
    info = _info(data, path.name)
    if info.error:
        problems.append(DumpProblem(str(path), sections[-1].line if sections else 0,
                                    f"the compile that printed this dump failed: {info.error.splitlines()[-1]}"))
    return PassDump(path, info, index_passes(sections, str(path)), members, problems=problems)


def _info(data: dict[str, Any], file: str) -> DumpInfo:
    return DumpInfo(flavour=str(data.get("flavour", "mlir")), file=file,
                    triton_version=str(data.get("triton_version", "")), created=str(data.get("created", "")),
                    raw_bytes=int(data.get("raw_bytes", 0)), compile_seconds=float(data.get("compile_seconds", 0.0)),
                    error=str(data.get("error", "")))


def scan_dump(path: Path, flavour: str = "mlir") -> PassDump:
    """Read a .gz dump from its start without an index, stopping at the first damage (kept as a problem)."""
    texts: dict[int, str] = {}
    splitter = SectionSplitter()
    sections: list[Section] = []
    problems: list[DumpProblem] = []
    lines = 0

    def take(pieces: Iterable[tuple[Section, bytes]]) -> None:
        for section, data in pieces:
            sections.append(section)
            texts[section.id] = data.decode("utf-8", errors="replace")

    try:
        blob = path.read_bytes()
    except OSError as exc:
        raise StoreError(f"{path}: cannot read ({exc.strerror})") from None
    pos = 0
    partial = False
    while pos < len(blob):
        d = zlib.decompressobj(wbits=31)
        partial = False
        try:
            while not d.eof:
                if pos >= len(blob):
                    raise EOFError
                chunk = blob[pos:pos + _READ_CHUNK]
                pos += len(chunk)
                out = d.decompress(chunk)
                partial = partial or bool(out)
                lines += out.count(b"\n")
                take(splitter.feed(out))
        except (zlib.error, EOFError) as exc:
            why = "the file is cut short" if isinstance(exc, EOFError) else f"damaged data ({exc})"
            problems.append(DumpProblem(str(path), lines + 1, f"reading stopped here: {why}; the passes before "
                                        "this line are usable"))
            break
        partial = False
        pos -= len(d.unused_data)
    if not partial:
        take(splitter.close())
    info = DumpInfo(flavour=flavour, file=path.name, triton_version="", created="", raw_bytes=0, compile_seconds=0.0)
    return PassDump(path, info, index_passes(sections, str(path)), {}, texts=texts, problems=problems)
