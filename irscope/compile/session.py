"""The records of an ``irscope capture`` session, and the autotune config this thread compiles.

Written by the program hook, the autotuner policy and the device stand-in (each record an atomic
JSON file in ``<session>/<kind>/``, the session folder the hook's settings name: ``irscope.compile.records``);
imports nothing else of irscope's.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from irscope.compile.records import LaunchRecord, hook_settings

_STATE = threading.local()
_COUNTER = [0]
_LOCK = threading.Lock()


def session_folder() -> Path:
    """The session folder of the ``irscope capture`` this process runs under."""
    settings = hook_settings()
    if settings is None:
        raise RuntimeError("not inside irscope capture: no capture settings in the environment")
    return Path(settings.session)


def write_record(kind: str, data: dict[str, Any] | LaunchRecord) -> None:
    """Write one record of ``kind`` (records, aliases, failures, tuning, notes) into the session, atomically."""
    folder = session_folder() / kind
    folder.mkdir(parents=True, exist_ok=True)
    with _LOCK:
        _COUNTER[0] += 1
        n = _COUNTER[0]
    name = f"{os.getpid()}-{n:05d}-{os.urandom(4).hex()}.json"  # forked compilers may reuse a pid
    tmp = folder / (name + ".tmp")
    plain = data.to_json() if isinstance(data, LaunchRecord) else data
    tmp.write_text(json.dumps(plain, default=repr), encoding="utf-8")
    os.replace(tmp, folder / name)


def set_config(config: tuple[int, dict[str, Any]] | None, autotune: dict[str, Any] | None) -> None:
    """Name the autotune config (and how the configs were chosen) that the next launches compile."""
    _STATE.config = config
    _STATE.autotune = autotune


def jsonable(value: Any) -> Any:
    """A value as JSON: scalars and lists as they are, anything else as its repr."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return repr(value)


def config_values(config: Any) -> dict[str, Any]:
    """An autotune Config's values as JSON: its kwargs, then num_warps, num_stages, ... that are set."""
    return {k: jsonable(v) for k, v in config.all_kwargs().items()}
