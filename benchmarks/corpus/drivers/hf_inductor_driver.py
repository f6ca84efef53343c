"""Corpus driver: tiny-config Hugging Face models (no weights downloaded) under torch.compile, forward only.

Each model is built from a config (random weights), put on "cuda" in eval mode and called once through
``torch.compile``; Inductor generates the Triton kernels that irscope records.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import case, main  # noqa: E402

TINY = {"hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 4, "num_hidden_layers": 2,
        "vocab_size": 512}


def _run(make: Callable[[Any], Any], inputs: Callable[[Any], dict[str, Any]]) -> None:
    import torch
    import transformers
    torch.manual_seed(0)
    model = make(transformers).to("cuda").eval()
    compiled = torch.compile(model)
    with torch.no_grad():
        compiled(**inputs(torch))


def _ids(torch: Any) -> dict[str, Any]:
    return {"input_ids": torch.randint(0, TINY["vocab_size"], (2, 32), device="cuda")}


@case("llama")
def llama() -> None:
    _run(lambda tf: tf.LlamaForCausalLM(tf.LlamaConfig(**TINY, num_key_value_heads=2)), _ids)


@case("gpt2")
def gpt2() -> None:
    _run(lambda tf: tf.GPT2LMHeadModel(tf.GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=512,
                                                      n_positions=64)), _ids)


@case("bert")
def bert() -> None:
    _run(lambda tf: tf.BertModel(tf.BertConfig(**TINY, max_position_embeddings=64)), _ids)


@case("vit")
def vit() -> None:
    cfg = {k: v for k, v in TINY.items() if k != "vocab_size"}
    _run(lambda tf: tf.ViTModel(tf.ViTConfig(**cfg, image_size=32, patch_size=8)),
         lambda torch: {"pixel_values": torch.randn(2, 3, 32, 32, device="cuda")})


@case("mistral")
def mistral() -> None:
    _run(lambda tf: tf.MistralForCausalLM(tf.MistralConfig(**TINY, num_key_value_heads=2)), _ids)


if __name__ == "__main__":
    sys.exit(main())
