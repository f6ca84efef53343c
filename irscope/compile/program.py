"""``irscope capture -- CMD``: run a program with recording hooks, then store what it compiled."""

from __future__ import annotations

import datetime as _dt
import json
import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from irscope.compile.same_code_ingest import AliasRefused, alias_capture_record
from irscope.errors import UsageError
from irscope.model.stages import STAGES
from irscope.model.targets import TARGETS, Target
from irscope.store.store import Capture, Manifest, Store

_SITE = Path(__file__).resolve().parent / "_site"
_EXT_TO_STAGE = {s.ext: s.name for s in STAGES}
_OPTION_KEYS = ("num_warps", "num_ctas", "num_stages", "maxnreg", "enable_fp_fusion", "arch", "ptx_version",
                "waves_per_eu", "matrix_instr_nonkdim", "kpack", "debug", "launch_cooperative_grid")
_METADATA_KEYS = ("name", "hash", "num_warps", "num_ctas", "num_stages", "shared", "tmem_size",
                  "global_scratch_size", "arch", "ptx_version", "waves_per_eu", "triton_version")


@dataclass(frozen=True)
class ProgramReport:
    """What ``irscope capture`` recorded.

    Attributes:
        command: the program's command line.
        exit_code: the program's exit status.
        captures: the kernels stored, one per distinct compilation.
        failures: kernels (or configs) that could not be captured, each with its reason.
        offline_target: the target compiled for without a GPU, or None for a real run.
        notes: what the program did to irscope's hooks (set its own compilation listener, say).
        tuning: offline, one line per autotuned kernel and tuning key: how many configs it has,
            how many were pruned and by what, how many were compiled (``--autotune``).
    """

    command: str
    exit_code: int
    captures: list[Capture] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    offline_target: str | None = None
    notes: list[str] = field(default_factory=list)
    tuning: list[str] = field(default_factory=list)


def target_name(backend: str, arch: Any, warp_size: int) -> str:
    """Our name for a recorded GPUTarget (``cuda``/90 -> sm90)."""
    for t in TARGETS.values():
        if (t.backend, t.arch, t.warp_size) == (backend, arch, warp_size):
            return t.name
    return f"sm{arch}" if backend == "cuda" else str(arch)


def run_program(command: list[str], store: Store, offline: Target | None = None, gpu: str | None = None,
                autotune: str = "pruned", jobs: int | None = None, same_code: bool = True) -> ProgramReport:
    """Run ``command`` with Triton's cache and dumps redirected and the recording hooks loaded.

    Offline, the program's device queries are answered as ``gpu`` (a name in irscope.model.gpus) would answer them,
    ``autotune`` (``pruned``, ``first``, ``all``) says which configs of each autotuner are compiled, and
    ``jobs`` how many compiles run at once (default: this machine's cores), and ``same_code`` whether a compile
    whose TTGIR another compile already made stops there and shares its later stages (``compile/same_code.py``).
    """
    from irscope.compile import same_code as same_code_module
    from irscope.compile.autotune_policy import MODE_ENV, MODES
    from irscope.compile.compile_pool import (
        JOBS_ENV,
        WORKERS_FOLDER,
        adopt_orphans,
        default_jobs,
        wait_for_workers,
    )

    if autotune not in MODES:
        raise UsageError(f"--autotune {autotune!r} is not a mode; valid: {', '.join(MODES)}")
    if jobs is not None and jobs < 1:
        raise UsageError(f"-j {jobs}: at least one compile must run at a time; give 1 or more")
    if not command:
        raise UsageError("nothing to run; example: irscope capture -- python my_script.py")
    if shutil.which(command[0]) is None and not Path(command[0]).exists():
        raise UsageError(f"cannot run {command[0]!r}: no such program")
    session = store.new_staging("program")
    try:
        env = dict(os.environ)
        package_root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(_SITE), package_root, env.get("PYTHONPATH", "")) if p)
        env["IRSCOPE_CAPTURE_SESSION"] = str(session)
        env["TRITON_CACHE_DIR"] = str(session / "triton-cache")
        env["TRITON_DUMP_DIR"] = str(session / "triton-dump")
        # NVIDIA captures make their SASS from the cubin when read (irscope.toolchain.sass_lazy), not in each compile.
        env["TRITON_KERNEL_DUMP"] = "0" if offline is not None and offline.backend == "cuda" else "1"
        if offline is not None:
            env["IRSCOPE_CAPTURE_TARGET"] = json.dumps(
                {"backend": offline.backend, "arch": offline.arch, "warp_size": offline.warp_size, "gpu": gpu})
            env[MODE_ENV] = autotune
            env[JOBS_ENV] = str(jobs or default_jobs())
            env[same_code_module.ENV] = "1" if same_code else "0"
        else:
            env.pop("IRSCOPE_CAPTURE_TARGET", None)
        adopt_orphans()
        exit_code = subprocess.run(command, env=env, check=False).returncode
        wait_for_workers(session / WORKERS_FOLDER)  # compiles may run on after the program's exit (compile_pool)
        captures, failures = _store_records(session, store, shlex.join(command))
        return ProgramReport(command=shlex.join(command), exit_code=exit_code, captures=captures,
                             failures=failures, offline_target=offline.name if offline else None,
                             notes=listener_notes(_records(session / "notes")),
                             tuning=_tuning_lines(session, captures))
    finally:
        shutil.rmtree(session, ignore_errors=True)


def _records(folder: Path) -> list[dict[str, Any]]:
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            out.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
    return out


def listener_notes(records: list[dict[str, Any]]) -> list[str]:
    """The hook's notes about the compilation listener, as sentences, each once."""
    out: list[str] = []
    for rec in records:
        where, what = str(rec.get("where") or "?"), str(rec.get("listener") or "?")
        if rec.get("event") == "listener-set":
            text = (f"the program cleared Triton's compilation listener at {where}; irscope's stayed in place"
                    if what == "None" else
                    f"the program set its own Triton compilation listener ({what}) at {where}; irscope chained "
                    "it behind its own, so both saw every compile")
        elif rec.get("event") == "listener-removed":
            text = (f"the program replaced irscope's compilation listener (with {what}); kernels compiled after "
                    "that were not recorded")
        else:
            continue
        if text not in out:
            out.append(text)
    return out

def _tuning_lines(session: Path, captures: list[Capture] | None = None) -> list[str]:
    """``tile_scale_kernel: 4 configs, 3 pruned by early_config_prune, 1 compiled``, once per distinct line.

    When compiles of a line's configs stopped after TTGIR as the same code as another config's, the line says
    how many (``; 2 of them the same code as another config: stopped after TTGIR``).
    """
    same: dict[str, int] = {}
    for cap in captures or []:
        tune = cap.manifest.autotune
        if cap.manifest.same_code_as and tune:
            key = f"{tune.get('kernel', '?')}: {tune.get('summary', '')}"
            same[key] = same.get(key, 0) + 1
    lines: list[str] = []
    for rec in _records(session / "tuning"):
        line = f"{rec.get('kernel', '?')}: {rec.get('summary', '')}"
        if line in same:
            line += f"; {same[line]} of them the same code as another config: stopped after TTGIR"
        if line not in lines:
            lines.append(line)
    return lines


def _store_records(session: Path, store: Store, command: str) -> tuple[list[Capture], list[str]]:
    """Turn the hook's records into store captures (one per distinct Triton hash)."""
    captures: list[Capture] = []
    seen: set[str] = set()
    failures = [f"{f.get('name', '?')}: {str(f.get('error', '')).strip().splitlines()[-1] if f.get('error') else ''}"
                for f in _records(session / "failures")]
    owners: dict[str, tuple[dict[str, Any], Capture]] = {}
    for rec in _records(session / "records"):
        digest = rec.get("hash", "")
        if not digest or digest in seen:
            continue
        seen.add(digest)
        try:
            captures.append(_store_one(rec, store, command))
            owners[digest] = (rec, captures[-1])
        except (OSError, KeyError, ValueError, TypeError) as exc:
            failures.append(f"{rec.get('name', '?')}: could not store the capture ({exc})")
    for alias in _records(session / "aliases"):
        digest = alias.get("hash", "") if isinstance(alias, dict) else ""
        if not digest or digest in seen:
            continue
        seen.add(digest)
        which = f"config {alias.get('config_index')}" if isinstance(alias.get("config_index"), int) else "a compile"
        try:
            rec = alias_capture_record(alias, {h: r for h, (r, _) in owners.items()}, session)
            owner = owners[str(alias["same_code"]["owner"])][1]
            captures.append(_store_one(rec, store, command, same_code_as=owner.manifest.key))
        except AliasRefused as why:
            failures.append(f"{alias.get('name', '?')} {which}: stopped after TTGIR as the same code as another "
                            f"compile, but {why}")
        except (OSError, KeyError, ValueError, TypeError) as exc:
            failures.append(f"{alias.get('name', '?')} {which}: could not store the capture ({exc})")
    return captures, failures


def _store_one(rec: dict[str, Any], store: Store, command: str, same_code_as: str = "") -> Capture:
    target = rec["target"]
    tname = target_name(target["backend"], target["arch"], target["warp_size"])
    name = rec["name"]
    config_index = rec.get("config_index")
    index = config_index if isinstance(config_index, int) else 0
    key = f"{name}-{tname}-c{index}-p-{rec['hash'][:20]}"
    if (existing := store.get(key)) is not None:
        return existing
    staging = store.new_staging(key)
    try:
        files: dict[str, str] = {}
        for fname, path in rec["files"].items():
            src = Path(path)
            if src.is_file() and not fname.startswith("__grp__"):
                shutil.copyfile(src, staging / fname)
                ext = fname.rsplit(".", 1)[-1]
                files[_EXT_TO_STAGE.get(ext, ext)] = fname
        # No .sass from Triton's dump folder: it is shared by compiles that differ only in num_warps/num_stages,
        # so it may be another config's. NVIDIA captures make theirs from their own cubin (irscope.toolchain.sass_lazy).
        if rec.get("kept_source") and Path(rec["kept_source"]).is_file():
            shutil.copyfile(rec["kept_source"], staging / "source.py")
            files["source"] = "source.py"
        meta = rec.get("metadata", {})
        manifest = Manifest(
            key=key, kernel=name, kernel_path=rec.get("source_file", ""), function=rec.get("qualname") or name,
            config_index=index, config=dict(rec.get("config") or {}), sizes={}, dtype="", target=tname, backend=target["backend"],
            arch=target["arch"], warp_size=target["warp_size"],
            triton_version=rec.get("triton_version") or str(meta.get("triton_version", "")),
            signature=rec.get("signature", {}), constexprs=rec.get("constexprs", {}), attrs=rec.get("attrs", {}),
            options={k: meta[k] for k in _OPTION_KEYS if k in meta},
            metadata={k: meta[k] for k in _METADATA_KEYS if k in meta},
            compile_seconds=round(sum(rec.get("stage_seconds", {}).values()), 4),
            stage_seconds={k: round(v, 4) for k, v in rec.get("stage_seconds", {}).items()},
            files=files, created=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            origin="program", program=command, replay=rec.get("replay", {}),
            autotune=dict(rec.get("autotune") or {}), same_code_as=same_code_as,
        )
        return store.commit(staging, manifest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
