"""A histogram in one loop of scalar loads, as MoE routing kernels count tokens per expert (vLLM's
moe_align_block_size stage 1): each program walks its share of the expert ids one at a time and bumps that expert's
counter in its own row. Every iteration waits for the id, then for the counter at it: two round trips in turn,
over a few hundred bytes of ids and a counter row that stay in the L2 after their first touch."""

import triton
import triton.language as tl


@triton.jit
def count_ids(ids_ptr, counts_ptr, num_experts, numel, tokens_per_program: tl.constexpr):
    pid = tl.program_id(0)
    start = pid * tokens_per_program
    row = counts_ptr + (pid + 1) * num_experts
    for i in range(tokens_per_program):
        if start + i < numel:
            expert = tl.load(ids_ptr + start + i)
            count = tl.load(row + expert)
            tl.store(row + expert, count + 1)
