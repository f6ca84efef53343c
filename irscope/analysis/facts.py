"""The facts of a compilation that matter when it changes, as one flat, comparable table.

``compare`` prints the differences between two captures' facts (another Triton, target, config or
kernel); ``facts``/``check`` snapshot them and fail CI when they move. A fact is a dotted name and a
JSON value: ``loop1.stages = 3``, ``mma.shape = "m64n256k16"``, ``registers = 168``,
``instructions.sass.mma = 16``. Everything is read from the stored capture (no Triton import).
"""

from __future__ import annotations

import fnmatch
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from irscope.analysis.instructions import canonical_op, classify
from irscope.errors import StoreError, UsageError
from irscope.store.ingest.entry import ORIGINS
from irscope.store.store import Capture

FACTS_FORMAT = 1
# Facts whose value varies run to run: not compared unless a tolerance names them.
NOISY = ("compile_seconds",)

# Example: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [...]}>
_LAYOUT_ALIAS = re.compile(r"^#(?!loc)([\w$.-]+) = (#(?:ttg|triton_gpu|ttng|triton_nvidia_gpu|amdgpu)\.\S.*)$", re.M)
# Example: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 | mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
_PTX_MMA_SHAPE = re.compile(r"\.(m\d+n\d+k\d+)\b")
# Example: HGMMA.64x256x16.F32 | HMMA.16816.F32 | v_mfma_f32_32x32x8_f16 | DMMA.8x8x4
_OTHER_MMA_SHAPE = re.compile(r"(\d+x\d+x\d+|\.\d{4,5}\b)")


@dataclass(frozen=True)
class Facts:
    """A capture's facts.

    Attributes:
        key: the capture.
        label: how headers name it (``matmul sm90 c0, Triton 3.9.0``).
        values: fact name -> JSON value, in a stable order.
        unread: what could not be read (a stage missing, a tool absent), one sentence each.
    """

    key: str
    label: str
    values: dict[str, Any]
    unread: tuple[str, ...] = ()


def _mma_kind(opcode: str) -> str:
    """``wgmma``, ``mma.sync``, ``tcgen05``, ``mfma``, ``wmma`` or the mnemonic's first part."""
    low = opcode.lower()
    for kind in ("wgmma", "mma.sync", "tcgen05", "mfma", "wmma"):
        if kind in low:
            return kind
    return opcode.split(".")[0]


def _mma_shape(opcode: str) -> str:
    found = _PTX_MMA_SHAPE.search(opcode) or _OTHER_MMA_SHAPE.search(opcode)
    return found.group(1).lstrip(".") if found else ""


def mma_family(opcode: str) -> str:
    """A tensor-core instruction's family and shape: ``wgmma m64n256k16``, ``mfma 32x32x8``."""
    return f"{_mma_kind(opcode)} {_mma_shape(opcode)}".strip()


def _layouts(ttgir: str) -> list[str]:
    """The layout definitions of a TTGIR, in today's spelling, sorted (alias names are not facts)."""
    return sorted({canonical_op(m.group(2).lstrip("#")) for m in _LAYOUT_ALIAS.finditer(ttgir)})


# What a quick read leaves out: the facts that need the NVIDIA tools run on the cubin (nvdisasm, ptxas -v).
SLOW_FACTS = ("registers", "spills", "shared_bytes", "occupancy.*", "instructions.sass.*")


class _Skipped(Exception):
    """A quick read leaves the resource usage out."""


def capture_facts(capture: Capture, quick: bool = False) -> Facts:
    """Everything ``compare`` and ``check`` look at, for one capture.

    ``quick``: only what the stored texts give (NVIDIA: without the SASS listing and the resource usage, the
    facts ``SLOW_FACTS`` names, which take the bundled tools most of a second); AMD captures read the same.
    """
    from irscope.analysis.loops import capture_loops
    from irscope.analysis.resources import capture_resources
    from irscope.analysis.verify import lower_listings

    m = capture.manifest
    values: dict[str, Any] = {}
    unread: list[str] = []
    quick = quick and m.backend == "cuda"
    listings, problems = lower_listings(capture, sass=not quick)
    unread += [f"{p.claim}: {p.evidence}" for p in problems]
    try:
        ttgir = capture.read("ttgir")
    except StoreError as exc:
        ttgir = ""
        unread.append(f"ttgir: {exc}")
    loops, missing = capture_loops(capture, tuple(listings)) if ttgir else ([], ())
    unread += list(missing)
    values["loops"] = len(loops)
    ttgir_lines = ttgir.splitlines()
    for i, loop in enumerate(loops, 1):
        name = f"loop{i}"
        values[f"{name}.line"] = loop.line
        values[f"{name}.pipelined"] = loop.pipelined
        values[f"{name}.stages"] = loop.achieved_stages
        values[f"{name}.async_copies"] = sum(s.in_loop for s in loop.loads if s.kind == "async")
        values[f"{name}.register_loads"] = sum(s.in_loop for s in loop.loads if s.kind == "register")
        values[f"{name}.waits"] = len(loop.waits)
        values[f"{name}.mma"] = loop.mma
        first, last = loop.ttgir_lines
        body = ttgir_lines[max(first - 1, 0):last]
        values[f"{name}.convert_layouts"] = sum(1 for text in body if "convert_layout" in text)
    mma = Counter(i.opcode for listing in listings if listing.stage in ("ptx", "amdgcn")
                  for i in listing.instructions if classify(i.opcode) == "mma")
    if not mma:  # SASS when PTX has none (or is absent)
        mma = Counter(i.opcode for listing in listings for i in listing.instructions if classify(i.opcode) == "mma")
    values["mma.kind"] = sorted({_mma_kind(op) for op in mma}) or None
    values["mma.shape"] = sorted({s for op in mma if (s := _mma_shape(op))}) or None
    values["layouts"] = _layouts(ttgir)
    try:
        if quick:
            raise _Skipped
        res = capture_resources(capture)
        values["registers"] = res.registers
        if m.backend == "cuda":  # ptxas: bytes stored and loaded per thread
            values["spills"] = res.spill_stores + res.spill_loads
        else:  # AMD: VGPRs spilled (to scratch), apart from SGPRs spilled (into VGPR lanes: no memory traffic)
            values["spills"] = res.spill_stores
            values["spills.sgpr"] = res.spill_loads
        values["shared_bytes"] = res.shared_total if res.shared_known else None
        if res.occupancy is not None:
            values["occupancy.ctas_per_sm"] = res.occupancy.ctas
            values["occupancy.warps_per_sm"] = res.occupancy.warps
            values["occupancy.limited_by"] = list(res.occupancy.limiting)
        unread += list(res.problems)
    except _Skipped:
        pass
    except (StoreError, UsageError, OSError) as exc:
        unread.append(f"resources: {exc}")
    for listing in listings:
        counts = Counter(classify(i.opcode) or "other" for i in listing.instructions)
        values[f"instructions.{listing.stage}.total"] = len(listing.instructions)
        for kind in ("mma", "global_load", "global_store", "async_copy", "shared_load", "shared_store", "barrier",
                     "wait"):
            values[f"instructions.{listing.stage}.{kind}"] = counts.get(kind, 0)
    if m.origin not in ORIGINS:  # Triton's own artifacts do not say how long the compile took
        values["compile_seconds"] = m.compile_seconds
    label = f"{m.kernel} {m.target} c{m.config_index}, Triton {m.triton_version}"
    if m.settings:
        label += ", set " + ", ".join(f"{k}={v}" for k, v in m.settings.items())
    return Facts(key=m.key, label=label, values=values, unread=tuple(unread))


@dataclass(frozen=True)
class Delta:
    """One fact that differs.

    Attributes:
        name: the fact.
        before / after: its values (None: absent on that side).
        allowed: within the tolerance given for it (``check`` does not fail on it).
    """

    name: str
    before: Any
    after: Any
    allowed: bool = False


def parse_tolerance(text: str) -> tuple[str, float, bool]:
    """``registers=5%`` / ``instructions.*=10`` / ``compile_seconds=any`` -> (pattern, amount, relative)."""
    name, sep, amount = text.partition("=")
    if not sep or not name.strip():
        raise UsageError(f"tolerance {text!r}: write FACT=AMOUNT, e.g. registers=8, 'instructions.*=10%' or "
                         "compile_seconds=any")
    amount = amount.strip()
    if amount == "any":
        return name.strip(), float("inf"), False
    relative = amount.endswith("%")
    try:
        value = float(amount.rstrip("%"))
    except ValueError:
        raise UsageError(f"tolerance {text!r}: {amount!r} is not a number, N% or 'any'") from None
    if value < 0:
        raise UsageError(f"tolerance {text!r}: give a non-negative amount")
    return name.strip(), value, relative


def _within(before: Any, after: Any, amount: float, relative: bool) -> bool:
    if amount == float("inf"):
        return True
    if isinstance(before, bool) or isinstance(after, bool):
        return False
    if not isinstance(before, (int, float)) or not isinstance(after, (int, float)):
        return False
    limit = abs(before) * amount / 100 if relative else amount
    return abs(after - before) <= limit


def compare_facts(before: dict[str, Any], after: dict[str, Any],
                  tolerances: list[tuple[str, float, bool]] | None = None) -> list[Delta]:
    """The facts that differ, in ``before``'s order then ``after``'s; noisy facts only when a tolerance names them."""
    tolerances = tolerances or []
    names = list(before) + [n for n in after if n not in before]
    out: list[Delta] = []
    for name in names:
        a, b = before.get(name), after.get(name)
        rules = [t for t in tolerances if fnmatch.fnmatchcase(name, t[0])]
        if name in NOISY and not rules:
            continue
        if a == b:
            continue
        allowed = any(_within(a, b, amount, relative) for _, amount, relative in rules)
        out.append(Delta(name=name, before=a, after=b, allowed=allowed))
    return out


def show_value(value: Any) -> str:
    """A fact's value as people write it."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)
