"""Inside an offline capture: what Triton computes once per process, computed before the first compile.

The compile pool's workers are forked from the program; what the program has already computed, they inherit
instead of each computing it again (``compile_pool``).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any


def import_compile_modules() -> None:
    """Import, in the program's own thread, what Triton imports lazily at its first compile (the code generator) and
    the packages ``triton_key`` walks, so that neither :func:`warm_triton`'s thread nor each worker imports them."""
    import pkgutil

    with contextlib.suppress(Exception):
        import triton
        import triton.compiler.code_generator

        root = Path(triton.__file__).parent
        for sub in ("compiler", "backends", "language"):
            for _ in pkgutil.walk_packages([str(root / sub)], prefix=f"triton.{sub}."):
                pass


def warm_triton(target: Any) -> None:
    """Compute what Triton computes once per process before its first compile, so forked workers inherit it.

    That is ``triton_key`` (it reads and hashes Triton's install, libtriton's hundreds of MB releasing the GIL) and
    the backend's hash and options hash (the tool versions; the hash of libdevice). Run in a thread while the
    program imports its packages; the packages ``triton_key`` walks are imported before, in the program's thread
    (imports in two threads at once can deadlock). A failure here only means the workers compute it themselves.
    """
    with contextlib.suppress(Exception):
        from triton.compiler.compiler import make_backend
        from triton.runtime.cache import triton_key

        triton_key()
        backend = make_backend(target)
        backend.hash()
        backend.parse_options({}).hash()
