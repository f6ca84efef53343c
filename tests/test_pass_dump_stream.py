"""The per-pass dump printed fast (buffered in the worker, split and stripped in one pass each) is the
same dump, parsed the same, as the one printed and read the slow way."""

from __future__ import annotations

import itertools
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscope.analysis.diff import (
    _LLVM_COMMENT_AFTER_NL,
    _LLVM_DBG_DEF_AFTER_NL,
    drop_lines,
    strip_pass_manager_noise,
)
from irscope.analysis.ir_facts import llvm_facts
from irscope.compile.passes import Worker
from irscope.parse.passes import SectionSplitter, index_passes, split_sections

# The line patterns the fast ones replace, as irscope wrote them before (``^`` with re.M):
# Example: ; Function Attrs: alwaysinline nounwind
_COMMENT_LINE = re.compile(r"^;[^\n]*(?:\n|$)", re.M)
# Example: !37 = !DILocation(line: 73, column: 20, scope: !4)
_DBG_DEF = re.compile(r"^!\d+ = (?:distinct )?!DI(?:Location|LexicalBlock\w*)\(.*(?:\n|$)", re.M)
# Example: // -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //
_SECTION_START = re.compile(rb"^(?:// -----//|; \*\*\* IR Dump |\*\*\* IR Dump |# \*\*\* IR Dump )", re.M)
# Example: // -----// irscope stage-end ttgir seconds=0.1033 t=12.5
_TIMES = re.compile(rb"\b(seconds|t)=[0-9.]+")

LINES = st.lists(st.sampled_from([
    "; Function Attrs: nounwind", ";", "  %1 = add i32 %0, 1", "!37 = !DILocation(line: 73, column: 20, scope: !4)",
    "!5 = distinct !DILexicalBlockFile(scope: !1)", "!6 = !{i32 1}", "", "define void @k() {", " ; not at the start",
    "// -----// IR Dump Before Inliner (inline) ('builtin.module' operation) //----- //",
    "; *** IR Dump After InstCombinePass on k ***", "*** IR Dump After Foo (foo) ***", "# *** IR Dump After Bar ***:",
    "Running pass: InstCombinePass on matmul_kernel", "Running analysis: DominatorTreeAnalysis on matmul_kernel",
    "Invalidating analysis: LoopAnalysis on matmul_kernel", "Clearing all analysis results for: k", "Running passes",
    "Skipping pass: LoopUnrollPass on k", "  %5 = tail call float @llvm.nvvm.fmax.f(float %3, float %4)",
    "\tstore i32 %1, ptr %0, align 4", "  br label %7", "  %x.y$z-1 = load <8 x half>, ptr addrspace(1) %4, align 16",
]), max_size=12)
# The pass-manager chatter and instruction patterns as irscope wrote them before (``^`` with re.M):
# Example: Running pass: InstCombinePass on matmul_kernel
_PM_NOISE_BEFORE = re.compile(r"^(?:Running (?:pass|analysis)|Invalidating (?:analysis|all)|Clearing all analysis"
                              r"|Skipping pass)\b.*(?:\n|$)", re.M)
# Example: %5 = load <8 x half>, ptr addrspace(1) %4, align 16
_LLVM_INST_BEFORE = re.compile(r"^[ \t]+(?:%[\w.$-]+ = )?(?:tail |musttail |notail )?([a-z][a-z0-9_.]*)\b", re.M)


def _strip_before(text: str) -> str:
    """strip_pass_manager_noise as it was: the chatter regex over the whole text, then comment lines."""
    if "Running " in text or "Invalidating " in text or "Clearing " in text:
        text = _PM_NOISE_BEFORE.sub("", text)
    return drop_lines(text, _LLVM_COMMENT_AFTER_NL) if "\n;" in text or text.startswith(";") else text


@given(LINES, st.booleans())
@settings(max_examples=400, deadline=None)
def test_dropping_lines_in_one_pass_is_what_the_line_regex_did(lines: list[str], newline_at_end: bool) -> None:
    text = "\n".join(lines) + ("\n" if newline_at_end else "")
    assert drop_lines(text, _LLVM_COMMENT_AFTER_NL) == _COMMENT_LINE.sub("", text)
    assert drop_lines(text, _LLVM_DBG_DEF_AFTER_NL) == _DBG_DEF.sub("", text)


@given(LINES, st.booleans())
@settings(max_examples=400, deadline=None)
def test_pass_manager_chatter_and_instructions_are_found_as_the_line_regexes_did(lines: list[str],
                                                                                 newline_at_end: bool) -> None:
    text = "\n".join(lines) + ("\n" if newline_at_end else "")
    assert strip_pass_manager_noise(text) == _strip_before(text)
    assert llvm_facts(text).ops == Counter(_LLVM_INST_BEFORE.findall(text))


def _split_before(data: bytes) -> list[tuple[int, bytes]]:
    """Section starts and texts as the ``^``-anchored splitter cut them."""
    starts = [m.start() for m in _SECTION_START.finditer(data)]
    cuts = [0, *[s for s in starts if s], len(data)]
    return [(a, data[a:b]) for a, b in itertools.pairwise(cuts) if a < b or a == 0]


@given(LINES, st.lists(st.integers(1, 40), max_size=8))
@settings(max_examples=300, deadline=None)
def test_sections_are_cut_at_the_same_lines_whatever_the_chunks(lines: list[str], cuts: list[int]) -> None:
    data = "\n".join(lines).encode()
    splitter = SectionSplitter()
    out = []
    pos = 0
    for size in cuts:
        out.extend(splitter.feed(data[pos:pos + size]))
        pos += size
    out.extend(splitter.feed(data[pos:]))
    out.extend(splitter.close())
    assert [d for _, d in out] == [d for _, d in split_sections(data)]
    assert [s.lines for s, _ in out] == [d.count(b"\n") for _, d in out]  # counted as the pieces came in
    assert [s.line for s, _ in out] == [1 + data[:sum(len(d) for _, d in out[:i])].count(b"\n")
                                        for i in range(len(out))]
    assert b"".join(d for _, d in out) == data
    assert [d for _, d in out if d] == [d for _, d in _split_before(data) if d]


def _dump(request: object, capture: object, llvm: bool, buffer: bool) -> bytes:
    """What the worker prints for a per-pass compile, times blanked."""
    settings = {"MLIR_ENABLE_DUMP": "1", **({"LLVM_IR_ENABLE_DUMP": "1"} if llvm else {})}
    worker = Worker(request, capture, "passes", settings, llvm=llvm, buffer=buffer)  # type: ignore[arg-type]
    data = b"".join(worker.stream())
    assert worker.result["ok"], worker.result
    return _TIMES.sub(rb"\1=0", data)


@pytest.mark.compile
@pytest.mark.parametrize(("kernel", "target", "llvm"), [("matmul", "sm90", False), ("vector_add", "sm80", True)])
def test_a_buffered_dump_is_the_unbuffered_dump_byte_for_byte(captures: object, kernel: str, target: str,
                                                             llvm: bool) -> None:
    # matmul's pipelined loop prints memdesc types, which MLIR prints twice when the stream's tell()
    # lags behind what it buffered (errs() buffered under dbgs()); vector_add adds LLVM's own passes.
    request = captures.request(kernel, target)  # type: ignore[attr-defined]
    capture = captures(kernel, target)  # type: ignore[operator]
    fast = _dump(request, capture, llvm, buffer=True)
    slow = _dump(request, capture, llvm, buffer=False)
    assert fast == slow
    index = index_passes([s for s, _ in split_sections(fast)], "dump")
    assert not index.problems and index.complete
    if llvm:
        irs = {p.ir for p in index.passes}
        assert irs == {"mlir", "llvm", "mir"}


@pytest.mark.compile
def test_effects_computed_in_two_processes_are_the_serial_ones(captures: object, monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    """A real LLVM dump (vector_add, sm80): the split rows equal pass_effects' rows, in order, and the
    old line regexes find what the fast ones find in every section."""
    from irscope.analysis import effects_split
    from irscope.analysis.passes import pass_effects
    from irscope.parse.passes import section_body
    from irscope.request.passdump import get_pass_dump

    request = captures.request("vector_add", "sm80")  # type: ignore[attr-defined]
    dump = get_pass_dump(request, captures("vector_add", "sm80"), llvm=True)  # type: ignore[operator]
    for section in dump.index.sections:
        body = section_body(dump.text(section.id))
        assert strip_pass_manager_noise(body) == _strip_before(body)
        assert llvm_facts(body).ops == Counter(_LLVM_INST_BEFORE.findall(body))
    monkeypatch.setattr(effects_split, "_MIN_BYTES", 0)
    forks: list[int] = []
    real_fork = effects_split.os.fork
    monkeypatch.setattr(effects_split.os, "fork", lambda: forks.append(1) or real_fork())
    split = effects_split.split_pass_effects(dump)
    assert forks == [1]  # the second half really came from a child
    assert split == pass_effects(dump)
    assert any(r.ir == "llvm" and r.status == "changed" for r in split)


@pytest.mark.compile
def test_the_threaded_writer_writes_the_members_the_sequential_one_wrote(captures: object, tmp_path) -> None:
    """A real LLVM dump stored through write_dump equals, byte for byte, each section gzipped in order."""
    import gzip
    import json

    from irscope.store.passdump import load_dump
    from irscope.store.passwrite import write_dump

    request = captures.request("vector_add", "sm80")  # type: ignore[attr-defined]
    capture = captures("vector_add", "sm80")  # type: ignore[operator]
    data = _dump(request, capture, llvm=True, buffer=True)
    chunks = [data[i:i + 65_537] for i in range(0, len(data), 65_537)]
    index = write_dump(tmp_path, "llvm", iter(chunks), lambda: {"triton_version": "x"})
    info = json.loads(index.read_text(encoding="utf-8"))
    expected, rows = b"", []
    for section, text in split_sections(data):
        member = gzip.compress(text, compresslevel=1, mtime=0)
        rows.append([section.id, section.line, section.size, len(expected), len(member), section.header, section.lines])
        expected += member
    assert (tmp_path / info["file"]).read_bytes() == expected
    assert info["sections"] == rows and info["raw_bytes"] == len(data)
    dump = load_dump(tmp_path, "llvm")
    assert dump is not None and gzip.decompress(expected) == data
    assert "".join(dump.text(s.id) for s in dump.index.sections) == data.decode()


def test_a_write_error_on_the_writer_thread_stops_the_dump(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from irscope.store import dump_writer
    from irscope.store.passwrite import write_dump

    def full(*_: object, **__: object) -> bytes:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(dump_writer.gzip, "compress", full)
    text = b"// -----// IR Dump Before Inliner (inline) ('builtin.module' operation) //----- //\nmodule {\n}\n" * 50
    folder = tmp_path / "capture"
    folder.mkdir()
    with pytest.raises(OSError, match="No space left"):
        write_dump(folder, "mlir", iter([text]), lambda: {})
    assert not list(folder.iterdir())  # no temporary file, no index
