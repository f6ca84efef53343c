"""The typed layout encodings of TTGIR: one frozen dataclass per kind Triton prints."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from irscope.parse.mlir_attrs import AttrValue

__all__ = [
    "AmdMfmaLayout",
    "AmdRotatingSharedLayout",
    "AmdWmmaLayout",
    "Bases",
    "BlockedLayout",
    "CGALayout",
    "DistributedLinearLayout",
    "DotOperandLayout",
    "Ints",
    "Layout",
    "LayoutTable",
    "NVMMASharedLayout",
    "NvidiaMmaLayout",
    "OpaqueLayout",
    "PaddedSharedLayout",
    "PartitionedSharedLayout",
    "SharedLinearLayout",
    "SliceLayout",
    "SwizzledSharedLayout",
    "TensorMemoryLayout",
    "TensorMemoryScalesLayout",
]

Ints = tuple[int, ...]
Bases = tuple[Ints, ...]


@dataclass(frozen=True)
class CGALayout:
    """How the CTAs of a cluster (CGA) split or replicate a tensor.

    Triton 3.9 prints `CGALayout = [[1, 0], ...]` (one basis per block-id bit); older versions print
    `CTAsPerCGA`, `CTASplitNum` and `CTAOrder`. Whichever was printed is kept.

    Attributes:
        bases: the printed CGALayout bases, or None when the legacy fields were printed.
        ctas_per_cga: legacy CTAsPerCGA, or None.
        cta_split_num: legacy CTASplitNum, or None.
        cta_order: legacy CTAOrder, or None.
    """

    bases: Bases | None = None
    ctas_per_cga: Ints | None = None
    cta_split_num: Ints | None = None
    cta_order: Ints | None = None

    @property
    def num_ctas(self) -> int:
        """Number of CTAs in the cluster this layout spans."""
        if self.bases is not None:
            return 1 << len(self.bases)
        total = 1
        for n in self.ctas_per_cga or ():
            total *= n
        return total


@dataclass(frozen=True, kw_only=True)
class Layout:
    """A layout encoding as printed in TTGIR.

    Attributes:
        name: the alias without `#` (`blocked1`), or "" for a layout written inline.
        dialect: the printed dialect prefix (`ttg`, `triton_gpu`, `ttng`, `triton_nvidia_gpu`).
        text: the attribute exactly as printed.
    """

    kind: ClassVar[str] = "layout"
    distributed: ClassVar[bool] = False
    name: str = field(default="", compare=False)
    dialect: str = field(default="ttg", compare=False)
    text: str = field(default="", compare=False, repr=False)

    @property
    def label(self) -> str:
        """`#name` for an alias, else the inline text."""
        return f"#{self.name}" if self.name else self.text


@dataclass(frozen=True, kw_only=True)
class BlockedLayout(Layout):
    """`#ttg.blocked`: each thread, warp and CTA owns a block of the tensor (the load/store layout).

    Attributes:
        size_per_thread: elements per thread along each dim.
        threads_per_warp: lanes along each dim.
        warps_per_cta: warps along each dim.
        order: dims from fastest- to slowest-varying.
        cga: the CTA arrangement, or None for a single CTA.
    """

    kind: ClassVar[str] = "blocked"
    distributed: ClassVar[bool] = True
    size_per_thread: Ints
    threads_per_warp: Ints
    warps_per_cta: Ints
    order: Ints
    cga: CGALayout | None = None


@dataclass(frozen=True, kw_only=True)
class SliceLayout(Layout):
    """`#ttg.slice`: the parent layout with dimension `dim` removed (result of a reduction).

    Attributes:
        dim: the removed dimension of the parent.
        parent: the parent layout.
    """

    kind: ClassVar[str] = "slice"
    distributed: ClassVar[bool] = True
    dim: int
    parent: Layout


@dataclass(frozen=True, kw_only=True)
class DotOperandLayout(Layout):
    """`#ttg.dot_op`: operand A (op_idx 0) or B (op_idx 1) of a dot whose result has layout `parent`.

    Attributes:
        op_idx: 0 for A, 1 for B.
        parent: the layout of the dot's result (an MMA or blocked layout).
        k_width: consecutive K elements per thread, or None when not printed.
    """

    kind: ClassVar[str] = "dot_op"
    distributed: ClassVar[bool] = True
    op_idx: int
    parent: Layout
    k_width: int | None = None


@dataclass(frozen=True, kw_only=True)
class NvidiaMmaLayout(Layout):
    """`#ttg.nvidia_mma` (also `#triton_gpu.mma`): NVIDIA tensor-core result layout.

    Attributes:
        version_major: 2 for mma.sync (Turing/Ampere), 3 for wgmma (Hopper), 5 for tcgen05.
        version_minor: the minor version as printed.
        warps_per_cta: warps along each dim.
        instr_shape: the instruction tile, [16, 8] for v2 and [16, N, 16] for v3.
        cga: the CTA arrangement, or None.
    """

    kind: ClassVar[str] = "nvidia_mma"
    distributed: ClassVar[bool] = True
    version_major: int
    version_minor: int
    warps_per_cta: Ints
    instr_shape: Ints
    cga: CGALayout | None = None


@dataclass(frozen=True, kw_only=True)
class AmdMfmaLayout(Layout):
    """`#ttg.amd_mfma`: AMD CDNA matrix-core (MFMA) result layout.

    Attributes:
        version: 1 gfx908, 2 gfx90a, 3 gfx942, 4 gfx950.
        warps_per_cta: wavefronts along each dim.
        instr_shape: (M, N, K) of the instruction; K is 0 when the printer gave only M and N.
        is_transposed: whether each lane holds consecutive elements along N instead of M.
        tiles_per_warp: MFMA tiles each warp computes along each dim.
        element_bitwidth: bit width of the result elements (32 or 64).
        cga: the CTA arrangement, or None.
    """

    kind: ClassVar[str] = "amd_mfma"
    distributed: ClassVar[bool] = True
    version: int
    warps_per_cta: Ints
    instr_shape: Ints
    is_transposed: bool
    tiles_per_warp: Ints | None = None
    element_bitwidth: int = 32
    cga: CGALayout | None = None


@dataclass(frozen=True, kw_only=True)
class AmdWmmaLayout(Layout):
    """`#ttg.amd_wmma`: AMD RDNA / gfx1250 WMMA result layout.

    Attributes:
        version: 1 RDNA3, 2 RDNA4, 3 gfx1250.
        is_transposed: whether the result is transposed.
        warp_bases: warp bases of the printed `ctaLayout`, or None in the older warpsPerCTA form.
        reg_bases: register (repetition) bases of the printed `ctaLayout`.
        warps_per_cta: the older warpsPerCTA form, or None.
        instr_shape: (M, N, K) of the instruction.
        cga: the CTA arrangement, or None.
    """

    kind: ClassVar[str] = "amd_wmma"
    distributed: ClassVar[bool] = True
    version: int
    is_transposed: bool
    warp_bases: Bases | None = None
    reg_bases: Bases = ()
    warps_per_cta: Ints | None = None
    instr_shape: Ints = (16, 16, 16)
    cga: CGALayout | None = None


@dataclass(frozen=True, kw_only=True)
class DistributedLinearLayout(Layout):
    """`#ttg.linear` (and `#ttg.generic_linear`): a layout given directly by its linear bases.

    Attributes:
        register: image of each register-index bit.
        lane: image of each lane-index bit.
        warp: image of each warp-index bit.
        block: image of each block-index bit.
        generic: True for `generic_linear`.
    """

    kind: ClassVar[str] = "linear"
    distributed: ClassVar[bool] = True
    register: Bases
    lane: Bases
    warp: Bases
    block: Bases = ()
    generic: bool = False

    @property
    def rank(self) -> int:
        """Number of tensor dims the bases map to."""
        for bases in (self.register, self.lane, self.warp, self.block):
            if bases:
                return len(bases[0])
        return 1


@dataclass(frozen=True, kw_only=True)
class SwizzledSharedLayout(Layout):
    """`#ttg.swizzled_shared` (old `#triton_gpu.shared`): shared memory with XOR swizzling.

    Attributes:
        vec: elements moved together by the swizzle.
        per_phase: rows that share one swizzle phase.
        max_phase: number of distinct phases.
        order: dims from fastest- to slowest-varying in memory.
        has_leading_offset: the old `hasLeadingOffset` flag (an NVMMA-style layout when true).
        cga: the CTA arrangement, or None.
    """

    kind: ClassVar[str] = "swizzled_shared"
    vec: int
    per_phase: int
    max_phase: int
    order: Ints
    has_leading_offset: bool = False
    cga: CGALayout | None = None


@dataclass(frozen=True, kw_only=True)
class NVMMASharedLayout(Layout):
    """`#ttg.nvmma_shared`: shared memory in the format wgmma/tcgen05 and TMA read directly.

    Attributes:
        swizzling_byte_width: 0, 32, 64 or 128.
        transposed: whether the contiguous dim is the outer one.
        element_bit_width: bits per element.
        fp4_padded: the padded fp4 operand format of MMAv5 scaled dots.
        cga: the CTA arrangement, or None.
    """

    kind: ClassVar[str] = "nvmma_shared"
    swizzling_byte_width: int
    transposed: bool
    element_bit_width: int
    fp4_padded: bool = False
    cga: CGALayout | None = None


@dataclass(frozen=True, kw_only=True)
class AmdRotatingSharedLayout(Layout):
    """`#ttg.amd_rotating_shared`: swizzled shared memory whose phase also rotates per block of rows.

    Attributes:
        vec: elements moved together by the swizzle.
        per_phase: rows that share one swizzle phase.
        max_phase: number of distinct phases.
        order: dims from fastest- to slowest-varying in memory.
        cga: the CTA arrangement, or None.
    """

    kind: ClassVar[str] = "amd_rotating_shared"
    vec: int
    per_phase: int
    max_phase: int
    order: Ints
    cga: CGALayout | None = None


@dataclass(frozen=True, kw_only=True)
class PaddedSharedLayout(Layout):
    """`#ttg.padded_shared`: shared memory with padding after fixed intervals.

    Attributes:
        intervals: (interval, padding) pairs, both in elements.
        order: identity-mapping order when printed in the short form, else None.
        shape: identity-mapping shape when printed in the short form, else None.
        offset_bases: explicit offset bases when printed in the long form.
        block_bases: explicit block bases when printed in the long form.
    """

    kind: ClassVar[str] = "padded_shared"
    intervals: tuple[tuple[int, int], ...]
    order: Ints | None = None
    shape: Ints | None = None
    offset_bases: Bases = ()
    block_bases: Bases = ()


@dataclass(frozen=True, kw_only=True)
class SharedLinearLayout(Layout):
    """`#ttg.shared_linear`: shared memory given by explicit offset bases.

    Attributes:
        offset_bases: image of each offset bit.
        block_bases: image of each block bit.
        alignment: alignment in bytes.
    """

    kind: ClassVar[str] = "shared_linear"
    offset_bases: Bases
    block_bases: Bases = ()
    alignment: int = 16


@dataclass(frozen=True, kw_only=True)
class PartitionedSharedLayout(Layout):
    """`#ttg.partitioned_shared`: a tensor split over several shared-memory buffers.

    Attributes:
        num_partitions: distinct buffers.
        num_groups: groups of pieces.
        partition_dim: the dim that is split.
        partition_layout: the shared layout of each piece.
    """

    kind: ClassVar[str] = "partitioned_shared"
    num_partitions: int
    num_groups: int
    partition_dim: int
    partition_layout: Layout


@dataclass(frozen=True, kw_only=True)
class TensorMemoryLayout(Layout):
    """`#ttng.tensor_memory_encoding`: Blackwell tensor memory (TMEM).

    Attributes:
        block_m: rows of the block (64 or 128).
        block_n: columns of the block.
        col_stride: 32-bit columns between logically adjacent columns (1 = packed).
        unpacked: the older `unpacked` flag, or None.
        cta_split_m: CTA split along M (older spelling).
        cta_split_n: CTA split along N (older spelling).
        two_ctas: whether the layout spans a CTA pair.
        cga: the CTA arrangement, or None.
    """

    kind: ClassVar[str] = "tensor_memory"
    block_m: int
    block_n: int
    col_stride: int = 1
    unpacked: bool | None = None
    cta_split_m: int = 1
    cta_split_n: int = 1
    two_ctas: bool = False
    cga: CGALayout | None = None


@dataclass(frozen=True, kw_only=True)
class TensorMemoryScalesLayout(Layout):
    """`#ttng.tensor_memory_scales_encoding`: TMEM layout of block-scale factors.

    Attributes:
        cta_split_m: CTA split along M (older spelling).
        cta_split_n: CTA split along N (older spelling).
        cga: the CTA arrangement, or None.
    """

    kind: ClassVar[str] = "tensor_memory_scales"
    cta_split_m: int = 1
    cta_split_n: int = 1
    cga: CGALayout | None = None


@dataclass(frozen=True, kw_only=True)
class OpaqueLayout(Layout):
    """A layout irscope does not model (or could not read); its parameters are kept as parsed.

    Attributes:
        mnemonic: `dialect.name` of the attribute, e.g. `ttg.future_layout`.
        params: the named parameters that could be parsed.
        reason: why it is opaque.
    """

    kind: ClassVar[str] = "opaque"
    mnemonic: str
    params: dict[str, AttrValue] = field(default_factory=dict, hash=False)
    reason: str = ""


@dataclass(frozen=True)
class LayoutTable:
    """The layout aliases of one TTGIR module.

    Attributes:
        aliases: layouts by alias name (without `#`), in the order they are defined.
        memory_spaces: non-layout aliases such as `smem -> ttg.shared_memory`.
        problems: what could not be read, one sentence each; parsing never raises.
    """

    aliases: dict[str, Layout] = field(default_factory=dict)
    memory_spaces: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def get(self, name: str) -> Layout | None:
        """The layout for `name` (with or without `#`), or None."""
        return self.aliases.get(name.lstrip("#"))

    @property
    def layouts(self) -> list[Layout]:
        """All aliased layouts, in definition order."""
        return list(self.aliases.values())
