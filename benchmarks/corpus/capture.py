"""Capturing a source's kernels offline: ``irscope capture --target T -- python DRIVER``, one store per run."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from install import source_dir
from sources import Source

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Layout:
    """Where the corpus keeps its files (default ``.corpus/`` in the repository)."""

    root: Path

    @property
    def wheels(self) -> Path:
        return self.root / "wheels"

    @property
    def site(self) -> Path:
        return self.root / "site"

    @property
    def src(self) -> Path:
        return self.root / "src"

    @property
    def runs(self) -> Path:
        return self.root / "runs"

    @property
    def results(self) -> Path:
        return self.root / "results.jsonl"

    def run_dir(self, source: str, target: str) -> Path:
        return self.runs / f"{source}-{target}"

    def sites(self) -> list[Path]:
        return sorted(p for p in self.site.glob("*") if p.is_dir()) if self.site.is_dir() else []


def pythonpath(*extra: Path) -> str:
    """This checkout first (irscope as it is here), then ``extra``, then what was already there."""
    parts = [str(REPO), *map(str, extra)]
    if os.environ.get("PYTHONPATH"):
        parts.append(os.environ["PYTHONPATH"])
    return os.pathsep.join(parts)


def capture(source: Source, target: str, layout: Layout, jobs: int, timeout: float, only: str | None,
            tutorials: Path | None, autotune: str = "pruned") -> dict[str, object]:
    """Run the source's driver under ``irscope capture --target``; write and return the run's capture.json."""
    run = layout.run_dir(source.name, target)
    run.mkdir(parents=True, exist_ok=True)
    cases = run / "cases.jsonl"
    cases.unlink(missing_ok=True)
    shutil.rmtree(run / "store", ignore_errors=True)  # made again: a capture kept from before would shadow its new one
    env = dict(os.environ, PYTHONPATH=pythonpath(layout.site / source.name), CORPUS_CASES=str(cases),
               TRITON_CACHE_DIR=str(run / "triton-cache"), TORCHINDUCTOR_CACHE_DIR=str(run / "inductor-cache"),
               TORCHINDUCTOR_COMPILE_THREADS="1", PYTHONUNBUFFERED="1", IRSCOPE_PRECOMPILE="0")
    env.pop("IRSCOPE_TARGET", None)
    if only:
        env["CORPUS_ONLY"] = only
    src = source_dir(source, layout.src)
    if src is not None:
        env["CORPUS_SRC"] = str(src)
    if source.tutorials:
        if tutorials is None:
            return _write(run, {"source": source.name, "target": target, "skipped": "no --tutorials DIR given"})
        env["CORPUS_TUTORIALS"] = str(tutorials.resolve())
    cmd = [sys.executable, "-m", "irscope", "capture", "--target", target, "-j", str(jobs), "--autotune", autotune,
           "--store", str(run / "store"), "--", sys.executable, str(source.driver_path)]
    start = time.monotonic()
    with open(run / "capture.log", "w", encoding="utf-8") as log:
        try:
            rc: int | None = subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=timeout,
                                            cwd=run).returncode
        except subprocess.TimeoutExpired:
            rc = None
    text = (run / "capture.log").read_text(encoding="utf-8", errors="replace")
    return _write(run, {
        "source": source.name, "target": target, "autotune": autotune, "rc": rc, "timed_out": rc is None,
        "seconds": round(time.monotonic() - start, 1),
        "captured": sum(1 for ln in text.splitlines() if ln.startswith("  captured ")),
        "keys": [ln.split()[3] for ln in text.splitlines() if ln.startswith("  captured ") and len(ln.split()) > 3],
        "not_captured": [ln.strip()[len("NOT captured: "):] for ln in text.splitlines()
                         if ln.strip().startswith("NOT captured: ")],
        "program_exit": _program_exit(text),
        "irscope_lines": [ln for ln in text.splitlines() if ln.startswith("irscope: ")][:20],
        "tracebacks": text.count("Traceback (most recent call last)"),
        "cases": [json.loads(ln) for ln in cases.read_text().splitlines() if ln.strip()] if cases.is_file() else [],
    })


def _program_exit(log: str) -> int | None:
    """The program's exit status as irscope capture reported it (``..., exit status N``)."""
    found = re.findall(r"^irscope: ran .*, exit status (-?\d+)$", log, flags=re.M)
    return int(found[-1]) if found else None


def _write(run: Path, record: dict[str, object]) -> dict[str, object]:
    (run / "capture.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return record
