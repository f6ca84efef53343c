"""Corpus driver: tiny-config Hugging Face models (no weights downloaded) under torch.compile, forward only.

Each model is built from a config (random weights), put on "cuda" in eval mode with its parameters frozen
(inference) and called once through ``torch.compile``; Inductor generates the Triton kernels that irscope
records. The last case keeps the parameters requiring grad, as a model fresh from its constructor has them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import case, main

TINY = {"hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 4, "num_hidden_layers": 2,
        "vocab_size": 512}


def _run(make: Callable[[Any], Any], inputs: Callable[[Any], dict[str, Any]], grad: bool = False) -> None:
    import torch
    import transformers
    torch.manual_seed(0)
    model = make(transformers).to("cuda").eval().requires_grad_(grad)
    compiled = torch.compile(model)
    with torch.no_grad():
        compiled(**inputs(torch))


def _ids(torch: Any) -> dict[str, Any]:
    return {"input_ids": torch.randint(0, TINY["vocab_size"], (2, 32), device="cuda")}


def _module(make: Callable[[Any, Any], Any], *shapes: tuple[int, ...]) -> None:
    """torch.compile one transformers module (``make(transformers, LlamaConfig)``) on random inputs."""
    import torch
    import transformers
    torch.manual_seed(0)
    config = transformers.LlamaConfig(**TINY, num_key_value_heads=2)
    module = make(transformers, config).to("cuda").eval().requires_grad_(False)
    with torch.no_grad():
        torch.compile(module)(*(torch.randn(*s, device="cuda") for s in shapes))


@case("llama RMSNorm module")
def llama_rms_norm() -> None:
    _module(lambda tf, c: tf.models.llama.modeling_llama.LlamaRMSNorm(c.hidden_size), (2, 32, 64))


@case("llama MLP module")
def llama_mlp() -> None:
    _module(lambda tf, c: tf.models.llama.modeling_llama.LlamaMLP(c), (2, 32, 64))


@case("gpt2 MLP module")
def gpt2_mlp() -> None:
    _module(lambda tf, c: tf.models.gpt2.modeling_gpt2.GPT2MLP(128, tf.GPT2Config(n_embd=64)), (2, 32, 64))


@case("bert intermediate+output modules")
def bert_ffn() -> None:
    def make(tf: Any, c: Any) -> Any:
        import torch
        cfg = tf.BertConfig(**TINY)
        inter, out = tf.models.bert.modeling_bert.BertIntermediate(cfg), tf.models.bert.modeling_bert.BertOutput(cfg)

        class Ffn(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.inter, self.out = inter, out

            def forward(self, x: Any) -> Any:
                return self.out(self.inter(x), x)
        return Ffn()
    _module(make, (2, 32, 64))


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


@case("llama, parameters requiring grad")  # last: offline this has aborted the whole process (torch 2.13)
def llama_grad() -> None:
    _run(lambda tf: tf.LlamaForCausalLM(tf.LlamaConfig(**TINY, num_key_value_heads=2)), _ids, grad=True)


if __name__ == "__main__":
    sys.exit(main())
