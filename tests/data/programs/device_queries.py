"""A program that asks what real libraries ask of the GPU before and around their launches, and prints each answer.

Dynamo asks ``torch.accelerator.current_stream()``; Inductor the device index, streams and the raw stream; Triton's
``do_bench`` (what autotuners time configs with) asks the driver for its benchmarker, a cache to flush and CUDA
events; training loops use streams, events, CUDA graphs and the memory statistics. One ``key value`` per line.
"""

import torch
import triton
import triton.language as tl
from triton.runtime import driver


@triton.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


def main() -> None:
    x = torch.zeros(1024, device="cuda")
    answers = {
        "accelerator": torch.accelerator.current_accelerator(),
        "accelerator_available": torch.accelerator.is_available(),
        "accelerator_count": torch.accelerator.device_count(),
        "accelerator_index": torch.accelerator.current_device_index(),
        "accelerator_stream": torch.accelerator.current_stream().device,
        "stream_is_torch_stream": isinstance(torch.cuda.current_stream(), torch.Stream),
        "raw_stream": torch._C._cuda_getCurrentRawStream(0),
        "c_device_count": torch._C._cuda_getDeviceCount(),
        "capturing": torch.cuda.is_current_stream_capturing(),
        "graphs_capturing": torch.cuda.graphs.is_current_stream_capturing(),
        "bf16": torch.cuda.is_bf16_supported(),
        "arch_list": torch.cuda.get_arch_list(),
        "memory_allocated": torch.cuda.memory_allocated(),
        "cuda_version_set": torch.version.cuda is not None,
        "driver_stream": driver.active.get_current_stream(),
        "utils_capturing": driver.active.utils.is_stream_capturing(0, 0),
    }
    side = torch.cuda.Stream()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    with torch.cuda.stream(side):
        start.record()
        add_one[(1,)](x, x.numel(), BLOCK=1024)
        end.record()
    side.synchronize()
    torch.cuda.current_stream().wait_stream(side)
    answers["event_ms"] = start.elapsed_time(end)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        add_one[(2,)](x, x.numel(), BLOCK=512)
    graph.replay()
    answers["bench_ms"] = triton.testing.do_bench(lambda: add_one[(4,)](x, x.numel(), BLOCK=256), warmup=1, rep=5)
    for key, value in answers.items():
        print(key, value)


if __name__ == "__main__":
    main()
