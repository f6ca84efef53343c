"""The ``irscope`` commands of README.md and docs/*.md, as a reader would type them, and their shown output.

The convention the docs follow (and ``collect`` enforces):

- a fenced ```` ```bash ```` block holds commands to run; a line ``irscope ...`` is run, its output not checked;
- a fenced ```` ```console ```` block is a session: each ``$ irscope ...`` line is run and the lines under it, up
  to the next ``$`` line, are output it must print. A line that is only ``...`` elides any number of output
  lines; ``...`` inside a line matches any text there (a path, a number that varies); trailing spaces do not
  count. Without ``...`` between them, shown lines must be consecutive lines of the real output, in order;
  what comes before the first shown line and after the last is not checked (compile messages, for one);
- a trailing ``# exit N`` on a command gives its expected exit status (else 0); ``# exit 1 without Graphviz's
  dot`` is skipped where ``dot`` is installed;
- ``irscope tui ...`` and bare ``irscope`` run on a pseudo-terminal until the screen shows the kernel, then ``q``;
- a trailing ``# needs ...`` (a GPU, your own program or file) marks a command the doc test cannot run: it is
  skipped and reported with that reason;
- an ``irscope`` command in any other block kind (```` ``` ````, ```` ```text ````, ```` ```python ````) is an
  error, so no command is silently left out.

docs/cli-reference.md is generated from ``--help`` and holds no shell blocks; its examples are not run here,
but ``reference_examples`` reads them so that ``unmarked_needs`` can check them with every other command: one
that names a Triton other than the installed one (``--triton 3.5.1``), or installs one, runs on a GPU
(``irscope bench``), or reads a file the repository lacks (the reader's ``my_kernels.py``, an archive
``captures.tar.gz``) that the command line does not write itself, must say ``# needs``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

RUN_KINDS = ("bash", "sh", "shell")
SESSION_KINDS = ("console",)
GENERATED = ("docs/cli-reference.md",)
SKIPPED: list[str] = []  # "where: needs why: command", filled by the doc test, printed at the end of the run

# Example: ```bash
_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})(?P<info>[\w+-]*)\s*$")
# Example: irscope layouts matmul --map mma   # the wgmma layout's map
_IRSCOPE = re.compile(r"^(?:\$\s+)?irscope(?:\s|$)")
# Example: irscope bench --plot bench.png   # needs a GPU: against PyTorch
_NEEDS = re.compile(r"\s#\s*needs\s+(?P<what>[^:#]+)")
# Example: irscope graph matmul --out m.svg   # exit 1
_EXIT = re.compile(r"\s#\s*exit\s+(?P<status>\d+)\b")
# Example: irscope compare matmul --triton 3.5.1 --vs-triton=3.6.0
_TRITON_VERSION = re.compile(r"--(?:vs-)?triton(?:=|\s+)(?P<version>\d+(?:\.\d+)+\S*)")
# Example: irscope triton install 3.5.1
_TRITON_INSTALL = re.compile(r"\birscope\s+triton\s+install\b")
# Example: my_kernels.py:add_kernel, captures.tar.gz, facts.json (a file a command reads or writes)
_FILE_WORD = re.compile(r"^(?P<path>[\w./-]+\.(?:py|json|tar\.gz|tgz|tar|zip|pt))(?::[\w.]+)?$")
# Options whose value is a file the command writes.
_WRITES = ("-o", "--out", "--output", "--html", "--plot")


@dataclass(frozen=True)
class DocCommand:
    """One command of a doc, where it is, and what the doc says it does.

    Attributes:
        doc: the doc's path relative to the repository root.
        line: the command's line number in the doc (1-based).
        text: the command as written, without a leading ``$ `` (comments kept: bash drops them).
        expected: the output lines the doc shows under it (``console`` blocks), else empty.
        status: the exit status the doc gives (``# exit N``), else 0.
        needs: why it cannot run here (``# needs ...``), else None.
    """

    doc: str
    line: int
    text: str
    expected: tuple[str, ...]
    status: int
    needs: str | None

    @property
    def where(self) -> str:
        """``docs/tour.md:12``."""
        return f"{self.doc}:{self.line}"


@dataclass(frozen=True)
class Block:
    """A fenced code block: its info string, the line of its first content line, its lines."""

    kind: str
    first_line: int
    lines: tuple[str, ...]


def blocks(text: str) -> list[Block]:
    """The fenced code blocks of a Markdown text, in order."""
    found: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        fence = opening["fence"]
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not (lines[j].strip().startswith(fence[0] * len(fence))
                                      and not lines[j].strip().strip(fence[0])):
            body.append(lines[j])
            j += 1
        found.append(Block(opening["info"].lower(), i + 2, tuple(body)))
        i = j + 1
    return found


def _command(doc: str, line: int, text: str, expected: list[str]) -> DocCommand:
    needs = _NEEDS.search(text)
    status = _EXIT.search(text)
    return DocCommand(doc, line, text, tuple(expected), int(status["status"]) if status else 0,
                      needs["what"].strip() if needs else None)


def collect(root: Path, doc: str) -> tuple[list[DocCommand], list[str]]:
    """The commands of one doc, and the problems with how it writes them (commands the collector would miss)."""
    commands: list[DocCommand] = []
    problems: list[str] = []
    for block in blocks((root / doc).read_text()):
        if block.kind in RUN_KINDS:
            for k, line in enumerate(line.strip() for line in block.lines):
                if line.startswith("$"):
                    problems.append(f"{doc}:{block.first_line + k}: a `$` prompt in a ```{block.kind} block: "
                                    "use ```console for a "
                                    f"command with its output")
                elif _IRSCOPE.match(line) and line.rstrip().endswith("\\"):
                    problems.append(f"{doc}:{block.first_line + k}: a command continued with `\\`: "
                                    "write it on one line")
                elif _IRSCOPE.match(line):
                    commands.append(_command(doc, block.first_line + k, line, []))
        elif block.kind in SESSION_KINDS:
            current: tuple[int, str] | None = None
            output: list[str] = []
            for k, line in enumerate(block.lines):
                if line.startswith("$"):
                    if current:
                        commands.append(_command(doc, *current, output))
                    command = line[1:].strip()
                    if not _IRSCOPE.match(command):
                        problems.append(f"{doc}:{block.first_line + k}: only irscope commands can be checked "
                                        f"in a ```console block: {command}")
                    current, output = (block.first_line + k, command), []
                elif current:
                    output.append(line)
                elif line.strip():
                    problems.append(f"{doc}:{block.first_line + k}: output before any `$ irscope` line")
            if current:
                commands.append(_command(doc, *current, output))
        else:
            problems.extend(f"{doc}:{block.first_line + k}: an irscope command in a ```{block.kind} block, which "
                            f"the doc test does not run (use ```bash, or ```console with its output)"
                            for k, line in enumerate(block.lines) if _IRSCOPE.match(line.strip()))
    return commands, problems


def documents(root: Path) -> list[str]:
    """README.md and docs/*.md, except the generated CLI reference, as paths relative to ``root``."""
    docs = sorted(str(p.relative_to(root)) for p in (root / "docs").glob("*.md"))
    return ["README.md", *(d for d in docs if d not in GENERATED)]


def _line_matches(shown: str, real: str) -> bool:
    """Whether one shown line matches one real line: ``...`` is any text, trailing spaces do not count."""
    shown, real = shown.rstrip(), real.rstrip()
    if "..." not in shown:
        return shown == real
    pattern = ".*".join(re.escape(part) for part in shown.split("..."))
    return re.fullmatch(pattern, real) is not None


def _runs(expected: tuple[str, ...]) -> list[list[str]]:
    """The shown lines split at elision lines (a line that is only ``...``) into runs of consecutive lines."""
    runs: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == "...":
            runs.append([])
        else:
            runs[-1].append(line)
    while runs and not runs[-1]:
        runs.pop()
    return [run for run in runs if run]


def mismatch(expected: tuple[str, ...], output: str) -> str | None:
    """None when ``output`` shows every run of ``expected`` in order, else the first run that is not there."""
    real = output.splitlines()
    start = 0
    for run in _runs(expected):
        at = next((i for i in range(start, len(real) - len(run) + 1)
                   if all(_line_matches(s, r) for s, r in zip(run, real[i:i + len(run)], strict=True))), None)
        if at is None:
            best = _closest(run, real[start:])
            return "not in the output (after what matched before):\n    " + "\n    ".join(run) + (
                f"\n  nearest real line: {best!r}" if best else "")
        start = at + len(run)
    return None


def _closest(run: list[str], real: list[str]) -> str | None:
    """The real line most like the first shown line that matches nothing, to point at the drift."""
    import difflib

    for shown in run:
        if not any(_line_matches(shown, r) for r in real):
            close = difflib.get_close_matches(shown.rstrip(), [r.rstrip() for r in real], n=1, cutoff=0.5)
            return close[0] if close else None
    return None


def reference_examples(root: Path, doc: str) -> list[DocCommand]:
    """The ``irscope`` example lines of a generated reference's ``--help`` blocks (a wrapped line joined again)."""
    commands: list[DocCommand] = []
    for block in blocks((root / doc).read_text()):
        current: tuple[int, str, int] | None = None  # line, text, indent
        for k, raw in enumerate([*block.lines, ""]):
            indent = len(raw) - len(raw.lstrip())
            if current and raw.strip() and indent == current[2] and not _IRSCOPE.match(raw.strip()):
                current = (current[0], f"{current[1]} {raw.strip()}", indent)  # click wrapped it
                continue
            if current:
                commands.append(_command(doc, current[0], current[1], []))
                current = None
            if _IRSCOPE.match(raw.strip()):
                current = (block.first_line + k, raw.strip(), indent)
    return commands


def unmarked_needs(command: DocCommand, installed: str, root: Path | None = None) -> str | None:
    """Why a command without ``# needs`` cannot run here as written: it names another Triton, installs one,
    needs a GPU, or (given the repository's ``root``) reads a file the repository lacks."""
    if command.needs:
        return None
    text = command.text.split(" #")[0]
    if _TRITON_INSTALL.search(text):
        return "it downloads a Triton (irscope triton install): mark it # needs network"
    other = sorted({m["version"] for m in _TRITON_VERSION.finditer(text)} - {installed})
    if other:
        return f"it needs Triton {', '.join(other)} installed, and {installed} is: mark it # needs Triton {other[0]}"
    if gpu := _gpu_use(text):
        return f"{gpu}: mark it # needs a GPU"
    if root is not None and (missing := _missing_input(text, root)):
        return f"it reads {missing}, which the repository lacks: mark it # needs your file (or what makes it)"
    return None


def _gpu_use(text: str) -> str | None:
    """What in a command line needs a GPU: ``irscope bench``, ``irscope perf --gpu native``."""
    for part in re.split(r"&&|\|\||;|\|", text):
        words = shlex.split(part)
        if words[:1] != ["irscope"]:
            continue
        if "bench" in words[1:2]:
            return "irscope bench times kernels on the local GPU"
        if words[1:2] == ["perf"] and "native" in words and "--gpu" in words:
            return "perf --gpu native measures the local GPU"
    return None


def _missing_input(text: str, root: Path) -> str | None:
    """The first file a command line reads that is not in ``root`` and that an earlier part of the line did not
    write."""
    written: set[str] = set()
    for part in re.split(r"&&|\|\||;|\|", text):
        words = shlex.split(part)
        for k, word in enumerate(words):
            file = _FILE_WORD.match(word)
            if not file:
                continue
            if k and words[k - 1] in _WRITES:
                written.add(file["path"])
            elif file["path"] not in written and not (root / file["path"]).exists():
                return file["path"]
    return None
