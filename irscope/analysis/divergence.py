"""Where two compilations of one kernel part ways: the first pass (or stage) whose output differs, and what it did.

The two MLIR pass pipelines are aligned by pass name (an LCS over names without their options, so a pass added,
removed or renamed between Triton versions is allowed), each aligned pass's output is compared with SSA numbers
and locations normalised (irscope.analysis.diff's ``normalize``, the one ``diff`` uses), and the first that
differs is named with what it did differently there. When every MLIR pass agrees, the lower stages are compared
in order: LLVM IR, PTX or AMDGCN, then the machine code; a difference there is listed per kernel line
(irscope.analysis.sourcemap's line maps), with ptxas' registers, spills and stack among the facts that moved.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from irscope.analysis.diff import DiffOptions, diff_texts, normalize, strip_pass_manager_noise
from irscope.analysis.instructions import classify
from irscope.analysis.ir_facts import describe_change, llvm_facts, llvm_function, mlir_facts
from irscope.analysis.passes import DumpSource, effect_of
from irscope.analysis.spelling import VALUE_NAMES, rename_values, respell, split_data_layout
from irscope.errors import StoreError
from irscope.parse.passes import PassSnapshot, section_body

__all__ = ["AlignedPass", "Divergence", "LineDelta", "align_passes", "line_deltas", "lower_pass_divergence",
           "pass_divergence", "stage_divergence"]

_SAME_NAME = 0.6  # two unmatched passes whose names are this alike are one pass renamed
_SHOWN_LINES = 2  # changed lines quoted when no counted fact moved
# Example: tritongpu-pipeline{num-stages=3} -> tritongpupipeline   (what pass names are aligned by)
_NAME_NOISE = re.compile(r"[^a-z0-9]")
# Example: \t.loc\t1 48 20   /   .file\t1 "/work/k.py"   /   // begin inline asm   (PTX/AMDGCN lines that are positions)
_ASM_NOISE = re.compile(r"^\s*(?:\.loc\b|\.file\b|//|;|\.Ltmp\d+:|\.Lfunc_end|\.Ldebug_)")
# Example: STL [R1+0x10], R20   /   LDL.64 R4, [R1+0x8]   /   st.local.u32   /   scratch_store_dword
# (a spill or local array)
# Example: llvm.func @matmul_kernel(%arg0: !llvm.ptr<1>, ...) attributes {nvvm.kernel = 1 : ui1, ...} {
_FUNC_ATTRS = re.compile(r"^(\s*(?:tt|llvm)\.func\b.*?) attributes \{.*\} \{$")
# LLVM IR's memory and control flow, as _llvm_shape counts it: instructions, then blocks and loops.
_LLVM_SHAPE = (("load", "loads"), ("store", "stores"), ("phi", "phis"), ("br", "branches"), ("select", "selects"))
# Example: 12:        /   .lr.ph:        /   L0:   (a basic block's label)
_LLVM_BLOCK = re.compile(r"^[\w.$-]+:", re.M)
# Example:   br i1 %10, label %6, label %11, !llvm.loop !5   (a loop's latch)
_LLVM_LOOP = re.compile(r"!llvm\.loop !\d+")
# Example: !6 = !{!"llvm.loop.unroll.disable"}
_LLVM_UNROLL = re.compile(r'!"llvm\.loop\.unroll\.[\w.]+"')
_LOCAL = re.compile(r"^(?:(?P<st>STL|st\.local|scratch_store)|(?P<ld>LDL|ld\.local|scratch_load))")


@dataclass(frozen=True)
class AlignedPass:
    """One step of two aligned pipelines.

    Attributes:
        a / b: the pass on each side; None where that side's pipeline lacks it.
    """

    a: PassSnapshot | None
    b: PassSnapshot | None

    @property
    def name(self) -> str:
        """The pass's name (side A's when both have it)."""
        p = self.a or self.b
        return p.name if p is not None else ""


@dataclass(frozen=True)
class LineDelta:
    """What moved on one kernel line in a lower stage.

    Attributes:
        stage: ``llir``, ``ptx``, ``sass`` or ``amdgcn``.
        line: the kernel line (None: instructions with no line of the kernel's file).
        source: that line's text, stripped ('' when unknown).
        changes: the counts that moved, each ``class a -> b`` (``spill stores 0 -> 12``).
        weight: how much moved in all (the ranking).
    """

    stage: str
    line: int | None
    source: str
    changes: tuple[str, ...]
    weight: int


@dataclass(frozen=True)
class Divergence:
    """The first point where two compilations differ.

    Attributes:
        level: ``pass`` (an MLIR pass), ``stage`` (the frontend's first IR, or a lower stage), ``none``, or
            ``unknown`` (not searched: a per-pass dump could not be made; ``note`` says why).
        stage: the stage it lies in (``ttgir``, ``llir``, ``ptx``, ``sass``), None at level ``none``.
        pass_name: the pass, at level ``pass``.
        index_a / index_b: the pass's index in each side's dump (None where one side lacks the pass).
        effect: what differs there, most telling first.
        lines: at a lower stage, what moved per kernel line, most first.
        compared: aligned MLIR passes whose outputs were compared.
        note: how the search went, one sentence (``every MLIR pass's output is equal``).
        dump: the per-pass dump ``index_a``/``index_b`` number in: ``mlir``, or ``llvm`` (LLVM's own passes too).
    """

    level: str
    stage: str | None
    pass_name: str | None = None
    index_a: int | None = None
    index_b: int | None = None
    effect: tuple[str, ...] = ()
    lines: tuple[LineDelta, ...] = ()
    compared: int = 0
    note: str = ""
    dump: str = "mlir"


def _key(p: PassSnapshot) -> str:
    return _NAME_NOISE.sub("", p.name.lower())


def _renamed(a: PassSnapshot, b: PassSnapshot) -> bool:
    return a.pass_class == b.pass_class or difflib.SequenceMatcher(None, _key(a), _key(b)).ratio() >= _SAME_NAME


def _pair_block(a: Sequence[PassSnapshot], b: Sequence[PassSnapshot]) -> list[AlignedPass]:
    """Two runs of passes that did not match by name: renamed ones paired in order, the rest on one side."""
    out: list[AlignedPass] = []
    j = 0
    for p in a:
        k = next((k for k in range(j, len(b)) if _renamed(p, b[k])), None)
        if k is None:
            out.append(AlignedPass(p, None))
            continue
        out.extend(AlignedPass(None, q) for q in b[j:k])
        out.append(AlignedPass(p, b[k]))
        j = k + 1
    out.extend(AlignedPass(None, q) for q in b[j:])
    return out


def align_passes(a: Sequence[PassSnapshot], b: Sequence[PassSnapshot]) -> list[AlignedPass]:
    """Two pipelines aligned by pass name and position (passes added, removed or renamed allowed)."""
    matcher = difflib.SequenceMatcher(None, [_key(p) for p in a], [_key(p) for p in b], autojunk=False)
    out: list[AlignedPass] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend(AlignedPass(a[i], b[j]) for i, j in zip(range(i1, i2), range(j1, j2), strict=True))
        else:
            out.extend(_pair_block(a[i1:i2], b[j1:j2]))
    return out


class _Side:
    """One side's dump: section texts, their line counts and comparable lines, each computed once.

    ``stage`` None: the MLIR passes; else LLVM's own passes in that stage (the optimizer in ``llir``, the code
    generator in ``ptx``/``amdgcn``), whose sections are LLVM IR or machine IR.
    """

    def __init__(self, source: DumpSource, unchanged: frozenset[int] = frozenset(), stage: str | None = None) -> None:
        self.source = source
        self.stage = stage
        self.passes = [p for p in source.index.passes
                       if (p.ir == "mlir" if stage is None else p.stage == stage and p.ir in ("llvm", "mir"))]
        self.ir_of = {s: p.ir for p in self.passes for s in (p.input, p.output) if s is not None}
        self.ir_of.update({p.output: p.ir for p in self.passes if p.output is not None})  # an input is the IR before
        # A pass known to print its input unchanged (the cached pass table says so) outputs the text of an
        # earlier section: comparisons are made, and remembered, on that one.
        self.canon: dict[int, int] = {}
        for p in self.passes:
            if p.index in unchanged and p.input is not None and p.output is not None:
                self.canon[p.output] = self.canon.get(p.input, p.input)
        self._bodies: dict[int, str] = {}
        self.respelled: set[str] = set()  # what irscope.analysis.spelling set aside in the texts read
        self.layouts: set[str] = set()  # the LLVM data layouts set aside in the texts read
        self._counts: dict[int, int] = {}
        self._lines: dict[int, list[str]] = {}

    @property
    def pipeline(self) -> str:
        """What its passes are, as notes name them."""
        return "MLIR pipeline" if self.stage is None else f"LLVM passes of {self.stage}"

    def body(self, section: int) -> str:
        if section not in self._bodies:
            body = section_body(self.source.text(section))
            if self.ir_of.get(section, "mlir") == "mlir":
                body, used = respell(body)
                self.respelled |= used
            elif self.ir_of.get(section) == "llvm":
                body, layout = split_data_layout(body)
                if layout:
                    self.layouts.add(layout)
            self._bodies[section] = body
            if len(self._bodies) > 4:
                self._bodies.pop(next(iter(self._bodies)))
        return self._bodies[section]

    def count(self, section: int) -> int:
        """How many lines ``normalize`` keeps of the section (all but the ``#loc`` definitions), counted cheaply."""
        if section not in self._counts:
            body = self.body(section)
            self._counts[section] = (body.count("\n") + 1 - body.startswith("#loc") - body.count("\n#loc")
                                     if self.ir_of.get(section, "mlir") == "mlir" else len(self.lines(section)))
        return self._counts[section]

    def renamed(self, section: int) -> list[str]:
        """The section's code lines (attributes set aside) with its SSA values renamed by first appearance."""
        lines = [_code(x) for x in normalize(self.body(section), "mlir", DiffOptions())]
        return rename_values("\n".join(lines)).split("\n")

    def lines(self, section: int) -> list[str]:
        if section not in self._lines:
            ir = self.ir_of.get(section, "mlir")
            self._lines[section] = normalize(self.body(section), ir, DiffOptions(normalize_ssa=True))
            if len(self._lines) > 6:
                self._lines.pop(next(iter(self._lines)))
        return self._lines[section]


def _same(a: _Side, sa: int, b: _Side, sb: int, memo: dict[tuple[int, int], bool] | None = None) -> bool:
    """Whether two sections hold the same IR once locations and SSA numbers are set aside (``memo``: answers so
    far, by the sections' canonical ids)."""
    if memo is not None:
        key = (a.canon.get(sa, sa), b.canon.get(sb, sb))
        if key not in memo:
            memo[key] = _same(a, key[0], b, key[1])
        return memo[key]
    if a.count(sa) != b.count(sb):  # normalising keeps the lines one for one: they differ
        return False
    if a.body(sa) == b.body(sb):
        return True
    la, lb = a.lines(sa), b.lines(sb)
    if la == lb or [_code(x) for x in la] == [_code(x) for x in lb]:
        return True
    if a.ir_of.get(sa, "mlir") != "mlir" or a.renamed(sa) != b.renamed(sb):
        return False
    a.respelled.add(VALUE_NAMES)  # one IR whose values the two printers named apart
    return True


def _code(line: str) -> str:
    """A line with the module's and the kernel function's attribute dictionaries set aside: an option a pass
    records there (``ttg.maxnreg``, ``ttng.two-ctas``, scratch sizes) is not code; the code it changes differs
    where it does."""
    if line.startswith("module attributes {"):
        return "module attributes"
    if "func" in line and (m := _FUNC_ATTRS.match(line)):
        return m.group(1)
    return line


def _attributes_only(a: _Side, sa: int, b: _Side, sb: int) -> list[str]:
    """How the module attributes differ between two sections whose code agrees ('' pieces when they do not)."""
    if a.body(sa) == b.body(sb):
        return []
    before, after = mlir_facts(a.body(sa)).module_attrs, mlir_facts(b.body(sb)).module_attrs
    moved = [f"{k} {before[k]} -> {v}" if k in before else f"+{k} = {v}" for k, v in after.items()
             if before.get(k) != v]
    moved += [f"-{k}" for k in before if k not in after]
    said = "only module attributes differ: " + ", ".join(moved) if moved else "only the kernel's attributes differ"
    return [f"the MLIR code agrees through every pass; {said}"]


def _changes_ir(side: _Side, p: PassSnapshot) -> bool:
    """Whether a pass only one side runs changed that side's IR."""
    if p.input is None or p.output is None or p.input == p.output:
        return False
    if p.scope:  # a function pass prints its function: compared with that function of its input
        before = normalize(llvm_function(side.body(p.input), p.scope), p.ir, DiffOptions(normalize_ssa=True))
        return before != side.lines(p.output)
    return side.lines(p.input) != side.lines(p.output)


def _quoted(text_a: str, text_b: str, ir: str) -> list[str]:
    """How many lines differ, and the first that do, as printed (for a change no counted fact describes)."""
    found = diff_texts(text_a, text_b, "A", "B", ir=ir, options=DiffOptions(normalize_ssa=True, context=0))
    out = [f"{found.removed} lines only in A, {found.added} only in B"]
    if found.hunks:
        lines = found.hunks[0].lines
        for tag, side in (("-", "A"), ("+", "B")):
            out.extend(f"{side}: {line.text.strip()[:160]}"
                       for line in [x for x in lines if x.tag == tag][:_SHOWN_LINES])
    return out


def _llvm_shape(text_a: str, text_b: str) -> list[str]:
    """LLVM IR's memory and control flow, A -> B, where it moved: loads, stores, phis, branches, blocks, loops."""
    fa, fb = llvm_facts(text_a), llvm_facts(text_b)
    moved = [f"{label} {fa.ops.get(op, 0)} -> {fb.ops.get(op, 0)}" for op, label in _LLVM_SHAPE
             if fa.ops.get(op, 0) != fb.ops.get(op, 0)]
    for label, regex in (("blocks", _LLVM_BLOCK), ("loops", _LLVM_LOOP), ("unroll hints", _LLVM_UNROLL)):
        na, nb = len(regex.findall(text_a)), len(regex.findall(text_b))
        if na != nb:
            moved.append(f"{label} {na} -> {nb}")
    return [", ".join(moved)] if moved else []


def _text_effect(text_a: str, text_b: str, ir: str) -> list[str]:
    """What differs between two texts of one stage: the counted facts, else the first lines that differ."""
    if ir == "mlir":
        said = describe_change(mlir_facts(text_a), mlir_facts(text_b))
    else:
        said = describe_change(llvm_facts(text_a, ir), llvm_facts(text_b, ir)) if ir in ("llvm", "mir") else []
        said = [*_llvm_shape(text_a, text_b), *said] if ir == "llvm" else said
    return said or _quoted(text_a, text_b, ir)


def _pass_effect(a: _Side, b: _Side, pa: PassSnapshot | None, pb: PassSnapshot | None) -> list[str]:
    """What a divergent pass did differently: its output B against A, its options, what it did on each side."""
    out: list[str] = []
    if pa is not None and pb is not None and pa.output is not None and pb.output is not None:
        out += _text_effect(a.body(pa.output), b.body(pb.output), a.ir_of.get(pa.output, "mlir"))
        if pa.options != pb.options:
            out.append(f"options {pa.options or '(none)'} -> {pb.options or '(none)'}")
        if pa.name != pb.name:
            out.append(f"renamed {pa.name} -> {pb.name}")
    effects = {label: effect_of(side.source, p) for label, side, p in (("A", a, pa), ("B", b, pb)) if p is not None}
    pieces = {label: e.changes if e.changed else () for label, e in effects.items()}
    common = set(pieces.get("A", ())) & set(pieces.get("B", ()))
    if len(effects) == 2 and pieces["A"] == pieces["B"]:
        return [*out, f"on both: {effects['A'].summary or 'no change'}"]
    for label in ("A", "B"):
        if label not in effects:
            out.append(f"{label} does not run this pass")
            continue
        own = [c for c in pieces[label] if c not in common]
        same = " (the rest as on the other side)" if common and own else ""
        out.append(f"on {label}: {'; '.join(own) or effects[label].summary or 'no change'}{same}")
    return out


def _diverged_at(a: _Side, b: _Side, steps: list[AlignedPass], compared: int) -> Divergence:
    """The divergence at aligned step ``steps[-1]`` (both sides run it), or at a pass one side runs alone before it."""
    last = steps[-1]
    assert last.a is not None and last.b is not None
    alone = [(s.a, "A", a) if s.a is not None else (s.b, "B", b) for s in steps[:-1]]
    for p, label, side in alone:
        if p is not None and _changes_ir(side, p):
            one_a, one_b = (p, None) if label == "A" else (None, p)
            return Divergence(level="pass", stage=p.stage or None, pass_name=p.name,
                              index_a=p.index if label == "A" else None, index_b=p.index if label == "B" else None,
                              effect=tuple(_pass_effect(a, b, one_a, one_b)), compared=compared,
                              note=f"only {label} runs this pass, and it changed the IR",
                              dump="mlir" if a.stage is None else "llvm")
    pa, pb = last.a, last.b
    earlier = list(dict.fromkeys(p.stage for p in a.passes if p.index < pa.index and p.stage and p.stage != pa.stage))
    agree = f"; the {' and '.join(s.upper() for s in earlier)} code agree{'s' if len(earlier) == 1 else ''}" \
        if earlier else ""
    return Divergence(level="pass", stage=pa.stage or None, pass_name=pa.name, index_a=pa.index, index_b=pb.index,
                      effect=tuple(_pass_effect(a, b, pa, pb)), compared=compared,
                      note=f"the IR agrees up to this pass and differs from its output to the end of the "
                           f"{a.pipeline} ({compared} aligned passes compared{agree})",
                      dump="mlir" if a.stage is None else "llvm")


def pass_divergence(dump_a: DumpSource, dump_b: DumpSource, unchanged_a: frozenset[int] = frozenset(),
                    unchanged_b: frozenset[int] = frozenset()) -> Divergence:
    """The MLIR pass from whose output on the two dumps differ for good: the first whose output differs after the
    last aligned pass whose outputs agree (or the frontend's first IR, when they never agree); level ``none``
    when the last aligned pass's outputs agree.

    Searched from the end: the passes before the last agreement need not be read, and a difference that a later
    pass washes out (``canonicalize`` folding what two frontends generated differently) is not the answer.
    ``unchanged_a``/``unchanged_b``: passes known to leave each side's IR as it was (their texts are not read).
    """
    a, b = _Side(dump_a, unchanged_a), _Side(dump_b, unchanged_b)
    found = _search(a, b)
    # Printed one way on one side only: the versions spell it apart (value names: found by comparing both).
    respelled = sorted((a.respelled ^ b.respelled) | (a.respelled & {VALUE_NAMES}))
    if respelled:
        found = replace(found, note=f"{found.note}; set aside as two spellings of one IR: {', '.join(respelled)}")
    return found


def _same_step(a: _Side, b: _Side, step: AlignedPass, memo: dict[tuple[int, int], bool]) -> bool:
    """Whether an aligned step's two outputs agree (a function pass's: on that function's text)."""
    assert step.a is not None and step.b is not None and step.a.output is not None and step.b.output is not None
    return _same(a, step.a.output, b, step.b.output, memo)


def _search(a: _Side, b: _Side) -> Divergence:
    """pass_divergence's search over two sides."""
    memo: dict[tuple[int, int], bool] = {}
    if not a.passes or not b.passes:
        return Divergence(level="none", stage=None, note=f"a dump holds none of the {a.pipeline}")
    steps = [s for s in align_passes(a.passes, b.passes)
             if s.a is None or s.b is None or (s.a.output is not None and s.b.output is not None)]
    both = [i for i, s in enumerate(steps) if s.a is not None and s.b is not None]
    compared = 0
    # Agreement counts module-wide: a function pass prints one function, and what lies outside it (an attribute
    # group, a global) is not in its text. MLIR passes print the module.
    wide = [i for i in both if not any(p is not None and p.scope for p in (steps[i].a, steps[i].b))]
    agreed = -1  # the step of the last module-wide aligned pass whose outputs agree
    for i in reversed(wide):
        compared += 1
        if _same_step(a, b, steps[i], memo):
            agreed = i
            break
    diverging = next((i for i in both if i > agreed and not _same_step(a, b, steps[i], memo)), None)
    if diverging is None:
        last = steps[agreed if agreed >= 0 else both[-1]] if both else AlignedPass(None, None)
        outputs = (last.a.output if last.a else None, last.b.output if last.b else None)
        effect = (_attributes_only(a, outputs[0], b, outputs[1])
                  if a.stage is None and outputs[0] is not None and outputs[1] is not None else [])
        return Divergence(level="none", stage=None, compared=compared, effect=tuple(effect),
                          note=f"the outputs of the last aligned pass of the {a.pipeline} are equal")
    first_a, first_b = a.passes[0].input, b.passes[0].input
    frontend = first_a is not None and first_b is not None and not _same(a, first_a, b, first_b)
    if agreed < 0 and frontend:
        assert first_a is not None and first_b is not None
        effect = _text_effect(a.body(first_a), b.body(first_b), a.ir_of.get(first_a, "mlir"))
        first = ("the first IR, as the frontend generated it from the kernel," if a.stage is None else
                 f"the IR the {a.pipeline} start from" + (" (translated from the MLIR)" if a.stage == "llir" else ""))
        return Divergence(level="stage", stage=a.passes[0].stage or "ttir", effect=tuple(effect), compared=compared,
                          note=f"{first} differs before any pass, and no pass makes the two agree again",
                          dump="mlir" if a.stage is None else "llvm")
    found = _diverged_at(a, b, steps[agreed + 1:diverging + 1], compared)
    if frontend and agreed >= 0:
        at = steps[agreed].a
        assert at is not None
        first = "the frontends' first IRs" if a.stage is None else "the IRs they start from"
        found = replace(found, note=found.note + f"; {first} differed too, but agree again by "
                                                 f"A's pass {at.index} ({at.name})")
    return found


def lower_pass_divergence(dump_a: DumpSource, dump_b: DumpSource, stage: str) -> Divergence:
    """The first of LLVM's own passes in ``stage`` (``llir``: the optimizer; ``ptx``/``amdgcn``: the code
    generator) from whose output on two dumps made with ``LLVM_IR_ENABLE_DUMP`` differ, searched as
    pass_divergence searches the MLIR passes: aligned by name and order, from the end."""
    a, b = _Side(dump_a, stage=stage), _Side(dump_b, stage=stage)
    found = _search(a, b)
    if a.layouts != b.layouts and len(a.layouts) == len(b.layouts) == 1:
        la, lb = (next(iter(x.layouts)).split("-") for x in (a, b))
        moved = [f"{side} only: {' '.join(e for e in mine if e not in theirs)}"
                 for side, mine, theirs in (("A", la, lb), ("B", lb, la)) if any(e not in theirs for e in mine)]
        found = replace(found, note=f"{found.note}; set aside: the target data layout strings differ "
                                    f"({'; '.join(moved)})")
    return found


def _asm_lines(text: str) -> list[str]:
    """PTX or AMDGCN lines to compare: without position directives and comments."""
    return [line.rstrip() for line in text.splitlines() if line.strip() and not _ASM_NOISE.match(line)]


def comparable_stage(stage: str, text: str) -> tuple[str, list[str]]:
    """A lower stage's text as the lines to compare, and its kind of IR (``llvm`` or ``text``)."""
    if stage == "llir":
        return "llvm", normalize(strip_pass_manager_noise(text), "llvm", DiffOptions(normalize_ssa=True))
    return "text", _asm_lines(text)


def stage_divergence(stages: Sequence[str], read_a: Callable[[str], str], read_b: Callable[[str], str],
                     compared: int = 0) -> Divergence:
    """The first lower stage whose text differs (position directives and SSA numbers set aside), else ``none``."""
    for stage in stages:
        try:
            text_a, text_b = read_a(stage), read_b(stage)
        except StoreError:
            continue  # a stage one side lacks (a SASS listing without the tools) is passed over
        ir, la = comparable_stage(stage, text_a)
        _, lb = comparable_stage(stage, text_b)
        if la != lb:
            return Divergence(level="stage", stage=stage, effect=tuple(_text_effect(text_a, text_b, ir)),
                              compared=compared, note=f"every MLIR pass's output is equal; {stage} is the first "
                                                      "lower stage that differs")
    return Divergence(level="none", stage=None, compared=compared,
                      note="every MLIR pass's output and every lower stage are equal")


def _line_classes(opcodes: Sequence[tuple[int | None, str]]) -> dict[int | None, Counter[str]]:
    """Instruction classes per kernel line: tensor-core, memory, spills (local memory), the rest as ``other``."""
    out: dict[int | None, Counter[str]] = {}
    for line, opcode in opcodes:
        local = _LOCAL.match(opcode)
        kind = ("spill stores" if local["st"] else "spill loads") if local else classify(opcode) or "other"
        counts = out.setdefault(line, Counter())
        counts[kind] += 1
        counts["instructions"] += 1
    return out


def line_deltas(stage: str, a: Sequence[tuple[int | None, str]], b: Sequence[tuple[int | None, str]],
                source: Sequence[str], limit: int = 6) -> list[LineDelta]:
    """What moved per kernel line between two listings of one stage (``(line, opcode)`` per instruction)."""
    ca, cb = _line_classes(a), _line_classes(b)
    out: list[LineDelta] = []
    for line in set(ca) | set(cb):
        before, after = ca.get(line, Counter()), cb.get(line, Counter())
        kinds = sorted(set(before) | set(after), key=lambda k: (k == "instructions", k == "other",
                                                                 not k.startswith("spill"), k))
        changes = tuple(f"{k} {before.get(k, 0)} -> {after.get(k, 0)}" for k in kinds
                        if before.get(k, 0) != after.get(k, 0))
        if not changes:
            continue
        weight = sum(abs(after.get(k, 0) - before.get(k, 0)) for k in kinds if k != "instructions")
        text = source[line - 1].strip() if line is not None and 0 < line <= len(source) else ""
        out.append(LineDelta(stage=stage, line=line, source=text, changes=changes, weight=weight))
    out.sort(key=lambda d: (-d.weight, d.line if d.line is not None else 1 << 30))
    return out[:limit]
