"""The GPUs irscope knows by data sheet: what the offline device stand-in answers, and the performance model's figures.

Every figure comes from the vendor's data sheet or architecture whitepaper named in the GPU's ``sources``;
figures a data sheet does not give (and how they were obtained instead) are listed in its ``notes``.
Peak throughputs are dense (without structured sparsity), in TFLOPS (TOPS for int8), at the boost clock.
Importing this module never imports torch or Triton.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from irscope.errors import UsageError, unknown

_KIB = 1024
_MIB = 1024 * 1024
_GIB = 1024 * 1024 * 1024


@dataclass(frozen=True)
class Source:
    """A document the figures were taken from.

    Attributes:
        title: the document's title.
        url: where the vendor publishes it.
    """

    title: str
    url: str


@dataclass(frozen=True)
class Gpu:
    """One GPU model as its data sheet describes it.

    Attributes:
        name: short name users type (``h100``, ``mi300x``).
        product: the name the driver reports (``torch.cuda.get_device_name()`` on that GPU).
        vendor: ``NVIDIA`` or ``AMD``.
        target: the irscope target it compiles for (``sm90``, ``gfx942``).
        capability: (major, minor) as ``torch.cuda.get_device_capability`` reports it (gfx942 -> (9, 4) on ROCm).
        gcn_arch_name: the full AMD arch string with features (``gfx942:sramecc+:xnack-``); "" on NVIDIA.
        sm_count: streaming multiprocessors (NVIDIA) or compute units (AMD).
        warp_size: threads per warp / wavefront.
        registers_per_sm: 32-bit registers per SM / CU (AMD: the whole VGPR file, arch + accumulation).
        max_registers_per_block: 32-bit registers one block may use (what the runtime reports as regsPerBlock).
        shared_memory_per_sm: shared memory (NVIDIA) or LDS (AMD) per SM / CU, in bytes.
        shared_memory_per_block: shared memory a block gets without opting in, in bytes.
        shared_memory_per_block_optin: the most shared memory one block may opt in to, in bytes.
        max_threads_per_sm: resident threads per SM / CU.
        max_threads_per_block: threads per block (work-items per workgroup).
        l2_cache_bytes: L2 as the runtime reports it (AMD: one XCD's L2).
        last_level_cache_bytes: a further memory-side cache (AMD Infinity Cache), 0 when there is none.
        memory_bytes: device memory (HBM) capacity.
        memory_bandwidth_gbs: peak device memory bandwidth, GB/s.
        memory_bus_width_bits: memory interface width, bits.
        boost_clock_mhz: peak (boost / engine) clock, MHz.
        peak_tflops: dense tensor / matrix core peaks by operand type (fp16, bf16, tf32, fp8, fp4, int8, fp64).
        vector_tflops: peak without tensor / matrix cores by type (fp32, fp64).
        sources: the documents the figures come from.
        notes: figures not taken from those documents, and how they were obtained.
    """

    name: str
    product: str
    vendor: str
    target: str
    capability: tuple[int, int]
    sm_count: int
    warp_size: int
    registers_per_sm: int
    max_registers_per_block: int
    shared_memory_per_sm: int
    shared_memory_per_block: int
    shared_memory_per_block_optin: int
    max_threads_per_sm: int
    max_threads_per_block: int
    l2_cache_bytes: int
    memory_bytes: int
    memory_bandwidth_gbs: float
    memory_bus_width_bits: int
    boost_clock_mhz: int
    peak_tflops: dict[str, float]
    vector_tflops: dict[str, float]
    sources: tuple[Source, ...]
    gcn_arch_name: str = ""
    last_level_cache_bytes: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def memory_clock_khz(self) -> int:
        """The memory clock a driver would report, derived so that clock x 2 x bus width / 8 is the data-sheet
        bandwidth.

        Triton's own bandwidth estimate (``triton.testing.get_dram_gbps``) computes exactly that product.
        """
        return round(self.memory_bandwidth_gbs * 1e9 / (self.memory_bus_width_bits / 8) / 2 / 1e3)


_A100_DS = Source("NVIDIA A100 Tensor Core GPU data sheet",
                  "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
                  "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf")
_AMPERE_WP = Source("NVIDIA A100 Tensor Core GPU Architecture whitepaper",
                    "https://images.nvidia.com/aem-dam/en-zz/Solutions/data-center/nvidia-ampere-architecture-whitepaper.pdf")
_H100_DS = Source("NVIDIA H100 Tensor Core GPU data sheet",
                  "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet")
_HOPPER_WP = Source("NVIDIA H100 Tensor Core GPU Architecture whitepaper",
                    "https://resources.nvidia.com/en-us-tensor-core/gtc22-whitepaper-hopper")
_H200_DS = Source("NVIDIA H200 Tensor Core GPU product page and data sheet",
                  "https://www.nvidia.com/en-us/data-center/h200/")
_B200_DS = Source("NVIDIA DGX B200 data sheet (8 x B200: 1,440 GB HBM3e, 64 TB/s)",
                  "https://resources.nvidia.com/en-us-dgx-systems/dgx-b200-datasheet")
_BLACKWELL_TG = Source("NVIDIA Blackwell Tuning Guide (CUDA documentation)",
                       "https://docs.nvidia.com/cuda/blackwell-tuning-guide/index.html")
_CUDA_CC = Source("CUDA C++ Programming Guide, technical specifications per compute capability",
                  "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#features-and-technical-specifications")
_MI300X_DS = Source("AMD Instinct MI300X data sheet",
                    "https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/"
                    "amd-instinct-mi300x-data-sheet.pdf")
_MI325X_DS = Source("AMD Instinct MI325X data sheet",
                    "https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/product-briefs/"
                    "instinct-mi325x-datasheet.pdf")
_CDNA3_WP = Source("AMD CDNA 3 architecture whitepaper",
                   "https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/white-papers/amd-cdna-3-white-paper.pdf")
_MI350_DS = Source("AMD Instinct MI350X / MI355X product pages",
                   "https://www.amd.com/en/products/accelerators/instinct/mi350.html")
_CDNA4_WP = Source("AMD CDNA 4 architecture whitepaper",
                   "https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/white-papers/"
                   "amd-cdna-4-architecture-whitepaper.pdf")
_ROCM_HW = Source("ROCm documentation: GPU hardware specifications",
                  "https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html")

_NV_DEFAULT_SHARED = 48 * _KIB  # a block's shared memory without cudaFuncSetAttribute (CUDA guide)
_NV_PEAK_NOTE = "tensor-core peaks: the data sheet's figures 'with sparsity' halved to dense"
_AMD_REGS_NOTE = ("registers_per_sm is the CU's 512 KB VGPR file (4 SIMDs x 512 x 64 lanes) from the whitepaper; "
                  "max_registers_per_block is the 65536 the HIP runtime reports as regsPerBlock")
_AMD_L2_NOTE = "l2_cache_bytes is one XCD's 4 MB L2 (8 XCDs, 32 MB in all), as hipDeviceProp.l2CacheSize reports it"


def _nvidia(**kw: object) -> Gpu:
    base: dict[str, object] = dict(vendor="NVIDIA", warp_size=32, registers_per_sm=65536, max_registers_per_block=65536,
                                   shared_memory_per_block=_NV_DEFAULT_SHARED, max_threads_per_sm=2048,
                                   max_threads_per_block=1024)
    base.update(kw)
    return Gpu(**base)  # type: ignore[arg-type]


def _amd(**kw: object) -> Gpu:
    base: dict[str, object] = dict(vendor="AMD", warp_size=64, registers_per_sm=4 * 512 * 64,
                                   max_registers_per_block=65536, max_threads_per_sm=2048, max_threads_per_block=1024,
                                   l2_cache_bytes=4 * _MIB, last_level_cache_bytes=256 * _MIB,
                                   memory_bus_width_bits=8192)
    base.update(kw)
    return Gpu(**base)  # type: ignore[arg-type]


_HOPPER_PEAKS = {"fp16": 989.4, "bf16": 989.4, "tf32": 494.7, "fp8": 1978.9, "int8": 1978.9, "fp64": 66.9}
_CDNA3_PEAKS = {"fp16": 1307.4, "bf16": 1307.4, "tf32": 653.7, "fp8": 2614.9, "int8": 2614.9, "fp64": 163.4}

GPUS: dict[str, Gpu] = {
    g.name: g
    for g in (
        _nvidia(name="a100", product="NVIDIA A100-SXM4-80GB", target="sm80", capability=(8, 0), sm_count=108,
                shared_memory_per_sm=164 * _KIB, shared_memory_per_block_optin=163 * _KIB, l2_cache_bytes=40 * _MIB,
                memory_bytes=80 * _GIB, memory_bandwidth_gbs=2039.0, memory_bus_width_bits=5120, boost_clock_mhz=1410,
                peak_tflops={"fp16": 312.0, "bf16": 312.0, "tf32": 156.0, "int8": 624.0, "fp64": 19.5},
                vector_tflops={"fp32": 19.5, "fp64": 9.7}, sources=(_A100_DS, _AMPERE_WP, _CUDA_CC),
                notes=(_NV_PEAK_NOTE,)),
        _nvidia(name="h100", product="NVIDIA H100 80GB HBM3", target="sm90", capability=(9, 0), sm_count=132,
                shared_memory_per_sm=228 * _KIB, shared_memory_per_block_optin=227 * _KIB, l2_cache_bytes=50 * _MIB,
                memory_bytes=80 * _GIB, memory_bandwidth_gbs=3350.0, memory_bus_width_bits=5120, boost_clock_mhz=1980,
                peak_tflops=dict(_HOPPER_PEAKS), vector_tflops={"fp32": 66.9, "fp64": 33.5},
                sources=(_H100_DS, _HOPPER_WP, _CUDA_CC), notes=(_NV_PEAK_NOTE, "the SXM5 part")),
        _nvidia(name="h200", product="NVIDIA H200", target="sm90", capability=(9, 0), sm_count=132,
                shared_memory_per_sm=228 * _KIB, shared_memory_per_block_optin=227 * _KIB, l2_cache_bytes=60 * _MIB,
                memory_bytes=141 * _GIB, memory_bandwidth_gbs=4800.0, memory_bus_width_bits=6016, boost_clock_mhz=1980,
                peak_tflops=dict(_HOPPER_PEAKS), vector_tflops={"fp32": 66.9, "fp64": 33.5},
                sources=(_H200_DS, _HOPPER_WP, _CUDA_CC),
                notes=(_NV_PEAK_NOTE, "the SXM part; SM count and clock are the H100 SXM's (same GH100 die)",
                       "l2_cache_bytes (60 MiB) and memory_bus_width_bits (6016) are what torch and Triton reported on "
                       "the H200 irscope was checked on (tests/data/device_records/h200.json), not data-sheet "
                       "figures")),
        _nvidia(name="b200", product="NVIDIA B200", target="sm100", capability=(10, 0), sm_count=148,
                shared_memory_per_sm=228 * _KIB, shared_memory_per_block_optin=227 * _KIB, l2_cache_bytes=126 * _MIB,
                memory_bytes=180 * _GIB, memory_bandwidth_gbs=8000.0, memory_bus_width_bits=8192, boost_clock_mhz=1965,
                peak_tflops={"fp16": 2250.0, "bf16": 2250.0, "tf32": 1100.0, "fp8": 4500.0, "fp4": 9000.0,
                             "int8": 4500.0, "fp64": 37.0},
                vector_tflops={"fp32": 75.0, "fp64": 37.0}, sources=(_B200_DS, _BLACKWELL_TG, _CUDA_CC),
                notes=(_NV_PEAK_NOTE, "memory: the DGX B200 totals divided by its 8 GPUs",
                       "sm_count, l2_cache_bytes and boost_clock_mhz are not in the data sheet: they are what the "
                       "CUDA runtime reports on a B200 (148 SMs, about 126 MiB of L2); treat them as approximate")),
        _amd(name="mi300x", product="AMD Instinct MI300X", target="gfx942", capability=(9, 4),
             gcn_arch_name="gfx942:sramecc+:xnack-", sm_count=304, shared_memory_per_sm=64 * _KIB,
             shared_memory_per_block=64 * _KIB, shared_memory_per_block_optin=64 * _KIB, memory_bytes=192 * _GIB,
             memory_bandwidth_gbs=5300.0, boost_clock_mhz=2100, peak_tflops=dict(_CDNA3_PEAKS),
             vector_tflops={"fp32": 163.4, "fp64": 81.7}, sources=(_MI300X_DS, _CDNA3_WP, _ROCM_HW),
             notes=(_AMD_REGS_NOTE, _AMD_L2_NOTE)),
        _amd(name="mi325x", product="AMD Instinct MI325X", target="gfx942", capability=(9, 4),
             gcn_arch_name="gfx942:sramecc+:xnack-", sm_count=304, shared_memory_per_sm=64 * _KIB,
             shared_memory_per_block=64 * _KIB, shared_memory_per_block_optin=64 * _KIB, memory_bytes=256 * _GIB,
             memory_bandwidth_gbs=6000.0, boost_clock_mhz=2100, peak_tflops=dict(_CDNA3_PEAKS),
             vector_tflops={"fp32": 163.4, "fp64": 81.7}, sources=(_MI325X_DS, _CDNA3_WP, _ROCM_HW),
             notes=(_AMD_REGS_NOTE, _AMD_L2_NOTE)),
        _amd(name="mi350x", product="AMD Instinct MI350X", target="gfx950", capability=(9, 5),
             gcn_arch_name="gfx950:sramecc+:xnack-", sm_count=256, shared_memory_per_sm=160 * _KIB,
             shared_memory_per_block=160 * _KIB, shared_memory_per_block_optin=160 * _KIB, memory_bytes=288 * _GIB,
             memory_bandwidth_gbs=8000.0, boost_clock_mhz=2200,
             peak_tflops={"fp16": 2307.0, "bf16": 2307.0, "fp8": 4614.0, "fp4": 9228.0, "int8": 4614.0, "fp64": 72.1},
             vector_tflops={"fp32": 144.2, "fp64": 72.1}, sources=(_MI350_DS, _CDNA4_WP, _ROCM_HW),
             notes=(_AMD_REGS_NOTE, _AMD_L2_NOTE, "no TF32 matrix peak: CDNA 4 lists none")),
        _amd(name="mi355x", product="AMD Instinct MI355X", target="gfx950", capability=(9, 5),
             gcn_arch_name="gfx950:sramecc+:xnack-", sm_count=256, shared_memory_per_sm=160 * _KIB,
             shared_memory_per_block=160 * _KIB, shared_memory_per_block_optin=160 * _KIB, memory_bytes=288 * _GIB,
             memory_bandwidth_gbs=8000.0, boost_clock_mhz=2400,
             peak_tflops={"fp16": 2516.6, "bf16": 2516.6, "fp8": 5033.2, "fp4": 10066.3, "int8": 5033.2, "fp64": 78.6},
             vector_tflops={"fp32": 157.3, "fp64": 78.6}, sources=(_MI350_DS, _CDNA4_WP, _ROCM_HW),
             notes=(_AMD_REGS_NOTE, _AMD_L2_NOTE, "no TF32 matrix peak: CDNA 4 lists none")),
    )
}

DEFAULT_GPU: dict[str, str] = {"sm80": "a100", "sm90": "h100", "sm100": "b200", "gfx942": "mi300x", "gfx950": "mi350x"}


def gpus_for_target(target: str) -> list[Gpu]:
    """The known GPUs that compile for ``target``, its default first."""
    default = DEFAULT_GPU.get(target)
    found = [g for g in GPUS.values() if g.target == target]
    return sorted(found, key=lambda g: g.name != default)


def resolve_gpu(name: str | None, target: str) -> Gpu | None:
    """The GPU a captured program on ``target`` sees: ``name`` checked against the target, else the target's default.

    None when no name was given and the target has no known GPU (a native target irscope has no table entry for).
    """
    if name is None:
        default = DEFAULT_GPU.get(target)
        return GPUS[default] if default else None
    key = name.strip().lower().replace("-", "").replace(" ", "")
    key = {"h100sxm": "h100", "a100sxm": "a100", "h200sxm": "h200"}.get(key, key)
    if key not in GPUS:
        raise unknown("GPU", name, tuple(GPUS))
    gpu = GPUS[key]
    if gpu.target != target:
        fits = ", ".join(g.name for g in gpus_for_target(target)) or "none known"
        raise UsageError(f"--gpu {name}: the {gpu.product} compiles for {gpu.target}, not {target}; "
                         f"GPUs for {target}: {fits} (or pass --target {gpu.target})")
    return gpu


def compiled_sm_count(target: str) -> int | None:
    """The SM (CU) count a kernel module's ``kernel_args`` is given when it is compiled offline for ``target``.

    A persistent kernel bakes it in (``matmul_tma``'s ``NUM_SMS`` constexpr: the step between the tiles a
    program walks), so the launch the performance model runs must use the same count for its grid: the
    target's usual GPU's. None for a target with no usual GPU (the module's own offline default then).
    """
    name = DEFAULT_GPU.get(target)
    return GPUS[name].sm_count if name in GPUS else None
