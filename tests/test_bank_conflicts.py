"""Shared-memory bank conflicts predicted for real captures, checked against addresses worked out by hand.

The expected numbers are derived here from first principles (the byte address each lane touches, written
out from the layouts Triton printed, and the 32-banks-of-4-bytes rule), not with irscope's layout code.
The kernels are tests/data/kernels/bank_conflicts.py and the bundled matmul and softmax.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import irscope
from irscope.analysis.banks.conflicts import BankReport, SharedAccess, bank_report, predict_bank_conflicts
from irscope.analysis.banks.model import ModelError, instruction_wavefronts, phase_ways, warp_access
from irscope.analysis.banks.shared_offsets import OffsetMap, UnsupportedShared, shared_offset_map
from irscope.analysis.layouts.linear import LinearLayout
from irscope.parse.layouts import parse_layout
from irscope.store.store import Capture
from irscope.views.bank_text import render_bank_report
from tests.conftest import DATA

KERNELS = DATA / "kernels" / "bank_conflicts.py"
FP32 = "fp32[1024]"


def hand_ways(byte_addresses: list[int], nbytes: int) -> int:
    """Wavefronts of one phase, written out plainly: the most distinct 4-byte words that share a bank."""
    words = {w for a in byte_addresses for w in range(a // 4, (a + nbytes - 1) // 4 + 1)}
    banks = Counter(w % 32 for w in words)
    return max(banks.values())


@pytest.fixture(scope="session")
def kernel(shared_store: Path):
    """kernel(function, target) -> a capture of a bank_conflicts.py kernel on 32x32 fp32 tiles."""
    done: dict[tuple[str, str], Capture] = {}

    def get(function: str, target: str = "sm80") -> Capture:
        if (function, target) not in done:
            names = (("a_ptr", "bt_ptr" if "bt" in function else "b_ptr", "c_ptr") if "dot" in function
                     else ("x_ptr", "y_ptr"))
            args = ", ".join(f"{n}={FP32}" for n in names)
            done[(function, target)] = irscope.capture(f"{KERNELS}:{function}", target=target, store=str(shared_store),
                                                       args=args, BLOCK=32)
        return done[(function, target)]

    return get


def source_line(capture: Capture, needle: str) -> int:
    return next(i for i, text in enumerate(capture.read("source").splitlines(), start=1) if needle in text)


def ptx_count(capture: Capture, pattern: str) -> int:
    return len(re.findall(pattern, capture.read("ptx"), re.M))


# -- the bank arithmetic ------------------------------------------------------------------------------

def test_phase_ways_counts_distinct_words_per_bank() -> None:
    assert phase_ways([lane for lane in range(32)]) == 1  # consecutive words: every bank once
    assert phase_ways([lane * 32 for lane in range(32)]) == 32  # a 128-byte stride: all in bank 0
    assert phase_ways([7] * 32) == 1  # one word for everybody: a broadcast
    assert phase_ways([lane * 2 for lane in range(32)]) == 2  # stride of two words: banks 0, 2, ... twice
    assert phase_ways([]) == 0


def test_instruction_wavefronts_split_16_byte_accesses_into_quarter_warps() -> None:
    # 32 lanes, 16 bytes each, contiguous: four phases of 128 bytes, no conflict
    assert instruction_wavefronts([16 * lane for lane in range(32)], 16) == [(4, 4, 1)]
    # a 256-byte stride: the 8 lanes of each quarter hit the same 4 banks: 8-way
    assert instruction_wavefronts([256 * lane for lane in range(32)], 16) == [(32, 4, 8)]
    # predicated-off lanes cost nothing; an all-off phase is not a wavefront
    assert instruction_wavefronts([0] * 8 + [None] * 24, 16) == [(1, 1, 1)]
    # ldmatrix.x4: lanes 8i..8i+7 give the 16-byte rows of matrix i
    rows = [128 * (lane % 8) for lane in range(32)]  # 8 rows 128 bytes apart: same 4 banks
    assert instruction_wavefronts(rows, 4, matrices=4) == [(32, 4, 8)]


def test_a_column_read_is_32_way_unpadded_and_4_way_with_4_words_of_padding_per_row() -> None:
    # lane l reads element (l, 0) of a 64x32 fp32 buffer: rows are 32 words long, so every lane hits bank 0
    column = LinearLayout.from_bases({"register": [], "lane": [(1, 0), (2, 0), (4, 0), (8, 0), (16, 0)],
                                      "warp": [], "block": []}, ["dim0", "dim1"], sizes=[64, 32])
    plain = shared_offset_map(parse_layout("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, "
                                           "order = [1, 0]}>"), (64, 32))
    assert hand_ways([32 * 4 * lane for lane in range(32)], 4) == 32
    assert warp_access(column, plain, 4, 4).worst_ways == 32
    # 4 words of padding after every 32: row r starts at word 36 r, bank 4 r % 32: rows r and r + 8 share a bank
    padded = shared_offset_map(parse_layout("#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 32]}>"), (64, 32))
    assert [padded.offset((r, c)) for r, c in ((0, 0), (1, 0), (1, 31), (5, 1))] == [0, 36, 67, 181]
    assert hand_ways([36 * 4 * lane for lane in range(32)], 4) == 4
    model = warp_access(column, padded, 4, 4)
    assert (model.worst_ways, model.wavefronts, model.conflicts) == (4, 4, 3)


# -- real captures ------------------------------------------------------------------------------------



def accesses(report: BankReport, op: str) -> list[SharedAccess]:
    return [a for a in report.accesses if a.op == op]


@pytest.mark.compile
def test_fma_dot_with_k_contiguous_b_is_8_way_as_the_lane_addresses_say(kernel) -> None:
    cap = kernel("fma_dot_bt_kernel")
    ttgir = cap.read("ttgir")
    # What Triton chose (the hand derivation below rests on these): B is read from an unswizzled buffer whose
    # dim0 (K) is contiguous, into registers where lane bits 0-3 walk N two columns at a time (bit 4 walks M).
    assert "#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>" in ttgir
    assert ("#blocked1 = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], "
            "order = [1, 0]}>") in ttgir
    # B[k][n] lives at element n * 32 + k. ld.shared.v4 reads 4 consecutive k for one n; lane l's first n is
    # 2 * (l % 16). The 8 lanes of a quarter-warp are 2 * 32 * 4 = 256 bytes apart: one group of 4 banks.
    quarter = [(2 * (lane % 16) * 32 + 0) * 4 for lane in range(8)]
    assert hand_ways(quarter, 16) == 8
    per_thread_loads = 2 * 32 // 4  # 2 columns of N x 32 values of K, 4 per instruction
    expected_per_cta = per_thread_loads * 4 * (8 - 1) * 4  # instructions x quarters x extra wavefronts x warps

    report = predict_bank_conflicts(cap, with_sass=True)
    line = source_line(cap, "tl.dot(a, tl.trans(bt)")
    b_load = next(a for a in accesses(report, "ttg.local_load") if "opIdx = 1" in a.register_layout
                  or a.ways > 1)
    assert (b_load.kind, b_load.ways, b_load.verdict) == ("N-way", 8, "8-way")
    assert b_load.where == f"bank_conflicts.py:{line}" and b_load.loc is not None and b_load.loc.line == line
    assert b_load.instructions == ("ld.shared.v4.b32",) and b_load.counter == "ld" and b_load.sass == ("LDS.128",)
    assert b_load.instructions_per_warp == per_thread_loads == b_load.ptx_count
    assert b_load.wavefronts_per_instruction == 32 and b_load.ideal_wavefronts_per_instruction == 4
    assert b_load.conflicts_per_instruction == 28
    assert b_load.conflicts_per_cta == expected_per_cta == 1792
    assert "order = [0, 1]" in b_load.encoding
    # the PTX's own address arithmetic, evaluated for all 128 threads, agrees
    assert b_load.ptx_ways == 8 and b_load.ptx_conflicts_per_cta == expected_per_cta
    # A is read along K by lanes that share their row (broadcast): conflict-free; so are the stores
    others = [a for a in report.accesses if a is not b_load]
    assert others and all(a.kind == "conflict-free" and a.ptx_ways == 1 for a in others), others
    assert report.conflicts_per_cta("ld") == 1792 and report.conflicts_per_cta("st") == 0
    text = render_bank_report(report, "fma_dot_bt_kernel")
    assert f"bank_conflicts.py:{line}" in text and "8-way" in text and "+1792" in text and "SASS LDS.128" in text


@pytest.mark.compile
def test_wide_fma_dot_is_8_way_with_every_lane_distinct(shared_store: Path) -> None:
    """16x256x64: all 32 lanes walk N, so no two quarter-warps repeat addresses (no broadcast to argue about)."""
    cap = irscope.capture(f"{KERNELS}:fma_dot_bt_wide_kernel", target="sm80", store=str(shared_store),
                          args="a_ptr=fp32[16384], bt_ptr=fp32[16384], c_ptr=fp32[16384]", BM=16, BN=256, BK=64)
    ttgir = cap.read("ttgir")
    assert ("#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], "
            "order = [1, 0]}>") in ttgir
    # B[k][n] at element n * 64 + k; lane l holds n = 4 l .. 4 l + 3 and reads 4 consecutive k of one n:
    # the 8 lanes of a quarter-warp are 4 * 64 * 4 = 1024 bytes apart, all 32 lanes' addresses differ.
    lanes = [(4 * lane * 64) * 4 for lane in range(32)]
    assert len(set(lanes)) == 32 and all(hand_ways(lanes[q:q + 8], 16) == 8 for q in range(0, 32, 8))
    per_thread = 4 * 64 // 4  # (N 128 per warp / 32 lanes = 4 columns) x 64 K, 4 per instruction
    report = predict_bank_conflicts(cap)
    b_load = [a for a in accesses(report, "ttg.local_load") if a.ways > 1]
    assert len(b_load) == 1 and b_load[0].ways == 8 and b_load[0].instructions_per_warp == per_thread
    assert b_load[0].conflicts_per_cta == per_thread * 4 * 7 * 4 == 7168  # instructions x quarters x extra x warps
    assert b_load[0].ptx_conflicts_per_cta == 7168


@pytest.mark.compile
def test_fma_dot_with_n_contiguous_b_is_conflict_free(kernel) -> None:
    cap = kernel("fma_dot_kernel")
    report = predict_bank_conflicts(cap)
    loads = accesses(report, "ttg.local_load")
    assert len(loads) == 2 and all(a.kind == "conflict-free" and a.ways == 1 for a in loads)
    # B[k][n] at element k * 32 + n: a half-warp's 16 lanes read 8 bytes each at n = 2 * lane: 128 bytes in a row
    assert hand_ways([2 * lane * 4 for lane in range(16)], 8) == 1
    b_load = next(a for a in loads if a.instructions == ("ld.shared.v2.b32",))
    assert b_load.ideal_wavefronts_per_instruction == 2 and b_load.conflicts_per_cta == 0


@pytest.mark.compile
def test_matmul_sm80_ldmatrix_from_swizzled_shared_is_conflict_free(captures) -> None:
    cap = captures("matmul", "sm80")
    ttgir = cap.read("ttgir")
    assert "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>" in ttgir
    # By hand: one 8x8 matrix of A's 128x64 fp16 tile is 8 rows of 16 bytes; row r keeps its 16-byte chunk c at
    # chunk c ^ (r % 8) of its 128-byte row, so the rows of chunk 0 sit in 8 different groups of 4 banks.
    rows = [r * 128 + ((0 ^ (r % 8)) * 16) for r in range(8)]
    assert hand_ways(rows, 16) == 1
    unswizzled = [r * 128 for r in range(8)]
    assert hand_ways(unswizzled, 16) == 8  # what the swizzle avoids

    report = predict_bank_conflicts(cap)
    loads = accesses(report, "ttg.local_load")
    assert len(loads) == 10
    # 16 are the epilogue's
    per_op = ptx_count(cap, r"^\s*ldmatrix\.sync\.aligned\.m8n8\.x4(?:\.trans)?\.shared\.b16") - 16
    for load in loads:
        assert load.instructions[0].startswith("ldmatrix.sync.aligned.m8n8.x4"), load
        assert (load.kind, load.ways, load.ptx_ways) == ("conflict-free", 1, 1), load
        assert load.instructions_per_warp * len(loads) == per_op
        assert load.wavefronts_per_instruction == 4 and load.conflicts_per_cta == 0
    assert {a.loop_line is not None for a in loads} == {True, False}  # the prologue's and the loop's
    copies = accesses(report, "ttg.async_copy_global_to_local")
    assert copies and all(a.kind == "conflict-free" and a.counter == "ldgsts" for a in copies)
    epilogue = accesses(report, "ttg.convert_layout")
    assert {a.direction for a in epilogue} == {"load", "store"}
    assert all("scratch buffer" in a.reason and "evaluated from the PTX" in a.reason for a in epilogue)


@pytest.mark.compile
def test_matmul_sm90_wgmma_operands_are_conflict_free_by_construction(captures) -> None:
    cap = captures("matmul", "sm90")
    report = predict_bank_conflicts(cap)
    dots = accesses(report, "ttng.warp_group_dot")
    assert len(dots) == 1 and dots[0].kind == "conflict-free" and dots[0].counter == ""
    assert "async proxy" in dots[0].reason and "nvmma_shared" in dots[0].encoding + cap.read("ttgir")
    # the cp.async writes into the 128-byte-swizzled nvmma_shared buffers: 16 bytes per lane, 4 phases
    copies = accesses(report, "ttg.async_copy_global_to_local")
    assert copies and all(a.kind == "conflict-free" and a.lane_bytes == 16 and a.ptx_ways == 1 for a in copies)
    assert "wgmma.mma_async" in cap.read("ptx")


@pytest.mark.compile
def test_softmax_local_load_and_reduction_scratch(captures) -> None:
    cap = captures("softmax", "sm90")
    report = predict_bank_conflicts(cap)
    load = accesses(report, "ttg.local_load")
    assert len(load) == 1 and load[0].instructions == ("ld.shared.v4.b32",) and load[0].kind == "conflict-free"
    reduces = accesses(report, "tt.reduce")
    assert reduces, [a.op for a in report.accesses]
    # the cross-warp reductions write one partial per warp and read them back: every lane of a warp stores to
    # the same word, the readers take consecutive words; the PTX's arithmetic says so for all 256 threads
    assert all(a.kind == "conflict-free" and a.ptx_ways == 1 for a in reduces), reduces
    assert all(a.where.startswith("softmax.py:") for a in reduces)


@pytest.mark.compile
def test_old_dialect_spelling_gives_the_same_prediction(kernel) -> None:
    cap = kernel("fma_dot_bt_kernel")
    new = bank_report(cap.read("ttgir"), cap.read("ptx"), cap.manifest.kernel_path)
    old_text = (cap.read("ttgir").replace("#ttg.swizzled_shared<", "#triton_gpu.shared<")
                .replace("#ttg.", "#triton_gpu.").replace(" ttg.", " triton_gpu.").replace("!ttg.", "!tt."))
    assert "#triton_gpu.shared<{vec = 1" in old_text
    old = bank_report(old_text, cap.read("ptx"), cap.manifest.kernel_path)
    assert [(a.op, a.ways, a.conflicts_per_cta) for a in old.accesses] == [
        (a.op, a.ways, a.conflicts_per_cta) for a in new.accesses]


@pytest.mark.compile
def test_an_unreadable_shared_encoding_is_unknown_with_the_reason(kernel) -> None:
    cap = kernel("fma_dot_bt_kernel")
    text = cap.read("ttgir").replace("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>",
                                     "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 0]}>")
    report = bank_report(text, cap.read("ptx"), cap.manifest.kernel_path)
    b_load = [a for a in report.accesses if a.op == "ttg.local_load"][1]
    assert "layout #shared1 could not be read" in b_load.reason and "not a permutation" in b_load.reason
    # the PTX's own address arithmetic still says what the machine does, and becomes the prediction
    assert (b_load.kind, b_load.ways, b_load.ptx_ways) == ("N-way", 8, 8)
    assert "evaluated from the PTX" in b_load.reason
    without_ptx = bank_report(text, None, cap.manifest.kernel_path)
    b_load = [a for a in without_ptx.accesses if a.op == "ttg.local_load"][1]
    assert (b_load.kind, b_load.ways, b_load.verdict) == ("unknown", 0, "unknown")


def test_amd_targets_are_unknown_not_guessed() -> None:
    text = (DATA / "layouts").glob("*gfx942*.ttgir")
    for path in text:
        report = bank_report(path.read_text(), None)
        assert all(a.kind in ("unknown", "conflict-free") for a in report.accesses)
        assert all("AMD" in a.reason for a in report.accesses if a.kind == "unknown" and a.op.startswith("ttg.local"))


def test_the_analysis_reads_text_without_triton_or_torch() -> None:
    import subprocess
    import sys

    code = ("import sys; from pathlib import Path; from irscope.analysis.banks.conflicts import bank_report; "
            f"d = Path({str(DATA / 'bank')!r}); "
            "r = bank_report((d / 'fma_dot_bt.sm80.ttgir').read_text(), (d / 'fma_dot_bt.sm80.ptx').read_text()); "
            "assert max(a.ways for a in r.accesses) == 8; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('triton', 'torch')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr


def test_report_fields_are_plain_data() -> None:
    fields = set(SharedAccess.__dataclass_fields__)
    assert {"op", "loc", "where", "instructions", "encoding", "ways", "kind", "reason",
            "wavefronts_per_instruction", "conflicts_per_cta", "counter"} <= fields


# -- properties ---------------------------------------------------------------------------------------

_POW2 = st.sampled_from([1, 2, 4, 8, 16, 32])


@st.composite
def swizzled_buffers(draw: st.DrawFn) -> tuple[OffsetMap, tuple[int, int]]:
    shape = (draw(st.sampled_from([1, 2, 4, 8, 16, 32, 64])), draw(st.sampled_from([1, 2, 4, 8, 16, 32, 64])))
    text = (f"#ttg.swizzled_shared<{{vec = {draw(_POW2)}, perPhase = {draw(_POW2)}, maxPhase = {draw(_POW2)}, "
            f"order = {draw(st.sampled_from(['[1, 0]', '[0, 1]']))}}}>")
    if draw(st.booleans()):
        text = (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {draw(st.sampled_from([0, 32, 64, 128]))}, transposed = "
                f"{draw(st.sampled_from(['false', 'true']))}, "
                f"elementBitWidth = {draw(st.sampled_from([8, 16, 32]))}}}>")
    try:
        return shared_offset_map(parse_layout(text), shape), shape
    except UnsupportedShared:
        return shared_offset_map(parse_layout("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, "
                                              "order = [1, 0]}>"), shape), shape


@st.composite
def register_layouts(draw: st.DrawFn, shape: tuple[int, int]) -> LinearLayout:
    """Any linear register layout over `shape`: random bases (zeros and repeats allowed)."""
    coords = st.tuples(st.integers(0, shape[0] - 1), st.integers(0, shape[1] - 1))
    regs = draw(st.lists(coords, max_size=6))
    lanes = draw(st.lists(coords, min_size=5, max_size=5))
    warps = draw(st.lists(coords, max_size=3))
    return LinearLayout.from_bases({"register": regs, "lane": lanes, "warp": warps, "block": []},
                                   ["dim0", "dim1"], sizes=list(shape))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), element=st.sampled_from([1, 2, 4, 8]), lane_bytes=st.sampled_from([1, 2, 4, 8, 16]),
       matrices=st.sampled_from([0, 0, 1, 2, 4]))
def test_ways_stay_between_1_and_32_and_odd_inputs_never_crash(data: st.DataObject, element: int, lane_bytes: int,
                                                               matrices: int) -> None:
    offsets, shape = data.draw(swizzled_buffers())
    layout = data.draw(register_layouts(shape))
    try:
        model = warp_access(layout, offsets, element, lane_bytes, matrices)
    except ModelError:
        return  # said why, as it should
    assert 1 <= model.worst_ways <= 32
    assert model.wavefronts >= model.ideal >= 1
    assert model.conflicts == model.wavefronts - model.ideal >= 0


@settings(max_examples=200, deadline=None)
@given(addresses=st.lists(st.one_of(st.none(), st.integers(0, 1 << 16)), min_size=1, max_size=96),
       lane_bytes=st.sampled_from([1, 2, 4, 8, 16]), matrices=st.sampled_from([0, 1, 2, 4]))
def test_per_instruction_wavefronts_stay_in_range(addresses: list[int | None], lane_bytes: int, matrices: int) -> None:
    for wavefronts, ideal, worst in instruction_wavefronts(addresses, lane_bytes, matrices):
        assert 0 <= worst <= 32 and ideal <= wavefronts
        assert worst >= 1 or wavefronts == 0


@settings(max_examples=60, deadline=None)
@given(junk=st.text(alphabet="{}<>[]=,#0123456789abcdefvecorperPhasmxdtl_ .", max_size=60))
def test_odd_encoding_text_in_a_real_module_never_crashes(junk: str) -> None:
    text = (DATA / "bank" / "fma_dot_bt.sm80.ttgir").read_text()
    ptx = (DATA / "bank" / "fma_dot_bt.sm80.ptx").read_text()
    odd = text.replace("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>",
                       f"#ttg.swizzled_shared<{junk}>")
    report = bank_report(odd, ptx)
    for access in report.accesses:
        assert access.kind in ("conflict-free", "N-way", "unknown")
        assert (access.ways == 0) == (access.kind == "unknown")
        assert 0 <= access.ways <= 32 and access.reason


# -- the PTX address evaluator --------------------------------------------------------------------------

# PTX in the form Triton prints it: the warp id made uniform by a shuffle, a swizzled 16-byte store, a
# predicated reduction store, and tcgen05.alloc writing the tensor-memory base to shared (a memory operand).
_PTX = """\
	mov.u32 	%r1, %tid.x;
	mov.b32 	%r26, global_smem;
	@%p1 tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r26], 256;
	shr.u32 	%r2, %r1, 5;
	shfl.sync.idx.b32 	%r3, %r2, 0, 31, -1;
	and.b32 	%r4, %r1, 7;
	bfe.u32 	%r5, %r1, 3, 2;
	xor.b32 	%r6, %r5, %r4;
	shl.b32 	%r7, %r6, 4;
	mad.lo.s32 	%r8, %r4, 128, %r7;
	add.s32 	%r9, %r26, %r8;
	st.shared.v4.b32 	[%r9+1024], {%r20, %r21, %r22, %r23};
	and.b32 	%r10, %r1, 31;
	setp.eq.s32 	%p2, %r10, 0;
	shl.b32 	%r11, %r3, 2;
	@%p2 st.shared.b32 	[%r11+49152], %r24;
	ld.shared.b32 	%r12, [%r26];
	neg.s32 	%r13, %r4;
	add.s32 	%r14, %r13, %r4;
	ld.shared.b32 	%r15, [%r14+64];
"""


def test_ptx_addresses_follow_triton_style_integer_code() -> None:
    from irscope.analysis.banks.ptx_addresses import ThreadAddresses, evaluate_addresses
    from irscope.parse.lineinfo import parse_ptx

    listing = parse_ptx(_PTX)
    numbers = [i.number for i in listing.instructions if ".shared" in i.opcode and "alloc" not in i.opcode]
    found = evaluate_addresses(listing.instructions, numbers, 64)
    store, reduce_store, base_load, negated = (found[n] for n in numbers)
    assert isinstance(store, ThreadAddresses) and isinstance(reduce_store, ThreadAddresses)
    for t in range(64):  # row t % 8 of a 128-byte-row buffer, 16-byte chunk (t / 8 % 4) XOR row
        row, chunk = t % 8, (t >> 3) & 3
        assert store.addresses[t] == 1024 + row * 128 + ((chunk ^ row) << 4)
    # only lane 0 of each warp stores, at the warp's slot
    assert reduce_store.addresses == tuple(49152 + 4 * (t // 32) if t % 32 == 0 else None for t in range(64))
    assert isinstance(base_load, ThreadAddresses) and set(base_load.addresses) == {0}
    assert isinstance(negated, ThreadAddresses) and set(negated.addresses) == {64}  # -x + x, wrapped to 32 bits
    # 8 lanes per phase, rows 0..7 at chunk (q ^ row): 8 different bank groups, no conflict
    assert instruction_wavefronts(store.addresses, 16) == [(4, 4, 1), (4, 4, 1)]


def test_ptx_addresses_say_why_when_they_cannot() -> None:
    from irscope.analysis.banks.ptx_addresses import evaluate_addresses
    from irscope.parse.lineinfo import parse_ptx

    text = "\tld.param.b32 \t%r1, [k_param_0];\n\tld.shared.b32 \t%r2, [%r1];\n"
    listing = parse_ptx(text)
    number = listing.instructions[-1].number
    why = evaluate_addresses(listing.instructions, [number], 32)[number]
    assert isinstance(why, str) and "depends on" in why


@pytest.mark.compile
def test_tma_matmul_stores_pick_their_own_instruction_form(captures) -> None:
    """Two local_stores share a source position, one lowered to st.shared.v4, the other to stmatrix."""
    cap = captures("matmul_tma", "sm90")
    report = predict_bank_conflicts(cap)
    stores = accesses(report, "ttg.local_store")
    assert {a.instructions for a in stores} == {("st.shared.v4.b32",), ("stmatrix.sync.aligned.m8n8.x4.shared.b16",)}
    assert all(a.kind == "conflict-free" and a.ptx_ways == 1 and "nvmma_shared" in a.encoding for a in stores)
    tma = [a for a in report.accesses if a.op.startswith("ttng.async_tma")]
    assert tma and all(a.kind == "conflict-free" and a.counter == "" for a in tma)


@pytest.mark.compile
@pytest.mark.parametrize("config", [1, 3, 6])
def test_layout_model_agrees_with_the_ptx_address_arithmetic_across_matmul_configs(captures, config: int) -> None:
    """Two independent routes to the same addresses: layouts composed with the swizzle, and the PTX's own code."""
    report = predict_bank_conflicts(captures("matmul", "sm80", config))
    modelled = [a for a in report.accesses if a.op.startswith("ttg.") and a.encoding]
    assert modelled
    for access in modelled:
        assert access.kind != "unknown" and access.ptx_ways, access
        assert (access.ways, access.conflicts_per_cta) == (access.ptx_ways, access.ptx_conflicts_per_cta), access


# -- 16-byte accesses: half-warps, broadcast, and the widths ptxas chose --------------------------------


def test_16_byte_phases_are_half_warps_with_one_ideal_wavefront_per_32_words() -> None:
    """Rows of an unswizzled fp32 buffer are 128 bytes: all start at bank 0. Measured with ncu on the H200
    (Triton 3.6, benchmarks/perf_model_validation.py): an LDS.128 whose lanes 0-15 read one row and 16-31 the
    next took 2 wavefronts, 0 conflicts; one whose lanes 0-7, 8-15, 16-23, 24-31 read 4 rows took 4, 2 counted.
    A quarter-warp split would say 4 and 0 for both."""
    two_rows = [128 * (lane // 16) for lane in range(32)]
    # half-warp 0: one 16-byte address (4 words, banks 0-3), a broadcast: 1 wavefront, ideal 1; the same for half 1
    assert hand_ways(two_rows[:16], 16) == 1
    assert instruction_wavefronts(two_rows, 16) == [(2, 2, 1)]
    four_rows = [128 * (lane // 8) for lane in range(32)]
    # half-warp 0: rows 0 and 1, both on banks 0-3: 2 words per bank, 8 distinct words (ideal 1): 2-way
    assert hand_ways(four_rows[:16], 16) == 2
    assert instruction_wavefronts(four_rows, 16) == [(4, 2, 2)]
    # 16 distinct contiguous addresses per half-warp: 64 words, every bank twice, ideal 2: conflict-free
    assert instruction_wavefronts([16 * lane for lane in range(32)], 16) == [(4, 4, 1)]


VARIANTS = Path(__file__).resolve().parent.parent / "benchmarks" / "perf_variants.py"
MATMUL_ARGS = ("a_ptr=fp32[2048,2048], b_ptr=fp32[2048,2048], c_ptr=fp32[2048,2048], M=2048, N=2048, K=2048, "
               "stride_am=2048, stride_bk=2048, stride_cm=2048")


def fp32_matmul(store: Path, bm: int, bn: int, bk: int = 32) -> Capture:
    """perf_variants.matmul_fp32_kernel for sm90 (the perf validation's 'fp32 dot' and 'no swizzle' cases)."""
    return irscope.capture(f"{VARIANTS}:matmul_fp32_kernel", target="sm90", store=str(store), args=MATMUL_ARGS,
                           BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, PRECISION="ieee", num_warps=4, num_stages=2)


@pytest.mark.compile
@pytest.mark.parametrize(("bm", "bn", "rows_per_half", "wavefronts", "conflicts_per_cta"),
                         [(64, 64, 1, 2, 0), (128, 32, 2, 4, 512)])
def test_fma_dot_operand_loads_are_modelled_at_the_width_ptxas_chose(
        shared_store: Path, bm: int, bn: int, rows_per_half: int, wavefronts: int, conflicts_per_cta: int) -> None:
    """The A operand: PTX ld.shared.b32, SASS LDS.128 (ptxas merged 4 consecutive K). ncu on the H200, per CTA and
    loop iteration (1024 CTAs x 64 iterations): 64x64 tiles 0.2 conflicts, 128x32 tiles 512.1 (33,559,828)."""
    cap = fp32_matmul(shared_store, bm, bn)
    ttgir = cap.read("ttgir")
    # lanes per row of the dot's layout: 16 (64x64: lanes 0-15 share a row of A) or 8 (128x32)
    lanes_n = 16 if rows_per_half == 1 else 8
    assert (f"sizePerThread = [4, 4], threadsPerWarp = [{32 // lanes_n}, {lanes_n}], warpsPerCTA = [4, 1], "
            "order = [1, 0]") in ttgir
    assert "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>" in ttgir
    # a warp's tile is (32 / lanes_n) x 4 rows; BM / 4 warps rows per warp: 2 tiles, so each thread holds 8 rows of A
    # x 32 K, 4 K per LDS.128: 64 per warp. The lanes of one instruction read 32 / lanes_n rows (4 rows apart, all
    # on the same 4 banks), rows_per_half of them in each half-warp
    rows = [128 * 4 * (lane // lanes_n) for lane in range(32)]
    assert hand_ways(rows[:16], 16) == rows_per_half
    report = predict_bank_conflicts(cap, with_sass=True)
    a_load = next(a for a in accesses(report, "ttg.local_load") if "opIdx = 0" in a.register_layout)
    assert "LDS.128" in a_load.sass and ptx_count(cap, r"ld\.shared\.b32") > 64  # 4-byte loads in the PTX
    assert a_load.lane_bytes == 16 and a_load.instructions_per_warp == 8 * 32 // 4 == 64
    assert (a_load.wavefronts_per_instruction, a_load.ideal_wavefronts_per_instruction) == (wavefronts, 2)
    assert a_load.conflicts_per_cta == conflicts_per_cta and "ptxas merged" in a_load.reason
    # without the SASS the PTX's 4-byte loads are modelled as before (whole-warp phases)
    plain = next(a for a in accesses(predict_bank_conflicts(cap), "ttg.local_load") if "opIdx = 0" in a.register_layout)
    assert plain.lane_bytes == 4


@pytest.mark.compile
@pytest.mark.parametrize(("function", "conflicts", "wavefronts"),
                         [("fma_dot_bt_kernel", 1792, 2304), ("fma_dot_kernel", 0, 512)])
def test_sm90_fma_dots_with_the_sass_match_the_h200(kernel, function: str, conflicts: int, wavefronts: int) -> None:
    """benchmarks/bank_conflicts_gpu.py on the H200 (ncu, Triton 3.6): fma_dot_bt 1792 conflicts and 2304 ld
    wavefronts, fma_dot 0 and
    512. Triton 3.9's PTX loads A with ld.shared.b32 (4-byte, whole-warp phases: 2-way); ptxas makes them LDS.128."""
    cap = kernel(function, "sm90")
    report = predict_bank_conflicts(cap, with_sass=True)
    loads = [a for a in report.accesses if a.counter == "ld"]
    assert report.conflicts_per_cta("ld") == conflicts
    per_launch = [round(a.wavefronts_per_instruction * a.instructions_per_warp * report.num_warps) for a in loads]
    assert sum(per_launch) == wavefronts
