"""A torch.compile'd attention block that builds its causal mask on the device inside ``forward`` (issue 26 item 2b).

``torch.triu(torch.ones(T, T, device=x.device))`` makes a tensor on the input's device in the middle of the
traced graph, as many GPT implementations do.
"""

import torch


class CausalSelfAttention(torch.nn.Module):
    def __init__(self, dim: int = 64, heads: int = 4) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(dim, 3 * dim, bias=False)
        self.proj = torch.nn.Linear(dim, dim, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        mask = torch.triu(torch.ones(T, T, device=x.device, dtype=torch.bool), diagonal=1)
        att = (q @ k.transpose(-2, -1)) * (1.0 / (C // self.heads) ** 0.5)
        att = att.masked_fill(mask, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, C)
        return self.proj(y)


def main() -> None:
    torch.manual_seed(0)
    block = CausalSelfAttention().to("cuda").eval()
    x = torch.randn(2, 16, 64, device="cuda")
    with torch.no_grad():
        out = torch.compile(block)(x)
        torch.testing.assert_close(out, block(x), atol=1e-4, rtol=1e-4)
    print("shape", tuple(out.shape))


if __name__ == "__main__":
    main()
