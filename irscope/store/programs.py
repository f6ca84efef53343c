"""Program records on disk: one per ``irscope capture`` run, written atomically, read by id, id prefix or ``latest``.

Layout under the store root::

    programs/<id>/program.json    the run's ``ProgramRecord`` (graphs, kernels per run, calls outside Triton,
                                  provenance), ``<id>`` = ``prog-<UTC date>-<time>-<hash>`` (sortable by time)
    programs/.<id>.<pid>.tmp/     a record being written; renamed to ``programs/<id>/`` when complete

An Inductor capture keeps its own kernel's provenance too: ``captures/<key>/provenance.json`` (``capture_provenance``).

Files only: reading imports neither torch nor Triton.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from irscope.errors import StoreError, closest
from irscope.model.program_record import PROVENANCE_FILE, ProgramRecord, Provenance, provenance_from_json
from irscope.store.store import Capture, Store

PROGRAMS_DIR = "programs"
PROGRAM_FILE = "program.json"
_MAX_BYTES = 64 * 1024 * 1024


class ProgramNameError(StoreError):
    """No program record, or more than one, has the name asked for."""

    exit_code = 2


def programs_dir(store: Path) -> Path:
    """The folder of program records under the store root."""
    return Path(store) / PROGRAMS_DIR


def write_program(store: Path, record: ProgramRecord) -> Path:
    """Write ``record`` as ``programs/<id>/program.json``, atomically (a temp folder renamed); its folder."""
    root = programs_dir(store)
    final = root / record.id
    tmp = root / f".{record.id}.{os.getpid()}.tmp"
    try:
        root.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        (tmp / PROGRAM_FILE).write_text(json.dumps(record.to_json(), indent=1), encoding="utf-8")
        if final.exists():
            shutil.rmtree(final)
        os.replace(tmp, final)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise StoreError(f"cannot write program record {record.id} under {root}: {exc.strerror or exc}") from None
    return final


def list_programs(store: Path) -> list[str]:
    """The ids of the stored program records, oldest first."""
    root = programs_dir(store)
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


def resolve_program(store: Path, name: str) -> str:
    """The id ``name`` means: an id, a prefix of exactly one, or ``latest``; ``ProgramNameError`` otherwise."""
    ids = list_programs(store)
    if not ids:
        raise ProgramNameError(f"no program record in the store at {store}; make one with: "
                               "irscope capture --target sm90 -- python prog.py")
    if name == "latest":
        return ids[-1]
    if name in ids:
        return name
    found = [i for i in ids if i.startswith(name)]
    if len(found) == 1:
        return found[0]
    if found:
        raise ProgramNameError(f"program {name!r} is ambiguous: {len(found)} records start so "
                               f"({', '.join(found[:4])}{', ...' if len(found) > 4 else ''}); give more of the id")
    shown = ", ".join(ids[-3:])
    raise ProgramNameError(f"unknown program {name!r}{closest(name, ids)}; valid: an id, a prefix of one, or latest "
                           f"(newest: {shown})")


def read_program(store: Path, name: str) -> ProgramRecord:
    """The program record ``name`` names (``resolve_program``); ``StoreError`` in one line if it is damaged."""
    found = resolve_program(store, name)
    path = programs_dir(store) / found / PROGRAM_FILE
    try:
        if path.stat().st_size > _MAX_BYTES:
            raise StoreError(f"program record {found} is damaged: {PROGRAM_FILE} is over {_MAX_BYTES >> 20} MiB")
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StoreError(f"program record {found} is damaged: {PROGRAM_FILE} is missing") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreError(f"program record {found} cannot be read: {exc}") from None
    except ValueError as exc:
        raise StoreError(f"program record {found} is damaged: {PROGRAM_FILE} is not JSON ({exc})") from None
    try:
        return ProgramRecord.from_json(data)
    except ValueError as exc:
        raise StoreError(f"program record {found} is damaged: {exc}") from None


def program_files(store: Store, names: tuple[str, ...], everything: bool = False,
                  ) -> tuple[tuple[Path, ...], list[Capture], list[str]]:
    """What exporting the program records ``names`` (every one with ``everything``) takes: their files, the
    captures they name that the store has, and the keys it lacks."""
    ids = list_programs(store.root) if everything else list(dict.fromkeys(resolve_program(store.root, n)
                                                                            for n in names))
    captures: dict[str, Capture] = {}
    missing: list[str] = []
    for pid in ids:
        for key in read_program(store.root, pid).keys:
            found = captures.get(key) or store.get(key)
            if found is None:
                missing.append(key)
            else:
                captures[key] = found
    return tuple(programs_dir(store.root) / pid / PROGRAM_FILE for pid in ids), list(captures.values()), \
        list(dict.fromkeys(missing))


def capture_provenance(capture: Capture) -> Provenance | None:
    """An Inductor capture's provenance (its ``provenance.json``); None for a capture that keeps none.

    A damaged file is a provenance whose ``missing`` says so: the capture's stages stay readable.
    """
    if "provenance" not in capture.manifest.files:
        return None
    try:
        path = capture.artifact_path("provenance")
        if path.stat().st_size > _MAX_BYTES:
            return Provenance(missing=f"its {PROVENANCE_FILE} is over {_MAX_BYTES >> 20} MiB: not read")
        return provenance_from_json(json.loads(path.read_text(encoding="utf-8")))
    except (StoreError, OSError, UnicodeDecodeError, ValueError) as exc:
        return Provenance(missing=f"its {PROVENANCE_FILE} cannot be read: {exc}")
