"""libdevice's sine/cosine slow paths are left out of the work the performance model counts.

The Llama's rotary-embedding kernel (Inductor, from transformers 4.57.1's LlamaRotaryEmbedding; captured offline
for sm90 with Triton 3.6, committed in tests/data/program_report/captures.tar.gz) computes eight sines and cosines
per element. Each reduces its argument by Payne and Hanek's loop when |x| >= 105615; the PTX branches over it.
Counted as work, those paths made the kernel compute bound at 23.6 us per launch; the H200 ran it in 11.4 us.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from irscope.analysis.perf.slow_paths import slow_paths
from irscope.store.store import Store
from tests.conftest import DATA
from tests.derived_cache import open_with_derived

ROPE = "triton_poi_fused__to_copy_add_bmm_cat_clone_cos_mul_neg_sin_"


@pytest.fixture(scope="module")
def rope(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    store = tmp_path_factory.mktemp("slow-paths")
    open_with_derived(DATA / "program_report" / "captures.tar.gz", Store(store))
    keys = [c.path.name for c in Store(store).captures() if c.path.name.startswith(ROPE)]
    assert len(keys) == 1, keys
    return store, keys[0]


def test_each_slow_path_is_the_range_reduction_the_fast_path_skips(rope: tuple[Path, str]) -> None:
    store, key = rope
    capture = Store(store).get(key)
    assert capture is not None
    ptx = capture.read("ptx")
    lines = ptx.splitlines()
    paths = slow_paths(ptx)
    # one per sine or cosine call the PTX makes: the comparisons against libdevice's 105615.0
    assert len(paths) == ptx.count("0f47CE4780") == 24
    for path in paths:
        branch = lines[path.first - 2]
        assert re.match(r"\s*@%p\d+ bra\s", branch) and "0f47CE4780" in lines[path.first - 3]
        body = "\n".join(lines[path.first - 1:path.last])
        assert "__cudart_i2opi_f" in body and "Loop Header" in body  # the table walk, a loop
        assert "trig_reduction" in lines[path.last]  # the merge block LLVM named after libdevice's function
    # what is left still computes the fast path: x - k * pi/2 with pi/2 in three parts (-pi/2's high part
    # 0fBFC90FDA, then 0fB3A22168, 0fA7C234C5), once per call, outside every slow path
    for part in ("0fBFC90FDA", "0fB3A22168", "0fA7C234C5"):
        kept = [n for n, text in enumerate(lines, 1) if part in text and not any(p.first <= n <= p.last for p in paths)]
        assert len(kept) == 24, part


def test_the_rotary_kernel_is_modelled_at_the_gpus_time_without_them(rope: tuple[Path, str]) -> None:
    from irscope.request.program_report import facts_of

    store, key = rope
    facts = facts_of(str(store), key, "h200", "sm90")
    assert not isinstance(facts, str), facts
    # measured on the H200 (tests/data/program_report/validation.json): 22.82 us per step, 2 launches
    assert 11.41 * 0.75 < facts.predicted_us < 11.41 * 1.25
    assert not any("matches no TTGIR loop" in u for u in facts.uncertain)


def test_odd_text_is_no_slow_path() -> None:
    # a comparison with the limit whose branch skips no table walk, and one whose target lies behind it
    text = """	setp.ltu.f32 	%p2, %r28, 0f47CE4780;
	@%p2 bra 	$L__BB0_8;
	add.f32 	%r1, %r2, %r3;
$L__BB0_8:
$L__BB0_9:
	mov.b64 	%rd54, __cudart_i2opi_f;
	setp.ltu.f32 	%p3, %r28, 0f47CE4780;
	@%p3 bra 	$L__BB0_9;
	@%p3 bra 	$L__BB0_missing;
"""
    assert slow_paths(text) == ()
    assert slow_paths("setp.ltu.f32 %p1, %r1, 0f47CE4780;\n" * 20000 + "@%p1 bra $L;\n") == ()


def test_a_branch_after_other_instructions_and_a_second_call_on_the_same_argument() -> None:
    """As the Llama's rotary-embedding backward kernel has it (Triton 3.6, sm90): ptxas-bound PTX puts another
    comparison and moves between the comparison and its branch, and the sine and cosine of one x share it."""
    text = """	setp.ltu.f32 	%p1, %r21, 0f47CE4780;
	setp.neu.f32 	%p115, %r21, 0f7F800000;
	mov.b32 	%r855, %r927;
	@%p1 bra 	$L__BB0_8;
	@%p115 bra 	$L__BB0_3;
$L__BB0_3:
	mov.b64 	%rd54, __cudart_i2opi_f;
$L__BB0_8:                              // %__internal_trig_reduction_kernel.exit.i.i
	fma.rn.ftz.f32 	%r1, %r2, %r3, %r4;
	@%p1 bra 	$L__BB0_12;
	mov.b64 	%rd55, __cudart_i2opi_f;
$L__BB0_12:
	setp.ltu.f32 	%p1, %r22, 0f3F800000;
	@%p1 bra 	$L__BB0_14;
	mov.b64 	%rd56, __cudart_i2opi_f;
$L__BB0_14:
"""
    # the two paths of x; the third branch's %p1 was written again by another comparison: not a slow path
    assert [(p.first, p.last) for p in slow_paths(text)] == [(5, 7), (11, 11)]
