"""irscope checks its own claims: every fact a lower stage can confirm is re-derived there and compared.

What is checked, per capture:

- ``files``: each stored file against the size and sha256 its manifest recorded.
- ``pipeline``: each pipelined load of a loop (``loops``: S stages = rounds issued ahead + 1) against the
  copies the PTX / AMDGCN issues from the same source line before the loop and inside it. Loads of one
  line in other layouts mix their instructions with it: then the counts of all of them are compared
  together, or, when only this one is issued ahead, the instructions before the loop give its count per copy.
  A copy whose mask is a constant false may take a single instruction (every lane reads one offset); on AMD
  a copy with one address for all lanes may be a scalar load. When a line's count is off, line info may
  have filed the copies under another pipelined load's line or under line 0: the loop's pipelined loads
  are then compared together (those in the loop's own inner loops never count for it). See verify_pipeline.
- ``waits``: the loop's TTGIR waits (``ttg.async_wait {num = N}``, ``ttng.warp_group_dot_wait
  {pendings = N}``) against ``cp.async.wait_group N`` / ``wgmma.wait_group N`` in the PTX loop.
- ``mma``: the matrix instruction the loop's dot layout names (kind and instruction shape) against
  the tensor-core instructions in the loop, and their number per iteration against the tile; a loop
  holding dots of several kinds (mma v2 beside a wgmma or a tcgen05 MMA) is checked per kind. A tcgen05
  MMA's M and N sit in its instruction descriptor, not its mnemonic: its kind is checked. Only copies of
  the loop's own dots (their source lines) before it count as iterations LLVM peeled off the loop.
- ``registers`` / ``shared``: ptxas -v on the PTX against the cubin; the TTGIR's ``ttg.shared`` against
  Triton's metadata (what ``resources`` prints) and, on AMD, the LDS the AMDGCN declares.
- ``lines``: every TTGIR dot, global load/store and async copy has instructions of the same class
  attributed to its source line in each lower stage (a dot with a blocked result: multiply-adds), and no
  stage names a line past the end of the file. An op of one arm of an ``scf.if`` whose twin in the other
  arm has the instructions is unchecked: LLVM merges the two into one, on one arm's line. A load with none
  on its line agrees when a line using its value, with no load of its own, has them (instruction selection
  folded the load into its use).
- ``widths``: the width each global access's layout allows (``layouts``) never below what the PTX /
  AMDGCN instructions of the same source position move (a wider instruction would mean irscope read
  the layout wrong); narrower ones are what ``layouts`` reports as such, with the reason. Accesses
  sharing a position (one ``tl.load`` used in two layouts) share its instructions: the widest layout
  among them is the bound.

A check that cannot be made says so (``unchecked``), with why; it never counts as agreement.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from irscope.analysis.instructions import canonical_op, classify
from irscope.analysis.loops import Loop, capture_loops
from irscope.analysis.tcgen05 import tcgen05_shapes
from irscope.analysis.verify_pipeline import (
    AGREE,
    AT_LINE_0,
    DISAGREE,
    UNCHECKED,
    Finding,
    asm_loop_instructions,
    check_pipeline,
    line_of,
    loop_name,
)
from irscope.errors import StoreError
from irscope.parse.layout_kinds import TensorMemoryLayout
from irscope.parse.layouts import AmdMfmaLayout, BlockedLayout, LayoutTable, NvidiaMmaLayout, parse_layouts
from irscope.parse.lineinfo import Instruction, Listing, parse_amdgcn, parse_ptx
from irscope.parse.mlir_ops import MlirModule, MlirOp, parse_module
from irscope.parse.ttgir_ops import TensorType, element_bits, parse_types
from irscope.store.store import Capture

__all__ = ["Finding", "Verification", "verify_capture"]

# Example: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16  |  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
_PTX_MMA_SHAPE = re.compile(r"\.m(?P<m>\d+)n(?P<n>\d+)k(?P<k>\d+)\b")
# Example: v_mfma_f32_32x32x8_f16  |  v_mfma_f32_16x16x16f16  |  v_mfma_f64_16x16x4_f64
_AMD_MMA_SHAPE = re.compile(r"_(?P<m>\d+)x(?P<n>\d+)x(?P<k>\d+)")
# Example: module attributes {"ttg.num-ctas" = 1 : i32, ..., ttg.shared = 147456 : i32, ...}
_TTG_SHARED = re.compile(r"\b(?:ttg|triton_gpu)\.shared\s*=\s*(?P<n>\d+)")
# Example:     .group_segment_fixed_size: 0
_AMD_LDS = re.compile(r"^\s*\.group_segment_fixed_size:\s*(?P<n>\d+)", re.M)
# Example: .LBB0_7:                                ; %.epil.preheader
_EPILOGUE = re.compile(r"%\S*\.epil\b")
# Example: fma.rn.f32 | mad.lo.s32 | FFMA R4, R2, R3, R4 | v_fmac_f32_e32 | v_pk_fma_f32   (an FMA dot's code)
_FMA = re.compile(r"^(?:fma\.|mad\.(?!wide)|FFMA|HFMA2|DFMA|IMAD(?!\.)|v_(?:pk_)?fma|v_fmac|v_mad|v_mac|v_dot)")
_PLURAL = {"load": "loads", "store": "stores", "async copy": "async copies"}
_LINE_CLASSES = ("mma", "global_load", "global_store", "async_copy")


@dataclass(frozen=True)
class Verification:
    """Every finding of one capture.

    Attributes:
        key: the capture key; ``kernel``, ``target`` and ``config_index`` name it for people.
        findings: in the order they were checked.
    """

    key: str
    kernel: str
    target: str
    config_index: int
    findings: tuple[Finding, ...]

    @property
    def disagreements(self) -> list[Finding]:
        """The claims a lower stage contradicts."""
        return [f for f in self.findings if f.status == DISAGREE]

    @property
    def unchecked(self) -> list[Finding]:
        """The claims that could not be checked."""
        return [f for f in self.findings if f.status == UNCHECKED]


def lower_listings(capture: Capture, sass: bool = True) -> tuple[list[Listing], list[Finding]]:
    """The lower stages with line info: PTX and SASS (NVIDIA; ``sass`` False leaves it out) or AMDGCN."""
    from irscope.analysis.sourcemap import sass_listing

    found: list[Listing] = []
    problems: list[Finding] = []
    lower = (("ptx", "sass") if sass else ("ptx",)) if capture.manifest.backend == "cuda" else ("amdgcn",)
    for stage in lower:
        try:
            if stage == "sass":
                listing, why = sass_listing(capture)
                if listing is None:
                    problems.append(Finding("lines", "SASS line table", why, UNCHECKED))
                    continue
                found.append(listing)
            else:
                found.append((parse_ptx if stage == "ptx" else parse_amdgcn)(capture.read(stage)))
        except StoreError as exc:
            problems.append(Finding("lines", f"{stage} line table", str(exc), UNCHECKED))
    return found, problems


def _dots_in(module: MlirModule, loop: Loop) -> list[MlirOp]:
    first, last = loop.ttgir_lines
    inner = [op for op in module.ops if op.name in ("scf.for", "scf.while") and first < op.line <= last]
    return [op for op in module.ops if first < op.line <= last and classify(op.name) == "mma"
            and not any(i.line < op.line <= i.end_line for i in inner)]


def _expected_mma(dot: MlirOp, layouts: LayoutTable) -> tuple[str, tuple[int, int, int | None], int | None] | None:
    """(instruction family, (m, n, k) per instruction, instructions per iteration per thread) from the layout."""
    types = [t for _, t in parse_types(dot.text)]
    if len(types) < 3:
        return None
    if canonical_op(dot.name) == "ttng.tc_gen5_mma":
        return _expected_tcgen05(types[0], types[2], layouts)
    a, result = types[0], types[-1]
    layout = layouts.get(result.encoding)
    if len(result.shape) != 2 or len(a.shape) < 2:
        return None
    big_m, big_n = result.shape
    big_k = a.shape[-1]
    if isinstance(layout, NvidiaMmaLayout) and layout.version_major == 3 and len(layout.instr_shape) == 3:
        _, inn, ik = layout.instr_shape
        wm, wn = layout.warps_per_cta[0], layout.warps_per_cta[1]
        # A warpgroup (4 warps along M) issues m64 instructions.
        groups_m = max(wm // 4, 1)
        reps = (big_m // (64 * groups_m)) * (big_n // (inn * wn)) * (big_k // ik)
        return "wgmma", (64, inn, ik), reps if reps > 0 else None
    if isinstance(layout, NvidiaMmaLayout) and layout.version_major == 2 and len(layout.instr_shape) >= 2:
        im, inn = layout.instr_shape[:2]
        return "mma.sync", (im, inn, None), None
    if isinstance(layout, AmdMfmaLayout) and len(layout.instr_shape) >= 2:
        im, inn = layout.instr_shape[:2]
        kk = layout.instr_shape[2] if len(layout.instr_shape) > 2 and layout.instr_shape[2] else None
        wm, wn = layout.warps_per_cta[0], layout.warps_per_cta[1]
        count = (big_m // (im * wm) or 1) * (big_n // (inn * wn) or 1) * (big_k // kk) if kk else None
        return "mfma", (im, inn, kk), count
    return None


def _expected_tcgen05(a: TensorType, acc: TensorType, layouts: LayoutTable
                      ) -> tuple[str, tuple[int, int, int | None], int | None] | None:
    """A tcgen05 MMA's instruction shape: M and N are its tensor-memory accumulator's block, K is 256 bits.

    The operands are memory descriptors (A, B in shared memory, the accumulator in tensor memory, then
    the barrier), so the accumulator is the third type, not the last.
    """
    layout = layouts.get(acc.encoding)
    if not isinstance(layout, TensorMemoryLayout) or len(acc.shape) != 2 or len(a.shape) < 2:
        return None
    bits = element_bits(a.element)
    k = 256 // bits if bits else None
    big_m, big_n = acc.shape
    count = None
    if k and not layout.two_ctas and big_m % layout.block_m == 0 and big_n % layout.block_n == 0:
        count = big_m // layout.block_m * (big_n // layout.block_n) * max(a.shape[-1] // k, 1)
    return "tcgen05.mma", (layout.block_m, layout.block_n, k), count


def _unroll(loop: Loop, module: MlirModule, layouts: LayoutTable, listing: Listing, epilogue: bool) -> int:
    """How many iterations the lower stage's loop holds (LLVM unrolls loops, leaving an epilogue).

    Told by the tensor-core instructions: their count in the loop over the count one iteration needs,
    when that is a whole number above 1 and the listing has LLVM's unroll epilogue (``.epil``). Else 1.
    """
    evidence = next((e for e in loop.evidence if e.stage == listing.stage), None)
    if not loop.mma_ops or evidence is None or not evidence.label or not epilogue:
        return 1
    spans = asm_loop_instructions(listing, evidence.label)
    count = sum(1 for i in (spans[0] if spans else []) if classify(i.opcode) == "mma")
    expected = [e[2] for d in _dots_in(module, loop) if (e := _expected_mma(d, layouts)) is not None]
    if not expected or any(r is None for r in expected):
        return 1
    want = sum(r for r in expected if r is not None)
    return count // want if want and count % want == 0 and count > want else 1


def _peeled(loop: Loop, listing: Listing, unroll: int, kernel_file: str) -> int:
    """Iterations LLVM copied in front of the lower stage's loop (besides those Triton peeled).

    Told by the tensor-core instructions before the loop over those one iteration needs; 0 for loops
    without dots or when the counts do not divide.
    """
    evidence = next((e for e in loop.evidence if e.stage == listing.stage), None)
    if not loop.mma_ops or evidence is None or not evidence.label:
        return 0
    spans = asm_loop_instructions(listing, evidence.label)
    if spans is None:
        return 0
    inside, before = spans
    per_iteration = sum(1 for i in inside if classify(i.opcode) == "mma") // max(unroll, 1)
    # Only copies of this loop's own dots: an earlier loop's dots peeled after it (Triton's pipeliner
    # leaves a loop's last iterations behind it) lie before this loop too, on their own lines.
    own = {line_of(i.frames, kernel_file) for i in inside if classify(i.opcode) == "mma"}
    ahead = sum(1 for i in before if classify(i.opcode) == "mma" and line_of(i.frames, kernel_file) in own)
    triton_peeled = max((s.peeled for s in loop.loads), default=0)
    if not per_iteration or ahead % per_iteration:
        return 0
    return max(ahead // per_iteration - triton_peeled, 0)


def _family_of(opcode: str) -> str:
    """The instruction family of a tensor-core mnemonic, as ``_expected_mma`` names it."""
    if opcode.startswith("wgmma"):
        return "wgmma"
    if opcode.startswith("mma.sync"):
        return "mma.sync"
    if opcode.startswith("tcgen05.mma"):
        return "tcgen05.mma"
    return "mfma" if opcode.startswith(("v_mfma", "v_smfmac")) else opcode


def _family_matches(family: str, tiles: list[tuple[int, int, int | None]], opcodes: list[str],
                    stage: str) -> tuple[bool, str]:
    """Whether the family's instructions exist and each has one of its dots' tile shapes; how a tile is filled."""
    if family == "tcgen05.mma":
        # M and N sit in its instruction-descriptor operand, not in the mnemonic: the kind is checked.
        issued = any(_family_of(o) == family for o in opcodes)
        return issued, (" (tcgen05.mma: M and N sit in its instruction descriptor, not in the mnemonic)"
                       if issued else "")
    shapes = set()
    for op in {o for o in opcodes if _family_of(o) == family}:
        found = (_PTX_MMA_SHAPE if stage == "ptx" else _AMD_MMA_SHAPE).search(op)
        if found:
            shapes.add((int(found["m"]), int(found["n"]), int(found["k"])))
    if shapes and all(any(s[0] == m and s[1] == n and (k is None or s[2] == k) for m, n, k in tiles) for s in shapes):
        return True, ""
    m, n, _ = tiles[0]
    if family == "mma.sync" and len(tiles) == 1 and shapes and all(m % s[0] == 0 and n % s[1] == 0 for s in shapes):
        # Triton < 3.9 gives fp64 dots a 16x8 mma-v2 tile and fills it with m8n8k4 DMMA instructions.
        return True, (f" (each {m}x{n} tile of the layout is issued as "
                      f"{', '.join(f'{m // s[0] * (n // s[1])} x m{s[0]}n{s[1]}' for s in sorted(shapes))})")
    return False, ""


def _check_tcgen05(claim: str, mmas: list[Instruction], tiles: list[tuple[int, int, int | None]],
                   listing: Listing) -> Finding:
    """tcgen05 MMAs against their dots' tiles: M and N read from each instruction descriptor, K from its kind."""
    opcodes = sorted({i.opcode for i in mmas})
    shown = f"{listing.stage}: {len(mmas)} x {', '.join(opcodes) or 'no tensor-core instruction'}"
    if not mmas or not all(o.startswith("tcgen05.mma") for o in opcodes):
        return Finding("mma", claim, shown, DISAGREE)
    decoded = tcgen05_shapes(listing.instructions)
    shapes = [decoded.get(i.number) for i in mmas]
    found = sorted({(s.m, s.n, s.k) for s in shapes if s is not None})
    if any(s is None for s in shapes):  # some descriptor is no constant: the kind alone
        return Finding("mma", claim, shown + " (an instruction descriptor is no constant of the PTX: only the kind "
                       "is checked)", AGREE)
    said = ", ".join(f"m{m}n{n}k{k}" for m, n, k in found)
    ok = all(any(m == tm and n == tn and (tk is None or k == tk) for tm, tn, tk in tiles) for m, n, k in found)
    return Finding("mma", claim, f"{shown}, instruction descriptors {said} (M, N from the descriptor, K from the "
                   "kind)", AGREE if ok else DISAGREE)


def _check_mma(loop: Loop, module: MlirModule, layouts: LayoutTable, listing: Listing,
               unroll: int = 1) -> list[Finding]:
    if not loop.mma_ops or listing.stage == "sass":
        return []
    evidence = next((e for e in loop.evidence if e.stage == listing.stage), None)
    name = loop_name(loop)
    claim = f"{name}: {loop.mma}"
    if evidence is None or not evidence.label:
        return [Finding("mma", claim, f"no loop in the {listing.stage} matched this loop", UNCHECKED)]
    spans = asm_loop_instructions(listing, evidence.label)
    inside = spans[0] if spans else []
    mmas = [i for i in inside if classify(i.opcode) == "mma"]
    dots = _dots_in(module, loop)
    expected = [e for d in dots if (e := _expected_mma(d, layouts)) is not None]
    if loop.mma.startswith("FMA") and not expected:
        status = AGREE if not mmas else DISAGREE
        return [Finding("mma", claim, f"{listing.stage}: {len(mmas)} tensor-core instruction(s) in the loop", status)]
    if loop.mma.startswith("tcgen05") and all(e[0] == "tcgen05.mma" for e in expected):
        return [_check_tcgen05(claim, mmas, [e[1] for e in expected], listing)]
    if not expected:
        return [Finding("mma", claim, "the dot's layout gives no instruction shape to compare", UNCHECKED)]
    # One loop may hold dots of several kinds (mma v2 beside a wgmma): each family's instructions against its tile.
    tiles = dict.fromkeys((family, tile) for family, tile, _ in expected)
    families = list(dict.fromkeys(f for f, _ in tiles))
    if len(families) > 1:
        claim = f"{name}: {len(dots)} dots, " + " and ".join(
            f"{sum(1 for e in expected if e[0] == f)} {f}" for f in families)
    names = ', '.join(sorted({i.opcode for i in mmas})) or 'no tensor-core instruction'
    shown = f"{listing.stage}: {len(mmas)} x {names}"
    ok = bool(mmas) and all(_family_of(i.opcode) in families for i in mmas)
    for family in families:
        good, note = _family_matches(family, [t for f, t in tiles if f == family], [i.opcode for i in mmas],
                                     listing.stage)
        ok, shown = ok and good, shown + note
    sizes = ", ".join(f"{m}x{n}" + (f"x{k}" if k else "") for _, (m, n, k) in tiles)
    findings = [Finding("mma", claim + f" ({sizes} per instruction)", shown, AGREE if ok else DISAGREE)]
    family_ok = shape_ok = ok
    family = " + ".join(families)
    per_iteration = [e[2] for e in expected]
    if family_ok and shape_ok and all(r is not None for r in per_iteration):
        want = sum(r for r in per_iteration if r is not None)
        note = f" ({unroll} iterations: LLVM unrolled the loop)" if unroll > 1 else ""
        findings.append(Finding(
            "mma", f"{name}: {want} {family} instruction(s) per iteration for the tile(s) of {len(dots)} dot(s)",
            f"{listing.stage}: {len(mmas)} in the loop{note}", AGREE if want * unroll == len(mmas) else DISAGREE))
    return findings


def _line_class(op: MlirOp, layouts: LayoutTable) -> str | None:
    """The class of instructions ``op`` must leave on its line: a dot with a blocked result is FMAs."""
    kind = classify(op.name)
    if kind == "mma" and canonical_op(op.name) == "tt.dot":
        types = [t for _, t in parse_types(op.text)]
        if types and isinstance(layouts.get(types[-1].encoding), BlockedLayout):
            return "fma"
    return kind if kind in _LINE_CLASSES else None


def _instruction_class(opcode: str) -> str | None:
    """The class of one machine instruction, with multiply-adds (what an FMA dot lowers to) as ``fma``."""
    return "fma" if _FMA.match(opcode) else classify(opcode)


def _merged_arms(op: MlirOp, module: MlirModule, have: Counter[tuple[int, str]], kind: str,
                 kernel_file: str) -> list[int]:
    """Lines of the same op in the other arm of the ``scf.if`` holding ``op`` that have instructions."""
    if op.parent is None or module.ops[op.parent].name != "scf.if":
        return []
    others = [o for o in module.ops if o.parent == op.parent and o.region != op.region
              and canonical_op(o.name) == canonical_op(op.name)]
    lines = {ln for o in others if (ln := line_of(o.location.frames, kernel_file)) is not None}
    return sorted(ln for ln in lines if have[(ln, kind)])


def _at_users(op: MlirOp, module: MlirModule, have: Counter[tuple[int, str]], kinds: tuple[str, ...],
              wanted: dict[tuple[int, str], MlirOp], kernel_file: str) -> list[int]:
    """Lines using ``op``'s result, with no op of its class of their own, that hold instructions of its class.

    Instruction selection may fold a load into its use (a 64-bit load of which one half is used becomes
    a 32-bit load there), and the new instruction keeps the use's line.
    """
    results = set(op.results)
    lines = {ln for user in module.ops if results.intersection(user.operands)
             and (ln := line_of(user.location.frames, kernel_file)) is not None}
    return sorted(ln for ln in lines if not any((ln, k) in wanted for k in kinds) and any(have[(ln, k)] for k in kinds))


def _check_lines(module: MlirModule, layouts: LayoutTable, listings: list[Listing], kernel_file: str,
                 source_lines: int) -> list[Finding]:
    out: list[Finding] = []
    wanted: dict[tuple[int, str], MlirOp] = {}
    for op in module.ops:
        kind = _line_class(op, layouts)
        if kind is not None and (line := line_of(op.location.frames, kernel_file)) is not None:
            wanted.setdefault((line, kind), op)
    counted: dict[str, Counter[tuple[int, str]]] = {}
    lost: dict[str, Counter[str]] = {}
    for listing in listings:
        have: Counter[tuple[int, str]] = Counter()
        past_end: set[int] = set()
        unplaced: Counter[str] = Counter()  # instructions with no source position (``.loc 1 0 0``), by class
        for insn in listing.instructions:
            if not insn.frames and (kind := _instruction_class(insn.opcode)) is not None:
                unplaced[kind] += 1
            line = line_of(insn.frames, kernel_file)
            if line is None:
                continue
            if source_lines and line > source_lines:
                past_end.add(line)
            if (kind := _instruction_class(insn.opcode)) is not None:
                have[(line, kind)] += 1
        counted[listing.stage] = have
        lost[listing.stage] = unplaced
        for (line, kind), op in sorted(wanted.items(), key=lambda item: item[0]):
            op_name = op.name + (" (FMA: its result has a blocked layout)" if kind == "fma" else "")
            # A load may become an async copy's zero-fill (and back), or, on AMD, a scalar load when every
            # lane reads the same address: accept those as that line's load.
            alts = {"global_load": ("async_copy", "scalar_load"), "async_copy": ("global_load",)}.get(kind, ())
            count = have[(line, kind)] + sum(have[(line, alt)] for alt in alts)
            claim = f"line {line}: TTGIR has {op_name}"
            what = "multiply-add" if kind == "fma" else kind.replace("_", " ")
            shown = f"{listing.stage}: {count} {what} instruction(s) attributed to line {line}"
            ptx = counted.get("ptx", Counter())
            if not count and listing.stage == "sass" and ptx[(line, kind)]:
                # ptxas's line table, not irscope: it schedules instructions of neighbouring lines together
                # and files some under the others (HGMMA of a second dot sharing an operand, say).
                elsewhere = sorted({ln for (ln, k) in have if k == kind and (ln, k) not in wanted})
                shown += (f"; the PTX has {ptx[(line, kind)]} on it and ptxas's line table files this class under "
                          f"line(s) {', '.join(map(str, elsewhere)) or 'of other ops'}")
                out.append(Finding("lines", claim, shown, UNCHECKED))
                continue
            # SASS follows the PTX's line table: what the PTX left at line 0 cannot be placed in the SASS either.
            from_ptx = lost.get("ptx", Counter()) if listing.stage == "sass" else Counter()
            nowhere = unplaced[kind] + sum(unplaced[alt] for alt in alts)
            ptx_nowhere = from_ptx[kind] + sum(from_ptx[alt] for alt in alts)
            if not count and (nowhere or ptx_nowhere):
                # Triton's line info, not irscope: its lowering left these at line 0 (Triton 3.5's warp-specialized
                # TMA copies for sm100, say), so which line they came from cannot be read from this stage.
                shown += (AT_LINE_0.format(n=nowhere) if nowhere else
                          f"; the PTX has {ptx_nowhere} at line 0 (no source line in Triton's line info), and ptxas's "
                          "line table follows the PTX's")
                out.append(Finding("lines", claim, shown, UNCHECKED))
                continue
            if not count and (arms := _merged_arms(op, module, have, kind, kernel_file)):
                # LLVM, not irscope: SimplifyCFG sinks the same op of both arms of an if into one after the
                # branch (the address selected), and the merged instruction keeps one arm's line.
                shown += ("; the same op in the other arm of its scf.if has them at line(s) "
                          f"{', '.join(map(str, arms))}"
                          ": LLVM merges the two arms' instructions into one, which keeps one line")
                out.append(Finding("lines", claim, shown, UNCHECKED))
                continue
            if not count and kind == "global_load" and (users := _at_users(op, module, have, (kind, *alts), wanted,
                                                                           kernel_file)):
                shown += (f"; {sum(have[(ln, k)] for ln in users for k in (kind, *alts))} at line(s) "
                          f"{', '.join(map(str, users))}, which use(s) its value and load nothing of their own: "
                          "instruction selection folded the load into its use, which keeps the use's line")
                out.append(Finding("lines", claim, shown, AGREE))
                continue
            out.append(Finding("lines", claim, shown, AGREE if count else DISAGREE))
        if past_end:
            out.append(Finding("lines", f"the kernel file has {source_lines} lines",
                               f"{listing.stage} names line(s) {', '.join(map(str, sorted(past_end)))}", DISAGREE))
    return out


def _check_resources(capture: Capture, ttgir: str) -> list[Finding]:
    m = capture.manifest
    out: list[Finding] = []
    declared = _TTG_SHARED.search(ttgir)
    printed = int(m.metadata.get("shared") or 0)
    if declared:
        out.append(Finding("shared", f"{printed} bytes of shared memory per CTA (Triton's metadata)",
                           f"ttgir: ttg.shared = {declared['n']}",
                           AGREE if int(declared["n"]) == printed else DISAGREE))
    if m.backend == "cuda":
        from irscope.analysis.resources import nvidia_usage

        usage = nvidia_usage(capture)
        cubin, ptxas, cubin_run, ptxas_run = usage.cubin, usage.ptxas, usage.cubin_run, usage.ptxas_run
        if cubin is None or ptxas is None:
            why = cubin_run.problem or ptxas_run.problem or "cuobjdump or ptxas -v printed no figures for the kernel"
            out.append(Finding("registers", "registers per thread", why, UNCHECKED))
        else:
            how = ("its cubin equals the capture's byte for byte" if ptxas_run.reproduces
                   else "no ptxas invocation tried reproduced the capture's cubin" if ptxas_run.reproduces is False
                   else "cubins not compared")
            out.append(Finding("registers", f"{cubin.registers} registers per thread (the cubin)",
                               f"ptxas -v on the PTX ({' '.join(ptxas_run.command[:1])}; {how}): {ptxas.registers}",
                               AGREE if cubin.registers == ptxas.registers else DISAGREE))
    else:
        try:
            lds = _AMD_LDS.search(capture.read("amdgcn"))
        except StoreError as exc:
            out.append(Finding("shared", "LDS per workgroup", str(exc), UNCHECKED))
            return out
        if lds and int(lds["n"]):
            out.append(Finding("shared", f"{printed} bytes of LDS per workgroup (Triton's metadata)",
                               f"amdgcn: .group_segment_fixed_size {lds['n']}",
                               AGREE if int(lds["n"]) == printed else DISAGREE))
        elif lds and printed:
            out.append(Finding("shared", f"{printed} bytes of LDS per workgroup (Triton's metadata)",
                               "amdgcn: .group_segment_fixed_size 0: the LDS is sized at launch, so the "
                               "AMDGCN cannot confirm it", UNCHECKED))
    return out


def _check_widths(capture: Capture, listings: list[Listing]) -> list[Finding]:
    """The width each access's layout allows (what ``layouts`` states) bounds what the machine code does."""
    from irscope.analysis.layouts.access_widths import access_widths

    out: list[Finding] = []
    machine = next((lst for lst in listings if lst.stage in ("ptx", "amdgcn")), None)
    for access in access_widths(capture, machine):
        where = f"line {access.loc.line}" if access.loc else f"TTGIR line {access.ttgir_line}"
        claim = (f"{access.op} at {where}: {access.contiguous} contiguous {access.element} per thread allow "
                 f"{access.allowed_bytes}-byte {_PLURAL.get(access.kind, access.kind)}")
        widest = access.machine_bytes
        if widest is None:
            out.append(Finding("widths", claim, f"no {access.kind} instruction of the {access.stage or 'machine code'} "
                               "carries its source position", UNCHECKED))
            continue
        opcodes = ", ".join(sorted({m.opcode for m in access.machine}))
        shown = f"{access.stage}: widest {widest} bytes ({opcodes})"
        if widest < access.allowed_bytes:
            shown += " — narrower, as `layouts` says"
        elif access.mixed_position and widest > access.allowed_bytes:
            # Line info names a source position, not an op: the instructions of every access there are
            # together, so the bound is the widest any of their layouts allows.
            shown += (f", the instructions of all {access.same_position} {_PLURAL.get(access.kind, access.kind)} at "
                      f"this source position, whose layouts allow up to {access.bound_bytes} bytes")
        out.append(Finding("widths", claim, shown, AGREE if widest <= access.bound_bytes else DISAGREE))
    return out


def verify_capture(capture: Capture) -> Verification:
    """Check every claim of one capture that a lower stage can confirm."""
    m = capture.manifest
    findings: list[Finding] = []
    problems = capture.verify_files()
    findings.extend(Finding("files", "stored files match the manifest's sizes and sha256", p, DISAGREE)
                    for p in problems)
    if not problems:
        findings.append(Finding("files", "stored files match the manifest's sizes and sha256",
                                f"{len(set(m.files.values()))} file(s) hashed", AGREE))
    try:
        ttgir = capture.read("ttgir")
    except StoreError as exc:
        findings.append(Finding("files", "the TTGIR can be read", str(exc), UNCHECKED))
        return Verification(m.key, m.kernel, m.target, m.config_index, tuple(findings))
    module = parse_module(ttgir)
    layouts = parse_layouts(ttgir)
    listings, missing = lower_listings(capture)
    epilogues = set()
    for listing in listings:
        if listing.stage != "sass" and _EPILOGUE.search(capture.read(listing.stage)):
            epilogues.add(listing.stage)
    findings.extend(missing)
    loops, _ = capture_loops(capture, tuple(listings))
    for loop in loops:
        for listing in listings:
            if listing.stage == "sass":
                continue
            unroll = _unroll(loop, module, layouts, listing, listing.stage in epilogues)
            peeled = _peeled(loop, listing, unroll, m.kernel_path)
            findings.extend(check_pipeline(loop, listing, m.kernel_path, unroll, peeled))
            findings.extend(_check_mma(loop, module, layouts, listing, unroll))
    try:
        source_lines = len(capture.read("source").splitlines())
    except StoreError:
        source_lines = 0
    findings.extend(_check_lines(module, layouts, listings, m.kernel_path, source_lines))
    findings.extend(_check_widths(capture, listings))
    findings.extend(_check_resources(capture, ttgir))
    return Verification(m.key, m.kernel, m.target, m.config_index, tuple(findings))
