"""A torch.compile'd nn.Module whose parameters require grad, run under ``torch.no_grad()`` (issue 26 item 2a).

Its parameters are ordinary ``nn.Linear`` weights (``requires_grad=True``); inference runs without autograd.
It prints the output's shape and the sum of the output.
"""

import torch


class Mlp(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.up = torch.nn.Linear(64, 128)
        self.down = torch.nn.Linear(128, 64)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.down(torch.nn.functional.silu(self.up(x)))


def main() -> None:
    torch.manual_seed(0)
    model = Mlp().to("cuda")
    assert all(p.requires_grad for p in model.parameters())
    compiled = torch.compile(model)
    x = torch.randn(16, 64, device="cuda")
    with torch.no_grad():
        out = compiled(x)
    torch.testing.assert_close(out, model(x).detach(), atol=1e-4, rtol=1e-4)
    print("shape", tuple(out.shape))


if __name__ == "__main__":
    main()
