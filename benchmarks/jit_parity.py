"""On a GPU: does irscope's offline capture equal what Triton's JIT compiles for the same launch?

For each bundled kernel, launch it through the JIT on the local GPU with real tensors at the
capture sizes and config 0 (fresh Triton cache), then capture it offline with irscope for the
GPU's target, and compare the stages text for text. Prints one line per kernel and stage.
With ``--set NAME=VALUE`` (repeatable) both sides use that what-if variant of config 0: the JIT
launch gets the value, irscope captures ``--set NAME=VALUE``.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
import tempfile


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("kernels", nargs="*", default=["vector_add", "softmax", "matmul"])
    parser.add_argument("--stages", default="ttir,ttgir,llir,ptx")
    parser.add_argument("--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                        help="a what-if setting applied to both sides")
    args = parser.parse_args()

    import torch

    if not torch.cuda.is_available():
        print("jit_parity: no GPU visible to torch; this check needs one", file=sys.stderr)
        return 2
    import triton

    from irscope.model.targets import native_target
    from irscope.request.captures import LaunchSpec, get_capture, make_request
    from irscope.request.settings import parse_settings
    from irscope.toolchain.stages import read_stage

    target = native_target()
    print(f"GPU {torch.cuda.get_device_name(0)}, native target {target.name if target else None}, "
          f"Triton {triton.__version__}, torch {torch.__version__}")
    failures = 0
    store = tempfile.mkdtemp(prefix="irscope-parity-")
    for name in args.kernels:
        base = make_request(name, "native")
        info, module = base.kernel, base.kernel.load()
        config = {**info.config(base.target.backend, 0), **parse_settings(args.settings)}
        req = make_request(name, "native", launch=LaunchSpec(settings=tuple(args.settings)))
        os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="jit-cache-")

        def new(shape: tuple[int, ...], dt: object, role: str) -> torch.Tensor:
            dt = getattr(torch, dt) if isinstance(dt, str) else dt
            return torch.empty(shape, dtype=dt, device="cuda").normal_() if role == "input" else \
                torch.empty(shape, dtype=dt, device="cuda")

        tensors = module.make_tensors(req.sizes, info.dtype, new)
        launch_args, kwargs = module.kernel_args(tensors, req.sizes, config)
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        jit_kernel = getattr(module, info.function)[module.grid(req.sizes, config, sms)](*launch_args, **kwargs)
        torch.cuda.synchronize()
        del os.environ["TRITON_CACHE_DIR"]
        capture = get_capture(req, store)
        for stage in args.stages.split(","):
            jit_text, ours = jit_kernel.asm[stage], read_stage(capture, stage)
            if jit_text == ours:
                print(f"{name:<11} {stage:<6} identical ({len(ours.splitlines())} lines)")
                continue
            failures += 1
            diff = list(difflib.unified_diff(jit_text.splitlines(), ours.splitlines(), "jit", "irscope", lineterm="",
                                             n=0))
            print(f"{name:<11} {stage:<6} DIFFERS in {sum(1 for d in diff if d[:1] in '+-') - 2} lines:")
            print("\n".join("    " + d for d in diff[:12]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
