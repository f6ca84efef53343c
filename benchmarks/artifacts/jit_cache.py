"""On a GPU: the bundled kernels launched through Triton's own JIT, into a Triton cache folder irscope can open.

    python3 jit_cache.py CACHE_DIR [--tritonparse TRACE_DIR] [--own ARCHIVE.tar.gz] [KERNEL ...]

Each bundled kernel (vector_add, softmax, matmul by default) is launched once at its capture sizes and config 0
with ``TRITON_CACHE_DIR=CACHE_DIR``, and its result checked against torch. With ``--tritonparse`` TritonParse's
structured logging traces the compiles and the launches into TRACE_DIR; with ``--own`` irscope captures the same
kernels offline for the GPU's target and exports them (what ``tests/test_ingest_device.py`` compares the cache
with). ``benchmarks/artifacts/device.sh`` runs it on the device; the results are under tests/data/artifacts.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("cache", type=Path)
    parser.add_argument("kernels", nargs="*", default=["vector_add", "softmax", "matmul"])
    parser.add_argument("--tritonparse", type=Path, default=None, metavar="TRACE_DIR")
    parser.add_argument("--own", type=Path, default=None, metavar="ARCHIVE")
    args = parser.parse_args()
    os.environ["TRITON_CACHE_DIR"] = str(args.cache.resolve())
    if args.tritonparse is not None:
        import tritonparse.structured_logging as tp

        tp.init(str(args.tritonparse), enable_trace_launch=True)
    import torch

    from irscope.compile.kernel_module import load_module
    from irscope.request.captures import get_capture, make_request

    if not torch.cuda.is_available():
        print("jit_cache: no GPU visible to torch; this needs one", file=sys.stderr)
        return 2
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    store = tempfile.mkdtemp(prefix="jit-cache-own-")
    keys = []
    failed = 0
    for name in args.kernels:
        req = make_request(name, "native")
        info = req.kernel
        module = load_module(info.path)
        config = info.config(req.target.backend, 0)

        def new(shape: tuple[int, ...], dt: object, role: str) -> torch.Tensor:
            dt = getattr(torch, dt) if isinstance(dt, str) else dt
            return torch.empty(shape, dtype=dt, device="cuda").normal_() if role == "input" else \
                torch.empty(shape, dtype=dt, device="cuda")

        tensors = module.make_tensors(req.sizes, info.dtype, new)
        launch_args, kwargs = module.kernel_args(tensors, req.sizes, config, sms)
        getattr(module, info.function)[module.grid(req.sizes, config, sms)](*launch_args, **kwargs)
        torch.cuda.synchronize()
        out = next(tensors[k] for k in ("output", "c", "y") if k in tensors)
        want = module.reference(tensors)
        ok = torch.allclose(out.float(), want.float(), **info.tolerance)
        failed += not ok
        print(f"jit_cache: {name}: launched, {'matches torch' if ok else 'DIFFERS from torch'}", flush=True)
        if args.own is not None:
            keys.append(get_capture(req, store).manifest.key)
    if args.own is not None:
        from irscope.store.archive import export
        from irscope.store.store import Store

        st = Store(Path(store))
        export([c for c in (st.get(k) for k in keys) if c is not None], args.own)
        print(f"jit_cache: irscope's own captures {keys} -> {args.own}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
