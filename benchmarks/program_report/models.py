"""Three Hugging Face models under torch.compile, for validating ``irscope report`` against the GPU (issue 31).

Each model is a real ``transformers`` 4.57.1 class with a small config and random weights, in bf16:

* ``llama``: ``LlamaForCausalLM``, one training step (forward, cross-entropy loss, backward; no optimizer);
* ``gpt2``: ``GPT2LMHeadModel``, one training step;
* ``bert``: ``BertForMaskedLM``, one training step (masked-LM loss over every token).

Every model trains: BERT's forward alone launches four Triton kernels, too few for a rank correlation to say much.

Attention is Hugging Face's ``eager`` implementation (matmul, softmax, matmul). With ``sdpa`` the GPU asks its
driver which fused kernel runs (cuDNN on the H200 with torch 2.11), which a machine without the GPU cannot ask:
torch traces its math fallback offline, so the Triton kernels around attention would differ from the GPU's.

``python models.py --model llama`` runs ``--steps`` steps (the same program ``irscope capture`` records offline);
``--profile OUT.json`` (on a GPU) runs ``--warmup`` steps first (compile, Inductor's autotuning), then profiles
``--steps`` steps with ``torch.profiler`` and writes each GPU kernel's calls and total device time, per step.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import torch
import transformers

BATCH, SEQ = 8, 512


def build(name: str) -> tuple[Any, Any, bool]:
    """``(model, step function, training)`` for one model name."""
    torch.manual_seed(0)
    if name == "llama":
        cfg: Any = transformers.LlamaConfig(hidden_size=512, intermediate_size=1408, num_attention_heads=8,
                                            num_key_value_heads=4, num_hidden_layers=2, vocab_size=8192,
                                            max_position_embeddings=SEQ, attn_implementation="eager")
        model = transformers.LlamaForCausalLM(cfg)
    elif name == "gpt2":
        cfg = transformers.GPT2Config(n_embd=512, n_head=8, n_layer=2, vocab_size=8192, n_positions=SEQ,
                                      attn_implementation="eager")
        model = transformers.GPT2LMHeadModel(cfg)
    elif name == "bert":
        cfg = transformers.BertConfig(hidden_size=512, num_attention_heads=8, num_hidden_layers=2,
                                      intermediate_size=2048, vocab_size=8192, max_position_embeddings=SEQ,
                                      attn_implementation="eager")
        model = transformers.BertForMaskedLM(cfg)
    else:
        raise SystemExit(f"models.py: unknown model {name!r}; one of llama, gpt2, bert")
    training = True
    model = model.to("cuda", torch.bfloat16)
    model.train(training)
    if not training:
        model.requires_grad_(False)
    compiled = torch.compile(model)
    ids = torch.randint(0, cfg.vocab_size, (BATCH, SEQ), device="cuda")

    def step() -> None:
        if training:
            model.zero_grad(set_to_none=True)
            out = compiled(input_ids=ids, labels=ids)
            out.loss.backward()
        else:
            with torch.no_grad():
                compiled(input_ids=ids)

    return model, step, training


def profile(step: Any, warmup: int, steps: int) -> dict[str, Any]:
    """Each GPU kernel's calls and device time over ``steps`` profiled steps, after ``warmup`` steps."""
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as torch_profile

    for _ in range(warmup):
        step()
    torch.cuda.synchronize()
    with torch_profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    kernels: dict[str, dict[str, float]] = {}
    for event in prof.events():
        if event.device_type != torch.autograd.DeviceType.CUDA or event.device_time <= 0:
            continue
        entry = kernels.setdefault(event.name, {"calls": 0, "device_us": 0.0})
        entry["calls"] += 1
        entry["device_us"] += float(event.device_time)
    return {"steps": steps, "warmup": warmup, "kernels": kernels}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, choices=["llama", "gpt2", "bert"])
    parser.add_argument("--steps", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--profile", type=Path, default=None, metavar="OUT.json")
    parser.add_argument("--ncu", action="store_true",
                        help="run --warmup steps, then --steps steps between cudaProfilerStart and Stop (for "
                             "`ncu --profile-from-start off`)")
    args = parser.parse_args(argv)
    _, step, training = build(args.model)
    started = time.perf_counter()
    if args.ncu:
        for _ in range(args.warmup):
            step()
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStart()
        for _ in range(args.steps):
            step()
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStop()
        return 0
    if args.profile is None:
        for _ in range(args.steps):
            step()
        print(f"{args.model}: {args.steps} step(s) in {time.perf_counter() - started:.1f} s")
        return 0
    result = profile(step, args.warmup, args.steps)
    result.update(model=args.model, training=training, batch=BATCH, seq=SEQ, torch=torch.__version__,
                  transformers=transformers.__version__, gpu=torch.cuda.get_device_name(),
                  command=" ".join(["models.py", "--model", args.model]))
    try:
        import triton

        result["triton"] = triton.__version__
    except ImportError:
        pass
    args.profile.write_text(json.dumps(result, indent=1, sort_keys=True), encoding="utf-8")
    print(f"{args.model}: {len(result['kernels'])} kernels profiled over {args.steps} steps -> {args.profile}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
