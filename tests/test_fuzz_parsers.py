"""Property tests: irscope's parsers and layout maths on mutated real compiler output.

Every mutation of real TTIR/TTGIR/LLIR/PTX/AMDGCN text (truncation, deleted or doubled lines, flipped
characters inside ``#...<{...}>``, unbalanced brackets, huge numbers, random unicode) must end in a
result or in irscope's own error type, within a time bound: parsers report what they could not read
and go on. The CI profile runs a share of the examples; ``IRSCOPE_FUZZ=full`` runs the full count
(the figures in the changelog come from that).
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from irscope.analysis.layouts.explain import analyze_layouts
from irscope.analysis.layouts.to_linear import UnsupportedLayout, to_linear_layout
from irscope.analysis.loops import analyze_loops
from irscope.analysis.sourcemap import map_mlir
from irscope.errors import IrscopeError
from irscope.parse.layouts import parse_layouts
from irscope.parse.lineinfo import parse_amdgcn, parse_llir, parse_ptx, parse_sass_lines
from irscope.parse.mlir_ops import parse_module
from irscope.parse.mlir_text import logical_lines, strip_comment
from irscope.parse.passes import parse_dump
from irscope.parse.ttgir_ops import scan_ops
from tests.conftest import DATA

pytestmark = pytest.mark.compile

FULL = os.environ.get("IRSCOPE_FUZZ") == "full"
EXAMPLES = 1500 if FULL else 150  # per test; 8 tests (the full run: 12,000 examples)
# Seconds one example may take: the largest text (matmul's LLVM IR) parses in well under a second.
DEADLINE_MS = 5000
FUZZ = settings(max_examples=EXAMPLES, deadline=DEADLINE_MS, derandomize=not FULL,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
ALLOWED = (IrscopeError, UnsupportedLayout)
# Example: #blocked = #ttg.blocked<{sizePerThread = [1, 8], ...}>   (what "inside #...<{...}>" means)
_ATTR_BODY = re.compile(r"#[\w.]+<\{[^\n]*?\}>")
_NUMBER = re.compile(r"\b\d+\b")
_HUGE = ("1099511627776", "100000000000000000000", "2147483648", "0", "-1", "4294967295", "3")
_BRACKETS = "{}[]<>()\""


@pytest.fixture(scope="session")
def corpus(captures) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    """Real texts by stage: the committed golden TTGIR files plus fresh captures' other stages."""
    found: dict[str, list[str]] = {"ttgir": [p.read_text() for p in sorted((DATA / "layouts").glob("*.ttgir"))]}
    for kernel, target in (("vector_add", "sm90"), ("softmax", "gfx942"), ("matmul", "sm80")):
        cap = captures(kernel, target)
        for stage in ("ttir", "ttgir", "llir", "ptx" if target.startswith("sm") else "amdgcn"):
            found.setdefault(stage, []).append(cap.read(stage))
    return found


@st.composite
def mutated(draw: st.DrawFn, texts: list[str]) -> str:
    """A real text with one to four mutations."""
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["truncate", "delete", "double", "flip", "bracket", "huge", "unicode"]))
        lines = text.splitlines(keepends=True) or [""]
        if kind == "truncate":
            text = text[: draw(st.integers(0, max(len(text) - 1, 0)))]
        elif kind in ("delete", "double"):
            i = draw(st.integers(0, len(lines) - 1))
            lines[i : i + 1] = [] if kind == "delete" else [lines[i], lines[i]]
            text = "".join(lines)
        elif kind == "flip":
            spans = [m.span() for m in _ATTR_BODY.finditer(text)] or [(0, len(text))]
            start, end = draw(st.sampled_from(spans))
            if end > start:
                at = draw(st.integers(start, end - 1))
                text = text[:at] + draw(st.characters(codec="utf-8")) + text[at + 1 :]
        elif kind == "bracket":
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(_BRACKETS)) * draw(st.integers(1, 3)) + text[at:]
        elif kind == "huge":
            numbers = list(_NUMBER.finditer(text))
            if numbers:
                m = draw(st.sampled_from(numbers))
                text = text[: m.start()] + draw(st.sampled_from(_HUGE)) + text[m.end() :]
        else:
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.text(min_size=1, max_size=20)) + text[at:]
    return text


def _survives(fn: Callable[[str], object], text: str) -> None:
    """Run ``fn``: a result or irscope's own error is fine; anything else fails the example."""
    with contextlib.suppress(*ALLOWED):
        fn(text)


def _layout_maths(text: str) -> None:
    """Parse the layouts, then convert each to a linear layout for a small shape (bounded work)."""
    table = parse_layouts(text)
    for layout in table.layouts:
        if getattr(layout, "distributed", False):
            try:
                to_linear_layout(layout, [64, 64])
            except ALLOWED:
                continue


def _mlir_everything(text: str) -> None:
    parse_module(text)
    list(scan_ops(text))
    map_mlir("ttgir", text, "kernel.py")
    analyze_layouts(text)
    analyze_loops(text, "kernel.py")


@FUZZ
@given(data=st.data())
def test_ttgir_parsers_survive_mutations(corpus, data):
    _survives(_mlir_everything, data.draw(mutated(corpus["ttgir"])))


@FUZZ
@given(data=st.data())
def test_ttir_parsers_survive_mutations(corpus, data):
    _survives(_mlir_everything, data.draw(mutated(corpus["ttir"])))


@FUZZ
@given(data=st.data())
def test_layout_maths_survive_mutated_layouts(corpus, data):
    _survives(_layout_maths, data.draw(mutated(corpus["ttgir"])))


@FUZZ
@given(data=st.data())
def test_llir_listing_survives_mutations(corpus, data):
    _survives(parse_llir, data.draw(mutated(corpus["llir"])))


@FUZZ
@given(data=st.data())
def test_ptx_listing_survives_mutations(corpus, data):
    _survives(parse_ptx, data.draw(mutated(corpus["ptx"])))


@FUZZ
@given(data=st.data())
def test_amdgcn_listing_survives_mutations(corpus, data):
    _survives(parse_amdgcn, data.draw(mutated(corpus["amdgcn"])))


@FUZZ
@given(text=st.text(max_size=2000))
def test_sass_listing_survives_any_text(text):
    _survives(parse_sass_lines, text)


@FUZZ
@given(data=st.data())
def test_pass_dump_parser_survives_mutations(corpus, data):
    """A per-pass dump: headers as MLIR prints them between real modules, then mutated."""
    modules = corpus["ttir"][:1] + corpus["ttgir"][-1:]
    header = "// -----// IR Dump Before {} ({}) ('builtin.module' operation) //----- //\n"
    dump = (header.format("Inliner", "inline") + modules[0] + header.format("TritonGPUCoalesce", "tritongpu-coalesce")
            + modules[1])
    _survives(parse_dump, data.draw(mutated([dump])))


# -- one unbalanced bracket in a large file: linear time, the same logical lines ---------------------


def _read_all(text: str) -> None:
    """What every MLIR reader does first (logical lines), then the module, op and layout parsers on them."""
    logical_lines(text)
    parse_module(text)
    list(scan_ops(text))
    parse_layouts(text)


def _seconds(fn: Callable[[str], object], text: str) -> float:
    """The best of three CPU times (other processes on a loaded machine barely move it)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        fn(text)
        best = min(best, time.process_time() - start)
    return best


@settings(max_examples=8, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_one_unbalanced_bracket_reads_in_linear_time(corpus, data):
    """Issue 28 item 6: one `"`, `[`, `{` or `<` left open made reading logical lines quadratic (each line joined
    and rescanned the whole open statement: the matmul's LLVM IR with one `"` ran for minutes). Four times the
    text must cost about four times as much, not sixteen."""
    real = max(corpus["llir"], key=len)
    text = real[: real.index("\n", 60_000) + 1]
    lines = text.splitlines(keepends=True)
    # after a line's first `(`: the bracket is left open there, outside any string
    line = data.draw(st.sampled_from([i for i, x in enumerate(lines[: len(lines) // 4]) if "(" in x]))
    at = lines[line].index("(") + 1
    lines[line] = lines[line][:at] + data.draw(st.sampled_from('"[{<')) + lines[line][at:]
    once = "".join(lines)
    four = once + text * 3
    assert max(n for n, _ in logical_lines(four)) <= line + 1  # the open bracket swallows the rest, as before
    t1, t4 = _seconds(_read_all, once), _seconds(_read_all, four)
    assert t4 < 8 * max(t1, 0.002), f"1x: {t1:.3f} s, 4x: {t4:.3f} s"


def _logical_lines_by_definition(text: str) -> list[tuple[int, str]]:
    """`logical_lines` as its docstring defines it, rejoining and rescanning each statement per line (slow)."""
    def depth(body: str) -> int:
        if '"' not in body:
            opened = sum(body.count(c) for c in "([{<")
            if opened == sum(body.count(c) for c in ")]}>") - body.count("->"):
                return 0
        level, in_string, i = 0, False, 0
        while i < len(body):
            ch = body[i]
            if in_string and ch == "\\":
                i += 2
                continue
            if ch == '"':
                in_string = not in_string
            elif not in_string and body.startswith("->", i):
                i += 1
            elif not in_string and ch in "([{<":
                level += 1
            elif not in_string and ch in ")]}>":
                level = max(0, level - 1)
            i += 1
        return level

    def open_at_end(joined: str) -> bool:
        body = joined[:-2] if joined.endswith("({") else joined[:-1] if joined.endswith("{") else joined
        if body.startswith(("}", "^")):
            return False
        return depth(body) > 0 or (body is joined and joined.endswith((":", ",", "->", "=")))

    out: list[tuple[int, str]] = []
    current: list[str] = []
    first = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw).strip()
        if not line:
            continue
        if current:
            continues = open_at_end(" ".join(current)) or line.startswith(("->", ":", ",", "to ", "attributes "))
            if not continues or re.match(r"^(?:#[\w$.-]+\s*=|module\b|(?:tt|func|llvm)\.func\b)", line):
                out.append((first, " ".join(current)))
                current = []
        if not current:
            first = number
        current.append(line)
    if current:
        out.append((first, " ".join(current)))
    return out


_PIECES = st.sampled_from(['(', ')', '[', ']', '{', '}', '<', '>', '"', '\\', '->', '-', ':', ',', '=', ' ', '\n',
                           'a', '%0', '^bb1', '({', 'to ', '// c', 'module', '#a = ', 'tt.func', 'attributes '])


@settings(max_examples=EXAMPLES * 10, deadline=DEADLINE_MS)
@given(pieces=st.lists(_PIECES, max_size=80))
def test_logical_lines_are_as_defined(pieces):
    """The one-pass reader gives exactly the logical lines of the rejoin-and-rescan definition."""
    text = "".join(pieces)
    assert logical_lines(text) == _logical_lines_by_definition(text)


def test_logical_lines_of_real_text_with_open_brackets_are_as_defined(corpus):
    for text in (corpus["ttgir"][0], corpus["llir"][0][:20_000]):
        for bracket in '"[{<':
            at = len(text) // 3
            odd = text[:at] + bracket + text[at:]
            assert logical_lines(odd) == _logical_lines_by_definition(odd)
