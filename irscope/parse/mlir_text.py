"""MLIR text as the parser sees it: comments dropped and each op or definition on one logical line.

MLIR's lexer ignores line breaks and `// comments`, so Triton's lit tests (and people) may break an op,
a type or an alias definition over several lines, or end a line with a comment. Triton's printer puts
one op per line; the scanners in this package read logical lines so that both forms read the same.
"""

from __future__ import annotations

import re

__all__ = ["WARP_REGION", "logical_lines", "strip_comment"]

_OPEN = "([{<"
_CLOSE = ")]}>"
# A line ending in one of these continues on the next (`%0 = op %a :` / `tensor<...> ->` / `%a,`).
_CONTINUES_AFTER = (":", ",", "->", "=")
# A line starting with one of these continues the line before (`-> tensor<...>`, `: tensor<...>`, `to tensor<...>`).
_CONTINUES_BEFORE = ("->", ":", ",", "to ", "attributes ")


# Example: #blocked1 = ...   /   module attributes {...} {   /   tt.func public @k(...)
# (lines that always start a new statement: an unclosed bracket before them is an error, not a continuation)
_STATEMENT_START = re.compile(r"^(?:#[\w$.-]+\s*=|module\b|(?:tt|func|llvm)\.func\b)")


# Example: default {   /   partition0 num_warps(8) {
#          partition0(%arg7: !ttg.memdesc<1xi64, #shared, #smem> loc(#loc3)) num_warps(4) {
# (the region headers `ttg.warp_specialize` prints after its op line: its default region, then each
# region of the `ttg.warp_specialize.partitions` op it holds, with that region's block arguments)
WARP_REGION = re.compile(r"^(?:default|partition(?P<index>\d+)\s*(?:\((?P<args>.*)\))?\s*num_warps\(\d+\))\s*\{$")


def strip_comment(line: str) -> str:
    """The line without a trailing `// comment` (a `//` inside a string literal is kept)."""
    if "//" not in line:
        return line
    in_string = False
    i = 0
    while i < len(line):
        ch = line[i]
        if in_string:
            if ch == "\\":
                i += 2
                continue
            if ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "/" and line.startswith("//", i):
            return line[:i].rstrip()
        i += 1
    return line


class _Brackets:
    """Brackets left open in a growing logical line, each piece read once (so a long one stays linear).

    The open count of the pieces joined with one space is: 0 when no `"` occurs and the brackets
    balance (`->` arrows aside), else what a scan finds that skips strings and arrows and never goes
    below 0. Both are kept as the pieces come, without joining or rescanning them: the counts add up,
    and the scan's state is advanced over earlier pieces only when a count does not settle it.
    """

    def __init__(self) -> None:
        self.opened = 0
        self.closed = 0
        self.quoted = False
        self.depth = 0  # the exact scan's state after `pieces[:scanned]` (each followed by its joining space)
        self.in_string = False
        self.skip = False  # a piece ended in a backslash inside a string: the next character is escaped
        self.pieces: list[str] = []
        self.scanned = 0

    def add(self, piece: str) -> None:
        """Append the next piece of the logical line."""
        if self.pieces:
            self._count(self.pieces[-1])
        self.pieces.append(piece)

    def _count(self, text: str) -> None:
        self.opened += text.count("(") + text.count("[") + text.count("{") + text.count("<")
        self.closed += text.count(")") + text.count("]") + text.count("}") + text.count(">") - text.count("->")
        self.quoted = self.quoted or '"' in text

    def depth_with(self, last: str) -> int:
        """The brackets left open by the earlier pieces joined with `last` (the newest piece, perhaps shortened)."""
        opened = self.opened + last.count("(") + last.count("[") + last.count("{") + last.count("<")
        closed = (self.closed + last.count(")") + last.count("]") + last.count("}") + last.count(">")
                  - last.count("->"))
        if not self.quoted and '"' not in last and opened == closed:
            return 0
        while self.scanned < len(self.pieces) - 1:
            self.depth, self.in_string, self.skip = _scan(self.pieces[self.scanned] + " ", self.depth,
                                                         self.in_string, self.skip)
            self.scanned += 1
        return _scan(last, self.depth, self.in_string, self.skip)[0]


def _scan(text: str, depth: int, in_string: bool, skip: bool) -> tuple[int, bool, bool]:
    """The bracket scan's state after `text`, from a state: (depth, inside a string, next char escaped)."""
    i = 1 if skip and text else 0
    skip = skip and not text
    while i < len(text):
        ch = text[i]
        if in_string:
            if ch == "\\":
                if i + 1 == len(text):
                    return depth, in_string, True
                i += 2
                continue
            if ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "-" and text.startswith("->", i):
            i += 2
            continue
        elif ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        i += 1
    return depth, in_string, skip


def _open_at_end(first: str, last: str, brackets: _Brackets) -> bool:
    """Whether the logical line from `first` to `last` leaves something open for the next line.

    A region's trailing `{` does not count.
    """
    body = last
    if body.endswith("({"):
        body = body[:-2]
    elif body.endswith("{"):
        body = body[:-1]
    if first.startswith(("}", "^")):  # a region closer or block label: never continued
        return False
    if brackets.depth_with(body) > 0:
        return True
    return body is last and last.endswith(_CONTINUES_AFTER)


def logical_lines(text: str) -> list[tuple[int, str]]:
    """(number of its first line, text) of each logical line: comments dropped, continuations joined.

    A line continues on the next while a bracket is left open (not counting a region's trailing
    `{`), when it ends in `:`, `,`, `->` or `=`, or when the next line starts with `->`, `:`, `,` or
    `to `; never into a line that starts a statement (`#alias =`, `module`, `tt.func`), so one
    unclosed bracket does not swallow the rest of a file. Blank and comment-only lines are dropped;
    the text of each piece is stripped and joined with one space.
    """
    out: list[tuple[int, str]] = []
    current: list[str] = []
    brackets = _Brackets()
    first = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw).strip()
        if not line:
            continue
        continues = (_open_at_end(current[0], current[-1], brackets) or line.startswith(_CONTINUES_BEFORE)
                     if current else False)
        if current and (not continues or _STATEMENT_START.match(line)):
            out.append((first, " ".join(current)))
            current = []
            brackets = _Brackets()
        if not current:
            first = number
        current.append(line)
        brackets.add(line)
    if current:
        out.append((first, " ".join(current)))
    return out
