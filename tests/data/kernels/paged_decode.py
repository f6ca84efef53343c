"""Decode attention over a paged KV cache, as serving libraries write it: one program per (sequence, head), the KV
loop's trip count is the sequence's length loaded from ``seq_lens``, each page's index from ``block_tables``."""

import triton
import triton.language as tl


@triton.jit
def paged_decode(q_ptr, k_cache, v_cache, out_ptr, block_tables, seq_lens, scale,
                 stride_bt, max_blocks, HEAD_DIM: tl.constexpr, PAGE: tl.constexpr):
    seq = tl.program_id(0)
    head = tl.program_id(1)
    num_heads = tl.num_programs(1)
    seq_len = tl.load(seq_lens + seq)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_p = tl.arange(0, PAGE)
    q = tl.load(q_ptr + (seq * num_heads + head) * HEAD_DIM + offs_d).to(tl.float32)
    m = -float("inf")
    total = 0.0
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for b in range(0, tl.cdiv(seq_len, PAGE)):
        page = tl.load(block_tables + seq * stride_bt + b)
        base = (page * num_heads + head) * PAGE * HEAD_DIM
        kv_off = base + offs_p[:, None] * HEAD_DIM + offs_d[None, :]
        valid = (b * PAGE + offs_p) < seq_len
        k = tl.load(k_cache + kv_off, mask=valid[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], axis=1) * scale
        s = tl.where(valid, s, -float("inf"))
        m_new = tl.maximum(m, tl.max(s, axis=0))
        p = tl.exp(s - m_new)
        alpha = tl.exp(m - m_new)
        v = tl.load(v_cache + kv_off, mask=valid[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        total = total * alpha + tl.sum(p, axis=0)
        m = m_new
    tl.store(out_ptr + (seq * num_heads + head) * HEAD_DIM + offs_d, (acc / total).to(tl.float16))
