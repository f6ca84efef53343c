"""The texts the TUI shows: a stage of a capture or the IR after one pass, and what each is compared with.

Pure data, no Textual. Texts are read from the store once and kept in small caches, so moving
between stages and passes costs a dictionary lookup after the first visit.
"""

from __future__ import annotations

import bisect
import itertools
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from irscope.errors import IrscopeError, StoreError
from irscope.model.stages import Stage, get_stage, stages_for
from irscope.store.store import Capture
from irscope.toolchain.stages import derived_from, has_stage, read_stage
from irscope.tui.syntax import lexer_for_ir

if TYPE_CHECKING:  # the analyses load on first use, after the first screen is drawn
    from irscope.analysis.diff import DiffOptions, TextDiff
    from irscope.analysis.passes import PassEffect
    from irscope.parse.passes import PassSnapshot
    from irscope.request.compare import IrPoint
    from irscope.store.passdump import PassDump

K = TypeVar("K")
V = TypeVar("V")

# Diffs of texts larger than this (both sides together) are computed in a worker process: matmul's biggest
# pass diff (4.6 MB) takes 30-45 ms in-process on a 2-core box, so only user kernels with far larger IR go there.
BIG_DIFF_BYTES = 12_000_000


class LRU(Generic[K, V]):
    """A small least-recently-used cache."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The cached value, or None."""
        with self._lock:
            if key not in self._data:
                return None
            self._data.move_to_end(key)
            return self._data[key]

    def put(self, key: K, value: V) -> None:
        """Remember a value, forgetting the oldest beyond the size."""
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)


@dataclass(frozen=True)
class DocRef:
    """What the user selected: a stage of a capture, or one pass (or pass step) inside a stage.

    Attributes:
        key: the capture's store key.
        stage: the stage name (for a pass: the stage it ran in).
        pass_index: the pass number in the capture's pass dump, or None for the stage itself.
        step: the internal step of the pass (``LowerLoops``), or ''.
    """

    key: str
    stage: str
    pass_index: int | None = None
    step: str = ""


@dataclass(frozen=True)
class Document:
    """A text ready to show.

    Attributes:
        ref: what it is.
        title: one line naming it for the user.
        lines: its lines, tabs expanded.
        lexer: the highlighter's lexer name.
        ir: ``mlir``, ``llvm``, ``asm`` or ``python``: how to compare and map it.
        size: characters of the text.
        numbers: with MLIR locations hidden, the stored text's line number (1-based) of each row; empty when
            the rows are the stored text's lines (row ``i`` is line ``i + 1``).
        full: with locations hidden, the document with them (what source maps are read from); else None.
    """

    ref: DocRef
    title: str
    lines: tuple[str, ...]
    lexer: str
    ir: str
    size: int
    numbers: tuple[int, ...] = ()
    full: Document | None = None

    def number(self, row: int) -> int:
        """The stored text's line number (1-based) of a row."""
        return self.numbers[row] if self.numbers else row + 1

    def row_of(self, line: int) -> int:
        """The row showing a line of the stored text, or the next row shown after it (a hidden line's)."""
        if not self.numbers:
            return line - 1
        return min(bisect.bisect_left(self.numbers, line), len(self.numbers) - 1)

    def without_locations(self) -> Document:
        """This MLIR text with its ``#loc`` lines and ``loc(...)`` suffixes hidden (as ``irscope show`` hides
        them on a terminal), rows numbered as in the stored text; itself when there is nothing to hide."""
        from irscope.analysis.diff import hide_locations

        if self.lexer != "mlir" or self.full is not None or "loc" not in self.text:
            return self
        kept = [i + 1 for i, line in enumerate(self.lines) if not line.startswith("#loc")]
        lines = _lines(hide_locations(self.text))
        if len(lines) != len(kept) or lines == self.lines:
            return self  # not one shown row per kept line: show the text as stored rather than misnumber it
        return replace(self, lines=lines, size=sum(map(len, lines)) + len(lines), numbers=tuple(kept), full=self)

    @cached_property
    def text(self) -> str:
        """The whole text (tabs expanded), joined once."""
        return "\n".join(self.lines)

    @cached_property
    def lowered(self) -> str | None:
        """``text`` in lower case, for case-insensitive search; None unless ASCII (where offsets stay put)."""
        return self.text.lower() if self.text.isascii() else None

    @cached_property
    def line_starts(self) -> list[int]:
        """The offset of each line in ``text``."""
        return [0, *itertools.accumulate(len(line) + 1 for line in self.lines[:-1])]


@dataclass(frozen=True)
class DiffInputs:
    """The two texts a diff compares.

    Attributes:
        left / right: the older and the newer text (irscope.request.compare's points, as ``irscope diff`` uses).
        left_lexer / right_lexer: how to colour each side.
    """

    left: IrPoint
    right: IrPoint
    left_lexer: str
    right_lexer: str


def _lines(text: str) -> tuple[str, ...]:
    if "\t" in text:
        text = text.expandtabs(8)
    return tuple(text.rstrip("\n").split("\n"))


def stage_ir(stage: str) -> str:
    """How a stage's text is compared and mapped."""
    if stage == "source":
        return "python"
    if stage in ("ttir", "ttgir"):
        return "mlir"
    return "llvm" if stage == "llir" else "asm"


def _cached_effects(dump: PassDump) -> dict[tuple[int, str], PassEffect] | None:
    """The effects cached beside a dump, when they are current."""
    from irscope.analysis.passes import VERSION, pass_table
    from irscope.request.passdump import read_effects

    cached = read_effects(dump.path.parent, dump.info.flavour, dump.info.file)
    if cached is None or cached.version != VERSION:
        return None
    try:
        table = pass_table(dump, cached.rows)
    except (TypeError, KeyError, ValueError):
        return None  # a cache from another irscope: the child computes it again
    return {(row.index, row.step): row for row in table.rows}


class Documents:
    """Texts, pass dumps and diffs of the captures the user opened, cached.

    Diff workers read texts from a thread, so reading the store and the dumps goes through one lock.
    """

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.captures: dict[str, Capture] = {}
        self._dumps: dict[str, PassDump | None] = {}
        self._effects: dict[str, dict[tuple[int, str], PassEffect] | None] = {}
        self._docs: LRU[DocRef, Document] = LRU(24)
        self._hidden: LRU[DocRef, Document] = LRU(24)  # the same texts with their MLIR locations hidden
        self.show_locations = False  # as ``irscope show`` on a terminal: ``#loc`` lines and ``loc(...)`` hidden
        self._diffs: LRU[tuple[DocRef, DiffOptions], TextDiff] = LRU(12)
        self._computing: dict[tuple[DocRef, DiffOptions], threading.Event] = {}
        self._computing_lock = threading.Lock()

    def add(self, capture: Capture) -> None:
        """Make a capture's texts available."""
        self.captures[capture.manifest.key] = capture
        self._dumps.pop(capture.manifest.key, None)

    def dump(self, key: str) -> PassDump | None:
        """The capture's per-pass dump, or None when passes were not recorded."""
        with self.lock:
            if key not in self._dumps:
                from irscope.store.passdump import load_dump, load_failed_dump

                capture = self.captures[key]
                # A failed per-pass compile is no dump, but what it printed (and why it failed) is shown.
                self._dumps[key] = load_dump(capture.path, "mlir") or load_failed_dump(capture.path, "mlir")
                self._effects.pop(key, None)
            return self._dumps[key]

    def forget_dump(self, key: str) -> None:
        """Read the pass dump and its effects again next time (they were just recorded)."""
        with self.lock:
            self._dumps.pop(key, None)
            self._effects.pop(key, None)

    def effects(self, key: str) -> dict[tuple[int, str], PassEffect] | None:
        """What each pass (and step) changed, by (index, step), when the effects are cached beside the dump.

        Computing them reads every snapshot (seconds for matmul), so the TUI has its child process do it.
        """
        with self.lock:
            if key in self._effects:
                return self._effects[key]
            dump = self.dump(key)
            found = None if dump is None else _cached_effects(dump)
            if found is not None or dump is None:
                self._effects[key] = found
            return found

    def stages(self, key: str) -> tuple[Stage, ...]:
        """The stages of a capture (a file of their own, or SASS made from the cubin), in pipeline order."""
        capture = self.captures[key]
        return tuple(s for s in stages_for(capture.manifest.backend) if has_stage(capture, s.name))

    def passes(self, key: str, stage: str) -> tuple[PassSnapshot, ...]:
        """The passes that ran in a stage (they turn the previous stage's IR into this one)."""
        dump = self.dump(key)
        if dump is None:
            return ()
        return tuple(p for p in dump.index.passes if p.stage == stage)

    def snapshot(self, ref: DocRef) -> PassSnapshot:
        """The pass (or pass step) a reference names."""
        dump = self.dump(ref.key)
        if dump is None or ref.pass_index is None:
            raise StoreError(f"capture {ref.key} has no recorded passes")
        if ref.step:
            for step in dump.index.steps_of(ref.pass_index):
                if step.step == ref.step:
                    return step
            raise StoreError(f"pass {ref.pass_index} has no step {ref.step!r}")
        return dump.index.passes[ref.pass_index]

    def title(self, ref: DocRef) -> str:
        """How the header names a reference."""
        m = self.captures[ref.key].manifest
        head = f"{m.kernel} · {m.target} · config {m.config_index}"
        if ref.pass_index is None:
            return f"{head} · {get_stage(ref.stage).display} ({ref.stage})"
        snap = self.snapshot(ref)
        return f"{head} · {ref.stage} pass {snap.index}: after {snap.label}"

    def document(self, ref: DocRef) -> Document:
        """The text of a stage, or the IR a pass produced; its MLIR locations hidden unless ``show_locations``."""
        with self.lock:
            full = self._document(ref)
            if self.show_locations:
                return full
            found = self._hidden.get(ref)
            if found is None or found.full is not full:
                found = full.without_locations()
                self._hidden.put(ref, found)
            return found

    def stored(self, ref: DocRef) -> Document:
        """The text as the store holds it, locations and all (what analyses read)."""
        with self.lock:
            return self._document(ref)

    def _pass_spec(self, ref: DocRef) -> str:
        return f"{ref.pass_index}/{ref.step}" if ref.step else str(ref.pass_index)

    def _document(self, ref: DocRef) -> Document:
        found = self._docs.get(ref)
        if found is not None:
            return found
        if ref.pass_index is None:
            stage = get_stage(ref.stage)
            text = read_stage(self.captures[ref.key], stage)
            lexer, ir = stage.lexer, stage_ir(stage.name)
        else:
            from irscope.request.compare import pass_point

            snap = self.snapshot(ref)
            dump = self.dump(ref.key)
            assert dump is not None
            if snap.output is None:
                point = pass_point(dump, self._pass_spec(ref), "before")
            else:
                point = pass_point(dump, self._pass_spec(ref), "after")
            text, lexer, ir = point.text, lexer_for_ir(snap.ir), snap.ir
        doc = Document(ref=ref, title=self.title(ref), lines=_lines(text), lexer=lexer, ir=ir, size=len(text))
        self._docs.put(ref, doc)
        return doc

    def diff_inputs(self, ref: DocRef) -> DiffInputs | str:
        """What the reference is compared with, or a sentence saying why it has nothing to compare with."""
        with self.lock:
            try:
                return self._diff_inputs(ref)
            except IrscopeError as exc:
                return str(exc)

    def _diff_inputs(self, ref: DocRef) -> DiffInputs | str:
        from irscope.request.compare import IrPoint, pass_point, stage_point

        capture = self.captures[ref.key]
        if ref.pass_index is not None:
            snap = self.snapshot(ref)
            dump = self.dump(ref.key)
            assert dump is not None
            spec = self._pass_spec(ref)
            lexer = lexer_for_ir(snap.ir)
            return DiffInputs(pass_point(dump, spec, "before"), pass_point(dump, spec, "after"), lexer, lexer)
        if ref.stage == "source":
            return "The Python source is the first stage: there is nothing before it to compare with."
        right = stage_point(capture, ref.stage)
        lexer = get_stage(ref.stage).lexer
        if ref.stage == "ttir":
            initial = capture.path / f"{capture.manifest.function}.source"
            if not initial.is_file():
                return "This capture lacks Triton's initial IR (the .source file), so TTIR has nothing to compare with."
            left = IrPoint(label="initial IR (from the AST)",
                           text=initial.read_text(encoding="utf-8", errors="replace"),
                           ir="mlir")
            return DiffInputs(left, right, lexer, lexer)
        stages = self.stages(ref.key)
        names = [s.name for s in stages]
        previous = stages[names.index(ref.stage) - 1]
        return DiffInputs(stage_point(capture, previous.name), right, previous.lexer, lexer)

    def cross_language(self, ref: DocRef) -> str:
        """``'PTX → SASS'`` when the reference's diff would compare two languages line by line, else ''.

        A pass is compared with its input (the same IR) and TTIR with Triton's initial IR (both MLIR); a later
        stage with the stage before it, which from LLVM IR on is another language.
        """
        if ref.pass_index is not None or ref.stage in ("source", "ttir"):
            return ""
        stages = self.stages(ref.key)
        names = [s.name for s in stages]
        if ref.stage not in names or names.index(ref.stage) == 0:
            return ""
        stage = stages[names.index(ref.stage)]
        previous = stages[names.index(ref.stage) - 1]
        if previous.lexer == stage.lexer:
            return ""
        return f"{previous.display} → {stage.display}"

    def diff_size(self, ref: DocRef) -> int:
        """Characters a diff of the reference compares, estimated from sizes on disk (nothing is read)."""
        capture = self.captures[ref.key]
        if ref.pass_index is not None:
            snap = self.snapshot(ref)
            dump = self.dump(ref.key)
            assert dump is not None
            return sum(dump.index.sections[s].size for s in (snap.input, snap.output) if s is not None)
        stages = [s.name for s in self.stages(ref.key)]
        if ref.stage not in stages or stages.index(ref.stage) == 0:
            return 0
        previous = stages[stages.index(ref.stage) - 1]
        try:
            # SASS made from the cubin has no file of its own: the cubin's size stands in for it.
            return sum(capture.artifact_path(derived_from(capture, name) or name).stat().st_size
                       for name in (previous, ref.stage))
        except (OSError, KeyError, IrscopeError):
            return 0

    def forget_diffs(self) -> None:
        """Drop the diffs computed so far (benchmarks time computing them)."""
        self._diffs = LRU(self._diffs.size)

    def cached_diff(self, ref: DocRef, options: DiffOptions) -> TextDiff | None:
        """The diff when it was computed before."""
        return self._diffs.get((ref, options))

    def remember_diff(self, ref: DocRef, options: DiffOptions, diff: TextDiff) -> None:
        """Keep a diff computed elsewhere (in a worker process)."""
        self._diffs.put((ref, options), diff)

    def diff(self, ref: DocRef, inputs: DiffInputs, options: DiffOptions) -> TextDiff:
        """Compare a reference with what came before it, as ``irscope diff`` does (locations stripped); cached.

        When another thread is computing the same diff (the screen computes diffs ahead), waits for it.
        """
        key = (ref, options)
        found = self._diffs.get(key)
        if found is not None:
            return found
        with self._computing_lock:
            running = self._computing.get(key)
            if running is None:
                mine = self._computing[key] = threading.Event()
        if running is not None:
            running.wait()
            found = self._diffs.get(key)
            if found is not None:
                return found
            return self.diff(ref, inputs, options)  # the other thread failed: try here
        try:
            from irscope.request.compare import diff_points

            found = diff_points(inputs.left, inputs.right, options)
            self._diffs.put(key, found)
            return found
        finally:
            with self._computing_lock:
                del self._computing[key]
            mine.set()


def diff_elsewhere(store_root: str, key: str, ref: DocRef, options: DiffOptions) -> TextDiff | str:
    """Compute a diff from the store alone, for a worker process (big diffs would stall the UI's thread)."""
    from irscope.store.store import Store

    capture = Store(Path(store_root)).get(key)
    if capture is None:
        return f"capture {key} is no longer in the store"
    docs = Documents()
    docs.add(capture)
    inputs = docs.diff_inputs(ref)
    if isinstance(inputs, str):
        return inputs
    return docs.diff(ref, inputs, options)
