"""Buffer LLVM's debug stream inside the per-pass worker, so a dump costs writes of 1 MiB, not of a token.

MLIR's ``IR Dump Before`` printer (Triton hands it ``llvm::dbgs()``) and LLVM's ``print-after-all``
write to ``llvm::dbgs()``, which forwards to ``llvm::errs()``; both are unbuffered, so every ``<<``
is a ``write(2)`` system call. The matmul's LLVM dump (210 MB) is about 25 million of them, most of
the time of ``irscope passes --llvm``. libtriton exports ``llvm::dbgs()`` and ``raw_ostream``'s
buffer calls, so the worker gives that stream a buffer through ctypes and writes its own marker
lines (and Python's stderr) through the same stream, which keeps them in order with the IR; it
flushes at every marker, so the parent still reads the dump as it is printed.

It must be ``dbgs()``, not ``errs()``: in Triton's LLVM (built with assertions) ``dbgs()`` is a
``circular_raw_ostream`` whose ``tell()`` counts only what ``errs()`` has already written, and
MLIR's printer uses ``tell()`` to see whether a dialect printed a type; with ``errs()`` buffered it
sees nothing and prints the type twice. Buffering ``dbgs()`` itself keeps ``tell()`` right (a
test compares buffered and unbuffered dumps byte for byte). Where the symbols are missing (another
build of Triton) nothing changes: the stream stays unbuffered and the worker writes to fd 2.
"""

from __future__ import annotations

import ctypes
from typing import Any

# Itanium-mangled names of what libtriton exports (LLVM's raw_ostream API, stable since LLVM 12).
_DBGS = "_ZN4llvm4dbgsEv"
_SET_BUFFER = "_ZN4llvm11raw_ostream16SetBufferAndModeEPcmNS0_10BufferKindE"
_WRITE = "_ZN4llvm11raw_ostream5writeEPKcm"
_SET_BUFFERED = "_ZN4llvm11raw_ostream11SetBufferedEv"
_EXTERNAL_BUFFER = 2  # raw_ostream::BufferKind::ExternalBuffer
SIZE = 1 << 20


class DebugStream:
    """LLVM's ``dbgs()``, buffered: ``write`` appends to it, ``flush`` pushes what it holds to fd 2."""

    def __init__(self, stream: int, write: Any, set_buffer: Any, set_buffered: Any, buffer: Any) -> None:
        self._stream = stream
        self._write = write
        self._set_buffer = set_buffer
        self._set_buffered = set_buffered
        self._buffer = buffer  # LLVM keeps a pointer to it: it lives as long as the process

    def write(self, data: bytes) -> None:
        """Append ``data`` to the stream."""
        if data:
            self._write(self._stream, data, len(data))

    def flush(self) -> None:
        """Push what the stream holds to fd 2.

        ``SetBuffered`` flushes (whatever the buffer holds, even nothing) and switches the stream to a
        buffer of its own; the stream is then empty, so it can take the large buffer back.
        """
        self._set_buffered(self._stream)
        self._set_buffer(self._stream, ctypes.addressof(self._buffer), SIZE, _EXTERNAL_BUFFER)

    def close(self) -> None:
        """Flush, and leave the stream a buffer LLVM owns (flushed again at exit, after Python's objects are gone)."""
        self._set_buffered(self._stream)


class TextToStream:
    """A ``sys.stderr`` that writes through the stream, in order with what LLVM prints."""

    def __init__(self, stream: DebugStream, encoding: str = "utf-8") -> None:
        self.stream = stream
        self.encoding = encoding

    def write(self, text: str) -> int:
        """Append text."""
        self.stream.write(text.encode(self.encoding, errors="replace"))
        return len(text)

    def flush(self) -> None:
        """Push it out."""
        self.stream.flush()

    def isatty(self) -> bool:
        """Never a terminal."""
        return False

    def fileno(self) -> int:
        """fd 2, for code that writes there itself (that output is not ordered with the stream's)."""
        return 2

    def writable(self) -> bool:
        """Always."""
        return True


def widen_pipe(fd: int, size: int = SIZE) -> int:
    """Give the pipe the worker prints into a buffer of ``size`` bytes (Linux ``F_SETPIPE_SZ``); the size obtained.

    With the default 64 KiB, the worker's 1 MiB flush waits until the parent has split and compressed
    the previous one; with room for a whole flush, the worker prints on while the parent stores. Where
    the call is missing or refused (``/proc/sys/fs/pipe-max-size``), 0 and the pipe stays as it was.
    """
    try:
        import fcntl

        return int(fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), size))
    except (ImportError, OSError, ValueError):
        return 0


def buffered_dbgs(library: str) -> DebugStream | None:
    """Give LLVM's ``dbgs()`` in ``library`` (libtriton, already loaded) a 1 MiB buffer; None where it cannot."""
    try:
        lib = ctypes.CDLL(library)
        dbgs, set_buffer = getattr(lib, _DBGS), getattr(lib, _SET_BUFFER)
        write, set_buffered = getattr(lib, _WRITE), getattr(lib, _SET_BUFFERED)
    except (OSError, AttributeError):
        return None
    dbgs.restype = ctypes.c_void_p
    dbgs.argtypes = []
    set_buffer.restype = None
    set_buffer.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    write.restype = ctypes.c_void_p
    write.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    set_buffered.restype = None
    set_buffered.argtypes = [ctypes.c_void_p]
    stream = dbgs()
    if not stream:
        return None
    buffer = ctypes.create_string_buffer(SIZE)
    # dbgs() starts unbuffered and empty, as SetBufferAndMode requires.
    set_buffer(stream, ctypes.addressof(buffer), SIZE, _EXTERNAL_BUFFER)
    return DebugStream(stream, write, set_buffer, set_buffered, buffer)
