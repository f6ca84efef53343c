"""Session fixtures for the pass tests: real per-pass dumps of every bundled kernel on sm90, sm80
and gfx942, each compiled once (the artifact captures come from conftest's shared store)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from irscope.compile.passes import capture_passes
from irscope.request.captures import Request
from irscope.store.passdump import PassDump, load_dump
from irscope.store.store import Capture

KERNELS = ("vector_add", "softmax", "matmul")
TARGETS = ("sm90", "sm80", "gfx942")


class PassDumps:
    """``pass_dumps("matmul", "sm90")`` -> the stored per-pass dump of that capture."""

    def __init__(self, captures: object, store: Path) -> None:
        self.captures = captures
        self.store = store
        self._found: dict[tuple[str, str], PassDump] = {}

    def pair(self, kernel: str, target: str) -> tuple[Request, Capture]:
        """The request and artifact capture."""
        request = self.captures.request(kernel, target)  # type: ignore[attr-defined]
        return request, self.captures(kernel, target)  # type: ignore[operator]

    def prefetch(self, pairs: list[tuple[str, str]]) -> None:
        """Compile the artifact captures in this process one by one, and each one's per-pass dump in a
        child process as soon as its capture exists (two at a time)."""
        made: list[tuple[str, str, Capture]] = []
        with ThreadPoolExecutor(max_workers=2) as pool:
            pending = []
            for kernel, target in pairs:
                if (kernel, target) in self._found:
                    continue
                request, capture = self.pair(kernel, target)
                made.append((kernel, target, capture))
                if load_dump(capture.path) is None:
                    pending.append(pool.submit(capture_passes, request, capture))
            for future in pending:
                future.result()
        for kernel, target, capture in made:
            found = load_dump(capture.path)
            assert found is not None, f"no pass dump for {kernel}@{target}"
            self._found[kernel, target] = found

    def __call__(self, kernel: str, target: str) -> PassDump:
        if (kernel, target) not in self._found:
            self.prefetch([(kernel, target)])
        return self._found[kernel, target]


@pytest.fixture(scope="session", name="pass_dumps")
def pass_dumps_fixture(captures: object, shared_store: Path) -> PassDumps:
    """Every bundled kernel's per-pass dump on sm90, sm80 and gfx942, compiled once per session."""
    dumps = PassDumps(captures, shared_store)
    dumps.prefetch([(k, t) for k in KERNELS for t in TARGETS])
    return dumps
