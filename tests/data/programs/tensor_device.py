"""A program that picks its kernel's constexprs from its tensors' device, in Liger-Kernel's style.

Liger's norms' backward computes ``sm_count = 1; if X.device.type == "cuda": sm_count =
torch.cuda.get_device_properties(X.device).multi_processor_count`` and launches one program per SM with
``rows_per_program = ceil(n_rows / sm_count)`` rows each; here once in the forward (on a tensor made with
``device="cuda"``) and once in a custom autograd.Function's backward (on the output it saved, as Liger's
fused_add_rms_norm does, and on the gradient the autograd engine hands it). It prints what its tensors say.
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def rows_kernel(x_ptr, out_ptr, n_rows, n_cols, ROWS_PER_PROGRAM: tl.constexpr, BLOCK: tl.constexpr,
                BACKWARD: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    for row in range(pid * ROWS_PER_PROGRAM, min((pid + 1) * ROWS_PER_PROGRAM, n_rows)):
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols)
        tl.store(out_ptr + row * n_cols + cols, x * 2, mask=cols < n_cols)


def launch(x, backward):
    sm_count = 1
    if x.device.type == "cuda":
        sm_count = torch.cuda.get_device_properties(x.device).multi_processor_count
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    rows_kernel[(sm_count,)](x, out, n_rows, n_cols, ROWS_PER_PROGRAM=math.ceil(n_rows / sm_count), BLOCK=64,
                                 BACKWARD=backward)
    return out


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = launch(x, False)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        print("saved_device", out.device)
        print("grad_device", grad.device)
        return launch(grad.contiguous(), True)


if __name__ == "__main__":
    x = torch.randn(264, 64, device="cuda", requires_grad=True)
    host = torch.randn(264, 64)
    print("device", x.device)
    print("type", x.device.type, "index", x.device.index, "is_cuda", x.is_cuda, "get_device", x.get_device())
    print("computed", (x * 2).device, torch.empty_like(x).device, torch.empty(3, device=x.device).device)
    print("host", host.device, host.is_cuda, host.get_device(), "moved", host.cuda().device, "host_after",
          host.device, "back", x.cpu().device, x.detach().to("cpu").device)
    print("linear", torch.nn.Linear(4, 4, device="cuda").weight.device, torch.nn.Linear(4, 4).cuda().weight.device)
    Double.apply(x).sum().backward()
    print("x_grad", x.grad.device)
