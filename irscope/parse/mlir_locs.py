"""MLIR source locations with their whole call chain: `#loc` aliases, names, callsites, fused locations.

Triton prints every op of TTIR and TTGIR with a location, usually an alias defined at the end of
the module. Inlined calls (``tl.cdiv``, ``tl.dot``'s helpers, the kernel's own ``@jit`` helpers)
carry ``callsite(callee at caller)`` chains; variable names arrive as name locations
(``"a_ptrs"(#loc22)``). This module keeps the chain, innermost frame first, so that a caller can
pick the frame in the kernel's own file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from irscope.parse.ttgir_ops import SourceLoc

__all__ = ["Location", "LocationTable", "innermost_in", "parse_location_table", "trailing_location"]

# Example: #loc3 = loc("/work/k.py":12:5)
_LOC_DEF = re.compile(r"^\s*#(?P<name>loc[\w$.-]*)\s*=\s*loc\((?P<body>.*)\)\s*$")
# Example: "/work/k.py":12:5      (also "/work/k.py":12:5 to :12:9, a range in newer MLIR)
_FILE_LOC = re.compile(r'^"(?P<file>(?:[^"\\]|\\.)*)":(?P<line>\d+):(?P<col>\d+)(?:\s+to\s+\S+)?$')
# Example: "a_ptrs"(#loc22)      or a bare name: "a_ptrs"
_NAME_LOC = re.compile(r'^"(?P<name>(?:[^"\\]|\\.)*)"(?:\((?P<inner>.*)\))?$')
# Example: fused[#loc1, #loc2]    or    fused<"tag">[#loc1, "k.py":3:4]
_FUSED = re.compile(r"^fused(?:<.*?>)?\[(?P<items>.*)\]$")
# Example: %12 = tt.load %11 : tensor<128xf32, #blocked> loc(#loc12)
_TRAILING = re.compile(r"\sloc\(")


@dataclass(frozen=True)
class Location:
    """Where an op came from.

    Attributes:
        frames: source positions, innermost first: for an op inlined from ``tl.cdiv`` the frame in
            Triton's ``standard.py`` comes first, then the kernel line that called it.
        names: variable names the frontend attached (``"a_ptrs"``), outermost first.
    """

    frames: tuple[SourceLoc, ...] = ()
    names: tuple[str, ...] = ()

    @property
    def known(self) -> bool:
        """Whether any source position is known."""
        return bool(self.frames)


UNKNOWN = Location()


@dataclass(frozen=True)
class LocationTable:
    """The `#loc` aliases of one module, resolved.

    Attributes:
        aliases: alias name (without `#`) -> its location.
        problems: definitions that could not be read, one sentence each.
    """

    aliases: dict[str, Location] = field(default_factory=dict)
    problems: tuple[str, ...] = ()

    def resolve(self, body: str) -> Location:
        """The location of a `loc(...)` body: an alias reference or an inline location."""
        body = body.strip()
        if body.startswith("#"):
            return self.aliases.get(body[1:], UNKNOWN)
        problems: list[str] = []
        return _Resolver({}, self.aliases, problems).parse(body, 0)


def split_top(text: str, sep: str) -> list[str]:
    """Split on ``sep`` where it is outside brackets and strings."""
    parts: list[str] = []
    depth, start, i = 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch in "([<{":
            depth += 1
        elif ch in ")]>}":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


class _Resolver:
    """Resolves location bodies against raw alias definitions, memoized, cycle-safe."""

    def __init__(self, raw: dict[str, str], done: dict[str, Location], problems: list[str]) -> None:
        self.raw = raw
        self.done = done
        self.problems = problems
        self.active: set[str] = set()

    def alias(self, name: str, depth: int) -> Location:
        if name in self.done:
            return self.done[name]
        if name not in self.raw:
            self.problems.append(f"#{name} is used but never defined")
            return UNKNOWN
        if name in self.active:
            self.problems.append(f"#{name} is defined in terms of itself")
            return UNKNOWN
        self.active.add(name)
        found = self.parse(self.raw[name], depth + 1)
        self.active.discard(name)
        self.done[name] = found
        return found

    def parse(self, body: str, depth: int) -> Location:
        body = body.strip()
        if depth > 100 or not body or body == "unknown":
            return UNKNOWN
        if body.startswith("#"):
            return self.alias(body[1:], depth)
        if match := _FILE_LOC.match(body):
            return Location((SourceLoc(match["file"], int(match["line"]), int(match["col"])),))
        if body.startswith("callsite(") and body.endswith(")"):
            parts = split_top(body[len("callsite("):-1], " at ")
            if len(parts) == 2:
                callee, caller = self.parse(parts[0], depth + 1), self.parse(parts[1], depth + 1)
                return Location(callee.frames + caller.frames, caller.names + callee.names)
        if match := _FUSED.match(body):
            items = [self.parse(item, depth + 1) for item in split_top(match["items"], ",")]
            names = tuple(n for item in items for n in item.names)
            return Location(next((i.frames for i in items if i.frames), ()), names)
        if match := _NAME_LOC.match(body):
            inner = self.parse(match["inner"], depth + 1) if match["inner"] is not None else UNKNOWN
            return Location(inner.frames, (match["name"], *inner.names))
        self.problems.append(f"unreadable location {body[:80]!r}")
        return UNKNOWN


def parse_location_table(text: str) -> LocationTable:
    """Read and resolve every `#locN = loc(...)` definition of a module."""
    raw: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("#loc") and (match := _LOC_DEF.match(line)):
            raw[match["name"]] = match["body"]
    problems: list[str] = []
    resolver = _Resolver(raw, {}, problems)
    for name in raw:
        resolver.alias(name, 0)
    return LocationTable(aliases=resolver.done, problems=tuple(dict.fromkeys(problems)))


def trailing_location(line: str) -> tuple[str, str] | None:
    """Split an op line into (text before its trailing ``loc(...)``, the location body), or None."""
    starts = [m.start() for m in _TRAILING.finditer(line)]
    for start in reversed(starts):
        open_at = start + len(" loc")
        depth, i = 0, open_at
        while i < len(line):
            ch = line[i]
            if ch == '"':
                i += 1
                while i < len(line) and line[i] != '"':
                    i += 2 if line[i] == "\\" else 1
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        rest = line[i + 1:].strip()
        if depth == 0 and i < len(line) and rest in ("", "{"):
            return line[:start], line[open_at + 1:i]
    return None


def innermost_in(frames: tuple[SourceLoc, ...], path: str) -> SourceLoc | None:
    """The innermost frame in the file ``path``; when none has that exact path, the innermost with its base name."""
    for frame in frames:
        if frame.file == path:
            return frame
    name = path.rsplit("/", 1)[-1]
    for frame in frames:
        if frame.file.rsplit("/", 1)[-1] == name:
            return frame
    return None
