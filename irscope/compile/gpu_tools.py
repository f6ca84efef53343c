"""Inside an offline ``irscope capture``: ``nvidia-smi`` / ``rocm-smi`` on PATH, answering as the target's GPU.

Libraries find their vendor by running the vendor's tool and looking at its exit status (FlagGems runs
``nvidia-smi``, ``rocm-smi`` and others and takes the one that succeeds). Offline the machine has no GPU, so the
capture puts two small programs first on PATH: the target vendor's tool lists the stood-in GPU and exits 0, the
other vendor's exits 9 as it does on a machine without that vendor's driver. Answered: ``nvidia-smi`` with no
arguments, ``-L`` and ``--query-gpu=F,... --format=csv[,noheader][,nounits]`` (name, compute_cap,
memory.total, count, index, uuid; other fields ``[N/A]``); ``rocm-smi`` with any arguments (its product name).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from irscope.model.gpus import Gpu

UUID = "GPU-00000000-0000-0000-0000-000000000000"
NO_DRIVER = {  # what each tool says, and its exit status, where its vendor's driver is not loaded
    "nvidia-smi": ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.", 9),
    "rocm-smi": ("ERROR:root:Driver not initialized (amdgpu not found in modules)", 2),
}

_NVIDIA = '''
import sys
ANSWERS = {answers!r}
args = sys.argv[1:]
query = next((a.split("=", 1)[1] for a in args if a.startswith("--query-gpu=")), None)
if query is None:
    print("GPU 0: " + ANSWERS["name"] + " (UUID: " + ANSWERS["uuid"] + ")")
    sys.exit(0)
form = next((a.split("=", 1)[1] for a in args if a.startswith("--format=")), "csv")
fields = [f.strip() for f in query.split(",") if f.strip()]
units = "nounits" not in form
if "noheader" not in form:
    print(", ".join(f + (" [MiB]" if f == "memory.total" and units else "") for f in fields))
print(", ".join(ANSWERS.get(f, "[N/A]") + (" MiB" if f == "memory.total" and units else "") for f in fields))
'''

_AMD = '''
import sys
print("GPU[0]\\t\\t: Card Series: \\t\\t{product}")
print("GPU[0]\\t\\t: GFX Version: \\t\\t{arch}")
'''


def _script(gpu: Gpu, tool: str) -> str:
    """The Python text of the stand-in ``tool`` for ``gpu``."""
    ours = "nvidia-smi" if gpu.vendor == "NVIDIA" else "rocm-smi"
    if tool != ours:
        message, status = NO_DRIVER[tool]
        return f"import sys\nprint({message!r})\nsys.exit({status})\n"
    if tool == "rocm-smi":
        return _AMD.format(product=gpu.product, arch=gpu.gcn_arch_name.split(":")[0])
    answers = {"name": gpu.product, "compute_cap": "{}.{}".format(*gpu.capability), "count": "1", "index": "0",
               "memory.total": str(gpu.memory_bytes // (1024 * 1024)), "uuid": UUID}
    return _NVIDIA.format(answers=answers)


def install(gpu: Gpu, folder: Path) -> None:
    """Write the stand-in tools for ``gpu`` into ``folder`` and put it first on this process's PATH (once)."""
    folder.mkdir(parents=True, exist_ok=True)
    for tool in NO_DRIVER:
        path = folder / tool
        path.write_text(f"#!{sys.executable}\n{_script(gpu, tool)}", encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    rest = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p != str(folder)]
    os.environ["PATH"] = os.pathsep.join([str(folder), *rest])
