"""irscope's op scanners against Triton's own MLIR parser, on a corpus of real TTGIR modules.

The corpus (tests/data/ttgir_corpus, see its README) holds every distinct TTGIR-level module Triton
printed while compiling irscope's kernels for sm80/sm90/sm100/gfx942/gfx950. Each is loaded with
`triton._C.libtriton.ir.parse_mlir_module` and walked; parse_module and scan_ops must read the same
ops, result counts, operand sources and tensor/memdesc types. The same modules rewritten to the old
`#triton_gpu.` spelling must read exactly as the new spelling does.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from irscope.store.store import triton_version

if tuple(int(p) for p in triton_version().split(".")[:2] if p.isdigit()) < (3, 9):
    pytest.skip(f"the corpus was printed by Triton 3.9; Triton {triton_version()} may refuse it",
                allow_module_level=True)

from ops_compare import module_disagreements
from triton_oracle import load_corpus, triton_context

from irscope.analysis.layouts.explain import analyze_layouts
from irscope.parse.layouts import parse_layouts
from irscope.parse.mlir_ops import parse_module
from irscope.parse.ttgir_ops import parse_module_info, scan_ops
from irscope.views.layout_report import render_layout_report

SNIPPETS = Path(__file__).parent / "data" / "ttgir_corpus" / "snippets"

# Corpus modules Triton's own parser refuses, with the reason (none so far: every module Triton printed
# it also reads back).
KNOWN_TRITON_REFUSALS: dict[str, str] = {}


@pytest.fixture(scope="session")
def corpus() -> list[tuple[str, str]]:
    return load_corpus()


@pytest.fixture(scope="module")
def ctx() -> Any:
    return triton_context()


def test_corpus_is_big_and_covers_both_vendors(corpus: list[tuple[str, str]]) -> None:
    targets = Counter(name.split(".")[1] for name, _ in corpus)
    assert len(corpus) >= 300, targets
    assert {"sm80", "sm90", "sm100", "gfx942", "gfx950"} <= set(targets)
    assert len({text for _, text in corpus}) == len(corpus)


def test_corpus_ops_match_triton(corpus: list[tuple[str, str]], ctx: Any, tmp_path: Path) -> None:
    disagreeing: dict[str, list[str]] = {}
    refused = []
    for name, text in corpus:
        if name in KNOWN_TRITON_REFUSALS:
            refused.append(name)
            continue
        problems = module_disagreements(text, tmp_path / "module.ttgir", ctx)
        if problems:
            disagreeing[name] = problems[:5]
    assert not disagreeing, f"{len(disagreeing)} of {len(corpus)} modules disagree: {list(disagreeing.items())[:3]}"
    assert len(refused) == len(KNOWN_TRITON_REFUSALS)


@pytest.mark.parametrize("snippet", sorted(p.name for p in SNIPPETS.glob("*.ttgir")))
def test_hand_written_forms_match_triton(snippet: str, ctx: Any, tmp_path: Path) -> None:
    text = (SNIPPETS / snippet).read_text()
    assert module_disagreements(text, tmp_path / "module.ttgir", ctx) == []
    table = parse_layouts(text)
    assert table.problems == []
    assert all(layout.kind != "opaque" for layout in table.aliases.values()), table.aliases


def test_item6_alias_forms_read_whole() -> None:
    """Multi-line, commented and same-line definitions give the layouts a one-line definition gives."""
    table = parse_layouts((SNIPPETS / "mlir_forms.ttgir").read_text())
    assert [name for name in table.aliases] == ["blocked", "blocked1", "mma", "dotA", "dotB", "shared"]
    assert table.aliases["blocked"].warps_per_cta == (4, 1)  # type: ignore[attr-defined]
    assert table.aliases["dotB"].parent == table.aliases["mma"]  # type: ignore[attr-defined]
    assert table.memory_spaces == {"smem": "ttg.shared_memory"}
    report = analyze_layouts((SNIPPETS / "mlir_forms.ttgir").read_text())
    assert not [p for p in report.problems if "auto_encoding" in p], report.problems
    assert report.get("#dotA") is not None and report.get("#dotA").layout.distributed  # type: ignore[union-attr]


def test_item7_forms_read_as_triton_does() -> None:
    """Unnamed results, continued types, `to` casts and `->` operands: the cases of issue 12 item 7."""
    ops = {op.line: op for op in scan_ops((SNIPPETS / "mlir_forms.ttgir").read_text())}
    unnamed = ops[24]
    assert unnamed.results == () and [t.text for t in unnamed.result_types] == ["tensor<64x64xf16, #dotA>"]
    assert [t.shape for t in ops[13].result_types] == [(1, 64)]  # `-> tensor<...>` on the next line
    assert [t.element for t in ops[19].result_types] == ["f16"]  # tt.load ... :\n tensor<..x!tt.ptr<f16>>
    assert [t.element for t in ops[30].result_types] == ["f32"]  # arith.extf : f16 to f32
    assert [t.element for t in ops[31].result_types] == ["i16"]  # `to` on the next line
    assert ops[22].result_types == () and ops[23].result_types == ()  # local_store / async copy write a memdesc
    module = parse_module((SNIPPETS / "mlir_forms.ttgir").read_text())
    by_line = {op.line: op for op in module.ops}
    assert by_line[24].result_count == 1 and by_line[22].result_count == 0
    assert 14 not in by_line and 18 not in by_line  # continuation lines are not ops


def _old_spelling(text: str) -> str:
    text = re.sub(r"\bttg\.", "triton_gpu.", text)
    return re.sub(r"\bttng\.", "triton_nvidia_gpu.", text)


def _normal(value: str) -> str:
    return value.replace("triton_gpu.", "ttg.").replace("triton_nvidia_gpu.", "ttng.")


def _reading(text: str) -> tuple[Any, ...]:
    """Everything irscope's parsers read from a module, with dialect spellings normalised."""
    table = parse_layouts(text)
    ops = [(o.line, _normal(o.op), o.results, [(t.kind, t.shape, t.element, _normal(t.encoding)) for t in types])
           for o in scan_ops(text) for types in (o.result_types, o.operand_types)]
    module = parse_module(text)
    mops = [(_normal(o.name), o.results, o.operands, o.result_count, o.parent, o.defines) for o in module.ops]
    spaces = {name: _normal(space) for name, space in table.memory_spaces.items()}
    return (table.aliases, spaces, [_normal(p) for p in table.problems], ops, mops,
            parse_module_info(text))


def test_old_spelling_reads_exactly_the_same(corpus: list[tuple[str, str]]) -> None:
    rewritten = 0
    for name, text in corpus:
        old = _old_spelling(text)
        assert "#triton_gpu." in old and "#ttg." not in old
        assert _reading(old) == _reading(text), name
        rewritten += 1
    assert rewritten == len(corpus)


def test_old_spelling_explains_the_same(corpus: list[tuple[str, str]]) -> None:
    """The layout report (what `irscope layouts` prints) of a sample of modules, both spellings."""
    for name, text in corpus[:: max(1, len(corpus) // 40)]:
        new = "".join(str(render_layout_report(analyze_layouts(text))).split())
        old = "".join(_normal(str(render_layout_report(analyze_layouts(_old_spelling(text))))).split())
        assert old == new, name  # the same text; only the wrapping may differ (the old names are longer)


def test_parsers_never_crash_on_damaged_modules(corpus: list[tuple[str, str]]) -> None:
    """Cut, bracket-damaged and comment-damaged modules: the parsers report, they never raise."""
    rng = random.Random(12)
    for _, text in rng.sample(corpus, 25):
        for _ in range(4):
            cut = rng.randrange(len(text))
            damaged = rng.choice([
                text[:cut],
                text[:cut] + rng.choice(["<", "{", "(", "[", "\"", "//", "->", ":", "#x = #ttg.blocked<{"])
                + text[cut:],
                text[:cut] + text[cut + rng.randint(1, 40):],
            ])
            parse_layouts(damaged)
            scan_ops(damaged)
            parse_module(damaged)
            parse_module_info(damaged)
            analyze_layouts(damaged)
