"""The regression cases: a kernel from a public report, the library release that ships it, and the two Tritons.

Each case names the report (its address), what the report found in a sentence of ours, the pinned
release the runner downloads with pip (the kernel's code is never copied into this repository), the
file and function inside that release, the launch (example arguments, constexprs, num_warps), and what
the report's own analysis says moved, so the runner can say whether irscope agrees.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Expected:
    """What the report's own analysis names.

    Attributes:
        stage: where the cause lies: ``mlir`` (a TTIR/TTGIR pass), ``backend`` (every MLIR stage equal;
            LLVM, ptxas or the AMD backend) or empty when the report names no cause.
        facts: facts the report says moved (irscope's names: ``registers``, ``spills``, ...), each with ``+``
            (went up from the first Triton to the second) or ``-`` (went down) where the report says which.
    """

    stage: str = ""
    facts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Case:
    """One regression from a public report.

    Attributes:
        name: short name used for files and the table.
        report: the report's address.
        finding: what the report found, in our words.
        versions: the two Tritons the report compares (older first).
        target: the target the report ran on.
        package: the pip requirement that ships the kernel (``sglang==0.5.9``), or the project's name when the
            kernel is read from a commit.
        path: the kernel's file inside that package's wheel.
        module: the file's dotted module name (for its relative imports).
        function: the ``@triton.jit`` function.
        args: ``--args`` example arguments (tensors, scalars, None).
        constexprs: ``--constexpr`` values.
        num_warps: num_warps of the launch.
        num_stages: num_stages of the launch.
        sets: launch options given as ``--set`` (``waves_per_eu``, ``kpack``, ...).
        substitutions: (text, replacement, why) applied to the file before the kernel is taken out of it:
            a value the module computes with torch at import, written as the value it has.
        modules: more files of the release the kernel imports helpers from, made importable as they are
            (their packages' ``__init__`` left empty, so the library's own start-up code does not run).
        stand_ins: module file -> plain values it would compute with torch or a GPU query, for a module
            those files import (``is_nvidia_hopper = True``).
        expected: what the report's own analysis names.
        shape_note: where the launch's sizes come from.
        repo / commit: where the files come from instead of a wheel: the project on GitHub (``ROCm/aiter``) and
            the commit (the kernel as it was on the report's day, when no release on PyPI has it).
    """

    name: str
    report: str
    finding: str
    versions: tuple[str, str]
    target: str
    package: str
    path: str
    module: str
    function: str
    args: str
    constexprs: dict[str, object]
    num_warps: int
    num_stages: int
    sets: dict[str, object] = field(default_factory=dict)
    substitutions: tuple[tuple[str, str, str], ...] = ()
    modules: tuple[str, ...] = ()
    stand_ins: dict[str, str] = field(default_factory=dict)
    expected: Expected = Expected()
    shape_note: str = ""
    repo: str = ""
    commit: str = ""


def _tensors(names: str, dtype: str, size: int = 4096) -> list[str]:
    return [f"{n}={dtype}[{size}]" for n in names.split()]


CASES: tuple[Case, ...] = (
    Case(
        name="gated-delta-rule-h20",
        report="https://github.com/triton-lang/triton/issues/9757",
        finding="Going from Triton 3.5.0 to 3.6.0 made SGLang's Gated Delta Rule forward kernel about 35% slower "
                "on an H20; the report gives timings and a reproducer but no cause.",
        versions=("3.5.0", "3.6.0"), target="sm90",
        package="sglang==0.5.9", path="sglang/srt/layers/attention/fla/chunk_delta_h.py",
        module="sglang.srt.layers.attention.fla.chunk_delta_h",
        function="chunk_gated_delta_rule_fwd_kernel_h_blockdim64",
        args=", ".join([*_tensors("k v w v_new h", "bf16"), "g=fp32[4096]", "gk=None", "initial_state=fp32[4096]",
                        "initial_state_indices=i32[64]", "cu_seqlens=i64[2]", "chunk_offsets=i64[2]", "T=9418"]),
        constexprs={"H": 8, "Hg": 4, "K": 128, "V": 128, "BT": 64, "BV": 32, "USE_G": True, "USE_GK": False,
                    "USE_INITIAL_STATE": True, "INPLACE_UPDATE": True, "SAVE_NEW_VALUE": True,
                    "IS_VARLEN": True},
        num_warps=4, num_stages=2,
        modules=("sglang/srt/layers/attention/fla/op.py",),
        stand_ins={"sglang/srt/layers/attention/fla/utils.py": "is_gather_supported = True\n"
                   "is_nvidia_hopper = True\n"},
        expected=Expected(),
        shape_note="the report's test configuration (T=9418, BT=64, K=V=128, H=8, Hg=4, one sequence given by "
                   "cu_seqlens) with the launch sglang 0.5.9's chunk_gated_delta_rule_fwd_h makes (BV=32, 4 warps, "
                   "2 stages, the state updated in place)",
    ),
    Case(
        name="aiter-unified-attention-gfx950",
        report="https://github.com/ROCm/aiter/issues/4137",
        finding="With the same AITER checkout and kernel source, Triton 3.7.0 makes unified_attention about 4x "
                "slower on gfx950 than 3.6.0; issue 29 cites Triton PR #11249's analysis of the same kernel: "
                "identical TritonGPU IR, 87 spilled values under 3.7's LLVM against 5 under 3.6.",
        versions=("3.6.0", "3.7.0"), target="gfx950",
        package="amd-aiter", repo="ROCm/aiter", commit="a83fc86e646d94c88cd06bba80296d5e1fba9bef",
        path="aiter/ops/triton/_triton_kernels/attention/unified_attention.py",
        module="aiter.ops.triton._triton_kernels.attention.unified_attention",
        function="kernel_unified_attention_2d",
        args=", ".join(["output_ptr=bf16[4096]", "query_ptr=bf16[4096]", "key_cache_ptr=bf16[4096]",
                        "value_cache_ptr=bf16[4096]", "sink_ptr=None", "block_tables_ptr=i32[4096]",
                        "seq_lens_ptr=i32[64]", "alibi_slopes_ptr=None", "qq_bias_ptr=None", "q_descale_ptr=None",
                        "k_descale_ptr=None", "v_descale_ptr=None", "out_scale_ptr=None", "softcap=0",
                        "block_table_stride=256", "query_stride_0=4096", "query_stride_1=64",
                        "output_stride_0=4096", "output_stride_1=64", "qq_bias_stride_0=0",
                        "stride_k_cache_0=32768", "stride_k_cache_1=512", "stride_k_cache_2=64",
                        "stride_v_cache_0=32768", "stride_v_cache_1=512", "stride_v_cache_2=64",
                        "query_start_len_ptr=i32[65]", "num_seqs=8"]),
        constexprs={"scale": 0.125, "num_query_heads": 64, "num_queries_per_kv": 8, "BLOCK_SIZE": 64,
                    "TILE_SIZE": 64, "HEAD_SIZE": 64, "HEAD_SIZE_PADDED": 64, "USE_ALIBI_SLOPES": False,
                    "USE_QQ_BIAS": False, "USE_SOFTCAP": False, "USE_SINKS": False, "SLIDING_WINDOW": 0,
                    "stride_k_cache_3": 1, "stride_v_cache_3": 1, "BLOCK_Q": 16, "BLOCK_M": 128,
                    "ALL_DECODE": False},
        num_warps=4, num_stages=1, sets={"waves_per_eu": 2},
        substitutions=(
            ("float8_info.min", "-448.0", "torch.finfo(torch.float8_e4m3fn).min, computed by torch at import"),
            ("float8_info.max", "448.0", "torch.finfo(torch.float8_e4m3fn).max, computed by torch at import"),
        ),
        expected=Expected(stage="backend", facts=("spills+",)),
        shape_note="the kernel as ROCm/aiter had it on the report's day (commit a83fc86, 2026-07-08; PyPI's newest "
                   "amd-aiter, 0.1.7.post2.dev18 of November 2025, has an older signature); the report's shape is "
                   "not in what we could read, so a gpt-oss-120b prefill (64 query heads, 8 KV heads, head size 64, "
                   "KV blocks of 64, bf16) with the config that commit's select_2d_config picks for a prefill "
                   "(max_seqlen_q >= 256: BLOCK_M=128, BLOCK_Q=16, TILE_SIZE=64, 4 warps, 1 stage, waves_per_eu=2)",
    ),
    Case(
        name="sglang-extend-attention-gfx950",
        report="https://github.com/sgl-project/sglang/pull/34741",
        finding="Under Triton 3.7 on gfx950 SGLang's extend-attention kernel for Lq=576/Lv=512 (64x64 tiles, "
                "4 warps) needs 512 VGPRs instead of 483 and spills (a 472-byte private segment, 186 scratch "
                "loads and stores); prefill takes 130% longer.",
        versions=("3.6.0", "3.7.1"), target="gfx950",
        package="sglang==0.5.17", path="sglang/kernels/ops/attention/extend_attention.py",
        module="sglang.kernels.ops.attention.extend_attention",
        function="_fwd_kernel",
        args=", ".join([*_tensors("Q_Extend K_Extend V_Extend O_Extend", "bf16"), "LSE_Extend=None",
                        *_tensors("K_Buffer V_Buffer", "bf16"), "qo_indptr=i32[9]", "kv_indptr=i32[9]",
                        "kv_indices=i32[4096]", "mask_ptr=None", "mask_indptr=None", "sink_ptr=None",
                        "window_kv_offset_ptr=None", "sm_scale=0.0417", "k_scale=1.0", "v_scale=1.0",
                        "kv_group_num=16", "stride_qbs=9216", "stride_qh=576", "stride_kbs=576", "stride_kh=576",
                        "stride_vbs=512", "stride_vh=512", "stride_obs=8192", "stride_oh=512", "stride_lse_bs=0",
                        "stride_lse_h=0", "stride_buf_kbs=576", "stride_buf_kh=576", "stride_buf_vbs=576",
                        "stride_buf_vh=576", "stride_buf_kpage=576", "stride_buf_ktok=576",
                        "stride_buf_vpage=576", "stride_buf_vtok=576"]),
        constexprs={"SLIDING_WINDOW_SIZE": -1, "logit_cap": 0.0, "xai_temperature_len": -1, "Lq": 576, "Lv": 512,
                    "BLOCK_DMODEL": 512, "BLOCK_DPE": 64, "BLOCK_DV": 512, "BLOCK_M": 64, "BLOCK_N": 64,
                    "USE_CUSTOM_MASK": False, "IS_CAUSAL": True, "SKIP_PREFIX_CUSTOM_MASK": True,
                    "STORE_LSE": False, "SKIP_PREFIX": False, "SKIP_EXTEND": False, "STORE_TRANSPOSE": True,
                    "HAS_SINK": False, "PAGE_SIZE": 1},
        num_warps=4, num_stages=1, sets={"waves_per_eu": 1, "matrix_instr_nonkdim": 16, "kpack": 2},
        expected=Expected(stage="backend", facts=("registers+", "spills+")),
        shape_note="the kernel as sglang 0.5.17 has it (2026-08-08, the release before the PR: the PR changes only "
                   "the block sizes it picks) with the PR's specialization (Lq=576, Lv=512, BLOCK_M=BLOCK_N=64, 4 "
                   "warps) and the launch options sglang passes on HIP (waves_per_eu=1, matrix_instr_nonkdim=16, "
                   "kpack=2); 16 query heads per KV head (MLA), a bf16 KV cache of one token per page (k_scale = "
                   "v_scale = 1.0, no LSE)",
    ),
    Case(
        name="sglang-moe-int4-amd",
        report="https://github.com/sgl-project/sglang/pull/20023",
        finding="SGLang's int4 (w4a16) fused-MoE Triton kernel for Kimi K2.5 on AMD took 2.61 ms with Triton 3.5.0 "
                "and 1.29 ms with 3.6.0 (same kernel, same config); the PR pins the Triton version and names no "
                "compiler cause.",
        versions=("3.5.0", "3.6.0"), target="gfx950",
        package="sglang==0.5.9", path="sglang/srt/layers/moe/fused_moe_triton/fused_moe_triton_kernels.py",
        module="sglang.srt.layers.moe.fused_moe_triton.fused_moe_triton_kernels",
        function="fused_moe_kernel_gptq_awq",
        args=", ".join(["a_ptr=bf16[4096]", "b_ptr=u8[4096]", "c_ptr=bf16[4096]", "b_scale_ptr=bf16[4096]",
                        "b_zp_ptr=None", "topk_weights_ptr=fp32[4096]", "sorted_token_ids_ptr=i32[4096]",
                        "expert_ids_ptr=i32[4096]", "num_tokens_post_padded_ptr=i32[1]", "EM=4096",
                        "num_valid_tokens=2048", "stride_am=7168", "stride_ak=1", "stride_be=14680064",
                        "stride_bk=1", "stride_bn=3584", "stride_cm=4096", "stride_cn=1", "stride_bse=229376",
                        "stride_bsk=1", "stride_bsn=56", "stride_bze=0", "stride_bzk=0", "stride_bzn=0"]),
        constexprs={"N": 4096, "K": 7168, "group_size": 128, "BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64,
                    "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 1, "MUL_ROUTED_WEIGHT": False, "top_k": 8,
                    "compute_type": "bf16", "has_zp": False, "use_int4_w4a16": True,
                    "use_int8_w8a16": False, "even_Ks": True, "filter_expert": True},
        num_warps=4, num_stages=2,
        substitutions=(
            (".to(compute_type)", ".to(tl.bfloat16)", "compute_type is a dtype constexpr, which --constexpr cannot "
             "give; sglang passes tl.bfloat16 for bf16 activations"),
            ("            compute_type,\n", "            tl.bfloat16,\n", "the same dtype, passed on to "
             "write_zeros_to_output"),
        ),
        expected=Expected(),
        shape_note="Kimi K2.5's experts (hidden 7168, 2x2048 gate/up, 8 of 384 experts, int4 weights in groups of "
                   "128) at 256 tokens with a 16x64x128 tile; the PR's exact config is in its attached zip, not "
                   "the thread; gfx950 because the same kernel's regression report, vllm-project/vllm#43153, is "
                   "on MI355X",
    ),
)
