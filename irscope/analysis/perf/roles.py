"""Which pointer arguments a kernel reads and which it writes, read from its TTGIR.

Every global access (``tt.load``, ``tt.store``, atomics, async and TMA copies, descriptor loads and stores) is
followed back through the pointer arithmetic (``tt.addptr``, ``tt.splat``, ``tt.broadcast``, layout conversions,
block pointers, loop-carried pointers) to the function arguments it derives from. An argument only loaded is an
``input``, only stored an ``output``, both (or an atomic) ``inout``, neither ``unused``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from irscope.model.launch import LaunchShape

__all__ = ["POINTER_FORWARD", "UNKNOWN_ROLES", "ir_roles", "with_ir_roles"]

# what a launch says when it does not know which tensors are read and written
UNKNOWN_ROLES = frozenset({"inout", "unknown", ""})
# Example: tt.func public @k(%Y_ptr: !tt.ptr<bf16> {tt.divisibility = 16 : i32} loc("Y_ptr"(#loc)), %n: i32 ...
_ARG = re.compile(r"%(?P<name>[\w$.-]+):\s*!tt\.(?:ptr|tensordesc)<")
# Example: %x_21:2 = tt.addptr %x_19, %x_20 : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
_DEF = re.compile(r"^\s*(?P<res>%[\w$.-]+)(?::\d+)?\s*=\s*(?P<op>[a-z_]+\.[\w.]+)\s*(?P<rest>.*)$")
# Example: tt.store %6, %x_22 : tensor<64x64x!tt.ptr<f32>, #blocked1>   (an op with no result)
_BARE = re.compile(r"^\s*(?P<op>[a-z_]+\.[\w.]+)\s+(?P<rest>%.*)$")
# Example: iter_args(%a_ptrs_96 = %a_ptrs_58, %b_ptrs_97 = %b_ptrs_59)
_ITER = re.compile(r"(?P<new>%[\w$.-]+)\s*=\s*(?P<old>%[\w$.-]+)")
_OPERAND = re.compile(r"%[\w$.-]+")
# ops whose result points where their first operand does
POINTER_FORWARD = ("tt.addptr", "tt.splat", "tt.broadcast", "tt.expand_dims", "ttg.convert_layout", "tt.reshape",
                   "tt.trans", "tt.make_tensor_ptr", "tt.advance", "tt.make_tensor_descriptor", "tt.bitcast",
                   "tt.int_to_ptr", "tt.ptr_to_int", "ttng.reinterpret_tensor_descriptor", "tt.join", "tt.cat")
# AMD's buffer ops: ``amdg.`` since Triton 3.2 (``amdg.buffer_load %input_ptr[%offsets], ...``), ``amdgpu.`` before
_READS = ("tt.load", "ttg.async_copy_global_to_local", "tt.descriptor_load", "tt.descriptor_gather",
          "ttng.async_tma_copy_global_to_local", "ttng.async_tma_gather", "amdg.buffer_load", "amdgpu.buffer_load",
          "amdg.buffer_load_to_local", "amdgpu.buffer_load_to_local", "tt.prefetch")
_WRITES = ("tt.store", "tt.descriptor_store", "tt.descriptor_scatter", "ttng.async_tma_copy_local_to_global",
           "ttng.async_tma_scatter", "amdg.buffer_store", "amdgpu.buffer_store")
_BOTH = ("tt.atomic_rmw", "tt.atomic_cas", "tt.descriptor_reduce", "ttng.async_tma_reduce", "amdg.buffer_atomic_rmw",
         "amdgpu.buffer_atomic_rmw", "amdg.buffer_atomic_cas", "amdgpu.buffer_atomic_cas")


def _operands(rest: str) -> list[str]:
    head = re.sub(r"\{[^}]*\}", "", rest.split(" : ", 1)[0])
    return _OPERAND.findall(head)


def _arguments(ttgir: str) -> list[str]:
    for line in ttgir.splitlines():
        if "tt.func" in line and "@" in line:
            return [m["name"] for m in _ARG.finditer(line)]
    return []


def ir_roles(ttgir: str, skip: tuple[tuple[int, int], ...] = ()) -> dict[str, str]:
    """Pointer argument name -> ``input``, ``output``, ``inout`` or ``unused``, from the module's global accesses.

    ``skip``: TTGIR line spans (1-based, inclusive) that do not run for the launch; their accesses do not count.
    """
    args = _arguments(ttgir)
    roots: dict[str, set[str]] = {f"%{name}": {name} for name in args}
    read: set[str] = set()
    written: set[str] = set()
    for number, line in enumerate(ttgir.splitlines(), 1):
        match = _DEF.match(line) or _BARE.match(line)
        if match is None:
            continue
        op, rest = match["op"], match["rest"]
        operands = _operands(rest)
        res = match.groupdict().get("res")
        if op == "scf.for":
            for pair in _ITER.finditer(rest.split("iter_args", 1)[1] if "iter_args" in rest else ""):
                if pair["old"] in roots:
                    roots[pair["new"]] = roots[pair["old"]]
            continue
        if op == "arith.select" and res and len(operands) >= 3:
            found = roots.get(operands[1], set()) | roots.get(operands[2], set())
            if found:
                roots[res] = found
            continue
        if op in POINTER_FORWARD and res and operands and operands[0] in roots:
            roots[res] = roots[operands[0]]
            continue
        targets = next((roots[o] for o in operands if o in roots), set())
        if any(lo <= number <= hi for lo, hi in skip):
            continue
        if op in _READS:
            read |= targets
        elif op in _WRITES:
            written |= targets
        elif op in _BOTH:
            read |= targets
            written |= targets
    roles = {}
    for name in args:
        r, w = name in read, name in written
        roles[name] = "inout" if r and w else "input" if r else "output" if w else "unused"
    return roles


def with_ir_roles(shape: LaunchShape, ttgir: str, skip: tuple[tuple[int, int], ...] = ()) -> tuple[LaunchShape, str]:
    """The launch with each tensor's role read from the IR where the launch did not know it, and what changed."""
    roles = ir_roles(ttgir, skip)
    changed = []
    tensors = []
    for tensor in shape.tensors:
        role = roles.get(tensor.name)
        if role is not None and tensor.role in UNKNOWN_ROLES and role != tensor.role:
            changed.append(f"{tensor.name} {role}")
            tensor = replace(tensor, role=role)
        tensors.append(tensor)
    if not changed:
        return shape, ""
    return replace(shape, tensors=tuple(tensors)), ("tensor roles read from the IR's loads and stores: "
                                                    + ", ".join(changed))
