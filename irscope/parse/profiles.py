"""Measured GPU profiles read as kernels: a torch.profiler Chrome trace, a Proton profile, an Nsight Compute CSV.

What ``irscope perf --measured`` and ``irscope report --measured`` compare the model with. Three formats, one answer
(``MeasuredProfile``): each kernel's name, calls, total device time, and where the file has them its launches' grids
and DRAM bytes.

- torch.profiler (``prof.export_chrome_trace``, which writes Kineto's trace): ``{"traceEvents": [...]}``; a GPU
  kernel is an event with ``"cat": "kernel"``, its ``name``, ``dur`` in microseconds and ``args`` with ``grid`` and
  ``block`` (``[x, y, z]``), as Kineto's CUPTI kernel activity writes them.
- Proton (``triton.profiler``'s ``.hatchet``): a JSON list, the call tree's root then the devices; each node is
  ``{"frame": {"name": ...}, "metrics": {"time (ns)": ..., "count": ...}, "children": [...]}``. A kernel is a node
  with a ``count``; its time is its own. Proton keeps no grid and measures no DRAM bytes (a ``bytes`` metric is what
  the kernel's ``launch_metadata`` declared, not a measurement, so it is not read as DRAM bytes).
- Nsight Compute (``ncu --csv``): the program's own output and ncu's ``==PROF==`` lines around quoted CSV rows.
  The default page has one row per (launch, metric): ``"ID","Kernel Name","Grid Size","Metric Name","Metric Unit",
  "Metric Value"``; ``--page raw`` one row per launch with the metrics as columns (and a units row under the head).
  Times are ``gpu__time_duration.sum``, DRAM bytes ``dram__bytes_read.sum`` plus ``dram__bytes_write.sum``, in the
  unit ncu printed them in.

Untrusted input: the file is read only when it is a regular file, within ``max_bytes`` (after gzip), and anything
malformed is one ``ProfileError`` line, never a traceback. Plain parsing: no torch, no Triton.
"""

from __future__ import annotations

import csv
import gzip
import json
import os
import stat
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from irscope.errors import IrscopeError

__all__ = ["MAX_PROFILE_BYTES", "SOURCES", "MeasuredKernel", "MeasuredLaunch", "MeasuredProfile", "ProfileError",
           "looks_like_triton", "ncu_csv_rows", "ncu_number", "parse_profile", "read_profile"]

MAX_PROFILE_BYTES = 1024**3  # a profile as read (decompressed); a training step's trace is a few MB
_MAX_NODES = 5_000_000  # Proton tree nodes walked
_CHUNK = 1024**2
SOURCES = ("torch.profiler", "proton", "ncu")
NCU_TIME = "gpu__time_duration.sum"
NCU_DRAM = ("dram__bytes_read.sum", "dram__bytes_write.sum")
# the multipliers of the units ncu prints (to ns and to bytes); ncu's byte prefixes are powers of 1000
_TIME_UNITS = {"nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6, "second": 1e9,
               "s": 1e9}
_BYTE_UNITS = {"byte": 1.0, "kbyte": 1e3, "mbyte": 1e6, "gbyte": 1e9, "tbyte": 1e12, "kibyte": 1024.0,
               "mibyte": 1024.0**2, "gibyte": 1024.0**3}
_PROTON_METADATA = "__proton"  # Proton's own frames (its launch-metadata scope): not kernels


class ProfileError(IrscopeError):
    """A measured profile that cannot be read: one line naming the file and what is wrong."""


@dataclass(frozen=True)
class MeasuredLaunch:
    """One launch of a kernel as the profile measured it.

    Attributes:
        name: the kernel's name as the profiler printed it (a Triton kernel's is its compiled name).
        us: its device time in microseconds.
        order: its place among the profile's kernel launches (0 first), by start time where the file has one.
        grid / block: programs (CTAs) and threads per CTA launched, None when the file does not say.
        dram_bytes: DRAM bytes read and written (ncu), None when not measured.
    """

    name: str
    us: float
    order: int
    grid: tuple[int, int, int] | None = None
    block: tuple[int, int, int] | None = None
    dram_bytes: float | None = None


@dataclass(frozen=True)
class MeasuredKernel:
    """Every launch of one kernel name in the profile, summed.

    Attributes:
        name: the kernel's name.
        calls: its launches.
        total_us: their device time in microseconds.
        grids: the distinct grids of its launches in order of first use (empty when the file has none).
        dram_bytes: DRAM bytes over the launches that have them (None when none has).
        dram_calls: how many launches had DRAM bytes.
        triton_scope: Proton recorded it under Triton's launch hook (a Triton kernel), False when unknown.
    """

    name: str
    calls: int
    total_us: float
    grids: tuple[tuple[int, int, int], ...] = ()
    dram_bytes: float | None = None
    dram_calls: int = 0
    triton_scope: bool = False

    @property
    def per_call_us(self) -> float:
        """Mean device time of one launch."""
        return self.total_us / self.calls if self.calls else 0.0

    @property
    def dram_per_call(self) -> float | None:
        """Mean DRAM bytes of one launch that has them (None when none has)."""
        return self.dram_bytes / self.dram_calls if self.dram_bytes is not None and self.dram_calls else None


@dataclass(frozen=True)
class MeasuredProfile:
    """What one profile measured.

    Attributes:
        source: ``torch.profiler``, ``proton`` or ``ncu``; ``path`` the file.
        kernels: per kernel name, longest total first.
        launches: each launch in order (torch.profiler and ncu; empty for Proton, which keeps sums only).
        notes: what was passed over, one sentence each.
    """

    source: str
    path: str
    kernels: tuple[MeasuredKernel, ...]
    launches: tuple[MeasuredLaunch, ...] = ()
    notes: tuple[str, ...] = ()

    def kernel(self, name: str) -> MeasuredKernel | None:
        """The kernel of that name, None when the profile has none."""
        return next((k for k in self.kernels if k.name == name), None)


def looks_like_triton(name: str) -> bool:
    """Whether a measured name is Inductor's (``triton_poi_``, ``triton_red_``, ``triton_per_``, ``triton_tem_``)."""
    return name.startswith("triton_")


# ---- reading the file ---------------------------------------------------------------------------------------------


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    """The file's bytes, gunzipped when gzipped, at most ``max_bytes`` of them; one line when not."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise ProfileError(f"--measured {path}: cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise ProfileError(f"--measured {path}: not a regular file (a link, a folder or a device is not read)")
    try:
        with open(path, "rb") as raw:
            gz = raw.read(2) == b"\x1f\x8b"
            raw.seek(0)
            stream: Any = gzip.GzipFile(fileobj=raw, mode="rb") if gz else raw
            parts: list[bytes] = []
            total = 0
            while True:
                chunk = stream.read(_CHUNK)
                if not chunk:
                    break
                total += len(chunk)
                if total > max_bytes:
                    raise ProfileError(f"--measured {path}: more than {max_bytes} bytes"
                                       + (" decompressed" if gz else "") + "; not read")
                parts.append(chunk)
    except (OSError, EOFError, zlib.error) as exc:
        raise ProfileError(f"--measured {path}: cannot be read ({_why(exc)})") from None
    return b"".join(parts)


def _why(exc: BaseException) -> str:
    if isinstance(exc, EOFError):
        return "the gzip stream is cut short"
    return str(getattr(exc, "strerror", None) or exc) or type(exc).__name__


def read_profile(path: str | Path, max_bytes: int = MAX_PROFILE_BYTES) -> MeasuredProfile:
    """Read a torch.profiler trace, a Proton profile or an ncu CSV (each maybe gzipped), told apart by content."""
    path = Path(path)
    data = _read_bytes(path, max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProfileError(f"--measured {path}: not UTF-8 text (byte {exc.start}); a torch.profiler trace, a Proton "
                           ".hatchet or an ncu --csv file is") from None
    return parse_profile(text, str(path))


def parse_profile(text: str, path: str = "the profile") -> MeasuredProfile:
    """The profile in ``text``: JSON (a torch.profiler trace or a Proton profile) or an ncu CSV."""
    head = text.lstrip()[:1]
    if head in ("{", "["):
        try:
            data = json.loads(text)
        except RecursionError:
            raise ProfileError(f"--measured {path}: JSON nested too deeply to read") from None
        except ValueError as exc:
            raise ProfileError(f"--measured {path}: not valid JSON ({exc})") from None
        if isinstance(data, dict) and "traceEvents" in data:
            return _torch_trace(data["traceEvents"], path)
        if isinstance(data, list) and data and isinstance(data[0], dict) and "frame" in data[0]:
            return _proton(data[0], path)
        if isinstance(data, list) and all(isinstance(e, dict) and "ph" in e for e in data[:16]):
            return _torch_trace(data, path)  # the Chrome trace format's bare array of events
        raise ProfileError(f"--measured {path}: JSON that is neither a torch.profiler trace (an object with "
                           "traceEvents) nor a Proton profile (a list whose first node has a frame)")
    if '"Kernel Name"' in text:
        return _ncu(text, path)
    raise ProfileError(f"--measured {path}: not a profile irscope reads: a torch.profiler trace (JSON, "
                       "prof.export_chrome_trace), a Proton .hatchet (JSON) or an ncu --csv file")


# ---- torch.profiler -----------------------------------------------------------------------------------------------


def _dim3(value: Any) -> tuple[int, int, int] | None:
    """``[x, y, z]`` of non-negative ints (Kineto's grid and block), else None."""
    if not isinstance(value, list) or len(value) != 3:
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**32 for v in value):
        return None
    return (value[0], value[1], value[2])


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if number == number and 0 <= number < 1e18 else None  # NaN, negatives and inf are not times


def _torch_trace(events: Any, path: str) -> MeasuredProfile:
    if not isinstance(events, list):
        raise ProfileError(f"--measured {path}: traceEvents is {type(events).__name__}, not a list of events")
    found: list[tuple[float, int, str, float, Any]] = []
    skipped = 0
    for index, event in enumerate(events):
        if not isinstance(event, dict) or event.get("cat") != "kernel":
            continue
        name, dur = event.get("name"), _number(event.get("dur"))
        if not isinstance(name, str) or not name or dur is None:
            skipped += 1
            continue
        ts = _number(event.get("ts"))
        found.append((ts if ts is not None else 0.0, index, name, dur, event.get("args")))
    found.sort(key=lambda item: (item[0], item[1]))
    launches = []
    for order, (_ts, _index, name, dur, args) in enumerate(found):
        grid, block = (_dim3(args.get("grid")), _dim3(args.get("block"))) if isinstance(args, dict) else (None, None)
        launches.append(MeasuredLaunch(name=name, us=dur, order=order, grid=grid, block=block))
    notes = [f"{skipped} kernel event(s) without a name or a duration were passed over"] if skipped else []
    if not launches:
        raise ProfileError(f"--measured {path}: a torch.profiler trace with no GPU kernel events (\"cat\": "
                           "\"kernel\"); was it recorded with ProfilerActivity.CUDA on a GPU?")
    return MeasuredProfile(source="torch.profiler", path=path, kernels=_sum(launches), launches=tuple(launches),
                           notes=tuple(notes))


def _sum(launches: Iterable[MeasuredLaunch]) -> tuple[MeasuredKernel, ...]:
    """Per name: calls, time, grids and DRAM bytes, longest total first (ties by name)."""
    by_name: dict[str, list[MeasuredLaunch]] = {}
    for launch in launches:
        by_name.setdefault(launch.name, []).append(launch)
    kernels = []
    for name, group in by_name.items():
        grids = tuple(dict.fromkeys(ln.grid for ln in group if ln.grid is not None))
        dram = [ln.dram_bytes for ln in group if ln.dram_bytes is not None]
        kernels.append(MeasuredKernel(name=name, calls=len(group), total_us=sum(ln.us for ln in group), grids=grids,
                                      dram_bytes=sum(dram) if dram else None, dram_calls=len(dram)))
    return tuple(sorted(kernels, key=lambda k: (-k.total_us, k.name)))


# ---- Proton -------------------------------------------------------------------------------------------------------


def _proton_nodes(root: dict[str, Any], path: str) -> Iterator[tuple[dict[str, Any], str]]:
    """Each node of the tree with its parent's frame name, walked without recursion, within ``_MAX_NODES``."""
    stack: list[tuple[Any, str]] = [(root, "")]
    walked = 0
    while stack:
        node, parent = stack.pop()
        walked += 1
        if walked > _MAX_NODES:
            raise ProfileError(f"--measured {path}: a Proton tree of more than {_MAX_NODES} nodes; not read")
        if not isinstance(node, dict):
            raise ProfileError(f"--measured {path}: a Proton node is {type(node).__name__}, not an object")
        frame = node.get("frame")
        name = frame.get("name") if isinstance(frame, dict) else None
        if not isinstance(name, str):
            raise ProfileError(f"--measured {path}: a Proton node without a frame name")
        yield node, parent
        children = node.get("children", [])
        if not isinstance(children, list):
            raise ProfileError(f"--measured {path}: a Proton node's children ({name!r}) is not a list")
        stack.extend((child, name) for child in reversed(children))


def _proton(root: dict[str, Any], path: str) -> MeasuredProfile:
    totals: dict[str, list[float]] = {}
    scoped: set[str] = set()
    skipped = 0
    for node, parent in _proton_nodes(root, path):
        name = node["frame"]["name"]
        metrics = node.get("metrics")
        if not isinstance(metrics, dict) or "count" not in metrics or name.startswith(_PROTON_METADATA):
            continue
        count, ns = _number(metrics.get("count")), _number(metrics.get("time (ns)"))
        if count is None or ns is None or count != int(count):
            skipped += 1
            continue
        if count == 0:
            continue  # the root's zeroed sums, a scope without kernels
        entry = totals.setdefault(name, [0.0, 0.0])
        entry[0] += count
        entry[1] += ns / 1e3
        if parent == name:  # the launch hook's scope, named as the kernel, holds the kernel's own node
            scoped.add(name)
    notes = [f"{skipped} Proton node(s) whose count or time (ns) is not a number were passed over"] if skipped else []
    if not totals:
        raise ProfileError(f"--measured {path}: a Proton profile with no kernel (no node has a count and a time "
                           "(ns)); was it recorded on a GPU?")
    kernels = [MeasuredKernel(name=name, calls=int(count), total_us=us, triton_scope=name in scoped)
               for name, (count, us) in totals.items()]
    return MeasuredProfile(source="proton", path=path, kernels=tuple(sorted(kernels, key=lambda k: (-k.total_us,
                                                                                                    k.name))),
                           notes=tuple(notes))


# ---- Nsight Compute -----------------------------------------------------------------------------------------------


def ncu_csv_rows(text: str) -> list[dict[str, str]]:
    """The rows of ncu's ``--csv`` output under its head (``"ID","Process ID",...``): one per (launch, metric) on
    the default page, one per launch with ``--page raw``. Lines that are not quoted CSV (the program's own output,
    ``==PROF==`` lines) and rows whose ID is not a number (``--page raw``'s units row) are passed over."""
    rows = csv.reader(line for line in text.splitlines() if line.startswith('"'))
    header: list[str] | None = None
    found: list[dict[str, str]] = []
    for row in rows:
        if header is None:
            if "Kernel Name" in row:
                header = row
            continue
        if len(row) != len(header) or not row[0].strip().isdigit():
            continue
        found.append(dict(zip(header, row, strict=True)))
    return found


def ncu_number(text: str) -> float | None:
    """A value as ncu prints it (``1,234.5``), None when it is not a number (``n/a``)."""
    try:
        number = float(text.replace(",", ""))
    except ValueError:
        return None
    return number if number == number and abs(number) < 1e30 else None


def _ncu_units(text: str) -> dict[str, str]:
    """``--page raw``'s units row (the row under the head whose ID is empty), column -> unit."""
    lines = [line for line in text.splitlines() if line.startswith('"')]
    reader = csv.reader(lines)
    header: list[str] | None = None
    for row in reader:
        if header is None:
            if "Kernel Name" in row:
                header = row
            continue
        if len(row) == len(header) and not row[0].strip():
            return dict(zip(header, row, strict=True))
        break
    return {}


def _scaled(value: str, unit: str, units: dict[str, float]) -> float | None:
    number = ncu_number(value)
    factor = units.get(unit.strip().lower(), 1.0 if not unit.strip() else None)
    return None if number is None or factor is None else number * factor


def _grid_text(text: str) -> tuple[int, int, int] | None:
    """ncu's ``(1024, 1, 1)``."""
    parts = text.strip().strip("()").split(",")
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        return None
    x, y, z = (int(p) for p in parts)
    return (x, y, z)


def _ncu(text: str, path: str) -> MeasuredProfile:
    try:
        rows = ncu_csv_rows(text)
        units = {} if rows and "Metric Name" in rows[0] else _ncu_units(text)
    except csv.Error as exc:
        raise ProfileError(f"--measured {path}: not CSV as ncu --csv writes it ({exc})") from None
    if not rows:
        raise ProfileError(f"--measured {path}: an ncu CSV without a profiled launch under its head (did ncu "
                           "profile any kernel? ncu --csv prints one row per launch and metric)")
    long_form = "Metric Name" in rows[0] and "Metric Value" in rows[0]
    per_id: dict[str, dict[str, Any]] = {}
    odd: set[str] = set()
    for row in rows:
        launch = per_id.setdefault(row["ID"], {"name": row.get("Kernel Name", ""), "grid": _grid_text(
            row.get("Grid Size", "")), "block": _grid_text(row.get("Block Size", "")), "values": {}})
        pairs = [(row["Metric Name"], row["Metric Value"], row.get("Metric Unit", ""))] if long_form else \
            [(m, row.get(m, ""), units.get(m, "")) for m in (NCU_TIME, *NCU_DRAM) if m in row]
        for metric, value, unit in pairs:
            if metric == NCU_TIME:
                amount = _scaled(value, unit, _TIME_UNITS)
            elif metric in NCU_DRAM:
                amount = _scaled(value, unit, _BYTE_UNITS)
            else:
                continue
            if amount is None:
                odd.add(f"{metric} {value!r} {unit!r}".strip())
                continue
            launch["values"][metric] = amount
    launches = []
    no_time = 0
    for number, launch in enumerate(per_id.values()):
        values = launch["values"]
        if NCU_TIME not in values or not launch["name"]:
            no_time += 1
            continue
        dram = sum(values[m] for m in NCU_DRAM) if all(m in values for m in NCU_DRAM) else None
        launches.append(MeasuredLaunch(name=launch["name"], us=values[NCU_TIME] / 1e3, order=number,
                                       grid=launch["grid"], block=launch["block"], dram_bytes=dram))
    notes = []
    if odd:
        notes.append(f"values ncu printed that are not numbers in a known unit were passed over: "
                     f"{', '.join(sorted(odd)[:3])}" + (f" (+{len(odd) - 3} more)" if len(odd) > 3 else ""))
    if no_time:
        notes.append(f"{no_time} launch(es) without {NCU_TIME} (or a kernel name) were passed over")
    if not launches:
        raise ProfileError(f"--measured {path}: an ncu CSV without {NCU_TIME} for any launch; profile with "
                           f"--metrics {NCU_TIME},{','.join(NCU_DRAM)}")
    return MeasuredProfile(source="ncu", path=path, kernels=_sum(launches), launches=tuple(launches),
                           notes=tuple(notes))
