"""Regressions from public reports: what irscope says changed between the two Tritons each report names.

    python benchmarks/regressions/run.py                 # needs the network (pip download) the first time
    python benchmarks/regressions/run.py --wheels DIR    # offline: the wheels already downloaded into DIR
    python benchmarks/regressions/run.py --case gated-delta-rule-h20 --no-docs
    python benchmarks/regressions/run.py --clone ROCm/aiter=DIR   # a case read from a commit: a clone of its project

For each case of cases.py: download the pinned release that ships the kernel (``pip download --no-deps``),
take the kernel out of its file with only what it needs (``irscope.compile.replay.extract_kernel``; every
line stays on its own line number), install the two Tritons (``irscope triton install``), compile the
kernel with each (``irscope --triton V facts FILE:FUNCTION ...``) and compare the two captures
(``irscope compare KEY_A KEY_B --json``). The result per case: the first divergence irscope names (its
``first_divergence``; "not reported by this irscope" when the compare in use has none), the facts that
moved, and whether that agrees with the report's own analysis. ``--docs`` (default) writes the table into
docs/versions.md between its markers; ``--json FILE`` keeps the rows.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(HERE)]

from cases import CASES, Case  # noqa: E402

DOC = REPO / "docs" / "versions.md"
START, END = "<!-- regressions:start -->", "<!-- regressions:end -->"
NOT_REPORTED = "not reported by this irscope"
# Facts that are most of what a reader asks first; the rest follow in the order compare gives them.
_FIRST = ("spills", "registers", "shared_bytes", "occupancy.waves_per_eu", "occupancy.ctas_per_sm", "loops",
          "mma.kind", "mma.shape")


@dataclass(frozen=True)
class Row:
    """One case's result.

    Attributes:
        case: the case.
        divergence: the first divergence as irscope words it (or why there is none).
        moved: ``fact: a -> b`` for each fact that moved, most telling first.
        agrees: ``yes``, ``no``, ``partly`` or ``no cause named`` (the report names none).
        note: why the verdict is what it is; or the error that stopped the case.
        command: the command that shows the divergent text.
        swap: what the backend swap says the moved machine-code facts follow (empty: none ran).
    """

    case: Case
    divergence: str
    moved: tuple[str, ...]
    agrees: str
    note: str
    command: str = ""
    swap: str = ""


def _irscope(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``python -m irscope ARGS`` in the checkout that is first on ``env``'s PYTHONPATH (``-m`` looks in the cwd)."""
    checkout = env.get("PYTHONPATH", str(REPO)).split(os.pathsep)[0] or str(REPO)
    return subprocess.run([sys.executable, "-m", "irscope", *args], capture_output=True, text=True, env=env,
                          cwd=checkout)


def wheel_of(case: Case, wheels: Path, offline: bool) -> Path:
    """The pinned release's wheel, downloaded into ``wheels`` unless it is there."""
    name, _, version = case.package.partition("==")
    stem = f"{name.replace('-', '_')}-{version}-"
    found = sorted(wheels.glob(f"{stem}*.whl"))
    if found:
        return found[0]
    if offline:
        raise RuntimeError(f"no wheel of {case.package} in {wheels} (run once with the network, or pip download it)")
    wheels.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(wheels), case.package],
                          capture_output=True, text=True)
    found = sorted(wheels.glob(f"{stem}*.whl"))
    if done.returncode != 0 or not found:
        raise RuntimeError(f"pip download {case.package} failed: {done.stderr.strip().splitlines()[-1:]}")
    return found[0]


class Release:
    """Where a case's files come from: the pinned release's wheel, or a clone of the project at the case's commit."""

    def __init__(self, case: Case, wheels: Path, offline: bool, clones: dict[str, Path]) -> None:
        self.case = case
        if case.commit:
            clone = clones.get(case.repo)
            if clone is None:
                raise RuntimeError(f"{case.name} reads {case.repo} at {case.commit[:10]}: give a clone of it "
                                   f"(--clone {case.repo}=DIR; git clone https://github.com/{case.repo})")
            self.clone: Path | None = clone
            self.wheel: Path | None = None
        else:
            self.clone, self.wheel = None, wheel_of(case, wheels, offline)

    @property
    def label(self) -> str:
        """``package==version`` or ``owner/name@commit``."""
        return f"{self.case.repo}@{self.case.commit[:10]}" if self.case.commit else self.case.package

    def read(self, path: str) -> str:
        """One file of the release, as text."""
        if self.wheel is not None:
            with zipfile.ZipFile(self.wheel) as archive:
                return archive.read(path).decode("utf-8")
        done = subprocess.run(["git", "-C", str(self.clone), "show", f"{self.case.commit}:{path}"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{self.label}: {path}: {done.stderr.strip()[-200:]}")
        return done.stdout


def kernel_file(case: Case, release: Release, work: Path) -> Path:
    """The kernel and what it needs, from the release's own file, written under ``work`` (never the repo)."""
    from irscope.compile.replay import extract_kernel

    text = release.read(case.path)
    for old, new, _why in case.substitutions:
        if old not in text:
            raise RuntimeError(f"{case.path} of {release.label} has no {old!r} to write as {new!r}")
        text = text.replace(old, new)
    replay = extract_kernel(text, case.function, f"{release.label}:{case.path}", case.module)
    out = work / "kernels" / case.name / Path(case.path).name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(replay.text, encoding="utf-8")
    return out


def helper_site(case: Case, release: Release, work: Path) -> Path:
    """A folder holding the release's helper modules the kernel imports, and the stand-ins they need."""
    site = work / "site" / case.name
    files: dict[str, str] = dict(case.stand_ins)
    for path in case.modules:
        files[path] = release.read(path)
    for path, text in files.items():
        target = site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        for folder in target.relative_to(site).parents:
            if str(folder) != "." and not (site / folder / "__init__.py").exists():
                (site / folder / "__init__.py").write_text("", encoding="utf-8")
    return site


def triton_python(version: str, home: Path, env: dict[str, str]) -> str:
    """The interpreter of an installed Triton ``version`` under ``home`` (installed now when missing)."""
    python = home / "tritons" / version / "bin" / "python"
    if not python.exists():
        done = _irscope(["triton", "install", version], {**env, "IRSCOPE_HOME": str(home)})
        if done.returncode != 0:
            raise RuntimeError(f"irscope triton install {version}: {done.stderr.strip()[-300:]}")
    return str(python)


def compile_side(case: Case, source: Path, python: str, store: Path, env: dict[str, str]) -> str:
    """Compile the case with one Triton; the capture's key."""
    out = store.parent / f"{case.name}-{Path(python).parent.parent.name}.json"
    args = ["--triton", python, "facts", f"{source}:{case.function}", "--target", case.target, "--args", case.args,
            "--num-warps", str(case.num_warps), "--num-stages", str(case.num_stages), "-j", "1", "-o", str(out),
            "--store", str(store)]
    for name, value in case.constexprs.items():
        args += ["--constexpr", f"{name}={value!r}" if isinstance(value, str) else f"{name}={value}"]
    for name, value in case.sets.items():
        args += ["--set", f"{name}={value}"]
    done = _irscope(args, env)
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        raise RuntimeError(lines[-1] if lines else f"irscope facts exited {done.returncode}")
    return str(json.loads(out.read_text())["entries"][0]["key"])


def _moved(changed: list[dict[str, Any]]) -> tuple[str, ...]:
    def rank(change: dict[str, Any]) -> tuple[int, str]:
        name = str(change["fact"])
        return (_FIRST.index(name) if name in _FIRST else len(_FIRST), name)

    out = []
    for change in sorted(changed, key=rank):
        a, b = change["a"], change["b"]
        if isinstance(a, list) or isinstance(b, list):
            gone = len([x for x in a or [] if x not in (b or [])])
            new = len([x for x in b or [] if x not in (a or [])])
            out.append(f"{change['fact']}: -{gone} +{new}")
        else:
            out.append(f"{change['fact']}: {a} -> {b}")
    return tuple(out)


def divergence_text(first: dict[str, Any] | None) -> tuple[str, str]:
    """irscope's ``first_divergence`` in a few words, and its command to see the text."""
    if first is None:
        return NOT_REPORTED, ""
    level = first.get("level")
    if level == "none":
        return "none: every stage the two captures hold is equal", str(first.get("see") or "")
    where = str(first.get("stage") or "?")
    if level == "pass" and first.get("pass"):
        a, b = first.get("index_a"), first.get("index_b")
        numbers = f"pass {a} of A, {b} of B" if a is not None and b is not None else \
            f"pass {a} of A, not run in B" if a is not None else f"pass {b} of B, not run in A"
        where = f"pass {first['pass']} ({where}; {numbers})"
    # The effect in a table cell: what the pass did, not the text lines it printed (the ``see`` command shows those).
    said = [str(e) for e in first.get("effect") or [] if not str(e).startswith(("A: ", "B: "))]
    effect = "; ".join(e if len(e) <= 160 else e[:157] + "..." for e in said[:3])
    see = first.get("see") or ""
    return (f"{where}: {effect}" if effect else where), "; ".join(see) if isinstance(see, list) else str(see)


_MLIR = ("ttir", "ttgir")


def _direction(change: dict[str, Any] | None, sign: str) -> bool:
    """Whether a fact moved the way the report says (``+``: up, ``-``: down, empty: at all)."""
    if change is None:
        return False
    a, b = change["a"], change["b"]
    if not sign or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return True
    return b > a if sign == "+" else b < a


def _followed(swap: dict[str, Any] | None, names: list[str]) -> str:
    """What the backend swap says the named facts follow: ``backend`` or ``ir`` when all agree, else empty."""
    rows = {str(r["fact"]): str(r["follows"]) for r in (swap or {}).get("facts", [])}
    kinds = {rows[n] for n in names if n in rows}
    return kinds.pop() if len(kinds) == 1 and kinds <= {"backend", "ir"} else ""


def verdict(case: Case, first: dict[str, Any] | None, changed: list[dict[str, Any]],
            swap: dict[str, Any] | None = None) -> tuple[str, str]:
    """Whether irscope's answer agrees with the report's own analysis, and why.

    A report that puts the cause below the MLIR stages (``stage="backend"``) says the code generator did it; where
    the facts it names moved and irscope's backend swap says what they follow, that answers it, whichever stage
    the first divergence is in (Triton's lowering can differ too, without being the cause)."""
    by_name = {str(c["fact"]): c for c in changed}
    wanted = case.expected
    said = [(f.rstrip("+-"), f[-1] if f[-1] in "+-" else "") for f in wanted.facts]
    seen = [f"{name} {'up' if sign == '+' else 'down' if sign == '-' else 'moved'}" for name, sign in said
            if _direction(by_name.get(name), sign)]
    missed = [f"{name} {'up' if sign == '+' else 'down' if sign == '-' else 'moved'}" for name, sign in said
              if not _direction(by_name.get(name), sign)]
    facts_ok = not missed
    facts_note = ""
    reverse = [f"{name} {by_name[name]['a']} -> {by_name[name]['b']}" for name, sign in said
               if sign and name in by_name and _direction(by_name[name], "-" if sign == "+" else "+")]
    if said:
        facts_note = (f"as the report says: {', '.join(seen)}" if facts_ok else
                      f"the report says {', '.join(missed)}, irscope does not" + (f" (agreed: {', '.join(seen)})"
                                                                                  if seen else "")
                      + (f"; it finds the reverse: {', '.join(reverse)}" if reverse else ""))
    if not wanted.stage:
        return "no cause named", ("the report names no compiler cause; irscope's answer is the first lead"
                                  + (f"; {facts_note}" if facts_note else ""))
    if first is None or first.get("level") == "none":
        stage_note = "the first divergence is not reported by this irscope" if first is None else \
            "irscope found every stage equal"
        return ("partly" if facts_ok or seen else "no"), f"{stage_note}; {facts_note}"
    stage = str(first.get("stage") or "").lower()
    at_backend = stage not in _MLIR
    stage_ok = at_backend == (wanted.stage == "backend")
    place = "below the MLIR stages" if at_backend else "in an MLIR pass"
    expected = "below the MLIR stages" if wanted.stage == "backend" else "in an MLIR pass"
    lead = "irscope's first divergence is"
    follows = _followed(swap, [name for name, _ in said if name in by_name])
    if wanted.stage == "backend" and follows:
        stage_ok = follows == "backend"
        lead = "irscope's backend swap puts the change"
        place = ("in the backend: each side's value comes out of the other's LLVM IR under its backend" if stage_ok
                 else "in the LLVM IR Triton made: each side's IR keeps its value under the other's backend")
        expected = "in the backend"
    if stage_ok and facts_ok:
        return "yes", f"{lead} {place}, as the report says; {facts_note}"
    found = _in_swap(swap, [(n, sg) for n, sg in said if not _direction(by_name.get(n), sg)])
    if wanted.stage == "backend" and found and len(found) == len(missed):
        return "partly", (f"irscope's first divergence is {place}; the report's {', '.join(missed)} come out when "
                          f"B's backend compiles A's LLVM IR ({', '.join(found)}), not with B's own IR")
    return ("partly" if stage_ok or seen else "no"), f"{lead} {place} (the report: {expected}); {facts_note}"


def _in_swap(swap: dict[str, Any] | None, wanted: list[tuple[str, str]]) -> list[str]:
    """``fact a -> x`` for each wanted fact that A's LLVM IR through B's backend moves the report's way."""
    rows = {str(r["fact"]): r for r in (swap or {}).get("facts", [])}
    out = []
    for name, sign in wanted:
        row = rows.get(name)
        a, x = (row.get("a"), row.get("a_ir_b_backend")) if row else (None, None)
        if isinstance(a, int | float) and isinstance(x, int | float) and (x > a if sign == "+" else
                                                                          x < a if sign == "-" else x != a):
            out.append(f"{name} {a} -> {x}")
    return out


def run_case(case: Case, work: Path, wheels: Path, home: Path, offline: bool, checkout: Path = REPO,
             clones: dict[str, Path] | None = None) -> Row:
    """One case, end to end, with the irscope of ``checkout``; an error becomes the row's note."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(checkout), os.environ.get("PYTHONPATH", "")]).rstrip(
        os.pathsep), "IRSCOPE_PRECOMPILE": "0"}
    env.pop("IRSCOPE_TRITON", None)
    store = work / "store"
    try:
        release = Release(case, wheels, offline, clones or {})
        source = kernel_file(case, release, work)
        if case.modules or case.stand_ins:
            env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(helper_site(case, release, work))])
        pythons = [triton_python(v, home, env) for v in case.versions]
        keys = [compile_side(case, source, python, store, env) for python in pythons]
        # Each side's Triton goes with it: a pass-by-pass comparison compiles each capture again with its own.
        done = _irscope(["compare", keys[0], keys[1], "--triton", pythons[0], "--vs-triton", pythons[1], "--json",
                         "--store", str(store)], env)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "compare failed")
        data = json.loads(done.stdout)
    except RuntimeError as exc:
        return Row(case=case, divergence="(not compiled)", moved=(), agrees="-", note=str(exc))
    first = data.get("first_divergence")
    text, see = divergence_text(first)
    swap = data.get("backend_swap")
    agrees, note = verdict(case, first, data.get("changed", []), swap)
    return Row(case=case, divergence=text, moved=_moved(data.get("changed", [])), agrees=agrees, note=note,
               command=see, swap=str(swap.get("verdict") or "") if swap else "")


def swapped(row: Row) -> str:
    """The backend swap's answer, appended to the divergence cell."""
    return f"; backend or LLVM IR: {row.swap}" if row.swap else ""


def table(rows: list[Row]) -> str:
    """The Markdown table for docs/versions.md."""
    out = ["| case (report) | Tritons, target | irscope's first divergence | facts that moved | the report found "
           "| agrees |", "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        c = r.case
        moved = ", ".join(r.moved[:6]) + (f" and {len(r.moved) - 6} more" if len(r.moved) > 6 else "") or "none"
        if r.agrees == "-":
            moved = f"({r.note})"
        cell = lambda s: s.replace("|", "\\|")  # noqa: E731
        out.append(f"| [{c.name}]({c.report}) | {c.versions[0]} -> {c.versions[1]}, {c.target} | "
                   f"{cell(r.divergence)}{cell(swapped(r))} | {cell(moved)} | {cell(c.finding)} | {r.agrees}: "
                   f"{cell(r.note)} |"
                   if r.agrees != "-" else
                   f"| [{c.name}]({c.report}) | {c.versions[0]} -> {c.versions[1]}, {c.target} | "
                   f"{cell(r.divergence)} | {cell(moved)} | {cell(c.finding)} | - |")
    return "\n".join(out) + "\n"


def write_docs(text: str) -> None:
    """Put the table between the markers of docs/versions.md."""
    doc = DOC.read_text(encoding="utf-8")
    if START not in doc or END not in doc:
        raise SystemExit(f"{DOC} has no {START} ... {END} markers")
    head, rest = doc.split(START, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(f"{head}{START}\n{text}{END}{tail}", encoding="utf-8")


def main() -> int:
    """Run the cases and print (and write) the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="run only this case (repeatable)")
    parser.add_argument("--work", type=Path, default=REPO / ".regressions", help="wheels, kernels and the store")
    parser.add_argument("--wheels", type=Path, default=None, help="wheels already downloaded (no network needed)")
    parser.add_argument("--tritons-home", type=Path, default=None,
                        help="where the Tritons are installed (default: $IRSCOPE_HOME, else the work folder)")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    parser.add_argument("--irscope", type=Path, default=REPO,
                        help="the checkout whose irscope runs the commands (default: this one)")
    parser.add_argument("--clone", action="append", default=[], metavar="OWNER/NAME=DIR",
                        help="a git clone of a project a case reads at a commit (repeatable)")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/versions.md")
    opts = parser.parse_args()
    clones = {}
    for item in opts.clone:
        repo, _, folder = item.partition("=")
        if not repo or not folder:
            raise SystemExit(f"--clone {item!r}: give OWNER/NAME=DIR")
        clones[repo] = Path(folder)
    names = {c.name for c in CASES}
    for name in opts.case or ():
        if name not in names:
            raise SystemExit(f"no case {name!r}; cases: {', '.join(sorted(names))}")
    chosen = [c for c in CASES if not opts.case or c.name in opts.case]
    home = opts.tritons_home or Path(os.environ.get("IRSCOPE_HOME") or opts.work)
    rows = []
    for case in chosen:
        print(f"{case.name}: Triton {case.versions[0]} vs {case.versions[1]} on {case.target} ...", flush=True)
        row = run_case(case, opts.work, opts.wheels or opts.work / "wheels", home, opts.wheels is not None,
                       opts.irscope.resolve(), clones)
        print(f"  first divergence: {row.divergence}\n  moved: {', '.join(row.moved) or 'nothing'}\n"
              f"  backend or LLVM IR: {row.swap or '(no swap)'}\n"
              f"  agrees with the report: {row.agrees} ({row.note})", flush=True)
        rows.append(row)
    text = table(rows)
    print("\n" + text)
    if opts.json:
        opts.json.write_text(json.dumps([{"case": r.case.name, "report": r.case.report, "divergence": r.divergence,
                                          "moved": list(r.moved), "agrees": r.agrees, "note": r.note,
                                          "see": r.command, "swap": r.swap} for r in rows], indent=1),
                              encoding="utf-8")
    if not opts.no_docs and not opts.case:
        write_docs(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
