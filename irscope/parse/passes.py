"""Split a per-pass IR dump into sections and index them as typed pass snapshots.

A pass dump is what Triton prints with ``MLIR_ENABLE_DUMP=1`` (and ``LLVM_IR_ENABLE_DUMP=1``),
interleaved with irscope's own marker lines. Every section starts at a header line:

* MLIR prints the IR *before* each pass (``// -----// IR Dump Before ...``), plus the IR *after*
  a pass only when that pass failed, plus internal steps of some passes (the software pipeliner's
  ``LowerLoops`` / ``ExpandLoops``).
* LLVM's new pass manager prints the IR *after* each pass (``; *** IR Dump After X on f ***``),
  often of one function only; the legacy code generator prints ``*** IR Dump After Name (arg) ***``
  and machine IR as ``# *** IR Dump After ... ***:``.
* irscope's worker marks where each compile stage begins and ends and prints the IR handed from one
  stage to the next (``// -----// irscope stage-begin ttgir``), which gives every pass its stage and
  the last pass of a stage its output.

Indexing reads only header lines; section texts are fetched on demand by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

# Example: // -----// IR Dump Before TritonGPUPipeline: tritongpu-pipeline{dump-intermediate-steps=true num-stages=3}
#            ('builtin.module' operation) //----- //   (one line)
# Example: // -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //
# Example: // -----// IR Dump Before CanonicalizerPass: canonicalize{max-iterations=10}
#            ('tt.func' operation: @matmul_kernel) //----- //   (one line)
_MLIR_HEADER = re.compile(
    r"^// -----// IR Dump (?P<when>Before|After) (?P<cls>[^\s:(]+)(?P<failed> Failed)?"
    r"(?:(?::\s*| \()(?P<arg>[\w.$-]+)(?:\{(?P<opts>.*)\})?\)?)?"
    r" \('(?P<anchor>[^']+)' operation(?:: @(?P<sym>.*))?\) //----- //\s*$"
)
# Example: // -----// SoftwarePipeliner internal IR Dump After: LowerLoops
_STEP_HEADER = re.compile(r"^// -----// (?P<owner>\w+) internal IR Dump After: (?P<step>\S+)\s*$")
# Example: // -----// irscope stage-end ttgir seconds=0.1033
_MARKER = re.compile(r"^// -----// irscope (?P<event>[\w-]+)(?: (?P<stage>\w+))?(?P<rest>(?: [\w.-]+=\S*)*)\s*$")
# Example: ; *** IR Dump After InstCombinePass on matmul_kernel ***
# Example: ; *** IR Dump After (anonymous namespace)::ExpandMaskedDivRemPass on [module] ***
_LLVM_HEADER = re.compile(
    r"^; \*\*\* IR Dump (?P<when>Before|After) (?P<cls>.+?) on (?P<scope>.+?)"
    r"(?P<note> \(invalidated\)| omitted because no change| filtered out)? \*\*\*\s*$"
)
# Example: *** IR Dump After Promote alignment of parameters and return values (NVPTX) (nvptx-promote-param-align) ***
_LEGACY_HEADER = re.compile(r"^\*\*\* IR Dump (?P<when>Before|After) (?P<cls>.+?)(?: \((?P<arg>[\w.-]+)\))? \*\*\*\s*$")
# Example: # *** IR Dump After NVPTX DAG->DAG Pattern Instruction Selection (nvptx-isel) ***:
_MIR_HEADER = re.compile(r"^# \*\*\* IR Dump (?P<when>Before|After) (?P<cls>.+?)(?: \((?P<arg>[\w.-]+)\))?"
                         r" \*\*\*:?\s*$")
# Example: // -----// IR Dump Before    (any line opening a section, recognised or not)
_SECTION_START = re.compile(rb"^(?:// -----//|; \*\*\* IR Dump |\*\*\* IR Dump |# \*\*\* IR Dump )", re.M)
# The same after a newline: a literal first character lets the regex engine skip ahead (15x faster
# than ``^`` with re.M over a 200 MB LLVM dump); a header on a block's first line is matched apart.
_SECTION_AFTER_NEWLINE = re.compile(rb"\n(?:// -----//|; \*\*\* IR Dump |\*\*\* IR Dump |# \*\*\* IR Dump )")
# Example: // -----// IR Dump Before TritonGPUPipe   (a header cut short: still the IR before some pass)
_BEFORE_PREFIX = "// -----// IR Dump Before "
# Example: key=value pairs after a marker: seconds=0.1033 t=12.5
_KEY_VALUE = re.compile(r"([\w.-]+)=(\S*)")


@dataclass(frozen=True)
class Section:
    """One stretch of the dump from a header line to the next.

    Attributes:
        id: position in the dump (0 is the text before the first header, usually empty).
        line: 1-based line of the header in the whole dump.
        header: the header line ('' for section 0).
        size: bytes of the section, header included.
        lines: newlines in the section (so it ends on line ``line + lines``).
    """

    id: int
    line: int
    header: str
    size: int
    lines: int = 0


@dataclass(frozen=True)
class PassSnapshot:
    """One pass (or one internal step of a pass) as the dump records it.

    Attributes:
        index: the pass's number in the dump (what users type); steps share their pass's index.
        kind: ``before`` (MLIR: IR printed before the pass), ``after`` (LLVM: IR printed after it),
            ``failed`` (IR after a pass that failed) or ``step`` (an internal step of a pass).
        pass_class: the C++ class (``TritonGPUPipeline``).
        name: the pass argument users know (``tritongpu-pipeline``), or the class when none.
        options: the pass options as printed (``num-stages=3``), '' when none.
        anchor: the operation it ran on (``builtin.module``, ``tt.func``; for LLVM ``[module]`` or a function).
        symbol: the anchored function for function passes (``matmul_kernel``), else ''.
        ir: ``mlir``, ``llvm`` or ``mir`` (machine IR).
        stage: the compile stage it ran in (``ttir``, ``ttgir``, ``llir``, ``ptx``, ``amdgcn``), '' if unknown.
        section: the section printed at this pass (its input for ``before``, its output otherwise).
        input: the section holding the IR the pass received, or None when the dump lacks it.
        output: the section holding the IR the pass produced, or None when the dump lacks it.
        scope: a function name when only that function's text is comparable (LLVM function dumps).
        step: for steps, the step name (``LowerLoops``) and ``parent`` the pass it belongs to.
        line: 1-based line of its header in the dump.
    """

    index: int
    kind: str
    pass_class: str
    name: str
    options: str
    anchor: str
    symbol: str
    ir: str
    stage: str
    section: int
    input: int | None
    output: int | None
    scope: str = ""
    step: str = ""
    parent: int | None = None
    line: int = 0

    @property
    def label(self) -> str:
        """How tables name it: the pass argument, or ``parent/step`` for steps."""
        return f"{self.name}/{self.step}" if self.kind == "step" else self.name


@dataclass(frozen=True)
class StageSpan:
    """Where one compile stage sits in the dump.

    Attributes:
        stage: stage name (``ttgir``).
        begin_line / end_line: marker lines (end_line 0 when the stage never finished).
        seconds: wall time of the stage as the worker measured it (0 when unknown).
        output: section holding the stage's final MLIR (for llir: the module handed to translation).
        llvm_input: section holding the LLVM IR before LLVM's optimizer (llir, LLVM dumps only).
        llvm_output: section holding the LLVM IR the stage produced (LLVM dumps only).
    """

    stage: str
    begin_line: int
    end_line: int
    seconds: float
    output: int | None
    llvm_input: int | None = None
    llvm_output: int | None = None


@dataclass(frozen=True)
class DumpProblem:
    """Something odd in a dump, located for the user; reading went on past it where it could.

    Attributes:
        source: the file (or '<text>') the dump came from.
        line: 1-based line where the problem is.
        message: what is wrong, in one line.
        cut: whether it only says that the dump ends early.
    """

    source: str
    line: int
    message: str
    cut: bool = False

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.message}"


@dataclass(frozen=True)
class PassIndex:
    """The passes of one dump, in order, with their stages and where their IR lives.

    Attributes:
        passes: passes in execution order (``index`` = position), without steps.
        steps: internal steps of passes, in order.
        stages: the compile stages seen, in order.
        sections: every section of the dump.
        problems: what could not be read as expected (truncation, unknown headers).
        complete: whether the worker's end marker was seen (the dump is whole).
    """

    passes: tuple[PassSnapshot, ...]
    steps: tuple[PassSnapshot, ...]
    stages: tuple[StageSpan, ...]
    sections: tuple[Section, ...]
    problems: tuple[DumpProblem, ...]
    complete: bool

    def steps_of(self, index: int) -> tuple[PassSnapshot, ...]:
        """The internal steps of pass ``index``."""
        return tuple(s for s in self.steps if s.parent == index)

    def stage(self, name: str) -> StageSpan | None:
        """The span of a stage, if the dump has it."""
        return next((s for s in self.stages if s.stage == name), None)


@dataclass(frozen=True)
class Header:
    """A classified header line.

    Attributes:
        kind: ``before``, ``after``, ``failed``, ``step``, ``marker`` or ``unknown``.
        ir: ``mlir``, ``llvm`` or ``mir`` for IR sections, '' otherwise.
        pass_class / name / options / anchor / symbol: as in PassSnapshot.
        event: for markers, the event (``stage-begin``, ``stage-end``, ``mlir-output`` ...).
        stage: for markers, the stage they concern.
        values: for markers, their ``key=value`` pairs.
    """

    kind: str
    ir: str = ""
    pass_class: str = ""
    name: str = ""
    options: str = ""
    anchor: str = ""
    symbol: str = ""
    event: str = ""
    stage: str = ""
    values: tuple[tuple[str, str], ...] = ()

    def value(self, key: str, default: str = "") -> str:
        """A marker's value for ``key``."""
        return dict(self.values).get(key, default)


def classify_header(line: str) -> Header:
    """What a section's header line says; ``unknown`` for anything unrecognised."""
    if line.startswith("// -----// irscope "):
        if m := _MARKER.match(line):
            values = tuple((k, v) for k, v in _KEY_VALUE.findall(m.group("rest") or ""))
            return Header(kind="marker", event=m.group("event"), stage=m.group("stage") or "", values=values)
        return Header(kind="unknown")
    if m := _MLIR_HEADER.match(line):
        kind = "failed" if m.group("failed") else "before" if m.group("when") == "Before" else "after"
        return Header(kind=kind, ir="mlir", pass_class=m.group("cls"),
                      name=m.group("arg") or m.group("cls"), options=(m.group("opts") or "").strip(),
                      anchor=m.group("anchor"), symbol=m.group("sym") or "")
    if m := _STEP_HEADER.match(line):
        return Header(kind="step", ir="mlir", pass_class=m.group("owner"), name=m.group("step"))
    if m := _LLVM_HEADER.match(line):
        scope = m.group("scope")
        function = scope.strip("()") if scope != "[module]" else ""
        return Header(kind="after" if m.group("when") == "After" else "before", ir="llvm", pass_class=m.group("cls"),
                      name=m.group("cls"), anchor=scope, symbol=function,
                      options=(m.group("note") or "").strip())
    for regex, ir in ((_MIR_HEADER, "mir"), (_LEGACY_HEADER, "llvm")):
        if m := regex.match(line):
            return Header(kind="after" if m.group("when") == "After" else "before", ir=ir, pass_class=m.group("cls"),
                          name=m.group("arg") or m.group("cls"), anchor="")
    return Header(kind="unknown")


class SectionSplitter:
    """Cut a dump arriving in chunks into sections at header lines, without holding it whole."""

    def __init__(self) -> None:
        self._pending = b""
        self._current = bytearray()
        self._current_line = 1
        self._line = 1
        self._id = 0

    def feed(self, chunk: bytes) -> Iterator[tuple[Section, bytes]]:
        """Add bytes; yield the sections completed by them."""
        data = self._pending + chunk
        cut = data.rfind(b"\n") + 1
        self._pending = data[cut:]
        yield from self._split(data[:cut])

    def close(self) -> Iterator[tuple[Section, bytes]]:
        """Yield what is left (a dump need not end with a newline)."""
        rest, self._pending = self._pending, b""
        yield from self._split(rest)
        if self._current or self._id == 0:
            yield self._emit()

    def _split(self, block: bytes) -> Iterator[tuple[Section, bytes]]:
        start = 0
        starts = [0] if _SECTION_START.match(block) else []
        starts.extend(m.start() + 1 for m in _SECTION_AFTER_NEWLINE.finditer(block))
        for pos in starts:
            self._current += block[start:pos]
            self._line += block.count(b"\n", start, pos)
            if self._current or self._id == 0:
                yield self._emit()
            self._current_line = self._line
            start = pos
        self._current += block[start:]
        self._line += block.count(b"\n", start)

    def _emit(self) -> tuple[Section, bytes]:
        data = bytes(self._current)
        header = ""
        if self._id:
            end = data.find(b"\n")  # the first line only (split would copy the rest of the section too)
            header = (data if end < 0 else data[:end]).decode("utf-8", errors="replace").rstrip("\r")
        # Its newlines were counted as its pieces came in (_split): no second pass over the bytes.
        section = Section(id=self._id, line=self._current_line, header=header, size=len(data),
                          lines=self._line - self._current_line)
        self._id += 1
        self._current = bytearray()
        return section, data


def split_sections(text: str | bytes) -> list[tuple[Section, bytes]]:
    """All sections of a whole dump held in memory."""
    splitter = SectionSplitter()
    data = text.encode("utf-8") if isinstance(text, str) else text
    return [*splitter.feed(data), *splitter.close()]


@dataclass
class _Builder:
    """Mutable state while walking the headers in order (private to index_passes)."""

    source: str
    passes: list[PassSnapshot]
    steps: list[PassSnapshot]
    problems: list[DumpProblem]
    stage: str = ""

    def problem(self, line: int, message: str, cut: bool = False) -> None:
        self.problems.append(DumpProblem(self.source, line, message, cut))


def _link_outputs(passes: list[PassSnapshot], stages: dict[str, StageSpan]) -> list[PassSnapshot]:
    """Give each pass its input and output sections.

    An MLIR pass's output is the next MLIR pass's input in the same stage, else the stage's final
    MLIR; an LLVM pass's input is the previous dump of the same IR in that stage, else the IR the
    stage started from (the optimizer's input for llir, the llir result for code generation).
    """
    out: list[PassSnapshot] = []
    for i, p in enumerate(passes):
        if p.ir == "mlir" and p.kind in ("before", "failed"):
            output = p.output
            if output is None:
                nxt = next((q for q in passes[i + 1:] if q.ir == "mlir"), None)
                span = stages.get(p.stage)
                if nxt is not None and nxt.stage == p.stage:
                    output = nxt.section
                elif span is not None:
                    output = span.output
            out.append(_replace(p, input=p.section, output=output))
            continue
        earlier = [q for q in out if q.ir == p.ir and q.stage == p.stage]
        source: int | None = earlier[-1].output if earlier else None
        if source is None and p.ir == "llvm":
            span = stages.get(p.stage)
            if span is not None and span.llvm_input is not None:
                source = span.llvm_input
            else:
                prior = [s for s in stages.values() if s.llvm_output is not None and s.stage != p.stage]
                source = prior[-1].llvm_output if prior else None
        out.append(_replace(p, input=source, output=p.section))
    return out


def _replace(p: PassSnapshot, **changes: object) -> PassSnapshot:
    from dataclasses import replace

    return replace(p, **changes)  # type: ignore[arg-type]


def index_passes(sections: Iterable[Section], source: str = "<text>") -> PassIndex:
    """Index a dump's sections: passes in order, their stages, inputs and outputs, and problems."""
    sections = tuple(sections)
    b = _Builder(source=source, passes=[], steps=[], problems=[])
    spans: dict[str, dict[str, object]] = {}
    order: list[str] = []
    complete = False
    for sec in sections:
        if sec.id == 0 and not sec.header:
            continue
        h = classify_header(sec.header)
        if h.kind == "unknown" and sec.header.startswith(_BEFORE_PREFIX):
            # Still the IR before some pass: keep it in the chain so its neighbours' effects stay right.
            guess = sec.header[len(_BEFORE_PREFIX):].split(" ", 1)[0].rstrip(":") or "?"
            b.problem(sec.line, f"unreadable pass header {sec.header[:80]!r}; kept as pass {guess!r}")
            h = Header(kind="before", ir="mlir", pass_class=guess, name=guess)
        if h.kind == "unknown":
            if sec is not sections[-1] or sec.header.endswith("//"):
                b.problem(sec.line, f"unrecognised dump header {sec.header[:80]!r}; its text is skipped")
            continue
        if h.kind == "marker":
            complete = _on_marker(b, h, sec, spans, order) or complete
            continue
        if h.kind == "step":
            if not b.passes:
                b.problem(sec.line, f"step {h.name!r} appears before any pass; skipped")
                continue
            parent = b.passes[-1]
            b.steps.append(PassSnapshot(index=parent.index, kind="step", pass_class=h.pass_class, name=parent.name,
                                        options="", anchor=parent.anchor, symbol=parent.symbol, ir="mlir",
                                        stage=b.stage, section=sec.id, input=None, output=sec.id, step=h.name,
                                        parent=parent.index, line=sec.line))
            continue
        if h.kind == "before" and h.ir != "mlir":
            continue  # LLVM "before" dumps are only printed when asked for both; the "after" ones suffice
        if h.kind == "failed":
            last = b.passes[-1] if b.passes else None
            if last is not None and last.pass_class == h.pass_class and last.output is None:
                b.passes[-1] = _replace(last, kind="failed", output=sec.id)
            else:
                b.problem(sec.line, f"IR after the failure of {h.name} without its input; kept as is")
                b.passes.append(PassSnapshot(index=len(b.passes), kind="failed", pass_class=h.pass_class,
                                             name=h.name, options=h.options, anchor=h.anchor, symbol=h.symbol,
                                             ir="mlir", stage=b.stage, section=sec.id, input=None, output=sec.id,
                                             line=sec.line))
            continue
        b.passes.append(PassSnapshot(index=len(b.passes), kind=h.kind, pass_class=h.pass_class, name=h.name,
                                     options=h.options, anchor=h.anchor, symbol=h.symbol, ir=h.ir, stage=b.stage,
                                     section=sec.id, input=None, output=None,
                                     scope=h.symbol if h.ir == "llvm" else "", line=sec.line))
    stages = {name: StageSpan(stage=name, begin_line=int(str(d.get("begin", 0))), end_line=int(str(d.get("end", 0))),
                              seconds=float(str(d.get("seconds", 0.0))), output=_opt_int(d.get("output")),
                              llvm_input=_opt_int(d.get("llvm_input")), llvm_output=_opt_int(d.get("llvm_output")))
              for name, d in spans.items()}
    end = sections[-1].line + sections[-1].lines if sections else 0
    unfinished = [name for name in order if not stages[name].end_line]
    if unfinished:
        b.problem(end, f"reading stopped here, inside stage {unfinished[-1]}: the compile did not finish or the "
                  "dump was cut short; the passes before this line are usable", cut=True)
    elif passes_seen(b) and not complete:
        b.problem(end, "the dump has no end marker: it was cut short here", cut=True)
    passes = _link_outputs(b.passes, stages)
    steps = _link_steps(b.steps, passes)
    return PassIndex(passes=tuple(passes), steps=tuple(steps), stages=tuple(stages[n] for n in order),
                     sections=sections, problems=tuple(b.problems), complete=complete)


def passes_seen(b: _Builder) -> bool:
    """Whether any pass was read (a dump of markers only is not cut short, it is empty)."""
    return bool(b.passes)


def _opt_int(value: object) -> int | None:
    return None if value is None else int(str(value))


def _on_marker(b: _Builder, h: Header, sec: Section, spans: dict[str, dict[str, object]], order: list[str]) -> bool:
    """Apply one irscope marker; return True when it is the end-of-dump marker."""
    if h.event == "dump-end":
        return True
    if h.event in ("compile-begin", "compile-end"):
        return False
    if h.event == "compile-failed":
        b.problem(sec.line, f"the compile failed in stage {b.stage or '?'}; the passes after this line did not run")
        return False
    if h.event == "stage-begin":
        b.stage = h.stage
        spans[h.stage] = {"begin": sec.line}
        order.append(h.stage)
        return False
    span = spans.get(h.stage)
    if span is None:
        b.problem(sec.line, f"marker {h.event} for stage {h.stage!r} that never began; ignored")
        return False
    if h.event == "stage-end":
        span["end"] = sec.line
        span["seconds"] = h.value("seconds", "0") or "0"
        b.stage = ""
    elif h.event == "mlir-output":
        span["output"] = sec.id
    elif h.event == "llvm-input":
        span["llvm_input"] = sec.id
    elif h.event == "stage-output":
        span["llvm_output"] = sec.id
    return False


def _link_steps(steps: list[PassSnapshot], passes: list[PassSnapshot]) -> list[PassSnapshot]:
    """A step's input is the previous step of the same pass, or the pass's own input."""
    out: list[PassSnapshot] = []
    for s in steps:
        prior = [q for q in out if q.parent == s.parent]
        source = prior[-1].section if prior else passes[s.parent].input if s.parent is not None else None
        out.append(_replace(s, input=source))
    return out


def parse_dump(text: str | bytes, source: str = "<text>") -> tuple[PassIndex, dict[int, str]]:
    """Index a whole dump held in memory; return the index and every section's text by id."""
    pieces = split_sections(text)
    texts = {sec.id: data.decode("utf-8", errors="replace") for sec, data in pieces}
    return index_passes((sec for sec, _ in pieces), source), texts


def section_body(text: str) -> str:
    """A section's IR: its text without the header line and the blank lines around it."""
    start = 0
    if text.startswith(("// -----//", "; *** IR Dump", "*** IR Dump", "# *** IR Dump")):
        start = text.find("\n") + 1 or len(text)
    end = len(text)
    while start < end and text[start] == "\n":
        start += 1
    while end > start and text[end - 1] == "\n":
        end -= 1
    return text[start:end]  # one copy: sections of the LLVM dialect run to megabytes
