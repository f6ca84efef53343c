"""On a GPU: a program run under torch.profiler (a Chrome trace) or Proton (a Hatchet profile), for --measured.

    python3 profile_program.py PROGRAM.py --torch-trace OUT.json
    python3 profile_program.py PROGRAM.py --proton OUT_NAME

The program's ``main()`` runs once to compile and warm up, then once more under the profiler; what the profiler
writes is what ``irscope report --measured`` and ``perf --measured`` read. ``device.sh`` runs it on the device.
"""

from __future__ import annotations

import argparse
import runpy
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("program")
    parser.add_argument("--torch-trace", default=None)
    parser.add_argument("--proton", default=None)
    args = parser.parse_args()
    program = runpy.run_path(args.program, run_name="profiled")
    import torch

    program["main"]()
    torch.cuda.synchronize()
    if args.torch_trace:
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            program["main"]()
            torch.cuda.synchronize()
        prof.export_chrome_trace(args.torch_trace)
        print(f"profile_program: torch.profiler trace -> {args.torch_trace}")
    if args.proton:
        import triton.profiler as proton

        proton.start(args.proton, hook="triton")
        program["main"]()
        torch.cuda.synchronize()
        proton.finalize()
        print(f"profile_program: Proton profile -> {args.proton}.hatchet")
    return 0


if __name__ == "__main__":
    sys.exit(main())
