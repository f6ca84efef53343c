"""A program that finds its GPU vendor as FlagGems does: it runs each vendor's tool and takes the one that succeeds.

``nvidia-smi`` and ``rocm-smi`` are run in threads; the vendor whose tool exits 0 picks the kernel
(``nvidia_scale_kernel`` or ``amd_scale_kernel``). With no tool succeeding it stops, as FlagGems does, with
"No device were detected". It prints what ``nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader`` said.
"""

import queue
import shlex
import subprocess
import sys
import threading

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()
VENDORS = {"nvidia": "nvidia-smi", "amd": "rocm-smi"}


def detect_vendor():
    found = queue.Queue()

    def probe(vendor, command):
        try:
            if subprocess.run(shlex.split(command), capture_output=True, text=True).returncode == 0:
                found.put(vendor)
        except OSError:
            pass

    threads = [threading.Thread(target=probe, args=item) for item in VENDORS.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if found.empty():
        raise RuntimeError("No device were detected on your machine !")
    return found.get()


@triton.jit
def nvidia_scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


@triton.jit
def amd_scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 3.0, mask=offs < n)


def main() -> int:
    vendor = detect_vendor()
    print(f"vendor {vendor}")
    if vendor == "nvidia":
        query = ["nvidia-smi", "--query-gpu=name,compute_cap", "--format=csv,noheader"]
        print("nvidia-smi: " + subprocess.run(query, capture_output=True, text=True, check=True).stdout.strip())
    x = torch.ones(256, device=DEVICE)
    kernel = nvidia_scale_kernel if vendor == "nvidia" else amd_scale_kernel
    kernel[(1,)](x, 256, BLOCK=256)
    return 0


if __name__ == "__main__":
    sys.exit(main())
