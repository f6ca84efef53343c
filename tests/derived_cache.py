"""What the NVIDIA tools print about the committed archives' captures, committed beside each archive.

The suite opens several archives of real captures (tests/data/perf_foreign/{fit,test}, tests/data/program_report,
tests/data/verify_foreign) into fresh stores, and the performance model, the resources and the SASS readers run
Triton's bundled cuobjdump, nvdisasm and ptxas on each capture (ptxas up to four times a capture, looking for the
options that reproduce its cubin): most of those tests' time. ``open_with_derived`` opens an archive and writes
into each capture's ``derived/`` what those runs printed, from ``<archive>.derived.json.xz`` beside it, in the
cache format of irscope.toolchain.nvtools. Nothing there is believed blindly: each entry is read only when the
sha256 of the capture's file it was made from, the tool's name, size and arguments are those of this run (another
Triton's tools run again); ``test_derived_cache.py`` checks that every run the tests make is answered from it, and
that the tools, run again here on a sample, print what it holds.

``python -m tests.derived_cache [--reuse] ARCHIVE...`` writes the file again (after a capture or Triton changes);
``IRSCOPE_TESTS_FRESH_TOOLS=1`` in the environment leaves it unread (every tool runs, as before it was committed).
"""

from __future__ import annotations

import json
import lzma
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from irscope.store.archive import OpenReport, open_archive
from irscope.store.store import Capture, Store
from irscope.toolchain.derived import DERIVED, write_derived

FORMAT = 1


def derived_path(archive: Path) -> Path:
    """``captures.tar.gz`` -> ``captures.derived.json.xz`` beside it (xz: half gzip's size on this text)."""
    return archive.with_name(archive.name.removesuffix(".tar.gz") + ".derived.json.xz")


def read_derived(archive: Path) -> dict[str, dict[str, str]]:
    """The committed tool runs: capture key -> derived file name -> its text (empty when none is committed)."""
    path = derived_path(archive)
    if not path.is_file():
        return {}
    data = json.loads(lzma.decompress(path.read_bytes()))
    assert data.get("format") == FORMAT, f"{path}: format {data.get('format')}, expected {FORMAT}"
    return data["captures"]


def open_with_derived(archive: Path, store: Store) -> OpenReport:
    """``open_archive(archive, store)``, then each added capture's committed tool runs written into its ``derived/``."""
    report = open_archive(archive, store)
    runs = {} if os.environ.get("IRSCOPE_TESTS_FRESH_TOOLS") == "1" else read_derived(archive)
    for capture in report.added:
        for name, text in runs.get(capture.manifest.key, {}).items():
            write_derived(capture.path, name, text)
    return report


def tool_runs(capture: Capture) -> dict[str, str]:
    """Every NVIDIA tool's run irscope reads about the capture (run now, or read from its cache): file name -> text."""
    from irscope.toolchain import nvtools

    if capture.manifest.backend != "cuda":
        return {}
    for run in (nvtools.sass_dump, nvtools.sass_with_lines, nvtools.sass_with_ptx_lines, nvtools.resource_usage,
                nvtools.ptxas_verbose):
        run(capture)
    folder = capture.path / DERIVED
    out: dict[str, str] = {}
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        text = path.read_text(encoding="utf-8")
        data: Any = json.loads(text)
        if isinstance(data, dict) and "input_sha256" in data:  # nvtools' runs, not the launch cache
            out[path.name] = text
    return out


def write(archive: Path, reuse: bool = False) -> Path:
    """Run the tools on every capture of ``archive`` and write ``<archive>.derived.json.xz``; ``reuse``: keep the
    file's runs that still hold (same file, same tool) and run only the missing ones (one that timed out)."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "store")
        # without reuse every run is made afresh: none is left from an older file
        added = (open_with_derived if reuse else open_archive)(archive, store).added
        runs = {c.manifest.key: tool_runs(c) for c in sorted(added, key=lambda c: c.manifest.key)}
    out = derived_path(archive)
    blob = json.dumps({"format": FORMAT, "about": f"NVIDIA tool runs on {archive.name}'s captures "
                       "(tests/derived_cache.py)", "captures": {k: v for k, v in runs.items() if v}},
                      sort_keys=True).encode()
    out.write_bytes(lzma.compress(blob, preset=9))
    return out


if __name__ == "__main__":
    names = [a for a in sys.argv[1:] if a != "--reuse"]
    for name in names:
        print(write(Path(name), reuse="--reuse" in sys.argv))
