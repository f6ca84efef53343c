"""What if: a form of the capture's settable names (launch options and constexprs) and their values.

``x`` on the main screen opens it (with the target and the Triton version; irscope.tui.variants). Changing
values and pressing Enter checks them (a value Triton would refuse is reported in the form, and nothing
compiles) and hands the changes back; the variant is compiled by irscope.request.what_if.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from irscope.errors import UsageError


@dataclass(frozen=True)
class WhatIfChoice:
    """What the user changed in the form.

    Attributes:
        settings: the changed values, typed.
        target: another target, or None.
        triton: another Triton version, or None.
    """

    settings: dict[str, Any]
    target: str | None = None
    triton: str | None = None


class WhatIfScreen(ModalScreen["WhatIfChoice | None"]):
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

    def on_mount(self) -> None:
        """Focus the first field the user may change, so typing edits it at once (the scroll would take the focus)."""
        fields = list(self.query(Input))
        if not self.movable:  # the target and Triton stay: the first setting
            fields = [f for f in fields if f.id is not None and f.id.startswith("set-")] or fields
        if fields:
            fields[0].focus()

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
        self.dismiss(WhatIfChoice(settings, where.get("target"), where.get("triton")))

    def action_dismiss_none(self) -> None:
        """Close without compiling."""
        self.dismiss(None)
