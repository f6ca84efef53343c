"""DivergenceScreen: the two pass lists of a comparison side by side, each at the first divergent pass.

Opened with ``p`` from the compare screen (irscope.tui.screens.compare) when both captures have per-pass dumps;
the divergence is ``irscope compare``'s (irscope.request.divergence).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static


@dataclass(frozen=True)
class PassList:
    """One side's MLIR passes as the screen lists them.

    Attributes:
        title: which capture (``A: matmul sm90 c0 (Triton 3.5.1)``).
        rows: one label per pass (``34  ttgir  tritongpu-assign-latencies``).
        at: the row of the first divergent pass, or None when this side has none.
    """

    title: str
    rows: tuple[str, ...]
    at: int | None


def pass_rows(passes: Sequence[tuple[int, str, str]]) -> tuple[str, ...]:
    """``(index, stage, name)`` per pass as the list's labels."""
    return tuple(f"{index:>3}  {stage:<5}  {name}" for index, stage, name in passes)


class DivergenceScreen(ModalScreen[None]):
    """Side A's passes beside side B's, the cursor of each on the first divergent pass; Escape or q closes it."""

    DEFAULT_CSS = """
    DivergenceScreen { align: center middle; background: $background; }
    DivergenceScreen > #divergence-head { width: 95%; height: auto; max-height: 12; padding: 0 1; }
    DivergenceScreen > Horizontal { width: 95%; height: 1fr; }
    DivergenceScreen OptionList { width: 1fr; height: 100%; border: round $primary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,p", "dismiss", "Close")]

    def __init__(self, head: str, left: PassList, right: PassList) -> None:
        super().__init__()
        self.head = head
        self.left = left
        self.right = right

    def compose(self) -> ComposeResult:
        """The divergence's summary above the two lists."""
        yield Static(self.head, id="divergence-head", markup=False)
        with Horizontal():
            for side, key in ((self.left, "a"), (self.right, "b")):
                listing = OptionList(*side.rows, id=f"passes-{key}")
                listing.border_title = side.title
                yield listing

    def on_mount(self) -> None:
        """Each list at its side's divergent pass, the focus on A's."""
        for side, key in ((self.left, "a"), (self.right, "b")):
            listing = self.query_one(f"#passes-{key}", OptionList)
            if side.at is not None:
                listing.highlighted = side.at
                listing.scroll_to_highlight(top=False)
        self.query_one("#passes-a", OptionList).focus()
