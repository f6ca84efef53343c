"""Library code that dispatches on its tensors' device, as FlagGems' ``where`` and gemlite's GEMV do.

``python device_dispatch.py type``: ``where_out`` keeps the operands' non-CPU devices and asserts there is one
(on a GPU, all three are cuda:0). ``python device_dispatch.py index``: ``scale_forward`` picks its per-GPU lookup
table with ``x.device.index`` (0 on a GPU). Either then launches ``select_kernel``. With ``backward`` as a second
argument it runs in a custom backward on the gradient autograd hands it, which the offline stand-in does not
mark (a custom backward that saved no GPU tensor sees a gradient that says cpu). With ``custom_op`` it runs in
a ``torch.library.custom_op``'s kernel, as gemlite's ``forward_functional`` runs its GEMV.
"""

import sys

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()
TABLES = [torch.arange(16, dtype=torch.float32, device=f"cuda:{i}") for i in range(torch.cuda.device_count())]


@triton.jit
def select_kernel(c_ptr, a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    c = tl.load(c_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.where(c != 0, tl.load(a_ptr + offs, mask=mask), tl.load(b_ptr + offs, mask=mask)),
             mask=mask)


def where_out(condition, a, b):
    devices = [t.device for t in (condition, a, b) if t.device.type != "cpu"]
    assert len(devices), "CPU only. There seems a mistake to dispatch to here."
    out = torch.empty_like(a, device=devices[0])
    select_kernel[(1,)](condition, a, b, out, a.numel(), BLOCK=256)
    return out


def scale_forward(x):
    device_index = x.device.index
    table = TABLES[device_index]
    out = torch.empty_like(x)
    select_kernel[(1,)](x, table, x, out, 16, BLOCK=256)
    return out


def run(x):
    return where_out(x > 0, x, -x) if sys.argv[1] == "type" else scale_forward(x)


@torch.library.custom_op("device_dispatch::run", mutates_args=())
def run_op(x: torch.Tensor) -> torch.Tensor:
    return run(x)


def main() -> int:

    class Through(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            run(grad)
            return grad

    x = torch.randn(256, device=DEVICE, requires_grad=sys.argv[2:] == ["backward"])
    if x.requires_grad:
        Through.apply(x).sum().backward()
    elif sys.argv[2:] == ["custom_op"]:
        run_op(x)
    else:
        run(x)
    return 0


if __name__ == "__main__":
    sys.exit(main())
