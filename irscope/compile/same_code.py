"""Offline captures: a compile whose TTGIR another compile of the session already made stops after TTGIR.

Autotune configs often differ only in ``num_stages`` on a kernel whose loops the pipeliner leaves
alone (fla's chunk_gla forward: 122 compiles, 86 distinct TTGIRs). Triton reads ``num_stages`` only
in ``make_ttgir`` (checked per backend below: a backend whose later stages name it, AMD's
``make_llir`` in Triton 3.5/3.6, is left out); every later stage (LLIR, PTX, cubin / AMDGCN, hsaco) is
a function of the TTGIR module and the metadata. So the ttgir stage is wrapped: after it, the code key
(TTGIR text, target, every metadata value but ``hash`` and ``num_stages``) is claimed in the session
with ``os.link``, which fails when another compile (in any forked child) holds it. The later compile
then stops with :class:`SameCode`; the program hook writes an ``aliases`` record, and ingest
(``same_code_ingest``) stores it as its own capture from the owner's later stages.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import time
from pathlib import Path
from typing import Any

from irscope.compile.records import hook_settings
from irscope.compile.session import session_folder

FOLDER = "same-code"
# The stages after TTGIR, per backend; their code must not read num_stages for two TTGIR-equal compiles to agree.
LATER_STAGES = ("make_llir", "make_ptx", "make_cubin", "make_amdgcn", "make_hsaco")
_SKIPPED = frozenset({"hash", "num_stages", "target"})
_READS: dict[type, bool] = {}
_MARKS: dict[str, float] = {}


class SameCode(Exception):
    """This compile's TTGIR equals one another compile of the session already claimed (stops it after TTGIR)."""

    def __init__(self, owner: str, digest: str, key: str, metadata: dict[str, Any], ttgir: str,
                 stage_seconds: dict[str, float]) -> None:
        super().__init__(f"same TTGIR as the compile {owner[:16]}")
        self.owner = owner
        self.digest = digest
        self.key = key
        self.metadata = metadata
        self.ttgir = ttgir
        self.stage_seconds = stage_seconds
        self.src: Any = None  # the ASTSource, set on its way out of JITFunction.compile


def enabled() -> bool:
    """On unless the capture's settings say otherwise (``irscope capture --no-same-code``)."""
    settings = hook_settings()
    return settings is None or settings.same_code


def later_stages_read_num_stages(backend_cls: type) -> bool:
    """Whether a stage after TTGIR of this backend names ``num_stages`` (or its code cannot be read)."""
    if backend_cls not in _READS:
        reads = False
        for name in LATER_STAGES:
            method = getattr(backend_cls, name, None)
            if method is None:
                continue
            try:
                reads = reads or "num_stages" in inspect.getsource(method)
            except (OSError, TypeError):
                reads = True
        _READS[backend_cls] = reads
    return _READS[backend_cls]


def code_key(ttgir: str, target: Any, metadata: dict[str, Any]) -> str:
    """sha256 of what the stages after TTGIR read: the TTGIR text, the target, the metadata but hash and num_stages."""
    rest = {k: v for k, v in metadata.items() if k not in _SKIPPED}
    where = [getattr(target, "backend", None), getattr(target, "arch", None), getattr(target, "warp_size", None)]
    blob = json.dumps({"ttgir": ttgir, "target": where, "metadata": rest}, sort_keys=True, default=repr)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def claim(session: Path, key: str, digest: str) -> str | None:
    """Claim ``key`` for the compile ``digest``; None when it is ours now, else the owner's hash."""
    folder = session / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{digest[:16]}.{os.getpid()}.{os.urandom(4).hex()}"
    tmp.write_text(digest, encoding="utf-8")
    try:
        os.link(tmp, folder / key)  # atomic: fails when another compile (any process) holds the key
        return None
    except FileExistsError:
        owner = (folder / key).read_text(encoding="utf-8").strip()
        return None if owner == digest else owner
    finally:
        tmp.unlink()


def _active() -> bool:
    """Whether this compile may stop after TTGIR (offline, not turned off, nothing that must see it whole)."""
    settings = hook_settings()
    if settings is None or settings.target is None or not settings.same_code:
        return False
    from irscope.compile.session import _STATE

    if not getattr(_STATE, "may_stop", False):
        return False  # not a launch irscope compiles (the program's own triton.compile): it must get its kernel
    from triton import knobs

    from irscope.compile.listener_chain import program_listens

    compilation = knobs.compilation
    if getattr(compilation, "override", False) or getattr(compilation, "use_ir_loc", None):
        return False  # overridden or re-located IR would not follow from the TTGIR text alone
    return not program_listens()  # the program's own listener must see each compile, as on a GPU


def _timed(stage: Any, name: str) -> Any:
    def run(src: Any, metadata: dict[str, Any]) -> Any:
        _MARKS[f"{name}.start"] = time.perf_counter()
        return stage(src, metadata)
    return run


def _stop_if_same(stage: Any, target: Any) -> Any:
    """The ttgir stage, then: claim its code key, or stop with SameCode when another compile holds it."""

    def run(src: Any, metadata: dict[str, Any]) -> Any:
        start = time.perf_counter()
        module = stage(src, metadata)
        if not _active():
            return module
        text = str(module)  # as Triton's cache manager writes the .ttgir
        key = code_key(text, target, metadata)
        digest = str(metadata.get("hash", ""))
        owner = claim(session_folder(), key, digest)
        if owner is None:
            return module
        seconds = {"ttgir": time.perf_counter() - start}
        ttir_start = _MARKS.pop("ttir.start", None)
        if ttir_start is not None:
            seconds["ttir"] = start - ttir_start
            compile_start = _MARKS.get("compile.start")
            if compile_start is not None and compile_start <= ttir_start:
                seconds = {"ir_init": ttir_start - compile_start, **seconds}
        raise SameCode(owner, digest, key, dict(metadata), text, dict(sorted(seconds.items(), key=_stage_order)))

    return run


def _stage_order(item: tuple[str, float]) -> int:
    return ("ir_init", "ttir", "ttgir").index(item[0])


def install(backend_cls: Any) -> None:
    """Wrap ``backend_cls.add_stages`` so its ttgir stage stops a compile whose TTGIR is already claimed."""
    if getattr(backend_cls.add_stages, "_irscope_same_code", False):
        return
    original = backend_cls.add_stages

    def add_stages(self: Any, stages: dict[str, Any], options: Any, *args: Any, **kwargs: Any) -> Any:
        out = original(self, stages, options, *args, **kwargs)
        if "ttgir" in stages and enabled() and not later_stages_read_num_stages(type(self)):
            if "ttir" in stages:
                stages["ttir"] = _timed(stages["ttir"], "ttir")
            stages["ttgir"] = _stop_if_same(stages["ttgir"], self.target)
        return out

    add_stages._irscope_same_code = True  # type: ignore[attr-defined]
    backend_cls.add_stages = add_stages


def mark_compile_start() -> None:
    """Note when this compile began (the alias record's ``ir_init`` counts from here)."""
    _MARKS.clear()
    _MARKS["compile.start"] = time.perf_counter()


def own_early_files(digest: str) -> dict[str, str]:
    """The files this stopped compile wrote to Triton's cache before TTGIR (``.source``, ``.ttir``), by name."""
    from triton.runtime.cache import get_cache_manager

    folder = Path(getattr(get_cache_manager(digest), "cache_dir", "") or "")
    if not folder.is_dir():
        return {}
    return {p.name: str(p) for p in sorted(folder.iterdir())
            if p.is_file() and p.suffix in (".source", ".ttir")}
