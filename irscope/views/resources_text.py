"""Plain-text views of resource use: one capture in detail, or every autotune config in a table."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from irscope.analysis.resources import Resources

__all__ = ["render_resource_table", "render_resources", "resources_json"]

_OPTION_KEYS = ("num_warps", "num_stages", "num_ctas", "maxnreg")


def _kib(n: int) -> str:
    return f"{n / 1024:.1f} KiB"


def _and(items: tuple[str, ...] | list[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _occupancy_lines(r: Resources) -> list[str]:
    occ = r.occupancy
    if occ is None:
        return []
    amd = "gfx" in r.target
    cta, sm, warp = ("workgroup", "CU", "wave") if amd else ("CTA", "SM", "warp")
    if not occ.fits:
        return [f"  occupancy on {occ.gpu}: none, one {cta} does not fit and the launch would fail "
                "(the error says why)"]
    plural = "s" if occ.ctas != 1 else ""
    out = [f"  occupancy on {occ.gpu}: {occ.ctas} {cta}{plural} per {sm} = {occ.warps} of {occ.max_warps} {warp} "
           f"slots ({occ.percent:.1f}%), limited by {_and(occ.limiting)}",
           "    each resource allows: " + ", ".join(f"{k} {v}" for k, v in occ.limits.items())]
    if occ.waves_per_simd is not None:
        out.append(f"    registers allow {occ.waves_per_simd} waves per SIMD")
    return out


def render_resources(r: Resources, title: str) -> str:
    """One capture's registers, spills, memory and occupancy."""
    out = [title]
    if r.registers is None:
        out += [f"  unknown: {p}" for p in r.problems]
        return "\n".join(out) + "\n"
    if "gfx" in r.target:
        spills = "no spills" if not r.spills else (
            f"SPILLS: {r.spill_stores} VGPRs to scratch, {r.spill_loads} SGPRs into VGPR lanes")
        # .vgpr_count is the unified file's total on gfx90a and later: architected VGPRs (aligned) plus AGPRs
        vgprs = f"{r.registers} VGPRs" + (f" ({r.registers - r.agprs} architected + {r.agprs} AGPRs)"
                                          if r.agprs else "")
        out.append(f"  registers      {vgprs} per lane, {r.sgprs} SGPRs per wave ({spills})")
        out.append(f"  scratch        {r.local_bytes} bytes per lane")
        if not r.shared_known:
            out.append(f"  LDS            unknown (Triton's buffers not recorded) + {r.shared_static} B static")
        else:
            out.append(f"  LDS            {r.shared_dynamic} B dynamic (Triton's buffers) + {r.shared_static} B "
                       f"static = {r.shared_total} B ({_kib(r.shared_total)}) per workgroup")
    else:
        spills = ("no spills" if not r.spills
                  else f"SPILLS: {r.spill_stores} bytes stored, {r.spill_loads} bytes loaded per thread")
        out.append(f"  registers      {r.registers} per thread ({spills})")
        out.append(f"  stack / local  {r.stack_bytes} / {r.local_bytes} bytes per thread")
        reserved = r.shared_total - r.shared_dynamic - r.shared_static
        driver = (f" + {reserved} B reserved by the driver" if reserved
                  else ", which holds the driver's 1 KB per-CTA reservation")
        if not r.shared_known:
            out.append(f"  shared memory  unknown (Triton's buffers not recorded) + {r.shared_static} B static (cubin)")
        else:
            out.append(f"  shared memory  {r.shared_dynamic} B dynamic (Triton's buffers) + {r.shared_static} B "
                       f"static (cubin){driver} = {r.shared_total} B ({_kib(r.shared_total)}) per CTA")
        out.append(f"  barriers       {r.barriers}")
    out += _occupancy_lines(r)
    out += [f"  check: {c}" for c in r.checks]
    out += [f"  note: {p}" for p in r.problems]
    return "\n".join(out) + "\n"


def _config_cells(config: dict[str, object], keys: list[str]) -> str:
    return "/".join(str(config.get(k, "-")) for k in keys)


def render_resource_table(rows: list[Resources], title: str) -> str:
    """One line per config: which config spills, and what each allows per SM."""
    if not rows:
        return f"{title}: no configs\n"
    keys = list(dict.fromkeys(k for r in rows for k in r.config if k not in _OPTION_KEYS))
    amd = "gfx" in rows[0].target
    unit = "CU" if amd else "SM"
    out = [title, f"  config = {'/'.join(keys)}"]
    head = (f"  {'#':>2}  {'config':<18}{'warps':>6}{'stages':>7}{'regs':>6}  {'spills':<16}{'shared/CTA':>12}"
            f"{'CTAs/' + unit:>9}{'occupancy':>11}  limited by")
    out.append(head)
    for r in rows:
        spills = ("none" if not r.spills else
                  f"{r.spill_stores}/{r.spill_loads} " + ("VGPR/SGPR" if amd else "B st/ld"))
        occ = r.occupancy
        ctas = str(occ.ctas) if occ else "?"
        pct = f"{occ.percent:.1f}%" if occ else "?"
        limited = _and(occ.limiting) if occ and occ.fits else ("does not fit" if occ else "")
        regs = str(r.registers) if r.registers is not None else "?"
        shared = _kib(r.shared_total) if r.shared_known else "?"
        out.append(f"  {r.config_index:>2}  {_config_cells(r.config, keys):<18}{r.num_warps:>6}"
                   f"{r.config.get('num_stages', '')!s:>7}{regs:>6}  {spills:<16}{shared:>12}"
                   f"{ctas:>9}{pct:>11}  {limited}")
    spilling = [str(r.config_index) for r in rows if r.spills]
    out.append(f"  spilling configs: {', '.join(spilling)}" if spilling else "  no config spills")
    return "\n".join(out) + "\n"


def resources_json(rows: list[Resources]) -> list[dict[str, Any]]:
    """The resources as JSON-ready dicts."""
    return [{**asdict(r), "spills": r.spills} for r in rows]
