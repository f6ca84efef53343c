"""Messages between the TUI's widgets, screens and background jobs: small dataclasses."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from irscope.analysis.diff import DiffOptions, TextDiff
from irscope.tui.catalog import CaptureId
from irscope.tui.documents import DocRef


@dataclass
class ShowDocument(Message):
    """The navigator's cursor rests on a stage or a pass: show it."""

    ref: DocRef


@dataclass
class ShowCapturePrompt(Message):
    """The navigator's cursor rests on a config that has no capture yet."""

    cid: CaptureId


@dataclass
class OpenCapture(Message):
    """The user chose a kernel, target and config: capture it if needed and open it."""

    cid: CaptureId


@dataclass
class CursorMoved(Message):
    """The cursor of a line view moved; only the latest position matters."""

    view: str
    line: int

    def can_replace(self, message: Message) -> bool:
        """A newer move of the same view replaces an older one still queued."""
        return isinstance(message, CursorMoved) and message.view == self.view


@dataclass
class MarkText(Message):
    """Tint these rows of the text (the IR a source line produced); bring ``reveal`` into view when given."""

    rows: frozenset[int]
    reveal: int | None


@dataclass
class DiffReady(Message):
    """A diff computed off the UI thread is ready."""

    ref: DocRef
    options: DiffOptions
    diff: TextDiff
