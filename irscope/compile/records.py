"""What crosses the process boundary of ``irscope capture``: the hook's settings and the launch records.

``irscope capture`` starts the program with one environment variable, :data:`SETTINGS_ENV`, holding
:class:`HookSettings` as JSON; every Python process the program starts inherits it, and the sitecustomize
shim installs the recording hook where it is set. Each compile the hook sees (in the program, or in a forked
compile worker that may outlive it) becomes a :class:`LaunchRecord`, an atomic JSON file in the session that
the parent reads back. Both carry a version: one of another version (written by another irscope) is refused
with one line, :class:`RecordRefused`. Imports nothing of irscope's: the hook loads it in every process the
program starts.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from typing import Any

SETTINGS_ENV = "IRSCOPE_CAPTURE"
SETTINGS_VERSION = 1
RECORD_VERSION = 1


class RecordRefused(ValueError):
    """Settings or a record that cannot be read: of another version, or a field of the wrong type (the message)."""


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", int: "an integer", float: "a number",
             bool: "a boolean"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(what: str, data: dict[str, Any], name: str, ok: bool, need: str, inside: str = "") -> None:
    """RecordRefused naming the field (``target.arch`` for one ``inside`` target) unless ``ok``."""
    if not ok:
        raise RecordRefused(f"{what}: field {inside + name!r} must be {need}, not {_kind(data.get(name))}")


def _version(what: str, data: object, version: int) -> dict[str, Any]:
    """``data`` as an object of this ``version``, else RecordRefused."""
    if not isinstance(data, dict):
        raise RecordRefused(f"{what} holds {_kind(data)}, not an object")
    found = data.get("version")
    if found != version:
        said = f"of version {found}" if _int(found) else "of no version"
        raise RecordRefused(f"{what} is {said}; this irscope reads version {version} (written by another irscope?)")
    return data


@dataclass(frozen=True)
class GpuTarget:
    """A Triton ``GPUTarget`` as plain data.

    Attributes:
        backend: ``cuda`` or ``hip``.
        arch: an int for CUDA (90), a gfx name for HIP.
        warp_size: threads per warp.
    """

    backend: str
    arch: int | str
    warp_size: int

    @classmethod
    def from_json(cls, what: str, data: object) -> GpuTarget:
        """Read ``{"backend", "arch", "warp_size"}``; RecordRefused naming the field that is wrong."""
        if not isinstance(data, dict):
            raise RecordRefused(f"{what}: its target holds {_kind(data)}, not an object")
        _check(what, data, "backend", isinstance(data.get("backend"), str), "a string", "target.")
        _check(what, data, "arch", _int(data.get("arch")) or isinstance(data.get("arch"), str),
               "an integer or a string", "target.")
        _check(what, data, "warp_size", _int(data.get("warp_size")), "an integer", "target.")
        return cls(backend=data["backend"], arch=data["arch"], warp_size=data["warp_size"])


@dataclass(frozen=True)
class OfflineTarget(GpuTarget):
    """The target an offline capture compiles for, and the GPU whose answers the program's device queries get.

    Attributes:
        gpu: a name in ``irscope.model.gpus`` (``h200``), or None for the target's usual GPU.
    """

    gpu: str | None = None


@dataclass(frozen=True)
class HookSettings:
    """What ``irscope capture`` tells the hook in every process of the program (:data:`SETTINGS_ENV`, as JSON).

    Attributes:
        session: the session folder the records are written into.
        target: offline, what to compile for (a stand-in driver answers as its GPU); None: the program runs on
            the local GPU.
        autotune: offline, which configs of each autotuner are compiled (``pruned``, ``first``, ``all``).
        jobs: offline, how many compiles run at once (``-j``).
        same_code: offline, whether a compile whose TTGIR another compile made stops after TTGIR.
        version: the settings' format.
    """

    session: str
    target: OfflineTarget | None = None
    autotune: str = "pruned"
    jobs: int = 1
    same_code: bool = True
    version: int = SETTINGS_VERSION

    def to_env(self) -> str:
        """The JSON the environment variable holds."""
        data: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        target = self.target
        data["target"] = None if target is None else {f.name: getattr(target, f.name) for f in fields(target)}
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_env(cls, text: str) -> HookSettings:
        """Read :meth:`to_env`'s JSON; RecordRefused when it is not JSON, of another version or a field is wrong."""
        what = f"the capture settings record (${SETTINGS_ENV})"
        try:
            parsed = json.loads(text)
        except ValueError as exc:
            raise RecordRefused(f"{what} is not JSON ({exc})") from None
        data = _version(what, parsed, SETTINGS_VERSION)
        _check(what, data, "session", isinstance(data.get("session"), str) and bool(data["session"]), "a folder")
        _check(what, data, "autotune", isinstance(data.get("autotune", "pruned"), str), "a string")
        _check(what, data, "jobs", _int(data.get("jobs", 1)) and data.get("jobs", 1) >= 1, "an integer >= 1")
        _check(what, data, "same_code", isinstance(data.get("same_code", True), bool), "a boolean")
        target = data.get("target")
        offline = None
        if target is not None:
            base = GpuTarget.from_json(what, target)
            gpu = target.get("gpu")
            _check(what, target, "gpu", gpu is None or isinstance(gpu, str), "a GPU name or null", "target.")
            offline = OfflineTarget(backend=base.backend, arch=base.arch, warp_size=base.warp_size, gpu=gpu)
        return cls(session=data["session"], target=offline, autotune=data.get("autotune", "pruned"),
                   jobs=data.get("jobs", 1), same_code=data.get("same_code", True))


_READ: list[tuple[str, HookSettings]] = []  # the settings read from the environment, and the text they came from


def hook_settings() -> HookSettings | None:
    """This process's capture settings, or None outside ``irscope capture``; RecordRefused when unreadable."""
    text = os.environ.get(SETTINGS_ENV, "")
    if not text:
        return None
    if not _READ or _READ[0][0] != text:
        _READ[:] = [(text, HookSettings.from_env(text))]
    return _READ[0][1]


@dataclass(frozen=True)
class SameCodeNote:
    """A compile stopped after TTGIR because another compile of the session made the same TTGIR.

    Attributes:
        owner: the Triton hash of the compile that made it first (whose later stages this one shares).
        key: the code key both claimed (``same_code.code_key``).
        ttgir: the file in the session holding this compile's TTGIR text.
    """

    owner: str
    key: str
    ttgir: str


# Each LaunchRecord field's JSON type, as read back: (test, what it must be).
_STRING = (lambda v: isinstance(v, str), "a string")
_OBJECT = (lambda v: isinstance(v, dict), "an object")
_BOOL = (lambda v: isinstance(v, bool), "a boolean")
_RECORD_FIELDS: dict[str, tuple[Any, str]] = {
    **dict.fromkeys(("name", "hash", "qualname", "source_file", "kept_source", "triton_version", "dump_dir",
                     "launch_key"),
                    _STRING),
    **dict.fromkeys(("config", "constexprs", "attrs", "metadata", "replay", "autotune"), _OBJECT),
    "config_index": (lambda v: v is None or (_int(v) and v >= 0), "an integer >= 0 or null"),
    "signature": (lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values()),
                  "an object of strings"),
    "files": (lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values()),
              "an object of file paths"),
    "stage_seconds": (lambda v: isinstance(v, dict) and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                            for x in v.values()), "an object of numbers"),
    "cache_hit": _BOOL,
    "offline": _BOOL,
}


@dataclass(frozen=True)
class LaunchRecord:
    """One compile the hook saw in the program (or in one of its compile workers), as the parent stores it.

    Attributes:
        name: the kernel's name (Triton's metadata ``name``).
        hash: Triton's hash of the compile (sha256 hex); the capture is keyed by it.
        target: what it was compiled for, or None when Triton's metadata named no target.
        config_index / config: which autotune config it is and its values, or None / empty.
        qualname / source_file: the JIT function's qualified name and the file that defines it.
        kept_source: a copy of that file in the session (Inductor's generated files may vanish), or empty.
        triton_version: the Triton that compiled it.
        signature / constexprs / attrs: the specialization, by argument name.
        metadata: Triton's metadata (JSON values; the target left out).
        files: artifact file name -> its path in Triton's (redirected) cache.
        dump_dir: Triton's dump folder of this compile, or empty.
        stage_seconds: seconds per stage, as Triton's listener timed them.
        cache_hit: whether Triton found it in its cache.
        replay: what rebuilds the exact ASTSource (module, file, signature, typed constants, attrs, options).
        offline: whether it was compiled under a stand-in driver (``--target``).
        autotune: how its autotuner's configs were chosen (``ConfigChoice.as_record``), or empty.
        same_code: for a compile stopped after TTGIR, whose TTGIR it equals; else None.
        launch_key: offline, the key of the launch specialization it compiled (``launch_notes.spec_key``), or empty.
        version: the record's format.
    """

    name: str
    hash: str
    target: GpuTarget | None
    config_index: int | None = None
    config: dict[str, Any] = field(default_factory=dict)
    qualname: str = ""
    source_file: str = ""
    kept_source: str = ""
    triton_version: str = ""
    signature: dict[str, str] = field(default_factory=dict)
    constexprs: dict[str, Any] = field(default_factory=dict)
    attrs: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    dump_dir: str = ""
    stage_seconds: dict[str, float] = field(default_factory=dict)
    cache_hit: bool = False
    replay: dict[str, Any] = field(default_factory=dict)
    offline: bool = False
    autotune: dict[str, Any] = field(default_factory=dict)
    same_code: SameCodeNote | None = None
    launch_key: str = ""
    version: int = RECORD_VERSION

    def to_json(self) -> dict[str, Any]:
        """The record as the JSON object written into the session (``same_code`` only where set)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["target"] = {} if self.target is None else {f.name: getattr(self.target, f.name)
                                                         for f in fields(self.target)}
        if self.same_code is None:
            del data["same_code"]
        else:
            data["same_code"] = {f.name: getattr(self.same_code, f.name) for f in fields(self.same_code)}
        return data

    @classmethod
    def from_json(cls, data: object) -> LaunchRecord:
        """Read :meth:`to_json`'s object; RecordRefused for another version or a field of the wrong type."""
        what = "the launch record"
        data = _version(what, data, RECORD_VERSION)
        values: dict[str, Any] = {}
        for name, (ok, need) in _RECORD_FIELDS.items():
            if name in data:
                _check(what, data, name, ok(data[name]), need)
                values[name] = data[name]
        for name in ("name", "hash"):
            _check(what, data, name, name in data, "a string")
        target = data.get("target")
        values["target"] = GpuTarget.from_json(what, target) if target else None
        same = data.get("same_code")
        if same is not None:
            _check(what, data, "same_code", isinstance(same, dict) and all(
                isinstance(same.get(k), str) for k in ("owner", "key", "ttgir")), "an {owner, key, ttgir} object")
            values["same_code"] = SameCodeNote(owner=same["owner"], key=same["key"], ttgir=same["ttgir"])
        return cls(**values)
