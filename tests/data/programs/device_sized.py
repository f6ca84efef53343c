"""A program that sizes its kernel from the GPU it runs on, asking the way fla and Liger ask.

fla reads ``torch.cuda.get_device_name``/``get_device_capability`` and Triton's
``driver.active.utils.get_device_properties(i)['max_shared_mem']`` at import time and picks larger
tiles when the GPU has an H100's shared memory; Liger launches one program per SM from
``torch.cuda.get_device_properties(x.device).multi_processor_count``; many kernels branch on
``torch.version.hip``. Tensors are made with ``device="cuda"``. It prints what it was told, one
``key value`` per line, and every answer ends up in the kernel as a constexpr.
"""

import torch
import triton
import triton.language as tl

NAME = torch.cuda.get_device_name(0)
MAJOR, MINOR = torch.cuda.get_device_capability()
PROPS = torch.cuda.get_device_properties(torch.cuda.current_device())
SMEM_OPTIN = int(getattr(PROPS, "shared_memory_per_block_optin", PROPS.shared_memory_per_block))
TRITON_PROPS = triton.runtime.driver.active.utils.get_device_properties(0)
IS_HIP = torch.version.hip is not None
BLOCK = 128 if TRITON_PROPS["max_shared_mem"] >= 232448 else 64  # fla's Backend.HOPPER threshold


@triton.jit
def sized_kernel(out_ptr, n, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr, CAPABILITY: tl.constexpr,
                 MEMORY_GIB: tl.constexpr, HIP: tl.constexpr, HOPPER_NAME: tl.constexpr):
    pid = tl.program_id(0)
    for start in range(pid * BLOCK, n, NUM_SMS * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.full((BLOCK,), CAPABILITY, tl.float32), mask=offs < n)


if __name__ == "__main__":
    for key, value in (("name", NAME), ("capability", (MAJOR, MINOR)), ("available", torch.cuda.is_available()),
                       ("count", torch.cuda.device_count()), ("sms", PROPS.multi_processor_count),
                       ("smem_optin", SMEM_OPTIN), ("l2", PROPS.L2_cache_size), ("warp", PROPS.warp_size),
                       ("arch", PROPS.gcnArchName or "-"), ("hip", IS_HIP),
                       ("triton_props", sorted(TRITON_PROPS.items()))):
        print(key, value)
    x = torch.randn(4096, device="cuda")
    with torch.cuda.device(x.device.index):
        out = torch.empty_like(x).to("cuda")
        sms = torch.cuda.get_device_properties(x.device).multi_processor_count
        print("tensor_device", out.device)
        sized_kernel[(sms,)](out, x.numel(), BLOCK=BLOCK, NUM_SMS=sms, CAPABILITY=MAJOR * 10 + MINOR,
                             MEMORY_GIB=PROPS.total_memory // 2**30, HIP=IS_HIP, HOPPER_NAME="NVIDIA H" in NAME)
