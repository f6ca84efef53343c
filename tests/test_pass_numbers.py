"""Timing rows carry the pass numbers of the pass dump: MLIR's report groups nested pipelines, the dump does not."""

from __future__ import annotations

from irscope.analysis.pass_numbers import number_rows, span, timed_rows
from irscope.analysis.timing import summarize_timing
from irscope.parse.passes import PassSnapshot
from irscope.parse.timing import parse_timing

# As Triton 3.9 printed it for matmul on sm90 (MLIR_ENABLE_TIMING=1), cut to the rows that matter: the inliner's
# canonicalizer runs once per function in a 'tt.func' pipeline, and the canonicalizers that two
# tritongpu-optimize-dot-operands passes ran in 'any' pipelines are both listed under the first.
REPORT = """// -----// irscope compile-begin run=0
// -----// irscope stage-begin ttir t=0.553898
===-------------------------------------------------------------------------===
                         ... Execution time report ...
===-------------------------------------------------------------------------===
  Total Execution Time: 0.0082 seconds

  ----Wall Time----  ----Name----
    0.0017 ( 20.9%)  InlinerPass
    0.0001 (  0.6%)    (A) CallGraph
    0.0011 ( 13.0%)  'tt.func' Pipeline
    0.0011 ( 12.9%)    CanonicalizerPass
    0.0002 (  2.8%)  CanonicalizerPass
    0.0002 (  2.4%)  TritonCombineOps
   -0.0003 ( -3.9%)  Rest
    0.0082 (100.0%)  Total

// -----// irscope stage-end ttir seconds=0.008757 t=0.562709
// -----// irscope stage-begin ttgir t=0.565820
===-------------------------------------------------------------------------===
                         ... Execution time report ...
===-------------------------------------------------------------------------===
  Total Execution Time: 0.0866 seconds

  ----Wall Time----  ----Name----
    0.0058 (  6.7%)  TritonGPUOptimizeDotOperands
    0.0100 ( 11.5%)  'any' Pipeline
    0.0047 (  5.5%)    CanonicalizerPass
    0.0052 (  6.1%)    CanonicalizerPass
    0.0005 (  0.6%)  TritonNvidiaGPUOptimizeDescriptorEncodingPass
    0.0006 (  0.7%)  CanonicalizerPass
    0.0116 ( 13.4%)  TritonGPUPipeline
    0.0011 (  1.3%)  CanonicalizerPass
    0.0065 (  7.5%)  TritonGPUOptimizeDotOperands
    0.0043 (  5.0%)  TritonGPUCoalesceAsyncCopy
    0.0008 (  0.9%)  TritonNvidiaGPUOptimizeTMemLayoutsPass
   -0.0092 (-10.6%)  Rest
    0.0866 (100.0%)  Total

// -----// irscope stage-end ttgir seconds=0.087938 t=0.653806
// -----// irscope compile-end run=0 seconds=1.411357
"""

# The dump's passes in execution order (pass class, name, anchor, stage), as its "IR Dump Before" headers
# name them for the same compile; the last is a pass the report above does not list.
DUMP = [
    ("InlinerPass", "inline", "builtin.module", "ttir"),
    *[("CanonicalizerPass", "canonicalize", "tt.func", "ttir")] * 6,
    ("CanonicalizerPass", "canonicalize", "builtin.module", "ttir"),
    ("TritonCombineOps", "triton-combine", "builtin.module", "ttir"),
    ("TritonGPUOptimizeDotOperands", "tritongpu-optimize-dot-operands", "builtin.module", "ttgir"),
    ("CanonicalizerPass", "canonicalize", "builtin.module", "ttgir"),
    ("TritonNvidiaGPUOptimizeDescriptorEncodingPass", "triton-nvidia-optimize-descriptor-encoding", "builtin.module",
     "ttgir"),
    ("CanonicalizerPass", "canonicalize", "builtin.module", "ttgir"),
    ("TritonGPUPipeline", "tritongpu-pipeline", "builtin.module", "ttgir"),
    ("CanonicalizerPass", "canonicalize", "builtin.module", "ttgir"),
    ("TritonGPUOptimizeDotOperands", "tritongpu-optimize-dot-operands", "builtin.module", "ttgir"),
    ("CanonicalizerPass", "canonicalize", "builtin.module", "ttgir"),
    ("TritonGPUCoalesceAsyncCopy", "tritongpu-coalesce-async-copy", "builtin.module", "ttgir"),
    ("TritonNvidiaGPUOptimizeTMemLayoutsPass", "triton-nvidia-optimize-tmem-layouts", "builtin.module", "ttgir"),
    ("TritonNvidiaGPUTMALoweringPass", "triton-nvidia-tma-lowering", "builtin.module", "ttgir"),
]


def snapshots() -> list[PassSnapshot]:
    return [PassSnapshot(index=i, kind="before", pass_class=c, name=n, options="", anchor=a, symbol="", ir="mlir",
                         stage=s, section=i, input=i, output=i + 1) for i, (c, n, a, s) in enumerate(DUMP)]


def test_nested_pipelines_keep_the_dump_numbers() -> None:
    (run,), problems = parse_timing(REPORT)
    assert not problems
    rows = timed_rows(run.passes)
    assert [r.pipeline for r in rows][:3] == ["", "tt.func", ""]
    numbers = number_rows(rows, snapshots())
    assert [span(n) for n in numbers] == ["0", "1-6", "7", "8", "9", "10", "16", "11", "12", "13", "14", "15", "17",
                                          "18"]
    timing = summarize_timing([run], snapshots())
    by_number = {p.number: p for p in timing.passes}
    for number, row in by_number.items():
        assert number is not None and DUMP[number][:2] == (row.pass_class, row.name)
    assert by_number[13].name == "tritongpu-pipeline" and by_number[17].name == "tritongpu-coalesce-async-copy"
    assert by_number[1].runs == (1, 2, 3, 4, 5, 6) and by_number[16].pipeline == "any"
    assert [(u.number, u.name) for u in timing.untimed] == [(19, "triton-nvidia-tma-lowering")]


def test_a_row_the_dump_lacks_has_no_number() -> None:
    (run,), _ = parse_timing(REPORT)
    timing = summarize_timing([run], [p for p in snapshots() if p.name != "triton-combine"])
    combine = next(p for p in timing.passes if p.pass_class == "TritonCombineOps")
    assert combine.number is None and combine.runs == () and combine.name == "TritonCombineOps"
    assert next(p for p in timing.passes if p.pass_class == "TritonGPUPipeline").number == 13
