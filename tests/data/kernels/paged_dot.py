"""Paged attention with tensor cores, as vLLM's unified attention writes its KV loop: each iteration loads the next
page's index from the block table, then that page's K and V tiles, and multiplies them by the queries (``tl.dot``).
With ``num_stages`` 3 the pipeliner issues the next page's copies at the end of an iteration and waits for all
copies (``ttg.async_wait {num = 0}``) at the start of the next: nothing stays in flight across an iteration."""

import triton
import triton.language as tl


@triton.jit
def paged_dot(q_ptr, k_cache, v_cache, out_ptr, block_tables, seq_lens, scale, stride_bt,
              HEAD_DIM: tl.constexpr, PAGE: tl.constexpr, BLOCK_Q: tl.constexpr):
    seq = tl.program_id(0)
    seq_len = tl.load(seq_lens + seq)
    offs_q = tl.arange(0, BLOCK_Q)
    offs_p = tl.arange(0, PAGE)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + (seq * BLOCK_Q + offs_q[:, None]) * HEAD_DIM + offs_d[None, :])
    m = tl.full([BLOCK_Q], float("-inf"), tl.float32)
    total = tl.zeros([BLOCK_Q], tl.float32)
    acc = tl.zeros([BLOCK_Q, HEAD_DIM], tl.float32)
    for b in range(0, tl.cdiv(seq_len, PAGE)):
        page = tl.load(block_tables + seq * stride_bt + b)
        rows = page * PAGE + offs_p
        valid = (b * PAGE + offs_p) < seq_len
        k = tl.load(k_cache + offs_d[:, None] + rows[None, :] * HEAD_DIM, mask=valid[None, :], other=0.0)
        s = tl.dot(q, k) * scale
        s = tl.where(valid[None, :], s, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m - m_new)
        v = tl.load(v_cache + rows[:, None] * HEAD_DIM + offs_d[None, :], mask=valid[:, None], other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        total = total * alpha + tl.sum(p, axis=1)
        m = m_new
    tl.store(out_ptr + (seq * BLOCK_Q + offs_q[:, None]) * HEAD_DIM + offs_d[None, :], acc / total[:, None])
