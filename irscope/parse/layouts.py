"""Parse layout encodings from TTGIR text: `#blocked = #ttg.blocked<{...}>` and friends.

The typed results are the dataclasses of irscope.parse.layout_kinds, re-exported here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from irscope.parse.layout_kinds import (
    AmdMfmaLayout,
    AmdRotatingSharedLayout,
    AmdWmmaLayout,
    Bases,
    BlockedLayout,
    CGALayout,
    DistributedLinearLayout,
    DotOperandLayout,
    Ints,
    Layout,
    LayoutTable,
    NvidiaMmaLayout,
    NVMMASharedLayout,
    OpaqueLayout,
    PaddedSharedLayout,
    PartitionedSharedLayout,
    SharedLinearLayout,
    SliceLayout,
    SwizzledSharedLayout,
    TensorMemoryLayout,
    TensorMemoryScalesLayout,
)
from irscope.parse.layout_verify import LayoutContext, layout_problem
from irscope.parse.mlir_attrs import (
    AliasRef,
    AttrParseError,
    AttrValue,
    DialectAttr,
    parse_attr_value,
    read_attr_value,
)
from irscope.parse.mlir_text import logical_lines
from irscope.parse.ttgir_ops import scan_ops

__all__ = [
    "AmdMfmaLayout",
    "AmdRotatingSharedLayout",
    "AmdWmmaLayout",
    "BlockedLayout",
    "CGALayout",
    "DistributedLinearLayout",
    "DotOperandLayout",
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
    "layout_context",
    "parse_layout",
    "parse_layouts",
    "split_modules",
]

# Example: #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# (the head of an attribute alias definition; the value is read by the attribute parser, since it
# may span lines and be followed by a comment or by the next definition on the same line)
_ALIAS_HEAD = re.compile(r"\s*#(?P<name>[A-Za-z_][\w$.-]*)\s*=\s*(?=#)")
# Example: // -----
_MODULE_SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)
# Example: [32:+4, 64:+8]   (the interval:+padding list of a padded_shared layout)
_PADDING_PAIR = re.compile(r"(\d+)\s*:\s*\+\s*(\d+)")


class _Bad(ValueError):
    """A parameter is missing or has the wrong type."""


def _int_list(value: AttrValue, what: str) -> Ints:
    """A printed `[1, 2]` as a tuple of ints."""
    if not isinstance(value, list):
        raise _Bad(f"{what} is not a list of integers")
    out = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int):
            raise _Bad(f"{what} is not a list of integers")
        out.append(item)
    return tuple(out)


def _ints(params: Mapping[str, AttrValue], key: str, default: Ints | None = None) -> Ints:
    value = params.get(key)
    if value is None:
        if default is None:
            raise _Bad(f"missing {key}")
        return default
    return _int_list(value, key)


def _int(params: Mapping[str, AttrValue], key: str, default: int | None = None) -> int:
    value = params.get(key)
    if value is None:
        if default is None:
            raise _Bad(f"missing {key}")
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(f"{key} is not an integer")
    return value


def _bool(params: Mapping[str, AttrValue], key: str, default: bool = False) -> bool:
    value = params.get(key, default)
    if not isinstance(value, bool):
        raise _Bad(f"{key} is not a boolean")
    return value


def _bases(value: AttrValue | None, key: str) -> Bases:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise _Bad(f"{key} is not a list of bases")
    return tuple(_int_list(basis, f"a basis of {key}") for basis in value)


def _cga(params: Mapping[str, AttrValue]) -> CGALayout | None:
    if "CGALayout" in params:
        return CGALayout(bases=_bases(params["CGALayout"], "CGALayout"))
    if "CTAsPerCGA" in params or "CTASplitNum" in params or "CTAOrder" in params:
        return CGALayout(
            ctas_per_cga=_ints(params, "CTAsPerCGA", ()),
            cta_split_num=_ints(params, "CTASplitNum", ()),
            cta_order=_ints(params, "CTAOrder", ()),
        )
    return None


_Ctx = Callable[[AttrValue, str], "Layout"]


def _build_blocked(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    return BlockedLayout(
        size_per_thread=_ints(p, "sizePerThread"),
        threads_per_warp=_ints(p, "threadsPerWarp"),
        warps_per_cta=_ints(p, "warpsPerCTA"),
        order=_ints(p, "order"),
        cga=_cga(p),
    )


def _build_slice(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    if "parent" not in p:
        raise _Bad("missing parent")
    return SliceLayout(dim=_int(p, "dim"), parent=sub(p["parent"], "parent"))


def _build_dot(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    if "parent" not in p:
        raise _Bad("missing parent")
    k_width = _int(p, "kWidth", 0)
    return DotOperandLayout(op_idx=_int(p, "opIdx"), parent=sub(p["parent"], "parent"), k_width=k_width or None)


def _build_nvidia_mma(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    major = _int(p, "versionMajor", _int(p, "version", 0))
    warps = _ints(p, "warpsPerCTA")
    instr = _ints(p, "instrShape", ())
    if not instr and major == 2:  # older printers left the Ampere tile implicit
        instr = (16, 8) if len(warps) == 2 else (1, 16, 8)
    return NvidiaMmaLayout(
        version_major=major,
        version_minor=_int(p, "versionMinor", 0),
        warps_per_cta=warps,
        instr_shape=instr,
        cga=_cga(p),
    )


def _build_mfma(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    instr = _ints(p, "instrShape", ())
    if not instr and "MDim" in p:
        instr = (_int(p, "MDim"), _int(p, "NDim"), 0)
    elif len(instr) == 2:
        instr = (*instr, 0)
    return AmdMfmaLayout(
        version=_int(p, "version", _int(p, "versionMajor", 0)),
        warps_per_cta=_ints(p, "warpsPerCTA"),
        instr_shape=instr,
        is_transposed=_bool(p, "isTransposed"),
        tiles_per_warp=_ints(p, "tilesPerWarp") if "tilesPerWarp" in p else None,
        element_bitwidth=_int(p, "elementBitWidth", 32),
        cga=_cga(p),
    )


def _build_wmma(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    warp_bases: Bases | None = None
    reg_bases: Bases = ()
    cta = p.get("ctaLayout")
    if isinstance(cta, dict):
        warp_bases = _bases(cta.get("warp", cta.get("warps", [])), "ctaLayout.warp")
        reg_bases = _bases(cta.get("register", cta.get("reg", [])), "ctaLayout.register")
    elif cta is not None:
        raise _Bad("ctaLayout is not a dictionary")
    return AmdWmmaLayout(
        version=_int(p, "version", 1),
        is_transposed=_bool(p, "isTranspose", _bool(p, "isTransposed")),
        warp_bases=warp_bases,
        reg_bases=reg_bases,
        warps_per_cta=_ints(p, "warpsPerCTA") if "warpsPerCTA" in p else None,
        instr_shape=_ints(p, "instrShape", (16, 16, 16)),
        cga=_cga(p),
    )


# The four input dims of a distributed linear layout, in Triton's order; Triton's parser requires each
# (`parseLinearLayout`: "Expected basis of 'warp' not found"), so a misspelled key is an error, not [].
_LINEAR_KEYS = ("register", "lane", "warp", "block")


def _build_linear(p: Mapping[str, AttrValue], sub: _Ctx, generic: bool = False) -> Layout:
    missing = [key for key in _LINEAR_KEYS if key not in p]
    if missing:
        unknown = [key for key in p if key not in _LINEAR_KEYS]
        found = f" (it has {', '.join(unknown)})" if unknown else ""
        raise _Bad(f"missing {' and '.join(missing)}: Triton requires the bases register, lane, warp and block{found}")
    return DistributedLinearLayout(register=_bases(p["register"], "register"), lane=_bases(p["lane"], "lane"),
                                   warp=_bases(p["warp"], "warp"), block=_bases(p["block"], "block"), generic=generic)


def _build_generic_linear(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    return _build_linear(p, sub, generic=True)


def _build_swizzled(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    return SwizzledSharedLayout(
        vec=_int(p, "vec"),
        per_phase=_int(p, "perPhase"),
        max_phase=_int(p, "maxPhase"),
        order=_ints(p, "order"),
        has_leading_offset=_bool(p, "hasLeadingOffset"),
        cga=_cga(p),
    )


def _build_nvmma_shared(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    return NVMMASharedLayout(
        swizzling_byte_width=_int(p, "swizzlingByteWidth"),
        transposed=_bool(p, "transposed"),
        element_bit_width=_int(p, "elementBitWidth"),
        fp4_padded=_bool(p, "fp4Padded"),
        cga=_cga(p),
    )


def _build_rotating(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    return AmdRotatingSharedLayout(
        vec=_int(p, "vec"),
        per_phase=_int(p, "perPhase"),
        max_phase=_int(p, "maxPhase"),
        order=_ints(p, "order"),
        cga=_cga(p),
    )


def _build_shared_linear(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    return SharedLinearLayout(
        offset_bases=_bases(p.get("offset"), "offset"),
        block_bases=_bases(p.get("block"), "block"),
        alignment=_int(p, "alignment", 16),
    )


def _build_partitioned(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    if "partitionLayout" not in p:
        raise _Bad("missing partitionLayout")
    return PartitionedSharedLayout(
        num_partitions=_int(p, "numPartitions"),
        num_groups=_int(p, "numGroups", 1),
        partition_dim=_int(p, "partitionDim"),
        partition_layout=sub(p["partitionLayout"], "partitionLayout"),
    )


def _build_tmem(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    unpacked = _bool(p, "unpacked") if "unpacked" in p else None
    return TensorMemoryLayout(
        block_m=_int(p, "blockM"),
        block_n=_int(p, "blockN"),
        col_stride=_int(p, "colStride", 1),
        unpacked=unpacked,
        cta_split_m=_int(p, "CTASplitM", 1),
        cta_split_n=_int(p, "CTASplitN", 1),
        two_ctas=_bool(p, "twoCTAs"),
        cga=_cga(p),
    )


def _build_tmem_scales(p: Mapping[str, AttrValue], sub: _Ctx) -> Layout:
    return TensorMemoryScalesLayout(
        cta_split_m=_int(p, "CTASplitM", 1), cta_split_n=_int(p, "CTASplitN", 1), cga=_cga(p)
    )


_Builder = Callable[[Mapping[str, AttrValue], _Ctx], Layout]

# Mnemonics as printed after the dialect prefix; both the `ttg.`/`triton_gpu.` and `ttng.` dialects.
_BUILDERS: dict[str, _Builder] = {
    "blocked": _build_blocked,
    "slice": _build_slice,
    "dot_op": _build_dot,
    "nvidia_mma": _build_nvidia_mma,
    "mma": _build_nvidia_mma,
    "amd_mfma": _build_mfma,
    "amd_wmma": _build_wmma,
    "linear": _build_linear,
    "generic_linear": _build_generic_linear,
    "swizzled_shared": _build_swizzled,
    "shared": _build_swizzled,
    "nvmma_shared": _build_nvmma_shared,
    "amd_rotating_shared": _build_rotating,
    "shared_linear": _build_shared_linear,
    "partitioned_shared": _build_partitioned,
    "tensor_memory_encoding": _build_tmem,
    "tensor_memory_scales_encoding": _build_tmem_scales,
}

_MEMORY_SPACES = frozenset({"shared_memory", "tensor_memory"})


def _build_padded(attr: DialectAttr) -> Layout:
    intervals: tuple[tuple[int, int], ...] = ()
    if attr.positional:
        intervals = tuple((int(a), int(b)) for a, b in _PADDING_PAIR.findall(attr.positional[0]))
    if not intervals:
        raise _Bad("missing [interval:+padding] list")
    p = attr.params
    return PaddedSharedLayout(
        intervals=intervals,
        order=_ints(p, "order") if "order" in p else None,
        shape=_ints(p, "shape") if "shape" in p else None,
        offset_bases=_bases(p.get("offset"), "offset"),
        block_bases=_bases(p.get("block"), "block"),
    )


def _from_attr(attr: DialectAttr, name: str, aliases: Mapping[str, Layout], problems: list[str],
               context: LayoutContext | None = None) -> Layout:
    """Build the typed layout for one parsed dialect attribute (never raises)."""
    label = f"#{name}" if name else attr.text

    def sub(value: AttrValue, what: str) -> Layout:
        if isinstance(value, AliasRef):
            found = aliases.get(value.name)
            if found is None:
                problems.append(f"{label}: {what} refers to undefined alias #{value.name}")
                return OpaqueLayout(name=value.name, mnemonic="?", reason="undefined alias")
            return found
        if isinstance(value, DialectAttr):
            return _from_attr(value, "", aliases, problems, context)
        raise _Bad(f"{what} is not a layout")

    try:
        if attr.mnemonic == "padded_shared":
            layout = _build_padded(attr)
        else:
            builder = _BUILDERS.get(attr.mnemonic)
            if builder is None:
                placeholder = (attr.dialect, attr.mnemonic) == ("gluon", "auto_encoding")
                return OpaqueLayout(
                    name=name, dialect=attr.dialect, text=attr.text, mnemonic=f"{attr.dialect}.{attr.mnemonic}",
                    params=dict(attr.params),
                    reason="Gluon's placeholder; Triton chooses the layout in a later pass" if placeholder
                    else "layout kind not modelled by irscope",
                )
            layout = builder(attr.params, sub)
    except _Bad as exc:
        problems.append(f"{label}: cannot read {attr.dialect}.{attr.mnemonic}: {exc}")
        return OpaqueLayout(
            name=name, dialect=attr.dialect, text=attr.text, mnemonic=f"{attr.dialect}.{attr.mnemonic}",
            params=dict(attr.params), reason=str(exc),
        )
    invalid = layout_problem(layout, context)
    if invalid is not None:  # Triton's verifier would reject it: no analysis may run on it
        problems.append(f"{label}: invalid {attr.dialect}.{attr.mnemonic}: {invalid}")
        return OpaqueLayout(
            name=name, dialect=attr.dialect, text=attr.text, mnemonic=f"{attr.dialect}.{attr.mnemonic}",
            params=dict(attr.params), reason=f"invalid: {invalid}",
        )
    return _renamed(layout, name, attr.dialect, attr.text)


def _renamed(layout: Layout, name: str, dialect: str, text: str) -> Layout:
    """Return a copy of `layout` carrying its alias name, dialect and printed text."""
    return replace(layout, name=name, dialect=dialect, text=text)


def parse_layout(
    text: str, aliases: Mapping[str, Layout] | None = None, problems: list[str] | None = None, name: str = "",
    context: LayoutContext | None = None,
) -> Layout:
    """Parse one layout attribute (`#ttg.blocked<{...}>` or an alias `#mma`) into a typed Layout.

    Unknown kinds become OpaqueLayout; anything unreadable is reported in `problems`, never raised.
    With `context` (the module's counts, see `layout_context`) a layout is also checked against them.
    """
    problems = problems if problems is not None else []
    aliases = aliases or {}
    label = f"#{name}" if name else text.strip()
    try:
        value = parse_attr_value(text.strip())
    except AttrParseError as exc:
        problems.append(f"{label}: unreadable attribute: {exc}")
        return OpaqueLayout(name=name, text=text.strip(), mnemonic="?", reason=str(exc))
    if isinstance(value, AliasRef):
        found = aliases.get(value.name)
        if found is None:
            problems.append(f"{label}: undefined alias #{value.name}")
            return OpaqueLayout(name=value.name, text=text.strip(), mnemonic="?", reason="undefined alias")
        return found
    if not isinstance(value, DialectAttr):
        problems.append(f"{label}: not a layout attribute")
        return OpaqueLayout(name=name, text=text.strip(), mnemonic="?", reason="not a dialect attribute")
    return _from_attr(value, name, aliases, problems, context)


def split_modules(text: str) -> list[str]:
    """Split a lit-test style file on its `// -----` lines; a plain TTGIR file gives one module."""
    return [chunk for chunk in _MODULE_SPLIT.split(text) if chunk.strip()] or [text]


# Example: tensor<128x64xf16, #blocked1>   /   #ttg.slice<{dim = 1, parent = #blocked1}>
_ALIAS_USE = re.compile(r"#(?P<name>[A-Za-z_][\w$.-]*)")


def _alias_definitions(text: str) -> list[tuple[int, str, str]]:
    """(line, name, value text) of every `#name = #dialect.attr...` definition, as MLIR reads them.

    A definition may span lines, end in a `// comment`, or share its line with the next one.
    """
    found: list[tuple[int, str, str]] = []
    for number, line in logical_lines(text):
        if not line.startswith("#"):
            continue
        pos = 0
        while (head := _ALIAS_HEAD.match(line, pos)) is not None:
            try:
                _, end = read_attr_value(line, head.end())
            except AttrParseError:  # parse_layout reports what is wrong with the rest of the line
                found.append((number, head.group("name"), line[head.end():]))
                break
            found.append((number, head.group("name"), line[head.end():end]))
            pos = end
    return found


# The dialects whose ops carry Triton's VerifyTensorLayoutsTrait (TT_Op, TTG_Op, TTNG_Op, legacy spellings too):
# only their operands and results are held to the module's counts. A function's arguments (tt.func), block
# arguments and the ops of other dialects (arith, scf, amdg, nvws, unregistered) are not checked by Triton.
_VERIFIED_DIALECTS = ("tt.", "ttg.", "ttng.", "triton_gpu.", "triton_nvidia_gpu.")
_UNVERIFIED_OPS = frozenset({"tt.func"})
# Example: !ty = tensor<1xi32, #blocked>   (an MLIR type alias; ops then print !ty)
_TYPE_ALIAS = re.compile(r"^(?P<name>![\w$.-]+)\s*=\s*(?P<value>.*)$")
_TYPE_ALIAS_USE = re.compile(r"![\w$.-]+")


def _verified_uses(text: str) -> set[str]:
    """The alias names on the operands and results of the ops Triton checks against the module's counts."""
    type_aliases: dict[str, set[str]] = {}
    for _, line in logical_lines(text):
        if (match := _TYPE_ALIAS.match(line)) is not None:
            type_aliases[match["name"]] = set(_ALIAS_USE.findall(match["value"]))
    found: set[str] = set()
    for op in scan_ops(text):
        if not op.op.startswith(_VERIFIED_DIALECTS) or op.op in _UNVERIFIED_OPS:
            continue
        for typ in (*op.result_types, *op.operand_types):
            found.update(_ALIAS_USE.findall(typ.text))
        for name in _TYPE_ALIAS_USE.findall(op.text) if type_aliases else ():
            found.update(type_aliases.get(name, ()))
    return found


def _used_aliases(definitions: list[tuple[int, str, str]], direct: set[str]) -> set[str]:
    """The aliases an op uses, directly or as the parent of one it uses (a slice's, a dot operand's)."""
    values: dict[str, str] = {}
    for _, name, value in definitions:
        values.setdefault(name, value)
    used, todo = set(), [name for name in direct if name in values]
    while todo:
        name = todo.pop()
        if name not in used:
            used.add(name)
            todo.extend(ref for ref in _ALIAS_USE.findall(values[name]) if ref in values)
    return used


# Example: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32}
# (also a function's own `attributes {"ttg.num-warps" = 8 : i32}`)
_MODULE_COUNT = re.compile(r'"(?:ttg|triton_gpu)\.(?P<key>num-warps|threads-per-warp|num-ctas)"\s*=\s*(?P<value>\d+)')
# Example: partition0(%arg7: !ttg.memdesc<1xi64, #shared, #smem>) num_warps(4) {
# Example: partitionNumWarps = array<i32: 4, 2>   (the generic form of the same warp counts)
_PARTITION_WARPS = re.compile(r"\bnum_warps\((?P<one>\d+)\)|partitionNumWarps\s*=\s*array<i32:(?P<many>[\d,\s]*)>")


def layout_context(text: str) -> LayoutContext:
    """The warps, threads per warp and CTAs a module's text states, for checking its layouts against them."""
    found: dict[str, set[int]] = {"num-warps": set(), "threads-per-warp": set(), "num-ctas": set()}
    for match in _MODULE_COUNT.finditer(text):
        found[match["key"]].add(int(match["value"]))
    for match in _PARTITION_WARPS.finditer(text):
        values = [match["one"]] if match["one"] else match["many"].split(",")
        found["num-warps"].update(int(v) for v in values if v.strip())
    return LayoutContext(num_warps=frozenset(found["num-warps"]), threads_per_warp=frozenset(found["threads-per-warp"]),
                         num_ctas=frozenset(found["num-ctas"]))


def parse_layouts(text: str) -> LayoutTable:
    """Read every layout alias defined at the top of a TTGIR module, in order.

    For files holding several modules (lit tests), call this on each of `split_modules(text)`.
    """
    table = LayoutTable()
    context = layout_context(text)
    definitions = _alias_definitions(text)
    # the op scan only matters where the module states a count to check against
    used = _used_aliases(definitions, _verified_uses(text)) if context != LayoutContext() else set()
    for lineno, name, value in definitions:
        head = value[1:].split("<", 1)[0]
        mnemonic = head.partition(".")[2]
        if mnemonic in _MEMORY_SPACES and "<" not in value:
            table.memory_spaces[name] = head
            continue
        if name in table.aliases:
            table.problems.append(
                f"line {lineno}: #{name} is defined again (several modules? use split_modules); kept the first"
            )
            continue
        # Triton checks the warps, lanes and CTAs a layout implies on the tt/ttg/ttng ops using it (not on function
        # arguments or other dialects' ops), not where it is defined
        layout = parse_layout(value, table.aliases, table.problems, name=name,
                              context=context if name in used else None)
        if isinstance(layout, OpaqueLayout) and not mnemonic:
            continue  # `#foo = #bar` aliasing something that is not a dialect attribute
        table.aliases[name] = layout
    return table
