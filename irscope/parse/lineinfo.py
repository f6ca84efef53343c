"""Source positions of the lower stages: LLVM IR ``!dbg``, PTX and AMDGCN ``.loc``, nvdisasm's SASS comments.

Each parser returns a :class:`Listing`: the stage's instruction lines, each with the source frames
it came from (innermost first, the same convention as irscope.parse.mlir_locs), plus the loops the
assembler marked (LLVM's ``=>This Inner Loop Header`` comments; backward branches in SASS).
Odd lines are skipped and noted, never raised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from irscope.parse.ttgir_ops import SourceLoc

__all__ = ["AsmLoop", "Instruction", "Listing", "parse_amdgcn", "parse_llir", "parse_ptx", "parse_sass_lines"]

# Example: !15 = !DILocation(line: 43, column: 13, scope: !16, inlinedAt: !18)
_LLVM_META = re.compile(r"^!(?P<id>\d+)\s*=\s*(?:distinct\s+)?!(?P<kind>DI\w+)\((?P<body>.*)\)\s*$")
# Example: line: 43, column: 13, scope: !16, inlinedAt: !18      (one field of a DI node)
_LLVM_FIELD = re.compile(r'(?P<key>\w+):\s*(?P<value>"(?:[^"\\]|\\.)*"|![\d]+|[\w.-]+)')
# Example:   %105 = getelementptr [2 x i8], ptr addrspace(1) %1, i64 %104, !dbg !43
_LLVM_DBG = re.compile(r",?\s*!dbg\s+!(?P<id>\d+)")
# Example: %361 = tail call { float, ... } asm sideeffect "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {$0,...
#      or: %5 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ];", ...
#      or: tail call void @llvm.nvvm.wgmma.fence.sync.aligned()
_LLVM_CALL = re.compile(r'\bcall\b.*?(?:\basm\s+(?:\w+\s+)*"(?P<asm>[^"]*)"|@(?P<callee>[\w.$-]+)\()')
# Example: \0A\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ]   (one instruction of an inline-asm string)
_ASM_INSN = re.compile(r"^(?:\\0[9AD]|\s)*(?:@!?\$\d+\s+)?(?P<op>[a-z_][\w.:]*)")
# Example: define ptx_kernel void @matmul_kernel(ptr addrspace(1) %0, ...) local_unnamed_addr #0 !dbg !6 {
_LLVM_DEFINE = re.compile(r"^define\b")
# Example: 	.file	1 "/work/main/kernels/matmul.py"     (PTX)   or   .file	1 "/work/main/kernels" "matmul.py"  (AMDGCN)
_FILE = re.compile(r'^\s*\.file\s+(?P<num>\d+)\s+"(?P<a>[^"]*)"(?:\s+"(?P<b>[^"]*)")?')
# Example: 	.loc	2 43 13, function_name $L__info_string0, inlined_at 1 56 17 // standard.py:43:13
_LOC = re.compile(r"^\s*\.loc\s+(?P<file>\d+)\s+(?P<line>\d+)\s+(?P<col>\d+)(?P<rest>.*)$")
# Example: , inlined_at 1 56 17
_INLINED_AT = re.compile(r"inlined_at\s+(?P<file>\d+)\s+(?P<line>\d+)\s+(?P<col>\d+)")
# Example: ; standard.py:43:13 @[ matmul.py:57:17 ]      (the comment naming the inlined-at chain: AMDGCN's, and the
# PTX's of LLVMs that leave ``inlined_at`` off the directive, as Triton 3.6's does)
_COMMENT_AT = re.compile(r"@\[\s*(?P<file>[^:\s\]]+):(?P<line>\d+):(?P<col>\d+)")
# Example: $L__BB0_2:                              // =>This Inner Loop Header: Depth=1
_LABEL = re.compile(r"^(?P<label>[$.\w]+):(?P<rest>(?:\s.*)?)$")
# Example: // =>This Inner Loop Header: Depth=1    /    ; =>This Loop Header: Depth=1    (LLVM's block comments)
_HEADER = re.compile(r"=>\s*This (?:Inner )?Loop Header: Depth=(?P<depth>\d+)")
# Example: //   in Loop: Header=BB0_6 Depth=1     /     //   Parent Loop BB0_6 Depth=1
_MEMBER = re.compile(r"(?:in Loop: Header=|Parent Loop )(?P<header>BB\d+_\d+)")
# Example: // %bb.8:                               //   in Loop: Header=BB0_6 Depth=1   (a block without a label)
_BLOCK_COMMENT = re.compile(r"^(?://|;)\s*%bb\.\d+:")
# Example: $L__BB0_7    /    .LBB0_15    (the block id LLVM's comments use: BB0_7)
_BLOCK_ID = re.compile(r"(BB\d+_\d+)$")
# Example: .LBB0_7:                                ; %.epil.preheader
# (LLVM's runtime unrolling leaves a loop's remainder iterations in blocks named .epil, or .prol in front)
_REMAINDER = re.compile(r"%[\w.$-]*\.(?:epil|prol)\b")
# Example: @%p23 bra 	$L__BB0_2;     /    s_cbranch_scc1 .LBB0_3
_BRANCH = re.compile(r"\b(?:bra(?:\.uni)?|s_branch|s_cbranch_\w+)\s+(?P<target>[$.\w]+)")
# Example: 	.type	matmul_kernel,@function
_AMD_FUNC = re.compile(r"^\s*\.type\s+(?P<name>[\w.$]+),@function")
# Example: 	//## File "/work/k.py", line 43 inlined at "/work/k.py", line 56
_SASS_FILE = re.compile(r'^\s*//##\s*File\s+"(?P<file>[^"]*)",\s*line\s+(?P<line>\d+)(?P<rest>.*)$')
# Example:  inlined at "/work/main/kernels/matmul.py", line 56
_SASS_AT = re.compile(r'inlined at\s+"(?P<file>[^"]*)",\s*line\s+(?P<line>\d+)')
# Example:         /*2460*/                   HGMMA.64x256x16.F32 R24, gdesc[UR8].tnspB, R24 ;
_SASS_INSN = re.compile(r"^\s*/\*(?P<addr>[0-9a-f]{4,})\*/\s+(?P<text>.*?)\s*;?\s*$")
# Example: @!PT LDS RZ, [RZ]   (predicated on "not true": padding ptxas inserts, it never executes)
_NEVER = re.compile(r"^@!PT\s")
# Example: @!P1 BRA `(.L_x_0)
_SASS_BRANCH = re.compile(r"\bBRA\b.*?`?\((?P<target>\.L[\w]+)\)")
# Example: @%p1 bra $L__BB0_3;  /  HGMMA.64x256x16.F32 R24 ...  /  tcgen05.mma.cta_group::1.kind::f16 [%r1], ...
_MNEMONIC = re.compile(r"^(?:@!?%?\w+\s+)?(?P<op>[A-Za-z_][\w.]*(?:::[\w.]+)*)")
# PTX brackets each inline-asm call with these comments. LLVM gives every further line of a multi-line asm
# string its own ``.loc``, one source line down per asm line, same column: ``mov.u32 %r1, 0x0;`` at 31:9,
# ``mov.u32 %r2, 0x0;`` at 32:9, ..., the load itself at 34:9. Those lines are not the kernel's.
_ASM_BEGIN, _ASM_END = "// begin inline asm", "// end inline asm"


@dataclass(frozen=True)
class Instruction:
    """One instruction (or LLVM IR instruction) line of a listing.

    Attributes:
        number: 1-based line number in the listing's text.
        text: the line, stripped of its debug annotations.
        opcode: the mnemonic with its modifiers (``cp.async.cg.shared.global``, ``HGMMA.64x256x16.F32``).
        frames: source positions, innermost first; empty when unknown.
        address: SASS only: the instruction's offset in the function, else -1.
    """

    number: int
    text: str
    opcode: str
    frames: tuple[SourceLoc, ...]
    address: int = -1


@dataclass(frozen=True)
class AsmLoop:
    """A loop in a listing.

    LLVM marks every basic block of a loop in PTX and AMDGCN (``=>This Inner Loop Header``,
    ``in Loop: Header=BB0_4``, ``Parent Loop``), and its block placement may put part of a loop
    before its header, so a loop is a set of line ranges. In SASS a loop is the span from a label
    to the last branch back to it.

    Attributes:
        label: the header label (``$L__BB0_2``, ``.LBB0_3``, ``.L_x_1``).
        start: first line of the loop.
        end: last line of the loop.
        depth: nesting depth as the assembler printed it (1 = outermost); 0 when not printed.
        ranges: the line ranges (first, last) the loop's blocks cover, in text order.
    """

    label: str
    start: int
    end: int
    depth: int = 0
    ranges: tuple[tuple[int, int], ...] = ()

    def contains(self, number: int) -> bool:
        """Whether a line number lies inside the loop."""
        spans = self.ranges or ((self.start, self.end),)
        return any(first <= number <= last for first, last in spans)


@dataclass(frozen=True)
class Listing:
    """A lower stage's instructions with their source positions.

    Attributes:
        stage: ``llir``, ``ptx``, ``amdgcn`` or ``sass``.
        instructions: instruction lines in text order.
        loops: loops found, outermost first.
        files: the source files the debug info names.
        problems: what could not be read, one sentence each.
        never_executed: SASS only: instructions predicated on ``!PT`` (PT is always true, so they never
            run; ptxas pads with them, e.g. ``@!PT LDS RZ, [RZ]``). They are not in ``instructions``, so
            no count includes them.
        unroll_remainders: PTX and AMDGCN: the line ranges of the blocks LLVM's loop unrolling left for the
            remainder iterations (named ``.epil`` / ``.prol`` in its block comments); one pass through them
            runs one iteration of the loop as it was before unrolling.
    """

    stage: str
    instructions: tuple[Instruction, ...]
    loops: tuple[AsmLoop, ...] = ()
    files: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    never_executed: tuple[Instruction, ...] = ()
    unroll_remainders: tuple[tuple[int, int], ...] = ()

    def between(self, start: int, end: int) -> list[Instruction]:
        """The instructions whose line number lies in ``start..end``."""
        return [i for i in self.instructions if start <= i.number <= end]

    def inside(self, loop: AsmLoop) -> list[Instruction]:
        """The instructions of a loop (of all its blocks)."""
        return [i for i in self.instructions if loop.contains(i.number)]


def _opcode(text: str) -> str:
    match = _MNEMONIC.match(text)
    return match["op"] if match else ""


def _loops(labels: dict[str, tuple[int, int]], branches: list[tuple[int, str]]) -> tuple[AsmLoop, ...]:
    """Loops from header labels (line, printed depth) and the branches that jump back to them."""
    loops = []
    for label, (line, depth) in labels.items():
        # A branch right after its own label is no loop (nvdisasm ends every function with `BRA` to itself).
        back = [number for number, target in branches if target == label and number > line + 1]
        if back:
            loops.append(AsmLoop(label=label, start=line, end=max(back), depth=depth, ranges=((line, max(back)),)))
    return tuple(sorted(loops, key=lambda loop: (loop.start, -loop.end)))


@dataclass
class _Block:
    """A basic block of a PTX or AMDGCN listing and the loops LLVM says it belongs to."""

    start: int
    label: str
    header_depth: int = 0
    loops: set[str] = field(default_factory=set)
    end: int = 0
    remainder: bool = False  # one of the blocks LLVM's unrolling left for a loop's remainder iterations


def _marked_loops(blocks: list[_Block]) -> tuple[AsmLoop, ...]:
    """Loops from LLVM's block comments: each loop is the blocks marked with it or with a loop inside it."""
    parents: dict[str, set[str]] = {}
    labels: dict[str, tuple[str, int]] = {}
    for block in blocks:
        own = _BLOCK_ID.search(block.label)
        if block.header_depth and own:
            labels[own.group(1)] = (block.label, block.header_depth)
            parents[own.group(1)] = set(block.loops)
            block.loops.add(own.group(1))

    def ancestors(name: str, depth: int = 0) -> set[str]:
        found = {name}
        for parent in parents.get(name, set()) - {name}:
            if depth < 32:
                found |= ancestors(parent, depth + 1)
        return found

    spans: dict[str, list[tuple[int, int]]] = {}
    for block in blocks:
        for name in set().union(*(ancestors(n) for n in block.loops)) if block.loops else set():
            spans.setdefault(name, []).append((block.start, block.end))
    loops = []
    for name, (label, depth) in labels.items():
        merged: list[tuple[int, int]] = []
        for first, last in sorted(spans.get(name, [])):
            if merged and first <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(last, merged[-1][1]))
            else:
                merged.append((first, last))
        if merged:
            loops.append(AsmLoop(label=label, start=merged[0][0], end=merged[-1][1], depth=depth, ranges=tuple(merged)))
    return tuple(sorted(loops, key=lambda loop: (loop.depth, loop.start)))


def _join(directory: str, name: str) -> str:
    if not directory or name.startswith("/"):
        return name
    return f"{directory.rstrip('/')}/{name}"


def parse_llir(text: str) -> Listing:
    """LLVM IR: each instruction's ``!dbg`` DILocation, followed through ``inlinedAt``."""
    meta: dict[str, tuple[str, dict[str, str]]] = {}
    for line in text.splitlines():
        if line.startswith("!") and (match := _LLVM_META.match(line)):
            meta[match["id"]] = (match["kind"],
                                 {m["key"]: m["value"].strip('"') for m in _LLVM_FIELD.finditer(match["body"])})
    problems: list[str] = []

    def file_of(scope: str, depth: int = 0) -> str:
        kind, fields = meta.get(scope.lstrip("!"), ("", {}))
        if kind == "DIFile":
            return _join(fields.get("directory", ""), fields.get("filename", ""))
        if "file" in fields and depth < 50:
            return file_of(fields["file"], depth + 1)
        if "scope" in fields and depth < 50:
            return file_of(fields["scope"], depth + 1)
        return ""

    chains: dict[str, tuple[SourceLoc, ...]] = {}

    def frames(node: str) -> tuple[SourceLoc, ...]:
        if node in chains:
            return chains[node]
        chains[node] = ()
        found: list[SourceLoc] = []
        current: str | None = node
        for _ in range(64):
            if current is None:
                break
            kind, fields = meta.get(current, ("", {}))
            if kind != "DILocation":
                problems.append(f"!{current} is not a DILocation")
                break
            line = int(fields.get("line", "0") or 0)
            if line > 0:
                found.append(SourceLoc(file_of(fields.get("scope", "")), line, int(fields.get("column", "0") or 0)))
            at = fields.get("inlinedAt")
            current = at.lstrip("!") if at else None
        chains[node] = tuple(found)
        return chains[node]

    instructions: list[Instruction] = []
    labels: dict[str, tuple[int, int]] = {}
    in_function = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if _LLVM_DEFINE.match(raw):
            in_function = True
            continue
        if raw.startswith("}"):
            in_function = False
            continue
        line = raw.strip()
        if not in_function or not line or line.startswith(";"):
            continue
        if (label := _LABEL.match(line)) and "=" not in line:
            if "Loop Header" in line:
                labels[label["label"]] = (number, 0)
            continue
        dbg = _LLVM_DBG.search(line)
        body = _LLVM_DBG.sub("", line).strip()
        op = body.split("=", 1)[1].strip() if body.startswith("%") and "=" in body else body
        call = _LLVM_CALL.search(op) if " call " in f" {op}" else None
        if call is None:
            opcode = op.split(" ", 1)[0]
        elif call["callee"]:
            opcode = call["callee"]
        else:
            opcode = _asm_opcode(call["asm"])
        instructions.append(Instruction(number, body, opcode, frames(dbg["id"]) if dbg else ()))
    files = tuple(dict.fromkeys(file_of(k) for k, (kind, _) in meta.items() if kind == "DIFile"))
    return Listing("llir", tuple(instructions), (), files, tuple(dict.fromkeys(problems)))


def _asm_opcode(asm: str) -> str:
    """The mnemonic an inline-asm string stands for: its first instruction that is not a ``mov``."""
    found = [m["op"] for part in asm.split(";") if (m := _ASM_INSN.match(part))]
    return next((op for op in found if not op.startswith("mov.")), found[0] if found else "asm")


def _file_table(text: str) -> dict[int, str]:
    table: dict[int, str] = {}
    for line in text.splitlines():
        if ".file" in line and (match := _FILE.match(line)):
            table[int(match["num"])] = _join(match["a"], match["b"]) if match["b"] is not None else match["a"]
    return table


def _by_name(files: dict[int, str], name: str) -> str:
    """The full path of a file known by its base name (AMDGCN comments print base names)."""
    for path in files.values():
        if path.rsplit("/", 1)[-1] == name:
            return path
    return name


def _asm_numbered(first: tuple[SourceLoc, ...], frames: tuple[SourceLoc, ...]) -> bool:
    """Whether ``frames`` is LLVM numbering a later line of the inline asm that ``first`` placed."""
    if not first or not frames:
        return False
    a, b = first[0], frames[0]
    return b.file == a.file and b.col == a.col and b.line > a.line and frames[1:] == first[1:]


@dataclass(frozen=True)
class AsmLineNumbers:
    """Source lines that PTX's ``.loc`` gives only to later lines of multi-line inline asm.

    Attributes:
        moved: (file, line) -> the line of the asm call, for lines no real ``.loc`` names.
        shared: (file, line) pairs that both a real ``.loc`` and such an asm line name.
    """

    moved: dict[tuple[str, int], int]
    shared: frozenset[tuple[str, int]]


def asm_line_numbers(ptx: str) -> AsmLineNumbers:
    """Where PTX's inline-asm line numbering put positions that belong to the asm call's own line."""
    files = _file_table(ptx)
    real: set[tuple[str, int]] = set()
    numbered: dict[tuple[str, int], set[int]] = {}
    first: tuple[SourceLoc, ...] | None = None
    in_asm = False
    for raw in ptx.splitlines():
        line = raw.strip()
        if line in (_ASM_BEGIN, _ASM_END):
            in_asm, first = line == _ASM_BEGIN, None
            continue
        if not line.startswith(".loc") or (loc := _LOC.match(line)) is None:
            continue
        frames = _frames_of_loc(loc, files, "ptx", [])
        if not frames:
            continue
        if in_asm and first is not None and _asm_numbered(first, frames):
            numbered.setdefault((frames[0].file, frames[0].line), set()).add(first[0].line)
        else:
            real.add((frames[0].file, frames[0].line))
        if in_asm and first is None:
            first = frames
    moved = {key: next(iter(lines)) for key, lines in numbered.items() if key not in real and len(lines) == 1}
    shared = frozenset(key for key in numbered if key not in moved)
    return AsmLineNumbers(moved=moved, shared=shared)


def _directive_listing(text: str, stage: str) -> Listing:
    """PTX and AMDGCN: instructions take the position of the last ``.loc`` before them."""
    files = _file_table(text)
    problems: list[str] = []
    instructions: list[Instruction] = []
    labels: dict[str, tuple[int, int]] = {}
    branches: list[tuple[int, str]] = []
    blocks: list[_Block] = []
    opening = False  # in the comment lines right after a block starts
    current: tuple[SourceLoc, ...] = ()
    functions: set[str] = set()
    in_function = stage == "ptx"
    asm_first: tuple[SourceLoc, ...] | None = None  # inside inline asm: the position of the asm call
    in_asm = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if stage == "ptx" and line in (_ASM_BEGIN, _ASM_END):
            in_asm, asm_first = line == _ASM_BEGIN, None
        if stage == "amdgcn":
            if func := _AMD_FUNC.match(raw):
                functions.add(func["name"])
            if raw.startswith(".Lfunc_end"):
                in_function = False
                _close(blocks, number - 1)
        label = _LABEL.match(line)
        if label and label["label"] in functions:
            in_function = True
        # LLVM's blocks: `$L__BB0_4:` / `.LBB0_3:` labels and `// %bb.5:` comments (not labels of inline asm).
        if (label and _BLOCK_ID.search(label["label"])) or _BLOCK_COMMENT.match(line):
            _close(blocks, number - 1)
            blocks.append(_Block(number, label["label"] if label else ""))
            opening = True
        if label and not opening:
            continue
        if opening and blocks and (label or line.startswith(("//", ";"))):
            _mark(blocks[-1], line)
            if label and (header := _HEADER.search(line)):
                labels[label["label"]] = (number, int(header["depth"]))
            continue
        opening = False
        if line.startswith(".loc") and (loc := _LOC.match(line)):
            current = _frames_of_loc(loc, files, stage, problems)
            if in_asm and asm_first is not None and _asm_numbered(asm_first, current):
                current = asm_first  # a later line of the same asm call, not a later source line
            elif in_asm and asm_first is None:
                asm_first = current
            continue
        if line.startswith((".", "//", ";", "{", "}", "#", ")")) or not in_function:
            continue
        code = line.split("//")[0] if stage == "ptx" else line.split(";")[0]
        code = " ".join(code.strip().rstrip(";").split())
        opcode = _opcode(code)
        if not opcode:
            continue
        if stage == "amdgcn" and code.endswith(" lds") and "_load_" in opcode:
            # Example: buffer_load_dwordx4 v3, s[8:11], 0 offen lds   (straight into LDS: an async copy)
            opcode += "_lds"
        if branch := _BRANCH.search(code):
            branches.append((number, branch["target"]))
        instructions.append(Instruction(number, code, opcode, current))
    last = instructions[-1].number if instructions else 0
    for block in blocks:
        block.end = block.end or max(last, block.start)
    loops = _marked_loops(blocks) or _loops(labels, branches)
    remainders = tuple((b.start, b.end) for b in blocks if b.remainder)
    return Listing(stage, tuple(instructions), loops, tuple(files.values()), tuple(dict.fromkeys(problems)),
                   unroll_remainders=remainders)


def _close(blocks: list[_Block], end: int) -> None:
    """End the last open block at line ``end``."""
    if blocks and not blocks[-1].end:
        blocks[-1].end = max(end, blocks[-1].start)


def _mark(block: _Block, line: str) -> None:
    """Read LLVM's loop comments on a block's first lines."""
    if header := _HEADER.search(line):
        block.header_depth = int(header["depth"])
    block.remainder = block.remainder or bool(_REMAINDER.search(line))
    block.loops.update(m["header"] for m in _MEMBER.finditer(line))


def _frames_of_loc(loc: re.Match[str], files: dict[int, str], stage: str, problems: list[str]) -> tuple[SourceLoc, ...]:
    """The frames of one ``.loc`` directive (line 0 means: no source position)."""
    if int(loc["line"]) == 0:
        return ()
    number = int(loc["file"])
    if number not in files:
        problems.append(f".loc names file {number}, which no .file directive defines")
    frames = [SourceLoc(files.get(number, f"<file {number}>"), int(loc["line"]), int(loc["col"]))]
    rest = loc["rest"]
    directive, _, comment = rest.partition("//") if stage == "ptx" else ("", "", rest)
    for at in _INLINED_AT.finditer(directive):
        frames.append(SourceLoc(files.get(int(at["file"]), f"<file {at['file']}>"), int(at["line"]), int(at["col"])))
    if len(frames) == 1:
        for at in _COMMENT_AT.finditer(comment):
            frames.append(SourceLoc(_by_name(files, at["file"]), int(at["line"]), int(at["col"])))
    return tuple(frames)


def parse_ptx(text: str) -> Listing:
    """PTX: ``.file`` table, ``.loc`` with ``inlined_at``, loop headers from LLVM's comments."""
    return _directive_listing(text, "ptx")


def parse_amdgcn(text: str) -> Listing:
    """AMDGCN assembly: ``.file`` / ``.loc``, the inlined-at chain from the ``@[ ... ]`` comments."""
    return _directive_listing(text, "amdgcn")


def parse_sass_lines(text: str) -> Listing:
    """nvdisasm ``-gi`` output: ``//## File ..., line N [inlined at ...]`` comments before instructions.

    An instruction predicated on ``!PT`` never executes: it goes to ``never_executed``, not ``instructions``.
    """
    instructions: list[Instruction] = []
    never: list[Instruction] = []
    labels: dict[str, tuple[int, int]] = {}
    branches: list[tuple[int, str]] = []
    current: tuple[SourceLoc, ...] = ()
    pending: list[tuple[SourceLoc, ...]] = []
    files: dict[str, None] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if (comment := _SASS_FILE.match(raw)) is not None:
            frames = [SourceLoc(comment["file"], int(comment["line"]), 0)]
            frames += [SourceLoc(at["file"], int(at["line"]), 0) for at in _SASS_AT.finditer(comment["rest"])]
            files.update(dict.fromkeys(f.file for f in frames))
            pending.append(tuple(frames))
            continue
        if pending:  # -gi prints the inlined chain, then the outer line again: keep the longest chain
            current = max(pending, key=len)
            pending = []
        if (label := _LABEL.match(raw.strip())) and raw.strip().startswith(".L"):
            labels[label["label"]] = (number, 0)
            continue
        if (insn := _SASS_INSN.match(raw)) is None:
            continue
        code = insn["text"].rstrip(" ;")
        instruction = Instruction(number, code, _opcode(code), current, int(insn["addr"], 16))
        if _NEVER.match(code):
            never.append(instruction)
            continue
        if branch := _SASS_BRANCH.search(code):
            branches.append((number, branch["target"]))
        instructions.append(instruction)
    loops = _loops(labels, branches)
    return Listing("sass", tuple(instructions), loops, tuple(files), never_executed=tuple(never))
