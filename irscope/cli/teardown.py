"""What Triton prints while the interpreter tears down goes to a log in the store, not to the terminal.

After some Gluon kernels are compiled in the process (the suite's ``transpose_kernel``: a 2-D blocked layout
sliced and converted), Triton's nanobind bindings report the objects still alive when the interpreter frees
its modules: ``nanobind: leaked 4 instances! ... leaked 326 functions!``, about 50 lines after irscope's last
line. A plain ``triton.compile`` of the same kernel, without irscope, prints the same (Triton 3.9.0): the
report is about Triton's bindings, not the user's kernel. Python runs ``atexit`` handlers before it frees
modules, so :func:`install` registers one that, when Triton's native module was loaded, points stderr at
``teardown.log``; a command's own output, its errors included, is all written by then.
"""

from __future__ import annotations

import atexit
import os
import sys
from pathlib import Path

LOG_NAME = "teardown.log"
_KEEP = 1 << 20  # a log over 1 MiB starts again


def send_teardown_to(path: Path) -> None:
    """Point file descriptor 2 at ``path`` (appended) if Triton's native module is loaded; else leave it."""
    if "triton._C.libtriton" not in sys.modules:
        return
    try:
        sys.stderr.flush()
        path.parent.mkdir(parents=True, exist_ok=True)
        restart = path.exists() and path.stat().st_size > _KEEP
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if restart else os.O_APPEND), 0o644)
        os.write(fd, f"--- pid {os.getpid()}: {' '.join(sys.argv)}\n".encode(errors="backslashreplace"))
        os.dup2(fd, 2)
        os.close(fd)
    except (OSError, ValueError):
        return


_STORE: list[str] = []  # the --store a command was given, if any (set while its options are read)


def remember_store(value: str) -> None:
    """The ``--store`` of this command: the teardown log goes into that store."""
    _STORE[:] = [value]


def _at_exit() -> None:
    from irscope.model.paths import store_root

    send_teardown_to(store_root(_STORE[0] if _STORE else None) / LOG_NAME)


def install() -> None:
    """At exit, send Triton's teardown messages to the store's ``teardown.log`` (registered first, so run last)."""
    atexit.register(_at_exit)
