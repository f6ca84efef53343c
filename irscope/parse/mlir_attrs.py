"""A small, tolerant parser for the MLIR attribute syntax that Triton prints in layout encodings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

__all__ = [
    "AliasRef",
    "AttrParseError",
    "AttrValue",
    "DialectAttr",
    "Ident",
    "matching_close",
    "parse_attr_body",
    "parse_attr_value",
    "read_attr_value",
]


class AttrParseError(ValueError):
    """The text is not an attribute this parser understands; the message says where and why."""


@dataclass(frozen=True)
class AliasRef:
    """A reference to an attribute alias, `#mma` in `parent = #mma`.

    Attributes:
        name: the alias without its `#`.
    """

    name: str


@dataclass(frozen=True)
class Ident:
    """A bare word that is not a number or a boolean, e.g. `f16`, `unit`, `i32`.

    Attributes:
        text: the word as written.
    """

    text: str


@dataclass(frozen=True)
class DialectAttr:
    """An inline dialect attribute such as `#ttg.blocked<{...}>` or `#ttg.shared_memory`.

    Attributes:
        dialect: the dialect prefix (`ttg`, `triton_gpu`, `ttng`).
        mnemonic: the attribute name after the dot (`blocked`, `dot_op`).
        body: the raw text between the outer `<` and `>`; empty when there are none.
        params: named parameters parsed from the body (`{k = v}` or `k = v, ...` forms).
        positional: unnamed values in the body, e.g. the `[32:+4]` of padded_shared, as raw text.
        text: the whole attribute as written.
    """

    dialect: str
    mnemonic: str
    body: str
    params: dict[str, AttrValue] = field(default_factory=dict, hash=False, compare=False)
    positional: tuple[str, ...] = ()
    text: str = ""


AttrValue: TypeAlias = ("int | float | bool | str | AliasRef | Ident | DialectAttr | list[AttrValue] "
                        "| dict[str, AttrValue]")

_IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.-")
_OPEN = {"[": "]", "{": "}", "(": ")", "<": ">"}


def matching_close(text: str, start: int) -> int:
    """Return the index of the bracket closing the one at `start`, skipping strings and `->` arrows."""
    stack = [_OPEN[text[start]]]
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = _skip_string(text, i)
            continue
        if ch == "-" and text.startswith("->", i):
            i += 2
            continue
        if ch in _OPEN:
            stack.append(_OPEN[ch])
        elif ch in ")]}>":
            if ch != stack[-1]:
                raise AttrParseError(f"unbalanced {ch!r} at {i} in {text!r}")
            stack.pop()
            if not stack:
                return i
        i += 1
    raise AttrParseError(f"{text[start]!r} at {start} is never closed (expected {stack[-1]!r}) in {text!r}")


def _skip_string(text: str, start: int) -> int:
    """Return the index just past the string literal starting at `start`."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    raise AttrParseError(f"unterminated string at {start} in {text!r}")


class _Reader:
    """Cursor over one attribute text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t\r\n":
            self.pos += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def at_end(self) -> bool:
        return self.peek() == ""

    def expect(self, ch: str) -> None:
        if self.peek() != ch:
            found = self.text[self.pos : self.pos + 10] or "end of text"
            raise AttrParseError(f"expected {ch!r} at {self.pos}, found {found!r} in {self.text!r}")
        self.pos += 1

    def word(self) -> str:
        self.skip_ws()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _IDENT_CHARS:
            self.pos += 1
        return self.text[start : self.pos]

    def value(self) -> AttrValue:
        ch = self.peek()
        if ch == "[":
            return self._sequence("[", "]")
        if ch == "{":
            return self._dict()
        if ch == "#":
            return self._hash_attr()
        if ch == '"':
            end = _skip_string(self.text, self.pos)
            raw = self.text[self.pos + 1 : end - 1]
            self.pos = end
            return raw
        word = self.word()
        if not word:
            found = self.text[self.pos : self.pos + 10] or "end of text"
            raise AttrParseError(f"expected a value at {self.pos}, found {found!r} in {self.text!r}")
        if self.peek() == "<":  # e.g. dense<...> or array<i32: 1, 2>: keep it whole
            end = matching_close(self.text, self.pos)
            raw = word + self.text[self.pos : end + 1]
            self.pos = end + 1
            return Ident(raw)
        number = _number(word)
        if number is not None:
            self._skip_type_suffix()
            return number
        if word in ("true", "false"):
            return word == "true"
        return Ident(word)

    def _skip_type_suffix(self) -> None:
        # Example: `16 : i32` inside a dictionary; the type adds nothing for layouts.
        save = self.pos
        if self.peek() == ":":
            self.pos += 1
            typ = self.word()
            if (typ and typ[0] in "iuf") or typ == "index":
                return
        self.pos = save

    def _sequence(self, open_: str, close: str) -> list[AttrValue]:
        self.expect(open_)
        items: list[AttrValue] = []
        if self.peek() == close:
            self.pos += 1
            return items
        while True:
            items.append(self.value())
            if self.peek() == ",":
                self.pos += 1
                continue
            self.expect(close)
            return items

    def _dict(self) -> dict[str, AttrValue]:
        self.expect("{")
        out: dict[str, AttrValue] = {}
        if self.peek() == "}":
            self.pos += 1
            return out
        while True:
            key, val = self.entry()
            out[key] = val
            if self.peek() == ",":
                self.pos += 1
                continue
            self.expect("}")
            return out

    def entry(self) -> tuple[str, AttrValue]:
        if self.peek() == '"':
            end = _skip_string(self.text, self.pos)
            key = self.text[self.pos + 1 : end - 1]
            self.pos = end
        else:
            key = self.word()
        if not key:
            found = self.text[self.pos : self.pos + 10] or "end of text"
            raise AttrParseError(f"expected a key at {self.pos}, found {found!r} in {self.text!r}")
        if self.peek() == "=":
            self.pos += 1
            return key, self.value()
        return key, True  # a unit attribute: its presence is the value

    def _hash_attr(self) -> AttrValue:
        start = self.pos
        self.expect("#")
        name = self.word()
        if "." not in name:
            return AliasRef(name)
        dialect, _, mnemonic = name.partition(".")
        body = ""
        if self.pos < len(self.text) and self.text[self.pos] == "<":
            end = matching_close(self.text, self.pos)
            body = self.text[self.pos + 1 : end]
            self.pos = end + 1
        params, positional = parse_attr_body(body)
        return DialectAttr(dialect, mnemonic, body, params, positional, self.text[start : self.pos])


def _number(word: str) -> int | float | None:
    """Return the int or float a word spells, else None."""
    try:
        return int(word, 0)
    except ValueError:
        pass
    try:
        return float(word)
    except ValueError:
        return None


def parse_attr_value(text: str) -> AttrValue:
    """Parse one attribute value (`[1, 2]`, `#mma`, `#ttg.blocked<{...}>`, `{k = v}`)."""
    reader = _Reader(text)
    value = reader.value()
    if not reader.at_end():
        raise AttrParseError(f"unexpected text after the value at {reader.pos} in {text!r}")
    return value


def read_attr_value(text: str, start: int) -> tuple[AttrValue, int]:
    """Read the one attribute value starting at `start`; return it and the index just past it."""
    reader = _Reader(text)
    reader.pos = start
    value = reader.value()
    return value, reader.pos


def parse_attr_body(body: str) -> tuple[dict[str, AttrValue], tuple[str, ...]]:
    """Parse the inside of `#dialect.name<...>`: `{k = v}` dicts, `k = v` entries and raw positionals.

    A body may mix forms, e.g. `{offset = [[0, 1]]}, alignment = 16` (shared_linear) or
    `[32:+4] {order = [1, 0], shape = [64, 64]}` (padded_shared, whose leading list is returned raw).
    """
    params: dict[str, AttrValue] = {}
    positional: list[str] = []
    reader = _Reader(body)
    while not reader.at_end():
        ch = reader.peek()
        if ch == "{":
            value = reader.value()
            if isinstance(value, dict):
                params.update(value)
        elif ch in "[(":
            end = matching_close(body, reader.pos)
            positional.append(body[reader.pos : end + 1])
            reader.pos = end + 1
        else:
            key, val = reader.entry()
            params[key] = val
        if reader.peek() == ",":
            reader.pos += 1
    return params, tuple(positional)
