"""Syntax colours for the TUI: the project's Pygments lexers, run one line at a time, mapped to rich styles.

Long IR (matmul's LLVM IR is 840 KB) is never highlighted whole: views ask for the lines they draw.
Pygments tries a state's rules one after another at every position; ``LineHighlighter`` joins each
state's rules into one regular expression (Python's alternation keeps Pygments' first-match order),
which makes a line of TTGIR about three times faster to lex. Rules it cannot join run as Pygments does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from pygments.lexer import RegexLexer
from pygments.token import Error, Token, Whitespace, _TokenType
from rich.segment import Segment
from rich.style import Style

from irscope.views.highlight import lexer_for

# Pygments styles for dark and light backgrounds; plain text keeps the widget's own colour.
DARK_STYLE = "one-dark"
LIGHT_STYLE = "default"
# Lines are lexed up to this many characters; the rest is drawn plain (nobody reads column 2000 of a loc).
LEX_LIMIT = 1200
# Example: \1 (a numbered back-reference, which breaks when rules are joined into one pattern)
_BACKREF = re.compile(r"\\[1-9]")

Span = tuple[int, int, _TokenType]


@dataclass(frozen=True)
class _Rule:
    """One Pygments rule of a state."""

    match: Callable[[str, int], Any]
    action: Any
    new_state: Any


class _State:
    """A lexer state: its rules, and (built on first use) the pattern joining them, when one can be built."""

    def __init__(self, rules: tuple[_Rule, ...]) -> None:
        self.rules = rules
        self._joined: re.Pattern[str] | bool | None = False

    @property
    def joined(self) -> re.Pattern[str] | None:
        """The joined pattern, or None when the rules cannot be joined."""
        if self._joined is False:
            self._joined = _join(self.rules)
        return self._joined if isinstance(self._joined, re.Pattern) else None


def _join(rules: tuple[_Rule, ...]) -> re.Pattern[str] | None:
    """One pattern matching whichever rule Pygments would pick first, or None when that cannot be built."""
    parts = []
    flags = 0
    for i, rule in enumerate(rules):
        pattern = getattr(rule.match, "__self__", None)
        if not isinstance(pattern, re.Pattern) or _BACKREF.search(pattern.pattern):
            return None
        flags = pattern.flags
        parts.append(f"(?P<_r{i}>{pattern.pattern})")
    try:
        return re.compile("|".join(parts), flags)
    except re.error:
        return None


class LineHighlighter:
    """Token spans of one line (or of a whole small text) for one of irscope's lexer names."""

    def __init__(self, lexer: str) -> None:
        self.name = lexer
        self._lexer = lexer_for(lexer)
        self._states: dict[str, _State] = {}
        if isinstance(self._lexer, RegexLexer) and type(self._lexer).get_tokens_unprocessed is \
                RegexLexer.get_tokens_unprocessed:
            for state, rules in self._lexer._tokens.items():
                self._states[state] = _State(tuple(_Rule(m, a, s) for m, a, s in rules))

    def spans(self, text: str) -> list[Span]:
        """(start, end, token type) for the text, plain-text tokens left out."""
        stream = self._tokens(text) if self._states else self._lexer.get_tokens_unprocessed(text)
        out: list[Span] = []
        for start, ttype, value in stream:
            if value and ttype is not Token.Text and ttype is not Whitespace:
                out.append((start, start + len(value), ttype))
        return out

    def _tokens(self, text: str) -> Iterator[tuple[int, _TokenType, str]]:
        """Pygments' RegexLexer loop (same rules, same state changes), with each state's rules joined."""
        pos = 0
        stack = ["root"]
        state = self._states["root"]
        lexer = self._lexer
        while True:
            rule: _Rule | None = None
            m = None
            joined = state.joined
            if joined is not None:
                m = joined.match(text, pos)
                if m is not None:
                    rule = state.rules[int(str(m.lastgroup)[2:])]
                    if not isinstance(rule.action, _TokenType) and rule.action is not None:
                        m = rule.match(text, pos)
            else:
                for candidate in state.rules:
                    m = candidate.match(text, pos)
                    if m is not None:
                        rule = candidate
                        break
            if rule is None or m is None:
                if pos >= len(text):
                    return
                if text[pos] == "\n":
                    stack = ["root"]
                    state = self._states["root"]
                    yield pos, Whitespace, "\n"
                else:
                    yield pos, Error, text[pos]
                pos += 1
                continue
            if rule.action is not None:
                if isinstance(rule.action, _TokenType):
                    yield pos, rule.action, m.group()
                else:
                    yield from rule.action(lexer, m)
            if m.end() == pos and rule.new_state is None:
                if pos >= len(text):
                    return
                yield pos, Error, text[pos]
                pos += 1
                continue
            pos = m.end()
            if rule.new_state is not None:
                _change_state(stack, rule.new_state)
                state = self._states[stack[-1]]


def _change_state(stack: list[str], new_state: Any) -> None:
    """Apply a Pygments state transition to the stack."""
    if isinstance(new_state, tuple):
        for name in new_state:
            if name == "#pop":
                if len(stack) > 1:
                    stack.pop()
            elif name == "#push":
                stack.append(stack[-1])
            else:
                stack.append(name)
    elif isinstance(new_state, int):
        if abs(new_state) >= len(stack):
            del stack[1:]
        else:
            del stack[new_state:]
    elif new_state == "#push":
        stack.append(stack[-1])


@cache
def highlighter(lexer: str) -> LineHighlighter:
    """The shared highlighter for a lexer name."""
    return LineHighlighter(lexer)


class SyntaxTheme:
    """Rich styles for token types, from a Pygments style chosen for a dark or light background."""

    def __init__(self, dark: bool) -> None:
        from pygments.styles import get_style_by_name

        self.dark = dark
        self._style = get_style_by_name(DARK_STYLE if dark else LIGHT_STYLE)
        self._cache: dict[_TokenType, Style] = {}

    def style(self, ttype: _TokenType) -> Style:
        """The rich style of a token type (inherited from its parents as Pygments does)."""
        found = self._cache.get(ttype)
        if found is None:
            known = ttype
            while True:  # lexers may emit token types the style never heard of: use the nearest parent
                try:
                    spec = self._style.style_for_token(known)
                    break
                except KeyError:
                    if known.parent is None:
                        raise
                    known = known.parent
            found = Style(color=f"#{spec['color']}" if spec.get("color") else None,
                          bold=bool(spec.get("bold")) or None, italic=bool(spec.get("italic")) or None)
            self._cache[ttype] = found
        return found


def line_segments(line: str, spans: list[Span], theme: SyntaxTheme) -> list[Segment]:
    """A line cut into styled segments by its token spans (plain text between them unstyled)."""
    out: list[Segment] = []
    pos = 0
    for start, end, ttype in spans:
        if start > pos:
            out.append(Segment(line[pos:start]))
        out.append(Segment(line[start:end], theme.style(ttype)))
        pos = end
    if pos < len(line):
        out.append(Segment(line[pos:]))
    return out


@cache
def syntax_theme(dark: bool) -> SyntaxTheme:
    """The shared syntax theme for dark or light backgrounds."""
    return SyntaxTheme(dark)


def lexer_for_ir(ir: str) -> str:
    """The lexer name for a pass snapshot's IR kind (``mlir``, ``llvm``, ``mir``)."""
    return {"mlir": "mlir", "llvm": "llvm"}.get(ir, "text")
