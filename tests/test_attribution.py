"""Which half of the compiler a moved fact follows, from the facts of the two sides and of the two swaps
(irscope.analysis.attribution). The numbers are ones irscope measured: SGLang 0.5.9's extend-attention kernel for
gfx950 (the Lq=576 launch of benchmarks/regressions' sglang-extend-attention-gfx950) gets 478 VGPRs and no scratch
spill from Triton 3.6.0 and 360 from 3.7.1, while 3.6.0's LLVM IR through 3.7.1's backend needs 512 and spills 63
VGPRs; aiter's unified attention (148 -> 154) and the tutorial softmax on gfx942 (55 -> 64) are the others."""

from __future__ import annotations

from irscope.analysis.attribution import attribute, exposed


def _one(a, b, a_ir, b_ir=None):
    rows = attribute([("registers", a, b)], {"registers": a_ir} if a_ir is not None else None,
                     {"registers": b_ir} if b_ir is not None else None)
    return rows[0]


def test_a_fact_that_the_swapped_backend_gives_follows_the_backend_and_one_the_ir_keeps_follows_the_ir():
    assert _one(148, 154, 154).follows == "backend"  # aiter's attention, gfx950: 3.6's IR under 3.7's LLVM
    assert _one(55, 64, 55).follows == "ir"  # the tutorial softmax on gfx942, 3.6 against 3.9
    both = _one(100, 200, 150)
    assert both.follows == "both" and both.backend_share == 0.5
    assert _one(478, 360, 512).follows == "neither"  # past either side: the IR and the backend interact


def test_the_two_directions_must_agree():
    assert _one(100, 200, 200, 100).follows == "backend"
    assert _one(100, 200, 100, 200).follows == "ir"
    assert _one(100, 200, 200, 200).follows == "both"
    assert _one(100, 200, None, None).follows == "unknown"


def test_only_machine_code_facts_are_attributed():
    assert attribute([("loops", 1, 2), ("layouts", ["a"], ["b"])], {"loops": 1}, None) == []


def test_a_spill_only_the_swap_makes_is_said():
    a = {"registers": 478, "spills": 0, "spills.sgpr": 32}
    b = {"registers": 360, "spills": 0, "spills.sgpr": 52}
    rows = exposed(a, b, {"registers": 512, "spills": 63, "spills.sgpr": 67}, None)
    assert [(r.fact, r.a, r.a_ir, r.follows) for r in rows] == [("spills", 0, 63, "swap only")]
    assert exposed(a, b, {"spills": 0}, None) == []
