"""Triton's own MLIR parser as an oracle for irscope's text parsers (tests only; needs Triton >= 3.9).

`triton_ops` loads a module with `triton._C.libtriton.ir.parse_mlir_module` (the parser Triton itself
uses on .ttgir files) and lists its ops in text order with what irscope's scanners claim to read:
name, result count, result types, operand types, and which earlier op (or region owner, for block
arguments) each operand comes from.
"""

from __future__ import annotations

import json
import lzma
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).parent / "data" / "ttgir_corpus" / "corpus.jsonl.xz"


@dataclass(frozen=True)
class TritonOp:
    """One op as Triton's parser built it.

    Attributes:
        index: position in text (pre-)order, the module op excluded.
        name: the op name (`tt.load`).
        result_types: each result's type as Triton prints it.
        operand_types: each operand's type as Triton prints it.
        sources: for each distinct operand, the index of the op defining it (its owner, for a block
            argument); -1 when it is defined outside the walked ops.
    """

    index: int
    name: str
    result_types: tuple[str, ...]
    operand_types: tuple[str, ...]
    sources: frozenset[int]


def load_corpus() -> list[tuple[str, str]]:
    """(name, module text) of every module in the generated corpus."""
    rows = lzma.decompress(CORPUS.read_bytes()).decode().splitlines()
    return [(row["name"], row["text"]) for row in map(json.loads, rows)]


def triton_context() -> Any:
    """An MLIR context with every dialect a Triton 3.9 TTGIR module may use."""
    from triton._C import libtriton
    from triton._C.libtriton import ir

    ctx = ir.context()
    ir.load_dialects(ctx)
    for backend in ("nvidia", "amd"):
        getattr(libtriton, backend).load_dialects(ctx)
    return ctx


def parse_with_triton(path: Path, ctx: Any) -> Any:
    """The module Triton's parser builds from a file (raises when Triton refuses it)."""
    from triton._C.libtriton import ir

    return ir.parse_mlir_module(str(path), ctx)


def triton_ops(module: Any) -> list[TritonOp]:
    """Every op of a parsed module except the module itself, in text order."""
    post: list[Any] = []
    module.walk(post.append)  # post-order: an op comes after the ops in its regions
    post = post[:-1]  # the builtin.module
    region_owner: dict[int, Any] = {}
    for op in post:
        for i in range(op.get_num_regions()):
            region_owner[op.get_region(i).id()] = op
    children: dict[int, list[Any]] = {}
    roots: list[Any] = []
    for op in post:
        owner = region_owner.get(op.get_block().get_parent().id())
        (children.setdefault(id(owner), []) if owner is not None else roots).append(op)
    ordered: list[Any] = []

    def visit(op: Any) -> None:
        ordered.append(op)
        for child in children.get(id(op), []):
            visit(child)

    for root in roots:
        visit(root)
    index = {id(op): i for i, op in enumerate(ordered)}
    source: dict[int, int] = {}
    for op in ordered:
        for r in range(op.get_num_results()):
            source[op.get_result(r).id()] = index[id(op)]
        block = op.get_block()
        owner = region_owner.get(block.get_parent().id())
        for a in range(block.get_num_arguments()):
            source[block.get_argument(a).id()] = index[id(owner)] if owner is not None else -1
    out = []
    for i, op in enumerate(ordered):
        operands = [op.get_operand(k) for k in range(op.get_num_operands())]
        out.append(TritonOp(
            index=i,
            name=op.get_name(),
            result_types=tuple(str(op.get_result(r).get_type()) for r in range(op.get_num_results())),
            operand_types=tuple(str(v.get_type()) for v in operands),
            sources=frozenset(source.get(v.id(), -1) for v in operands),
        ))
    return out
