"""The loops of a kernel: were they software-pipelined, with what, and what confirms it below TTGIR.

Triton's pipeliner turns a loop's global loads into loads issued ``S - 1`` iterations ahead: the
prologue issues the first ``S - 1`` rounds, each iteration issues one more and waits for the oldest.
So the achieved depth of a load is ``(its copies before the loop) / (its copies in the loop) + 1``,
counted per source line. On NVIDIA the copies are async (cp.async, TMA) into multi-buffered shared
memory; on AMD they are register loads stored to shared memory one iteration ahead. What the
lower stages' loops hold (the confirming instructions, the unrolling) is irscope.analysis.loop_evidence.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from irscope.analysis.instructions import canonical_op, classify, pending_count
from irscope.analysis.loop_evidence import Evidence, WaitInfo, listing_matches, lower_evidence
from irscope.analysis.spin_locks import SpinLock, spin_lock
from irscope.errors import StoreError
from irscope.parse.layouts import AmdMfmaLayout, AmdWmmaLayout, LayoutTable, NvidiaMmaLayout, parse_layouts
from irscope.parse.lineinfo import Listing, parse_amdgcn, parse_ptx
from irscope.parse.mlir_locs import innermost_in
from irscope.parse.mlir_ops import MlirModule, MlirOp, parse_module
from irscope.parse.ttgir_ops import element_bits, parse_types
from irscope.store.store import Capture

__all__ = ["LoadStream", "Loop", "analyze_loops", "capture_loops", "unroll_notes"]

_LOOP_OPS = frozenset({"scf.for", "scf.while"})
_REGISTER_STAGED_USERS = frozenset({"ttg.local_store", "ttg.local_alloc"})
_ASYNC_MIN_BYTES = 4
# Example: } {tt.num_stages = 3 : i32}
_NUM_STAGES = re.compile(r"\btt\.num_stages\s*=\s*(?P<n>\d+)")
# Example: {contiguity = 8 : i32}
_CONTIGUITY = re.compile(r"\bcontiguity\s*=\s*(?P<n>\d+)")
# Example: %acc_1 = arith.constant dense<false> : tensor<32x128xi1, #blocked1>  |  %false = arith.constant false
_ALL_FALSE = re.compile(r"=\s*arith\.constant\s+(?:dense<false>|false\b)")
# Example: %stride_am: i32 loc("stride_am"(#loc))   /   %a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc(...)
_FUNC_ARG = re.compile(r"(?P<name>%[\w$.-]+):\s*(?P<type>[^{,()]+?(?:<[^>]*>)?)\s*(?P<attrs>\{[^}]*\})?\s*loc\(")
_WAIT_WHAT = {
    "ttg.async_wait": "async-copy group",
    "ttng.warp_group_dot_wait": "wgmma group",
    "ttng.wait_barrier": "TMA barrier phase",
    "amdg.async_wait": "async-copy group",
}


@dataclass(frozen=True)
class LoadStream:
    """The global loads of one source line inside a loop.

    Attributes:
        line: the kernel source line of the load, or None.
        kind: ``async`` (global to shared without registers) or ``register`` (a load into registers).
        in_loop: how many such loads one iteration issues.
        before_loop: how many the prologue issues (the rounds issued ahead).
        stages: ``before_loop / in_loop + 1``, less the iterations peeled into the prologue: 1 means
            not pipelined.
        bytes_per_thread: the widest contiguous access of one thread, when the layout or op says.
        feeds_shared: whether the loaded value is stored to shared memory (a register-staged pipeline).
        depends_on: function arguments its address is computed from.
        peeled: loop iterations the pipeliner moved into the prologue (each consumes one round).
        layout: the layout of the tensor it loads (``#blocked1``, or the inline attribute): one source
            line can hold loads in several layouts (a value used in two layouts is loaded twice), each
            its own stream, pipelined or not on its own.
        masked_off: prologue copies whose mask is a constant false (the pipeliner folded the guard of a
            round that never runs: an argument specialized to 1 bounds the trip count). Every lane of
            such a buffer load reads the same out-of-range offset, so LLVM may merge its instructions.
    """

    line: int | None
    kind: str
    in_loop: int
    before_loop: int
    stages: int
    bytes_per_thread: int | None
    feeds_shared: bool
    depends_on: tuple[str, ...] = ()
    peeled: int = 0
    layout: str = ""
    masked_off: int = 0


@dataclass(frozen=True)
class Loop:
    """One loop of the kernel and what the compiler made of it.

    Attributes:
        line: the kernel source line of the loop (the ``for``), or None.
        source: that line's text.
        ttgir_lines: the loop's first and last line in the TTGIR.
        depth: 0 for an outermost loop, 1 inside another loop, ...
        requested_stages: ``num_stages`` asked for this loop (``tl.range(num_stages=)`` or the kernel's option).
        requested_from: where that number came from, in words.
        achieved_stages: the deepest pipelining of its loads; 1 when not pipelined.
        loads: its global loads, per source line.
        buffers: shared-memory buffers its async copies fill, as ``<count>x<shape>xtype``.
        waits: the TTGIR waits in the loop.
        mma: the matrix instruction its dots became, in words, or "" when the loop has no dot.
        mma_ops: how many dot ops the loop body has.
        operands: how the dot operands reach the tensor cores, in words.
        evidence: per lower stage, the confirming instructions.
        reasons: why (part of) the loop was not pipelined, when it can be told.
        buffering: why the buffers are as deep as they are, when that differs from the stages, in words.
        lock: the spin lock the loop acquires (a ``while tl.atomic_cas(...)``), or None.
        body_lines: the kernel source lines the loop's body holds ops of, in order.
    """

    line: int | None
    source: str
    ttgir_lines: tuple[int, int]
    depth: int
    requested_stages: int | None
    requested_from: str
    achieved_stages: int
    loads: tuple[LoadStream, ...]
    buffers: tuple[str, ...]
    waits: tuple[WaitInfo, ...]
    mma: str
    mma_ops: int
    operands: str
    evidence: tuple[Evidence, ...]
    reasons: tuple[str, ...]
    buffering: str = ""
    lock: SpinLock | None = None
    body_lines: tuple[int, ...] = ()

    @property
    def pipelined(self) -> bool:
        """Whether any load of the loop is issued ahead of its iteration."""
        return self.achieved_stages > 1


def _kernel_line(op: MlirOp, kernel_file: str) -> int | None:
    frame = innermost_in(op.location.frames, kernel_file)
    return frame.line if frame else None


def _body(module: MlirModule, loop: MlirOp) -> list[MlirOp]:
    """The ops of a loop, without those of the loops nested in it."""
    inner = [op for op in module.inside(loop.index) if op.name in _LOOP_OPS]
    return [op for op in module.inside(loop.index)
            if not any(i.line < op.line <= i.end_line for i in inner)]


def _prologue(module: MlirModule, loop: MlirOp) -> list[MlirOp]:
    """Ops of the loop's region before it, after the previous loop of that region (nested ifs included)."""
    siblings = [op for op in module.ops if op.parent == loop.parent and op.line < loop.line]
    start = max((op.end_line for op in siblings if op.name in _LOOP_OPS), default=0)
    region_start = module.ops[loop.parent].line if loop.parent is not None else 0
    return [op for op in module.ops
            if max(start, region_start) < op.line < loop.line and op.depth >= loop.depth]


def _masked_off(module: MlirModule, op: MlirOp, definer: dict[str, int]) -> bool:
    """Whether a load's mask is a constant all-false (``arith.constant dense<false>``)."""
    at = 2 if canonical_op(op.name).startswith("amdg.buffer") else 1
    if len(op.operands) <= at or (index := definer.get(op.operands[at])) is None:
        return False
    mask = module.ops[index]
    return mask.name == "arith.constant" and bool(_ALL_FALSE.search(mask.text))


def _users(module: MlirModule) -> dict[str, list[MlirOp]]:
    users: dict[str, list[MlirOp]] = {}
    for op in module.ops:
        for name in op.operands:
            users.setdefault(name, []).append(op)
    return users


def _func_args(module: MlirModule) -> dict[str, bool]:
    """Function argument -> whether it carries ``tt.divisibility``."""
    found: dict[str, bool] = {}
    for op in module.ops:
        if op.name in ("tt.func", "func.func"):
            for match in _FUNC_ARG.finditer(op.text):
                found[match["name"]] = "tt.divisibility" in (match["attrs"] or "")
    return found


def _feeds_shared(module: MlirModule, op: MlirOp, users: dict[str, list[MlirOp]]) -> bool:
    """Whether a loaded value reaches a shared-memory store within a few ops (through layout changes)."""
    frontier, seen = list(op.results), set()
    for _ in range(4):
        following: list[str] = []
        for name in frontier:
            for user in users.get(name, []):
                if canonical_op(user.name) in _REGISTER_STAGED_USERS:
                    return True
                if user.index not in seen:
                    seen.add(user.index)
                    following.extend(user.results)
        frontier = following
    return False


def _peeled(prologue: list[MlirOp], body: list[MlirOp], kernel_file: str) -> int:
    """Iterations the pipeliner peeled into the prologue: its dots that repeat a dot of the loop body.

    A peeled iteration consumes one round of the loads issued before the loop (Blackwell's
    pipeliner runs the first tcgen05 MMA before the loop, then issues one more round).
    """
    dots = [op for op in body if classify(op.name) == "mma"]
    if not dots:
        return 0
    lines = {_kernel_line(op, kernel_file) for op in dots}
    early = [op for op in prologue if classify(op.name) == "mma" and _kernel_line(op, kernel_file) in lines]
    return len(early) // len(dots)


def _register_load_bytes(op: MlirOp, table: LayoutTable) -> int | None:
    """Contiguous bytes one thread loads: the layout's sizePerThread along its fastest dim, capped by contiguity."""
    types = [t for _, t in parse_types(op.text) if t.kind == "tensor"]
    if not types:
        return None
    result = types[-1]
    layout = table.get(result.encoding) if result.encoding.startswith("#") else None
    per_thread = getattr(layout, "size_per_thread", None)
    order = getattr(layout, "order", None)
    if not per_thread or not order:
        return None
    elements = per_thread[order[0]]
    if contiguity := _CONTIGUITY.search(op.text):
        elements = min(elements, int(contiguity["n"]))
    element = result.element
    return elements * element_bits(element.removeprefix("!tt.ptr<").rstrip(">")) // 8


def _async_bytes(op: MlirOp) -> int | None:
    contiguity = _CONTIGUITY.search(op.text)
    types = [t for _, t in parse_types(op.text)]
    if not contiguity or not types:
        return None
    element = types[0].element.removeprefix("!tt.ptr<").rstrip(">")
    return int(contiguity["n"]) * element_bits(element) // 8


def _load_kind(op: MlirOp) -> str | None:
    kind = classify(op.name)
    if kind == "async_copy":
        return "async"
    if kind == "global_load":
        return "register"
    return None


def _loaded_layout(op: MlirOp) -> str:
    """``shape:layout`` of the register tensor a load fills or addresses with (its last tensor type)."""
    tensors = [t for _, t in parse_types(op.text) if t.kind == "tensor"]
    return f"{tensors[-1].shape_text}:{tensors[-1].encoding}" if tensors else ""


def _streams(module: MlirModule, loop: MlirOp, body: list[MlirOp], kernel_file: str, table: LayoutTable
             ) -> list[LoadStream]:
    users = _users(module)
    args = _func_args(module)
    prologue = _prologue(module, loop)
    # A stream: the loads of one source line in one layout (the prologue's copies have the loop's types).
    ahead = Counter((_kernel_line(op, kernel_file), kind, _loaded_layout(op))
                    for op in prologue if (kind := _load_kind(op)))
    definer = module.definer()
    off = Counter((_kernel_line(op, kernel_file), kind, _loaded_layout(op))
                  for op in prologue if (kind := _load_kind(op)) and _masked_off(module, op, definer))
    peeled = _peeled(prologue, body, kernel_file)
    streams: dict[tuple[int | None, str, str], list[MlirOp]] = {}
    for op in body:
        if kind := _load_kind(op):
            streams.setdefault((_kernel_line(op, kernel_file), kind, _loaded_layout(op)), []).append(op)
    found = []
    for (line, kind, layout), ops in streams.items():
        feeds = kind == "async" or _feeds_shared(module, ops[0], users)
        before = ahead[(line, kind, layout)]
        stages = max(1, before // len(ops) - peeled + 1) if before else 1
        width = _async_bytes(ops[0]) if kind == "async" else _register_load_bytes(ops[0], table)
        # The address: the pointer operand (buffer loads: the base pointer and the offsets).
        address = list(ops[0].operands[: 2 if canonical_op(ops[0].name).startswith("amdg.buffer") else 1])
        depends = tuple(sorted(set(module.arguments_feeding(address, args))))
        found.append(LoadStream(line, kind, len(ops), before, stages, width, feeds, depends, peeled if before else 0,
                                layout.partition(":")[2], off[(line, kind, layout)]))
    return sorted(found, key=lambda s: (s.line or 0, s.kind, -s.stages))


def _buffers(module: MlirModule, body: list[MlirOp]) -> tuple[str, ...]:
    """Multi-buffered shared allocations the loop's async copies write to."""
    definer = module.definer()
    found: dict[str, None] = {}
    for op in body:
        if classify(op.name) != "async_copy" or len(op.operands) < 2:
            continue
        index = definer.get(op.operands[1])
        view = module.ops[index] if index is not None else None
        if (view is not None and canonical_op(view.name) in ("ttg.memdesc_index", "ttg.memdesc_subview")
                and view.operands):
            index = definer.get(view.operands[0])
            view = module.ops[index] if index is not None else None
        if view is not None and canonical_op(view.name) == "ttg.local_alloc":
            types = [t for _, t in parse_types(view.text) if t.kind == "memdesc"]
            if types:
                found[f"{types[-1].shape_text}x{types[-1].element}"] = None
    return tuple(found)


def _buffering(body: list[MlirOp], streams: list[LoadStream], buffers: tuple[str, ...]) -> str:
    """Why the copies' buffers are as deep as they are (Triton's pipeliner gives each async load one
    buffer per iteration it is issued ahead, and one more when wgmma reads the buffer itself)."""
    depths = {int(b.split("x", 1)[0]) for b in buffers if b.split("x", 1)[0].isdigit()}
    ahead = max((s.stages - 1 for s in streams if s.kind == "async"), default=0)
    copies = [op.line for op in body if classify(op.name) == "async_copy"]
    if len(depths) != 1 or ahead < 1 or not copies:
        return ""
    depth = depths.pop()
    stages = f"{depth} deep for {ahead + 1} stages: one buffer per iteration a copy is issued ahead ({ahead})"
    reads = [op.line for op in body if canonical_op(op.name) == "ttg.local_load" and op.line < copies[0]]
    wgmma = next((op for op in body if canonical_op(op.name) == "ttng.warp_group_dot"), None)
    if depth == ahead and reads:
        span = f"line {reads[0]}" if len(reads) == 1 else f"lines {reads[0]}-{reads[-1]}"
        return (f"{stages}; each iteration reads its tile into registers (ttg.local_load, TTGIR {span}) before "
                f"it issues the next copies (line {copies[0]}), so one tile is held in registers, not in a buffer")
    if depth == ahead + 1 and wgmma is not None:
        return (f"{stages}, plus one: wgmma (ttng.warp_group_dot, TTGIR line {wgmma.line}) reads its operands "
                "from shared memory while the next copies land")
    return ""


def _mma_kind(dot: MlirOp, table: LayoutTable) -> str:
    """The matrix instruction one dot op lowers to, in words."""
    types = [t for _, t in parse_types(dot.text)]
    result = types[-1] if types else None
    layout = table.get(result.encoding) if result and result.encoding.startswith("#") else None
    if canonical_op(dot.name) == "ttng.warp_group_dot" or (isinstance(layout, NvidiaMmaLayout)
                                                           and layout.version_major == 3):
        shape = "x".join(str(n) for n in layout.instr_shape) if isinstance(layout, NvidiaMmaLayout) else "?"
        return f"wgmma (NVIDIA mma v3, warpgroup instruction tile {shape})"
    if canonical_op(dot.name) == "ttng.tc_gen5_mma":
        return "tcgen05.mma (NVIDIA mma v5, accumulator in tensor memory)"
    if isinstance(layout, NvidiaMmaLayout):
        tile = 'x'.join(str(n) for n in layout.instr_shape)
        return f"mma.sync (NVIDIA mma v{layout.version_major}, instruction tile {tile})"
    if isinstance(layout, AmdMfmaLayout):
        return f"mfma (AMD MFMA v{layout.version}, {'x'.join(str(n) for n in layout.instr_shape)})"
    if isinstance(layout, AmdWmmaLayout):
        return f"wmma (AMD WMMA v{layout.version})"
    return "FMA on CUDA cores (the dot's result has no tensor-core layout)"


def _mma(body: list[MlirOp], table: LayoutTable) -> tuple[str, int, str]:
    """(matrix instruction(s) in words, number of dot ops, how the operands arrive)."""
    dots = [op for op in body if classify(op.name) == "mma"]
    if not dots:
        return "", 0, ""
    kinds = Counter(_mma_kind(d, table) for d in dots)
    # One loop may hold dots of several kinds (fla's fused_chunk_based: mma v2 dots beside a wgmma).
    mma = (next(iter(kinds)) if len(kinds) == 1
           else "; ".join(f"{k} for {n} of the {len(dots)} dots" for k, n in kinds.items()))
    types = [t for _, t in parse_types(dots[0].text)]
    operands = [t for t in types[:2]]
    if operands and all(t.kind == "memdesc" for t in operands):
        how = "A and B are read by the tensor cores straight from shared memory"
    elif operands and operands[0].kind == "tensor" and len(operands) > 1 and operands[1].kind == "memdesc":
        how = "A from registers, B straight from shared memory"
    elif any(canonical_op(op.name) == "ttg.local_load" and "dot_op" in op.text for op in body):
        how = "through shared memory: local_load (ldmatrix / ds_read) into dot-operand registers"
    else:
        how = "in registers (no shared-memory staging in the loop)"
    return mma, len(dots), how


def _waits(body: list[MlirOp]) -> tuple[WaitInfo, ...]:
    return tuple(WaitInfo(canonical_op(op.name), pending_count(op.text), _WAIT_WHAT.get(canonical_op(op.name), ""),
                          op.line)
                 for op in body if classify(op.name) == "wait")


def _reasons(loop_requested: int | None, streams: list[LoadStream], args: dict[str, bool], backend: str,
             inner_loads: bool = False) -> tuple[str, ...]:
    if loop_requested is not None and loop_requested <= 1:
        return ("num_stages is 1 for this loop: pipelining was not asked for",)
    if not streams and inner_loads:
        return ("its loads are in the loops nested in it; Triton pipelines innermost loops",)
    if not streams:
        return ("the loop has no global loads to issue ahead",)
    reasons = []
    lines = Counter((s.line, s.kind) for s in streams)
    for s in streams:
        if s.stages > 1:
            continue
        where = f"the load on line {s.line}" if s.line else "a load"
        if lines[(s.line, s.kind)] > 1 and s.layout:
            where += f" in {s.layout}"
        if s.kind == "register" and backend == "cuda" and s.bytes_per_thread is not None \
                and s.bytes_per_thread < _ASYNC_MIN_BYTES:
            plain = [a.lstrip("%") for a in s.depends_on if not args.get(a, True)]
            why = (f"{where} moves {s.bytes_per_thread} bytes per thread, narrower than the "
                   f"{_ASYNC_MIN_BYTES} bytes cp.async needs, so it stays a register load")
            if plain:
                why += (f"; its address depends on {', '.join(plain)}, which carr{'ies' if len(plain) == 1 else 'y'} "
                        "no tt.divisibility (the JIT adds it only to integers divisible by 16), so Triton cannot "
                        "prove wider accesses aligned")
            reasons.append(why)
        elif s.kind == "register" and not s.feeds_shared:
            reasons.append(f"{where} is used in registers only (it does not feed a dot through shared memory); "
                           "Triton's pipeliner left it in the loop")
        else:
            reasons.append(f"{where} was not issued ahead; the IR does not say why")
    return tuple(reasons)


def _inner_loads(module: MlirModule, loop: MlirOp) -> bool:
    """Whether a loop nested in ``loop`` loads from global memory."""
    return any(_load_kind(op) for op in module.inside(loop.index)) and any(
        op.name in _LOOP_OPS for op in module.inside(loop.index))


def analyze_loops(ttgir: str, kernel_file: str, default_stages: int | None = None, backend: str = "cuda",
                  listings: tuple[Listing, ...] = (), source: tuple[str, ...] = ()) -> list[Loop]:
    """Every loop of a TTGIR module with its pipelining, waits, matrix instructions and lower-stage evidence."""
    module = parse_module(ttgir)
    table = parse_layouts(ttgir)
    args = _func_args(module)
    found = [op for op in module.ops if op.name in _LOOP_OPS]
    bodies = [_body(module, op) for op in found]
    body_lines = [{n for o in body if (n := _kernel_line(o, kernel_file)) is not None} for body in bodies]
    matched = [listing_matches(body_lines, listing, kernel_file) for listing in listings]
    loops = []
    for k, (op, body) in enumerate(zip(found, bodies, strict=True)):
        line = _kernel_line(op, kernel_file)
        attr = _NUM_STAGES.search(op.text)
        requested = int(attr["n"]) if attr else default_stages
        origin = ("tl.range(num_stages=...) on the loop" if attr
                  else "the kernel's num_stages option" if default_stages is not None else "unknown")
        streams = _streams(module, op, body, kernel_file, table)
        achieved = max((s.stages for s in streams), default=1)
        mma, count, operands = _mma(body, table)
        evidence = lower_evidence(listings, [matches[k] for matches in matched], kernel_file)
        buffers = _buffers(module, body)
        unpipelined = achieved <= 1 or any(s.stages == 1 for s in streams)
        loops.append(Loop(
            line=line,
            source=source[line - 1].strip() if line and line <= len(source) else "",
            ttgir_lines=(op.line, op.end_line),
            depth=sum(1 for other in found if other.line < op.line <= other.end_line),
            requested_stages=requested,
            requested_from=origin,
            achieved_stages=achieved,
            loads=tuple(streams),
            buffers=buffers,
            waits=_waits(body),
            mma=mma,
            mma_ops=count,
            operands=operands,
            evidence=evidence,
            reasons=_reasons(requested, streams, args, backend, _inner_loads(module, op)) if unpipelined else (),
            buffering=_buffering(body, streams, buffers),
            lock=spin_lock(module, op, body, kernel_file, listings),
            body_lines=tuple(sorted(body_lines[k])),
        ))
    return loops


def unroll_notes(loops: list[Loop], line: int) -> dict[str, str]:
    """Per lower stage, what unrolling means for the counts of a kernel line inside an unrolled loop."""
    notes: dict[str, str] = {}
    for loop in loops:
        if line not in loop.body_lines and line != loop.line:
            continue
        where = f"the loop at line {loop.line}" if loop.line else "its loop"
        for e in loop.evidence:
            if e.llvm_unrolled > 1:
                notes[e.stage] = (f"line {line} is in {where}, which LLVM unrolled {e.llvm_unrolled} times: the "
                                  f"{e.stage} loop holds {e.llvm_unrolled} copies of each iteration's instructions")
            if e.unrolled > 1:
                notes[e.stage] = (f"line {line} is in {where}, which ptxas unrolled {e.unrolled} times: the SASS "
                                  f"loop holds {e.unrolled} copies of each PTX iteration's instructions")
    return notes


def capture_loops(capture: Capture, listings: tuple[Listing, ...] | None = None
                  ) -> tuple[list[Loop], tuple[str, ...]]:
    """The loops of a stored capture, with PTX and SASS (NVIDIA) or AMDGCN evidence; and what was missing.

    ``listings``: the lower stages already parsed by the caller (then nothing is read again).
    """
    from irscope.analysis.sourcemap import sass_listing

    m = capture.manifest
    found: list[Listing] = list(listings or ())
    missing: list[str] = []
    lower = () if listings is not None else ("ptx", "sass") if m.backend == "cuda" else ("amdgcn",)
    for stage in lower:
        try:
            if stage == "sass":
                listing, why = sass_listing(capture)
                if listing is None:
                    missing.append(f"sass: {why}")
                    continue
                found.append(listing)
            else:
                found.append((parse_ptx if stage == "ptx" else parse_amdgcn)(capture.read(stage)))
        except StoreError as exc:
            missing.append(f"{stage}: {exc}")
    stages = m.options.get("num_stages", m.metadata.get("num_stages"))
    try:
        source = tuple(capture.read("source").splitlines())
    except StoreError:
        source = ()
    loops = analyze_loops(capture.read("ttgir"), m.kernel_path, int(stages) if stages is not None else None,
                          m.backend, tuple(found), source)
    return loops, tuple(missing)
