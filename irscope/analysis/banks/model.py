"""How many shared-memory wavefronts one warp's access takes: the bank arithmetic, apart from any IR.

Shared memory has 32 banks of 4 bytes; a 4-byte word lives in bank `(byte address / 4) % 32`. The
hardware serves a warp's request in *wavefronts*: each reads or writes at most one word per bank,
and lanes that touch the same word share it (broadcast). How a request splits into phases follows the
width each lane moves: accesses of up to 4 bytes take the whole warp in one phase, 8- and 16-byte
accesses one phase per half-warp. A phase's ideal is one wavefront per 32 distinct words it touches
(a 16-byte half-warp with 16 distinct addresses needs two; one whose lanes broadcast 2 addresses, one).
On the H200 (ncu, Triton 3.6) an LDS.128 whose half-warps each read one 16-byte address took 2
wavefronts with no conflict counted, and one whose half-warps read two rows 128 bytes apart took 4 with
2 counted: a quarter-warp split would give 4 and 0.
`ldmatrix`/`stmatrix` move one 8x8 matrix of 16-bit values (8 rows of 16 bytes, 128 bytes) per phase:
matrix i fills the i-th 32-bit register of every lane. A phase whose busiest bank holds N distinct
words takes N wavefronts; it is N / ideal -way conflicted, and Nsight Compute's bank-conflict counters
count the wavefronts beyond the ideal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from irscope.analysis.banks.shared_offsets import OffsetMap
from irscope.analysis.layouts.linear import LinearLayout

__all__ = ["BANKS", "ModelError", "WarpAccess", "instruction_wavefronts", "phase_ideal", "phase_ways",
           "phases_per_request", "warp_access"]

BANKS = 32
WORD = 4
_PHASE_BYTES = 128
# Beyond this many register groups a non-linear (padded) buffer is sampled, not enumerated.
_MAX_GROUPS = 64


class ModelError(ValueError):
    """The register layout and the instruction do not fit together as the model needs."""


def phase_ways(words: Iterable[int]) -> int:
    """Wavefronts one phase takes: the most distinct 4-byte words in one bank (0 for no access)."""
    per_bank = Counter(word % BANKS for word in set(words))
    return max(per_bank.values(), default=0)


def phases_per_request(lane_bytes: int, lanes: int = 32) -> int:
    """Phases the hardware splits a warp's request into for `lane_bytes` per lane (1 or 2 on 32 lanes)."""
    if lane_bytes <= WORD:
        return 1
    return max(1, min(lanes, lanes * min(lane_bytes, 2 * WORD) // _PHASE_BYTES))


def phase_ideal(words: set[int]) -> int:
    """Wavefronts a phase needs without conflicts: one per 32 distinct words (0 for no access)."""
    return -(-len(words) // BANKS)


@dataclass(frozen=True)
class WarpAccess:
    """One warp's side of a shared-memory op, as the bank model sees it.

    Attributes:
        instructions: warp-level instructions the op issues per warp.
        phases_per_instruction: phases each instruction is split into.
        ideal_wavefronts: wavefronts without conflicts, per warp (one per 32 distinct words per phase).
        wavefronts: wavefronts all of them take, per warp.
        worst_ways: the worst phase's wavefronts over its ideal, rounded up (1 = conflict-free).
        lane_bytes: bytes each lane moves per instruction.
        exact: False when a non-linear buffer was sampled rather than enumerated.
        matrices: N for `ldmatrix`/`stmatrix` `.xN` (one phase per matrix), else 0.
    """

    instructions: int
    phases_per_instruction: int
    wavefronts: int
    worst_ways: int
    lane_bytes: int
    exact: bool = True
    matrices: int = 0
    ideal_wavefronts: int | None = None

    @property
    def ideal(self) -> int:
        """Wavefronts without conflicts, per warp."""
        if self.ideal_wavefronts is not None:
            return self.ideal_wavefronts
        return self.instructions * self.phases_per_instruction

    @property
    def conflicts(self) -> int:
        """Wavefronts beyond the ideal, per warp (what ncu's bank-conflict counters count)."""
        return self.wavefronts - self.ideal


def _xor_all(bases: list[tuple[int, ...]], index: int, rank: int) -> tuple[int, ...]:
    out = [0] * rank
    bit = 0
    while index:
        if index & 1:
            out = [a ^ b for a, b in zip(out, bases[bit], strict=True)]
        index >>= 1
        bit += 1
    return tuple(out)


def _distinct_registers(layout: LinearLayout) -> list[tuple[int, ...]]:
    """Register bases that name new elements (broadcast and repeated bases dropped, as Triton's lowering does)."""
    seen: list[tuple[int, ...]] = []
    for basis in layout.in_bases("register"):
        if any(basis) and basis not in seen:
            seen.append(basis)
    return seen


def _vector_bits(regs: list[tuple[int, ...]], offsets: OffsetMap, count: int) -> list[int]:
    """Indices of the register bases that walk `count` consecutive elements of the buffer (offsets 1, 2, 4 ...)."""
    picked = []
    for j in range(count.bit_length() - 1):
        want = 1 << j
        index = next((i for i, b in enumerate(regs) if offsets.offset(b) == want), None)
        if index is None:
            raise ModelError(f"no register of a thread sits {want} element{'s' if want > 1 else ''} after its first: "
                             f"a thread does not hold {count} consecutive elements of the buffer")
        picked.append(index)
    return picked


def warp_access(
    layout: LinearLayout, offsets: OffsetMap, element_bytes: int, lane_bytes: int, matrices: int = 0, lanes: int = 32
) -> WarpAccess:
    """Wavefronts warp 0 takes for an op moving `layout`'s registers to or from the buffer `offsets`.

    `lane_bytes` is what one lane moves per instruction (from the PTX: 16 for `ld.shared.v4.b32`);
    `matrices` is N for `ldmatrix`/`stmatrix` `.xN` (then each lane moves one 32-bit register per
    matrix). Every warp sees the same pattern on a linear buffer (its addresses are warp 0's XOR a
    constant, which keeps words apart and banks equal), so warp 0 stands for all.
    """
    rank = len(offsets.shape)
    if lanes < 1 or lanes & (lanes - 1):
        raise ModelError(f"{lanes} lanes per warp is not a power of two")
    if element_bytes < 1 or lane_bytes < 1:
        raise ModelError("element and access sizes must be positive")
    regs = _distinct_registers(layout)
    lane_bases = list(layout.in_bases("lane"))[: lanes.bit_length() - 1]
    if any(len(b) != rank for b in regs + lane_bases):
        raise ModelError(f"the register layout is rank {len(layout.out_dims)}, the buffer rank {rank}")
    lane_bases += [tuple([0] * rank)] * (lanes.bit_length() - 1 - len(lane_bases))
    if matrices:
        if element_bytes > WORD:
            raise ModelError(f"ldmatrix/stmatrix move 16-bit (or 8-bit) values, not {element_bytes}-byte ones")
        per_lane = WORD // element_bytes
        if len(regs) < per_lane.bit_length() - 1:
            raise ModelError("a thread holds fewer elements than one 32-bit register")
        chunk = list(range(per_lane.bit_length() - 1))
        lanes_per_phase = lanes
        lane_bytes = WORD
    else:
        per_lane = lane_bytes // element_bytes
        if lane_bytes < element_bytes or lane_bytes % element_bytes or per_lane & (per_lane - 1):
            raise ModelError(f"{lane_bytes}-byte accesses of {element_bytes}-byte elements")
        chunk = _vector_bits(regs, offsets, per_lane)
        lanes_per_phase = lanes // phases_per_request(lane_bytes, lanes)
    chunk_bases = [regs[i] for i in chunk]
    group_bases = [b for i, b in enumerate(regs) if i not in chunk]
    groups = 1 << len(group_bases)
    exact = offsets.linear or groups <= _MAX_GROUPS
    sampled = 1 if offsets.linear else min(groups, _MAX_GROUPS)

    lane_coords = [_xor_all(lane_bases, lane, rank) for lane in range(lanes)]
    chunk_coords = [_xor_all(chunk_bases, v, rank) for v in range(1 << len(chunk_bases))]
    total = 0
    ideal = 0
    worst = 0
    for group in range(sampled):
        base = _xor_all(group_bases, group, rank)
        for first in range(0, lanes, lanes_per_phase):
            words: set[int] = set()
            for lane in range(first, first + lanes_per_phase):
                for vec in chunk_coords:
                    coord = tuple(a ^ b ^ c for a, b, c in zip(base, lane_coords[lane], vec, strict=True))
                    offset = offsets.offset(coord)
                    if offset is None:
                        raise ModelError(f"element {list(coord)} is outside the buffer {list(offsets.shape)}")
                    start = offset * element_bytes
                    words.update(range(start // WORD, (start + element_bytes - 1) // WORD + 1))
            ways = phase_ways(words)
            need = phase_ideal(words)
            total += ways
            ideal += need
            worst = max(worst, -(-ways // max(1, need)))
    phases_per_group = lanes // lanes_per_phase
    if matrices:
        instructions = max(1, groups // matrices)
        phases = matrices if groups >= matrices else groups
    else:
        instructions, phases = groups, phases_per_group
    wavefronts = total * groups // sampled
    return WarpAccess(instructions, phases, wavefronts, worst, lane_bytes, exact, matrices, ideal * groups // sampled)


def instruction_wavefronts(
    addresses: Sequence[int | None], lane_bytes: int, matrices: int = 0, lanes: int = 32
) -> list[tuple[int, int, int]]:
    """(wavefronts, ideal wavefronts, worst ways) of one instruction for each warp, from every thread's byte address.

    `addresses[t]` is thread t's address (None: predicated off). For `ldmatrix`/`stmatrix` `.xN`
    (`matrices` = N) lanes 8i..8i+7 give the rows (16 bytes each) of matrix i, one phase per matrix.
    """
    out = []
    for first in range(0, len(addresses), lanes):
        warp = addresses[first:first + lanes]
        if matrices:
            groups = [(warp[8 * m:8 * m + 8], 16) for m in range(matrices)]
        else:
            per_phase = lanes // phases_per_request(lane_bytes, lanes)
            groups = [(warp[p:p + per_phase], lane_bytes) for p in range(0, lanes, per_phase)]
        wavefronts = ideal = worst = 0
        for group, nbytes in groups:
            words = {w for a in group if a is not None for w in range(a // WORD, (a + nbytes - 1) // WORD + 1)}
            ways = phase_ways(words)
            need = phase_ideal(words)
            wavefronts += ways
            ideal += need
            worst = max(worst, -(-ways // max(1, need)))
        out.append((wavefronts, ideal, worst))
    return out
