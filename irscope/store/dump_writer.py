"""Sections of a per-pass dump compressed and written by a thread of their own, in order.

The parent of a per-pass compile reads what the worker prints, cuts it into sections and stores
each as one gzip member. Compressing in the reading thread made the parent the slower end of the
pipe on an LLVM dump (210 MB for matmul): the worker waited for it. zlib lets go of the GIL while it
deflates, so here one thread compresses and writes while the reading thread cuts the next sections;
members, offsets and index rows are those the sequential writer made (a test compares the files).
"""

from __future__ import annotations

import gzip
import queue
import threading
from typing import Any, BinaryIO

from irscope.parse.passes import Section

# Sections waiting for the writer at most (an LLVM section is about 1 MB): the reader waits beyond.
_QUEUE = 32


class SectionWriter:
    """Compress sections into ``out`` as gzip members on a thread; ``rows`` is the index once closed."""

    def __init__(self, out: BinaryIO, level: int) -> None:
        self.out = out
        self.level = level
        self.rows: list[list[Any]] = []
        self._queue: queue.Queue[tuple[Section, bytes] | None] = queue.Queue(maxsize=_QUEUE)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="irscope-dump-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            if self._error is not None:
                continue  # drain: the reader learns of the error at its next add or at close
            section, data = item
            try:
                member = gzip.compress(data, compresslevel=self.level, mtime=0)
                self.rows.append([section.id, section.line, section.size, self.out.tell(), len(member),
                                  section.header, section.lines])
                self.out.write(member)
            except BaseException as exc:  # an OSError (disk full) surfaces in the reading thread
                self._error = exc

    def add(self, section: Section, data: bytes) -> None:
        """Queue one section (its member is written after those queued before it)."""
        if self._error is not None:
            self.close()
        self._queue.put((section, data))

    def close(self) -> list[list[Any]]:
        """Wait until every queued section is written; the index rows, or the writer's error raised."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        if self._error is not None:
            raise self._error
        return self.rows
