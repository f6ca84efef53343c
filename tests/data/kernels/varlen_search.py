"""A varlen kernel as serving libraries write it (vLLM's unified attention): one program per block of query tokens,
each finds its sequence by a binary search over ``query_start_loc`` (an ``scf.while`` in the IR, whose bound
``right = num_seqs`` names the parameter's SSA value ``%right``), returns when its block is past the sequence's
queries, and walks the sequence's context in pages: the loop's trips come from ``seq_lens`` at the searched index."""

import triton
import triton.language as tl


@triton.jit
def _find_seq(query_start_loc, target, num_seqs, BLOCK_Q: tl.constexpr):
    left: tl.int32 = 0
    right = num_seqs
    while left < right:
        mid = (left + right) // 2
        start = tl.load(query_start_loc + mid) // BLOCK_Q + mid
        if start <= target:
            left = mid + 1
        else:
            right = mid
    return left - 1


@triton.jit
def varlen_pages(kv_ptr, out_ptr, query_start_loc, seq_lens, num_seqs, HEAD_DIM: tl.constexpr,
                 BLOCK_Q: tl.constexpr, PAGE: tl.constexpr):
    block = tl.program_id(0)
    seq = _find_seq(query_start_loc, block, num_seqs, BLOCK_Q)
    q_start = tl.load(query_start_loc + seq)
    q_len = tl.load(query_start_loc + seq + 1) - q_start
    local = block - (q_start // BLOCK_Q + seq)
    if local * BLOCK_Q >= q_len:
        return
    context = tl.load(seq_lens + seq)
    offs_p = tl.arange(0, PAGE)
    offs_d = tl.arange(0, HEAD_DIM)
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for page in range(0, tl.cdiv(context, PAGE)):
        rows = page * PAGE + offs_p
        kv = tl.load(kv_ptr + rows[:, None] * HEAD_DIM + offs_d[None, :], mask=(rows < context)[:, None], other=0.0)
        acc += tl.sum(kv.to(tl.float32), axis=0)
    tl.store(out_ptr + block * HEAD_DIM + offs_d, acc)
