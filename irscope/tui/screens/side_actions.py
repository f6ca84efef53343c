"""The side panel's keys on the main screen: tabs that take the focus, the layout map's keys from anywhere,
zooming the panel over the whole screen, and stepping through the rows tinted for a source line.

A base class of MainScreen (irscope.tui.screens.main), which declares the bindings.
"""

from __future__ import annotations

from textual.reactive import var
from textual.screen import Screen

from irscope.tui.widgets.layouts_panel import LayoutsPanel
from irscope.tui.widgets.side_panel import SidePanel
from irscope.tui.widgets.text_view import TextView


class SideActions(Screen[None]):
    """What the side panel's keys do."""

    side_visible: var[bool] = var(True, init=False)
    side_zoomed: var[bool] = var(False, init=False)

    def action_tinted(self, step: int) -> None:
        """Move the text's cursor to the next (or previous) row tinted for the current source line, wrapping."""
        view = self.query_one(TextView)
        side = self.query_one(SidePanel)
        line = side.tinted_line
        rows = sorted(side.line_map.from_source.get(line, ())) if line is not None and not view.diffing else []
        if not rows:
            why = ("the diff's rows are not mapped to the source: d shows the text again" if view.diffing else
                   "put the cursor on an IR line that came from the kernel, or on a kernel line in the source (o)")
            self.notify(f"No tinted lines: {why}.", timeout=3)
            return
        if step > 0:
            row = next((r for r in rows if r > view.cursor), rows[0])
        else:
            row = next((r for r in reversed(rows) if r < view.cursor), rows[-1])
        side.pinned_line = line
        view.move_to(row)
        view.border_subtitle = (f"line {line} of the kernel: IR line {rows.index(row) + 1}/{len(rows)} · "
                                "m next, M previous")

    def action_side(self, which: str) -> None:
        """Show a side panel (source, layouts or facts) and give it the focus: its keys are the next ones typed."""
        self.side_visible = True
        side = self.query_one(SidePanel)
        side.show_tab(which)
        self.call_after_refresh(side.focus_tab)  # the layouts panel mounts just after the first frame

    def action_layout_view(self) -> None:
        """Tensor or hardware view of the layout map (from anywhere: the layouts come forward)."""
        if not self._layouts_forward():
            return
        for panel in self.query(LayoutsPanel):
            panel.action_toggle_view()

    def action_layout_warp(self, step: int) -> None:
        """Another warp in the layout map's hardware view (the tensor view switches to it first)."""
        if not self._layouts_forward():
            return
        for panel in self.query(LayoutsPanel):
            if panel.view != "hardware":
                panel.view = "hardware"
                self.notify("The hardware view draws one warp at a time: w / W step through them.", timeout=3)
                continue
            panel.action_warp(step)

    def _layouts_forward(self) -> bool:
        """Bring the layouts tab forward; False (and say so) while it has nothing to draw."""
        side = self.query_one(SidePanel)
        if not self.side_visible or side.active_tab != "layouts":
            self.action_side("layouts")
        panels = list(self.query(LayoutsPanel))
        if panels and panels[0].selected is None:
            if side.layouts_pending:
                self.notify("The layouts are still being read: press the key again in a moment.", timeout=3)
            else:
                self.notify("No layout to draw here: the layouts panel says why.", timeout=3)
            return False
        return True

    def action_toggle_side(self) -> None:
        """Hide or show the side panels."""
        self.side_visible = not self.side_visible

    def watch_side_visible(self, visible: bool) -> None:
        """Give the text the whole width when the side panels are hidden."""
        side = self.query_one(SidePanel)
        side.display = visible
        if visible:
            side.refresh_tab()
        else:
            self.side_zoomed = False

    def action_zoom_side(self) -> None:
        """Give the side panel the whole screen (a layout map at full width), or give it back."""
        self.side_zoomed = not self.side_zoomed

    def watch_side_zoomed(self, zoomed: bool) -> None:
        """Hide the tree and the text while the side panel is zoomed."""
        if zoomed and not self.side_visible:
            self.side_visible = True
        self.set_class(zoomed, "-side-zoom")
        side = self.query_one(SidePanel)
        if zoomed:
            side.focus_tab()
        elif self.focused is None or not self.focused.display:
            self.query_one(TextView).focus()
