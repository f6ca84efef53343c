"""What each manifest field must hold, checked where a manifest is read (irscope writes them; archives and
damaged stores are someone else's), and the grammar of capture keys and stored file names."""

from __future__ import annotations

import re
from typing import Any

# Example: matmul-sm90-c0-6e2b0226839ff92ca38a (kernel module) or add_kernel-sm80-c0-p-0123456789abcdef0123 (program;
# an older irscope wrote add_kernel-sm80-p-0123456789abcdef0123). The name is at most 60 characters.
KEY_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,59}-[A-Za-z0-9_.+]+-(?:c[0-9]+(?:-p)?|p)-[0-9a-f]{20}$")
# Example: matmul_kernel.ttgir (a file directly inside its capture directory)
FILE_NAME_RE = re.compile(r"^[A-Za-z0-9_+-][A-Za-z0-9_.+-]{0,199}$")


def json_type(value: object) -> str:
    """A JSON value's type in words (``a list``, ``null``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    names = {dict: "an object", list: "a list", str: "a string", int: "an integer", float: "a number"}
    return names.get(type(value), type(value).__name__)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _need(ok: bool, what: str, value: object) -> str:
    return "" if ok else f"must be {what}, not {json_type(value)}"


def _mapping(value: object, what: str, item_ok: Any) -> str:
    """'' when ``value`` is an object whose values all pass ``item_ok``, else what is wrong."""
    if not isinstance(value, dict):
        return _need(False, f"an object of {what}", value)
    for k, v in value.items():
        if not item_ok(v):
            return f"must map names to {what}; {k!r} holds {json_type(v)}"
    return ""


def _check_files(value: object) -> str:
    problem = _mapping(value, "file names", lambda v: isinstance(v, str))
    if problem or not isinstance(value, dict):
        return problem
    for stage, name in value.items():
        if not FILE_NAME_RE.match(name):
            return f"names {name!r} for {stage!r}: only a plain file name inside the capture is allowed"
    return ""


def _check_checksums(value: object) -> str:
    problem = _mapping(value, "{size, sha256} objects", lambda v: isinstance(v, dict))
    if problem or not isinstance(value, dict):
        return problem
    for name, entry in value.items():
        if not (_is_int(entry.get("size")) and entry["size"] >= 0 and isinstance(entry.get("sha256"), str)):
            return f"entry {name!r} must hold an integer size and a sha256 string"
    return ""


def _string(v: object) -> str:
    return _need(isinstance(v, str), "a string", v)


def _object(v: object) -> str:
    return _need(isinstance(v, dict), "an object", v)


# Each manifest field's check: '' when the value is well-typed, else what is wrong with it.
FIELD_CHECKS: dict[str, Any] = {
    **{name: _string for name in ("key", "kernel", "kernel_path", "function", "dtype", "target", "backend",
                                  "triton_version", "created", "origin", "arguments", "program")},
    **{name: _object for name in ("config", "constexprs", "attrs", "options", "metadata", "replay", "settings",
                                  "autotune")},
    "config_index": lambda v: _need(_is_int(v) and v >= 0, "an integer >= 0", v),
    "warp_size": lambda v: _need(_is_int(v) and v > 0, "a positive integer", v),
    "format": lambda v: _need(_is_int(v), "an integer", v),
    "arch": lambda v: _need(_is_int(v) or isinstance(v, str), "an integer or a string", v),
    "compile_seconds": lambda v: _need(_is_number(v), "a number", v),
    "sizes": lambda v: _mapping(v, "integers", _is_int),
    "signature": lambda v: _mapping(v, "strings", lambda x: isinstance(x, str)),
    "stage_seconds": lambda v: _mapping(v, "numbers", _is_number),
    "files": _check_files,
    "same_code_as": lambda v: _need(isinstance(v, str) and (v == "" or bool(KEY_RE.match(v))),
                                    "a capture key or empty", v),
    "checksums": _check_checksums,
}
