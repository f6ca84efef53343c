"""Two Tritons printing one IR two ways: irscope.analysis.spelling, on the gated delta rule case's real pair.

tests/data/divergence/gated_delta_rule.pipeline.{3.5.0,3.6.0}.mlir.gz: SGLang 0.5.9's
``chunk_gated_delta_rule_fwd_kernel_h_blockdim64`` on sm90 (benchmarks/regressions, case gated-delta-rule-h20),
the input and output of ``tritongpu-pipeline`` as each Triton printed them (locations left out).
tests/data/divergence/unified_attention_2d.gfx950.buffer-ops.{3.6.0,3.7.0}.mlir.gz: AITER's
``kernel_unified_attention_2d`` (ROCm/aiter at a83fc86, the day of ROCm/aiter#4137) on gfx950, case
aiter-unified-attention-gfx950: the input and output of ``tritonamdgpu-convert-buffer-ops``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from irscope.analysis.divergence import pass_divergence
from irscope.analysis.spelling import ALLOC_SHAPE, CONTIGUITY, VALUE_NAMES, rename_values, respell
from irscope.store.passdump import PassDump, scan_dump

DATA = Path(__file__).resolve().parent / "data" / "divergence"


def _dump(version: str, case: str = "gated_delta_rule.pipeline") -> PassDump:
    return scan_dump(DATA / f"{case}.{version}.mlir.gz")


def _pipeline(dump: PassDump, name: str = "tritongpu-pipeline") -> tuple[str, str]:
    p = next(p for p in dump.index.passes if p.name == name)
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
    """Triton 3.5.0 against 3.6.0: the pipeliner's outputs agree once spelled alike, and the note says what was set
    aside."""
    found = pass_divergence(_dump("3.5.0"), _dump("3.6.0"))
    assert found.level == "none", (found.pass_name, found.effect)
    assert "set aside as two spellings of one IR: contiguity hints on async copies and buffer operations, memdesc " \
        "allocation shapes" in found.note


AITER = "unified_attention_2d.gfx950.buffer-ops"


def test_the_aiter_kernels_ttgir_is_one_ir_under_triton_3_6_and_3_7():
    """ROCm/aiter#4137 says the TTGIR is identical: it is, once 3.7's value names and buffer-op hints are set aside."""
    (in_a, out_a), (in_b, out_b) = (_pipeline(_dump(v, AITER), "tritonamdgpu-convert-buffer-ops")
                                    for v in ("3.6.0", "3.7.0"))
    # 3.7 names the binary search's loop arguments after the source (left, right); 3.6 after the first use.
    assert "scf.while (%seq_idx_122 = %c0_i32, %seq_idx_123 = %num_seqs)" in in_a
    assert "scf.while (%left = %c0_i32, %right_122 = %num_seqs)" in in_b
    assert in_a != in_b and rename_values(in_a) == rename_values(in_b)
    assert "{contiguity = " not in out_a and out_b.count("{contiguity = ") == 4
    (same_a, used_a), (same_b, used_b) = respell(out_a), respell(out_b)
    assert used_a == frozenset() and used_b == {CONTIGUITY}
    assert rename_values(same_a) == rename_values(same_b)
    found = pass_divergence(_dump("3.6.0", AITER), _dump("3.7.0", AITER))
    assert found.level == "none", (found.pass_name, found.effect)
    assert VALUE_NAMES in found.note and CONTIGUITY in found.note


def test_renaming_keeps_one_value_apart_from_two():
    assert rename_values("%x = arith.addf %a_1, %a_1 : f32") != rename_values("%x = arith.addf %a_1, %b_2 : f32")
    assert rename_values("%x = arith.addf %a_1, %b_2 : f32") == rename_values("%y = arith.addf %p, %q : f32")


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
