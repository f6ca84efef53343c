"""Hugging Face transformers' Llama (a two-layer tiny config, random weights) under torch.compile, one forward.

Real foreign code for issue 26 item 1: its fresh KV cache starts as ``torch.tensor([], device=...)`` (a constant
AOT autograd's tracer computes on the graph's device) and its attention calls ``.transpose(1, 2).contiguous()``.
It prints the logits' shape.
"""

import torch
import transformers


def main() -> None:
    torch.manual_seed(0)
    config = transformers.LlamaConfig(hidden_size=64, intermediate_size=128, num_attention_heads=4,
                                      num_key_value_heads=2, num_hidden_layers=2, vocab_size=512)
    model = transformers.LlamaForCausalLM(config).to("cuda").eval().requires_grad_(False)
    ids = torch.randint(0, config.vocab_size, (2, 32), device="cuda")
    with torch.no_grad():
        logits = torch.compile(model)(input_ids=ids).logits
    print("logits", tuple(logits.shape))


if __name__ == "__main__":
    main()
