"""A persistent kernel's SM count: ``matmul_tma`` compiles ``NUM_SMS`` in (the step between the tiles one program
walks) and its grid is one program per SM. Issue #40: NUM_SMS was always 132 while the grid followed the modelled
GPU, so on gfx942 (304 CUs) or a B200 (148 SMs) the modelled work was 1.48x the product's, silently."""

from __future__ import annotations

import pytest

from irscope.analysis.perf.capture import capture_perf
from irscope.model.gpus import GPUS, compiled_sm_count
from irscope.request.perf_launch import perf_device, perf_shape
from tests.conftest import Captures

pytestmark = pytest.mark.compile


@pytest.mark.parametrize(("target", "gpu"), [("sm90", "h100"), ("sm100", "b200"), ("gfx942", "mi300x")])
def test_matmul_tma_compiles_num_sms_of_the_modelled_gpu_and_models_the_product_once(
        captures: Captures, target: str, gpu: str) -> None:
    capture = captures("matmul_tma", target)
    assert compiled_sm_count(target) == GPUS[gpu].sm_count
    assert capture.manifest.constexprs["NUM_SMS"] == GPUS[gpu].sm_count
    request = captures.request("matmul_tma", target)
    device, sm_count = perf_device(None, target, lambda: None)
    shape = perf_shape(request, None, sm_count, capture.path)
    report = capture_perf(capture, device, shape)
    m, n, k = (request.sizes[s] for s in ("M", "N", "K"))
    assert report.tensor_flops == 2 * m * n * k  # every tile once: the grid and NUM_SMS agree
    assert shape.origin == f"matmul_tma's grid() for {GPUS[gpu].sm_count} SMs"
