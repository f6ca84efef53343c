"""Two Tritons printing one IR two ways: irscope.analysis.spelling, on the gated delta rule case's real pair.

tests/data/divergence/gated_delta_rule.pipeline.{3.5.0,3.6.0}.mlir.gz: SGLang 0.5.9's
``chunk_gated_delta_rule_fwd_kernel_h_blockdim64`` on sm90 (benchmarks/regressions, case gated-delta-rule-h20),
the input and output of ``tritongpu-pipeline`` as each Triton printed them (locations left out).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from irscope.analysis.divergence import pass_divergence
from irscope.analysis.spelling import ALLOC_SHAPE, CONTIGUITY, respell
from irscope.store.passdump import PassDump, scan_dump

DATA = Path(__file__).resolve().parent / "data" / "divergence"


def _dump(version: str) -> PassDump:
    return scan_dump(DATA / f"gated_delta_rule.pipeline.{version}.mlir.gz")


def _pipeline(dump: PassDump) -> tuple[str, str]:
    p = next(p for p in dump.index.passes if p.name == "tritongpu-pipeline")
    assert p.input is not None and p.output is not None
    return dump.body(p.input), dump.body(p.output)


def test_the_two_tritons_pipeline_outputs_are_one_ir_spelled_two_ways():
    (in_a, out_a), (in_b, out_b) = _pipeline(_dump("3.5.0")), _pipeline(_dump("3.6.0"))
    assert in_a == in_b  # the pass's input: printed alike
    assert out_a != out_b
    assert "mutable, 2x64x64>" in out_a and "mutable, 2x64x64>" not in out_b
    assert "{contiguity = 8 : i32}" in out_b and "{contiguity = " not in out_a
    (same_a, used_a), (same_b, used_b) = respell(out_a), respell(out_b)
    assert same_a == same_b
    assert used_a == {ALLOC_SHAPE} and used_b == {CONTIGUITY}
    assert respell(in_a) == (in_a, frozenset())


def test_the_first_divergence_is_not_a_spelling():
    """Triton 3.5.0 against 3.6.0: the pipeliner's outputs agree once spelled alike, and the note says what was set aside."""
    found = pass_divergence(_dump("3.5.0"), _dump("3.6.0"))
    assert found.level == "none", (found.pass_name, found.effect)
    assert "set aside as two spellings of one IR: contiguity hints on async copies, memdesc allocation shapes" in \
        found.note


@pytest.mark.parametrize(("line", "kept"), [
    # One buffer of the 2-deep 64x64 allocation: the suffix only adds the buffer dim.
    ("%b = ttg.memdesc_index %a[%c0_i32] : !ttg.memdesc<2x64x64xbf16, #shared, #smem, mutable> -> "
     "!ttg.memdesc<64x64xbf16, #shared, #smem, mutable, 2x64x64>", False),
    # A 64x32 slice of a 64x64 tile: its rows are 64 apart, not 32; the allocation shape is part of the type.
    ("%s = ttg.memdesc_subslice %t [0, 32] : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> "
     "!ttg.memdesc<64x32xbf16, #shared, #smem, mutable, 64x64>", True),
    ("%s = ttg.memdesc_index %t[%i] : !ttg.memdesc<3x64x64xbf16, #shared, #smem, mutable, 3x128x64> -> "
     "!ttg.memdesc<64x64xbf16, #shared, #smem, mutable, 3x128x64>", True),
])
def test_an_allocation_shape_that_changes_the_strides_is_kept(line, kept):
    text, used = respell(line)
    assert ("mutable, 64x64>" in text or "mutable, 3x128x64>" in text) is kept
    assert (used == frozenset()) is kept
