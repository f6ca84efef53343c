"""The NVIDIA tools' runs committed beside the test archives (tests/derived_cache.py) answer every run the tests make,
are what the tools print here, and are read only for the very file and tool they were made from."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from irscope.store.archive import open_archive
from irscope.store.store import Capture, Store
from irscope.toolchain import nvtools
from irscope.toolchain.derived import derived_file
from tests.conftest import DATA
from tests.derived_cache import derived_path, open_with_derived, read_derived

ARCHIVES = [DATA / "perf_foreign" / "fit" / "captures.tar.gz", DATA / "perf_foreign" / "test" / "captures.tar.gz",
            DATA / "program_report" / "captures.tar.gz", DATA / "verify_foreign" / "captures.tar.gz"]
RUNS = (nvtools.sass_dump, nvtools.sass_with_lines, nvtools.sass_with_ptx_lines, nvtools.resource_usage,
        nvtools.ptxas_verbose)


def _no_tools(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError(f"a tool ran: {args[0] if args else kwargs}")


def _timeless(text: str) -> str:
    """ptxas -v's log without its line ``Compile time = 106.974 ms``, the one thing that differs run to run."""
    return "\n".join(line for line in text.splitlines() if not re.search(r"Compile time = [\d.]+ ms", line))


def _cuda(captures: list[Capture]) -> list[Capture]:
    return sorted((c for c in captures if c.manifest.backend == "cuda"), key=lambda c: c.manifest.key)


def _with_cubin(captures: list[Capture]) -> list[Capture]:
    return [c for c in captures if "cubin" in c.manifest.files]


@pytest.mark.parametrize("archive", ARCHIVES, ids=lambda p: p.parent.relative_to(DATA).as_posix())
def test_every_tool_run_is_answered_from_the_committed_file(archive: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    assert derived_path(archive).is_file(), f"{derived_path(archive)}: python -m tests.derived_cache {archive}"
    store = Store(tmp_path / "store")
    captures = _cuda(open_with_derived(archive, store).added)
    monkeypatch.setattr(nvtools.subprocess, "run", _no_tools)
    answered = set()
    for capture in captures:
        for run in RUNS:
            done = run(capture)
            if done.cached:
                assert done.ok, (capture.manifest.key, done.name, done.stderr)
                answered.add(capture.manifest.key)
            else:  # only a run that has no input (a capture kept without its cubin) runs no tool and is not cached
                assert re.fullmatch(rf"capture {capture.manifest.key} has no \w+ file", done.problem), \
                    (capture.manifest.key, done.name, done.problem)
    assert answered and answered == set(read_derived(archive))


def test_the_committed_runs_are_what_the_tools_print_here(tmp_path: Path) -> None:
    # a sample: each archive's smallest NVIDIA capture with a cubin, every tool run afresh in a store opened without
    # the file (verify_foreign's NVIDIA captures keep no cubin: only ptxas runs there, on their PTX)
    sampled = 0
    for archive in ARCHIVES:
        committed = read_derived(archive)
        captures = _with_cubin(_cuda(open_archive(archive, Store(tmp_path / archive.parent.name)).added))
        if not captures:
            continue
        sampled += 1
        capture = min(captures, key=lambda c: (c.path / c.manifest.files["cubin"]).stat().st_size)
        for run in RUNS:
            shutil.rmtree(capture.path / "derived", ignore_errors=True)  # the lined listings share one disassembly
            fresh = run(capture)
            assert not fresh.cached
            saved = json.loads(committed[capture.manifest.key][f"{fresh.name}.json"])
            assert (saved["stdout"], _timeless(saved["stderr"]), saved["returncode"], saved["reproduces"]) == \
                (fresh.stdout, _timeless(fresh.stderr), fresh.returncode, fresh.reproduces), \
                (capture.manifest.key, fresh.name)
    assert sampled == 3


def test_a_run_made_from_another_file_or_tool_is_not_read(tmp_path: Path) -> None:
    archive = DATA / "program_report" / "captures.tar.gz"
    store = Store(tmp_path / "store")
    capture = _with_cubin(_cuda(open_with_derived(archive, store).added))[0]
    cached = derived_file(capture.path, "resource-usage.json")
    saved = json.loads(cached.read_text())
    assert nvtools.resource_usage(capture).cached
    sha, tool, size, args = saved["input_sha256"].split(":", 3)
    for other in (f"{'0' * 64}:{tool}:{size}:{args}", f"{sha}:{tool}:{int(size) + 1}:{args}"):
        cached.write_text(json.dumps({**saved, "input_sha256": other, "stdout": "made up"}))
        again = nvtools.resource_usage(capture)
        assert not again.cached and again.stdout == saved["stdout"] and again.returncode == 0  # run: its own output
