"""The held-out (test) half of the foreign validation set: kernels of sources the fit half has none of.

Sources: sglang 0.5.9, vLLM 0.9.0, GemLite 0.5.1.post1 and mamba-ssm 2.3.1. Nothing of theirs is copied here: the
modules are imported from the libraries' own files under ``$FOREIGN_SRC`` (default ``.foreign/src``), their
packages made as empty namespaces over those folders so that only the kernel modules (and the plain helpers they
import) load, and the few helpers that ask the GPU or pull in a CUDA extension at import answered by stand-ins
(``is_cuda() -> True``, a logger). GemLite is imported as it is. ``perf_foreign.py --half test`` runs these cases
the same way as the fit half's (two warm-up launches, one measured in the NVTX range ``measure``).

The sizes are serving and training ones: decode over a paged KV cache (batch 32 and 64, sequence lengths 500-8000,
pages of 16 and 32 tokens in a shuffled pool), prefill and extend over it, MoE with routing from random logits
(vLLM's Triton align kernels sort the tokens by expert), speculative-decoding rejection sampling over a 128k vocab,
int8/int4/AWQ GEMM and GEMV, the KV-index gather, and mamba-2's chunked scan at a training size.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from perf_foreign import Case, _rand


def _src() -> Path:
    return Path(os.environ.get("FOREIGN_SRC", Path.cwd() / ".foreign" / "src"))


def _namespace(dotted: str) -> None:
    """``dotted`` and its parents as empty packages over their folders in ``$FOREIGN_SRC`` (no ``__init__`` runs)."""
    parts = dotted.split(".")
    for i in range(1, len(parts) + 1):
        name = ".".join(parts[:i])
        if name not in sys.modules:
            module = types.ModuleType(name)
            module.__path__ = [str(_src().joinpath(*parts[:i]))]
            sys.modules[name] = module
            if i > 1:
                setattr(sys.modules[".".join(parts[:i - 1])], parts[i - 1], module)


def _stand_in(dotted: str, **attrs: Any) -> None:
    """A module of plain values in place of one that asks the GPU or a CUDA extension at import."""
    if dotted in sys.modules:
        return
    parent, _, leaf = dotted.rpartition(".")
    _namespace(parent)
    module = types.ModuleType(dotted)
    module.__dict__.update(attrs)
    sys.modules[dotted] = module
    setattr(sys.modules[parent], leaf, module)


def _load(dotted: str) -> Any:
    _namespace(dotted.rpartition(".")[0])
    return importlib.import_module(dotted)


def _no(*_args: Any, **_kwargs: Any) -> Any:
    raise RuntimeError("a stand-in: this path of the library is not used by the case")


def _sglang(dotted: str) -> Any:
    import logging

    import torch
    _stand_in("sglang.srt.utils", is_cuda=lambda: True, is_hip=lambda: False, is_xpu=lambda: False,
              is_cpu=lambda: False, cpu_has_amx_support=lambda: False, is_sm90_supported=lambda: True,
              get_bool_env_var=lambda name, default="false": str(os.environ.get(name, default)).lower()
              in ("1", "true"),
              get_device_name=lambda device_id=0: torch.cuda.get_device_name(device_id))
    _stand_in("sglang.srt.batch_invariant_ops", is_batch_invariant_mode_enabled=lambda: False)
    if "sgl_kernel" not in sys.modules:  # sglang's CUDA extension: imported by name, never called by the cases
        sys.modules["sgl_kernel"] = types.ModuleType("sgl_kernel")
        sys.modules["sgl_kernel"].__dict__.update(concat_mla_absorb_q=_no, sgl_per_token_group_quant_8bit=_no)
    _stand_in("sglang.srt.layers.quantization.fp8_kernel", per_token_group_quant_fp8=_no, scaled_fp8_quant=_no,
              sglang_per_token_group_quant_fp8=_no)
    logging.getLogger("sglang").setLevel(logging.ERROR)
    return _load(dotted)


def _vllm(dotted: str) -> Any:
    import logging

    import triton
    import triton.language as tl
    _stand_in("vllm.logger", init_logger=logging.getLogger)
    _stand_in("vllm.triton_utils", triton=triton, tl=tl)
    _stand_in("vllm.envs", VLLM_ENABLE_MOE_ALIGN_BLOCK_SIZE_TRITON=True)
    _stand_in("vllm._custom_ops")
    _stand_in("vllm.utils", round_up=lambda x, y: (x + y - 1) // y * y)
    _stand_in("vllm.v1.sample.ops.topk_topp_sampler", apply_top_k_top_p=_no)
    return _load(dotted)


def _mamba(dotted: str) -> Any:
    return _load(dotted)


def _logits(torch: Any, rows: int, experts: int) -> Any:
    return torch.randn(rows, experts, generator=torch.Generator().manual_seed(0)).cuda()


def _lengths(torch: Any, batch: int, low: int, high: int, seed: int) -> list[int]:
    g = torch.Generator().manual_seed(seed)
    return [int(v) for v in torch.randint(low, high + 1, (batch,), generator=g)]


def _paged_pool(torch: Any, lengths: list[int], page: int, seed: int) -> tuple[Any, int]:
    """A block table over a shuffled pool of pages (page ``page`` tokens): [batch, max pages] int32, pages in pool."""
    per = [-(-n // page) for n in lengths]
    pool = sum(per) + 64
    g = torch.Generator().manual_seed(seed)
    order = torch.randperm(pool, generator=g).to(torch.int32)
    table = torch.zeros(len(lengths), max(per), dtype=torch.int32)
    at = 0
    for b, n in enumerate(per):
        table[b, :n] = order[at:at + n]
        at += n
    return table.cuda(), pool


def _token_indices(torch: Any, table: Any, lengths: list[int], page: int) -> Any:
    """Per-token cache slots (page * page_size + offset) of each sequence, concatenated: sglang's kv_indices."""
    parts = []
    for b, n in enumerate(lengths):
        tokens = torch.arange(n, device="cuda")
        parts.append((table[b, tokens // page].long() * page + tokens % page).to(torch.int32))
    return torch.cat(parts)


def _indptr(torch: Any, lengths: list[int]) -> Any:
    return torch.tensor([0, *torch.tensor(lengths).cumsum(0).tolist()], dtype=torch.int32, device="cuda")


# ---- sglang --------------------------------------------------------------------------------------------------

def _sglang_cases() -> list[Case]:
    heads, kv_heads, dim = 32, 8, 128  # Llama-3-8B

    def decode(batch: int, low: int, high: int, page: int) -> Callable[[Any], Callable[[], Any]]:
        def build(torch: Any) -> Callable[[], Any]:
            m = _sglang("sglang.srt.layers.attention.triton_ops.decode_attention")
            lengths = _lengths(torch, batch, low, high, seed=batch)
            table, pages = _paged_pool(torch, lengths, page, seed=batch)
            k = _rand(torch, pages * page, kv_heads, dim)
            v = _rand(torch, pages * page, kv_heads, dim)
            q, o = _rand(torch, batch, heads, dim), _rand(torch, batch, heads, dim)
            splits = 8  # sglang's default --triton-attention-num-kv-splits
            logits = torch.empty(batch, heads, splits, dim, device="cuda", dtype=torch.float32)
            lse = torch.empty(batch, heads, splits, device="cuda", dtype=torch.float32)
            num_splits = torch.full((batch,), splits, dtype=torch.int32, device="cuda")
            indptr, indices = _indptr(torch, lengths), _token_indices(torch, table, lengths, page)
            return lambda: m.decode_attention_fwd(q, k, v, o, indptr, indices, logits, lse, num_splits, splits,
                                                  dim ** -0.5)
        return build

    def extend(torch: Any) -> Callable[[], Any]:
        m = _sglang("sglang.srt.layers.attention.triton_ops.extend_attention")
        batch, page = 8, 32
        prefix = _lengths(torch, batch, 500, 4000, seed=1)
        new = _lengths(torch, batch, 256, 1024, seed=2)
        table, pages = _paged_pool(torch, prefix, page, seed=3)
        k_buf, v_buf = _rand(torch, pages * page, kv_heads, dim), _rand(torch, pages * page, kv_heads, dim)
        tokens = sum(new)
        q, o = _rand(torch, tokens, heads, dim), _rand(torch, tokens, heads, dim)
        k, v = _rand(torch, tokens, kv_heads, dim), _rand(torch, tokens, kv_heads, dim)
        qo_indptr, kv_indptr = _indptr(torch, new), _indptr(torch, prefix)
        indices = _token_indices(torch, table, prefix, page)
        return lambda: m.extend_attention_fwd(q, k, v, o, k_buf, v_buf, qo_indptr, kv_indptr, indices, None, True,
                                              None, max(new))

    def prefill(torch: Any) -> Callable[[], Any]:
        m = _sglang("sglang.srt.layers.attention.triton_ops.prefill_attention")
        lengths = _lengths(torch, 16, 500, 2000, seed=4)
        tokens = sum(lengths)
        q, o = _rand(torch, tokens, heads, dim), _rand(torch, tokens, heads, dim)
        k, v = _rand(torch, tokens, kv_heads, dim), _rand(torch, tokens, kv_heads, dim)
        start = _indptr(torch, lengths)[:-1].contiguous()
        seq = torch.tensor(lengths, dtype=torch.int32, device="cuda")
        return lambda: m.context_attention_fwd(q, k, v, o, start, seq, max(lengths), True)

    def moe(tokens: int, experts: int, top_k: int, hidden: int, inter: int) -> Callable[[Any], Callable[[], Any]]:
        def build(torch: Any) -> Callable[[], Any]:
            import triton.language as tl
            m = _sglang("sglang.srt.layers.moe.fused_moe_triton.fused_moe_triton_kernels")
            align = _vllm("vllm.model_executor.layers.fused_moe.moe_align_block_size")
            x = _rand(torch, tokens, hidden)
            w1 = _rand(torch, experts, 2 * inter, hidden) * 0.02
            w2 = _rand(torch, experts, hidden, inter) * 0.02
            logits = _logits(torch, tokens, experts)
            weights, ids = torch.topk(torch.softmax(logits.float(), -1), top_k, dim=-1)
            ids = ids.to(torch.int32)
            block = 64
            padded = ids.numel() + experts * (block - 1)
            sorted_ids = torch.empty(padded, dtype=torch.int32, device="cuda")
            expert_ids = torch.empty(-(-padded // block), dtype=torch.int32, device="cuda")
            post = torch.empty(1, dtype=torch.int32, device="cuda")
            align.moe_align_block_size_triton(ids, experts, block, sorted_ids, expert_ids, post)
            config = {"BLOCK_SIZE_M": block, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8,
                      "num_warps": 4, "num_stages": 3}
            up = torch.empty(tokens * top_k, 2 * inter, device="cuda", dtype=torch.bfloat16)
            act = torch.empty(tokens * top_k, inter, device="cuda", dtype=torch.bfloat16)
            down = torch.empty(tokens, top_k, hidden, device="cuda", dtype=torch.bfloat16)
            out = torch.empty(tokens, hidden, device="cuda", dtype=torch.bfloat16)

            def run() -> None:
                common = dict(bias=None, A_scale=None, B_scale=None, B_zp=None, topk_weights=weights, topk_ids=ids,
                              sorted_token_ids=sorted_ids, expert_ids=expert_ids, num_tokens_post_padded=post,
                              config=config, compute_type=tl.bfloat16, use_fp8_w8a8=False, use_int8_w8a8=False,
                              use_int8_w8a16=False, use_int4_w4a16=False, per_channel_quant=False)
                m.invoke_fused_moe_kernel(x, w1, C=up, mul_routed_weight=False, top_k=top_k, **common)
                m.act_and_mul_triton(up, act, config, ids)
                m.invoke_fused_moe_kernel(act, w2, C=down, mul_routed_weight=True, top_k=1, **common)
                m.moe_sum_reduce_triton(down, out, 1.0)
            return run
        return build

    def kv_indices(torch: Any) -> Callable[[], Any]:
        m = _sglang("sglang.srt.layers.attention.utils")
        batch, context = 64, 8192
        lengths = _lengths(torch, batch, 500, 8000, seed=5)
        # sglang's req_to_token pool: each of 256 request slots' token slots in the KV cache
        pool = torch.randperm(256 * context, generator=torch.Generator().manual_seed(6)).to(torch.int32)
        req_to_token = pool.reshape(256, context).cuda()
        requests = torch.randperm(256, generator=torch.Generator().manual_seed(7))[:batch].to(torch.int32).cuda()
        seq = torch.tensor(lengths, dtype=torch.int32, device="cuda")
        indptr = _indptr(torch, lengths)
        out = torch.empty(sum(lengths), dtype=torch.int32, device="cuda")
        return lambda: m.create_flashinfer_kv_indices_triton[(batch,)](
            req_to_token, requests, seq, indptr, None, out, req_to_token.stride(0))

    def merge_state(torch: Any) -> Callable[[], Any]:
        m = _sglang("sglang.srt.layers.attention.triton_ops.merge_state")
        tokens = 8192
        a, b = _rand(torch, tokens, heads, dim), _rand(torch, tokens, heads, dim)
        la = torch.randn(tokens, heads, device="cuda", dtype=torch.float32)
        lb = torch.randn(tokens, heads, device="cuda", dtype=torch.float32)
        out, out_lse = torch.empty_like(a), torch.empty_like(la)
        return lambda: m.merge_state_triton(a, la, b, lb, out, out_lse)

    def int8_block(rows: int) -> Callable[[Any], Callable[[], Any]]:
        def build(torch: Any) -> Callable[[], Any]:
            m = _sglang("sglang.srt.layers.quantization.int8_kernel")
            n, k = 7168, 4096
            x = _rand(torch, rows, k)
            w = torch.randint(-127, 128, (n, k), device="cuda", dtype=torch.int8)
            ws = torch.rand(n // 128, k // 128, device="cuda", dtype=torch.float32) * 0.01

            def run() -> Any:
                xq, xs = m.per_token_group_quant_int8(x, 128)
                return m.w8a8_block_int8_matmul(xq, w, xs, ws, [128, 128], torch.bfloat16)
            return run
        return build

    def awq(rows: int) -> Callable[[Any], Callable[[], Any]]:
        def build(torch: Any) -> Callable[[], Any]:
            m = _sglang("sglang.srt.layers.quantization.awq_triton")
            k, n, group = 4096, 4096, 128
            x = _rand(torch, rows, k, dtype=torch.float16)
            qweight = torch.randint(0, 2 ** 31 - 1, (k, n // 8), device="cuda", dtype=torch.int32)
            qzeros = torch.randint(0, 2 ** 31 - 1, (k // group, n // 8), device="cuda", dtype=torch.int32)
            scales = torch.rand(k // group, n, device="cuda", dtype=torch.float16) * 0.01
            return lambda: m.awq_gemm_triton(x, qweight, scales, qzeros, 8)
        return build

    builds = [
        ("decode paged GQA B32 L500-3000 page32 H32/8 D128 bf16", decode(32, 500, 3000, 32)),
        ("decode paged GQA B64 L500-8000 page16 H32/8 D128 bf16", decode(64, 500, 8000, 16)),
        ("extend paged B8 prefix500-4000 new256-1024 page32 H32/8 D128 bf16", extend),
        ("prefill context_attention B16 L500-2000 H32/8 D128 bf16", prefill),
        ("fused_moe E8 top2 T4096 H4096 I14336 bf16 (vLLM align)", moe(4096, 8, 2, 4096, 14336)),
        ("fused_moe E64 top6 T2048 H2048 I1408 bf16 (vLLM align)", moe(2048, 64, 6, 2048, 1408)),
        ("kv_indices gather B64 L500-8000", kv_indices),
        ("merge_state T8192 H32 D128 bf16", merge_state),
        ("w8a8 block int8 M4096 N7168 K4096", int8_block(4096)),
        ("w8a8 block int8 M16 N7168 K4096", int8_block(16)),
        ("awq gemm M16 K4096 N4096 g128 splitK8 fp16", awq(16)),
    ]
    return [Case("sglang", f"sglang {name}", build) for name, build in builds]


# ---- vLLM ----------------------------------------------------------------------------------------------------

def _vllm_cases() -> list[Case]:
    heads, kv_heads, dim = 32, 8, 128

    def unified(batch: int, low: int, high: int, page: int, query: int) -> Callable[[Any], Callable[[], Any]]:
        def build(torch: Any) -> Callable[[], Any]:
            m = _vllm("vllm.attention.ops.triton_unified_attention")
            lengths = _lengths(torch, batch, low, high, seed=10 + batch)
            table, pages = _paged_pool(torch, lengths, page, seed=11)
            k = _rand(torch, pages, page, kv_heads, dim)
            v = _rand(torch, pages, page, kv_heads, dim)
            q_lens = [min(query, n) for n in lengths]
            q = _rand(torch, sum(q_lens), heads, dim)
            o = torch.empty_like(q)
            cu = _indptr(torch, q_lens)
            seq = torch.tensor(lengths, dtype=torch.int32, device="cuda")
            return lambda: m.unified_attention(q, k, v, o, cu, max(q_lens), seq, max(lengths), dim ** -0.5, True,
                                               (-1, -1), table, 0, None, None, None)
        return build

    def align(tokens: int, experts: int, top_k: int) -> Callable[[Any], Callable[[], Any]]:
        def build(torch: Any) -> Callable[[], Any]:
            m = _vllm("vllm.model_executor.layers.fused_moe.moe_align_block_size")
            logits = _logits(torch, tokens, experts)
            ids = torch.topk(logits, top_k, dim=-1).indices.to(torch.int32)
            block = 64
            padded = ids.numel() + experts * (block - 1)
            sorted_ids = torch.empty(padded, dtype=torch.int32, device="cuda")
            expert_ids = torch.empty(-(-padded // block), dtype=torch.int32, device="cuda")
            post = torch.empty(1, dtype=torch.int32, device="cuda")
            return lambda: m.moe_align_block_size_triton(ids, experts, block, sorted_ids, expert_ids, post)
        return build

    def rejection(torch: Any) -> Callable[[], Any]:
        m = _vllm("vllm.v1.sample.rejection_sampler")
        batch, spec, vocab = 64, 4, 128256
        g = torch.Generator().manual_seed(12)
        drafts = [int(v) for v in torch.randint(0, spec + 1, (batch,), generator=g)]
        tokens = sum(drafts)
        draft_ids = torch.randint(0, vocab, (tokens,), generator=g).to(torch.int32).cuda()
        cu = torch.tensor(torch.tensor(drafts).cumsum(0).tolist(), dtype=torch.int32, device="cuda")
        draft_probs = torch.softmax(torch.randn(tokens, vocab, device="cuda"), -1)
        target_probs = torch.softmax(torch.randn(tokens, vocab, device="cuda"), -1)
        bonus = torch.randint(0, vocab, (batch, 1), generator=g).to(torch.int32).cuda()
        temperature = torch.where(torch.arange(batch) % 4 == 0, 0.0, 0.8).float().cuda()
        meta = types.SimpleNamespace(all_greedy=False, all_random=False, temperature=temperature, generators={})
        return lambda: m.rejection_sample(draft_ids, drafts, spec, cu, draft_probs, target_probs, bonus, meta)

    def expand(torch: Any) -> Callable[[], Any]:
        m = _vllm("vllm.v1.sample.rejection_sampler")
        batch, spec = 256, 4
        g = torch.Generator().manual_seed(13)
        drafts = [int(v) for v in torch.randint(0, spec + 1, (batch,), generator=g)]
        cu = torch.tensor(torch.tensor(drafts).cumsum(0).tolist(), dtype=torch.int32, device="cuda")
        temperature = torch.rand(batch, device="cuda")
        return lambda: m.expand_batch_to_tokens(temperature, cu, sum(drafts), 0, 1)

    def scaled_mm(rows: int) -> Callable[[Any], Callable[[], Any]]:
        def build(torch: Any) -> Callable[[], Any]:
            m = _vllm("vllm.model_executor.layers.quantization.compressed_tensors.triton_scaled_mm")
            k, n = 4096, 14336
            a = torch.randint(-127, 128, (rows, k), device="cuda", dtype=torch.int8)
            b = torch.randint(-127, 128, (n, k), device="cuda", dtype=torch.int8).t()
            sa = torch.rand(rows, 1, device="cuda", dtype=torch.float32) * 0.01
            sb = torch.rand(n, 1, device="cuda", dtype=torch.float32) * 0.01
            return lambda: m.triton_scaled_mm(a, b, sa, sb, torch.bfloat16)
        return build

    builds = [
        ("unified_attention decode B64 L500-8000 page16 H32/8 D128 bf16", unified(64, 500, 8000, 16, 1)),
        ("unified_attention chunked prefill B16 L1000-6000 q512 page16 H32/8 D128 bf16",
         unified(16, 1000, 6000, 16, 512)),
        ("moe_align_block_size E64 top6 T4096", align(4096, 64, 6)),
        ("moe_align_block_size E8 top2 T8192", align(8192, 8, 2)),
        ("rejection_sample B64 spec4 V128256 fp32", rejection),
        ("expand_batch_to_tokens B256 spec4", expand),
        ("triton_scaled_mm int8 M32 N14336 K4096", scaled_mm(32)),
        ("triton_scaled_mm int8 M2048 N14336 K4096", scaled_mm(2048)),
    ]
    return [Case("vllm", f"vllm {name}", build) for name, build in builds]


# ---- GemLite ---------------------------------------------------------------------------------------------------

def _gemlite_cases() -> list[Case]:
    def linear(bits: int, rows: int, kind: str) -> Callable[[Any], Callable[[], Any]]:
        def build(torch: Any) -> Callable[[], Any]:
            from gemlite import DType, GemLiteLinear  # type: ignore[import-not-found]
            k, n, group = 4096, 14336, 128
            lin = GemLiteLinear(bits, group_size=group, in_features=k, out_features=n, input_dtype=DType.FP16,
                                output_dtype=DType.FP16)
            w_q = torch.randint(0, 2 ** bits, (n, k), device="cuda", dtype=torch.uint8)
            scales = torch.rand(n, k // group, device="cuda", dtype=torch.float16) * 0.01
            zeros = torch.full((n, k // group), float(2 ** (bits - 1)), device="cuda", dtype=torch.float16)
            lin.pack(w_q, scales, zeros, None)
            x = _rand(torch, rows, k, dtype=torch.float16)
            return lambda: lin.forward_manual(x, matmul_type=kind)
        return build

    builds = [("A16W4 GEMM M4096 K4096 N14336 g128", linear(4, 4096, "GEMM")),
              ("A16W4 GEMM_SPLITK M16 K4096 N14336 g128", linear(4, 16, "GEMM_SPLITK")),
              ("A16W4 GEMV_REVSPLITK M1 K4096 N14336 g128", linear(4, 1, "GEMV_REVSPLITK")),
              ("A16W8 GEMV_SPLITK M1 K4096 N14336 g128", linear(8, 1, "GEMV_SPLITK"))]
    return [Case("gemlite", f"gemlite {name}", build) for name, build in builds]


# ---- mamba-ssm ---------------------------------------------------------------------------------------------------

def _mamba_cases() -> list[Case]:
    def chunk_scan(torch: Any) -> Callable[[], Any]:
        m = _mamba("mamba_ssm.ops.triton.ssd_combined")
        b, seqlen, h, p, g, n, chunk = 4, 2048, 32, 64, 1, 128, 256  # Mamba-2 2.7B's layer at a training size
        x, dt = _rand(torch, b, seqlen, h, p), _rand(torch, b, seqlen, h, dtype=torch.float32)
        a = -torch.rand(h, device="cuda", dtype=torch.float32)
        bb, cc = _rand(torch, b, seqlen, g, n), _rand(torch, b, seqlen, g, n)
        d = torch.rand(h, device="cuda", dtype=torch.float32)
        return lambda: m.mamba_chunk_scan_combined(x, dt, a, bb, cc, chunk, D=d, dt_softplus=True)

    def state_update(torch: Any) -> Callable[[], Any]:
        m = _mamba("mamba_ssm.ops.triton.selective_state_update")
        batch, slots, h, p, g, n = 64, 256, 32, 64, 1, 128
        state = torch.randn(slots, h, p, n, device="cuda", dtype=torch.float32)
        x, dt = _rand(torch, batch, h, p), _rand(torch, batch, h, p)
        a = -torch.rand(h, p, n, device="cuda", dtype=torch.float32)
        bb, cc = _rand(torch, batch, g, n), _rand(torch, batch, g, n)
        d, dt_bias = torch.rand(h, p, device="cuda", dtype=torch.float32), _rand(torch, h, p)
        index = torch.randperm(slots, generator=torch.Generator().manual_seed(14))[:batch].to(torch.int32).cuda()
        return lambda: m.selective_state_update(state, x, dt, a, bb, cc, D=d, dt_bias=dt_bias, dt_softplus=True,
                                                state_batch_indices=index)

    def layer_norm(torch: Any) -> Callable[[], Any]:
        m = _mamba("mamba_ssm.ops.triton.layer_norm")
        x = _rand(torch, 8192, 4096).requires_grad_(True)
        w, bias = _rand(torch, 4096).requires_grad_(True), _rand(torch, 4096).requires_grad_(True)
        res = _rand(torch, 8192, 4096).requires_grad_(True)
        grad = _rand(torch, 8192, 4096)

        def run() -> None:
            m.layer_norm_fn(x, w, bias, residual=res).backward(grad)
        return run

    builds = [("mamba_chunk_scan_combined fwd B4 L2048 H32 P64 N128 chunk256 bf16", chunk_scan),
              ("selective_state_update B64 of 256 slots H32 P64 N128", state_update),
              ("layer_norm_fn fwd+bwd residual 8192x4096 bf16", layer_norm)]
    return [Case("mamba", f"mamba {name}", build) for name, build in builds]


CASES: list[Case] = _sglang_cases() + _vllm_cases() + _gemlite_cases() + _mamba_cases()
