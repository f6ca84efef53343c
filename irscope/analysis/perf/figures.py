"""The performance model's figures: latencies, rates and shares it assumes or fitted (each says its fit data)."""

from __future__ import annotations

__all__ = ["DEPENDENT_ISSUE_CYCLES", "DIRTY_L2_SHARE", "DRAM_LATENCY_NS", "ISSUE_PER_SM_CLOCK", "L2_BYTES_PER_SM_CLOCK",
           "L2_HIT_CYCLES",
           "L2_REQUESTS_PER_SM_CLOCK", "LATENCY_MARGIN", "LATENCY_SOL", "LAUNCH_US", "LOCAL_BYTES_PER_SM_CLOCK",
           "REUSE_SKEW", "SHARED_WAVEFRONTS_PER_CLOCK", "SM_PORT_BYTES_PER_CLOCK"]

DRAM_LATENCY_NS = 900.0  # loaded DRAM round trip (H200: softmax 32768x1024 with 24 KB in flight per SM); uncertain
# An L2 hit's round trip for one load (Hopper: about 260 SM cycles in published pointer-chasing microbenchmarks, against
# 33-40 for an L1 hit and 480-600 for an unloaded DRAM access); not fitted here: uncertain
L2_HIT_CYCLES = 260.0
LAUNCH_US = 2.0  # the shortest kernel a GPU timer reports (launch, ramp and drain); uncertain
SM_PORT_BYTES_PER_CLOCK = 64.0  # L2 -> SM bytes per clock one SM can receive (NVIDIA; AMD similar); uncertain
SHARED_WAVEFRONTS_PER_CLOCK = 1.0  # one 128-byte shared-memory wavefront per SM per clock
# Volta to Hopper: 4 schedulers per SM, each issues one warp instruction per clock. The FP32 pipe takes one
# warp FFMA per scheduler per clock too, so in an FMA loop every other instruction costs an FMA's slot.
ISSUE_PER_SM_CLOCK = 4.0
# Cycles before an FP32/integer ALU result can feed the next instruction (Volta to Hopper: 4): a scheduler needs that
# many warps to issue every cycle on dependent code
DEPENDENT_ISSUE_CYCLES = 4.0
LATENCY_MARGIN = 1.5  # a time this much above the plain roofline is called latency-bound
# L2 -> SM bandwidth per SM per clock: the A100's 5120 B/clk L2 over its 108 SMs, assumed per SM on later parts
L2_BYTES_PER_SM_CLOCK = 48.0
# Spill (local) bytes one SM moves to and from the L2 per clock when it spills with a single CTA resident: 0.72
# 32-byte sectors (ncu, H200: matmul 128x256x64 on 4 warps, 207M local sectors in 2.19M cycles per SM), against
# the 48 B the L2 serves per SM when every SM streams; fitted on that one case: uncertain
LOCAL_BYTES_PER_SM_CLOCK = 23.0
# L2 requests (one per warp instruction and 128-byte line) per SM per clock the L2 serves: 0.65 on the H200 (a
# 16x16-tile matmul, 32-byte requests, L2 at 88% of its peak); uncertain elsewhere
L2_REQUESTS_PER_SM_CLOCK = 0.65
# ncu calls a launch latency-bound when no unit reaches this share of its peak; so does the model when the DRAM
# term wins but its access pattern keeps the DRAM below it
LATENCY_SOL = 0.6
# Share of the L2 still holding dirty output lines when a kernel that writes more than that ends: ncu's DRAM writes
# fell 20-27 MB (median 24 MB, 38% of the 60 MiB L2) short of the bytes written on 13 streaming kernels of the
# foreign set (tests/data/perf_foreign), 19-25 MB on the validation's softmax and vector_add; uncertain
DIRTY_L2_SHARE = 0.38
# How many loop iterations apart CTAs that share data read it when all are resident at once (they drift; fla's
# chunk_fwd_kernel_h: 4 V-blocks re-read one k chunk, ncu saw no re-read reach DRAM); uncertain
REUSE_SKEW = 2.0
