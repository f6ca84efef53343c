"""Where irscope keeps its files."""

from __future__ import annotations

import os
from pathlib import Path


def store_root(override: str | os.PathLike[str] | None = None) -> Path:
    """The store directory: the override, else IRSCOPE_HOME, else the user cache dir."""
    if override:
        return Path(override).expanduser()
    env = os.environ.get("IRSCOPE_HOME")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("irscope"))
