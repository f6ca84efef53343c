"""Spin locks: a loop that retries an atomic compare-and-swap until it wins, and what contends for it.

A ``while tl.atomic_cas(lock, 0, 1) == 1: pass`` becomes an ``scf.while`` whose condition region holds a
``tt.atomic_cas``; the lock is let go by an atomic exchange on the same address after the loop. How many
programs contend for one lock follows from the address: ``lock + program_id % N`` spreads the programs over
N locks (every program whose id agrees modulo N waits on the same one), ``lock + program_id // N`` gives N
consecutive programs one lock, a fixed address makes every program contend. How many programs there are is
the launch's grid, which a capture does not record: without it the count stays unknown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from irscope.analysis.instructions import canonical_op, classify
from irscope.parse.lineinfo import Listing
from irscope.parse.mlir_locs import innermost_in
from irscope.parse.mlir_ops import MlirModule, MlirOp

__all__ = ["SpinLock", "contention", "spin_lock"]

# Example: %c96_i32 = arith.constant 96 : i32
_CONSTANT = re.compile(r"=\s*arith\.constant\s+(?P<n>-?\d+)\s*:")
# Example: %row = tt.get_program_id x : i32
_PROGRAM_ID = re.compile(r"tt\.get_program_id\s+(?P<axis>[xyz])\b")
# Example: tt.atomic_cas acq_rel, gpu, %Lock_6, ...   |   tt.atomic_rmw exch, acq_rel, gpu, %Lock_6, ...
_SEMANTICS = re.compile(r"\btt\.atomic_(?:cas|rmw)\s+(?P<words>(?:\w+,\s*)+)")
_PASS_THROUGH = frozenset({"arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast"})
_AXES = {"x": 0, "y": 1, "z": 2}


@dataclass(frozen=True)
class SpinLock:
    """A loop that spins on an atomic compare-and-swap.

    Attributes:
        line: the source line of the compare-and-swap, or None.
        acquire: the TTGIR op with its memory semantics and scope (``tt.atomic_cas acq_rel, gpu``).
        address: the lock's address in words (``Lock + program_id(0) % 96``), or "" when not read.
        release_line: the source line of the atomic exchange on the same address after the loop, or None.
        release: that op (``tt.atomic_rmw exch acq_rel, gpu``), or "" when none was found.
        release_machine: per lower stage, the atomic instructions of the release line
            (``("ptx", ("atom.global.gpu.acq_rel.exch.b32",))``).
        locks: how many lock addresses the programs spread over, when the address tells (1: one lock for all).
        per_program: how the programs map to the locks: ``modulo`` (id % locks), ``divide`` (id // n, n
            consecutive programs per lock: ``group``), ``each`` (a lock per program), ``one`` (a fixed
            address), or ``unknown``.
        group: for ``divide``, the consecutive programs per lock.
        axis: the program_id axis the lock is picked by (0, 1, 2), or None.
    """

    line: int | None
    acquire: str
    address: str
    release_line: int | None
    release: str
    release_machine: tuple[tuple[str, tuple[str, ...]], ...]
    locks: int | None
    per_program: str
    group: int | None = None
    axis: int | None = None


def _semantics(op: MlirOp) -> str:
    found = _SEMANTICS.search(op.text)
    words = [w.strip() for w in found["words"].split(",") if w.strip()] if found else []
    rest = ', '.join(words[1:])
    return f"{canonical_op(op.name)} {' '.join(words[:1])}{', ' if len(words) > 1 else ''}{rest}".strip()


def _defining(module: MlirModule, name: str, user: int) -> MlirOp | None:
    at = module.source(name, user)
    return module.ops[at] if at is not None else None


def _address(module: MlirModule, name: str, user: int, depth: int = 0) -> tuple[str, list[str]] | None:
    """(base argument, offset SSA names) of a scalar pointer built by ``tt.addptr`` from a kernel argument."""
    op = _defining(module, name, user)
    if op is None or depth > 8:
        return None
    if op.name in ("tt.func", "func.func") and name in op.defines:
        return name, []
    if canonical_op(op.name) == "tt.addptr" and len(op.operands) >= 2:
        inner = _address(module, op.operands[0], op.index, depth + 1)
        return (inner[0], [*inner[1], op.operands[1]]) if inner else None
    return None


def _offset(module: MlirModule, name: str, user: int, depth: int = 0
            ) -> tuple[str, int | None, int | None, str]:
    """(how programs map to the offset, the modulus / divisor, the program_id axis, the offset in words)."""
    op = _defining(module, name, user)
    if op is None or depth > 8:
        return "unknown", None, None, name.lstrip("%")
    if (const := _CONSTANT.search(op.text)) is not None:
        return "one", int(const["n"]), None, const["n"]
    if (pid := _PROGRAM_ID.search(op.text)) is not None:
        axis = _AXES[pid["axis"]]
        return "each", None, axis, f"program_id({axis})"
    kind = canonical_op(op.name)
    if kind in _PASS_THROUGH and op.operands:
        return _offset(module, op.operands[0], op.index, depth + 1)
    if kind in ("arith.remsi", "arith.remui", "arith.divsi", "arith.divui") and len(op.operands) == 2:
        left = _offset(module, op.operands[0], op.index, depth + 1)
        right = _offset(module, op.operands[1], op.index, depth + 1)
        if left[0] == "each" and right[0] == "one" and right[1]:
            rem = kind.startswith("arith.rem")
            return ("modulo" if rem else "divide"), right[1], left[2], f"{left[3]} {'%' if rem else '//'} {right[1]}"
    if kind == "arith.addi" and len(op.operands) == 2:
        parts = [_offset(module, o, op.index, depth + 1) for o in op.operands]
        fixed = [p for p in parts if p[0] == "one"]
        moving = [p for p in parts if p[0] != "one"]
        if len(fixed) == 1 and len(moving) == 1:
            return moving[0][0], moving[0][1], moving[0][2], f"{moving[0][3]} + {fixed[0][3]}"
    return "unknown", None, None, name.lstrip("%")


def _release(module: MlirModule, loop: MlirOp, key: tuple[str, list[str]]) -> MlirOp | None:
    """The first atomic exchange after the loop on the same address (same base, same offset values)."""
    for op in module.ops[loop.index + 1:]:
        if op.line <= loop.end_line or canonical_op(op.name) != "tt.atomic_rmw" or " exch" not in op.text:
            continue
        pointer = next((o for o in op.operands if o.startswith("%")), None)
        if pointer is not None and _address(module, pointer, op.index) == key:
            return op
    return None


def _machine_at(listings: tuple[Listing, ...], line: int | None, kernel_file: str
                ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if line is None:
        return ()
    found = []
    for listing in listings:
        opcodes = [i.opcode for i in listing.instructions if classify(i.opcode) == "atomic"
                   and (frame := innermost_in(i.frames, kernel_file)) is not None and frame.line == line]
        if opcodes:
            found.append((listing.stage, tuple(dict.fromkeys(opcodes))))
    return tuple(found)


def spin_lock(module: MlirModule, loop: MlirOp, body: list[MlirOp], kernel_file: str,
              listings: tuple[Listing, ...] = ()) -> SpinLock | None:
    """The spin lock a ``scf.while`` loop acquires (a compare-and-swap in its body), or None."""
    if loop.name != "scf.while":
        return None
    cas = next((op for op in body if canonical_op(op.name) == "tt.atomic_cas"), None)
    if cas is None:
        return None
    frame = innermost_in(cas.location.frames, kernel_file)
    pointer = next((o for o in cas.operands if o.startswith("%")), None)
    key = _address(module, pointer, cas.index) if pointer else None
    how, number, axis, words = "unknown", None, None, ""
    if key is not None:
        offsets = [_offset(module, name, cas.index) for name in key[1]]
        moving = [o for o in offsets if o[0] != "one"]
        if not moving:
            how, number = "one", 1
        elif len(moving) == 1:
            how, number, axis = moving[0][0], moving[0][1], moving[0][2]
        words = " + ".join([key[0].lstrip("%"), *(o[3] for o in offsets)])
    locks = number if how in ("modulo", "one") else None
    group = number if how == "divide" else None
    release = _release(module, loop, key) if key is not None else None
    release_frame = innermost_in(release.location.frames, kernel_file) if release is not None else None
    release_line = release_frame.line if release_frame else None
    return SpinLock(
        line=frame.line if frame else None, acquire=_semantics(cas), address=words, release_line=release_line,
        release=_semantics(release) if release is not None else "",
        release_machine=_machine_at(listings, release_line, kernel_file), locks=locks, per_program=how,
        group=group, axis=axis)


def contention(lock: SpinLock, grid: tuple[int, int, int] | None) -> str:
    """What is known of how many programs (CTAs) wait on each lock, in words."""
    programs = grid[lock.axis] if grid is not None and lock.axis is not None else None
    others = 1
    if grid is not None and lock.axis is not None:
        for i, n in enumerate(grid):
            if i != lock.axis:
                others *= n  # programs along the other axes pick the same lock
    unknown_grid = "the launch's grid is not in the capture (give --grid)"
    if lock.per_program == "one":
        total = f"all {grid[0] * grid[1] * grid[2]} programs" if grid is not None else "all the launch's programs"
        return f"one lock for the whole launch: {total} contend for it, one at a time"
    if lock.per_program == "each":
        if grid is None:
            return (f"a lock per value of program_id({lock.axis}): shared only by programs along the other grid "
                    f"axes, if any; {unknown_grid}")
        if others > 1:
            return f"a lock per value of program_id({lock.axis}): the {others} programs along the other axes share each"
        return f"a lock per value of program_id({lock.axis}): no two programs share one, none waits"
    if lock.per_program == "modulo" and lock.locks:
        if programs is None:
            return (f"{lock.locks} locks: the programs whose program_id({lock.axis}) agree modulo {lock.locks} take "
                    f"turns on one; how many contend is unknown: {unknown_grid}")
        if programs <= lock.locks and others == 1:
            return (f"{lock.locks} locks for the grid's {programs} programs along axis {lock.axis}: each has a lock "
                    "of its own, none waits")
        used = min(programs, lock.locks)
        most = -(-programs // lock.locks) * others
        least = programs // lock.locks * others
        spread = f"{most}" if most == least else f"{least} to {most}"
        return (f"{lock.locks} locks, {used} of them used by the grid's {programs} programs along axis {lock.axis}"
                f"{f' (x {others} along the other axes)' if others > 1 else ''}: {spread} CTAs contend for each")
    if lock.per_program == "divide" and lock.group:
        count = f"{-(-programs // lock.group)} locks" if programs is not None else "locks"
        tail = "" if programs is not None else f"; how many locks is unknown: {unknown_grid}"
        return (f"{count}: each shared by {lock.group} consecutive values of program_id({lock.axis})"
                f"{f' (x {others} along the other axes)' if others > 1 else ''}{tail}")
    return "how the programs pick their lock is not read from the address: contention unknown"
