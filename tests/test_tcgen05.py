"""Blackwell's tcgen05.mma names no shape in its mnemonic: its instruction descriptor does. Issue #40: ``perf matmul
--target sm100`` counted its tcgen05 MMAs as 0 FLOP (compute 0.0 us) and said nothing was uncertain."""

from __future__ import annotations

import pytest

from irscope.analysis.perf.capture import capture_perf
from irscope.analysis.tcgen05 import tcgen05_shapes
from irscope.analysis.verify import verify_capture
from irscope.parse.lineinfo import parse_ptx
from irscope.request.perf_launch import perf_device, perf_shape
from tests.conftest import Captures

pytestmark = pytest.mark.compile


def test_tcgen05_shapes_come_from_the_instruction_descriptor_and_agree_with_the_ttgir(captures: Captures) -> None:
    capture = captures("matmul", "sm100")
    config = capture.manifest.config
    listing = parse_ptx(capture.read("ptx"))
    shapes = tcgen05_shapes(listing.instructions)
    assert shapes and None not in shapes.values()
    # kind::f16 on fp16 operands: K is 256 bits of fp16; M and N are the tensor-memory accumulator's block
    ttgir = capture.read("ttgir")
    assert f"!ttg.memdesc<{config['BLOCK_SIZE_M']}x{config['BLOCK_SIZE_N']}xf32, #tmem" in ttgir
    assert {(s.m, s.n, s.k, s.dtype, s.ctas) for s in shapes.values()} == {
        (config["BLOCK_SIZE_M"], config["BLOCK_SIZE_N"], 16, "fp16", 1)}
    (mma,) = [f for f in verify_capture(capture).findings if f.topic == "mma"]
    assert mma.status == "agree"
    assert f"instruction descriptors m{config['BLOCK_SIZE_M']}n{config['BLOCK_SIZE_N']}k16" in mma.evidence


def test_perf_counts_tcgen05_flops_once_per_cta(captures: Captures) -> None:
    capture = captures("matmul", "sm100")
    request = captures.request("matmul", "sm100")
    device, sm_count = perf_device(None, "sm100", lambda: None)
    report = capture_perf(capture, device, perf_shape(request, None, sm_count, capture.path))
    m, n, k = (request.sizes[s] for s in ("M", "N", "K"))
    assert report.tensor_flops == 2 * m * n * k  # the product, exactly: each MMA issued by one thread of its CTA
    assert report.mma_dtype == "fp16" and report.compute_us > 0
    assert not any("tcgen05" in u for u in report.uncertain)
