"""docs/corpus.md from a corpus run: per source and target what was captured, and per command ok/refused/failed."""

from __future__ import annotations

import json
import platform
import re
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from capture import Layout
from commands import COMMANDS, captured_keys
from sources import SOURCES


def current_rows(layout: Layout) -> list[dict[str, Any]]:
    """The results on the captures the program capture made (not on compare's variants, nor on keys of an
    earlier capture of the run)."""
    if not layout.results.is_file():
        return []
    rows = [json.loads(ln) for ln in layout.results.read_text(encoding="utf-8").splitlines() if ln.strip()]
    keys = {run: set(captured_keys(layout.runs / run)) for run in {r["run"] for r in rows}}
    return [r for r in rows if r["key"] in keys[r["run"]]]


def shape(line: str) -> str:
    """A refusal line with its kernel names, keys, numbers and paths blanked, to group alike ones."""
    line = re.sub(r"\S+-(sm|gfx)\d+\S*", "KEY", line)
    line = re.sub(r"(/[\w.+-]+)+", "PATH", line)
    return re.sub(r"\b\d+(\.\d+)?\b", "N", line)


def _versions() -> str:
    from importlib import metadata
    parts = []
    for dist in ("triton", "torch"):
        try:
            parts.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{dist} (not installed)")
    return ", ".join(parts)


def _exit_from_log(run: Path) -> int | None:
    """The program's exit status read from an older run's capture.log (its capture.json did not keep it)."""
    found = re.findall(r"^irscope: ran .*, exit status (-?\d+)$", (run / "capture.log").read_text(
        encoding="utf-8", errors="replace"), flags=re.M) if (run / "capture.log").is_file() else []
    return int(found[-1]) if found else None


def _capture_section(layout: Layout, targets: list[str]) -> list[str]:
    out = ["| source | target | program exit | driver cases ok / failed | captures | kernels | capture s | "
           "NOT captured |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for source in SOURCES:
        for target in targets:
            path = layout.run_dir(source.name, target) / "capture.json"
            if not path.is_file():
                continue
            rec = json.loads(path.read_text(encoding="utf-8"))
            if rec.get("skipped"):
                out.append(f"| {source.name} | {target} | skipped: {rec['skipped']} | | | | | |")
                continue
            cases = rec.get("cases", [])
            ok = sum(1 for c in cases if c.get("ok"))
            run = layout.run_dir(source.name, target)
            keys = captured_keys(run)
            n = len(keys)
            names = {json.loads((run / "store" / "captures" / k / "manifest.json").read_text()).get("kernel")
                     for k in keys}
            status = "timed out" if rec.get("timed_out") else rec.get("program_exit", _exit_from_log(run))
            out.append(f"| {source.name} | {target} | {status} | {ok} / {len(cases) - ok} | {n} | {len(names)} | "
                       f"{rec.get('seconds')} | {len(rec.get('not_captured', []))} |")
    return out


def _command_section(rows: list[dict[str, Any]]) -> list[str]:
    by: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for r in rows:
        by[(r["run"], r["command"].split(":")[0])][r["status"]] += 1
    runs = sorted({r["run"] for r in rows})
    out = ["| run | " + " | ".join(COMMANDS) + " |", "| --- |" + " --- |" * len(COMMANDS)]
    for run in runs:
        cells = []
        for command in COMMANDS:
            c = by.get((run, command), Counter())
            cells.append(f"{c['ok']}/{c['refused']}/{c['failed']}" if c else "")
        out.append(f"| {run} | " + " | ".join(cells) + " |")
    return out


def _grouped(layout: Layout, rows: list[dict[str, Any]], status: str) -> list[str]:
    groups: Counter[tuple[str, str]] = Counter()
    example: dict[tuple[str, str], dict[str, Any]] = {}
    for r in rows:
        if r["status"] != status:
            continue
        text = f"{r.get('why', '')}: {r.get('line', '')}" if status == "failed" else str(r.get("line", ""))
        if r.get("disagree"):  # a verify disagreement: grouped by which claims disagree
            kinds = sorted({d.split()[1] for d in r["disagree"] if len(d.split()) > 1})
            text = "verify disagreement: " + ", ".join(kinds)
        key = (r["command"].split(":")[0], shape(text.replace(r["kernel"], "KERNEL")))
        groups[key] += 1
        example.setdefault(key, r)
    out = [f"| count | command | {'class' if status == 'failed' else 'reason'} | e.g. run, kernel |"
           + (" one line |" if status == "refused" else ""),
           "| --- | --- | --- | --- |" + (" --- |" if status == "refused" else "")]
    for (command, form), n in groups.most_common():
        e = example[(command, form)]
        line = (f"{e.get('why')}: " if status == "failed" else "") + str(e.get("line", ""))
        if e.get("disagree"):
            line = f"{form}: e.g. {e['disagree'][0].split(None, 2)[-1]}"
        line = line.replace(str(layout.root), ".corpus")
        one = (" yes |" if e.get("one_line") else " no |") if status == "refused" else ""
        out.append(f"| {n} | {command} | {line.replace('|', '/')[:220]} | {e['run']}, {e['kernel']} |{one}")
    return out


# What a driver case's error says about whose piece was missing, where the text alone tells (a heuristic: the
# lead's rerun after the capture fixes is what confirms it).
LIKELY = (("OfflineDriver", "irscope: offline driver"), ("best_config", "irscope: offline Autotuner.run"),
          ("CPU only", "irscope: tensors stay on the CPU"), ("default_generators", "irscope: torch.cuda stand-in"),
          ("not linked with support for cuda", "irscope: torch.cuda stand-in"),
          ("Block pointers have been removed", "Triton"), ("is not a package", "the driver"))


def _likely(text: str, frames: list[str]) -> str:
    for needle, cause in LIKELY:
        if needle in text:
            return cause
    return "irscope (raised in its code)" if frames and "/irscope/" in frames[-1] else "program/library"


def _case_section(layout: Layout, targets: list[str]) -> list[str]:
    out = ["| run | case | error | likely cause |", "| --- | --- | --- | --- |"]
    for source in SOURCES:
        for target in targets:
            path = layout.run_dir(source.name, target) / "capture.json"
            if not path.is_file():
                continue
            for c in json.loads(path.read_text(encoding="utf-8")).get("cases", []):
                if not c.get("ok"):
                    err = f"{c.get('type')}: {c.get('error', '')}".replace("|", "/")[:200]
                    whose = _likely(f"{err} {c.get('trace', '')}", c.get("frames", []))
                    out.append(f"| {source.name}-{target} | {c['case']} | {err} | {whose} |")
    return out


def _not_captured(layout: Layout, targets: list[str]) -> list[str]:
    groups: Counter[str] = Counter()
    example: dict[str, str] = {}
    for source in SOURCES:
        for target in targets:
            path = layout.run_dir(source.name, target) / "capture.json"
            if not path.is_file():
                continue
            for line in json.loads(path.read_text(encoding="utf-8")).get("not_captured", []):
                reason = line.split(": ", 1)[-1]
                key = f"{source.name}-{target}: {shape(reason)}"
                groups[key] += 1
                example.setdefault(key, line)
    out = ["| count | run | e.g. |", "| --- | --- | --- |"]
    for key, n in groups.most_common():
        out.append(f"| {n} | {key.split(':', 1)[0]} | {example[key].replace('|', '/')[:220]} |")
    return out


def write_table(layout: Layout, targets: list[str], note: str = "") -> str:
    """The whole of docs/corpus.md."""
    rows = current_rows(layout)
    status = Counter(r["status"] for r in rows)
    kernels = {(r["run"].rsplit("-", 1)[1], r["kernel"]) for r in rows}
    lines = [
        "# The corpus", "",
        "Real Triton code from pinned sources, captured offline (`irscope capture --target T -- python DRIVER`)",
        "and every command run on every capture. The runner is `benchmarks/corpus/run.py`; what ok / refused /",
        "failed mean is in `benchmarks/corpus/README.md`. This file is written by the runner:", "",
        "```bash",
        "python benchmarks/corpus/run.py install   # needs the network: pip download of the pinned sources",
        "python benchmarks/corpus/run.py all --targets sm90,sm100,gfx942 -j 16   # after install: "
        "capture, commands, table",
        "```", "",
        "One run of it by hand, as the runner does it (with `.corpus/site/liger` on PYTHONPATH):", "",
        "```bash",
        "irscope capture --target gfx942 -- python benchmarks/corpus/drivers/liger_driver.py   # needs liger-kernel",
        "```", "",
        f"Run of {time.strftime('%Y-%m-%d', time.gmtime())} on {platform.node() or 'this machine'} "
        f"({platform.machine()}, Python {platform.python_version()}, {_versions()}).", "",
        *([note, ""] if note else []),
        f"Totals: {len(rows)} commands on {len({r['key'] for r in rows})} captures of "
        f"{len(kernels)} (target, kernel) pairs: {status['ok']} ok, {status['refused']} refused, "
        f"{status['failed']} failed.", "",
        "## Sources", "",
        "| source | pins | what |", "| --- | --- | --- |",
        *[f"| {s.name} | {', '.join(s.requirements) or '`--tutorials DIR`'} | {s.note} |" for s in SOURCES], "",
        "## Captures", "", *_capture_section(layout, targets), "",
        "## Commands (ok/refused/failed per run)", "", *_command_section(rows), "",
        "## Failures, grouped", "", *_grouped(layout, rows, "failed"), "",
        "## Refusals, grouped", "", *_grouped(layout, rows, "refused"), "",
        "## Kernels NOT captured (the compile failed), grouped", "", *_not_captured(layout, targets), "",
        "## Driver cases that raised", "", *_case_section(layout, targets), "",
    ]
    return "\n".join(lines)
