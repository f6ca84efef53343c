"""Three torch.compile'd functions whose compile runs real ops for the graph's GPU (issue 26 item 1).

``grown`` starts from ``torch.tensor([], device=x.device)`` (Hugging Face's fresh KV cache) and concatenates onto it:
AOT autograd's tracer computes that constant for real on the device. ``transposed`` calls ``.contiguous()`` on a
transposed tensor, whose binding selects the device. ``unaligned`` is a float32 mm with K = 63, which Inductor
times padded and unpadded on real GPU tensors. ``repeated`` launches one kernel twice (``sin`` of each operand of an
mm: the same code, which Inductor writes once). Each prints its result's sum, checked against eager.
"""

import torch


def grown(x: torch.Tensor) -> torch.Tensor:
    cache = torch.tensor([], dtype=x.dtype, device=x.device)
    return torch.cat([cache, x.sin()]) * 2


def transposed(x: torch.Tensor) -> torch.Tensor:
    return (x.transpose(0, 1).contiguous() + 1).relu()


def unaligned(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return (a @ b).tanh()


def repeated(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return torch.sin(x) @ torch.sin(w).t()


def main() -> None:
    torch.manual_seed(0)
    x = torch.randn(16, 32, device="cuda")
    a, b = torch.randn(32, 63, device="cuda"), torch.randn(63, 64, device="cuda")
    w = torch.randn(16, 32, device="cuda")
    for fn, args in ((grown, (x,)), (transposed, (x,)), (unaligned, (a, b)), (repeated, (x, w))):
        out = torch.compile(fn)(*args)
        torch.testing.assert_close(out, fn(*args))
        print(fn.__name__, round(float(out.sum()), 3))


if __name__ == "__main__":
    main()
