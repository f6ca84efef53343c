"""Compare irscope's op scanners (parse_module, scan_ops) with Triton's parser on one module."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from triton_oracle import TritonOp, parse_with_triton, triton_ops

from irscope.parse.layout_kinds import Layout, LayoutTable
from irscope.parse.layouts import parse_layout, parse_layouts
from irscope.parse.mlir_ops import parse_module
from irscope.parse.ttgir_ops import TensorType, parse_types, scan_ops

# Ops whose text never shows their results' types (Triton infers them): the type irscope reads there
# is an operand's, so only the operand side is compared.
TypeKey = tuple[str, tuple[int, ...], str, Layout | None]


def _key(typ: TensorType, aliases: LayoutTable | None) -> TypeKey:
    layout = parse_layout(typ.encoding, aliases.aliases if aliases else None) if typ.encoding else None
    return typ.kind, typ.shape, typ.element, layout


def _keys(texts: tuple[str, ...]) -> list[TypeKey]:
    out = []
    for text in texts:
        for _, typ in parse_types(text):
            out.append(_key(typ, None))
            break
    return out


def module_disagreements(text: str, path: Path, ctx: Any) -> list[str]:
    """Every way irscope's reading of `text` differs from Triton's (empty when they agree)."""
    path.write_text(text)
    theirs = triton_ops(parse_with_triton(path, ctx))
    module = parse_module(text)
    ours = [op for op in module.ops if op.name != "module"]
    problems: list[str] = [f"parse_module: {p}" for p in module.problems]
    # MLIR's printer leaves out a terminator without operands (`scf.yield`); its parser adds it back.
    theirs = _without_implicit_terminators(theirs, len(ours))
    names_ours = [op.name for op in ours]
    names_theirs = [op.name for op in theirs]
    if names_ours != names_theirs:
        first = next((i for i, (a, b) in enumerate(zip(names_ours, names_theirs, strict=False)) if a != b),
                     min(len(names_ours), len(names_theirs)))
        problems.append(f"op lists differ at op {first}: irscope {names_ours[first:first + 3]} (line "
                        f"{ours[first].line if first < len(ours) else '-'}), Triton {names_theirs[first:first + 3]}")
        return problems
    position = {op.index: i for i, op in enumerate(ours)}
    for mine, triton in zip(ours, theirs, strict=True):
        where = f"line {mine.line} {mine.name}"
        if mine.result_count != len(triton.result_types):
            problems.append(f"{where}: {mine.result_count} results, Triton {len(triton.result_types)}")
        sources = set()
        for name in mine.operands:
            found = module.source(name, mine.index)
            sources.add(position.get(found, -2) if found is not None else -1)
        if sources != set(triton.sources):
            problems.append(f"{where}: operands from ops {sorted(sources)}, Triton {sorted(triton.sources)}")
    by_line = {op.line: position[op.index] for op in ours}
    table = parse_layouts(text)
    for line in scan_ops(text):
        if line.op in ("block-argument", "region") or line.op not in names_theirs:
            continue
        triton = theirs[by_line[line.line]]
        problems += _type_disagreements(line.line, line.op, line.result_types, line.operand_types, triton, table)
    return problems


def _without_implicit_terminators(theirs: list[TritonOp], count: int) -> list[TritonOp]:
    if len(theirs) == count:
        return theirs
    kept = [op for op in theirs if not (op.name == "scf.yield" and not op.operand_types)]
    renumber = {op.index: i for i, op in enumerate(kept)}
    return [TritonOp(renumber[op.index], op.name, op.result_types, op.operand_types,
                     frozenset(renumber.get(s, -3) for s in op.sources)) for op in kept]


def _type_disagreements(number: int, name: str, results: tuple[TensorType, ...], operands: tuple[TensorType, ...],
                        triton: TritonOp, table: LayoutTable) -> list[str]:
    where = f"line {number} {name}"
    out = []
    if name in ("tt.func", "func.func", "llvm.func"):
        return out
    expected = _keys(triton.result_types)
    got = [_key(t, table) for t in results]
    if got != expected:
        out.append(f"{where}: result types {[t.text for t in results]}, Triton {list(triton.result_types)}")
    allowed = set(_keys(triton.operand_types))
    for typ in operands:
        if _key(typ, table) not in allowed:
            out.append(f"{where}: operand type {typ.text} is not among Triton's {list(triton.operand_types)}")
    return out
