"""What if: a form of the capture's settable names (launch options and constexprs) and their values.

``x`` on the main screen opens it (with the target and the Triton version). Changing values and pressing
Enter checks them (a value Triton would refuse is reported in the form, and nothing compiles), compiles
the variant in the warm compile worker (irscope.compile.remote: started, with one throwaway compile, while
the form is open), and then shows the variant against its base: the facts that changed and the current
stage's diff. The variant is a capture in the store like any other, listed in the tree below its config.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from irscope.errors import UsageError
from irscope.store.store import Capture
from irscope.tui.screens.compare import CompareActions, CompareScreen


class WhatIfScreen(ModalScreen["dict[str, Any] | None"]):
    """The form; Enter submits the changed values (checked first), Escape closes it."""

    DEFAULT_CSS = """
    WhatIfScreen { align: center middle; }
    WhatIfScreen > VerticalScroll {
        width: 80; max-height: 90%; height: auto; border: round $primary; background: $surface; padding: 0 1;
    }
    WhatIfScreen Horizontal { height: 3; }
    WhatIfScreen Label { width: 24; padding: 1 0 0 0; }
    WhatIfScreen Input { width: 1fr; }
    WhatIfScreen #what-if-error { color: $error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss_none", "Close")]

    def __init__(self, title: str, values: dict[str, Any], backend: str, where: dict[str, str] | None = None,
                 store: Path | None = None, movable: bool = True) -> None:
        super().__init__()
        self.title_text = title
        self.values = values
        self.backend = backend
        self.where = where or {}  # "target" and "triton": the base's, changeable like the settings
        self.store = store
        self.movable = movable  # whether the target and Triton may change (a kernel module's capture)

    def compose(self) -> ComposeResult:
        """A line per settable name, then the line errors go to."""
        with VerticalScroll() as scroll:
            scroll.border_title = "what if: change values, Enter compiles the variant, Escape closes"
            yield Static(Text(self.title_text, style="bold"))
            for name, value in self.where.items():
                with Horizontal():
                    yield Label(name)
                    yield Input(value=value, placeholder=value, id=f"where-{name}")
            for name, value in self.values.items():
                with Horizontal():
                    yield Label(name)
                    yield Input(value="" if value in ("default", "?", None) else str(value),
                                placeholder=str(value), id=f"set-{name}")
            yield Static("", id="what-if-error")

    def changed(self) -> dict[str, Any]:
        """The values the user changed, typed."""
        from irscope.request.settings import parse_settings

        items = []
        for name, value in self.values.items():
            text = self.query_one(f"#set-{name}", Input).value.strip()
            before = "" if value in ("default", "?", None) else str(value)
            if text != before and text:
                items.append(f"{name}={text}")
        return parse_settings(items)

    def moved(self) -> dict[str, str]:
        """The target and Triton the user changed (checked: a known target, an installed Triton)."""
        from irscope.model.targets import resolve_target

        out = {}
        for name, value in self.where.items():
            text = self.query_one(f"#where-{name}", Input).value.strip()
            if text and text != value:
                out[name] = text
        if out and not self.movable:
            raise UsageError(f"{' and '.join(out)}: only a kernel module's capture (bundled or a .py file) can be "
                             "compiled for another target or Triton here; change its settings instead")
        if "target" in out:
            out["target"] = resolve_target(out["target"]).name
        if "triton" in out:
            from irscope.toolchain.tritons import resolve

            env = resolve(out["triton"], self.store or Path("."))
            if env.version == self.where.get("triton"):
                del out["triton"]
        return out

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Check the values; report a problem in the form, or hand the changes back."""
        from irscope.request.settings import check_settings

        error = self.query_one("#what-if-error", Static)
        try:
            settings = self.changed()
            where = self.moved()
            if not settings and not where:
                error.update("Nothing changed: edit a value, then press Enter.")
                return
            check_settings(settings, self.values, self.backend)
        except UsageError as exc:
            error.update(str(exc))
            return
        self.dismiss({"settings": settings, **where})

    def action_dismiss_none(self) -> None:
        """Close without compiling."""
        self.dismiss(None)


class WhatIfActions(CompareActions):
    """The what-if key of the main screen (a base class of MainScreen, which declares the binding), and the
    background compiles of the opened capture's neighbours (irscope.request.neighbours)."""

    _neighbours: asyncio.subprocess.Process | None = None

    def start_neighbours(self, capture: Capture) -> None:
        """Compile the capture's neighbours in a polite child process (the previous capture's is stopped)."""
        from irscope.tui.app import IrscopeApp

        if not isinstance(self.app, IrscopeApp) or not self.app.precompile:
            return
        self.stop_neighbours()
        m = capture.manifest
        job = {"kernel": m.key, "target": m.target, "config": m.config_index}

        async def run() -> None:
            from irscope.tui.jobs import _child_env
            from irscope.tui.screens.compare import hold_facts

            proc = self._neighbours = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "irscope.request.neighbours", "--store", str(capture.path.parent.parent),
                json.dumps(job), stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL, env=_child_env(), start_new_session=True)
            assert proc.stdout is not None
            async for line in proc.stdout:  # each neighbour's facts, so that opening it needs no analysis
                if line.startswith(b'{"made"'):
                    with contextlib.suppress(ValueError):
                        hold_facts(json.loads(line)["made"])
            await proc.wait()

        self.run_worker(run(), exclusive=True, group="neighbours")

    def stop_neighbours(self) -> None:
        """Stop the background compiles of neighbours, if any run."""
        proc, self._neighbours = self._neighbours, None
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()

    def action_what_if(self) -> None:
        """Open the form for the capture on screen."""
        from irscope.request.captures import request_for
        from irscope.request.settings import settable

        base = self._shown_capture()
        if base is None:
            self.notify("Open a capture first: x changes its settings and compiles the variant.", timeout=3)
            return
        try:
            values = settable(request_for(base), base)
        except UsageError as exc:
            self.notify(f"This capture cannot be varied: {exc}", timeout=5)
            return
        m = base.manifest
        title = (f"{m.kernel} on {m.target}, config {m.config_index}, Triton {m.triton_version}"
                 + (f" (set {', '.join(f'{k}={v}' for k, v in m.settings.items())})" if m.settings else ""))

        def chosen(choice: dict[str, Any] | None) -> None:
            if choice:
                self.run_worker(self._compile_variant(base, choice), exclusive=True, group="what-if")

        where = {"target": m.target, "triton": m.triton_version}
        movable = m.origin in ("bundled", "module")
        self.app.push_screen(WhatIfScreen(title, values, m.backend, where, base.path.parent.parent, movable), chosen)
        # While the user edits the form: the base's facts read, a compile worker started and warmed up.
        self.run_worker(lambda: warm(base), thread=True, group="what-if-warm")
        own = None if m.triton_version == local_version() else m.triton_version
        self.run_worker(lambda: warm_worker(base, own), thread=True, group="what-if-worker")

    async def _compile_variant(self, base: Capture, choice: dict[str, Any]) -> None:
        """Compile the variant in the warm compile worker, then show it against its base and list it in the tree."""
        from irscope.store.store import Store

        m = base.manifest
        settings = choice.get("settings", {})
        items = [f"{k}={v}" for k, v in {**m.settings, **settings}.items()]
        moved = "target" in choice or "triton" in choice  # compile the kernel module, not the stored capture
        kernel = (m.kernel if m.origin == "bundled" else m.kernel_path) if moved else m.key
        job = {"kernel": kernel, "target": choice.get("target", m.target), "config": m.config_index,
               "launch": {"settings": items} if items else {}}
        triton = choice.get("triton") or (None if m.triton_version == local_version() else m.triton_version)
        store = str(base.path.parent.parent)
        label = ", ".join([f"{k}={v}" for k, v in settings.items()] + [f"{k} {choice[k]}" for k in ("target", "triton")
                                                                       if k in choice])
        from irscope.tui.screens import compare

        title = f"what if: {compare.capture_name(base)}  →  {label}"
        screen: CompareScreen | None = None
        result = stored_variant(job, store, triton)  # a neighbour compiled ahead, or made before: no compile
        if result is None:
            # The report's screen opens now and fills in when the compile lands (Escape leaves it compiling).
            screen = CompareScreen(f"Compiling {m.kernel} with {label} in the warm compile worker (Triton's own "
                                   "compile time; the tree stays usable: Escape)…", title)
            self.app.push_screen(screen)
            result = await asyncio.get_running_loop().run_in_executor(None, compile_variant, job, store, triton)
        if "error" in result:
            if screen is not None and screen.is_attached:
                screen.show_text(f"The variant did not compile:\n\n{result['error']}")
            else:
                self.notify(f"The variant did not compile: {result['error']}", severity="error", timeout=8)
            return
        variant = Store(base.path.parent.parent).get(result["key"])
        if variant is None:
            self.notify(f"The variant {result['key']} is not in the store", severity="error", timeout=8)
            return
        from irscope.tui.app import IrscopeApp

        if isinstance(self.app, IrscopeApp):
            self.app.documents.add(variant)
            self._list_variant(variant)
        stage = getattr(getattr(self, "current", None), "stage", "ttgir")
        loop = asyncio.get_running_loop()
        held = variant.manifest.key in compare._FACTS  # a neighbour: its facts came with it
        text = await loop.run_in_executor(None, variant_report, base, variant, stage, not held)
        title = f"what if: {compare.capture_name(base)}  →  {compare.capture_name(variant)}"
        if screen is None:
            screen = CompareScreen(text, title)
            self.app.push_screen(screen)
        elif screen.is_attached:
            screen.show_text(text, title)
        else:  # the user closed the report while it compiled: the variant waits in the tree
            self.notify(f"{compare.capture_name(variant)} is ready: it is in the tree below its config "
                        "(c, C compare it).", timeout=6)
            return
        if not held:  # the facts the bundled tools give (registers, SASS counts) follow
            text = await loop.run_in_executor(None, variant_report, base, variant, stage)
            if screen.is_attached:
                screen.show_text(text)

    def _list_variant(self, variant: Capture) -> None:
        """Put a variant in the tree, below its config (another target's capture is a config of its own)."""
        from irscope.tui.app import IrscopeApp
        from irscope.tui.catalog import CaptureId
        from irscope.tui.widgets.navigator import Navigator

        app = self.app
        if not isinstance(app, IrscopeApp):
            return
        m = variant.manifest
        nav = next(iter(self.query(Navigator)), None)
        if m.settings or m.triton_version != app.catalog.triton_version:
            cid = app.catalog.add_variant(variant)
            if nav is not None:
                nav.add_variant(cid)
        elif nav is not None:
            cid = CaptureId(m.kernel, m.target, m.config_index)
            nav.set_busy(cid, None)  # a config of another target: now captured


def warm(base: Capture) -> None:
    """Read what the variant's report will need of the base (its facts; the analysis and diff modules)."""
    import importlib

    from irscope.tui.screens.compare import facts_of

    for module in ("irscope.request.compare", "irscope.views.diff", "irscope.views.facts_text", "irscope.request.settings",
                   "irscope.request.factsfile", "irscope.request.captures", "irscope.toolchain.tritons", "irscope.analysis.diff"):
        importlib.import_module(module)
    facts_of(base)


def _worker_env(store: str | Path, triton: str | None) -> Any:
    """The foreign Triton environment a what-if compiles with (None: this interpreter's)."""
    from irscope.toolchain.tritons import resolve

    env = resolve(triton, Path(store)) if triton else None
    return env if env is not None and env.foreign else None


def _variant_request(job: dict[str, Any], store: str, triton: str | None) -> tuple[Any, str, Any]:
    """The request a what-if job makes (resolved as the chosen Triton would), its store key and that Triton."""
    from irscope.request.captures import make_request
    from irscope.request.factsfile import launch_spec
    from irscope.toolchain.tritons import using

    env = _worker_env(store, triton)
    with using(env):
        request = make_request(job["kernel"], job["target"], int(job["config"]),
                               launch=launch_spec(job.get("launch", {})), store_dir=store)
        return request, request.key(), env


def warm_worker(base: Capture, triton: str | None = None) -> None:
    """Start the compile worker and let it compile once for the base's target (Triton's first-compile set-up)."""
    from irscope.compile.remote import worker
    from irscope.errors import IrscopeError

    with contextlib.suppress(IrscopeError):  # the real compile starts it again and reports why it cannot
        worker(_worker_env(base.path.parent.parent, triton)).warm_up(base.manifest.target)


def compile_variant(job: dict[str, Any], store: str, triton: str | None) -> dict[str, Any]:
    """Compile a what-if job in the warm worker: ``{"key": ...}`` or ``{"error": ...}``."""
    from irscope.compile.remote import worker
    from irscope.errors import IrscopeError

    try:
        request, _, env = _variant_request(job, store, triton)
        made = worker(env).capture(request.job(), store)
    except IrscopeError as exc:
        return {"error": " ".join(str(exc).split())}
    return {"key": made.manifest.key}


def local_version() -> str:
    """This interpreter's Triton version (read from its files)."""
    from irscope.store.store import local_triton_version

    return local_triton_version()


def stored_variant(job: dict[str, Any], store: str, triton: str | None = None) -> dict[str, Any] | None:
    """``{"key": ...}`` when the variant a job asks for is in the store already, else None (no Triton import)."""
    from irscope.store.store import Store

    try:
        _, key, _ = _variant_request(job, store, triton)
    except UsageError:
        return None
    hit = Store(Path(store)).get(key)
    return {"key": hit.manifest.key} if hit is not None else None


def variant_report(base: Capture, variant: Capture, stage: str, quick: bool = False) -> str:
    """The facts that changed from ``base`` to ``variant``, then the diff of one stage.

    ``quick``: the variant's facts from its stored texts only (irscope.analysis.facts: no tool runs), compared
    with the same facts of the base, and a line saying the rest follows.
    """
    from irscope.analysis.diff import DiffOptions
    from irscope.model.stages import get_stage
    from irscope.request.compare import diff_points, stage_point
    from irscope.tui.screens.compare import comparison_text
    from irscope.views.diff import render_unified

    text = comparison_text(base, variant, quick=quick)
    try:
        get_stage(stage, base.manifest.backend)
    except UsageError:
        stage = "ttgir"
    result = diff_points(stage_point(base, stage, f"{stage} of the base"),
                         stage_point(variant, stage, f"{stage} of the variant"), DiffOptions(normalize_ssa=True))
    return text + "\n\n" + render_unified(result).plain
