"""Write lit_linear/<stem>.mlir from Triton's lit tests: every lit module that names a `#ttg.linear` layout, cut down.

    python tests/data/layouts/gather_lit_linear.py TRITON_DIR COMMIT test/TritonGPU/combine.mlir ...

TRITON_DIR is a checkout of triton-lang/triton at COMMIT. Per lit module (split at `// -----`) that names a
`#ttg.linear` layout this keeps the aliases it still uses, its module header, its non-function ops, and the
functions that name a linear layout (with the functions they call); comment lines (RUN, CHECK, expected-error)
go. Triton's own parser (Triton 3.9, through tests/lit_linear_oracle.py) reads the lit module and the cut one, and
a module goes in only where both get the same verdict; a module Triton refuses goes in only where its error is
the linear layout's. What is left out, and why, is printed for lit_linear/README.md.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent))  # tests/, for the oracle helpers

from lit_linear_oracle import PARSER_CHILD, split_modules  # noqa: E402

from irscope.parse.layouts import parse_layouts  # noqa: E402

_FUNC = re.compile(r"^\s*(tt\.func|func\.func|llvm\.func)\b")
_SYMBOL = re.compile(r"@([\w$.-]+)")
_ALIAS_LINE = re.compile(r"^#([\w$.-]+)\s*=")
_UNREGISTERED = "operation being parsed with an unregistered dialect"
# A result-less op of no dialect, which a lit test's -allow-unregistered-dialect lets stand for a use of its operands:
# `"use"(%acc) {data} : (tensor<256x128xf32, #linear>) -> ()`. Nothing else's verdict depends on it, so it goes.
_UNREGISTERED_USE = re.compile(r'^\s*"[\w$-]+"\(.*\)\s*(\{.*\})?\s*:\s*\(.*\)\s*->\s*\(\)\s*$')


@dataclass(frozen=True)
class Verdict:
    verdict: str  # accept, refuse or crash
    error: str  # Triton's first error message ("" when it accepts)
    line: int  # the line it points at (0 when none)


class Parser:
    """One Triton child kept running (a new one after a crash)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        self.child: subprocess.Popen[str] | None = None

    def verdict(self, text: str) -> Verdict:
        if self.child is None:
            self.errors = (self.folder / "stderr.txt").open("w+")
            self.child = subprocess.Popen([sys.executable, "-c", PARSER_CHILD], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=self.errors, text=True)
        self.count += 1
        path = self.folder / f"m{self.count}.mlir"
        path.write_text(text)
        seen = self.errors.tell()
        assert self.child.stdin is not None and self.child.stdout is not None
        try:
            self.child.stdin.write(f"{path}\n")
            self.child.stdin.flush()
            answer = self.child.stdout.readline().strip()
        except BrokenPipeError:
            answer = ""
        self.errors.seek(seen)
        said = self.errors.read()
        if not answer:
            self.child.wait()
            self.child = None
            return Verdict("crash", said.strip()[-300:], 0)
        found = re.search(rf'{re.escape(path.name)}":(\d+):\d+\): error: (.*)', said)
        return Verdict(answer, found[2] if found else said.strip()[:300], int(found[1]) if found else 0)


def uses(text: str, name: str) -> bool:
    return re.search(rf"#{re.escape(name)}(?![\w$.-])", text) is not None


def depth_change(line: str) -> int:
    code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return code.count("{") - code.count("}")


def paren_change(line: str) -> int:
    code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return code.count("(") - code.count(")")


def cut(module: str, linear: set[str]) -> str:
    """The module less comments, functions naming no linear layout (nor called from one), and unused aliases."""
    lines = [line for line in module.splitlines()
             if not line.lstrip().startswith("//") and line.strip() and not _UNREGISTERED_USE.match(line)]
    head: list[str] = []  # alias lines
    items: list[tuple[str | None, list[str]]] = []  # (function name or None, lines) in the module's order
    depth, body = 0, None
    i = 0
    while i < len(lines):
        line = lines[i]
        if depth == 0 and _ALIAS_LINE.match(line):
            head.append(line)
            i += 1
            continue
        if body is None and line.lstrip().startswith("module"):
            body = depth + depth_change(line)
        if depth == (body if body is not None else 0) and _FUNC.match(line):
            name = _SYMBOL.search(line)
            chunk = [line]
            level, parens = depth + depth_change(line), paren_change(line)
            while (level > depth or parens > 0) and i + 1 < len(lines):
                i += 1
                chunk.append(lines[i])
                level, parens = level + depth_change(lines[i]), parens + paren_change(lines[i])
            items.append((name[1] if name else None, chunk))
            i += 1
            continue
        items.append((None, [line]))
        depth += depth_change(line)
        i += 1
    functions = {name: "\n".join(chunk) for name, chunk in items if name is not None}
    keep = {name for name, text in functions.items()
            if "#ttg.linear<" in text or any(uses(text, alias) for alias in linear)}
    grown = True
    while grown:
        called = {m for name in keep for m in _SYMBOL.findall(functions[name]) if m in functions} - keep
        grown, keep = bool(called), keep | called
    out = [line for name, chunk in items if name is None or name in keep for line in chunk]
    kept_aliases: list[str] = []
    needed = "\n".join(out)
    for line in reversed(head):  # an alias may name an earlier one (a slice's parent)
        match = _ALIAS_LINE.match(line)
        if match and uses(needed, match[1]):
            kept_aliases.insert(0, line)
            needed += "\n" + line
    return "\n".join([*kept_aliases, *out]) + "\n"


def linear_aliases(module: str) -> set[str]:
    return {name for name, layout in parse_layouts(module).aliases.items() if "ttg.linear<" in layout.text}


def gather(triton: Path, commit: str, relative: str, parser: Parser) -> tuple[str, list[str]]:
    """(the data file's text, a note per lit module left out) of one lit file."""
    modules = split_modules((triton / relative).read_text())
    kept, notes = [], []
    for number, module in enumerate(modules, start=1):
        if "#ttg.linear<" not in "\n".join(line for line in module.splitlines() if not line.lstrip().startswith("//")):
            continue  # none, or only in CHECK lines
        original = parser.verdict(module)
        cut_text = cut(module, linear_aliases(module))
        mine = parser.verdict(cut_text)
        if original.verdict != "accept" and _UNREGISTERED in original.error and mine.verdict == "accept":
            kept.append(f"// lit module {number} (Triton's Python parser refuses its ops of no dialect, which the RUN"
                        " line allows: the result-less ones go, the others are in functions left out)\n" + cut_text)
            continue
        if original.verdict != "accept" and not linear_error(original, module):
            notes.append(f"module {number}: Triton {original.verdict}s it: {original.error}")
            continue
        if mine.verdict != original.verdict:
            cut_text = "\n".join(line for line in module.splitlines() if not line.lstrip().startswith("//")) + "\n"
            mine = parser.verdict(cut_text)
        if mine.verdict != original.verdict:
            notes.append(f"module {number}: cut, Triton {mine.verdict}s it ({original.verdict}s the lit module)")
            continue
        kept.append(f"// lit module {number}" + (f" (Triton refuses it: {original.error})" if
                                                   original.verdict != "accept" else "") + "\n" + cut_text)
    header = (f"// #ttg.linear layouts of Triton's {relative} (triton-lang/triton {commit[:12]}; see README.md):\n"
              "// its lit modules that name one, cut down by gather_lit_linear.py.\n\n")
    return header + "\n// -----\n\n".join(kept), notes


def linear_error(answer: Verdict, module: str) -> bool:
    """Whether Triton refused the module for a `#ttg.linear` layout (its error points at one, or it aborted)."""
    lines = module.splitlines()
    return answer.verdict == "crash" or "LinearEncoding" in answer.error or (
        0 < answer.line <= len(lines) and "#ttg.linear<" in lines[answer.line - 1])


def main() -> None:
    triton, commit, *files = sys.argv[1:]
    parser = Parser(Path(tempfile.mkdtemp(prefix="irscope-gather-")))
    stems = [Path(relative).stem for relative in files]
    for relative in files:
        parts = Path(relative).with_suffix("").parts
        stem = parts[-1] if stems.count(parts[-1]) == 1 else f"{parts[-2]}-{parts[-1]}"
        text, notes = gather(Path(triton), commit, relative, parser)
        count = text.count("// lit module")
        if count:
            (HERE / "lit_linear" / f"{stem}.mlir").write_text(text)
        print(f"{relative} -> {stem}.mlir: {count} modules, {len(text)} chars")
        for note in notes:
            print(f"  {note}")


if __name__ == "__main__":
    main()
