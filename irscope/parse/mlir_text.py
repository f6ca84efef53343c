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


# Example: default {   /   partition0 num_warps(8) {   /   partition0(%arg7: !ttg.memdesc<1xi64, #shared, #smem> loc(#loc3)) num_warps(4) {
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


def _depth(text: str) -> int:
    """Brackets left open at the end of `text` (strings and `->` arrows skipped; never below 0)."""
    if '"' not in text:  # the common case, counted fast (a net count: a line never closes more than it opens)
        opened = text.count("(") + text.count("[") + text.count("{") + text.count("<")
        closed = text.count(")") + text.count("]") + text.count("}") + text.count(">") - text.count("->")
        if opened == closed:
            return 0
    depth = 0
    in_string = False
    i = 0
    while i < len(text):
        ch = text[i]
        if in_string:
            if ch == "\\":
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
    return depth


def _open_at_end(line: str) -> bool:
    """Whether `line` leaves something open for the next line (a region's `{` does not count)."""
    body = line
    if body.endswith("({"):
        body = body[:-2]
    elif body.endswith("{"):
        body = body[:-1]
    if body.startswith(("}", "^")):  # a region closer or block label: never continued
        return False
    if _depth(body) > 0:
        return True
    return body is line and line.endswith(_CONTINUES_AFTER)


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
    first = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw).strip()
        if not line:
            continue
        continues = _open_at_end(" ".join(current)) or line.startswith(_CONTINUES_BEFORE) if current else False
        if current and (not continues or _STATEMENT_START.match(line)):
            out.append((first, " ".join(current)))
            current = []
        if not current:
            first = number
        current.append(line)
    if current:
        out.append((first, " ".join(current)))
    return out
