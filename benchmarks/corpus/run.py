"""The corpus: real Triton code from pinned sources, captured offline for each target, every command on each capture.

    python benchmarks/corpus/run.py install [--wheels DIR] [--python-version 3.12]
    python benchmarks/corpus/run.py capture --targets sm90,sm100,gfx942 [--tutorials DIR] [-j N]
    python benchmarks/corpus/run.py commands [-j N] [--per-kernel N]
    python benchmarks/corpus/run.py table [-o docs/corpus.md]
    python benchmarks/corpus/run.py all --tutorials DIR          # the four above, in order

Everything lives under ``--work`` (default ``.corpus/`` in the repository, git-ignored): the wheel cache, one
install folder per source, one run folder per source and target (its own store, the driver's case results,
the capture's log) and ``results.jsonl``, one line per command run (a rerun skips those already there).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from capture import REPO, Layout, capture
from commands import COMMANDS, done_ids, jobs, run_jobs
from install import download, install
from sources import by_name

TARGETS = ("sm90", "sm100", "gfx942")


class Progress:
    """tqdm when it is installed, else a counter on stderr; counts ok / refused / failed."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.counts = total, label, Counter[str]()
        try:
            from tqdm import tqdm
            self.bar: Any = tqdm(total=total, desc=label, unit="cmd", file=sys.stderr)
        except ImportError:
            self.bar = None

    def __call__(self, row: dict[str, Any]) -> None:
        self.counts[row["status"]] += 1
        done = sum(self.counts.values())
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix(self.counts)
        elif done == self.total or done % 20 == 0:
            print(f"\r{self.label}: {done}/{self.total} {dict(self.counts)}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        else:
            print(file=sys.stderr)


def cmd_install(args: argparse.Namespace, layout: Layout) -> int:
    for source in by_name(args.sources):
        there = (layout.site / source.name).is_dir() and (not source.unpack or (layout.src / source.name).is_dir())
        if not args.wheels and (args.download_only or not there):
            download(source, layout.wheels, args.python_version)
        if not args.download_only:
            install(source, Path(args.wheels) if args.wheels else layout.wheels, layout.site, layout.src,
                    offline=bool(args.wheels))
        print(f"corpus: {source.name}: {', '.join(source.requirements) or '(from --tutorials)'}")
    return 0


def cmd_capture(args: argparse.Namespace, layout: Layout) -> int:
    tutorials = Path(args.tutorials) if args.tutorials else None
    for target in _targets(args.targets):
        for source in by_name(args.sources):
            run = layout.run_dir(source.name, target)
            if (run / "capture.json").is_file() and not args.force:
                print(f"corpus: {run.name}: captured before (--force to capture again)")
                continue
            forget_run(layout, run.name)
            rec = capture(source, target, layout, args.jobs, args.timeout, args.only, tutorials, args.autotune)
            bad = [c["case"] for c in rec.get("cases", []) if not c.get("ok")]  # type: ignore[union-attr]
            print(f"corpus: {run.name}: {rec.get('skipped') or ''}rc={rec.get('rc')} {rec.get('captured', 0)} "
                  f"captured in {rec.get('seconds', 0)} s; cases failed: {', '.join(bad) or 'none'}", flush=True)
    return 0


def forget_run(layout: Layout, run: str) -> None:
    """Drop a run's command results (its captures are about to be made again)."""
    if layout.results.is_file():
        keep = [ln for ln in layout.results.read_text(encoding="utf-8").splitlines()
                if ln.strip() and json.loads(ln).get("run") != run]
        layout.results.write_text("".join(f"{ln}\n" for ln in keep), encoding="utf-8")


def cmd_commands(args: argparse.Namespace, layout: Layout) -> int:
    runs = [layout.run_dir(s.name, t) for t in _targets(args.targets) for s in by_name(args.sources)]
    runs = [r for r in runs if (r / "capture.json").is_file()]
    chosen = tuple(args.commands.split(",")) if args.commands else COMMANDS
    done = done_ids(layout)
    todo = [j for j in jobs(layout, runs, chosen, args.per_kernel) if j.id not in done]
    print(f"corpus: {len(todo)} commands to run ({len(done)} done before) on {args.jobs} workers", flush=True)
    progress = Progress(len(todo), "commands")
    start = time.monotonic()
    run_jobs(layout, todo, args.jobs, args.timeout, progress)
    progress.close()
    took = time.monotonic() - start
    print(f"corpus: {len(todo)} commands in {took:.0f} s ({took / max(1, len(todo)):.2f} s each): "
          f"{dict(progress.counts)}")
    return summary(layout)


def summary(layout: Layout) -> int:
    """Print the failure classes of results.jsonl; exit 1 when any command failed."""
    from table import current_rows, shape
    rows = current_rows(layout)
    failed = Counter((r["command"].split(":")[0], r.get("why", ""),
                      shape(r.get("line", "").replace(r["kernel"], "KERNEL"))[:120])
                     for r in rows if r["status"] == "failed")
    for (command, why, line), n in failed.most_common():
        print(f"  FAILED x{n:<4} {command:<10} {why}: {line}")
    return 1 if failed else 0


def cmd_table(args: argparse.Namespace, layout: Layout) -> int:
    from table import write_table
    out = Path(args.output)
    out.write_text(write_table(layout, _targets(args.targets), args.note), encoding="utf-8")
    print(f"corpus: wrote {out}")
    return 0


def _targets(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="run.py", description=__doc__.splitlines()[0])
    p.add_argument("--work", default=str(REPO / ".corpus"), help="the corpus's folder (default .corpus/)")
    sub = p.add_subparsers(dest="verb", required=True)
    for verb in ("install", "capture", "commands", "table", "all"):
        s = sub.add_parser(verb)
        s.add_argument("--sources", help="comma list of sources (default: all)")
        s.add_argument("--targets", default=",".join(TARGETS))
        if verb in ("install", "all"):
            s.add_argument("--wheels", help="install offline from this folder of downloaded wheels/sdists")
            s.add_argument("--python-version", help="download wheels for this Python (e.g. 3.12), do not install")
            s.add_argument("--download-only", action="store_true")
        if verb in ("capture", "all"):
            s.add_argument("--tutorials", help="a python/tutorials folder of triton-lang/triton")
            s.add_argument("--only", help="regex: the driver cases to run (default: all)")
            s.add_argument("--force", action="store_true", help="capture again a run captured before")
            s.add_argument("--autotune", default="pruned", choices=("pruned", "first", "all"),
                           help="irscope capture --autotune: which configs of each autotuner to compile")
            s.add_argument("--capture-timeout", dest="timeout_capture", type=float, default=1800.0)
        if verb in ("capture", "commands", "all"):
            s.add_argument("-j", "--jobs", type=int, default=2)
        if verb in ("commands", "all"):
            s.add_argument("--commands", help=f"comma list (default: {','.join(COMMANDS)})")
            s.add_argument("--per-kernel", type=int, help="at most N captures of each kernel name per run")
            s.add_argument("--timeout", type=float, default=300.0, help="seconds per command")
        if verb in ("table", "all"):
            s.add_argument("-o", "--output", default=str(REPO / "docs" / "corpus.md"))
            s.add_argument("--note", default="", help="a paragraph put under the run's date (what it was)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    layout = Layout(Path(args.work).resolve())
    layout.root.mkdir(parents=True, exist_ok=True)
    if args.verb == "capture":
        args.timeout = args.timeout_capture
    if args.verb == "all":
        if args.python_version:
            args.download_only = True
        cmd_install(args, layout)
        timeout, args.timeout = args.timeout, args.timeout_capture
        cmd_capture(args, layout)
        args.timeout = timeout
        status = cmd_commands(args, layout)
        cmd_table(args, layout)
        return status
    return {"install": cmd_install, "capture": cmd_capture, "commands": cmd_commands,
            "table": cmd_table}[args.verb](args, layout)


if __name__ == "__main__":
    sys.exit(main())
