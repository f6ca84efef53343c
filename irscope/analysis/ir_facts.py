"""What irscope counts in one IR snapshot, and how two snapshots differ in a Triton engineer's terms.

``mlir_facts`` / ``llvm_facts`` count operations, layouts, shared buffers, async copies and waits,
pipelining attributes and module attributes; ``describe_change`` turns two such counts into the
pieces of a one-line summary (``dot result #blocked -> #mma: nvidia_mma v3, instrShape 16x256x16``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from irscope.analysis.diff import normalize
from irscope.parse.layouts import (
    AmdMfmaLayout,
    AmdRotatingSharedLayout,
    AmdWmmaLayout,
    BlockedLayout,
    DotOperandLayout,
    Layout,
    NvidiaMmaLayout,
    NVMMASharedLayout,
    SliceLayout,
    SwizzledSharedLayout,
    parse_layouts,
)

_MAX_LISTED = 3

# Example: %a_64 = tt.load %a_ptrs_58, %a_63 : tensor<128x64x!tt.ptr<f16>, #blocked>   /   scf.yield %x
_MLIR_OP = re.compile(r'^[ \t]*(?:%[^=\n]*?= )?"?([a-z_][a-z0-9_]*\.[a-z_][\w.]*)', re.M)
# Example: %5 = load <8 x half>, ptr addrspace(1) %4, align 16   /   br label %7
# Matched from the newline before each line (a match never spans a newline, so findall on "\n" + text finds what
# ^ with re.M found, five times faster on a 1 MB module).
_LLVM_INST_AFTER_NL = re.compile(r"\n[ \t]+(?:%[\w.$-]+ = )?(?:tail |musttail |notail )?([a-z][a-z0-9_.]*)\b")
# Example:   %39:b32 = SHL32_ri killed %38:b32, 10   /   INLINEASM &"mov.u32 $0, 0x0;"   (a machine instruction)
_MIR_INST = re.compile(r"^\s+(?:[%$][\w.:]+(?:, [%$][\w.:]+)* = )?(?:[a-z]+ )*([A-Z][A-Z0-9_a-z]*)\b")
# Example: call void @llvm.nvvm.barrier0()   (the intrinsic family: llvm.nvvm)
_LLVM_INTRINSIC = re.compile(r"@(llvm\.[a-z0-9_]+)\.")
# Example: define ptx_kernel void @add_kernel(ptr addrspace(1) %0, ...) #0 !dbg !4 {
_LLVM_DEFINE = re.compile(r"^define [^@\n]*@([\w.$-]+)\(", re.M)
# Example: module attributes {"ttg.num-warps" = 8 : i32, ttg.shared = 147456 : i32, ...}
_SHARED_ATTR = re.compile(r"ttg\.shared = (\d+) : i32")
# Example: %a = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
_LOCAL_ALLOC = re.compile(r"ttg\.local_alloc\b[^\n]*?!ttg\.memdesc<([0-9x]+[a-z0-9]+)")
# Example: } {tt.scheduled_max_stage = 2 : i32}
_MAX_STAGE = re.compile(r"tt\.scheduled_max_stage = (\d+)")
# Example: %a_64 = tt.load %a_ptrs_58 {loop.cluster = 4 : i32, loop.stage = 0 : i32}
_LOOP_STAGE = re.compile(r"loop\.stage = \d+")
# Example: %a_64 = tt.load %a_ptrs_58, %a_63, %cst_0 {tt.latency = 2 : i32}
_LATENCY = re.compile(r"tt\.latency = \d+")
# Example: scf.for %k = %c0_i32 to %1 step %c1_i32 iter_args(%acc = %cst, %a = %a0) -> (...)
_ITER_ARGS = re.compile(r"scf\.for [^\n]*?iter_args\(([^)]*)\)")
# Example: #blocked1 = #ttg.blocked<{...}>   (the alias block at the top of a module)
_ALIAS_LINE = re.compile(r"^#(?!loc)[\w$.-]+ = #.*$", re.M)
# Example: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>   (an operand layout written inline)
_DOT_OP = re.compile(r"#(?:ttg|triton_gpu)\.dot_op<\{opIdx = (\d+), parent = (#[\w$.-]+)(?:, kWidth = (\d+))?\}>")
# Example: %acc = tt.dot %a, %b, %c : tensor<128x64xf16, #d0> * tensor<64x256xf16, #d1> -> tensor<128x256xf32, #mma>
_DOT_RESULT = re.compile(r"= (?:tt\.dot|ttng\.warp_group_dot|tt\.dot_scaled) [^\n]*-> tensor<[^,>]*, (#[\w$.-]+)>")
# Example: #di_file = #llvm.di_file<"matmul.py" in "/work/kernels">   (head: llvm.di_file)
_ALIAS_HEAD = re.compile(r"^#(?!loc)[\w$.-]+ = #([\w.]+)", re.M)
# Example: module attributes {"ttg.num-warps" = 8 : i32, ttg.shared = 147456 : i32, "ttng.two-ctas" = false} {
_MODULE_ATTRS = re.compile(r"^module attributes \{(.*)\} \{\s*$", re.M)
# Example: "ttg.num-warps" = 8 : i32   (one entry of the module's attribute dictionary)
_MODULE_ATTR = re.compile(r'"?([\w.-]+)"?\s*=\s*("[^"]*"|[^,]+)')

_ASYNC_COPY = ("ttg.async_copy_global_to_local", "ttng.async_tma_copy_global_to_local", "amdgpu.buffer_load_to_local",
               "ttng.async_tma_gather")
_ASYNC_WAIT = ("ttg.async_wait", "ttng.wait_barrier", "ttng.async_tma_store_wait", "amdgpu.async_wait")
_COMMIT = ("ttg.async_commit_group",)
_DOTS = ("tt.dot", "ttng.warp_group_dot", "ttng.tc_gen5_mma", "tt.dot_scaled", "ttng.tc_gen5_mma_scaled")
_CONVERT = ("ttg.convert_layout", "triton_gpu.convert_layout")
_SINGULAR = {"async copies": "async copy", "async waits": "async wait", "commit groups": "commit group"}
_LAYOUT_DIALECTS = frozenset({"ttg", "triton_gpu", "ttng", "triton_nvidia_gpu", "amdgpu", "amdg"})


@dataclass(frozen=True)
class IrFacts:
    """What irscope counts in one IR snapshot.

    Attributes:
        ir: ``mlir``, ``llvm`` or ``mir``.
        ops: operation (MLIR) or instruction (LLVM) name -> count.
        layouts: layout aliases in definition order, as (name, layout).
        shared_bytes: the module's ``ttg.shared`` (bytes of shared memory), None before allocation.
        smem_buffers: memdesc shapes of ``ttg.local_alloc`` results (``3x128x64xf16``).
        max_stages: ``tt.scheduled_max_stage`` of each scheduled loop.
        staged_ops: operations carrying a ``loop.stage`` (scheduled for pipelining).
        latency_ops: operations carrying a ``tt.latency``.
        loop_carried: values carried by all ``scf.for`` loops.
        intrinsics: LLVM intrinsic family -> calls (``llvm.nvvm`` -> 12).
        module_attrs: the module's attributes (``ttg.num-warps`` -> ``8 : i32``).
        alias_heads: attribute aliases that are not layouts, by kind (``llvm.di_file`` -> 1).
        dot_operands: inline dot-operand layouts as (opIdx, parent, kWidth) (``(0, '#mma', '2')``).
        dot_results: the layouts of dot results (``#mma``), in order.
    """

    ir: str
    ops: Counter[str]
    layouts: tuple[tuple[str, Layout], ...] = ()
    shared_bytes: int | None = None
    smem_buffers: tuple[str, ...] = ()
    max_stages: tuple[int, ...] = ()
    staged_ops: int = 0
    latency_ops: int = 0
    loop_carried: int = 0
    intrinsics: Counter[str] = field(default_factory=Counter)
    module_attrs: dict[str, str] = field(default_factory=dict)
    alias_heads: Counter[str] = field(default_factory=Counter)
    dot_operands: frozenset[tuple[str, str, str]] = frozenset()
    dot_results: tuple[str, ...] = ()

    def count(self, names: Iterable[str]) -> int:
        """Total count of the named operations."""
        return sum(self.ops.get(n, 0) for n in names)


def mlir_facts(text: str) -> IrFacts:
    """Count what matters in an MLIR snapshot."""
    # Aliases sit outside the module: layouts above it, debug-info attributes mostly below it.
    head = text.split("\nmodule", 1)[0] if text.startswith("#") else ""
    tail = text[text.rfind("\n}") + 2:] if "\n}" in text else ""
    layout_lines: list[str] = []
    heads: Counter[str] = Counter()
    for line in _ALIAS_LINE.findall(head + "\n" + tail):
        kind = m.group(1) if (m := _ALIAS_HEAD.match(line)) else ""
        if kind.split(".")[0] in _LAYOUT_DIALECTS:
            layout_lines.append(line)
        elif kind and kind != "ttg.shared_memory":
            heads[kind] += 1
    table = parse_layouts("\n".join(layout_lines)) if layout_lines else None
    layouts = tuple((f"#{name}", layout) for name, layout in table.aliases.items()) if table else ()
    attrs = _MODULE_ATTRS.search(text)
    shared = _SHARED_ATTR.search(text) if "ttg.shared =" in text else None
    return IrFacts(
        ir="mlir", ops=Counter(_MLIR_OP.findall(text)), layouts=layouts,
        shared_bytes=int(shared.group(1)) if shared else None,
        smem_buffers=tuple(_LOCAL_ALLOC.findall(text)) if "ttg.local_alloc" in text else (),
        max_stages=tuple(int(v) for v in _MAX_STAGE.findall(text)) if "scheduled_max_stage" in text else (),
        staged_ops=len(_LOOP_STAGE.findall(text)) if "loop.stage" in text else 0,
        latency_ops=len(_LATENCY.findall(text)) if "tt.latency" in text else 0,
        loop_carried=sum(args.count(" = ") for args in _ITER_ARGS.findall(text)) if "iter_args" in text else 0,
        module_attrs={k: v.strip() for k, v in _MODULE_ATTR.findall(attrs.group(1))} if attrs else {},
        alias_heads=heads,
        dot_operands=frozenset(_DOT_OP.findall(text)) if "dot_op<" in text else frozenset(),
        dot_results=tuple(_DOT_RESULT.findall(text)) if "dot" in text else (),
    )



def llvm_facts(text: str, ir: str = "llvm") -> IrFacts:
    """Count instructions (and intrinsic calls) in LLVM IR or machine IR."""
    if ir == "mir":
        lines = normalize(text, "mir")
        return IrFacts(ir=ir, ops=Counter(m.group(1) for ln in lines if (m := _MIR_INST.match(ln))))
    return IrFacts(ir=ir, ops=Counter(_LLVM_INST_AFTER_NL.findall("\n" + text)),
                   intrinsics=Counter(_LLVM_INTRINSIC.findall(text)))


def layout_phrase(layout: Layout) -> str:
    """A short description of a layout: ``nvidia_mma v3, instrShape 16x256x16``."""

    def dims(values: Iterable[int]) -> str:
        return "x".join(str(v) for v in values)

    if isinstance(layout, NvidiaMmaLayout):
        return (f"nvidia_mma v{layout.version_major}, instrShape {dims(layout.instr_shape)}, "
                f"warps {dims(layout.warps_per_cta)}")
    if isinstance(layout, AmdMfmaLayout):
        t = ", transposed" if layout.is_transposed else ""
        return (f"amd_mfma v{layout.version}, instrShape {dims(layout.instr_shape)}, "
                f"warps {dims(layout.warps_per_cta)}{t}")
    if isinstance(layout, AmdWmmaLayout):
        return f"amd_wmma, instrShape {dims(layout.instr_shape)}" + (
            f", warps {dims(layout.warps_per_cta)}" if layout.warps_per_cta else "")
    if isinstance(layout, BlockedLayout):
        return (f"blocked spt {dims(layout.size_per_thread)} tpw {dims(layout.threads_per_warp)} "
                f"wpc {dims(layout.warps_per_cta)}")
    if isinstance(layout, DotOperandLayout):
        k = f", kWidth {layout.k_width}" if layout.k_width is not None else ""
        operand = 'AB'[layout.op_idx] if layout.op_idx in (0, 1) else layout.op_idx
        return f"dot operand {operand} of {layout.parent.label}{k}"
    if isinstance(layout, SliceLayout):
        return f"slice dim {layout.dim} of {layout.parent.label}"
    if isinstance(layout, NVMMASharedLayout):
        t = ", transposed" if layout.transposed else ""
        return f"nvmma_shared, {layout.swizzling_byte_width}B swizzle{t}"
    if isinstance(layout, (SwizzledSharedLayout, AmdRotatingSharedLayout)):
        return f"{layout.kind} vec {layout.vec}, perPhase {layout.per_phase}, maxPhase {layout.max_phase}"
    return layout.kind


def _layout_changes(before: IrFacts, after: IrFacts) -> list[str]:
    """Layouts introduced and removed, compared by value (alias numbers move between passes); a dot
    whose result changes layout is named first (``dot result #blocked -> #mma: nvidia_mma v3, ...``)."""
    old = [(n, lay) for n, lay in before.layouts if all(lay != other for _, other in after.layouts)]
    new = [(n, lay) for n, lay in after.layouts if all(lay != other for _, other in before.layouts)]
    out: list[str] = []
    by_name = dict(after.layouts)
    if before.dot_results and after.dot_results:
        src, dst = before.dot_results[0], after.dot_results[0]
        if dst in by_name and dst not in before.dot_results and any(dst == n for n, _ in new):
            out.append(f"dot result {src} -> {dst}: {layout_phrase(by_name[dst])}")
            new = [item for item in new if item[0] != dst]
            return out + _listed(old, new)
    old_dist = [item for item in old if item[1].distributed]
    new_dist = [item for item in new if item[1].distributed]
    if len(old_dist) == 1 and len(new_dist) == 1:
        (on, _), (nn, nl) = old_dist[0], new_dist[0]
        out.append(f"{on} -> {nn}: {layout_phrase(nl)}")
        old = [x for x in old if x is not old_dist[0]]
        new = [x for x in new if x is not new_dist[0]]
    return out + _listed(old, new)


def _listed(old: list[tuple[str, Layout]], new: list[tuple[str, Layout]]) -> list[str]:
    """``+#name: phrase`` for new layouts (a few), ``-#name (kind)`` for the removed ones."""
    out = [f"+{n}: {layout_phrase(lay)}" for n, lay in new[:_MAX_LISTED]]
    if len(new) > _MAX_LISTED:
        out.append(f"+{len(new) - _MAX_LISTED} more layouts")
    if old:
        out.append("-" + ", ".join(f"{n} ({lay.kind})" for n, lay in old))
    return out


def _delta(label: str, before: int, after: int) -> str | None:
    """``convert_layout 36 -> 3``, or ``+6 async copies`` when it starts from (or falls to) zero."""
    if before == after:
        return None
    if before and after:
        return f"{label} {before} -> {after}"
    n = after - before
    return f"{n:+d} {label if abs(n) != 1 else _SINGULAR.get(label, label)}"


def _dialect_changes(before: Counter[str], after: Counter[str], skip: Iterable[str]) -> str | None:
    """Net operation changes per dialect, biggest first, then by name: ``ops ttg +14 -2, arith +5``."""
    skipped = set(skip)
    per: dict[str, list[int]] = {}
    for op in sorted(set(before) | set(after)):
        if op in skipped:
            continue
        d = after.get(op, 0) - before.get(op, 0)
        if d:
            slot = per.setdefault(op.split(".", 1)[0], [0, 0])
            slot[0 if d > 0 else 1] += abs(d)
    if not per:
        return None
    # Ties by name: set order follows string hashing, which changes from one process to the next.
    ranked = sorted(per.items(), key=lambda kv: (-(kv[1][0] + kv[1][1]), kv[0]))[:4]
    parts = [f"{dialect} " + " ".join(s for s in (f"+{a}" if a else "", f"-{r}" if r else "") if s)
             for dialect, (a, r) in ranked]
    return "ops " + ", ".join(parts)


def _swaps(before: Counter[str], after: Counter[str], family: tuple[str, ...]) -> str | None:
    gone = [op for op in family if before.get(op, 0) and not after.get(op, 0)]
    came = [op for op in family if after.get(op, 0) and not before.get(op, 0)]
    if gone and came:
        return f"{', '.join(gone)} -> {', '.join(came)}"
    return None


def _operand_key(op: tuple[str, str, str], facts: IrFacts) -> tuple[str, object, str]:
    """A dot operand layout by value: (opIdx, the parent layout, kWidth)."""
    index, parent, k_width = op
    return index, dict(facts.layouts).get(parent, parent), k_width


def describe_change(before: IrFacts, after: IrFacts, layouts: bool = True) -> list[str]:
    """The pieces of a pass's summary, most telling first (``layouts=False`` when one side prints none)."""
    if before.ir != "mlir" or after.ir != "mlir":
        return _describe_llvm(before, after)
    out = _layout_changes(before, after) if layouts else []
    if swap := _swaps(before.ops, after.ops, _DOTS):
        out.append(swap)
    # Operand layouts are compared by their parent's value: alias numbers move between passes.
    old_ops = {_operand_key(op, before) for op in before.dot_operands}
    if new_ops := sorted(op for op in after.dot_operands if _operand_key(op, after) not in old_ops):
        out.append("dot operands " + ", ".join(f"{'AB'[int(i)] if i in '01' else i} of {parent}"
                                                + (f" kWidth {k}" if k else "") for i, parent, k in new_ops))
    for label, names in (("convert_layout", _CONVERT), ("async copies", _ASYNC_COPY), ("async waits", _ASYNC_WAIT),
                         ("commit groups", _COMMIT)):
        if d := _delta(label, before.count(names), after.count(names)):
            out.append(d)
    if before.smem_buffers != after.smem_buffers:
        added = ", ".join((Counter(after.smem_buffers) - Counter(before.smem_buffers)).elements())
        removed = ", ".join((Counter(before.smem_buffers) - Counter(after.smem_buffers)).elements())
        if added and removed:
            out.append(f"shared buffers {removed} -> {added}")
        elif added or removed:
            out.append(f"shared buffers +{added}" if added else f"shared buffers -{removed}")
    if after.shared_bytes is not None and before.shared_bytes != after.shared_bytes:
        out.append(f"shared memory {after.shared_bytes} bytes")
    if after.max_stages and before.max_stages != after.max_stages:
        stages = ", ".join(str(s + 1) for s in after.max_stages)
        out.append(f"loop scheduled in {stages} stages ({after.staged_ops} ops staged)")
    elif before.max_stages and not after.max_stages:
        out.append(f"loop pipelined: {before.max_stages[0] + 1} stages expanded into prologue, kernel and epilogue")
    if not before.latency_ops and after.latency_ops:
        out.append(f"latencies on {after.latency_ops} op{'s' if after.latency_ops != 1 else ''}")
    if before.loop_carried != after.loop_carried and before.ops.get("scf.for") and after.ops.get("scf.for"):
        out.append(f"loop-carried values {before.loop_carried} -> {after.loop_carried}")
    if attrs := _attr_changes(before.module_attrs, after.module_attrs):
        out.append(attrs)
    if alias := _alias_changes(before.alias_heads, after.alias_heads):
        out.append(alias)
    handled = (*_CONVERT, *_ASYNC_COPY, *_ASYNC_WAIT, *_COMMIT)
    if d := _dialect_changes(before.ops, after.ops, handled):
        out.append(d)
    return out


def _alias_changes(before: Counter[str], after: Counter[str]) -> str | None:
    """Attribute aliases (debug info and the like) added or removed, by kind."""
    moved = {k: after.get(k, 0) - before.get(k, 0) for k in set(before) | set(after)}
    parts = [f"{n:+d} #{k}" for k, n in sorted(moved.items()) if n]
    if not parts:
        return None
    return "aliases " + ", ".join(parts[:_MAX_LISTED]) + (f" and {len(parts) - _MAX_LISTED} more kinds"
                                                          if len(parts) > _MAX_LISTED else "")


def _attr_changes(before: dict[str, str], after: dict[str, str]) -> str | None:
    """Module attributes set, changed or dropped (``ttg.shared`` is reported on its own)."""
    parts = [f"{k} = {v}" if k not in before else f"{k} {before[k]} -> {v}"
             for k, v in after.items() if before.get(k) != v and k != "ttg.shared"]
    parts.extend(f"-{k}" for k in before if k not in after)
    return "module " + ", ".join(parts) if parts else None


def _describe_llvm(before: IrFacts, after: IrFacts) -> list[str]:
    out: list[str] = []
    total_b, total_a = sum(before.ops.values()), sum(after.ops.values())
    if total_b != total_a:
        out.append(f"instructions {total_b} -> {total_a}")
    moves = sorted(((after.ops.get(k, 0) - before.ops.get(k, 0), k) for k in set(before.ops) | set(after.ops)),
                   key=lambda dk: (-abs(dk[0]), dk[1]))  # ties by name, never in hash order
    named = [f"{k} {d:+d}" for d, k in moves[:4] if d and k != "instructions"]
    if named:
        out.append(", ".join(named))
    for family in sorted(set(before.intrinsics) | set(after.intrinsics)):
        if (d := after.intrinsics.get(family, 0) - before.intrinsics.get(family, 0)) != 0:
            out.append(f"{family}.* calls {d:+d}")
    return out


def llvm_function(text: str, name: str) -> str:
    """The definition of function ``name`` in LLVM IR (what a function-scoped dump compares)."""
    start = text.find(f"@{name}(")
    if start < 0:
        return text
    head = text.rfind("\ndefine ", 0, start) + 1
    end = text.find("\n}", start)
    return text[head:end + 2] if end >= 0 else text[head:]


def comparable_llvm(a: str, b: str) -> tuple[str, str, str]:
    """Two LLVM IR dumps cut to what both hold: a function-scoped dump holds one function, so a
    module dump compared with it is cut to that function. Returns (a, b, the function or '')."""
    a_module, b_module = "\ndefine " in a and "source_filename" in a, "\ndefine " in b and "source_filename" in b
    if a_module == b_module:
        return a, b, ""
    scoped = b if a_module else a
    found = _LLVM_DEFINE.search(scoped)
    if found is None:
        return a, b, ""
    name = found.group(1)
    return (llvm_function(a, name) if a_module else a), (llvm_function(b, name) if b_module else b), name
