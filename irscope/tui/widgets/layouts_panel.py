"""LayoutsPanel: the layouts of the TTGIR on screen, each explained, and the tile-to-warp map of the chosen one."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from irscope.parse.layouts import OpaqueLayout

if TYPE_CHECKING:
    from irscope.analysis.layouts.explain import LayoutInfo, LayoutReport

# The layouts a reader looks at first: the tensor-core accumulators.
_MMA_KINDS = ("nvidia_mma", "amd_mfma", "amd_wmma")
_MAP_ROWS = 16


def default_layout(report: LayoutReport) -> int:
    """The index to select first: the tensor-core layout, else the first distributed one."""
    for i, info in enumerate(report.layouts):
        if info.layout.kind in _MMA_KINDS:
            return i
    return next((i for i, info in enumerate(report.layouts) if info.layout.distributed), 0)



def no_map_reason(info: LayoutInfo) -> str | None:
    """Why a layout has no warp map (memory layout, unreadable, never used), or None when it has one."""
    if isinstance(info.layout, OpaqueLayout):
        return f"irscope cannot draw this layout ({info.layout.reason})."
    if not info.layout.distributed:
        return "this layout places data in shared or tensor memory, not in threads."
    if not info.shapes:
        return "no op uses this layout, so it has no shape to draw."
    return None

class LayoutsPanel(Vertical, can_focus=False):
    """A list of layouts; the highlighted one explained and drawn."""

    DEFAULT_CSS = """
    LayoutsPanel { height: 1fr; }
    LayoutsPanel > OptionList { height: auto; max-height: 40%; border: none; padding: 0; }
    LayoutsPanel > #layout-detail { height: 1fr; padding: 0 1; }
    LayoutsPanel #layout-explain { margin-bottom: 1; }
    LayoutsPanel #layout-map { width: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "toggle_view", "Tensor/hardware view"),
        Binding("w", "warp(1)", "Next warp", show=False),
        Binding("W", "warp(-1)", "Previous warp", show=False),
    ]

    view: reactive[str] = reactive("tensor")
    warp: reactive[int] = reactive(0)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.report: LayoutReport | None = None
        self.source = ""
        self._drawn_width = 0
        self.map_text = ""

    def compose(self) -> ComposeResult:
        """The list above, the explanation and map below."""
        yield OptionList(id="layout-list")
        with VerticalScroll(id="layout-detail"):
            yield Static(id="layout-explain")
            yield Static(id="layout-map")

    def show_report(self, report: LayoutReport | None, source: str, note: str = "") -> None:
        """List a module's layouts (None: show ``note`` instead)."""
        self.report, self.source = report, source
        options = self.query_one(OptionList)
        options.clear_options()
        explain = self.query_one("#layout-explain", Static)
        self.query_one("#layout-map", Static).update("")
        if report is None or not report.layouts:
            explain.update(Text(note or "This text has no layouts.", style="dim italic"))
            return
        from irscope.analysis.ir_facts import layout_phrase

        for info in report.layouts:
            label = Text(info.label if len(info.label) < 28 else info.label[:27] + "…", style="bold")
            label.append(f"  {layout_phrase(info.layout)}", style="dim")
            options.add_option(Option(label))
        options.highlighted = default_layout(report)

    @property
    def selected(self) -> LayoutInfo | None:
        """The highlighted layout."""
        index = self.query_one(OptionList).highlighted
        if self.report is None or index is None or not 0 <= index < len(self.report.layouts):
            return None
        return self.report.layouts[index]

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.warp = 0
        self.refresh_detail()

    def refresh_detail(self) -> None:
        """Explain the selected layout and draw its map (off the UI thread: big tiles take a moment)."""
        info = self.selected
        if info is None:
            return
        text = Text(info.explanation + "\n")
        uses = len(info.uses)
        shapes = ", ".join("x".join(str(d) for d in shape) for shape in info.shapes[:4])
        text.append(f"used by {uses} op{'s' if uses != 1 else ''}" + (f"; shapes {shapes}" if shapes else ""),
                    style="dim")
        for reg in info.registers[:3]:
            text.append(f"\n{'x'.join(str(d) for d in reg.shape)} {reg.element}: {reg.registers} registers per "
                        f"thread", style="dim")
        self.query_one("#layout-explain", Static).update(text)
        why = no_map_reason(info)
        if why is not None:
            self.query_one("#layout-map", Static).update(Text(f"No warp map: {why}", style="dim italic"))
            return
        self.query_one("#layout-map", Static).update(Text("drawing the map…", style="dim italic"))
        self.map_text = ""
        self._drawn_width = self.size.width
        self._draw(info, self.view, self.warp, max(40, self.size.width - 4))

    @work(thread=True, exclusive=True, group="layout-map", exit_on_error=False)
    def _draw(self, info: LayoutInfo, view: str, warp: int, width: int) -> None:
        from irscope.views.layout_map import render_layout_map

        try:
            picture: Text = render_layout_map(info.layout, info.shapes[0], view, width=width, max_rows=_MAP_ROWS,
                                              warp=warp, label=info.label)
        except ValueError as exc:  # the analysis raises UnsupportedLayout (a ValueError) for what it cannot model
            picture = Text(f"No map: {exc}", style="dim italic")
        except Exception as exc:  # the map is another module's: show its failure instead of closing the UI
            picture = Text(f"No map: drawing failed ({type(exc).__name__}: {exc})", style="dim italic")
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show_map, picture)

    def _show_map(self, picture: Text) -> None:
        self.map_text = picture.plain
        self.query_one("#layout-map", Static).update(picture)

    @property
    def settled(self) -> bool:
        """Whether the map on screen is drawn for the panel's present width (no redraw pending)."""
        busy = any(w.group == "layout-map" and not w.is_finished for w in self.workers)
        return bool(self.map_text) and not busy and self._drawn_width == self.size.width

    def on_resize(self, event: events.Resize) -> None:
        """Fold the map again for the new width."""
        if event.size.width != self._drawn_width and self.selected is not None:
            self.refresh_detail()

    def action_toggle_view(self) -> None:
        """Switch between the tensor view (who holds each element) and the hardware view (what each lane holds)."""
        self.view = "hardware" if self.view == "tensor" else "tensor"

    def action_warp(self, step: int) -> None:
        """Show another warp in the hardware view."""
        num = self.report.module.num_warps if self.report is not None else None
        self.warp = (self.warp + step) % (num or 1)

    def watch_view(self) -> None:
        """Redraw in the other view."""
        self.refresh_detail()

    def watch_warp(self) -> None:
        """Redraw for another warp."""
        if self.view == "hardware":
            self.refresh_detail()
