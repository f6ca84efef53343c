"""One training step of a tiny GPT-style block under torch.compile: forward and backward, parameters requiring grad.

Layer norm, causal attention with its mask built on the device inside ``forward``, a GELU MLP, a cross-entropy
loss, then ``loss.backward()`` and an SGD step, twice; Inductor compiles the forward and the backward graph.
"""

import torch

STEPS = 2  # the forward and backward graphs each run once a step

class Block(torch.nn.Module):
    def __init__(self, dim: int = 64, heads: int = 4, vocab: int = 128) -> None:
        super().__init__()
        self.heads = heads
        self.embed = torch.nn.Embedding(vocab, dim)
        self.ln1 = torch.nn.LayerNorm(dim)
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.proj = torch.nn.Linear(dim, dim)
        self.ln2 = torch.nn.LayerNorm(dim)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(dim, 4 * dim), torch.nn.GELU(), torch.nn.Linear(4 * dim, dim))
        self.head = torch.nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        mask = torch.tril(torch.ones(T, T, device=x.device)).view(1, 1, T, T)
        att = (q @ k.transpose(-2, -1)) * (C // self.heads) ** -0.5
        att = att.masked_fill(mask == 0, float("-inf")).softmax(dim=-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(B, T, C))
        x = x + self.mlp(self.ln2(x))
        return self.head(x)


def main() -> None:
    torch.manual_seed(0)
    model = Block().to("cuda")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step = torch.compile(model)
    tokens = torch.randint(0, 128, (2, 16), device="cuda")
    for _ in range(STEPS):
        optimizer.zero_grad()
        logits = step(tokens)
        loss = torch.nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), tokens.view(-1))
        loss.backward()
        optimizer.step()
    grads = sum(1 for p in model.parameters() if p.grad is not None)
    print("loss", round(float(loss), 3), "grads", grads)


if __name__ == "__main__":
    main()
