"""What each pass did: its diff in lines and a Triton-aware one-line summary, for the whole pipeline.

A pass's effect compares the IR it received with the IR it produced (see irscope.parse.passes for
where each lives in the dump). The summary names what a Triton engineer looks for: layouts
introduced or removed, ``ttg.convert_layout`` counts, shared-memory buffers, async copies and
waits, software-pipelining stages, and operations added or removed per dialect.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import MISSING, asdict, dataclass
from typing import Any, Protocol

from irscope.analysis.diff import (
    DiffOptions,
    count_changes,
    normalize,
    renumber_ssa,
    strip_pass_manager_noise,
)
from irscope.analysis.ir_facts import (
    IrFacts,
    comparable_llvm,
    describe_change,
    llvm_facts,
    llvm_function,
    mlir_facts,
)
from irscope.errors import StoreError, UsageError
from irscope.parse.passes import DumpProblem, PassIndex, PassSnapshot, section_body


def _code_version() -> str:
    """A digest of the code that computes effects, so cached effects are redone when it changes."""
    import hashlib
    from pathlib import Path

    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in (here / "passes.py", here / "ir_facts.py", here / "diff.py", here.parent / "parse" / "layouts.py",
                 here.parent / "parse" / "layout_kinds.py"):
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()[:16]


VERSION = _code_version()

__all__ = ["VERSION", "DumpSource", "IrFacts", "PassEffect", "PassTable", "comparable_llvm", "describe_change",
           "effect_of", "effects_to_json", "find_pass", "llvm_facts", "llvm_function", "mlir_facts", "pass_effects",
           "pass_table"]


class DumpSource(Protocol):
    """Where pass texts come from: a stored PassDump, or a dump held in memory (tests)."""

    index: PassIndex
    problems: list[DumpProblem]

    def text(self, section: int) -> str:
        """A section's whole text."""
        ...


@dataclass(frozen=True)
class PassEffect:
    """What one pass (or one step of a pass) changed.

    Attributes:
        index: the pass's number in the dump.
        stage: compile stage it ran in.
        name: pass argument (``tritongpu-pipeline``); ``step`` is set for internal steps.
        pass_class: the C++ class.
        options: pass options as printed.
        ir: ``mlir``, ``llvm`` or ``mir``.
        status: ``changed``, ``unchanged``, ``locations`` (only location info changed), ``failed``,
            ``unknown`` (the dump lacks its input or output) or ``unreadable`` (damaged dump).
        added / removed: lines added and removed (locations stripped).
        summary: a one-line description of the change.
        changes: the pieces of the summary.
        step: for internal steps, the step name.
        line: where the pass's IR starts in the dump.
    """

    index: int
    stage: str
    name: str
    pass_class: str
    options: str
    ir: str
    status: str
    added: int
    removed: int
    summary: str
    changes: tuple[str, ...] = ()
    step: str = ""
    line: int = 0

    @property
    def label(self) -> str:
        """``name`` or ``name/step``."""
        return f"{self.name}/{self.step}" if self.step else self.name

    @property
    def changed(self) -> bool:
        """Whether the IR text changed at all."""
        return self.status in ("changed", "locations", "failed")


@dataclass(frozen=True)
class PassTable:
    """The effects of every pass of a dump, in order, with the steps after their pass.

    Attributes:
        rows: effects in dump order.
        problems: what could not be read; the rows before it are sound.
        complete: whether the dump was whole.
    """

    rows: tuple[PassEffect, ...]
    problems: tuple[DumpProblem, ...]
    complete: bool

    @property
    def unchanged(self) -> int:
        """Passes that left the IR exactly as it was."""
        return sum(1 for r in self.rows if r.status == "unchanged" and not r.step)


class _Facts:
    """Facts and normalised lines per text, computed once per table.

    Keyed by the text itself (its hash is computed once per string), not by section: most LLVM
    passes print the module unchanged, and an identical text has identical facts and lines.
    """

    def __init__(self, source: DumpSource) -> None:
        self.source = source
        self.step_sections = {s.section for s in source.index.steps}
        self.facts: dict[tuple[str, str], IrFacts] = {}
        self.lines: dict[tuple[str, str, bool], list[str]] = {}
        self.texts: dict[int, str] = {}

    def body(self, section: int) -> str:
        """A section's IR as printed, without its header."""
        return section_body(self.source.text(section))

    def text(self, section: int, ir: str) -> str:
        """A section's IR without the pass manager's chatter."""
        if section not in self.texts:
            body = section_body(self.source.text(section))
            self.texts[section] = strip_pass_manager_noise(body) if ir != "mlir" else body
            if len(self.texts) > 4:
                self.texts.pop(next(iter(self.texts)))
        return self.texts[section]

    def pair(self, p: PassSnapshot) -> tuple[str, str, str]:
        """The pass's input and output texts, cut to a common scope, and that scope."""
        assert p.input is not None and p.output is not None
        a, b = self.text(p.input, p.ir), self.text(p.output, p.ir)
        if p.ir != "llvm":
            return a, b, ""
        if p.scope:
            return llvm_function(a, p.scope), llvm_function(b, p.scope), p.scope
        return comparable_llvm(a, b)

    def get(self, section: int, text: str, ir: str, scope: str, structural: bool) -> tuple[IrFacts, list[str]]:
        """Facts and comparable lines of a section's text; ``structural`` erases names and aliases."""
        if (text, ir) not in self.facts:
            self.facts[text, ir] = mlir_facts(text) if ir == "mlir" else llvm_facts(text, ir)
            if len(self.facts) > 8:
                self.facts.pop(next(iter(self.facts)))
        key = (text, ir, structural)
        if key not in self.lines:
            self.lines[key] = normalize(text, ir, DiffOptions(inline_aliases=structural, erase_ssa=structural))
            if len(self.lines) > 8:
                self.lines.pop(next(iter(self.lines)))
        return self.facts[text, ir], self.lines[key]


def pass_effect(p: PassSnapshot, cache: _Facts) -> PassEffect:
    """The effect of one pass or step."""
    base: dict[str, Any] = {"index": p.index, "stage": p.stage, "name": p.name, "pass_class": p.pass_class,
                            "options": p.options, "ir": p.ir, "step": p.step}
    if p.input is None or p.output is None:
        why = "its output is not in the dump" if p.input is not None else "its input is not in the dump"
        if p.ir == "mir" and p.input is None:
            why = "first machine-IR dump: nothing to compare it with"
        return PassEffect(**base, status="unknown", added=0, removed=0, summary=f"({why})", line=p.line)
    step = p.kind == "step"
    try:
        # The same printed IR needs no stripping to be known unchanged (most LLVM passes change nothing).
        if p.input == p.output or cache.body(p.input) == cache.body(p.output):
            return PassEffect(**base, status="unchanged", added=0, removed=0, summary="", line=p.line)
        text_a, text_b, scope = cache.pair(p)
        if text_a == text_b:
            return PassEffect(**base, status="unchanged", added=0, removed=0, summary="", line=p.line)
        # A step prints without aliases and names; against a normal dump only structure compares.
        structural = step and p.ir == "mlir" and p.input not in cache.step_sections
        before, a = cache.get(p.input, text_a, p.ir, scope, structural)
        after, b = cache.get(p.output, text_b, p.ir, scope, structural)
    except StoreError as exc:
        if getattr(exc, "reported", False):
            return PassEffect(**base, status="unknown", added=0, removed=0, summary="(past where the dump stops)",
                              line=p.line)
        return PassEffect(**base, status="unreadable", added=0, removed=0, summary=getattr(exc, "what", str(exc)),
                          line=getattr(exc, "line", p.line))
    added, removed = count_changes(a, b)
    changes = tuple(describe_change(before, after, layouts=not step))
    status = "failed" if p.kind == "failed" else "changed" if added or removed else "unchanged" if step else "locations"
    summary = "; ".join(changes) if changes else _fallback(status, a, b, p.ir)
    if p.kind == "failed":
        summary = "FAILED; " + summary if summary else "FAILED"
    return PassEffect(**base, status=status, added=added, removed=removed, summary=summary, changes=changes,
                      line=p.line)


def effect_of(source: DumpSource, p: PassSnapshot) -> PassEffect:
    """The effect of one pass or step, computed alone (no table)."""
    return pass_effect(p, _Facts(source))


def _fallback(status: str, a: list[str], b: list[str], ir: str = "mlir") -> str:
    """A summary when no counted fact moved: say whether only names or order changed."""
    if status == "locations":
        return "only location info changed" if ir == "mlir" else "only locations, comments or numbering changed"
    if status != "changed":
        return ""
    if Counter(a) == Counter(b):
        return "same operations in a new order"
    ra, rb = renumber_ssa(a), renumber_ssa(b)
    if ra == rb:
        return "SSA values renamed only"
    if Counter(ra) == Counter(rb):
        return "operations moved (SSA values renamed)"
    return "operands or attributes changed in place"


def pass_effects(source: DumpSource, on_problem: Callable[[DumpProblem], None] | None = None) -> list[PassEffect]:
    """Effects of every pass and step in dump order (steps right after their pass)."""
    cache = _Facts(source)
    out: list[PassEffect] = []
    for p in source.index.passes:
        out.append(pass_effect(p, cache))
        out.extend(pass_effect(s, cache) for s in source.index.steps_of(p.index))
    return out


def pass_table(source: DumpSource, cached: list[dict[str, Any]] | None = None,
               effects: Callable[[DumpSource], list[PassEffect]] | None = None) -> PassTable:
    """The pass table of a dump, from cached rows when they are given, else computed by ``effects``
    (default ``pass_effects``)."""
    rows = [_effect_from_json(r) for r in cached] if cached is not None else (effects or pass_effects)(source)
    problems = list(source.problems)
    problems.extend(DumpProblem(str(getattr(source, "path", "<text>")), r.line, r.summary)
                    for r in rows if r.status == "unreadable")
    return PassTable(rows=tuple(rows), problems=tuple(problems), complete=source.index.complete)


def effects_to_json(rows: Iterable[PassEffect]) -> list[dict[str, Any]]:
    """Rows as JSON-ready dicts."""
    return [asdict(r) for r in rows]


def _effect_from_json(data: dict[str, Any]) -> PassEffect:
    """A cached row back as a PassEffect; ValueError when a field is missing or of the wrong type."""
    values: dict[str, Any] = {}
    for name, f in PassEffect.__dataclass_fields__.items():
        if name not in data:
            if f.default is MISSING:
                raise ValueError(f"cached pass effect lacks {name!r}")
            continue
        value = data[name]
        if name == "changes":
            if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
                raise ValueError("cached pass effect: 'changes' must be a list of strings")
            value = tuple(value)
        elif f.type == "int" and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError(f"cached pass effect: {name!r} must be an integer")
        elif f.type == "str" and not isinstance(value, str):
            raise ValueError(f"cached pass effect: {name!r} must be a string")
        values[name] = value
    return PassEffect(**values)


def _occurrences(index: PassIndex, name: str) -> list[PassSnapshot]:
    low = name.lower()
    return [p for p in index.passes if p.name.lower() == low or p.pass_class.lower() == low]


def find_pass(index: PassIndex, spec: str) -> PassSnapshot:
    """The pass a user means: its index (``36``), name or class (``tritongpu-pipeline``), a unique
    prefix (``tritongpu-pip``), ``name:N`` for the N-th run of a pass, or ``name/Step`` for a step."""
    spec = spec.strip()
    if spec.isdigit():
        number = int(spec)
        if number < len(index.passes):
            return index.passes[number]
        raise UsageError(f"there is no pass {number}: this dump has passes 0..{len(index.passes) - 1}")
    if "/" in spec:
        head, step = spec.split("/", 1)
        parent = find_pass(index, head)
        steps = [s for s in index.steps_of(parent.index) if s.step.lower() == step.lower()]
        if not steps:
            have = ", ".join(s.step for s in index.steps_of(parent.index)) or "none"
            raise UsageError(f"pass {parent.index} ({parent.name}) has no step {step!r}; its steps: {have}")
        return steps[0]
    name, _, nth = spec.partition(":")
    runs = _occurrences(index, name)
    if not runs:
        names = sorted({p.name for p in index.passes})
        starts = [n for n in names if n.lower().startswith(name.lower())]
        if len(starts) == 1:
            runs = _occurrences(index, starts[0])
        elif len(starts) > 1:
            raise UsageError(f"pass prefix {name!r} is ambiguous: {', '.join(starts)}")
        else:
            close = difflib.get_close_matches(name, names, n=5, cutoff=0.5)
            hint = f"closest: {', '.join(close)}" if close else "no pass has a similar name"
            raise UsageError(f"unknown pass {name!r} ({hint}); 'irscope passes KERNEL --all' lists them all")
    if nth:
        if not nth.isdigit() or not 1 <= int(nth) <= len(runs):
            raise UsageError(f"{runs[0].name} runs {len(runs)} time(s); use {runs[0].name}:1..{len(runs)}")
        return runs[int(nth) - 1]
    if len(runs) > 1:
        at = ", ".join(str(p.index) for p in runs)
        raise UsageError(f"{runs[0].name} runs {len(runs)} times (passes {at}); "
                         f"pick one with {runs[0].name}:N or its index")
    return runs[0]
