"""Variants: the main screen's what-if key, and the neighbours of the opened capture compiled ahead.

``x`` opens the what-if form (irscope.tui.screens.what_if) for the capture on screen; while the user edits
it, the base's facts are read and the compile worker starts and compiles once. The variant the form asks
for is looked up and compiled by irscope.request.what_if (no UI there), in a worker so that the tree stays
usable; its report (the facts that changed and a stage's diff) opens at once and fills in when the compile
lands, and the variant joins the tree below its config. The neighbours (irscope.request.neighbours) compile
in a polite child process, which hands over each one's facts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import Callable

from textual.screen import Screen

from irscope.errors import UsageError
from irscope.store.store import Capture
from irscope.tui.catalog import CaptureId
from irscope.tui.screens import compare
from irscope.tui.screens.compare import CompareScreen
from irscope.tui.screens.what_if import WhatIfChoice, WhatIfScreen
from irscope.tui.state import AppState
from irscope.tui.widgets.navigator import Navigator


class Variants:
    """What-if compiles of the captures a screen shows.

    ``stage`` names the stage on screen (the variant's report diffs that stage).
    """

    def __init__(self, screen: Screen[None], state: AppState, stage: Callable[[], str]) -> None:
        self.screen = screen
        self.state = state
        self.stage = stage
        self._neighbours: asyncio.subprocess.Process | None = None

    # Neighbours ---------------------------------------------------------------------------------------

    def start_neighbours(self, capture: Capture) -> None:
        """Compile the capture's neighbours in a polite child process (the previous capture's is stopped)."""
        if not self.state.precompile:
            return
        self.stop_neighbours()
        m = capture.manifest
        job = {"kernel": m.key, "target": m.target, "config": m.config_index}

        async def run() -> None:
            from irscope.tui.jobs import _child_env

            proc = self._neighbours = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "irscope.request.neighbours", "--store", str(capture.path.parent.parent),
                json.dumps(job), stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL, env=_child_env(), start_new_session=True)
            assert proc.stdout is not None
            async for line in proc.stdout:  # each neighbour's facts, so that opening it needs no analysis
                if line.startswith(b'{"made"'):
                    with contextlib.suppress(ValueError):
                        compare.hold_facts(json.loads(line)["made"])
            await proc.wait()

        self.screen.run_worker(run(), exclusive=True, group="neighbours")

    def stop_neighbours(self) -> None:
        """Stop the background compiles of neighbours, if any run."""
        proc, self._neighbours = self._neighbours, None
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()

    # What if ------------------------------------------------------------------------------------------

    def open_form(self, base: Capture | None) -> None:
        """Open the form for ``base`` (the capture on screen)."""
        from irscope.request import what_if

        if base is None:
            self.screen.notify("Open a capture first: x changes its settings and compiles the variant.", timeout=3)
            return
        try:
            values = what_if.settable_values(base)
        except UsageError as exc:
            self.screen.notify(f"This capture cannot be varied: {exc}", timeout=5)
            return
        m = base.manifest
        title = (f"{m.kernel} on {m.target}, config {m.config_index}, Triton {m.triton_version}"
                 + (f" (set {', '.join(f'{k}={v}' for k, v in m.settings.items())})" if m.settings else ""))

        had_focus = self.screen.focused  # the pane to give the focus back to when the form closes

        def chosen(choice: WhatIfChoice | None) -> None:
            if had_focus is not None and had_focus.is_attached and had_focus.display and \
                    self.screen.focused is not had_focus:
                had_focus.focus()
            if choice is not None:
                self.screen.run_worker(self._compile(base, choice), exclusive=True, group="what-if")

        where = {"target": m.target, "triton": m.triton_version}
        movable = m.origin in ("bundled", "module")
        self.screen.app.push_screen(WhatIfScreen(title, values, m.backend, where, base.path.parent.parent, movable),
                                    chosen)
        # While the user edits the form: the base's facts read, a compile worker started and warmed up.
        self.screen.run_worker(lambda: warm(base), thread=True, group="what-if-warm")
        own = what_if.foreign_triton(base)
        self.screen.run_worker(lambda: what_if.warm_worker(base, own), thread=True, group="what-if-worker")

    async def _compile(self, base: Capture, choice: WhatIfChoice) -> None:
        """Compile the variant in the warm compile worker, then show it against its base and list it in the tree."""
        from irscope.request import what_if
        from irscope.store.store import Store

        app = self.screen.app
        variant = what_if.variant_of(base, choice.settings, choice.target, choice.triton)
        store = str(base.path.parent.parent)
        title = f"what if: {compare.capture_name(base)}  →  {variant.label}"
        screen: CompareScreen | None = None
        made = what_if.stored_variant(variant, store)  # a neighbour compiled ahead, or made before: no compile
        if made is None:
            # The report's screen opens now and fills in when the compile lands (Escape leaves it compiling).
            screen = CompareScreen(f"Compiling {base.manifest.kernel} with {variant.label} in the warm compile "
                                   "worker (Triton's own compile time; the tree stays usable: Escape)…", title)
            app.push_screen(screen)
            made = await asyncio.get_running_loop().run_in_executor(None, what_if.compile_variant, variant, store)
        if not made.key:
            if screen is not None and screen.is_attached:
                screen.show_text(f"The variant did not compile:\n\n{made.error}")
            else:
                self.screen.notify(f"The variant did not compile: {made.error}", severity="error", timeout=8)
            return
        made_capture = Store(base.path.parent.parent).get(made.key)
        if made_capture is None:
            self.screen.notify(f"The variant {made.key} is not in the store", severity="error", timeout=8)
            return
        self.state.documents.add(made_capture)
        self._list(made_capture)
        await self._report(base, made_capture, screen)

    async def _report(self, base: Capture, variant: Capture, screen: CompareScreen | None) -> None:
        """Show the variant against its base: at once what its stored texts give, then every fact."""
        stage = self.stage()
        loop = asyncio.get_running_loop()
        held = variant.manifest.key in compare._FACTS  # a neighbour: its facts came with it
        text = await loop.run_in_executor(None, variant_report, base, variant, stage, not held)
        title = f"what if: {compare.capture_name(base)}  →  {compare.capture_name(variant)}"
        if screen is None:
            screen = CompareScreen(text, title)
            self.screen.app.push_screen(screen)
        elif screen.is_attached:
            screen.show_text(text, title)
        else:  # the user closed the report while it compiled: the variant waits in the tree
            self.screen.notify(f"{compare.capture_name(variant)} is ready: it is in the tree below its config "
                               "(c, C compare it).", timeout=6)
            return
        if not held:  # the facts the bundled tools give (registers, SASS counts) follow
            text = await loop.run_in_executor(None, variant_report, base, variant, stage)
            if screen.is_attached:
                screen.show_text(text)

    def _list(self, variant: Capture) -> None:
        """Put a variant in the tree, below its config (another target's capture is a config of its own)."""
        catalog = self.state.catalog
        m = variant.manifest
        nav = next(iter(self.screen.query(Navigator)), None)
        if m.settings or m.triton_version != catalog.triton_version:
            cid = catalog.add_variant(variant)
            if nav is not None:
                nav.add_variant(cid)
        elif nav is not None:
            cid = catalog.find(m.key) or CaptureId(m.kernel, m.target, m.config_index)
            nav.set_busy(cid, None)  # a config of another target: now captured


def warm(base: Capture) -> None:
    """Read what the variant's report will need of the base (its facts; the analysis and diff modules)."""
    from irscope.request.what_if import warm_imports

    warm_imports()
    compare.facts_of(base)


def variant_report(base: Capture, variant: Capture, stage: str, quick: bool = False) -> str:
    """The facts that changed from ``base`` to ``variant``, then the diff of one stage.

    ``quick``: the variant's facts from its stored texts only (irscope.analysis.facts: no tool runs), compared
    with the same facts of the base, and a line saying the rest follows.
    """
    from irscope.request.what_if import variant_diff
    from irscope.views.diff import render_unified

    text = compare.comparison_text(base, variant, quick=quick)
    return text + "\n\n" + render_unified(variant_diff(base, variant, stage)).plain
