"""Line diffs of IR with the noise taken out: locations, SSA renumbering, alias numbering.

``normalize`` turns IR text into comparable lines; ``diff_texts`` compares two texts into typed
hunks that renderers draw unified or side by side; ``count_changes`` gives only the numbers.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

# Example: %a_64 = tt.load %a_ptrs_58 loc(#loc42)   /   loc("k.py":12:5)   /   loc(callsite(#loc3 at #loc9))
_LOC_REF = re.compile(
    r" loc\((?:[^()\"\n]|\"(?:\\.|[^\"\\\n])*\"|\((?:[^()\"\n]|\"(?:\\.|[^\"\\\n])*\"|\((?:[^()\"\n]"
    r"|\"(?:\\.|[^\"\\\n])*\"|\((?:[^()\"\n]|\"(?:\\.|[^\"\\\n])*\")*\))*\))*\))*\)"
)
# Example: %a_64 = tt.load %a_ptrs_58 loc(#loc42)   /   loc("k.py":12:5)   (the common, flat kinds, removed first)
_LOC_SIMPLE = re.compile(r' loc\((?:#loc\d*|"[^"\n]*"(?::\d+)*)\)')
# Example: store i32 %5, ptr %6, align 4, !dbg !37
_LLVM_DBG_REF = re.compile(r", !dbg !\d+")
# Lines dropped whole are matched from the newline before them (see drop_lines): a literal first
# character lets the regex engine skip ahead, where ``^`` with re.M tries every position of a
# megabyte-long LLVM dump.
# Example: \n; Function Attrs: alwaysinline nounwind   (a comment line; function-scoped dumps print some, not all)
_LLVM_COMMENT_AFTER_NL = re.compile(r"\n;[^\n]*(?=\n|\Z)")
# Example: \n!37 = !DILocation(line: 73, column: 20, scope: !4)
_LLVM_DBG_DEF_AFTER_NL = re.compile(r"\n!\d+ = (?:distinct )?!DI(?:Location|LexicalBlock\w*)\([^\n]*(?=\n|\Z)")
# Example: Running pass: InstCombinePass on matmul_kernel   (LLVM's pass-manager chatter inside a dump)
# Each line from the newline before it, for drop_lines: a literal first is five times faster than ^ with re.M.
_PM_NOISE_AFTER_NL = re.compile(r"\n(?:Running (?:pass|analysis)|Invalidating (?:analysis|all)|Clearing all analysis"
                                r"|Skipping pass)\b[^\n]*(?=\n|\Z)")
# Example: 16B	  %36:b64 = LD_i64 ...   (machine IR's slot indexes, renumbered by each pass that prints them)
_MIR_SLOT = re.compile(r"^\d+B\t", re.M)
# Example: %38:b32 = INT_PTX_SREG_CTAID_x debug-location !12; vector_add.py:23:11
_MIR_DEBUG_LOC = re.compile(r",? debug-location ![0-9]+(?:; [^\n]*)?")
_SMALL_GAP = 2_000_000  # a gap of len(a) * len(b) cells or fewer is aligned by difflib; larger ones are replaced
# Example: %accumulator_42   %c0_i32_3   %12   (an SSA value with the printer's uniquing number)
_SSA_NUMBERED = re.compile(r"%([A-Za-z_$.][\w$.]*?)_\d+\b|%\d+\b")
# Example: %accumulator_42 -> accumulator   %c0_i32 -> c0_i32   %12 -> ""   ^bb3 -> ^bb
# (a value's name without its number)
_SSA_OR_BLOCK = re.compile(r"%(?:([A-Za-z_$.][\w$.]*?)(?:_\d+)?|\d+)\b|(\^bb)\d+\b")
# Example: %a_ptrs_58   %arg3   %12#1   (any SSA value, for structural comparisons)
_SSA_ANY = re.compile(r"%[\w$.-]+")
# Example: ^bb12
_BLOCK_NUMBERED = re.compile(r"\^bb\d+\b")
# Example: !dbg !37  (LLVM metadata numbers shift whenever metadata is added)
_LLVM_META_NUMBERED = re.compile(r"!\d+\b")
# Example: #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
_ALIAS_DEF = re.compile(r"^#(?!loc)([\w$.-]+) = (.*)$", re.M)


@dataclass(frozen=True)
class DiffOptions:
    """What to ignore when comparing IR.

    Attributes:
        keep_locs: keep location attributes and ``#loc`` lines (stripped by default).
        normalize_ssa: ignore SSA renumbering: lines are compared with each value's number replaced by its
            place among the line's values of that name (``%x_12 = op %x_9, %x_9`` and ``%x_13 = op %x_10,
            %x_10`` match, ``op %x_9, %x_10`` does not); a diff still shows the lines as printed.
        inline_aliases: replace ``#blocked1``-style aliases by their definitions.
        erase_ssa: drop SSA names altogether, comparing only structure (for IR printed two ways:
            a pass's internal steps print no aliases and generic names).
        context: unchanged lines shown around each change.
    """

    keep_locs: bool = False
    normalize_ssa: bool = False
    inline_aliases: bool = False
    erase_ssa: bool = False
    context: int = 3


class DiffLine(NamedTuple):
    """One line of a diff (a NamedTuple, not a dataclass: a lowering pass's diff has ~15,000 of them).

    Attributes:
        tag: ``' '`` unchanged, ``'-'`` only on the left, ``'+'`` only on the right.
        old: 1-based line number on the left (None for added lines).
        new: 1-based line number on the right (None for removed lines).
        text: the (normalised) line.
    """

    tag: str
    old: int | None
    new: int | None
    text: str


@dataclass(frozen=True)
class Hunk:
    """A run of changes with its context; its lines are built when asked for (a lowering pass's diff
    has ~15,000, and a viewer shows a few screens of them).

    Attributes:
        old_start / old_len / new_start / new_len: the ``@@`` ranges (1-based starts).
        ops: the difflib-style opcodes the hunk covers.
        left / right: the compared (normalised) lines of both sides, shared by all hunks.
    """

    old_start: int
    old_len: int
    new_start: int
    new_len: int
    ops: tuple[tuple[str, int, int, int, int], ...]
    left: Sequence[str] = field(repr=False, compare=False)
    right: Sequence[str] = field(repr=False, compare=False)

    @property
    def lines(self) -> tuple[DiffLine, ...]:
        """The hunk's lines in order."""
        a, b = self.left, self.right
        out: list[DiffLine] = []
        for tag, i1, i2, j1, j2 in self.ops:
            if tag == "equal":
                # Equal lines read as the right side prints them (the same unless SSA numbers are ignored,
                # where the added lines around them use the right side's numbers too).
                out.extend(DiffLine(" ", i1 + k + 1, j1 + k + 1, b[j1 + k]) for k in range(i2 - i1))
                continue
            out.extend(DiffLine("-", i + 1, None, a[i]) for i in range(i1, i2))
            out.extend(DiffLine("+", None, j + 1, b[j]) for j in range(j1, j2))
        return tuple(out)

    def to_json(self) -> dict[str, object]:
        """The hunk with its lines, JSON-ready."""
        return {"old_start": self.old_start, "old_len": self.old_len, "new_start": self.new_start,
                "new_len": self.new_len, "lines": [line._asdict() for line in self.lines]}


@dataclass(frozen=True)
class TextDiff:
    """The comparison of two IR texts.

    Attributes:
        left / right: what was compared, for headers (``ttgir``, ``before tritongpu-pipeline``).
        hunks: the changes with context.
        added / removed: lines only on the right / only on the left.
        identical_raw: whether the texts were equal before normalisation.
        options: the normalisation used.
    """

    left: str
    right: str
    hunks: tuple[Hunk, ...]
    added: int
    removed: int
    identical_raw: bool
    options: DiffOptions

    @property
    def changed(self) -> bool:
        """Whether any line differs after normalisation."""
        return bool(self.added or self.removed)


def inline_aliases(text: str) -> str:
    """Replace attribute aliases by their definitions and drop the definitions."""
    defs = {m.group(1): m.group(2) for m in _ALIAS_DEF.finditer(text)}
    if not defs:
        return text
    body = _ALIAS_DEF.sub("", text)
    names = sorted(defs, key=len, reverse=True)
    ref = re.compile(r"#(" + "|".join(re.escape(n) for n in names) + r")(?![\w$.-])")
    for _ in range(3):  # aliases may refer to aliases (dot_op of #mma)
        body, count = ref.subn(lambda m: defs[m.group(1)], body)
        if not count:
            break
    return body


def drop_lines(text: str, after_newline: re.Pattern[str]) -> str:
    """``text`` without the lines ``after_newline`` matches (each from the newline before it), newlines
    and all: what ``^line(?:\\n|$)`` with re.M removes, in one fast pass."""
    out = after_newline.sub("", "\n" + text)[1:]
    if text.endswith("\n") or not after_newline.fullmatch("\n" + text[text.rfind("\n") + 1:]):
        return out
    # The last line went, and it had no newline of its own: the newline of the last line kept stays.
    if out or any(not after_newline.fullmatch("\n" + line) for line in text.split("\n")):
        out += "\n"
    return out


def strip_pass_manager_noise(text: str) -> str:
    """LLVM IR without the pass manager's "Running pass: ..." chatter printed between dumps and without
    comment lines (a function-scoped dump prints ``; Function Attrs`` where a module dump does not)."""
    if "Running " in text or "Invalidating " in text or "Clearing " in text:
        text = drop_lines(text, _PM_NOISE_AFTER_NL)
    return drop_lines(text, _LLVM_COMMENT_AFTER_NL) if "\n;" in text or text.startswith(";") else text


def hide_locations(text: str) -> str:
    """MLIR text without its location attributes (`` loc(...)``) and ``#loc`` definition lines, else as it was."""
    if "loc" not in text:
        return text
    if " loc(" in text:
        text = _LOC_SIMPLE.sub("", text)
    return "".join(_LOC_REF.sub("", line) if " loc(" in line else line
                   for line in text.splitlines(keepends=True) if not line.startswith("#loc"))


def renumber_ssa(lines: list[str]) -> list[str]:
    """Lines with SSA uniquing numbers and block numbers dropped."""
    text = _BLOCK_NUMBERED.sub("^bb", _SSA_NUMBERED.sub(lambda m: f"%{m.group(1)}" if m.group(1) else "%#",
                                                          "\n".join(lines)))
    return text.split("\n")


def _ssa_key(line: str) -> str:
    """A line with each SSA value and block numbered by its first place among the line's values of the same name.

    Renumbering maps values one to one, so it keeps a line's key; a line that uses one value where another used
    two (``%x_9, %x_9`` against ``%x_9, %x_10``) keeps a different key.
    """
    if "%" not in line and "^bb" not in line:
        return line
    seen: dict[str, dict[str, int]] = {}

    def place(m: re.Match[str]) -> str:
        base = m.group(2) or f"%{m.group(1) or ''}"
        of_base = seen.setdefault(base, {})
        return f"{base}#{of_base.setdefault(m.group(0), len(of_base) + 1)}"

    return _SSA_OR_BLOCK.sub(place, line)


def normalize(text: str, ir: str = "mlir", options: DiffOptions | None = None) -> list[str]:
    """IR text as the lines a diff should compare."""
    options = options or DiffOptions()
    if ir != "mlir":
        text = strip_pass_manager_noise(text)
    if ir == "mir":
        text = _MIR_SLOT.sub("", text)
        if not options.keep_locs:
            text = _MIR_DEBUG_LOC.sub("", text)
    strip_locs = not options.keep_locs and ir == "mlir"
    if strip_locs and " loc(" in text:
        text = _LOC_SIMPLE.sub("", text)
    elif not options.keep_locs and ir != "mlir":
        text = drop_lines(_LLVM_DBG_REF.sub("", text), _LLVM_DBG_DEF_AFTER_NL)
    if options.inline_aliases and ir == "mlir":
        text = inline_aliases(text)
    if options.erase_ssa:
        text = _BLOCK_NUMBERED.sub("^bb", _SSA_ANY.sub("%", text))
    elif options.normalize_ssa:
        text = "\n".join(map(_ssa_key, text.split("\n")))
        if ir != "mlir":
            text = _LLVM_META_NUMBERED.sub("!#", text)
    if not text.strip():
        return []
    lines = text.strip("\n").split("\n")
    if not strip_locs:
        return [line.rstrip() for line in lines]
    # Location definitions are whole lines; nested location references are rare after _LOC_SIMPLE.
    return [_LOC_REF.sub("", line).rstrip() if " loc(" in line else line
            for line in lines if not line.startswith("#loc")]


def _unique_anchors(a: Sequence[str], b: Sequence[str], alo: int, ahi: int, blo: int,
                    bhi: int) -> list[tuple[int, int]]:
    """Lines that occur exactly once on each side, longest run kept in order (patience diff's anchors)."""
    count_a = Counter(a[alo:ahi])
    count_b = Counter(b[blo:bhi])
    where_b = {b[j]: j for j in range(blo, bhi) if count_b[b[j]] == 1}
    pairs = [(i, where_b[a[i]]) for i in range(alo, ahi) if count_a[a[i]] == 1 and a[i] in where_b]
    # Longest increasing subsequence of the b positions (patience sorting).
    tails: list[int] = []
    tail_at: list[int] = []
    before = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        slot = bisect.bisect_left(tails, j)
        if slot == len(tails):
            tails.append(j)
            tail_at.append(k)
        else:
            tails[slot] = j
            tail_at[slot] = k
        before[k] = tail_at[slot - 1] if slot else -1
    chain: list[tuple[int, int]] = []
    k = tail_at[-1] if tail_at else -1
    while k >= 0:
        chain.append(pairs[k])
        k = before[k]
    return chain[::-1]


def _matching_blocks(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int, int]]:
    """Equal runs (i, j, n) in order: common ends, unique-line anchors, then difflib inside small gaps.

    Dumps of the LLVM dialect run to 15,000 lines; anchoring on unique lines first keeps their
    diffs fast where difflib alone is quadratic, and reads better for code (patience diff).
    """
    out: list[tuple[int, int, int]] = []
    stack: list[tuple[int, int, int, int, int]] = [(0, len(a), 0, len(b), -1)]
    while stack:
        alo, ahi, blo, bhi, n = stack.pop()
        if n >= 0:  # a block queued to keep the order
            out.append((alo, blo, n))
            continue
        head = 0
        while alo + head < ahi and blo + head < bhi and a[alo + head] == b[blo + head]:
            head += 1
        if head:
            out.append((alo, blo, head))
            alo, blo = alo + head, blo + head
        tail = 0
        while ahi - tail > alo and bhi - tail > blo and a[ahi - 1 - tail] == b[bhi - 1 - tail]:
            tail += 1
        ahi, bhi = ahi - tail, bhi - tail
        later: list[tuple[int, int, int, int, int]] = []
        if alo < ahi and blo < bhi:
            anchors = _unique_anchors(a, b, alo, ahi, blo, bhi)
            if anchors:
                i0, j0 = alo, blo
                for i, j in anchors:
                    later.append((i0, i, j0, j, -1))
                    later.append((i, i, j, j, 1))
                    i0, j0 = i + 1, j + 1
                later.append((i0, ahi, j0, bhi, -1))
            elif (ahi - alo) * (bhi - blo) <= _SMALL_GAP:
                # difflib indexes its second sequence; give it the shorter side.
                if ahi - alo >= bhi - blo:
                    found = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False).get_matching_blocks()
                    pairs = [(i, j, k) for i, j, k in found if k]
                else:
                    found = difflib.SequenceMatcher(None, b[blo:bhi], a[alo:ahi], autojunk=False).get_matching_blocks()
                    pairs = [(i, j, k) for j, i, k in found if k]
                later = [(alo + i, alo + i, blo + j, blo + j, k) for i, j, k in pairs]
        if tail:
            later.append((ahi, ahi, bhi, bhi, tail))
        stack.extend(reversed(later))
    return out


def _opcodes(a: Sequence[str], b: Sequence[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib-style opcodes (equal, replace, delete, insert) from the matching blocks."""
    ops: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for ai, bj, n in [*_matching_blocks(a, b), (len(a), len(b), 0)]:
        if i < ai or j < bj:
            tag = "replace" if i < ai and j < bj else "delete" if i < ai else "insert"
            ops.append((tag, i, ai, j, bj))
        if n:
            if ops and ops[-1][0] == "equal" and ops[-1][2] == ai and ops[-1][4] == bj:
                ops[-1] = ("equal", ops[-1][1], ai + n, ops[-1][3], bj + n)
            else:
                ops.append(("equal", ai, ai + n, bj, bj + n))
        i, j = ai + n, bj + n
    return ops


def count_changes(a: Sequence[str], b: Sequence[str]) -> tuple[int, int]:
    """Lines added and removed going from ``a`` to ``b``."""
    added = removed = 0
    for tag, i1, i2, j1, j2 in _opcodes(a, b):
        if tag != "equal":
            removed += i2 - i1
            added += j2 - j1
    return added, removed


def _groups(ops: list[tuple[str, int, int, int, int]], context: int) -> list[list[tuple[str, int, int, int, int]]]:
    """Opcodes cut into hunks: each change with up to ``context`` equal lines around it."""
    if not ops or all(op[0] == "equal" for op in ops):
        return []
    ops = list(ops)
    tag, i1, i2, j1, j2 = ops[0]
    if tag == "equal":
        ops[0] = (tag, max(i1, i2 - context), i2, max(j1, j2 - context), j2)
    tag, i1, i2, j1, j2 = ops[-1]
    if tag == "equal":
        ops[-1] = (tag, i1, min(i2, i1 + context), j1, min(j2, j1 + context))
    groups: list[list[tuple[str, int, int, int, int]]] = []
    group: list[tuple[str, int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal" and i2 - i1 > 2 * context and group:
            group.append((tag, i1, i1 + context, j1, j1 + context))
            groups.append(group)
            group = []
            i1, j1 = i2 - context, j2 - context
        group.append((tag, i1, i2, j1, j2))
    if any(op[0] != "equal" for op in group):
        groups.append(group)
    return groups


def _hunks(a: Sequence[str], b: Sequence[str], context: int,
           ops: list[tuple[str, int, int, int, int]]) -> list[Hunk]:
    hunks: list[Hunk] = []
    for group in _groups(ops, context):
        first, last = group[0], group[-1]
        hunks.append(Hunk(old_start=first[1] + 1, old_len=last[2] - first[1], new_start=first[3] + 1,
                          new_len=last[4] - first[3], ops=tuple(group), left=a, right=b))
    return hunks


def diff_texts(a: str, b: str, left: str, right: str, ir: str = "mlir",
               options: DiffOptions | None = None) -> TextDiff:
    """Compare two IR texts after normalisation."""
    options = options or DiffOptions()
    if a == b:
        return TextDiff(left=left, right=right, hunks=(), added=0, removed=0, identical_raw=True, options=options)
    la, lb = normalize(a, ir, options), normalize(b, ir, options)
    ops = _opcodes(la, lb)
    shown_a, shown_b = la, lb
    if options.normalize_ssa:  # compared without SSA numbers, shown as printed (the same lines, one for one)
        printed = replace(options, normalize_ssa=False)
        pa, pb = normalize(a, ir, printed), normalize(b, ir, printed)
        if len(pa) == len(la) and len(pb) == len(lb):
            shown_a, shown_b = pa, pb
    hunks = _hunks(shown_a, shown_b, max(0, options.context), ops)
    added = sum(j2 - j1 for tag, _, _, j1, j2 in ops if tag != "equal")
    removed = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag != "equal")
    return TextDiff(left=left, right=right, hunks=tuple(hunks), added=added, removed=removed,
                    identical_raw=a == b, options=options)
