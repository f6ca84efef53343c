"""Facts snapshots for CI: which compilations to make (plain-data jobs), run in parallel, and checked.

A snapshot (``irscope facts ... -o facts.json``) lists entries, each a job (kernel, launch, target,
config) with the facts its compilation had. ``irscope check facts.json`` runs the jobs again, with
the Triton chosen now, and reports the facts that moved beyond their tolerance. A job is plain JSON
so any engine (a process pool here, or Dask: ``request/engines.py``) can run it: ``run_job(job, store, triton)``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from irscope.analysis.facts import FACTS_FORMAT, Delta, compare_facts, parse_tolerance
from irscope.errors import IrscopeError, UsageError

if TYPE_CHECKING:
    from irscope.request.engines import Engine

_JOB_FIELDS = ("kernel", "target", "config")


@dataclass(frozen=True)
class Job:
    """One compilation to make: what ``irscope show`` would be told on its command line.

    Attributes:
        kernel: a bundled kernel, a kernel-module path, FILE.py:FUNCTION or a stored capture's name.
        target: the target name.
        config: the config index.
        launch: for FILE:FUNCTION kernels, ``signature``/``args``/``constexprs``/``options`` as given.
    """

    kernel: str
    target: str
    config: int = 0
    launch: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The job as plain data."""
        out: dict[str, Any] = {"kernel": self.kernel, "target": self.target, "config": self.config}
        if self.launch:
            out["launch"] = self.launch
        return out

    def label(self) -> str:
        """``matmul sm90 c1``."""
        return f"{self.kernel} {self.target} c{self.config}"


@dataclass(frozen=True)
class Outcome:
    """What running a job gave: its capture's key and facts, or why it failed."""

    job: Job
    key: str = ""
    label: str = ""
    facts: dict[str, Any] = field(default_factory=dict)
    error: str = ""


def launch_data(launch: Any) -> dict[str, Any]:
    """A LaunchSpec as a job's plain-data ``launch`` (only what was given); ``launch_spec`` is its inverse."""
    items = (("signature", launch.signature), ("args", launch.args), ("constexprs", list(launch.constexprs)),
             ("options", {k: v for k, v in launch.options.items() if v is not None}),
             ("settings", list(launch.settings)))
    return {k: v for k, v in items if v}


def launch_spec(data: dict[str, Any]) -> Any:
    from irscope.request.captures import LaunchSpec

    return LaunchSpec(signature=data.get("signature"), args=data.get("args"),
                      constexprs=tuple(data.get("constexprs", ())), options=dict(data.get("options", {})),
                      settings=tuple(data.get("settings", ())))


def run_job(job: dict[str, Any], store: str, triton: str | None = None, facts: bool = True) -> dict[str, Any]:
    """Compile one job (plain data in, plain data out): ``{"key", "label", "facts"}`` or ``{"error"}``.

    Runs in any process: it chooses the Triton itself (``triton``: a version or an interpreter path).
    With ``facts`` false it only makes sure the capture is in the store.
    """
    from irscope.analysis.facts import capture_facts
    from irscope.request.captures import get_capture, make_request
    from irscope.toolchain.tritons import resolve, using

    try:
        env = resolve(triton, Path(store)) if triton else None
        with using(env):
            request = make_request(job["kernel"], job["target"], int(job.get("config", 0)),
                                   launch=launch_spec(job.get("launch", {})), store_dir=store)
            capture = get_capture(request, store)
        if not facts:
            return {"key": capture.manifest.key, "label": "", "facts": {}}
        found = capture_facts(capture)
        return {"key": found.key, "label": found.label, "facts": found.values, "unread": list(found.unread)}
    except IrscopeError as exc:
        return {"error": " ".join(str(exc).split())}


def validate(jobs: Sequence[Job], store: Path) -> None:
    """Refuse, before anything compiles, a job whose kernel, target or config irscope cannot take."""
    from irscope.request.captures import make_request

    for job in jobs:
        try:
            make_request(job.kernel, job.target, job.config, launch=launch_spec(job.launch), store_dir=str(store))
        except UsageError as exc:
            raise UsageError(f"{job.label()}: {exc}") from None


def run_jobs(jobs: Sequence[Job], store: Path, triton: str | None, workers: int,
             progress: Callable[[Job], None] | None = None, facts: bool = True,
             engine: Engine | None = None) -> list[Outcome]:
    """Run jobs, ``workers`` at a time in worker processes (1: in this process) or on ``engine``; in job order."""
    results: dict[int, dict[str, Any]] = {}
    if engine is not None and engine.kind == "dask":
        from irscope.request.engines import run_on_dask

        step = (lambda i: progress(jobs[i])) if progress else None
        found = run_on_dask(run_job, [job.to_json() for job in jobs], str(store), triton, workers, engine.address,
                            step, facts)
        results = dict(enumerate(found))
    elif workers <= 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            results[i] = run_job(job.to_json(), str(store), triton, facts)
            if progress:
                progress(job)
    else:
        import multiprocessing

        context = multiprocessing.get_context("spawn")  # never fork a process that may hold Triton's state
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = {pool.submit(run_job, job.to_json(), str(store), triton, facts): i for i, job in enumerate(jobs)}
            for future in as_completed(futures):
                i = futures[future]
                results[i] = future.result()
                if progress:
                    progress(jobs[i])
    return [Outcome(job=job, key=r.get("key", ""), label=r.get("label", ""), facts=r.get("facts", {}),
                    error=r.get("error", "")) for job, r in ((jobs[i], results[i]) for i in range(len(jobs)))]


def default_workers() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def snapshot(outcomes: Sequence[Outcome], triton_version: str, tolerances: dict[str, str]) -> dict[str, Any]:
    """The facts file's content."""
    from irscope import __version__

    return {"format": FACTS_FORMAT, "irscope": __version__, "triton": triton_version, "tolerances": tolerances,
            "entries": [{**o.job.to_json(), "key": o.key, "facts": o.facts} for o in outcomes]}


def read_snapshot(path: Path) -> tuple[list[tuple[Job, dict[str, Any]]], dict[str, str], str]:
    """The jobs with their recorded facts, the file's tolerances and the Triton that made it; UsageError when
    malformed."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path} is not a facts file (not JSON: {exc}); make one with irscope facts KERNEL -o "
                         f"{path.name}") from None
    if not isinstance(data, dict) or data.get("format") != FACTS_FORMAT or not isinstance(data.get("entries"), list):
        raise UsageError(f"{path} is not a facts file of format {FACTS_FORMAT} (make one with irscope facts KERNEL "
                         f"-o {path.name})")
    tolerances = data.get("tolerances", {})
    if not isinstance(tolerances, dict) or not all(isinstance(v, str) for v in tolerances.values()):
        raise UsageError(f"{path}: 'tolerances' must map fact names to amounts such as \"5%\", \"8\" or \"any\"")
    for name, amount in tolerances.items():
        parse_tolerance(f"{name}={amount}")
    entries: list[tuple[Job, dict[str, Any]]] = []
    for i, entry in enumerate(data["entries"]):
        if not isinstance(entry, dict) or any(k not in entry for k in _JOB_FIELDS) \
                or not isinstance(entry.get("facts"), dict) or not isinstance(entry["kernel"], str) \
                or not isinstance(entry["target"], str) or not isinstance(entry["config"], int) \
                or not isinstance(entry.get("launch", {}), dict):
            raise UsageError(f"{path}: entry {i} needs kernel (text), target (text), config (a number) and facts "
                             "(an object)")
        entries.append((Job(kernel=entry["kernel"], target=entry["target"], config=entry["config"],
                            launch=entry.get("launch", {})), entry["facts"]))
    if not entries:
        raise UsageError(f"{path} has no entries")
    return entries, tolerances, str(data.get("triton", ""))


@dataclass(frozen=True)
class CheckResult:
    """One entry checked: the deltas beyond tolerance (``failed``), and those within it."""

    job: Job
    deltas: tuple[Delta, ...]
    error: str = ""
    label: str = ""

    @property
    def failed(self) -> bool:
        """Whether this entry breaks the check."""
        return bool(self.error) or any(not d.allowed for d in self.deltas)


def check_snapshot(path: Path, store: Path, triton: str | None = None, extra_tolerances: Sequence[str] = (),
                   workers: int = 1, progress: Callable[[Job], None] | None = None,
                   engine: Engine | None = None) -> list[CheckResult]:
    """Recompile every entry of a snapshot and compare its facts with the recorded ones."""
    entries, file_tolerances, _ = read_snapshot(path)
    rules = [parse_tolerance(f"{k}={v}") for k, v in file_tolerances.items()]
    rules += [parse_tolerance(t) for t in extra_tolerances]
    validate([job for job, _ in entries], store)
    outcomes = run_jobs([job for job, _ in entries], store, triton, workers, progress, engine=engine)
    results = []
    for (job, recorded), outcome in zip(entries, outcomes, strict=True):
        if outcome.error:
            results.append(CheckResult(job=job, deltas=(), error=outcome.error))
            continue
        deltas = compare_facts(recorded, outcome.facts, rules)
        results.append(CheckResult(job=job, deltas=tuple(deltas), label=outcome.label))
    return results


def main(argv: list[str] | None = None) -> int:
    """``python -m irscope.request.factsfile STORE JOB_JSON [TRITON]``: run one job (no facts), print its result as
    JSON."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (2, 3):
        sys.stderr.write("usage: python -m irscope.request.factsfile STORE JOB_JSON [TRITON]\n")
        return 2
    result = run_job(json.loads(args[1]), args[0], args[2] if len(args) == 3 else None, facts=False)
    sys.stdout.write(json.dumps(result) + "\n")
    return 0 if "error" not in result else 1


if __name__ == "__main__":
    raise SystemExit(main())
