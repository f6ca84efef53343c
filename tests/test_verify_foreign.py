"""`verify` and `loops` on kernels nobody here wrote (issue 26 items 6 and 7).

tests/data/verify_foreign/captures.tar.gz holds, without the libraries' source text and LLVM IR (README.md there
says how they were made): Liger-Kernel 0.8.5's `_triton_rope` and fla-core 0.6.0's `chunk_fwd_kernel_h` (config
29) and `chunk_gla_fwd_A_kernel_intra_sub_inter` (config 0), compiled for gfx942, and the layer-norm backward
`_layer_norm_bwd_dx_fused` of Triton's tutorial 05-layer-norm for sm90 and gfx942. The sm90 `_triton_rope`
comes from tests/data/perf_foreign/fit (compiled on an H200 by Triton 3.6).

Each rope line 69/70 `tl.load` becomes two loads at one source position, in two layouts (the value is used in
two layouts); fla's line 138 (`b_gk_last`) likewise, one of them pipelined by AMD's stream pipeliner and one
not. Line info names a position, not an op, so the machine instructions of the two mix: the width check bounds
them by the widest layout of the position, and a load stream is one line in one layout.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from irscope.analysis.layouts.access_widths import access_widths, describe_access
from irscope.analysis.loops import capture_loops
from irscope.analysis.verify import verify_capture
from irscope.store.store import Capture, Store
from irscope.views.loops_text import loops_json, render_loops
from tests.conftest import invoke
from tests.derived_cache import open_with_derived

DATA = Path(__file__).resolve().parent / "data"
ROPE_AMD = "_triton_rope-gfx942-c0-p-7cb85f6e9038059af793"
ROPE_H200 = "_triton_rope-sm90-c0-p-4fb6d5df7bf50273a8b1"
GLA_H = "chunk_fwd_kernel_h-gfx942-c29-p-78ece4d93498a553bc24"
GLA_A = "chunk_gla_fwd_A_kernel_intra_sub_inter-gfx942-c0-p-27b6ef9cf65bfc5df1ed"
LN_SM90 = "_layer_norm_bwd_dx_fused-sm90-c0-p-59b4d3c68b66b53a8fba"
LN_AMD = "_layer_norm_bwd_dx_fused-gfx942-c0-p-c30e7433980847ff8fd2"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    found = Store(tmp_path_factory.mktemp("verify_foreign") / "store")
    open_with_derived(DATA / "verify_foreign" / "captures.tar.gz", found)
    open_with_derived(DATA / "perf_foreign" / "fit" / "captures.tar.gz", found)
    return found


def _get(store: Store, key: str) -> Capture:
    capture = store.get(key)
    assert capture is not None, key
    return capture


@pytest.mark.parametrize("key", [ROPE_AMD, ROPE_H200, GLA_H, GLA_A])
def test_foreign_captures_verify_without_disagreement(store: Store, key: str) -> None:
    found = verify_capture(_get(store, key))
    assert [(f.topic, f.claim, f.evidence) for f in found.disagreements] == []
    assert not [f for f in found.findings if f.topic == "files" and f.status != "agree"]


@pytest.mark.parametrize("key", [ROPE_AMD, ROPE_H200])
def test_rope_loads_of_one_position_are_bounded_by_their_widest_layout(store: Store, key: str) -> None:
    capture = _get(store, key)
    at_69 = [a for a in access_widths(capture) if a.kind == "load" and a.loc and a.loc.line == 69]
    # Two loads of line 69 in two layouts: one allows 16 bytes, the other half that; the machine code holds both.
    assert len(at_69) == 2 and {a.same_position for a in at_69} == {2}
    narrow = min(at_69, key=lambda a: a.allowed_bytes)
    wide = max(at_69, key=lambda a: a.allowed_bytes)
    assert narrow.allowed_bytes < wide.allowed_bytes == 16 == narrow.machine_bytes
    assert narrow.bound_bytes == 16 and narrow.agrees is None and wide.agrees is True
    assert "cannot be told" in describe_access(narrow) and "wider than the layout's run" not in describe_access(narrow)
    widths = [f for f in verify_capture(capture).findings if f.topic == "widths" and "line 69" in f.claim]
    assert {f.status for f in widths} == {"agree"}
    assert any("loads at this source position" in f.evidence for f in widths)


def test_fla_h_line_138_is_two_streams_one_pipelined_as_asked(store: Store) -> None:
    capture = _get(store, GLA_H)
    loop = capture_loops(capture)[0][0]
    at_138 = sorted((s for s in loop.loads if s.line == 138), key=lambda s: s.stages)
    assert capture.manifest.options["num_stages"] == 4
    # The value loaded in the mfma layout is not issued ahead; the one in the blocked layout is, 3 rounds ahead.
    assert [(s.before_loop, s.in_loop, s.stages) for s in at_138] == [(0, 1, 1), (3, 1, 4)]
    assert "parent = #mma" in at_138[0].layout and "parent = #blocked" in at_138[1].layout
    pipeline = [f for f in verify_capture(capture).findings if f.topic == "pipeline" and "line 138" in f.claim]
    assert len(pipeline) == 1 and pipeline[0].status == "agree"
    # 3 copies of 2 buffer_load_dwordx4 before the loop; in it 2 of its own and 1 of the unpipelined load.
    assert "6 global_load instruction(s) before the loop, 3 in it" in pipeline[0].evidence
    assert "(3 copies of 2)" in pipeline[0].evidence
    text = render_loops([loop], "chunk_fwd_kernel_h")
    assert "line 138 (in #ttg.slice<{dim = 1, parent = #mma}>)" in text


def test_fla_a_line_120_two_layouts_issued_alike(store: Store) -> None:
    capture = _get(store, GLA_A)
    loop = capture_loops(capture)[0][0]
    at_120 = [s for s in loop.loads if s.line == 120]
    assert capture.manifest.options["num_stages"] == 2
    assert sorted((s.before_loop, s.in_loop, s.stages) for s in at_120) == [(1, 1, 2), (1, 1, 2)]
    pipeline = [f for f in verify_capture(capture).findings if f.topic == "pipeline" and "line 120" in f.claim]
    assert [f.status for f in pipeline] == ["agree", "agree"]
    assert all("for all 2 loads of line 120" in f.evidence for f in pipeline)


@pytest.mark.parametrize(("key", "stage", "acquire", "release"), [
    (LN_SM90, "ptx", "atom.global.acq_rel.gpu.cas.b32", "atom.global.gpu.acq_rel.exch.b32"),
    (LN_AMD, "amdgcn", "global_atomic_cmpswap", "global_atomic_swap"),
])
def test_layer_norm_backward_spin_lock(store: Store, key: str, stage: str, acquire: str, release: str) -> None:
    loops, _ = capture_loops(_get(store, key))
    assert len(loops) == 1
    loop = loops[0]
    assert loop.line == 46  # while tl.atomic_cas(Lock, 0, 1) == 1: pass   (the source text is not committed)
    evidence = next(e for e in loop.evidence if e.stage == stage)
    assert evidence.in_loop.get("atomic") == 1 and evidence.opcodes["atomic"] == (acquire,)
    lock = loop.lock
    assert lock is not None
    assert (lock.line, lock.release_line, lock.locks, lock.per_program, lock.axis) == (46, 58, 96, "modulo", 0)
    assert lock.acquire == "tt.atomic_cas acq_rel, gpu" and lock.release.startswith("tt.atomic_rmw exch")
    assert lock.address == "Lock + program_id(0) % 96"
    assert dict(lock.release_machine)[stage] == (release,)
    text = render_loops(loops, "bwd")
    assert f"1 x {acquire}" in text
    assert "96 locks" in text and "how many contend is unknown" in text
    # The tutorial launches one program per row: 1151 rows over 96 locks.
    assert "11 to 12 CTAs contend for each" in render_loops(loops, "bwd", grid=(1151, 1, 1))
    assert "11 to 12 CTAs" in loops_json(loops, grid=(1151, 1, 1))["loops"][0]["lock"]["contention"]


def test_loops_cli_grid_gives_the_contention(store: Store) -> None:
    result = invoke("loops", LN_SM90, "--grid", "1151", store=store.root)
    assert result.exit_code == 0, result.output
    assert "spin lock: tt.atomic_cas acq_rel, gpu at line 46" in result.output
    assert "released by tt.atomic_rmw exch, acq_rel, gpu at line 58" in result.output
    assert "96 locks, 96 of them used by the grid's 1151 programs along axis 0: 11 to 12 CTAs contend" in result.output
    bad = invoke("loops", LN_SM90, "--grid", "0", store=store.root)
    assert bad.exit_code != 0 and "--grid" in bad.output and "Traceback" not in bad.output


@pytest.mark.parametrize(("how", "number", "grid", "words"), [
    ("modulo", 96, (1151, 1, 1), "11 to 12 CTAs contend for each"),
    ("modulo", 96, (1151, 2, 1), "22 to 24 CTAs contend for each"),
    ("modulo", 96, (64, 1, 1), "each has a lock of its own, none waits"),
    ("one", 1, (1151, 1, 1), "all 1151 programs contend for it"),
    ("one", 1, None, "all the launch's programs contend for it"),
    ("divide", 4, (100, 1, 1), "25 locks: each shared by 4 consecutive values of program_id(0)"),
    ("divide", 4, None, "how many locks is unknown"),
    ("each", None, (100, 1, 1), "no two programs share one, none waits"),
    ("unknown", None, (100, 1, 1), "contention unknown"),
])
def test_contention_follows_the_address_and_the_grid(store: Store, how: str, number: int | None,
                                                     grid: tuple[int, int, int] | None, words: str) -> None:
    from dataclasses import replace

    from irscope.analysis.spin_locks import contention

    lock = capture_loops(_get(store, LN_SM90))[0][0].lock
    assert lock is not None
    other = replace(lock, per_program=how, locks=number if how in ("modulo", "one") else None,
                    group=number if how == "divide" else None, axis=None if how == "one" else 0)
    assert words in contention(other, grid)


# Captures from the corpus run (benchmarks/corpus, Triton 3.9.0 offline, stripped the same way).
SWEEP = "sweep-sm90-c0-p-2fb0b880f9e88089e2f8"
MERGE = "merge_16x16_to_64x64_inverse_kernel-sm90-c0-p-e7909432d5a0f1edfbb9"
STATE = "_state_passing_fwd_kernel-gfx942-c0-p-e2f8572c04607cf4feb8"
BASED = "fused_chunk_based_fwd_kernel-sm90-c0-p-2e1c5b6080d5928cb710"
DB = "_chunk_state_bwd_db_kernel-gfx942-c0-p-3fc8689daa2be74e9af7"
EMBEDDING = "embedding_kernel-gfx942-c0-p-771ac15b6f31d8aaa407"


@pytest.mark.parametrize("key", [SWEEP, MERGE, STATE, BASED, DB, EMBEDDING])
def test_corpus_captures_verify_without_disagreement(store: Store, key: str) -> None:
    found = verify_capture(_get(store, key))
    assert [(f.topic, f.claim, f.evidence) for f in found.disagreements] == []


def test_volatile_loads_are_global_loads(store: Store) -> None:
    from irscope.analysis.instructions import access_bytes, classify

    # flag_gems' radix-sort sweep spins on `tl.load(status_ptr + ..., volatile=True)` (lines 214, 216):
    # PTX prints them ld.volatile.global.b32 (inside inline asm), a global load like any other.
    capture = _get(store, SWEEP)
    assert "ld.volatile.global.b32" in capture.read("ptx")
    assert classify("ld.volatile.global.b32") == "global_load" and access_bytes("ld.volatile.global.b32") == 4
    assert classify("st.release.gpu.global.b32") == "global_store" and classify("ld.shared.b32") == "shared_load"
    lines = [f for f in verify_capture(capture).findings if f.topic == "lines"
             and f.claim.startswith(("line 214", "line 216"))]
    assert [(f.claim, f.evidence, f.status) for f in lines] == [
        ("line 214: TTGIR has tt.load", "ptx: 1 global load instruction(s) attributed to line 214", "agree"),
        ("line 216: TTGIR has tt.load", "ptx: 1 global load instruction(s) attributed to line 216", "agree")]


def test_fma_dots_are_checked_for_multiply_adds(store: Store) -> None:
    # fla's solve_tril merge kernel: 16x16 fp32 dots (ieee) with a blocked result lower to fma.rn.f32, no mma.
    capture = _get(store, MERGE)
    dots = [f for f in verify_capture(capture).findings if f.topic == "lines" and "tt.dot" in f.claim]
    assert len(dots) == 13 and {f.status for f in dots} == {"agree"}
    assert all("(FMA: its result has a blocked layout)" in f.claim for f in dots)
    by_line = {f.claim.split(":")[0]: f.evidence for f in dots}
    assert by_line["line 301"] == "ptx: 128 multiply-add instruction(s) attributed to line 301"
    assert by_line["line 305"] == "ptx: 64 multiply-add instruction(s) attributed to line 305"


def test_store_of_both_if_arms_merged_by_llvm_is_unchecked(store: Store) -> None:
    # mamba's _state_passing_fwd_kernel: `if c < nchunks - 1: tl.store(out_ptrs, ...) else: tl.store(final_..., ...)`
    # (lines 82, 84); LLVM stores once after the branch, at line 82: line 84 cannot be told, not a disagreement.
    findings = [f for f in verify_capture(_get(store, STATE)).findings if f.topic == "lines" and "store" in f.claim]
    status = {f.claim: (f.status, f.evidence) for f in findings}
    assert status["line 82: TTGIR has amdg.buffer_store"] == (
        "agree", "amdgcn: 5 global store instruction(s) attributed to line 82")
    state, evidence = status["line 84: TTGIR has amdg.buffer_store"]
    assert state == "unchecked"
    assert "other arm of its scf.if has them at line(s) 82" in evidence and "LLVM merges" in evidence


def test_loop_with_mma_v2_dots_and_a_wgmma(store: Store) -> None:
    from irscope.analysis.verify import _family_matches

    # fla's fused_chunk_based forward: five 16-row dots get mma v2, the 256x16 by 16x32 one a wgmma.
    capture = _get(store, BASED)
    loop = capture_loops(capture)[0][0]
    assert loop.mma_ops == 6
    assert loop.mma.startswith("mma.sync (NVIDIA mma v2, instruction tile 16x8) for 5 of the 6 dots; wgmma")
    mma = [f for f in verify_capture(capture).findings if f.topic == "mma"]
    assert [(f.claim, f.status) for f in mma] == [
        ("loop at line 55: 6 dots, 5 mma.sync and 1 wgmma (16x8, 64x32x16 per instruction)", "agree")]
    assert "wgmma.mma_async.sync.aligned.m64n32k16" in mma[0].evidence
    opcodes = ["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
               "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16"]
    assert _family_matches("wgmma", [(64, 32, 16)], opcodes, "ptx") == (True, "")
    assert _family_matches("wgmma", [(64, 64, 16)], opcodes, "ptx") == (False, "")
    assert _family_matches("mma.sync", [(16, 8, None)], opcodes[1:], "ptx") == (False, "")


def test_a_prologue_copy_with_a_constant_false_mask_may_take_fewer_instructions(store: Store) -> None:
    from dataclasses import replace

    from irscope.analysis.verify import lower_listings
    from irscope.analysis.verify_pipeline import check_pipeline

    # mamba's _chunk_state_bwd_db_kernel, 3 stages: nheads_per_program is 1 (Triton specializes it), so the loop
    # runs at most once and the pipeliner's second prologue round has the mask `arith.constant dense<false>`.
    # Every lane of that buffer load reads one out-of-range offset: LLVM merges line 461's two loads into one.
    capture = _get(store, DB)
    loop = capture_loops(capture)[0][0]
    assert [(s.line, s.before_loop, s.in_loop, s.stages, s.masked_off) for s in loop.loads if s.before_loop] == [
        (460, 2, 1, 3, 1), (461, 2, 1, 3, 1)]
    pipeline = {f.claim.split(" load of ")[1].split(" ")[1]: (f.status, f.evidence)
                for f in verify_capture(capture).findings if f.topic == "pipeline"}
    assert pipeline["460"] == ("agree", "amdgcn: 2 global_load instruction(s) before the loop, 1 in it")
    status, evidence = pipeline["461"]
    assert status == "agree" and evidence.startswith("amdgcn: 3 global_load instruction(s) before the loop, 2 in it")
    assert "constant-false mask" in evidence
    # Counted as a live copy, the merged one is short of what the loop's own copy takes.
    listing = lower_listings(capture, sass=False)[0][0]
    live = replace(loop, loads=tuple(replace(s, masked_off=0) for s in loop.loads))
    found = {f.claim: f.status for f in check_pipeline(live, listing, capture.manifest.kernel_path)}
    assert [v for k, v in found.items() if "line 461" in k] == ["disagree"]


def test_a_load_folded_into_its_use_keeps_the_uses_line(store: Store, tmp_path: Path) -> None:
    import shutil

    # flag_gems' embedding_kernel: `row_idx = tl.load(in_ptr)` (line 30, i64) is used as 32 bits at line 31;
    # LLVM's load <2 x i32> keeps line 30, the AMDGPU backend narrows it to `s_load_dword` on the extract (line 31).
    capture = _get(store, EMBEDDING)
    lines = {f.claim: (f.status, f.evidence) for f in verify_capture(capture).findings if f.topic == "lines"}
    status, evidence = lines["line 30: TTGIR has tt.load"]
    assert status == "agree", evidence
    assert evidence.startswith("amdgcn: 0 global load instruction(s) attributed to line 30; 1 at line(s) 31")
    # With line 31's instructions filed elsewhere, nothing is left for the load: it disagrees.
    moved = Store(tmp_path / "store")
    shutil.copytree(capture.path, moved.root / "captures" / EMBEDDING)
    amdgcn = moved.root / "captures" / EMBEDDING / capture.manifest.files["amdgcn"]
    amdgcn.write_text(amdgcn.read_text().replace(".loc\t1 31 5", ".loc\t1 16 1"))
    lines = {f.claim: f.status for f in verify_capture(_get(moved, EMBEDDING)).findings if f.topic == "lines"}
    assert lines["line 30: TTGIR has tt.load"] == "disagree"
