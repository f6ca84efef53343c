"""Corpus driver: FlagGems' aten operators called directly (``flag_gems.OP``), small bf16/fp32 shapes."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import case, main, rand

M, N = 64, 512


def gems() -> Any:
    """flag_gems (it finds its vendor by running nvidia-smi / rocm-smi: the capture's stand-ins answer)."""
    import flag_gems
    return flag_gems


def op(name: str, call: Callable[[Any], Any]) -> None:
    """Register a case calling ``call(flag_gems)``."""
    case(name)(lambda: call(gems()))


def _f32(*shape: int) -> Any:
    import torch
    return rand(*shape, dtype=torch.float32)


def _ints(*shape: int) -> Any:
    import torch
    return torch.randint(0, N, shape, device="cuda")


for _name in ("abs", "exp", "sin", "cos", "tanh", "sigmoid", "relu", "silu", "gelu", "rsqrt", "neg", "reciprocal",
              "erf", "log", "sqrt"):
    op(_name, lambda fg, _n=_name: getattr(fg, _n)(rand(M, N)))
op("add", lambda fg: fg.add(rand(M, N), rand(M, N)))
op("mul", lambda fg: fg.mul(rand(M, N), rand(M, N)))
op("sub", lambda fg: fg.sub(rand(M, N), rand(M, N)))
op("div", lambda fg: fg.true_divide(rand(M, N), rand(M, N)))
op("pow", lambda fg: fg.pow_tensor_scalar(rand(M, N), 2.0))
op("where", lambda fg: fg.where_self(rand(M, N) > 0, rand(M, N), rand(M, N)))
op("clamp", lambda fg: fg.clamp(rand(M, N), -1.0, 1.0))
op("eq", lambda fg: fg.eq(rand(M, N), rand(M, N)))
op("sum", lambda fg: fg.sum(rand(M, N)))
op("sum_dim", lambda fg: fg.sum_dim(rand(M, N), [-1]))
op("mean_dim", lambda fg: fg.mean_dim(rand(M, N), [-1]))
op("amax", lambda fg: fg.amax(rand(M, N), [-1]))
op("argmax", lambda fg: fg.argmax(rand(M, N), -1))
op("max_dim", lambda fg: fg.max_dim(rand(M, N), -1))
op("prod", lambda fg: fg.prod(rand(M, N)))
op("var_mean", lambda fg: fg.var_mean(_f32(M, N), [-1]))
op("vector_norm", lambda fg: fg.vector_norm(_f32(M, N), 2, [-1]))
op("cumsum", lambda fg: fg.cumsum(_f32(M, N), -1))
op("softmax", lambda fg: fg.softmax(rand(M, N), -1))
op("log_softmax", lambda fg: fg.log_softmax(rand(M, N), -1))
op("layer_norm", lambda fg: fg.layer_norm(rand(M, N), [N], rand(N), rand(N), 1e-5))
op("rms_norm", lambda fg: fg.rms_norm(rand(M, N), [N], rand(N), 1e-5))
op("group_norm", lambda fg: fg.group_norm(_f32(2, 8, 64), _f32(8), _f32(8), 2, 8, 64, 4, 1e-5))
op("mm", lambda fg: fg.mm(rand(128, 256), rand(256, 128)))
op("bmm", lambda fg: fg.bmm(rand(2, 64, 128), rand(2, 128, 64)))
op("addmm", lambda fg: fg.addmm(rand(128), rand(128, 256), rand(256, 128)))
op("mv", lambda fg: fg.mv(rand(128, 256), rand(256)))
op("embedding", lambda fg: fg.embedding(rand(N, 64), _ints(M)))
op("index_select", lambda fg: fg.index_select(rand(N, 64), 0, _ints(M)))
op("gather", lambda fg: fg.gather(rand(M, N), 1, _ints(M, 8)))
op("cat", lambda fg: fg.cat([rand(M, N), rand(M, N)], 0))
op("fill", lambda fg: fg.fill_scalar(rand(M, N), 1.0))
op("zeros", lambda fg: fg.zeros((M, N), device="cuda"))
op("triu", lambda fg: fg.triu(rand(M, M)))
op("topk", lambda fg: fg.topk(_f32(M, N), 8))
op("sort", lambda fg: fg.sort(_f32(M, 256), -1))
op("dropout", lambda fg: fg.dropout(rand(M, N), 0.1, True))
op("isclose", lambda fg: fg.isclose(rand(M, N), rand(M, N)))
op("cross_entropy", lambda fg: fg.cross_entropy_loss(_f32(M, N), _ints(M)))

if __name__ == "__main__":
    sys.exit(main())
