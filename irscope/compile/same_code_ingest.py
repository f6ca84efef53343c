"""At ingest: a compile stopped after TTGIR (``same_code``) becomes a capture of its own config.

Its stages from TTGIR on are the owner's files (the TTGIR text is checked equal); its ``.source``
and ``.ttir`` are its own; Triton's metadata JSON is the owner's with this compile's ``hash`` and
``num_stages``, which is what Triton writes for it (the later stages only add values computed from the
TTGIR module). Anything in the record that does not hold up (a hash that is not one, a file outside
the session, a TTGIR that differs, metadata that disagrees with the owner's) refuses the alias.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from irscope.compile.records import LaunchRecord

# Example: 0f3c...e1 (Triton's compile hash: sha256 hex)
_HASH_RE = re.compile(r"^[0-9a-f]{64}$")
_OWN_EXTS = (".source", ".ttir")
_PATCHED = ("hash", "num_stages")
# Metadata the stages after TTGIR write (make_llir, make_ptx / make_amdgcn): the owner's final values are the alias's.
_WRITTEN_LATER = frozenset({"num_warps", "shared", "tmem_size", "global_scratch_size", "global_scratch_align",
                            "profile_scratch_size", "profile_scratch_align", "name"})


class AliasRefused(ValueError):
    """An alias record that cannot be stored (the reason is the message)."""


def _inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError):
        return False


def alias_capture_record(alias: LaunchRecord, owners: dict[str, LaunchRecord], session: Path) -> LaunchRecord:
    """The record to store for ``alias`` (owners: stored records by hash); raises AliasRefused."""
    same = alias.same_code
    if not (_HASH_RE.match(alias.hash) and same is not None):
        raise AliasRefused("the record lacks its compile hash or its same_code entry")
    if not _HASH_RE.match(same.owner) or same.owner == alias.hash:
        raise AliasRefused("the record names no other compile as its owner")
    owner = owners.get(same.owner)
    if owner is None:
        raise AliasRefused(f"it compiles to the same TTGIR as the compile {same.owner[:16]}, which was not captured")
    meta = alias.metadata
    num_stages = meta.get("num_stages")
    if not (isinstance(num_stages, int) and not isinstance(num_stages, bool)):
        raise AliasRefused("the record's metadata lacks num_stages")
    owner_meta = owner.metadata
    for name, value in meta.items():
        if name not in _PATCHED and name not in _WRITTEN_LATER and owner_meta.get(name) != value:
            raise AliasRefused(f"its metadata {name!r} differs from the owner's ({value!r}, not "
                               f"{owner_meta.get(name)!r})")
    owner_files = {n: Path(p) for n, p in owner.files.items()}
    ttgir_name = next((n for n in owner_files if n.endswith(".ttgir")), None)
    text_path = Path(same.ttgir)
    if ttgir_name is None or not _inside(text_path, session / "same-code") or not text_path.is_file():
        raise AliasRefused("its TTGIR or the owner's is missing")
    if text_path.read_bytes() != owner_files[ttgir_name].read_bytes():
        raise AliasRefused("its TTGIR differs from the owner's")
    files = {n: str(p) for n, p in owner_files.items() if not n.endswith(_OWN_EXTS)}
    for name, path in alias.files.items():
        if not (name.endswith(_OWN_EXTS) and name in owner_files and _inside(Path(path), session / "triton-cache")):
            raise AliasRefused(f"its file {name!r} is not one of its own early stages in the session")
        files[name] = path
    json_name = next((n for n in owner_files if n.endswith(".json") and not n.startswith("__grp__")), None)
    if json_name is not None:
        data = json.loads(owner_files[json_name].read_text(encoding="utf-8"))
        data.update(hash=alias.hash, num_stages=num_stages)
        patched = session / "same-code" / f"{alias.hash}.json"
        patched.write_text(json.dumps(data), encoding="utf-8")  # as Triton writes it (json.dumps, default spacing)
        files[json_name] = str(patched)
    replay = {**alias.replay, "options": {**(owner.replay.get("options") or {}), "num_stages": num_stages}}
    return replace(alias, name=owner.name, metadata={**owner_meta, "hash": alias.hash, "num_stages": num_stages},
                   replay=replay, files=files)


def same_code_line(config_index: int | None) -> str:
    """The capture's one-line note: which config's code it shares and why."""
    which = f"config {config_index}" if config_index is not None else "another capture"
    return f"same code as {which}: num_stages changes nothing here (equal TTGIR)"
