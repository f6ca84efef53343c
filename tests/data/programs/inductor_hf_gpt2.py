"""Hugging Face transformers' GPT-2 (one layer, tiny config, eager attention, random weights) under torch.compile,
one forward without grad: real foreign code that indexes tensors inside its forward (``attention_mask[:, None, None, :]``,
the causal mask's slices), which Dynamo traces into the graph as on a GPU: one graph. It prints the logits' shape."""

import torch
import transformers


def main() -> None:
    torch.manual_seed(0)
    cfg = transformers.GPT2Config(n_embd=64, n_head=4, n_layer=1, vocab_size=512, n_positions=64,
                                  attn_implementation="eager")
    model = transformers.GPT2LMHeadModel(cfg).to("cuda").eval().requires_grad_(False)
    ids = torch.randint(0, 512, (2, 32), device="cuda")
    with torch.no_grad():
        print("logits", tuple(torch.compile(model)(input_ids=ids).logits.shape))


if __name__ == "__main__":
    main()
