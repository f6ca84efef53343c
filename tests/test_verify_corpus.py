"""`verify` on fla-core 0.6.0 kernels the corpus run found disagreeing (issue 26 item 6), captured through the library.

fla-core is pinned in the dev extra (it needs only einops). Each kernel is captured offline as the corpus driver
(benchmarks/corpus/drivers/fla_driver.py, B1 T128 H2 bf16) launched it, and the claim the corpus run's check
contradicted must now agree for the right reason, while a lower stage altered to contradict it still disagrees:

- `parallel_attn_fwd_kernel` (gfx942): its second loop follows the first loop's peeled last iteration, whose dots
  lie before it; they are the first loop's (other source lines), not an iteration LLVM peeled off the second.
- `fused_chunk_based_fwd_kernel` (gfx942): the prologue copy of line 71's load lands in a join block before the
  loop, where LLVM gives it line 0; (sm100) five dots in mma v2 and one tcgen05 MMA, whose M and N are not in
  its mnemonic.
- `chunk_gated_delta_rule_fwd_kernel_h_blockdim64` (gfx942): line info files the prologue copy of line 239's load
  under line 291, and line 247's copy (one address for every lane) is a scalar load.
- `chunk_kda_bwd_kernel_wy_dqkg_fused` (gfx942): the loop at line 223 holds the loop at line 241; the inner loop's
  dots are not the outer loop's.
"""

from __future__ import annotations

import importlib
from dataclasses import replace

# fla decides at import time which GPU it runs on, asking Triton's active driver: imported here, at collection,
# before any test installs irscope's offline driver (that one answers "cuda", and fla would then query torch.cuda).
# Missing, it is a collection error naming the module: it is in the dev extra (pip install -e '.[dev]').
import fla.ops  # noqa: F401
import pytest
import torch

from irscope.analysis.loops import capture_loops
from irscope.analysis.verify import _check_mma, _family_matches, lower_listings, verify_capture
from irscope.analysis.verify_pipeline import check_pipeline, line_of
from irscope.parse.mlir_ops import parse_module
from irscope.store.store import Capture

pytestmark = pytest.mark.compile

B, T, H = 1, 128, 2


def _fla(module: str, name: str) -> object:
    return getattr(importlib.import_module(module), name)


def _bf16(n: int = B * T * H * 64) -> object:
    return torch.empty(n, dtype=torch.bfloat16)


def _f32(n: int = B * T * H * 64) -> object:
    return torch.empty(n, dtype=torch.float32)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("verify_corpus") / "store")


def _based(store: str, target: str) -> Capture:
    import irscope

    kernel = _fla("fla.ops.based.fused_chunk", "fused_chunk_based_fwd_kernel")
    return irscope.capture(kernel, _bf16(4096), _bf16(4096), _bf16(16384), _f32(16384), _f32(256), 0.25, T,
                           target=target, store=store, B=B, H=H, K=16, V=64, BT=16, BK=16, BV=32, num_warps=4,
                           num_stages=2 if target.startswith("gfx") else 3)


def _pipeline(capture: Capture, line: int) -> list[tuple[str, str]]:
    return [(f.status, f.evidence) for f in verify_capture(capture).findings
            if f.topic == "pipeline" and f" load of line {line} " in f.claim]


def _recheck(capture: Capture, loop_line: int, **changes: int) -> list[tuple[str, str, str]]:
    """The pipeline check of one loop again, with its streams' TTGIR counts changed (``line_N=before``)."""
    loop = next(lp for lp in capture_loops(capture)[0] if lp.line == loop_line)
    streams = tuple(replace(s, before_loop=changes.get(f"line_{s.line}", s.before_loop)) for s in loop.loads)
    listing = lower_listings(capture, sass=False)[0][0]
    return [(f.status, f.claim, f.evidence) for f in
            check_pipeline(replace(loop, loads=streams), listing, capture.manifest.kernel_path)]


def test_a_loop_after_another_loops_peeled_iteration_is_not_peeled_itself(store: str) -> None:
    import irscope

    kernel = _fla("fla.ops.attn.parallel", "parallel_attn_fwd_kernel")
    capture = irscope.capture(kernel, _bf16(), _bf16(), _bf16(), _bf16(), None, None, _f32(B * T * H), 0.125, None,
                              None, T, target="gfx942", store=store, W=None, B=B, H=H, HQ=H, G=1, K=64, V=64,
                              BT=128, BS=32, BK=64, BV=64, num_warps=2, num_stages=2)
    for line in (144, 146):
        # The first loop's last iteration (its dots at lines 113 and 132) is peeled behind it, before this loop.
        assert _pipeline(capture, line) == [("agree", "amdgcn: 2 global_load instruction(s) before the loop, 2 in it")]
    # A claim of two rounds ahead is still contradicted.
    assert [s for s, claim, _ in _recheck(capture, 136, line_144=2) if "line 144" in claim] == ["disagree"]


def test_a_prologue_load_llvm_left_at_line_0(store: str) -> None:
    capture = _based(store, "gfx942")
    [(status, evidence)] = _pipeline(capture, 71)
    assert status == "agree", evidence
    assert evidence.startswith("amdgcn: 0 global_load instruction(s) before the loop, 1 in it")
    assert "0 before the loop on their lines and 1 at line 0 (no source line), their copies 1" in evidence
    # Two rounds ahead would need two: the one at line 0 cannot be both.
    [(status, _, evidence)] = [f for f in _recheck(capture, 55, line_71=2) if "line 71" in f[1]]
    assert status == "disagree", evidence


def test_prologue_loads_filed_under_another_line_and_a_scalar_copy(store: str) -> None:
    import irscope

    kernel = _fla("fla.ops.common.chunk_delta_h", "chunk_gated_delta_rule_fwd_kernel_h_blockdim64")
    capture = irscope.capture(kernel, _bf16(), _bf16(), _bf16(), _bf16(), _f32(B * T * H), None, _bf16(), None, None,
                              None, None, T, target="gfx942", store=store, H=H, HV=H, K=64, V=64, BT=64,
                              BV=32, num_warps=2, num_stages=2, USE_G=True, USE_GK=False, USE_INITIAL_STATE=False,
                              STORE_FINAL_STATE=False, SAVE_NEW_VALUE=True, STATE_V_FIRST=False, IS_VARLEN=False)
    [(status, evidence)] = _pipeline(capture, 239)
    assert status == "agree" and evidence.startswith("amdgcn: 0 global_load instruction(s) before the loop, 2 in it")
    [(status, evidence)] = _pipeline(capture, 291)
    assert status == "agree" and evidence.startswith("amdgcn: 6 global_load instruction(s) before the loop, 4 in it")
    assert "together have 12 before the loop on their lines" in evidence
    [(status, evidence)] = _pipeline(capture, 247)
    assert status == "agree" and "scalar loads: the address is the same in every lane" in evidence
    # One more round of line 239 than the machine code has: the pooled count no longer covers it.
    assert [s for s, claim, _ in _recheck(capture, 175, line_239=2) if "line 239" in claim] == ["disagree"]


def test_an_outer_loops_tensor_core_count_leaves_its_inner_loop_out(store: str) -> None:
    import irscope

    kernel = _fla("fla.ops.kda.chunk_bwd", "chunk_kda_bwd_kernel_wy_dqkg_fused")
    bf, f32 = _bf16(), _f32(B * T * H * 64)
    capture = irscope.capture(kernel, bf, bf, bf, bf, f32, _bf16(B * T * H), bf, bf, bf, bf, f32, f32, bf, bf, f32,
                              _f32(B * T * H), f32, None, None, 0.125, T, target="gfx942", store=store, num_warps=2,
                              num_stages=2,
                              H=H, HV=H, K=64, V=64, BT=64, BK=16, BV=16, STATE_V_FIRST=False, IS_VARLEN=False,
                              USE_GRAPH=False)
    counts = {f.claim: (f.status, f.evidence) for f in verify_capture(capture).findings
              if f.topic == "mma" and "instruction(s) per iteration" in f.claim}
    assert counts["loop at line 223: 12 mfma instruction(s) per iteration for the tile(s) of 2 dot(s)"] == (
        "agree", "amdgcn: 12 in the loop")
    assert counts["loop at line 241: 18 mfma instruction(s) per iteration for the tile(s) of 5 dot(s)"] == (
        "agree", "amdgcn: 18 in the loop")
    # The count still fails when the machine code has another number: drop one MFMA of the outer loop's dots.
    loops = capture_loops(capture)[0]
    outer = next(lp for lp in loops if lp.line == 223)
    listing = lower_listings(capture, sass=False)[0][0]
    mfma = next(i for i in listing.instructions if i.opcode.startswith("v_mfma")
                and line_of(i.frames, capture.manifest.kernel_path) == 291)
    fewer = replace(listing, instructions=tuple(i for i in listing.instructions if i is not mfma))
    from irscope.parse.layouts import parse_layouts

    ttgir = capture.read("ttgir")
    found = _check_mma(outer, parse_module(ttgir), parse_layouts(ttgir), fewer)
    assert [(f.status, f.evidence) for f in found if "per iteration" in f.claim] == [
        ("disagree", "amdgcn: 11 in the loop")]


def test_mma_v2_dots_beside_a_tcgen05_mma(store: str) -> None:
    capture = _based(store, "sm100")
    loop = capture_loops(capture)[0][0]
    assert loop.mma.startswith("mma.sync (NVIDIA mma v2, instruction tile 16x8) for 5 of the 6 dots; tcgen05.mma")
    mma = [(f.claim, f.status, f.evidence) for f in verify_capture(capture).findings if f.topic == "mma"]
    # The tcgen05 MMA's instruction: M and N from its tensor-memory block (128x32), K 16 for bf16 (256 bits).
    assert [(c, s) for c, s, _ in mma] == [
        ("loop at line 55: 6 dots, 5 mma.sync and 1 tcgen05.mma (16x8, 128x32x16 per instruction)", "agree")]
    assert "mma.sync.aligned.m16n8k16" in mma[0][2] and "tcgen05.mma.cta_group::1.kind::f16" in mma[0][2]
    opcodes = ["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "tcgen05.mma.cta_group::1.kind::f16"]
    assert _family_matches("tcgen05.mma", [(128, 32, 16)], opcodes, "ptx")[0] is True
    # Without a tcgen05 instruction in the loop the dot's kind is contradicted.
    assert _family_matches("tcgen05.mma", [(128, 32, 16)], opcodes[:1], "ptx") == (False, "")

