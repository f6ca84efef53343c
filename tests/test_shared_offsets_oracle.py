"""irscope's shared-memory offset functions against Triton's own (`to_linear_layout` of Gluon, Triton >= 3.9).

Triton defines each shared encoding as offset -> tensor coordinate bases; irscope builds the same bases
(irscope.analysis.banks.shared_offsets) to invert them. Every basis is compared, in order, for a seeded sample
of swizzled_shared and nvmma_shared encodings and shapes.
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

import pytest

from irscope.analysis.banks.shared_offsets import shared_offset_map
from irscope.parse.layouts import NVMMASharedLayout, SwizzledSharedLayout
from irscope.store.store import triton_version

if tuple(int(p) for p in triton_version().split(".")[:2] if p.isdigit()) < (3, 9):
    pytest.skip(f"Triton {triton_version()} has no Gluon to_linear_layout for shared layouts", allow_module_level=True)
import triton.experimental.gluon.language as gl
from triton._C.libtriton import gluon_ir, ir

SAMPLES = 300


@pytest.fixture(scope="module")
def builder() -> Any:
    ctx = ir.context()
    ir.load_dialects(ctx)
    return ctx, gluon_ir.GluonOpBuilder(ctx)


def triton_bases(builder: Any, layout: Any, shape: list[int]) -> list[list[int]]:
    _, b = builder
    return [list(v) for v in b.to_linear_layout(layout._to_ir(b), shape).offset_bases]


def test_swizzled_shared_offsets_match_triton(builder: Any) -> None:
    rng = random.Random(17)
    for _ in range(SAMPLES):
        rank = rng.choice((1, 2, 2, 3))
        shape = [rng.choice((1, 2, 4, 8, 16, 32, 64, 128)) for _ in range(rank)]
        if max(shape) == 1:
            continue  # Gluon cannot hold a layout without offset bits
        order = list(rng.choice(list(permutations(range(rank)))))
        vec, per_phase, max_phase = rng.choice((1, 2, 4, 8, 16)), rng.choice((1, 2, 4, 8)), rng.choice((1, 2, 4, 8, 16))
        ours = shared_offset_map(SwizzledSharedLayout(vec=vec, per_phase=per_phase, max_phase=max_phase,
                                                      order=tuple(order)), shape)
        theirs = triton_bases(builder, gl.SwizzledSharedLayout(vec, per_phase, max_phase, order), shape)
        assert [list(b) for b in ours.bases] == theirs, (shape, order, vec, per_phase, max_phase)


def test_nvmma_shared_offsets_match_triton(builder: Any) -> None:
    rng = random.Random(23)
    checked = 0
    while checked < SAMPLES:
        swizzle, bits = rng.choice((0, 32, 64, 128)), rng.choice((8, 16, 32))
        transposed = rng.random() < 0.3
        rank = 2 if transposed else rng.choice((2, 2, 3))
        shape = [rng.choice((1, 2, 4, 8, 16, 32, 64, 128, 256, 512)) for _ in range(rank)]
        contig = 0 if transposed else rank - 1
        rows = 1
        for d in range(rank):
            rows *= min(shape[d], 256) if d != contig else 1
        if max(shape) == 1 or (swizzle and (shape[contig] < 8 * swizzle // bits or rows < 8)):
            continue  # Triton rejects these (a fatal error, not an exception)
        layout = NVMMASharedLayout(swizzling_byte_width=swizzle, transposed=transposed, element_bit_width=bits)
        ours = shared_offset_map(layout, shape)
        theirs = triton_bases(builder, gl.NVMMASharedLayout(swizzle, bits, rank, transposed), shape)
        assert [list(b) for b in ours.bases] == theirs, (swizzle, bits, transposed, shape)
        checked += 1
