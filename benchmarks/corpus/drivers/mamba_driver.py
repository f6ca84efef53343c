"""Corpus driver: mamba-ssm's Triton ops (mamba_ssm/ops/triton), loaded from the unpacked sdist ($CORPUS_SRC).

mamba-ssm's package ``__init__`` imports its CUDA extension, which is not built here: the packages
``mamba_ssm``, ``mamba_ssm.ops`` and ``mamba_ssm.ops.triton`` are made as empty namespaces over the sdist's
folders, so only the pure-Python Triton modules (and the utils they import) load.
"""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import backward, case, main, rand

ROOT = Path(os.environ.get("CORPUS_SRC", ".")) / "mamba_ssm"
for _name, _folder in (("mamba_ssm", ROOT), ("mamba_ssm.ops", ROOT / "ops"),
                       ("mamba_ssm.ops.triton", ROOT / "ops" / "triton")):
    _module = types.ModuleType(_name)
    _module.__path__ = [str(_folder)]
    sys.modules[_name] = _module

B, L, H, P, G, N, CHUNK = 1, 128, 4, 32, 1, 16, 64


@case("mamba_chunk_scan_combined")
def chunk_scan_combined() -> None:
    import torch
    from mamba_ssm.ops.triton.ssd_combined import mamba_chunk_scan_combined
    x = rand(B, L, H, P, grad=True)
    dt = rand(B, L, H, dtype=torch.float32, grad=True)
    a = (-torch.rand(H, device="cuda", dtype=torch.float32)).requires_grad_(True)
    bb, cc = rand(B, L, G, N, grad=True), rand(B, L, G, N, grad=True)
    backward(mamba_chunk_scan_combined(x, dt, a, bb, cc, CHUNK, D=rand(H, dtype=torch.float32), dt_softplus=True))


@case("selective_state_update")
def selective_state_update() -> None:
    import torch
    from mamba_ssm.ops.triton.selective_state_update import selective_state_update as ssu
    state = rand(B, H, P, N, dtype=torch.float32)
    x, dt = rand(B, H, P), rand(B, H, P)
    a = -torch.rand(H, P, N, device="cuda", dtype=torch.float32)
    ssu(state, x, dt, a, rand(B, G, N), rand(B, G, N), D=rand(H, P, dtype=torch.float32), z=rand(B, H, P),
        dt_bias=rand(H, P), dt_softplus=True)


@case("layer_norm_fn")
def layer_norm_fn() -> None:
    from mamba_ssm.ops.triton.layer_norm import layer_norm_fn as fn
    backward(fn(rand(B * L, 256, grad=True), rand(256, grad=True), rand(256, grad=True),
                residual=rand(B * L, 256, grad=True), prenorm=False))


@case("rms_norm_fn")
def rms_norm_fn() -> None:
    from mamba_ssm.ops.triton.layer_norm import rms_norm_fn as fn
    backward(fn(rand(B * L, 256, grad=True), rand(256, grad=True), None))


@case("gated_rmsnorm_fn")
def gated_rmsnorm() -> None:
    from mamba_ssm.ops.triton.layernorm_gated import rmsnorm_fn
    backward(rmsnorm_fn(rand(B * L, 256, grad=True), rand(256, grad=True), None, z=rand(B * L, 256, grad=True),
                        group_size=64))


@case("swiglu")
def swiglu() -> None:
    from mamba_ssm.ops.triton.k_activations import swiglu as fn
    backward(fn(rand(B * L, 512, grad=True)))


if __name__ == "__main__":
    sys.exit(main())
