"""``irscope report``'s work: find the program record, model each compiled config (cached), try variants, build.

Each capture key's facts are cached under the program's folder (``programs/<id>/report/<version>-<gpu>/``), keyed
by the key and ``REPORT_VERSION``, so a warm report reads small JSON files and runs no model. Cold facts are
computed in worker processes (one per core) when there are many. Variants for the verdicts are compiled in the warm
compile worker (``irscope.request.what_if``), and their predictions cached beside the facts. Reading a warm report
imports neither torch nor Triton.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from irscope.analysis.report.facts import ConfigFacts
from irscope.analysis.report.results import ProgramReport, WhatIf
from irscope.errors import IrscopeError, StoreError, UsageError
from irscope.model.program_record import KernelUse, ProgramRecord
from irscope.store.store import Store

if TYPE_CHECKING:
    from irscope.analysis.perf.device import DeviceModel

__all__ = ["REPORT_VERSION", "ReportOptions", "program_report"]

# Bump when ConfigFacts, the model it runs or the variants tried change: older cached facts are then not read.
REPORT_VERSION = 3
_PARALLEL_FROM = 8  # uncached configs from which worker processes pay for their start


@dataclass(frozen=True)
class ReportOptions:
    """What the report is asked for.

    Attributes:
        program: the program's id, a prefix of it, or ``latest`` (None: the latest).
        steps: ``--steps`` (None: graph 0's runs).
        top: rows that get a reason and a verdict.
        what_if: how many of the top rows get variants compiled for their verdict (0: none).
        gpu: the GPU to model (None: the target's).
        jobs: worker processes for cold facts (None: one per core).
    """

    program: str | None = None
    steps: int | None = None
    top: int = 10
    what_if: int = 3
    gpu: str | None = None
    jobs: int | None = None


def _read_program(root: Path, name: str | None) -> tuple[ProgramRecord, Path]:
    """The program record named ``name`` (an id, a unique prefix, ``latest``), and its folder; one line when none."""
    from irscope.store.programs import programs_dir, read_program

    record = read_program(root, name or "latest")
    return record, programs_dir(root) / record.id


def _cache_dir(folder: Path, gpu: str) -> Path:
    return folder / "report" / f"v{REPORT_VERSION}-{_model_digest()}-{gpu}"


@functools.lru_cache(maxsize=1)
def _model_digest() -> str:
    """The source of every irscope module a row's facts depend on (the report path's import graph): a changed model
    is not answered from the cache."""
    from irscope.analysis.report.digest import model_digest

    return model_digest()


def _read_cached(path: Path) -> ConfigFacts | None:
    try:
        return ConfigFacts.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError, KeyError):
        return None  # absent or not what this version writes: made again


def _write_cached(cache: Path, name: str, text: str) -> None:
    """Cache a file beside the record, under a temporary name then renamed; a read-only store keeps nothing."""
    path = cache / name
    tmp = path.with_name(f".{name}.{os.getpid()}.{os.urandom(3).hex()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def facts_of(root: str, key: str, gpu: str | None, target: str) -> ConfigFacts | str:
    """Model one capture at the first launch the program recorded of it; or why it cannot be."""
    from irscope.analysis.report.facts import capture_config_facts
    from irscope.request.launch_cache import recorded_launches

    capture = Store(Path(root)).get(key)
    if capture is None:
        return f"capture {key} is not in the store"
    launches = recorded_launches(capture.path, capture.manifest.files)
    if not launches:
        return "the capture recorded no launch"
    note = "its one recorded launch" if len(launches) == 1 else f"the first of its {len(launches)} recorded launches"
    shared = int(capture.manifest.metadata.get("shared", 0) or 0)
    try:
        return capture_config_facts(capture, _device(gpu, target), launches[0], note, with_bank=shared > 0)
    except IrscopeError as exc:
        return " ".join(str(exc).split())


def _device(gpu: str | None, target: str) -> DeviceModel:
    from irscope.request.perf_launch import perf_device

    return perf_device(gpu, target, lambda: None)[0]


def _facts_job(args: tuple[str, str, str | None, str]) -> tuple[str, dict[str, object] | str]:
    """A worker's share of the cold facts: one key, as JSON data (or why not)."""
    found = facts_of(*args)
    return args[1], found.to_json() if isinstance(found, ConfigFacts) else found


def _all_facts(root: Path, keys: Iterable[str], cache: Path, gpu: str | None, target: str,
               jobs: int | None, progress: Callable[[str], None] | None = None) -> dict[str, ConfigFacts | str]:
    """Every key's facts: cached ones read, the rest computed (in worker processes when there are many) and cached."""
    facts: dict[str, ConfigFacts | str] = {}
    todo = []
    for key in dict.fromkeys(keys):
        cached = _read_cached(cache / f"{key}.json")
        if cached is not None:
            facts[key] = cached
        else:
            todo.append((str(root), key, gpu, target))
    workers = min(jobs or os.cpu_count() or 1, len(todo))
    if todo and progress is not None:
        progress(f"modelling {len(todo)} compiled config(s) not modelled before"
                 + (f", in {workers} processes" if workers > 1 and len(todo) >= _PARALLEL_FROM else "")
                 + " (cached for the next report)")
    if workers > 1 and len(todo) >= _PARALLEL_FROM:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            for key, found in pool.map(_facts_job, todo, chunksize=2):  # each cached as it arrives
                facts[key] = _keep(cache, key, found)
    else:
        for job in todo:
            key, found = _facts_job(job)
            facts[key] = _keep(cache, key, found)
    return facts


def _keep(cache: Path, key: str, found: dict[str, object] | str) -> ConfigFacts | str:
    """One key's computed facts, cached (a reason it has none is not: the capture may be healed)."""
    if isinstance(found, str):
        return found
    _write_cached(cache, f"{key}.json", json.dumps(found))
    return ConfigFacts.from_json(found)


def _variant_settings(facts: ConfigFacts) -> list[dict[str, int]]:
    """The variants tried for a verdict: half and twice the warps, and one more stage when a loop did not pipeline."""
    warps = int(facts.settings.get("num_warps") or 0)
    out = [{"num_warps": w} for w in (warps // 2, warps * 2) if warps and 1 <= w <= 32 and w != warps]
    stages = int(facts.settings.get("num_stages") or 0)
    if facts.loops and stages:
        out.append({"num_stages": stages + 1})
    return out


def _what_ifs(store: Store, facts: ConfigFacts, cache: Path, gpu: str | None, target: str) -> tuple[WhatIf, ...]:
    """The variants of one chosen config, compiled (or found in the store) and predicted at the same launch."""
    path = cache / f"{facts.key}.whatif.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return tuple(WhatIf(str(w["label"]), str(w["key"]), float(w["predicted_us"]), str(w["error"])) for w in data)
    except (OSError, ValueError, TypeError, KeyError):
        pass
    from irscope.analysis.report.facts import capture_config_facts
    from irscope.request.launch_cache import recorded_launches
    from irscope.request.what_if import compile_variant, stored_variant, variant_of

    base = store.get(facts.key)
    if base is None:
        return ()
    shape = recorded_launches(base.path, base.manifest.files)[0]
    tried = []
    for settings in _variant_settings(facts):
        variant = variant_of(base, settings)
        made = stored_variant(variant, str(store.root)) or compile_variant(variant, str(store.root))
        capture = store.get(made.key) if made.key else None
        if capture is None:
            tried.append(WhatIf(variant.label, error=made.error or "not stored"))
            continue
        shared = int(capture.manifest.metadata.get("shared", 0) or 0)
        found = capture_config_facts(capture, _device(gpu, target), shape, "the base's launch", with_bank=shared > 0)
        tried.append(WhatIf(variant.label, made.key, found.predicted_us))
    _write_cached(cache, f"{facts.key}.whatif.json", json.dumps([asdict(w) for w in tried]))
    return tuple(tried)


def program_report(store_dir: str | None, options: ReportOptions,
                   progress: Callable[[str], None] | None = None) -> ProgramReport:
    """The report of a program capture (see :class:`ReportOptions`)."""
    from irscope.analysis.report.build import build_report, program_steps
    from irscope.model.paths import store_root

    root = store_root(store_dir)
    record, folder = _read_program(root, options.program)
    program_steps(record, options.steps)  # a bad --steps is refused before any work
    launched, silent = launched_outside_graphs(Store(root), record)
    if not record.graphs and not launched:
        raise UsageError(f"program {record.id} recorded no Triton kernel launch: there is nothing to report"
                         + (f" (it compiled {', '.join(silent[:5])} but launched none)" if silent else ""))
    notes = (f"{len(silent)} compiled kernel(s) recorded no launch, not counted: {', '.join(silent[:5])}"
             + (" ..." if len(silent) > 5 else ""),) if silent else ()
    device = _device(options.gpu, record.target)
    cache = _cache_dir(folder, device.name)
    with contextlib.suppress(OSError):  # a read-only store: nothing is cached
        cache.mkdir(parents=True, exist_ok=True)
    keys = [k for g in record.graphs for use in g.kernels for k in use.keys] + [k for u in launched for k in u.keys]
    facts = _all_facts(root, keys, cache, options.gpu, record.target, options.jobs, progress)
    first = build_report(record, facts, device, steps=options.steps, top=options.top, launched=launched,
                         notes=notes)
    if not options.what_if:
        return first
    store = Store(root)
    tried: dict[str, tuple[WhatIf, ...]] = {}
    for row in [r for r in first.kernels if r.chosen is not None][:options.what_if]:
        if row.chosen is not None:
            if progress is not None:
                progress(f"variants of {row.name}")
            try:
                tried[row.chosen.key] = _what_ifs(store, row.chosen, cache, options.gpu, record.target)
            except (IrscopeError, StoreError) as exc:
                tried[row.chosen.key] = (WhatIf("variants", error=" ".join(str(exc).split())),)
    return build_report(record, facts, device, steps=options.steps, top=options.top, what_ifs=tried,
                        launched=launched, notes=notes)


def launched_outside_graphs(store: Store, record: ProgramRecord) -> tuple[tuple[KernelUse, ...], list[str]]:
    """The kernels the program launched outside its torch.compile graphs (its own ``@triton.jit`` kernels, a
    library's), each with the launches its captures recorded; and the names of those compiled but never launched.

    An autotuned kernel's configs are one use (the autotuner runs one of them per launch; its launches are the most
    any config recorded); every other capture is a use of its own: a specialization the program launched.
    """
    from irscope.request.launch_cache import recorded_launches

    in_graphs = {k for g in record.graphs for use in g.kernels for k in use.keys}
    groups: dict[tuple[str, str], list[tuple[str, int]]] = {}
    silent: list[str] = []
    for key in record.keys:
        if key in in_graphs:
            continue
        capture = store.get(key)
        if capture is None:
            continue  # removed from the store since: nothing to model or count
        manifest = capture.manifest
        launches = len(recorded_launches(capture.path, manifest.files))
        if not launches:
            silent += [manifest.kernel] if manifest.kernel not in silent else []
            continue
        group = (manifest.kernel, "autotune" if manifest.autotune else key)
        groups.setdefault(group, []).append((key, launches))
    uses = tuple(KernelUse(name=name, keys=tuple(k for k, _ in found), per_run=max(n for _, n in found))
                 for (name, _), found in groups.items())
    return uses, silent
