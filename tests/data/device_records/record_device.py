"""Run on a real GPU: record what torch and Triton answer about the device (the queries the offline
stand-in answers), and optionally, for programs given as arguments, how many kernels they compile and
how many autotune configs survive each autotuner's pruning.

    OUT=. python record_device.py [program.py ...]
"""

from __future__ import annotations

import json
import os
import runpy
import sys
import time
from pathlib import Path
from typing import Any

import torch
import triton
from triton.runtime import driver
from triton.runtime.autotuner import Autotuner


def device_answers() -> dict[str, Any]:
    """torch.cuda's and Triton's answers about device 0."""
    props = torch.cuda.get_device_properties(0)
    plain = (int, float, str, bool)
    target = driver.active.get_current_target()
    return {
        "torch_properties": {k: getattr(props, k) if isinstance(getattr(props, k), plain) else str(getattr(props, k))
                             for k in dir(props) if not k.startswith("_")},
        "name": torch.cuda.get_device_name(), "capability": list(torch.cuda.get_device_capability()),
        "device_count": torch.cuda.device_count(), "torch_version_hip": torch.version.hip,
        "triton_properties": driver.active.utils.get_device_properties(torch.cuda.current_device()),
        "current_target": [target.backend, target.arch, target.warp_size],
    }


def program_compiles(programs: list[str]) -> dict[str, Any]:
    """Per program: wall seconds, compiles, and each autotuner's configs before and after its pruning."""
    compiles: list[str] = []
    decisions: list[dict[str, Any]] = []

    def listener(**kw: Any) -> None:
        src = kw.get("src")
        compiles.append(getattr(getattr(src, "fn", None), "__name__", "?"))

    triton.knobs.compilation.listener = listener
    prune = Autotuner.prune_configs

    def counting(self: Any, kwargs: Any, *args: Any, **kw: Any) -> Any:
        kept = prune(self, kwargs, *args, **kw)
        decisions.append({"fn": self.base_fn.__name__, "configs": len(self.configs), "after_prune": len(kept)})
        return kept

    Autotuner.prune_configs = counting
    out = {}
    for program in programs:
        compiles.clear()
        decisions.clear()
        start = time.time()
        try:
            runpy.run_path(program, run_name="__main__")
            torch.cuda.synchronize()
            error = None
        except Exception as exc:  # recorded, not raised: the next program still runs
            error = repr(exc)[:500]
        out[program] = {"seconds": time.time() - start, "compiles": len(compiles), "decisions": list(decisions),
                        "error": error, "kernels": sorted(set(compiles))}
    return out


def main() -> None:
    folder = Path(os.environ.get("OUT", "."))
    (folder / "device.json").write_text(json.dumps(device_answers(), indent=1, default=str))
    if sys.argv[1:]:
        (folder / "programs.json").write_text(json.dumps(program_compiles(sys.argv[1:]), indent=1, default=str))


if __name__ == "__main__":
    main()
