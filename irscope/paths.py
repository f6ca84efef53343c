"""Where irscope keeps its files."""

from __future__ import annotations

import os
from pathlib import Path


def store_root(override: str | os.PathLike[str] | None = None) -> Path:
    """The store directory: the override, else IRSCOPE_HOME, else the user cache dir.

    Always absolute: capture paths travel to child processes (per-pass and timing compiles run in a
    temporary working directory, programs under ``irscope capture`` may change theirs).
    """
    if override:
        return Path(override).expanduser().absolute()
    env = os.environ.get("IRSCOPE_HOME")
    if env:
        return Path(env).expanduser().absolute()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("irscope"))
