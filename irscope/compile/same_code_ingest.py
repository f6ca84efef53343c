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
from pathlib import Path
from typing import Any

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


def alias_capture_record(alias: Any, owners: dict[str, dict[str, Any]], session: Path) -> dict[str, Any]:
    """The record to store for ``alias`` (owners: stored records by hash); raises AliasRefused."""
    if not isinstance(alias, dict):
        raise AliasRefused("the record is not an object")
    digest, same = alias.get("hash"), alias.get("same_code")
    if not (isinstance(digest, str) and _HASH_RE.match(digest) and isinstance(same, dict)):
        raise AliasRefused("the record lacks its compile hash or its same_code entry")
    owner_hash = same.get("owner")
    if not (isinstance(owner_hash, str) and _HASH_RE.match(owner_hash)) or owner_hash == digest:
        raise AliasRefused("the record names no other compile as its owner")
    owner = owners.get(owner_hash)
    if owner is None:
        raise AliasRefused(f"it compiles to the same TTGIR as the compile {owner_hash[:16]}, which was not captured")
    meta = alias.get("metadata")
    if not (isinstance(meta, dict) and isinstance(meta.get("num_stages"), int)):
        raise AliasRefused("the record's metadata lacks num_stages")
    owner_meta = owner.get("metadata") or {}
    for name, value in meta.items():
        if name not in _PATCHED and name not in _WRITTEN_LATER and owner_meta.get(name) != value:
            raise AliasRefused(f"its metadata {name!r} differs from the owner's ({value!r}, not "
                               f"{owner_meta.get(name)!r})")
    owner_files = {n: Path(p) for n, p in (owner.get("files") or {}).items()}
    ttgir_name = next((n for n in owner_files if n.endswith(".ttgir")), None)
    text_path = Path(str(same.get("ttgir") or ""))
    if ttgir_name is None or not _inside(text_path, session / "same-code") or not text_path.is_file():
        raise AliasRefused("its TTGIR or the owner's is missing")
    if text_path.read_bytes() != owner_files[ttgir_name].read_bytes():
        raise AliasRefused("its TTGIR differs from the owner's")
    own = alias.get("files") or {}
    if not isinstance(own, dict):
        raise AliasRefused("its files are not an object")
    files = {n: str(p) for n, p in owner_files.items() if not n.endswith(_OWN_EXTS)}
    for name, path in own.items():
        if not (isinstance(name, str) and name.endswith(_OWN_EXTS) and name in owner_files
                and _inside(Path(str(path)), session / "triton-cache")):
            raise AliasRefused(f"its file {name!r} is not one of its own early stages in the session")
        files[name] = str(path)
    json_name = next((n for n in owner_files if n.endswith(".json") and not n.startswith("__grp__")), None)
    if json_name is not None:
        data = json.loads(owner_files[json_name].read_text(encoding="utf-8"))
        data.update(hash=digest, num_stages=meta["num_stages"])
        patched = session / "same-code" / f"{digest}.json"
        patched.write_text(json.dumps(data), encoding="utf-8")  # as Triton writes it (json.dumps, default spacing)
        files[json_name] = str(patched)
    owner_replay = owner.get("replay") or {}
    replay = dict(alias.get("replay") or {})
    replay["options"] = {**(owner_replay.get("options") or {}), "num_stages": meta["num_stages"]}
    return {**alias, "name": owner.get("name", alias.get("name", "?")),
            "metadata": {**owner_meta, "hash": digest, "num_stages": meta["num_stages"]},
            "replay": replay, "files": files}


def same_code_line(config_index: int | None) -> str:
    """The capture's one-line note: which config's code it shares and why."""
    which = f"config {config_index}" if config_index is not None else "another capture"
    return f"same code as {which}: num_stages changes nothing here (equal TTGIR)"
