"""IrscopeApp and ``make_app``, the one factory the ``irscope tui`` command and the tests share."""

from __future__ import annotations

import os
from typing import ClassVar

from textual.app import App
from textual.screen import Screen

from irscope.tui.catalog import CaptureId, Catalog
from irscope.tui.commands import IrscopeCommands
from irscope.tui.documents import Documents
from irscope.tui.state import AppState


class IrscopeApp(App[None]):
    """Holds the data (an AppState: the catalog of kernels and captures, the documents read so far); the main
    screen shows it.

    Attributes:
        state: the session's data, handed to the screens.
    """

    TITLE = "irscope"
    CSS_PATH = "app.tcss"
    COMMANDS: ClassVar = App.COMMANDS | {IrscopeCommands}
    # The side panel goes right of the text only where the text keeps ~130 columns (app.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-medium"), (240, "-wide")]  # noqa: RUF012 (Textual declares it so)
    ENABLE_COMMAND_PALETTE = True

    def __init__(self, catalog: Catalog, start: CaptureId | None, record_passes: bool = True, precompile: bool = False,
                 theme: str | None = None, start_note: str = "") -> None:
        super().__init__()
        self.state = AppState(catalog, start=start, start_note=start_note, record_passes=record_passes,
                              precompile=precompile)
        if theme is not None:
            self.theme = theme

    @property
    def catalog(self) -> Catalog:
        """Kernels, targets, configs and the store."""
        return self.state.catalog

    @property
    def documents(self) -> Documents:
        """Texts, pass dumps and diffs, cached."""
        return self.state.documents

    @property
    def crash(self) -> BaseException | None:
        """The unhandled exception that closed the app, or None."""
        return self._exception

    def _handle_exception(self, error: Exception) -> None:
        """An unhandled exception closes the app, except a lazily mounted widget arriving after ``q``.

        Textual mounts ``Lazy`` widgets after the first refresh; quitting before then removes their
        screen first, and the late mount raises MountError. The user asked to quit: that is no crash.
        """
        from textual.widget import MountError

        if self._exit and isinstance(error, MountError):
            return
        super()._handle_exception(error)

    def _fatal_error(self) -> None:
        """Close after an unhandled exception without Textual's traceback: ``irscope tui`` reports it in
        one line and writes the traceback to a crash log (``crash`` holds the exception)."""
        self._close_messages_no_wait()

    def on_mount(self) -> None:
        """Settle memory a few seconds in, at the latest (the first capture may still be compiling, or failed)."""
        self.set_timer(5.0, self.state.settle_memory)

    def get_default_screen(self) -> Screen[None]:
        """The main screen."""
        from irscope.tui.screens.main import MainScreen

        return MainScreen(self.state)


def _latest(catalog: Catalog) -> CaptureId | None:
    """The capture id of the newest capture in the store, for a bare ``irscope tui``."""
    captures = catalog.store.captures()
    for capture in reversed(captures):
        m = capture.manifest
        cid = catalog.find(m.key) or CaptureId(m.kernel, m.target, m.config_index)
        if not cid.variant and (cid.kernel in catalog.kernels or cid in catalog.stored) and catalog.key(cid) == m.key:
            return cid
    return None


def _held_instead(catalog: Catalog, start: CaptureId) -> CaptureId | None:
    """For ``irscope tui KERNEL`` without a target, when the default target's capture is not in the store: the
    store's capture of that kernel to open instead (the same config, else the newest), or None."""
    if catalog.capture(start) is not None:
        return None
    held = [cid for cid in catalog.captures_of(start.kernel) if not cid.variant]
    same = [cid for cid in held if cid.config == start.config]

    def made(cid: CaptureId) -> str:
        capture = catalog.capture(cid)
        return capture.manifest.created if capture is not None else ""

    return max(same or held, key=made, default=None)


def make_app(kernel: str | None = None, target: str | None = None, config: int = 0, store_dir: str | None = None,
             record_passes: bool = True, theme: str | None = None, precompile: bool = False) -> IrscopeApp:
    """The TUI, opening ``kernel`` for ``target`` and ``config`` (none: the newest capture in the store).

    Validates the kernel, target and config first, so a typo is a usage error before the screen opens.
    """
    from irscope.request.captures import make_request
    from irscope.request.kinds import kind_of

    catalog = Catalog.load(store_dir, kernel)
    start: CaptureId | None = None
    note = ""
    if kernel is not None:
        request = make_request(kernel, target, config, store_dir=store_dir)
        name = request.kernel.name
        stored = kind_of(request.kernel).stored
        if stored is not None:  # the very capture named: another of the same kernel name may be listed too
            m = stored.manifest
            start = catalog.find(m.key) or CaptureId(m.kernel, m.target, m.config_index)
        else:
            start = CaptureId(name, request.target.name, config)
            catalog.targets.setdefault(request.target.name, request.target)
            held = _held_instead(catalog, start) if target is None and not os.environ.get("IRSCOPE_TARGET") else None
            if held is not None:  # open what the store holds rather than compile the default target
                note = (f"The store holds no {start.kernel} for {start.target}: showing {held.target} config "
                        f"{held.config}. a lists every capture of {start.kernel}.")
                start = held
    elif target is not None:
        catalog.target(target)
    if start is None and kernel is None:
        start = _latest(catalog)
    return IrscopeApp(catalog, start, record_passes=record_passes, theme=theme, precompile=precompile, start_note=note)
