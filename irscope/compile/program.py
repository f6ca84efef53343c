"""``irscope capture -- CMD``: run a program with recording hooks, then store what it compiled."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from irscope.compile import program_graphs
from irscope.compile.program_fault import failure_clause
from irscope.compile.records import (
    SETTINGS_ENV,
    GpuTarget,
    HookSettings,
    LaunchRecord,
    OfflineTarget,
    RecordRefused,
)
from irscope.compile.same_code_ingest import AliasRefused, alias_capture_record
from irscope.errors import StoreError, UsageError
from irscope.model.launch import LAUNCHES_FILE
from irscope.model.program_record import PROVENANCE_FILE, ProgramRecord
from irscope.model.stages import STAGES
from irscope.model.targets import Target, target_for
from irscope.store.manifest import capture_key, new_manifest
from irscope.store.programs import write_program
from irscope.store.store import Capture, Store

_SITE = Path(__file__).resolve().parent / "_site"
_EXT_TO_STAGE = {s.ext: s.name for s in STAGES}
_OPTION_KEYS = ("num_warps", "num_ctas", "num_stages", "maxnreg", "enable_fp_fusion", "arch", "ptx_version",
                "waves_per_eu", "matrix_instr_nonkdim", "kpack", "debug", "launch_cooperative_grid")


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
        failure: when the program failed, why, as a clause that says when irscope's hook or stand-in caused it
            (``program_fault``).
    """

    command: str
    exit_code: int
    captures: list[Capture] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    offline_target: str | None = None
    notes: list[str] = field(default_factory=list)
    tuning: list[str] = field(default_factory=list)
    failure: str = ""
    program: ProgramRecord | None = None


def recorded_target(found: GpuTarget) -> Target:
    """Our target for a recorded GPUTarget (``cuda``/90 -> sm90); one irscope does not list is named like them."""
    return target_for(found.backend, found.arch, found.warp_size)


def run_program(command: list[str], store: Store, offline: Target | None = None, gpu: str | None = None,
                autotune: str = "pruned", jobs: int | None = None, same_code: bool = True) -> ProgramReport:
    """Run ``command`` with Triton's cache and dumps redirected and the recording hooks loaded.

    Offline, the program's device queries are answered as ``gpu`` (a name in irscope.model.gpus) would answer them,
    ``autotune`` (``pruned``, ``first``, ``all``) says which configs of each autotuner are compiled, and
    ``jobs`` how many compiles run at once (default: this machine's cores), and ``same_code`` whether a compile
    whose TTGIR another compile already made stops there and shares its later stages (``compile/same_code.py``).
    """
    from irscope.compile.autotune_policy import MODES
    from irscope.compile.compile_pool import WORKERS_FOLDER, adopt_orphans, default_jobs, wait_for_workers

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
        target = None if offline is None else OfflineTarget(backend=offline.backend, arch=offline.arch,
                                                            warp_size=offline.warp_size, gpu=gpu)
        env[SETTINGS_ENV] = HookSettings(session=str(session), target=target, autotune=autotune,
                                         jobs=jobs or default_jobs(), same_code=same_code).to_env()
        env["TRITON_CACHE_DIR"] = str(session / "triton-cache")
        env["TRITON_DUMP_DIR"] = str(session / "triton-dump")
        # NVIDIA captures make their SASS from the cubin when read (irscope.toolchain.sass_lazy), not in each compile.
        env["TRITON_KERNEL_DUMP"] = "0" if offline is not None and offline.backend == "cuda" else "1"
        if offline is not None:  # a cache hit would skip Inductor's codegen, and with it the kernels' provenance
            env["TORCHINDUCTOR_FX_GRAPH_CACHE"] = env["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "0"
        adopt_orphans()
        exit_code = subprocess.run(command, env=env, check=False).returncode
        wait_for_workers(session / WORKERS_FOLDER)  # compiles may run on after the program's exit (compile_pool)
        graphs, calls = program_graphs.read_session(session, _records)
        by_launch: dict[str, list[str]] = {}
        captures, failures = _store_records(session, store, shlex.join(command),
                                            provenance=program_graphs.provenance_by_launch(graphs),
                                            keys_by_launch=by_launch)
        notes = listener_notes([n for n in _records(session / "notes") if isinstance(n, dict)])
        built = program_graphs.build_record(
            command=shlex.join(command), target=offline.name if offline else (captures[0].manifest.target
                                                                            if captures else ""),
            gpu=(gpu or "") if offline else "", exit_code=exit_code, graphs=graphs, calls_records=calls,
            keys=[c.manifest.key for c in captures], keys_by_launch=by_launch, notes=[])
        record: ProgramRecord | None = None
        if exit_code == 0:  # a failed run's record would become `latest` and cover half a program: none is written
            try:
                write_program(store.root, built)
                record = built
            except StoreError as exc:  # the captures are stored all the same
                notes.append(f"the program's record was not written: {exc}")
        return ProgramReport(command=shlex.join(command), exit_code=exit_code, captures=captures,
                             failures=failures, offline_target=offline.name if offline else None,
                             notes=notes, tuning=_tuning_lines(session, captures),
                             failure=failure_clause(session, exit_code) if exit_code != 0 else "", program=record)
    finally:
        shutil.rmtree(session, ignore_errors=True)


def _records(folder: Path) -> list[Any]:
    """The JSON value of each record file in ``folder`` (one that cannot be read is skipped)."""
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
        elif rec.get("event") == "note":  # what the stand-in assumed (sdpa_choice)
            text = str(rec.get("text") or "")
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
    for rec in (r for r in _records(session / "tuning") if isinstance(r, dict)):
        line = f"{rec.get('kernel', '?')}: {rec.get('summary', '')}"
        if line in same:
            line += f"; {same[line]} of them the same code as another config: stopped after TTGIR"
        if line not in lines:
            lines.append(line)
    return lines


def _launch_records(folder: Path, failures: list[str]) -> list[LaunchRecord]:
    """The launch records in ``folder``; one of another version, or damaged, is a failure line (not JSON: skipped)."""
    out: list[LaunchRecord] = []
    for data in _records(folder):
        if not isinstance(data, dict):
            continue
        try:
            out.append(LaunchRecord.from_json(data))
        except RecordRefused as why:
            failures.append(f"{data.get('name', '?')}: not stored: {why}")
    return out


_CAUSES = {"irscope": "irscope's offline stand-in or hook lacked {missing}, not the kernel's fault",
           "triton": "Triton rejected it", "program": "the program's own code"}


def failure_line(record: dict[str, Any]) -> str:
    """``name: error`` of a ``failures`` record, and whose fault when it says (``cause``, ``missing``)."""
    error = str(record.get("error", "") or "").strip().splitlines()
    line = f"{record.get('name', '?')}: {error[-1] if error else ''}"
    cause = _CAUSES.get(str(record.get("cause", "")))
    if cause is None:
        return line
    missing = str(record.get("missing", "") or "")
    if record.get("cause") == "irscope" and "offline stand-in" in line:  # the error names the piece itself
        return f"{line} (irscope's doing, not the kernel's fault)"
    return f"{line} ({cause.format(missing=missing or 'something')})"


def _store_records(session: Path, store: Store, command: str, provenance: dict[str, dict[str, Any]] | None = None,
                   keys_by_launch: dict[str, list[str]] | None = None) -> tuple[list[Capture], list[str]]:
    """Turn the hook's records into store captures (one per distinct Triton hash).

    ``provenance`` gives an Inductor kernel config's provenance by its launch key (stored as its capture's
    ``provenance.json``); each launch key's capture keys are added to ``keys_by_launch``.
    """
    provenance = provenance or {}
    keys_by_launch = {} if keys_by_launch is None else keys_by_launch
    captures: list[Capture] = []
    seen: set[str] = set()
    failures = [failure_line(f) for f in _records(session / "failures") if isinstance(f, dict)]
    owners: dict[str, tuple[LaunchRecord, Capture]] = {}
    launches: dict[str, list[dict[str, Any]]] = {}
    for note in _records(session / "launches"):
        if isinstance(note, dict) and isinstance(note.get("key"), str):
            launches.setdefault(note["key"], []).append(note)
    for rec in _launch_records(session / "records", failures):
        if not rec.hash or rec.hash in seen:
            continue
        seen.add(rec.hash)
        try:
            captures.append(_store_one(rec, store, command, launches=launches.get(rec.launch_key, []),
                                       provenance=provenance.get(rec.launch_key)))
            owners[rec.hash] = (rec, captures[-1])
            if rec.launch_key:
                keys_by_launch.setdefault(rec.launch_key, []).append(captures[-1].manifest.key)
        except (OSError, KeyError, ValueError, TypeError) as exc:
            failures.append(f"{rec.name}: could not store the capture ({exc})")
    for alias in _launch_records(session / "aliases", failures):
        if not alias.hash or alias.hash in seen:
            continue
        seen.add(alias.hash)
        which = f"config {alias.config_index}" if alias.config_index is not None else "a compile"
        try:
            rec = alias_capture_record(alias, {h: r for h, (r, _) in owners.items()}, session)
            owner = owners[alias.same_code.owner if alias.same_code else ""][1]
            captures.append(_store_one(rec, store, command, same_code_as=owner.manifest.key,
                                       launches=launches.get(alias.launch_key, []),
                                       provenance=provenance.get(alias.launch_key)))
            if alias.launch_key:
                keys_by_launch.setdefault(alias.launch_key, []).append(captures[-1].manifest.key)
        except AliasRefused as why:
            failures.append(f"{alias.name} {which}: stopped after TTGIR as the same code as another "
                            f"compile, but {why}")
        except (OSError, KeyError, ValueError, TypeError) as exc:
            failures.append(f"{alias.name} {which}: could not store the capture ({exc})")
    return captures, failures


def _store_one(rec: LaunchRecord, store: Store, command: str, same_code_as: str = "",
               launches: list[dict[str, Any]] | None = None, provenance: dict[str, Any] | None = None) -> Capture:
    if rec.target is None:
        raise ValueError("the record names no target")
    target = recorded_target(rec.target)
    index = rec.config_index if rec.config_index is not None else 0
    key = capture_key(rec.name, {}, target, index, triton_hash=rec.hash)
    if (existing := store.get(key)) is not None:
        return existing
    staging = store.new_staging(key)
    try:
        files: dict[str, str] = {}
        for fname, path in rec.files.items():
            src = Path(path)
            if src.is_file() and not fname.startswith("__grp__"):
                shutil.copyfile(src, staging / fname)
                ext = fname.rsplit(".", 1)[-1]
                files[_EXT_TO_STAGE.get(ext, ext)] = fname
        # No .sass from Triton's dump folder: it is shared by compiles that differ only in num_warps/num_stages,
        # so it may be another config's. NVIDIA captures make theirs from their own cubin (irscope.toolchain.sass_lazy).
        if rec.kept_source and Path(rec.kept_source).is_file():
            shutil.copyfile(rec.kept_source, staging / "source.py")
            files["source"] = "source.py"
        if launches:  # the grids the program launched it with (offline: evaluated where the launch was skipped)
            # per_run: an Inductor kernel's launches per graph run
            kept = ("grid", "values", "tensors", "per_run", "data", "not_recorded")
            (staging / LAUNCHES_FILE).write_text(json.dumps([{k: n[k] for k in kept if k in n} for n in launches]),
                                                 encoding="utf-8")
            files["launches"] = LAUNCHES_FILE
        if provenance is not None:  # an Inductor kernel: the FX nodes, ATen ops and model lines it came from
            (staging / PROVENANCE_FILE).write_text(json.dumps(provenance, indent=1), encoding="utf-8")
            files["provenance"] = PROVENANCE_FILE
        meta = rec.metadata
        manifest = new_manifest(
            key=key, kernel=rec.name, kernel_path=rec.source_file, function=rec.qualname or rec.name,
            target=target, config_index=index, config=rec.config,
            triton_version=rec.triton_version or str(meta.get("triton_version", "")),
            signature=rec.signature, constexprs=rec.constexprs, attrs=rec.attrs,
            options={k: meta[k] for k in _OPTION_KEYS if k in meta}, metadata=meta,
            compile_seconds=sum(rec.stage_seconds.values()), stage_seconds=rec.stage_seconds, files=files,
            origin="program", program=command, replay=rec.replay, autotune=rec.autotune, same_code_as=same_code_as,
        )
        return store.commit(staging, manifest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
