"""Corpus driver: GemLite's low-bit matmul kernels (GEMM, GEMM_SPLITK, GEMV variants), fp16 activations."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import case, main

IN, OUT, GROUP = 512, 256, 64


def layer(bits: int) -> Any:
    import torch
    from gemlite import DType, GemLiteLinear
    lin = GemLiteLinear(bits, group_size=GROUP, in_features=IN, out_features=OUT, input_dtype=DType.FP16,
                        output_dtype=DType.FP16)
    w_q = torch.randint(0, 2 ** bits, (OUT, IN), device="cuda", dtype=torch.uint8)
    scales = torch.rand(OUT, IN // GROUP, device="cuda", dtype=torch.float16)
    zeros = torch.full((OUT, IN // GROUP), float(2 ** (bits - 1)), device="cuda", dtype=torch.float16)
    lin.pack(w_q, scales, zeros, None)
    return lin


def _register(bits: int, kind: str, rows: int) -> None:
    def run() -> None:
        import torch
        layer(bits).forward_manual(torch.randn(rows, IN, device="cuda", dtype=torch.float16), matmul_type=kind)
    case(f"W{bits} {kind} M{rows}")(run)


for _bits in (4, 8):
    for _kind, _rows in (("GEMM", 64), ("GEMM_SPLITK", 16), ("GEMV", 1), ("GEMV_REVSPLITK", 1),
                         ("GEMV_SPLITK", 1)):
        _register(_bits, _kind, _rows)


@case("W4 auto forward M1")
def auto_forward() -> None:
    import torch
    layer(4)(torch.randn(1, IN, device="cuda", dtype=torch.float16))


if __name__ == "__main__":
    sys.exit(main())
