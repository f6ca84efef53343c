"""Kernels in the style of popular Triton kernel libraries (norms, rotary embeddings, cross-entropy,
gated MLPs, fp64 and int8 dots), written for irscope's tests: `irscope verify` must find no
disagreement between what irscope claims about them and what their lower stages show.

Each kernel is launched through FILE:FUNCTION with ``--args`` (see LAUNCHES), as a user would.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def rms_norm_fwd(x_ptr, w_ptr, y_ptr, stride_row, n_cols, eps, BLOCK: tl.constexpr):
    """RMSNorm forward, one row per program (bf16 in and out, fp32 statistics)."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride_row + cols, (x * rstd * w).to(tl.bfloat16), mask=mask)


@triton.jit
def layer_norm_fwd(x_ptr, w_ptr, b_ptr, y_ptr, stride_row, n_cols, eps, BLOCK: tl.constexpr):
    """LayerNorm forward over long rows: a loop over column blocks for the mean, another for the variance."""
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_row
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n_cols
    var = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        x = tl.where(cols < n_cols, x - mean, 0.0)
        var += x * x
    rstd = 1.0 / tl.sqrt(tl.sum(var, axis=0) / n_cols + eps)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        tl.store(y_ptr + row * stride_row + cols, ((x - mean) * rstd * w + b).to(tl.float16), mask=mask)


@triton.jit
def rotary_fwd(q_ptr, cos_ptr, sin_ptr, stride_tok, stride_head, HEAD_DIM: tl.constexpr):
    """Rotary embedding applied in place to one (token, head) row: halves rotated by cos/sin of the token."""
    tok = tl.program_id(0)
    head = tl.program_id(1)
    half = tl.arange(0, HEAD_DIM // 2)
    base = q_ptr + tok * stride_tok + head * stride_head
    q1 = tl.load(base + half).to(tl.float32)
    q2 = tl.load(base + HEAD_DIM // 2 + half).to(tl.float32)
    cos = tl.load(cos_ptr + tok * (HEAD_DIM // 2) + half)
    sin = tl.load(sin_ptr + tok * (HEAD_DIM // 2) + half)
    tl.store(base + half, (q1 * cos - q2 * sin).to(tl.float16))
    tl.store(base + HEAD_DIM // 2 + half, (q2 * cos + q1 * sin).to(tl.float16))


@triton.jit
def cross_entropy_fwd(logits_ptr, labels_ptr, loss_ptr, stride_row, n_cols, BLOCK: tl.constexpr):
    """Cross-entropy loss per row with an online log-sum-exp over column blocks."""
    row = tl.program_id(0)
    label = tl.load(labels_ptr + row)
    m = -float("inf")
    d = 0.0
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + row * stride_row + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    target = tl.load(logits_ptr + row * stride_row + label).to(tl.float32)
    tl.store(loss_ptr + row, tl.log(d) + m - target)


@triton.jit
def swiglu_fwd(gate_ptr, up_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """The gated-MLP activation: silu(gate) * up, elementwise (bf16)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    g = tl.load(gate_ptr + offs, mask=mask).to(tl.float32)
    u = tl.load(up_ptr + offs, mask=mask).to(tl.float32)
    tl.store(out_ptr + offs, (g * tl.sigmoid(g) * u).to(tl.bfloat16), mask=mask)


@triton.jit
def gated_mlp_fwd(x_ptr, wg_ptr, wu_ptr, out_ptr, M, N, K, stride_xm, stride_wk, stride_om,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """Gate and up projections in one K-loop (two dots sharing the x tile), then silu(gate) * up."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc_g = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    acc_u = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        kk = k * BLOCK_K + rk
        x = tl.load(x_ptr + rm[:, None] * stride_xm + kk[None, :])
        wg = tl.load(wg_ptr + kk[:, None] * stride_wk + rn[None, :])
        wu = tl.load(wu_ptr + kk[:, None] * stride_wk + rn[None, :])
        acc_g = tl.dot(x, wg, acc_g)
        acc_u = tl.dot(x, wu, acc_u)
    out = acc_g * tl.sigmoid(acc_g) * acc_u
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :], out.to(tl.float16))


@triton.jit
def dot_fp64(a_ptr, b_ptr, c_ptr, K, stride_a, stride_b, stride_c,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """An fp64 matmul tile (DMMA m8n8k4 on NVIDIA, fp64 MFMA on AMD)."""
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float64)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_a + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * stride_b + rn[None, :])
        acc = tl.dot(a, b, acc, out_dtype=tl.float64)
    tl.store(c_ptr + rm[:, None] * stride_c + rn[None, :], acc)


@triton.jit
def dot_int8(a_ptr, b_ptr, c_ptr, K, stride_a, stride_b, stride_c,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """An int8 x int8 -> int32 matmul tile (IMMA / integer wgmma / int8 MFMA)."""
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.int32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_a + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * stride_b + rn[None, :])
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
    tl.store(c_ptr + rm[:, None] * stride_c + rn[None, :], acc)


# function -> (--args, --constexpr items, extra options): launches as a library would make them.
LAUNCHES: dict[str, tuple[str, tuple[str, ...]]] = {
    "rms_norm_fwd": ("x_ptr=bf16[64,4096], w_ptr=bf16[4096], y_ptr=bf16[64,4096], stride_row=4096, "
                     "n_cols=4096, eps=1e-6", ("BLOCK=4096",)),
    "layer_norm_fwd": ("x_ptr=fp16[64,8192], w_ptr=fp16[8192], b_ptr=fp16[8192], y_ptr=fp16[64,8192], "
                       "stride_row=8192, n_cols=8192, eps=1e-5", ("BLOCK=1024",)),
    "rotary_fwd": ("q_ptr=fp16[512,32,128], cos_ptr=fp32[512,64], sin_ptr=fp32[512,64], stride_tok=4096, "
                   "stride_head=128", ("HEAD_DIM=128",)),
    "cross_entropy_fwd": ("logits_ptr=bf16[128,32000], labels_ptr=i64[128], loss_ptr=fp32[128], "
                          "stride_row=32000, n_cols=32000", ("BLOCK=4096",)),
    "swiglu_fwd": ("gate_ptr=bf16[1048576], up_ptr=bf16[1048576], out_ptr=bf16[1048576], n=1048576",
                   ("BLOCK=1024",)),
    "gated_mlp_fwd": ("x_ptr=fp16[1024,1024], wg_ptr=fp16[1024,2048], wu_ptr=fp16[1024,2048], "
                      "out_ptr=fp16[1024,2048], M=1024, N=2048, K=1024, stride_xm=1024, stride_wk=2048, "
                      "stride_om=2048", ("BLOCK_M=64", "BLOCK_N=64", "BLOCK_K=32")),
    "dot_fp64": ("a_ptr=fp64[256,256], b_ptr=fp64[256,256], c_ptr=fp64[256,256], K=256, stride_a=256, "
                 "stride_b=256, stride_c=256", ("BLOCK_M=32", "BLOCK_N=32", "BLOCK_K=16")),
    "dot_int8": ("a_ptr=i8[512,512], b_ptr=i8[512,512], c_ptr=i32[512,512], K=512, stride_a=512, "
                 "stride_b=512, stride_c=512", ("BLOCK_M=64", "BLOCK_N=64", "BLOCK_K=64")),
}
