"""The captures of a kernel as palette entries: ``a`` on the main screen lists every target, config and variant
of the kernel on screen that the store holds, and opens the one chosen."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import SimpleCommand

from irscope.tui.catalog import CaptureId, Catalog


def capture_title(catalog: Catalog, cid: CaptureId) -> str:
    """How the picker names a capture: target, config and its label, or what a variant changes."""
    label = catalog.label(cid)
    arrow = "↳ " if cid.variant else ""
    return f"{cid.target} · config {cid.config} · {arrow}{label}".rstrip(" ·")


def capture_commands(catalog: Catalog, kernel: str, shown: str | None,
                     open_capture: Callable[[CaptureId], object]) -> list[SimpleCommand]:
    """A command per stored capture of ``kernel``; the one on screen (store key ``shown``) says so."""
    out = []
    for cid in catalog.captures_of(kernel):
        target = catalog.targets.get(cid.target)
        where = target.description if target is not None else cid.target
        note = "on screen · " if catalog.key(cid) == shown else ""
        out.append(SimpleCommand(capture_title(catalog, cid), partial(open_capture, cid), f"{note}{where}"))
    return out
