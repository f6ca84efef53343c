"""A training step of a stack of GPT-style blocks of different widths under torch.compile (forward and backward).

Each block has its own width, so Inductor writes each block's kernels anew (its static sizes are in their source)
rather than reusing one block's: about 200 distinct Triton kernels, the "program with hundreds of kernels" that
benchmarks/report_speed.py times ``irscope report`` on. Run it under ``irscope capture --target sm90 --``.
"""

import itertools

import torch


class Block(torch.nn.Module):
    def __init__(self, dim: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.ln1 = torch.nn.LayerNorm(dim)
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.proj = torch.nn.Linear(dim, dim)
        self.ln2 = torch.nn.LayerNorm(dim)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(dim, 4 * dim), torch.nn.GELU(), torch.nn.Linear(4 * dim, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        mask = torch.tril(torch.ones(T, T, device=x.device)).view(1, 1, T, T)
        att = (q @ k.transpose(-2, -1)) * (C // self.heads) ** -0.5
        att = att.masked_fill(mask == 0, float("-inf")).softmax(dim=-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(B, T, C))
        return x + self.mlp(self.ln2(x))


class Stack(torch.nn.Module):
    def __init__(self, widths: tuple[int, ...], vocab: int = 256) -> None:
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, widths[0])
        self.blocks = torch.nn.ModuleList(Block(w, 4) for w in widths)
        self.ups = torch.nn.ModuleList(torch.nn.Linear(a, b) for a, b in itertools.pairwise(widths))
        self.head = torch.nn.Linear(widths[-1], vocab, bias=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)
        for i, block in enumerate(self.blocks):
            x = block(x)
            if i < len(self.ups):
                x = self.ups[i](x)
        return self.head(x)


def main() -> None:
    torch.manual_seed(0)
    model = Stack((64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384)).to("cuda")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step = torch.compile(model)
    tokens = torch.randint(0, 256, (2, 32), device="cuda")
    for _ in range(2):
        logits = step(tokens)
        loss = torch.nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), tokens.view(-1))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    print("loss", round(float(loss), 3))


if __name__ == "__main__":
    main()
