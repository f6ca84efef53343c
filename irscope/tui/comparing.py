"""Comparisons: the main screen's compare keys. ``c`` marks a capture as side A, ``C`` shows its facts against another.

A key acts on the capture under the tree's cursor when the tree has the focus (a config, a variant, or any
stage or pass inside one), else on the one on screen. The report is ``irscope compare``'s
(irscope.tui.screens.compare), read in a thread: ptxas -v may run once per capture.
"""

from __future__ import annotations

from textual.screen import Screen

from irscope.store.passdump import PassDump
from irscope.store.store import Capture
from irscope.tui.catalog import CaptureId
from irscope.tui.screens.compare import CompareScreen, capture_name, comparison_text
from irscope.tui.screens.divergence import PassList, pass_rows
from irscope.tui.state import AppState
from irscope.tui.widgets.navigator import Navigator


def _side(label: str, capture: Capture, dump: PassDump, index: int | None) -> PassList:
    """One side's pass list, at the pass of ``index``."""
    passes = [p for p in dump.index.passes if p.ir == "mlir"]
    at = next((i for i, p in enumerate(passes) if p.index == index), None)
    return PassList(f"{label}: {capture_name(capture)}", pass_rows([(p.index, p.stage, p.name) for p in passes]), at)


def divergence_of(left: Capture, right: Capture) -> tuple[str, PassList, PassList] | None:
    """The first divergence's report and both pass lists, when both captures have their per-pass dumps stored."""
    from irscope.analysis.facts import compare_facts
    from irscope.errors import IrscopeError
    from irscope.request.backend_swap import explain_moves
    from irscope.request.divergence import first_divergence
    from irscope.store.passdump import load_dump
    from irscope.tui.screens.compare import facts_of
    from irscope.views.divergence_text import render_divergence
    from irscope.views.swap_text import render_swap

    dump_a, dump_b = load_dump(left.path), load_dump(right.path)
    if dump_a is None or dump_b is None:
        return None
    div = first_divergence(left, right, lambda: dump_a, lambda: dump_b)
    facts_a, facts_b = facts_of(left).values, facts_of(right).values
    lines = render_divergence(div, compare_facts(facts_a, facts_b), ())
    try:  # the swap a compare of the two kept, if any (nothing is compiled here)
        swap = explain_moves(left, right, None, None, facts_a, facts_b, make=False)
    except (IrscopeError, OSError):
        swap = None
    if swap is not None:
        lines += ["", *render_swap(swap)]
    head = "\n".join(lines)
    return head, _side("A", left, dump_a, div.index_a), _side("B", right, dump_b, div.index_b)


class Comparisons:
    """Side A of the next comparison, and the two keys that use it.

    Attributes:
        mark: the capture key marked as side A, or None.
    """

    def __init__(self, screen: Screen[None], state: AppState) -> None:
        self.screen = screen
        self.state = state
        self.mark: str | None = None

    def opened(self, key: str | None) -> Capture | None:
        """A capture the TUI has opened, by key."""
        return self.state.documents.captures.get(key) if key else None

    def chosen(self, shown: str | None) -> tuple[Capture | None, CaptureId | None]:
        """The capture ``c`` / ``C`` act on (``shown``: the key of the one on screen), and its tree id when it
        came from the tree. A config under the tree's cursor that has not been captured gives ``(None, cid)``."""
        nav = next(iter(self.screen.query(Navigator)), None)
        if nav is not None and nav.has_focus:
            cid = nav.cursor_capture()
            if cid is not None:
                capture = self.state.catalog.capture(cid)
                if capture is not None:
                    self.state.documents.add(capture)
                return capture, cid
        return self.opened(shown), None

    def mark_chosen(self, shown: str | None, shown_as: CaptureId | None) -> None:
        """Remember the chosen capture as side A (``shown_as``: the tree id the capture on screen was opened as)."""
        capture, cid = self.chosen(shown)
        if capture is None:
            where = f"{cid} has not been captured: press Enter on it first" if cid is not None else \
                "Open a capture, or put the tree's cursor on one"
            self.screen.notify(f"{where}; c marks a capture for a comparison.", timeout=4)
            return
        self.mark = capture.manifest.key
        nav = next(iter(self.screen.query(Navigator)), None)
        if nav is not None:  # the tree shows the mark (a capture opened on screen: by the id it was opened as)
            nav.set_marked(cid if cid is not None else shown_as)
        self.screen.notify(f"Marked {capture_name(capture)} as A: put the tree's cursor on another capture (a "
                           "target, config, Triton or what-if variant) or open it, and press C.", timeout=5)

    def compare_chosen(self, shown: str | None) -> None:
        """Show the facts of the marked capture against the chosen one."""
        right, cid = self.chosen(shown)
        left = self.opened(self.mark)
        if left is None:
            self.screen.notify("Nothing to compare yet: press c on one capture, then C on another.", timeout=3)
            return
        if right is None:
            what = f"{cid} has not been captured: press Enter on it first" if cid is not None else \
                "Open a capture or put the tree's cursor on one"
            self.screen.notify(f"{what}, then press C to compare it with the marked one.", timeout=4)
            return
        if left.manifest.key == right.manifest.key:
            self.screen.notify("That is the marked capture: choose another one, then press C.", timeout=3)
            return
        self.screen.notify("Comparing the two captures' facts…", timeout=2)
        title = f"compare: A {capture_name(left)}  →  B {capture_name(right)}"
        app = self.screen.app

        def work() -> None:
            found = divergence_of(left, right)
            first = [*found[0].splitlines(), "  (p: the two pass lists side by side at that pass)"] if found else []
            text = comparison_text(left, right, first=first)
            app.call_from_thread(app.push_screen, CompareScreen(text, title, found))

        self.screen.run_worker(work, thread=True, exclusive=True, group="compare")
