"""Comparing two captures in the TUI: mark one (``c``), open another, and ``C`` shows their facts side by side.

The same comparison as ``irscope compare`` (irscope.analysis.facts): loops and pipelining, tensor-core
instructions, layouts, registers, spills, shared memory, occupancy and the instruction mix, the
facts that differ first. The facts are read in a thread (ptxas -v may run once per capture).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Log

from irscope.store.store import Capture
from irscope.tui.screens.side_actions import SideActions

# Facts by capture key: a capture never changes, so the facts read once (often ahead: what_if.warm) stay true.
_FACTS: dict[str, Any] = {}


def facts_of(capture: Capture) -> Any:
    """A capture's facts (irscope.analysis.facts), read once per TUI session."""
    from irscope.analysis.facts import capture_facts

    found = _FACTS.get(capture.manifest.key)
    if found is None:
        found = _FACTS[capture.manifest.key] = capture_facts(capture)
    return found


def hold_facts(result: dict[str, Any]) -> None:
    """Keep facts another irscope process worked out for a capture (``run_job``'s result) for this session."""
    from irscope.analysis.facts import Facts

    key = result.get("key")
    if isinstance(key, str) and key not in _FACTS and isinstance(result.get("facts"), dict):
        _FACTS[key] = Facts(key=key, label=str(result.get("label", "")), values=result["facts"],
                            unread=tuple(str(u) for u in result.get("unread", ())))


def comparison_text(left: Capture, right: Capture, quick: bool = False) -> str:
    """The ``irscope compare`` report of two captures.

    ``quick``: when the right side's facts have not been read yet, compare only those its stored texts give
    (``capture_facts(quick=True)``) and say that the rest follows.
    """
    from irscope.analysis.facts import SLOW_FACTS, Facts, capture_facts, compare_facts
    from irscope.views.facts_text import render_comparison

    a = facts_of(left)
    if quick and right.manifest.key not in _FACTS:
        b = capture_facts(right, quick=True)
        a = Facts(a.key, a.label, {k: v for k, v in a.values.items() if k in b.values}, a.unread)
        note = (f"\n(reading the rest: {', '.join(SLOW_FACTS)} come from the bundled NVIDIA tools and appear here "
                "in a moment)") if len(b.values) < len(facts_of(left).values) else ""
        return render_comparison(a, b, compare_facts(a.values, b.values), show_all=True) + note
    b = facts_of(right)
    return render_comparison(a, b, compare_facts(a.values, b.values), show_all=True)


class CompareScreen(ModalScreen[None]):
    """Two captures' facts (and a stage's diff); Escape, q or C closes it.

    The report is a Log: it draws only the rows on screen, so a long diff costs no more to show than a short one.
    """

    DEFAULT_CSS = """
    /* Opaque: a translucent modal makes Textual draw the main screen dimmed beneath it on every frame,
       which is most of the time it takes to show the report. */
    CompareScreen { align: center middle; background: $background; }
    CompareScreen > Log {
        width: 95%; height: 90%; border: round $primary; background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,C", "dismiss", "Close")]

    def __init__(self, text: str, title: str = "") -> None:
        super().__init__()
        self.text = text
        self.title_text = title or "compare: A is the marked capture, B the one on screen"

    def compose(self) -> ComposeResult:
        """The report, scrollable."""
        log = Log(auto_scroll=False, id="compare-text")
        log.border_title = f"{self.title_text} (Escape closes)"
        log.write_lines(self.text.splitlines())
        yield log

    def show_text(self, text: str, title: str = "") -> None:
        """Replace the report (the variant's once it compiled; the whole one, once the slower facts are read)."""
        self.text = text
        log = self.query_one("#compare-text", Log)
        if title:
            self.title_text = title
            log.border_title = f"{title} (Escape closes)"
        log.clear()
        log.write_lines(text.splitlines())
        log.scroll_home(animate=False)


def capture_name(capture: Capture) -> str:
    """``matmul sm90 c0 (num_stages=2, Triton 3.6.0)``: which capture a side of a comparison is."""
    m = capture.manifest
    extra = [f"{k}={v}" for k, v in m.settings.items()]
    if m.triton_version:
        extra.append(f"Triton {m.triton_version}")
    return f"{m.kernel} {m.target} c{m.config_index}" + (f" ({', '.join(extra)})" if extra else "")


class CompareActions(SideActions):
    """The compare keys of the main screen (a base class of MainScreen, which declares the bindings).

    ``c`` marks a capture as side A: the one under the tree's cursor when the tree has the focus (a config,
    a variant, or any stage or pass inside one), else the one on screen. ``C`` compares side A with the
    capture chosen the same way.
    """

    compare_mark: str | None = None

    def _opened(self, key: str | None) -> Capture | None:
        """A capture the TUI has opened, by key."""
        from irscope.tui.app import IrscopeApp

        app = self.app
        return app.documents.captures.get(key) if key and isinstance(app, IrscopeApp) else None

    def _shown_capture(self) -> Capture | None:
        current = getattr(self, "current", None)
        return self._opened(current.key) if current is not None else None

    def _chosen_capture(self) -> tuple[Capture | None, Any]:
        """The capture ``c`` / ``C`` act on, and its tree id when it came from the tree.

        A config under the tree's cursor that has not been captured gives ``(None, cid)``.
        """
        from irscope.tui.app import IrscopeApp
        from irscope.tui.widgets.navigator import Navigator

        app = self.app
        nav = next(iter(self.query(Navigator)), None)
        if nav is not None and nav.has_focus and isinstance(app, IrscopeApp):
            cid = nav.cursor_capture()
            if cid is not None:
                capture = app.catalog.capture(cid)
                if capture is not None:
                    app.documents.add(capture)
                return capture, cid
        return self._shown_capture(), None

    def _navigator(self) -> Any:
        from irscope.tui.widgets.navigator import Navigator

        return next(iter(self.query(Navigator)), None)

    def action_mark_compare(self) -> None:
        """Remember a capture as side A of a comparison."""
        capture, cid = self._chosen_capture()
        if capture is None:
            where = f"{cid} has not been captured: press Enter on it first" if cid is not None else \
                "Open a capture, or put the tree's cursor on one"
            self.notify(f"{where}; c marks a capture for a comparison.", timeout=4)
            return
        self.compare_mark = capture.manifest.key
        nav = self._navigator()
        if nav is not None:  # the tree shows the mark (a capture opened on screen: by the id it was opened as)
            nav.set_marked(cid if cid is not None else getattr(self, "_cids", {}).get(capture.manifest.key))
        self.notify(f"Marked {capture_name(capture)} as A: put the tree's cursor on another capture (a target, "
                    "config, Triton or what-if variant) or open it, and press C.", timeout=5)

    def action_compare(self) -> None:
        """Show the facts of the marked capture against the chosen one."""
        right, cid = self._chosen_capture()
        left = self._opened(self.compare_mark)
        if left is None:
            self.notify("Nothing to compare yet: press c on one capture, then C on another.", timeout=3)
            return
        if right is None:
            what = f"{cid} has not been captured: press Enter on it first" if cid is not None else \
                "Open a capture or put the tree's cursor on one"
            self.notify(f"{what}, then press C to compare it with the marked one.", timeout=4)
            return
        if left.manifest.key == right.manifest.key:
            self.notify("That is the marked capture: choose another one, then press C.", timeout=3)
            return
        self.notify("Comparing the two captures' facts…", timeout=2)
        title = f"compare: A {capture_name(left)}  →  B {capture_name(right)}"

        def work() -> None:
            text = comparison_text(left, right)
            self.app.call_from_thread(self.app.push_screen, CompareScreen(text, title))

        self.run_worker(work, thread=True, exclusive=True, group="compare")
