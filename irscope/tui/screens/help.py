"""HelpScreen: what irscope's TUI shows and every key, on one page."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

# (keys, what they do) per area, in the order a new user needs them.
KEYS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("Tree (left)", (
        ("↑ ↓  j k", "move; the middle shows the stage or pass under the cursor"),
        ("→ ←", "unfold / fold (configs hold stages, stages hold their passes)"),
        ("Enter", "on a config marked ○: compile it in the background; ✓: open it"),
        ("p", "go to a pass by name: type part of it (pipeline, coalesce...), ↓ ↑ to choose, Enter"),
        ("1 … 9", "show the capture's stages: the tree numbers them (1 source, 3 ttgir...), from anywhere"),
        ("a", "every capture of the kernel the store holds (targets, configs, what-if variants): choose one"),
        ("", "● a pass that changed the IR (+added -removed lines); ┄ a run of passes that changed nothing; "
             "3 ttgir 14/44 changed: 14 of its 44 passes changed it"),
    )),
    ("Text (middle)", (
        ("d", "diff: the stage against the stage before it, a pass against its input (locations stripped)"),
        ("s", "unified or side-by-side diff"),
        ("] [", "next / previous change of the diff"),
        ("r", "diffs ignore SSA renumbering (%x_12 vs %x_13), or not (the line under the diff says which)"),
        ("/  n  N", "search (a regular expression; lower case ignores case), next and previous match"),
        ("#", "show or hide MLIR locations: #loc lines and loc(...) (hidden at first; the line numbers are the "
              "stored text's either way)"),
        ("g  :", "go to a line number"),
        ("y  Y", "copy the cursor line / the whole text"),
        ("↑ ↓ PgUp PgDn Home End", "move the cursor; the source pane follows it"),
        ("← →  Ctrl+PgUp Ctrl+PgDn", "scroll sideways through long lines (a column, a page); Shift+wheel too"),
        ("m  M", "next / previous line tinted for the current kernel line"),
    )),
    ("Side panel (below the text under 240 columns)", (
        ("o", "source: the kernel's Python; the cursor on either side tints the lines of the other"),
        ("L", "layouts of the TTGIR on screen, explained, with the tile-to-warp map of the chosen one"),
        ("v  w W", "layout map: tensor or hardware view; next / previous warp"),
        ("z", "the side panel over the whole screen (a layout map at full width), or back"),
        ("i", "facts: warps, shared memory, tensor cores, what the pipelining passes did"),
        ("b", "hide or show the side panel"),
    )),
    ("Everywhere", (
        ("Tab  Shift+Tab", "move the focus between tree, text and side panel (t: tree, e: text)"),
        ("Ctrl+P", "command palette: every action, and open any kernel, target, config, stage or pass"),
        ("c  C", "compare: c marks the capture on screen (A in the tree), then on another one C shows the "
                 "facts of both side by side"),
        ("x", "what if: change num_stages, num_warps, a block size...; the variant against this capture"),
        ("?  F1", "this help"),
        ("q  Ctrl+Q", "quit"),
    )),
)

INTRO = ("irscope shows what the Triton compiler does to a kernel: every stage (Python, TTIR, TTGIR, LLVM IR, "
         "PTX or AMDGCN, SASS) and every pass that turned one into the next. To see a kernel get software-pipelined: "
         "open ttgir in the tree, walk its passes with ↓, and press d on tritongpu-pipeline.")


def render_help() -> Table:
    """The help page as a table."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for area, rows in KEYS:
        table.add_row("", "")
        title, _, note = area.partition(" (")
        table.add_row(Text(title, style="bold underline"), Text(f"({note}" if note else "", style="dim"))
        for keys, what in rows:
            table.add_row(Text(keys, style="bold"), what)
    return table


class HelpScreen(ModalScreen[None]):
    """Every key; Escape, q or ? closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 120; height: 90%; border: round $primary; background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close"),
    ]

    def compose(self) -> ComposeResult:
        """The page, scrollable."""
        with VerticalScroll() as scroll:
            scroll.border_title = "irscope: keys"
            yield Static(Text(INTRO))
            yield Static(render_help())
