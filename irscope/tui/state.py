"""AppState: what the TUI works on, owned by the app and handed down to its screens (which never import the app)."""

from __future__ import annotations

import gc
from dataclasses import dataclass, field

from irscope.tui.catalog import CaptureId, Catalog
from irscope.tui.documents import Documents


@dataclass
class AppState:
    """The session's data and choices.

    Attributes:
        catalog: kernels, targets, configs and the store.
        documents: texts, pass dumps and diffs, cached.
        start: the capture to open first, or None.
        start_note: a line to show once it is open (why it is not the one the command line implied), or "".
        record_passes: record each opened capture's per-pass IR in the background.
        precompile: compile each opened capture's what-if neighbours in the background (irscope.request.neighbours).
    """

    catalog: Catalog
    documents: Documents = field(default_factory=Documents)
    start: CaptureId | None = None
    start_note: str = ""
    record_passes: bool = True
    precompile: bool = False
    _settled: bool = False

    def settle_memory(self) -> None:
        """Exempt what is loaded by now (modules, the first screen) from garbage collection.

        Python's full collections walk every live object; with Textual, the analyses and an open capture
        loaded that took up to 100 ms, a visible stall in the middle of a key press. Objects alive after
        start-up stay alive for the whole session, so they are moved out of the collector's sight once.
        """
        if self._settled:
            return
        self._settled = True
        gc.collect()
        gc.freeze()
        gc.enable()  # ``irscope tui`` starts with the collector off: start-up allocates and frees little
