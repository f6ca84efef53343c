"""A capture's ``derived/`` folder (what was made from its files, kept beside them); what the makers need of a capture.

The store keeps the files Triton wrote and reads nothing else. What irscope makes from them with a tool
is cached under ``captures/<key>/derived/`` (beside the manifest): the NVIDIA tools' output
(irscope.toolchain.nvtools, which also makes the SASS text of irscope.toolchain.sass_lazy) and a bundled
kernel's launch (irscope.request.launch_cache). Each file is written under a temporary name and renamed;
a read-only store just means nothing is cached.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Protocol

DERIVED = "derived"


class StoredCapture(Protocol):
    """What the toolchain needs of a stored capture (irscope.store.store.Capture), which it must not import.

    Its directory and manifest, the text of a stage it keeps a file for, and the checked path of one of its files.
    """

    @property
    def path(self) -> Path: ...

    @property
    def manifest(self) -> Any: ...

    def read(self, stage: Any) -> str:
        """The text of a stage the capture keeps a file for."""
        ...

    def artifact_path(self, name: str) -> Path:
        """The file holding an artifact (a stage, the cubin), its size checked against the manifest."""
        ...


def derived_file(capture_dir: Path, name: str) -> Path:
    """Where something made from a capture is cached: ``<capture>/derived/<name>``."""
    return capture_dir / DERIVED / name


def write_derived(capture_dir: Path, name: str, text: str) -> bool:
    """Cache ``text`` as ``derived/<name>`` (temporary name, then renamed); False when the store is read-only."""
    path = derived_file(capture_dir, name)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(3).hex()}.tmp")
    try:
        path.parent.mkdir(exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        return False
    return True
