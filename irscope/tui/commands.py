"""The command palette (ctrl+p): every action of the main screen, plus opening any capture, stage or pass."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

from irscope.tui.catalog import CaptureId
from irscope.tui.documents import DocRef
from irscope.tui.pass_commands import stage_pass_commands

if TYPE_CHECKING:
    from irscope.tui.screens.main import MainScreen


@dataclass(frozen=True)
class Command:
    """One palette entry.

    Attributes:
        title: what the palette lists.
        help: one line under it.
        run: what choosing it does.
    """

    title: str
    help: str
    run: Callable[[], object]


# The screen's actions, in the order the palette lists them when nothing is typed.
_ACTIONS: tuple[tuple[str, str, str], ...] = (
    ("Toggle diff", "toggle_diff", "compare the stage with the previous one, or the pass with its input (d)"),
    ("Toggle side-by-side diff", "toggle_side_by_side", "two columns instead of a unified diff (s)"),
    ("Show or hide locations", "toggle_locations", "MLIR #loc lines and loc(...) suffixes (#)"),
    ("Ignore SSA renumbering", "toggle_ssa", "diffs treat %x_12 and %x_13 as the same value, or not (r)"),
    ("Next change", "change(1)", "jump to the next change of the diff (])"),
    ("Previous change", "change(-1)", "jump to the previous change of the diff ([)"),
    ("Search", "search", "find a regular expression in the text (/), then n and N"),
    ("Go to pass", "go_to_pass", "jump to a pass of the capture on screen by typing part of its name (p)"),
    ("Next match", "match(1)", "the next search match (n)"),
    ("Previous match", "match(-1)", "the previous search match (N)"),
    ("Go to line", "goto", "jump to a line number (g)"),
    ("Copy line", "copy(False)", "copy the cursor line to the clipboard (y)"),
    ("Copy all", "copy(True)", "copy the whole text or diff to the clipboard (Y)"),
    ("Show source", "side('source')", "the kernel's Python next to the IR, lines mapped both ways (o)"),
    ("Show layouts", "side('layouts')", "the TTGIR's layouts explained, with the tile-to-warp map (L)"),
    ("Layout map: tensor or hardware view", "layout_view", "who holds each element, or what each lane holds (v)"),
    ("Layout map: next warp", "layout_warp(1)", "the hardware view of the next warp (w, W for the previous)"),
    ("Show facts", "side('facts')", "loops, registers, shared memory, occupancy, tensor cores (i)"),
    ("Toggle side panel", "toggle_side", "hide or show the side panel (b)"),
    ("Focus tree", "focus_tree", "move the focus to the navigator (t)"),
    ("Focus text", "focus_text", "move the focus to the IR or diff (e)"),
    ("Help", "help", "every key (?)"),
)


def screen_commands(screen: MainScreen) -> list[Command]:
    """Every command the main screen offers now: its actions, the captures, and the open capture's stages and passes."""
    out = [Command(title, help_text, partial(screen.run_action, action)) for title, action, help_text in _ACTIONS]
    state = screen.state
    catalog = state.catalog
    for name in catalog.names():
        for target in catalog.target_names(name):
            for index, label in enumerate(catalog.configs(name, target)):
                cid = CaptureId(name, target, index)
                if not label and cid not in catalog.stored:
                    continue
                out.append(Command(f"Open {name} on {target} config {index}", label or "stored capture",
                                   partial(screen.open_capture, cid)))
    current = screen.current
    if current is not None and current.key in state.documents.captures:
        docs = state.documents
        for stage in docs.stages(current.key):
            out.append(Command(f"Show stage {stage.name}", stage.display,
                               partial(screen.reveal_ref, DocRef(current.key, stage.name))))
            out.extend(Command(c.name, c.help_text or "", c.callback)
                       for c in stage_pass_commands(docs, current.key, stage.name, screen.reveal_ref, "Show pass "))
    return out


class IrscopeCommands(Provider):
    """The palette's irscope entries."""

    def _commands(self) -> list[Command]:
        from irscope.tui.screens.main import MainScreen

        screen = self.screen
        return screen_commands(screen) if isinstance(screen, MainScreen) else []

    async def discover(self) -> Hits:
        """With nothing typed: the screen's actions."""
        for command in self._commands()[:len(_ACTIONS)]:
            yield DiscoveryHit(command.title, command.run, help=command.help)

    async def search(self, query: str) -> Hits:
        """Fuzzy-match every command."""
        matcher = self.matcher(query)
        for command in self._commands():
            score = matcher.match(command.title)
            if score > 0:
                yield Hit(score, matcher.highlight(command.title), command.run, text=command.title, help=command.help)
