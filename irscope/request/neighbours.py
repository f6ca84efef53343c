"""Answers before questions: compile a capture's likely what-if variants in the background.

While someone reads a capture, the variants they are most likely to try next are its neighbours:
``num_stages`` one up and one down, ``num_warps`` doubled and halved, and each block-size
constexpr one power of two up and down. ``precompile`` compiles them one at a time, in a process
of its own at the lowest priority (one core at most), and stops when the machine is busy, when it
runs on battery, or when ``IRSCOPE_PRECOMPILE=0`` (``always``: regardless of load and battery).
Opening a neighbour is then a store hit. The TUI starts it for each capture it opens.

Run it as ``python -m irscope.request.neighbours --store DIR JOB.json``; JOB is a plain-data job
(irscope.request.factsfile.Job) for the base capture.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from irscope.errors import UsageError
from irscope.request.settings import BLOCK_NAME, MAX_NUMEL, check_settings

ENV_SWITCH = "IRSCOPE_PRECOMPILE"
_MIN_BLOCK = 16  # tl.dot's smallest operand dimension; smaller tiles are rarely what anyone tries next


def neighbours(settable: dict[str, Any], backend: str) -> list[dict[str, Any]]:
    """The settings of each neighbour of a config whose settable values are ``settable``; invalid ones left out."""
    out: list[dict[str, Any]] = []

    def add(name: str, value: Any) -> None:
        candidate = {name: value}
        try:
            check_settings(candidate, settable, backend)
        except UsageError:  # a neighbour Triton would refuse is simply not a neighbour
            return
        out.append(candidate)

    stages = settable.get("num_stages")
    if isinstance(stages, int) and not isinstance(stages, bool):
        for value in (stages + 1, stages - 1):
            if value >= 1:
                add("num_stages", value)
    warps = settable.get("num_warps")
    if isinstance(warps, int) and not isinstance(warps, bool):
        add("num_warps", warps * 2)
        if warps > 1:
            add("num_warps", warps // 2)
    for name, value in settable.items():
        if isinstance(value, int) and not isinstance(value, bool) and BLOCK_NAME.search(name) \
                and value > 0 and value & (value - 1) == 0:
            if value * 2 <= MAX_NUMEL:
                add(name, value * 2)
            if value // 2 >= _MIN_BLOCK:
                add(name, value // 2)
    return out


def enabled() -> bool:
    """Whether background compiles are allowed (``IRSCOPE_PRECOMPILE=0`` turns them off)."""
    return os.environ.get(ENV_SWITCH, "1").strip().lower() not in ("0", "false", "no", "off")


def on_battery(power: Path = Path("/sys/class/power_supply")) -> bool:
    """Whether this machine runs on battery (a battery is present and no mains supply is online)."""
    try:
        supplies = list(power.iterdir())
    except OSError:
        return False
    batteries, mains_online = False, False
    for supply in supplies:
        try:
            kind = (supply / "type").read_text().strip()
            if kind == "Battery":
                batteries = True
            elif kind in ("Mains", "USB") and (supply / "online").read_text().strip() == "1":
                mains_online = True
        except OSError:
            continue
    return batteries and not mains_online


def busy(load: Callable[[], tuple[float, float, float]] = os.getloadavg, cores: int | None = None) -> bool:
    """Whether the machine is busy: the last minute's load leaves less than one core idle."""
    if cores is None:
        try:
            cores = len(os.sched_getaffinity(0))
        except AttributeError:
            cores = os.cpu_count() or 1
    try:
        return load()[0] > max(cores - 1, 0) + 0.5
    except OSError:
        return False


def why_not() -> str:
    """Why background compiles should not run now ('' when they may; ``IRSCOPE_PRECOMPILE=always`` ignores load
    and battery)."""
    if not enabled():
        return f"{ENV_SWITCH}=0"
    if os.environ.get(ENV_SWITCH, "").strip().lower() == "always":
        return ""
    if on_battery():
        return "on battery"
    if busy():
        return "the machine is busy"
    return ""


def lowest_priority() -> None:
    """Make this process as polite as the OS allows: nice 19 and, on Linux, the idle scheduling class."""
    with contextlib.suppress(OSError):
        os.nice(19)
    sched_idle = getattr(os, "SCHED_IDLE", None)
    if sched_idle is not None:
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, sched_idle, os.sched_param(0))
    with contextlib.suppress(AttributeError, OSError, ValueError):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core at most


def neighbour_jobs(job: dict[str, Any], store: Path) -> list[dict[str, Any]]:
    """The jobs of a base job's neighbours (the base's settings kept, each neighbour's added)."""
    from irscope.model.paths import store_root
    from irscope.request.captures import get_capture, make_request, request_for
    from irscope.request.factsfile import launch_spec
    from irscope.request.kinds import kind_of
    from irscope.request.settings import parse_settings, settable

    launch = launch_spec(job.get("launch", {}))
    request = make_request(job["kernel"], job["target"], int(job.get("config", 0)), launch=launch,
                           store_dir=str(store_root(store)))
    base = get_capture(request, str(store))
    if kind_of(request.kernel).stored is not None:  # named by its key: vary what the capture was made from
        request = request_for(base)
    have = parse_settings(launch.settings)
    out = []
    for extra in neighbours(settable(request, base), request.target.backend):
        settings = {**have, **extra}
        items = [f"{k}={v}" for k, v in settings.items()]
        out.append({**job, "launch": {**job.get("launch", {}), "settings": items}})
    return out


def precompile(job: dict[str, Any], store: Path, say: Callable[[str], None] = lambda text: None,
               pause: float = 5.0, give_up: float = 120.0, why: Callable[[], str] | None = None,
               made_one: Callable[[dict[str, Any]], None] = lambda result: None) -> int:
    """Compile the neighbours of ``job`` into ``store``, one at a time; return how many were compiled.

    ``made_one`` gets each neighbour's ``run_job`` result (its key and facts), so that whoever started the
    compiles can hold the facts ready.
    """
    from irscope.request.factsfile import run_job

    made = 0
    for neighbour in neighbour_jobs(job, store):
        waited = 0.0
        while (reason := (why or why_not)()):
            if reason != "the machine is busy" or waited >= give_up:
                say(f"stopped: {reason}")
                return made
            time.sleep(pause)
            waited += pause
        result = run_job(neighbour, str(store), None, facts=True)  # facts too: their ptxas runs are cached
        label = ", ".join(neighbour["launch"]["settings"])
        say(f"{'failed' if 'error' in result else 'compiled'} {label}" + (f": {result['error']}"
                                                                          if "error" in result else ""))
        if "error" not in result:
            made += 1
            made_one(result)
    return made


def main(argv: list[str] | None = None) -> int:
    """``python -m irscope.request.neighbours --store DIR JOB_JSON``: precompile the neighbours.

    It prints a line of text per variant, and after each one compiled a JSON line ``{"made": RESULT}``
    (``irscope.request.factsfile.run_job``'s result: key, label, facts, unread), which the TUI reads to hold the
    facts ready.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 3 or args[0] != "--store":
        sys.stderr.write("usage: python -m irscope.request.neighbours --store DIR JOB_JSON\n")
        return 2
    lowest_priority()
    job = json.loads(args[2])
    count = precompile(job, Path(args[1]), lambda text: print(text, flush=True),
                       made_one=lambda result: print(json.dumps({"made": result}), flush=True))
    print(f"done: {count} neighbours compiled", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
