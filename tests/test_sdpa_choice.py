"""Offline, scaled_dot_product_attention runs the fused kernel the stood-in GPU's torch would choose (sdpa_choice).

Measured on the H200 (torch 2.11, benchmarks/program_report/models.py --model bert): Inductor's fuse_attention turns
BERT's eager attention into scaled_dot_product_attention, which runs as cuDNN attention there; offline torch traced
the math fallback instead (five Triton kernels the GPU never ran, softmax among them) until the choice was made here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from irscope.compile.sdpa_choice import choose
from irscope.store.store import Store
from tests.conftest import DATA
from tests.test_program_capture import irscope

BHSD = (8, 8, 512, 64)


def test_hopper_and_blackwell_prefer_cudnn_and_older_gpus_flash() -> None:
    assert choose((BHSD, BHSD, BHSD), "bfloat16", False, 0.0, False, (9, 0), "2.11.0")[0] == "cudnn"
    assert choose((BHSD, BHSD, BHSD), "float16", False, 0.0, False, (10, 0), "2.13.0")[0] == "cudnn"
    assert choose((BHSD, BHSD, BHSD), "bfloat16", False, 0.0, False, (8, 0), "2.11.0")[0] == "flash"
    # cuDNN's priority arrived with torch 2.9; an older torch, or the program's own switch, keeps flash first
    assert choose((BHSD, BHSD, BHSD), "bfloat16", False, 0.0, False, (9, 0), "2.8.0")[0] == "flash"
    assert choose((BHSD, BHSD, BHSD), "bfloat16", False, 0.0, False, (9, 0), "2.11.0", deprioritize_cudnn=True)[0] \
        == "flash"


def test_each_backends_own_limits_decide() -> None:
    wide = (8, 8, 512, 192)
    backend, why = choose((wide, wide, wide), "bfloat16", False, 0.0, False, (9, 0), "2.11.0")
    assert backend == "flash" and "cudnn: head dims 192/192" in why
    backend, why = choose((wide, wide, wide), "bfloat16", True, 0.0, False, (9, 0), "2.11.0")
    assert backend == "efficient" and "flash: takes no attention mask" in why
    assert choose((BHSD, BHSD, BHSD), "float32", False, 0.0, False, (9, 0), "2.11.0")[0] == "efficient"
    assert choose((BHSD, BHSD, BHSD), "float64", False, 0.0, False, (9, 0), "2.11.0")[0] == "math"
    off = frozenset({"cudnn", "flash", "efficient"})
    backend, why = choose((BHSD, BHSD, BHSD), "bfloat16", False, 0.0, False, (9, 0), "2.11.0", disabled=off)
    assert backend == "math" and why.count("turned off by the program") == 3


@pytest.mark.compile
def test_offline_attention_is_the_gpus_fused_kernel_and_the_programs_own_choice_is_kept(tmp_path: Path) -> None:
    program = str(DATA / "programs" / "inductor_sdpa.py")
    fused = irscope("capture", "--target", "sm90", "--gpu", "h200", "--", sys.executable, program,
                    store=tmp_path / "fused")
    assert fused.returncode == 0, fused.stderr
    kernels = {c.manifest.kernel for c in Store(tmp_path / "fused").captures()}
    assert kernels == {"triton_poi_fused_mul_0"}, kernels  # the attention itself is cuDNN's, not Triton
    assert "traced as cuDNN attention, the kernel torch's chooser picks on a compute capability 9.0 GPU" in fused.stderr
    math = irscope("capture", "--target", "sm90", "--", sys.executable, program, "--math", store=tmp_path / "math")
    assert math.returncode == 0, math.stderr
    kernels = {c.manifest.kernel for c in Store(tmp_path / "math").captures()}
    assert any("softmax" in k for k in kernels), kernels  # the program asked for the math backend: Triton softmax
    assert "turned off by the program" in math.stderr


@pytest.mark.compile
def test_a_training_step_through_attention_traces_and_runs_cudnns_forward_and_backward(tmp_path: Path) -> None:
    """Offline a training graph is traced, and run, on the CPU: its attention is cuDNN's as on the GPU, and the CPU
    kernels sdpa_cpu gives cuDNN's ops let the program's backward run (before them: math fallback, or the program
    died in NotImplementedError for the CPU backend)."""
    program = str(DATA / "programs" / "inductor_sdpa.py")
    done = irscope("capture", "--target", "sm90", "--gpu", "h200", "--", sys.executable, program, "--train",
                   store=tmp_path / "train")
    assert done.returncode == 0, done.stderr
    assert "gradients (2, 4, 128, 64) True" in done.stdout
    assert "traced as cuDNN attention" in done.stderr
    kernels = {c.manifest.kernel for c in Store(tmp_path / "train").captures()}
    assert kernels and not any("softmax" in k for k in kernels), kernels
    sources = "".join((c.path / "provenance.json").read_text() for c in Store(tmp_path / "train").captures()
                      if (c.path / "provenance.json").exists())
    assert "_scaled_dot_product_cudnn_attention_backward" in sources or any("cudnn" in k for k in kernels), kernels


def test_the_cpu_kernels_for_cudnn_attention_are_attentions_values_and_gradients() -> None:
    import torch

    from irscope.compile import sdpa_cpu

    torch.manual_seed(0)
    for heads_kv, causal, with_bias in ((4, False, False), (2, True, False), (4, False, True)):
        q = torch.randn(2, 16, 4, 8, dtype=torch.float64).transpose(1, 2).requires_grad_(True)
        k, v = (torch.randn(2, heads_kv, 16, 8, dtype=torch.float64, requires_grad=True) for _ in range(2))
        bias = torch.randn(2, 1, 16, 16, dtype=torch.float64) if with_bias else None
        ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=bias, is_causal=causal,
                                                               enable_gqa=heads_kv != 4)
        grad = torch.randn_like(ref)
        ref.backward(grad)
        out, lse, *_ = sdpa_cpu._forward(q.detach(), k.detach(), v.detach(), bias, True, 0.0, causal)
        assert out.stride() == q.stride()  # the meta function's layout: a graph views the result by it
        assert torch.allclose(out, ref, atol=1e-5) and lse.shape == (2, 4, 16, 1)
        dq, dk, dv = sdpa_cpu._backward(grad, q.detach(), k.detach(), v.detach(), out, lse, None, None, bias, None,
                                        None, 16, 16, 0.0, causal)
        for mine, theirs in ((dq, q.grad), (dk, k.grad), (dv, v.grad)):
            assert mine.shape == theirs.shape and torch.allclose(mine, theirs, atol=1e-5)
    # causal with fewer queries than keys: torch's mask is aligned top-left
    q, k = torch.randn(1, 2, 8, 8, dtype=torch.float64), torch.randn(1, 2, 12, 8, dtype=torch.float64)
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, k, is_causal=True)
    assert torch.allclose(sdpa_cpu._forward(q, k, k, None, True, 0.0, True)[0], ref, atol=1e-5)
