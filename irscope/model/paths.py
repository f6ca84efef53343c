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


def require_writable(root: Path) -> Path:
    """Create the store directory if needed; raise StoreError (one line) when it cannot hold captures."""
    import os

    from irscope.errors import StoreError

    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"the store {root} cannot be created: {exc.strerror}") from None
    if not root.is_dir():
        raise StoreError(f"the store {root} is not a directory: use --store DIR")
    if not os.access(root, os.W_OK | os.X_OK):
        raise StoreError(f"the store is read-only: use --store DIR ({root} cannot be written)")
    return root
