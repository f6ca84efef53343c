"""Which IR lines of each stage came from which line of the kernel's source.

Every stage carries source positions: TTIR/TTGIR ``loc(...)``, LLVM IR ``!dbg``, PTX/AMDGCN ``.loc``,
and SASS line comments (which Triton's ``.sass`` dump lacks: they come from ``nvdisasm -gi`` on the
capture's cubin, see irscope.toolchain.nvtools). An op inlined from Triton's library (``tl.cdiv``) or from a
helper counts for the innermost line of the kernel's own file in its call chain.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from irscope.errors import StoreError, UsageError
from irscope.model.stages import get_stage, stages_for
from irscope.parse.lineinfo import (
    Instruction,
    Listing,
    asm_line_numbers,
    parse_amdgcn,
    parse_llir,
    parse_ptx,
    parse_sass_lines,
)
from irscope.parse.mlir_locs import innermost_in
from irscope.parse.mlir_ops import parse_module
from irscope.parse.ttgir_ops import SourceLoc
from irscope.store.store import Capture

__all__ = ["MappedLine", "SourceMap", "StageMap", "build_source_map", "map_listing", "map_mlir"]

_MLIR_STAGES = ("glir", "ttir", "ttgir")
# A kernel has one first IR: a Gluon kernel the glir, a Triton kernel the ttir.
_FIRST_IRS = ("glir", "ttir")
_SKIP_OPS = frozenset({"module", "tt.func", "tt.return", "scf.yield"})


@dataclass(frozen=True)
class MappedLine:
    """One op or instruction of a stage and the kernel line it came from.

    Attributes:
        number: 1-based line in the stage's text (for SASS: in nvdisasm's listing).
        text: the line, without its location annotation.
        opcode: the op name or mnemonic.
        line: the kernel line it counts for (innermost frame in the kernel's file), or None.
        via: the other kernel lines of its call chain (the calls it was inlined through).
        inlined_from: ``standard.py:43`` when the innermost frame lies outside the kernel's file, else "".
        address: SASS only: the instruction's offset, else -1.
    """

    number: int
    text: str
    opcode: str
    line: int | None
    via: tuple[int, ...] = ()
    inlined_from: str = ""
    address: int = -1


@dataclass(frozen=True)
class StageMap:
    """One stage's ops or instructions, mapped to kernel lines.

    Attributes:
        stage: stage name.
        lines: every op (TTIR/TTGIR) or instruction (LLVM IR, PTX, AMDGCN, SASS), in text order.
        origin: where the positions come from, in words.
        problems: what could not be read; a stage that could not be mapped at all has no lines
            and says why here.
        never_executed: SASS only: the instructions predicated on ``!PT``, which never run; not in
            ``lines`` nor in any count.
    """

    stage: str
    lines: tuple[MappedLine, ...]
    origin: str
    problems: tuple[str, ...] = ()
    never_executed: tuple[MappedLine, ...] = ()

    @property
    def mapped(self) -> int:
        """How many lines have a kernel line."""
        return sum(1 for m in self.lines if m.line is not None)

    def counts(self) -> Counter[int]:
        """Kernel line -> how many ops or instructions count for it."""
        return Counter(m.line for m in self.lines if m.line is not None)

    def for_line(self, line: int) -> list[MappedLine]:
        """The ops or instructions produced by a kernel line, directly or through a call on it."""
        return [m for m in self.lines if m.line == line or line in m.via]

    def never_executed_for(self, line: int) -> list[MappedLine]:
        """The never-executed (``@!PT``) instructions a kernel line's position is on."""
        return [m for m in self.never_executed if m.line == line or line in m.via]


@dataclass(frozen=True)
class SourceMap:
    """A capture's source mapped through every stage.

    Attributes:
        kernel: the kernel's name; ``function`` its ``@jit`` function.
        kernel_file: the kernel module's path as the compiler saw it.
        source: the module's text as compiled, one entry per line.
        stages: the stages' maps, in pipeline order.
    """

    kernel: str
    function: str
    kernel_file: str
    source: tuple[str, ...]
    stages: tuple[StageMap, ...] = field(default=())

    def stage(self, name: str) -> StageMap | None:
        """One stage's map, or None."""
        return next((s for s in self.stages if s.stage == name), None)

    def check_line(self, line: int) -> None:
        """A usage error when ``line`` is not a line of the kernel's file."""
        if not 1 <= line <= len(self.source):
            name = self.kernel_file.rsplit("/", 1)[-1]
            raise UsageError(f"line {line} is not in {name}, which has {len(self.source)} lines")


def _mapped(frames: tuple[SourceLoc, ...], kernel_file: str) -> tuple[int | None, tuple[int, ...], str]:
    """(kernel line, other kernel lines of the chain, innermost outside frame as ``file:line``)."""
    own = innermost_in(frames, kernel_file)
    if own is None:
        return None, (), ""
    name = own.file.rsplit("/", 1)[-1]
    via = tuple(dict.fromkeys(f.line for f in frames if f.file.rsplit("/", 1)[-1] == name and f.line != own.line))
    first = frames[0]
    outside = "" if first is own else f"{first.file.rsplit('/', 1)[-1]}:{first.line}"
    return own.line, via, outside


def map_mlir(stage: str, text: str, kernel_file: str) -> StageMap:
    """Map the ops of a TTIR or TTGIR module."""
    module = parse_module(text)
    lines = []
    for op in module.ops:
        if op.name in _SKIP_OPS:
            continue
        line, via, outside = _mapped(op.location.frames, kernel_file)
        lines.append(MappedLine(op.line, op.text, op.name, line, via, outside))
    return StageMap(stage, tuple(lines), "the ops' loc(...) locations", module.problems)


def map_listing(listing: Listing, kernel_file: str, origin: str) -> StageMap:
    """Map the instructions of an LLVM IR, PTX, AMDGCN or SASS listing."""
    def mapped(insns: tuple[Instruction, ...]) -> tuple[MappedLine, ...]:
        out = []
        for insn in insns:
            line, via, outside = _mapped(insn.frames, kernel_file)
            out.append(MappedLine(insn.number, insn.text, insn.opcode, line, via, outside, insn.address))
        return tuple(out)

    return StageMap(listing.stage, mapped(listing.instructions), origin, listing.problems,
                    mapped(listing.never_executed))


def sass_listing(capture: Capture) -> tuple[Listing | None, str]:
    """SASS with line info from the capture's cubin (cached), or (None, why not)."""
    from irscope.toolchain.nvtools import sass_with_lines

    run = sass_with_lines(capture)
    if not run.ok:
        return None, run.problem or f"nvdisasm failed: {run.stderr.strip()[:200]}"
    listing = parse_sass_lines(run.stdout)
    if "ptx" in capture.manifest.files:
        ptx = capture.read("ptx")
        listing = undo_asm_numbering(listing, ptx, lambda: _ptx_line_by_address(capture))
        listing = place_warpgroup_mmas(listing, ptx)
    return listing, ""


_GMMA = re.compile(r"[HQIB]GMMA\.")  # Hopper's warpgroup MMAs: fp16/bf16/tf32, fp8, int8, binary


def place_warpgroup_mmas(listing: Listing, ptx: str) -> Listing:
    """Give each SASS warpgroup MMA the position of the PTX ``wgmma.mma_async`` it was assembled from.

    ptxas's line table has no row of its own for an HGMMA: it takes the row of the instruction scheduled
    before it (often a load's line), in ``nvdisasm -gi`` and ``-gp`` alike. The n-th GMMA of the SASS is
    the n-th ``wgmma.mma_async`` of the PTX (ptxas keeps warpgroup MMAs in program order: they chain on one
    accumulator); the pairing is made only when both counts agree, else the listing is left as it is.
    """
    gmmas = [i for i, insn in enumerate(listing.instructions) if _GMMA.match(insn.opcode)]
    if not gmmas:
        return listing
    wgmmas = [insn for insn in parse_ptx(ptx).instructions if insn.opcode.startswith("wgmma.mma_async")]
    if len(wgmmas) != len(gmmas):
        return listing
    instructions = list(listing.instructions)
    for index, source in zip(gmmas, wgmmas, strict=True):
        if source.frames:
            instructions[index] = replace(instructions[index], frames=source.frames)
    return replace(listing, instructions=tuple(instructions))


def _ptx_line_by_address(capture: Capture) -> dict[int, int]:
    """SASS address -> the line of the capture's PTX it came from (``nvdisasm -gp``); empty when unavailable."""
    from irscope.toolchain.nvtools import sass_with_ptx_lines

    run = sass_with_ptx_lines(capture)
    if not run.ok:
        return {}
    return {i.address: i.frames[0].line for i in parse_sass_lines(run.stdout).instructions if i.frames}


def undo_asm_numbering(listing: Listing, ptx: str, ptx_lines: Callable[[], dict[int, int]] | None = None) -> Listing:
    """SASS positions come from PTX's ``.loc``, which numbers each line of a multi-line inline asm one
    source line further down. An instruction on such a line takes the position of the PTX instruction it
    came from (``ptx_lines``: address -> PTX line, from ``nvdisasm -gp``). Without that, a line only asm
    numbering names goes back to the asm call's line, and a line real code names too is reported."""
    numbers = asm_line_numbers(ptx)
    if not numbers.moved and not numbers.shared:
        return listing
    moved = {(file.rsplit("/", 1)[-1], line): to for (file, line), to in numbers.moved.items()}
    shared = {(file.rsplit("/", 1)[-1], line) for file, line in numbers.shared}

    def key(insn: Instruction) -> tuple[str, int] | None:
        return (insn.frames[0].file.rsplit("/", 1)[-1], insn.frames[0].line) if insn.frames else None

    affected = [insn for insn in listing.instructions if key(insn) in moved or key(insn) in shared]
    by_address = ptx_lines() if affected and ptx_lines is not None else {}
    ptx_frames = {i.number: i.frames for i in parse_ptx(ptx).instructions if i.frames} if by_address else {}
    instructions = []
    uncertain: set[int] = set()
    for insn in listing.instructions:
        where = key(insn)
        if where in moved or where in shared:
            exact = ptx_frames.get(by_address.get(insn.address, -1))
            if exact is not None:
                insn = replace(insn, frames=exact)
            elif where in moved:
                insn = replace(insn, frames=(replace(insn.frames[0], line=moved[where]), *insn.frames[1:]))
            else:
                uncertain.add(where[1])
        instructions.append(insn)
    problems = listing.problems
    if uncertain:
        lines = ", ".join(str(n) for n in sorted(uncertain))
        problems += (f"line{'s' if len(uncertain) > 1 else ''} {lines} may also count instructions of a multi-line "
                     "inline asm (a masked load) written on a line above: PTX numbers each asm line one source "
                     "line down, and SASS line info has no column to tell them apart",)
    return replace(listing, instructions=tuple(instructions), problems=problems)


_ORIGINS = {
    "llir": "the instructions' !dbg DILocations",
    "ptx": "the .loc directives",
    "amdgcn": "the .loc directives",
    "sass": "nvdisasm -gi on the cubin (Triton's .sass dump has no line info)",
}


def map_stage(capture: Capture, stage: str) -> StageMap:
    """One stage of a capture, mapped; a stage that cannot be read has no lines and a problem."""
    kernel_file = capture.manifest.kernel_path
    try:
        if stage in _MLIR_STAGES:
            return map_mlir(stage, capture.read(stage), kernel_file)
        if stage == "sass":
            listing, why = sass_listing(capture)
            if listing is None:
                return StageMap(stage, (), _ORIGINS[stage], (why,))
            return map_listing(listing, kernel_file, _ORIGINS[stage])
        parser = {"llir": parse_llir, "ptx": parse_ptx, "amdgcn": parse_amdgcn}.get(stage)
        if parser is None:
            raise UsageError(f"stage {stage!r} has no source positions to map; use one of "
                             f"{', '.join(s.name for s in stages_for(capture.manifest.backend) if s.name != 'source')}")
        return map_listing(parser(capture.read(stage)), kernel_file, _ORIGINS[stage])
    except StoreError as exc:
        return StageMap(stage, (), _ORIGINS.get(stage, ""), (str(exc),))


def mappable_stages(backend: str) -> tuple[str, ...]:
    """The stages with source positions, in pipeline order."""
    return tuple(s.name for s in stages_for(backend) if s.name != "source")


def build_source_map(capture: Capture, stages: tuple[str, ...] | None = None) -> SourceMap:
    """Map the kernel's source through the given stages (default: every stage with positions)."""
    backend = capture.manifest.backend
    chosen = stages or tuple(s for s in mappable_stages(backend) if s not in _FIRST_IRS or s in capture.manifest.files)
    for name in chosen:
        get_stage(name, backend)
    try:
        source = tuple(capture.read("source").splitlines())
    except StoreError:
        source = ()
    return SourceMap(
        kernel=capture.manifest.kernel,
        function=capture.manifest.function,
        kernel_file=capture.manifest.kernel_path,
        source=source,
        stages=tuple(map_stage(capture, name) for name in chosen),
    )
