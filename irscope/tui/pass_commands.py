"""The passes of a capture as palette entries: ``p`` on the main screen (go to a pass by name) and Ctrl+P."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import SimpleCommand

from irscope.tui.documents import DocRef, Documents


def stage_pass_commands(documents: Documents, key: str, stage: str, reveal: Callable[[DocRef], object],
                        prefix: str = "") -> list[SimpleCommand]:
    """A command per pass of one stage of a capture: its number and name, what it changed, and ``reveal`` it."""
    effects = documents.effects(key) or {}
    out = []
    for snap in documents.passes(key, stage):
        effect = effects.get((snap.index, ""))
        out.append(SimpleCommand(f"{prefix}{snap.index} {snap.name}",
                                 partial(reveal, DocRef(key, stage, snap.index)),
                                 effect.summary if effect is not None and effect.summary else stage))
    return out


def pass_commands(documents: Documents, key: str, reveal: Callable[[DocRef], object]) -> list[SimpleCommand]:
    """Every pass of a capture in pipeline order, each saying its stage (``canonicalize`` runs in several)."""
    return [SimpleCommand(c.name, c.callback, c.help_text if c.help_text == stage.name else
                          f"{stage.name}: {c.help_text}")
            for stage in documents.stages(key) for c in stage_pass_commands(documents, key, stage.name, reveal)]
