"""Per-pass dumps of real compiles (installed Triton, offline): passes, order, stages and effects."""

from __future__ import annotations

import gzip

import pytest
from passes_fixtures import KERNELS, TARGETS, PassDumps, pass_dumps_fixture  # noqa: F401

from irscope.analysis.diff import count_changes, normalize
from irscope.analysis.ir_facts import mlir_facts
from irscope.analysis.passes import PassEffect, PassTable, find_pass
from irscope.parse.passes import parse_dump, section_body
from irscope.request.passdump import cached_pass_table
from irscope.store.passdump import PassDump

pytestmark = pytest.mark.compile


def table_of(dump: PassDump) -> PassTable:
    return cached_pass_table(dump)


def row(table: PassTable, name: str, nth: int = 0) -> PassEffect:
    """The nth run of a pass (not a step)."""
    return [r for r in table.rows if r.name == name and not r.step][nth]


def position(table: PassTable, name: str) -> int:
    return row(table, name).index


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("kernel", KERNELS)
def test_every_dump_is_whole_staged_and_linked(pass_dumps: PassDumps, kernel: str, target: str) -> None:
    dump = pass_dumps(kernel, target)
    index = dump.index
    assert index.complete and not dump.problems
    stages = [s.stage for s in index.stages]
    assert stages == (["ttir", "ttgir", "llir", "ptx", "cubin"] if target.startswith("sm")
                      else ["ttir", "ttgir", "llir", "amdgcn", "hsaco"])
    order = ["ttir", "ttgir", "llir"]
    assert [p.stage for p in index.passes] == sorted((p.stage for p in index.passes), key=order.index)
    first = {s: next(p.name for p in index.passes if p.stage == s) for s in order}
    assert first["ttir"] == "inline" and first["ttgir"] == "convert-triton-to-tritongpu"
    lowering = "convert-triton-gpu-to-llvm" if target.startswith("sm") else "convert-triton-amdgpu-to-llvm"
    assert any(p.name == lowering and p.stage == "llir" for p in index.passes)
    assert all(p.input is not None and p.output is not None for p in index.passes)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("kernel", ["matmul", "vector_add"])
def test_last_pass_of_a_stage_ends_at_the_stage_artifact(pass_dumps: PassDumps, kernel: str, target: str) -> None:
    dump = pass_dumps(kernel, target)
    _, capture = pass_dumps.pair(kernel, target)
    for stage in ("ttir", "ttgir"):
        last = [p for p in dump.index.passes if p.stage == stage][-1]
        assert last.output == dump.index.stage(stage).output  # type: ignore[union-attr]
        assert dump.body(last.output).strip() == capture.read(stage).strip()  # type: ignore[arg-type]
    # The llir stage's MLIR ends in the module handed to LLVM: the LLVM dialect, no TritonGPU ops left.
    last = [p for p in dump.index.passes if p.stage == "llir"][-1]
    final = dump.body(last.output)  # type: ignore[arg-type]
    assert "llvm.func" in final and "ttg.convert_layout" not in final and "scf.for" not in final


def test_effects_are_diffs_between_consecutive_inputs(pass_dumps: PassDumps) -> None:
    dump = pass_dumps("matmul", "sm90")
    with gzip.open(dump.path, "rb") as f:
        index, texts = parse_dump(f.read(), str(dump.path))
    assert [s.header for s in index.sections] == [s.header for s in dump.index.sections]
    table = table_of(dump)
    passes = index.passes
    checked = 0
    for k, p in enumerate(passes[:-1]):
        nxt = passes[k + 1]
        if nxt.stage != p.stage:
            continue
        before = normalize(section_body(texts[p.section]))
        after = normalize(section_body(texts[nxt.section]))
        effect = row_at(table, p.index)
        if texts[p.section].split("\n", 1)[1] == texts[nxt.section].split("\n", 1)[1]:
            assert effect.status == "unchanged"
        else:
            assert (effect.added, effect.removed) == count_changes(before, after)
        checked += 1
    assert checked > 60


def row_at(table: PassTable, index: int) -> PassEffect:
    return next(r for r in table.rows if r.index == index and not r.step)


def test_matmul_sm90_passes_in_order_with_their_effects(pass_dumps: PassDumps) -> None:
    dump = pass_dumps("matmul", "sm90")
    table = table_of(dump)
    accelerate = row(table, "tritongpu-accelerate-matmul")
    pipeline = row(table, "tritongpu-pipeline")
    remove_after = next(r for r in table.rows if r.name == "tritongpu-remove-layout-conversions"
                        and r.index > accelerate.index)
    assert (position(table, "tritongpu-coalesce") < accelerate.index < remove_after.index
            < position(table, "tritongpu-assign-latencies") < position(table, "tritongpu-schedule-loops")
            < pipeline.index < position(table, "convert-triton-gpu-to-llvm"))
    # The tensor-core layout comes from accelerate-matmul: wgmma (nvidia_mma v3) with a 16x256x16 instruction.
    assert "nvidia_mma v3, instrShape 16x256x16" in accelerate.summary
    assert "tt.dot -> ttng.warp_group_dot" in accelerate.summary
    introducing = [p for p in dump.index.passes if "#ttg.nvidia_mma" in dump.body(p.output)  # type: ignore[arg-type]
                   and "#ttg.nvidia_mma" not in dump.body(p.input)]  # type: ignore[arg-type]
    assert [p.name for p in introducing] == ["tritongpu-accelerate-matmul"]
    assert "convert_layout 36 -> 3" in remove_after.summary or "convert_layout" in row(
        table, "tritongpu-remove-layout-conversions").summary
    # The pipeliner turns the K-loop's loads into async copies into 3-deep shared buffers, with waits.
    p = find_pass(dump.index, "tritongpu-pipeline")
    before, after = mlir_facts(dump.body(p.input)), mlir_facts(dump.body(p.output))  # type: ignore[arg-type]
    assert before.count(["ttg.async_copy_global_to_local"]) == 0 < after.count(["ttg.async_copy_global_to_local"])
    assert after.count(["ttg.async_wait"]) > 0
    assert "async copies" in pipeline.summary and "async waits" in pipeline.summary
    assert "3x128x64xf16" in pipeline.summary and "3 stages expanded" in pipeline.summary
    assert [s.step for s in dump.index.steps_of(p.index)] == ["LowerLoops", "ExpandLoops"]
    assert "schedule" in row(table, "tritongpu-schedule-loops").summary
    assert "shared memory 147456 bytes" in row(table, "allocate-shared-memory-nv").summary
    assert "ops llvm +" in row(table, "convert-triton-gpu-to-llvm").summary


def test_a_pass_that_changed_nothing_is_unchanged(pass_dumps: PassDumps) -> None:
    dump = pass_dumps("matmul", "sm90")
    table = table_of(dump)
    effect = row(table, "tritongpu-F32DotTC")
    p = find_pass(dump.index, "tritongpu-F32DotTC")
    assert effect.status == "unchanged" and (effect.added, effect.removed) == (0, 0)
    assert dump.body(p.input) == dump.body(p.output)  # type: ignore[arg-type]
    # vector_add has no loop, so there is nothing to pipeline on any target.
    for target, name in (("sm90", "tritongpu-pipeline"), ("sm80", "tritongpu-pipeline"),
                         ("gfx942", "tritonamdgpu-pipeline")):
        assert row(table_of(pass_dumps("vector_add", target)), name).status == "unchanged"
    assert table.unchanged == sum(1 for r in table.rows if r.status == "unchanged" and not r.step) > 10


def test_matmul_sm80_uses_mma_v2_and_cp_async(pass_dumps: PassDumps) -> None:
    table = table_of(pass_dumps("matmul", "sm80"))
    accelerate = row(table, "tritongpu-accelerate-matmul")
    assert "nvidia_mma v2, instrShape 16x8" in accelerate.summary
    assert "dot operands" not in accelerate.summary or "#mma" in accelerate.summary
    pipeline = row(table, "tritongpu-pipeline")
    assert "async copies" in pipeline.summary and "swizzled_shared" in pipeline.summary
    assert pipeline.index < position(table, "tritongpu-prefetch")
    assert row(table, "tritongpu-prefetch").status == "changed"


def test_matmul_gfx942_uses_mfma_and_the_stream_pipeliner(pass_dumps: PassDumps) -> None:
    table = table_of(pass_dumps("matmul", "gfx942"))
    accelerate = row(table, "tritonamdgpu-accelerate-matmul")
    assert "amd_mfma v3" in accelerate.summary
    schedule, pipeline = row(table, "tritonamdgpu-schedule-loops"), row(table, "tritonamdgpu-pipeline")
    assert accelerate.index < schedule.index < pipeline.index < position(table, "convert-triton-amdgpu-to-llvm")
    assert "loop scheduled in 2 stages" in schedule.summary
    assert "shared buffers +" in pipeline.summary and "2 stages expanded" in pipeline.summary
    assert "amdgpu-shared-memory" in " ".join(r.name for r in table.rows)
    assert not any(r.name.startswith("tritongpu-accelerate") for r in table.rows)


def test_softmax_and_vector_add_facts(pass_dumps: PassDumps) -> None:
    add = table_of(pass_dumps("vector_add", "sm90"))
    assert "+#blocked: blocked spt 1 tpw 32 wpc 4" in row(add, "convert-triton-to-tritongpu").summary
    # Coalescing gives each thread 4 contiguous fp32 (one 16-byte access).
    assert "blocked spt 4 tpw 32 wpc 4" in row(add, "tritongpu-coalesce").summary
    add_amd = table_of(pass_dumps("vector_add", "gfx942"))
    assert "blocked spt 4 tpw 64 wpc 4" in row(add_amd, "tritongpu-coalesce").summary
    softmax = table_of(pass_dumps("softmax", "sm90"))
    assert "loop scheduled in 4 stages" in row(softmax, "tritongpu-schedule-loops").summary
    assert "async copies" in row(softmax, "tritongpu-pipeline").summary
    assert row(softmax, "tritongpu-accelerate-matmul").status == "unchanged"
