"""Pass dumps from hand-made snippets: headers of each Triton version, indexing, storage, damage."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from irscope.analysis.passes import find_pass, pass_table
from irscope.errors import UsageError
from irscope.parse.passes import classify_header, parse_dump, split_sections
from irscope.store.passdump import DumpReadError, load_dump, scan_dump
from irscope.store.passwrite import index_path, write_dump

MODULE_A = """#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%arg0: !tt.ptr<f32>) {
    %0 = tt.load %arg0 : !tt.ptr<f32> loc(#loc1)
    tt.return
  }
}
#loc1 = loc("k.py":3:4)
"""
MODULE_B = MODULE_A.replace("sizePerThread = [1]", "sizePerThread = [4]")
MODULE_C = MODULE_B.replace("    tt.return", "    %1 = ttg.async_copy_global_to_local %0\n    tt.return")

# The shape of a real worker dump (Triton 3.9 headers, a 3.6-style header, a step), shortened.
SNIPPET = f"""
// -----// irscope compile-begin run=0

// -----// irscope stage-begin ttir t=0.010
// -----// IR Dump Before InlinerPass: inline{{default-pipeline=canonicalize max-iterations=4 }} ('builtin.module' \
operation) //----- //
{MODULE_A}
// -----// IR Dump Before CanonicalizerPass: canonicalize{{max-iterations=10}} ('tt.func' operation: \
@triton.language.standard.cdiv__i32__(1,)cconstexpr_128_) //----- //
{MODULE_A}
// -----// irscope mlir-output ttir
{MODULE_A}
// -----// irscope stage-end ttir seconds=0.010 t=0.020

// -----// irscope stage-begin ttgir t=0.030
// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //
{MODULE_A}
// -----// IR Dump Before TritonGPUPipeline: tritongpu-pipeline{{dump-intermediate-steps=true num-stages=3}} \
('builtin.module' operation) //----- //
{MODULE_B}
// -----// SoftwarePipeliner internal IR Dump After: LowerLoops
{MODULE_C}
// -----// IR Dump Before CanonicalizerPass: canonicalize ('builtin.module' operation) //----- //
{MODULE_C}
// -----// irscope mlir-output ttgir
{MODULE_C}
// -----// irscope stage-end ttgir seconds=0.100 t=0.200
// -----// irscope compile-end run=0 seconds=0.300
// -----// irscope dump-end
"""


@pytest.mark.parametrize(("line", "kind", "name", "options", "anchor", "symbol"), [
    ("// -----// IR Dump Before TritonGPUPipeline: tritongpu-pipeline{dump-intermediate-steps=true num-stages=3} "
     "('builtin.module' operation) //----- //", "before", "tritongpu-pipeline",
     "dump-intermediate-steps=true num-stages=3", "builtin.module", ""),
    ("// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //",
     "before", "tritongpu-coalesce", "", "builtin.module", ""),
    ("// -----// IR Dump Before Canonicalizer (canonicalize) ('tt.func' operation: "
     "@triton.language.standard.cdiv__i32__(1,)cconstexpr_128_) //----- //", "before", "canonicalize", "", "tt.func",
     "triton.language.standard.cdiv__i32__(1,)cconstexpr_128_"),
    ("// -----// IR Dump After TritonGPUPipeline Failed (tritongpu-pipeline) ('builtin.module' operation) //----- //",
     "failed", "tritongpu-pipeline", "", "builtin.module", ""),
    ("// -----// SoftwarePipeliner internal IR Dump After: LowerLoops", "step", "LowerLoops", "", "", ""),
    ("; *** IR Dump After InstCombinePass on matmul_kernel ***", "after", "InstCombinePass", "", "matmul_kernel",
     "matmul_kernel"),
    ("; *** IR Dump After (anonymous namespace)::ExpandMaskedDivRemPass on [module] ***", "after",
     "(anonymous namespace)::ExpandMaskedDivRemPass", "", "[module]", ""),
    ("*** IR Dump After Promote alignment of parameters and return values (NVPTX) (nvptx-promote-param-align) ***",
     "after", "nvptx-promote-param-align", "", "", ""),
    ("# *** IR Dump After NVPTX DAG->DAG Pattern Instruction Selection (nvptx-isel) ***:", "after", "nvptx-isel",
     "", "", ""),
    ("// -----// irscope stage-end ttgir seconds=0.1033 t=2.5", "marker", "", "", "", ""),
    ("// -----// IR Dump Befo", "unknown", "", "", "", ""),
])
def test_headers_of_each_triton_version(line: str, kind: str, name: str, options: str, anchor: str,
                                        symbol: str) -> None:
    h = classify_header(line)
    assert (h.kind, h.name, h.options, h.anchor, h.symbol) == (kind, name, options, anchor, symbol)


def test_snippet_index_links_inputs_outputs_and_steps() -> None:
    index, texts = parse_dump(SNIPPET)
    assert index.complete and not index.problems
    assert [(p.name, p.stage) for p in index.passes] == [
        ("inline", "ttir"), ("canonicalize", "ttir"), ("tritongpu-coalesce", "ttgir"),
        ("tritongpu-pipeline", "ttgir"), ("canonicalize", "ttgir")]
    inline, canon, coalesce, pipeline, last = index.passes
    assert inline.output == canon.input                      # a pass ends where the next one starts
    assert canon.output == index.stage("ttir").output        # ... or at its stage's final IR
    assert "mlir-output ttir" in texts[canon.output].split("\n", 1)[0]
    assert coalesce.output == pipeline.input and pipeline.output == last.input
    assert [s.stage for s in index.stages] == ["ttir", "ttgir"] and index.stage("ttgir").seconds == 0.1
    (step,) = index.steps_of(pipeline.index)
    assert (step.step, step.input, step.output) == ("LowerLoops", pipeline.input, step.section)
    assert pipeline.options == "dump-intermediate-steps=true num-stages=3"


def test_snippet_effects() -> None:
    index, texts = parse_dump(SNIPPET)

    class Source:
        def __init__(self) -> None:
            self.index, self.problems = index, []

        def text(self, section: int) -> str:
            return texts[section]

    rows = {r.label: r for r in pass_table(Source()).rows}
    assert rows["inline"].status == "unchanged" and rows["tritongpu-coalesce"].status == "changed"
    assert rows["tritongpu-coalesce"].summary.startswith("#blocked -> #blocked: blocked spt 4 tpw 32 wpc 4")
    assert "+1 async copy" in rows["tritongpu-pipeline"].summary
    assert "+1 async copy" in rows["tritongpu-pipeline/LowerLoops"].summary
    assert (rows["tritongpu-coalesce"].added, rows["tritongpu-coalesce"].removed) == (1, 1)


def test_truncated_dump_keeps_the_passes_before_it() -> None:
    cut = SNIPPET.index("// -----// SoftwarePipeliner") + 40
    index, _ = parse_dump(SNIPPET[:cut], "dump.txt")
    assert [p.name for p in index.passes][:4] == ["inline", "canonicalize", "tritongpu-coalesce", "tritongpu-pipeline"]
    assert not index.complete
    (problem,) = index.problems
    assert problem.source == "dump.txt" and "inside stage ttgir" in str(problem)
    assert str(problem).startswith(f"dump.txt:{SNIPPET[:cut].count(chr(10)) + 1}: reading stopped here")
    coalesce = index.passes[2]
    assert coalesce.output == index.passes[3].input          # still linked
    assert index.passes[3].output is None                    # its output never came


def test_corrupt_header_is_reported_and_the_chain_kept() -> None:
    broken = SNIPPET.replace("IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation)",
                             "IR Dump Before TritonGPUCoalesce (tritongpu-coa")
    index, _ = parse_dump(broken, "dump.txt")
    (problem,) = index.problems
    line = broken[:broken.index("TritonGPUCoalesce")].count("\n") + 1
    assert str(problem).startswith(f"dump.txt:{line}: unreadable pass header")
    names = [p.name for p in index.passes]
    assert names == ["inline", "canonicalize", "TritonGPUCoalesce", "tritongpu-pipeline", "canonicalize"]
    assert index.passes[2].output == index.passes[3].input


def test_splitter_is_independent_of_chunking(tmp_path: Path) -> None:
    data = SNIPPET.encode()
    whole = split_sections(data)
    rng = random.Random(3)
    for _ in range(5):
        cuts = sorted(rng.sample(range(1, len(data)), 30))
        chunks = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        write_dump(tmp_path, "mlir", chunks, lambda: {"triton_version": "test"})
        dump = load_dump(tmp_path)
        assert dump is not None
        assert [s.header for s in dump.index.sections] == [s.header for s, _ in whole]
        assert [dump.text(s.id) for s in dump.index.sections] == [d.decode() for _, d in whole]
    assert len(list(tmp_path.glob("passes.mlir.*.gz"))) == 1  # older dumps swept away


def stored(tmp_path: Path) -> Path:
    write_dump(tmp_path, "mlir", [SNIPPET.encode()], lambda: {"triton_version": "test"})
    return next(tmp_path.glob("passes.mlir.*.gz"))


def test_truncated_file_names_the_line_and_keeps_what_came_before(tmp_path: Path) -> None:
    gz = stored(tmp_path)
    full = load_dump(tmp_path)
    assert full is not None
    pipeline = find_pass(full.index, "tritongpu-pipeline")
    data = gz.read_bytes()
    gz.write_bytes(data[: json.loads(index_path(tmp_path, "mlir").read_text())["sections"][pipeline.section][3] + 10])
    dump = load_dump(tmp_path)
    assert dump is not None
    (problem,) = dump.problems
    assert str(problem) == f"{gz}:{pipeline.line}: the file is cut short here; the passes before this line are usable"
    assert "tt.func public @k" in dump.body(find_pass(dump.index, "tritongpu-coalesce").input)  # type: ignore[arg-type]
    with pytest.raises(DumpReadError, match=rf"{gz.name}:{pipeline.line}: "):
        dump.text(pipeline.section)
    # Without its index the .gz is read from the start and reading stops at the damage, once.
    index_path(tmp_path, "mlir").unlink()
    scanned = load_dump(tmp_path)
    assert scanned is not None
    (problem,) = scanned.problems
    assert "reading stopped here: the file is cut short" in str(problem) and str(problem).startswith(str(gz))
    assert [p.name for p in scanned.index.passes] == ["inline", "canonicalize", "tritongpu-coalesce"]


def test_damaged_member_is_one_unreadable_pass(tmp_path: Path) -> None:
    gz = stored(tmp_path)
    rows = json.loads(index_path(tmp_path, "mlir").read_text())["sections"]
    dump = load_dump(tmp_path)
    assert dump is not None
    coalesce = find_pass(dump.index, "tritongpu-coalesce")
    offset, length = rows[coalesce.section][3], rows[coalesce.section][4]
    data = bytearray(gz.read_bytes())
    for i in range(offset + 12, offset + length - 8):
        data[i] ^= 0x5A
    gz.write_bytes(bytes(data))
    table = pass_table(load_dump(tmp_path))  # type: ignore[arg-type]
    statuses = {r.label: r.status for r in table.rows}
    assert statuses["tritongpu-coalesce"] == "unreadable" and statuses["canonicalize"] == "unchanged"
    assert statuses["tritongpu-pipeline"] == "changed"
    assert [str(p).split(" (")[0] for p in table.problems] == [f"{gz}:{coalesce.line}: damaged data"]
    assert scan_dump(gz).problems  # reading from the start stops at the damaged member


def test_find_pass_by_index_name_prefix_and_occurrence() -> None:
    index, _ = parse_dump(SNIPPET)
    assert find_pass(index, "3").name == "tritongpu-pipeline"
    assert find_pass(index, "tritongpu-pipe").index == 3
    assert find_pass(index, "TritonGPUCoalesce").index == 2
    assert find_pass(index, "canonicalize:2").index == 4
    assert find_pass(index, "tritongpu-pipeline/LowerLoops").step == "LowerLoops"
    with pytest.raises(UsageError, match=r"canonicalize runs 2 times \(passes 1, 4\)"):
        find_pass(index, "canonicalize")
    with pytest.raises(UsageError, match=r"unknown pass 'tritongpu-pipelined' \(closest: tritongpu-pipeline"):
        find_pass(index, "tritongpu-pipelined")
    with pytest.raises(UsageError, match="ambiguous: tritongpu-coalesce, tritongpu-pipeline"):
        find_pass(index, "tritongpu-")
    with pytest.raises(UsageError, match=r"passes 0\.\.4"):
        find_pass(index, "99")
