"""Navigator: the tree of kernels -> targets -> configs -> stages -> passes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.scroll_view import ScrollView
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from irscope.model.stages import Stage
from irscope.tui.catalog import CaptureId, Catalog
from irscope.tui.documents import DocRef
from irscope.tui.messages import OpenCapture, ShowCapturePrompt, ShowDocument

if TYPE_CHECKING:
    from irscope.analysis.passes import PassEffect
    from irscope.parse.passes import PassSnapshot

# Stages whose passes the per-pass dump records (the MLIR pipeline).
PASS_STAGES = ("ttir", "ttgir", "llir")


@dataclass(frozen=True)
class NavItem:
    """What a tree node stands for.

    Attributes:
        kind: ``kernel``, ``target``, ``config``, ``stage``, ``pass``, ``step``, ``fold`` or ``note``.
        cid: the capture id (kernel, target, config) the node belongs to.
        ref: for stage, pass and step nodes, what to show.
        name: for pass and step nodes, the name in the label (elided in its middle when the tree is narrow).
    """

    kind: str
    cid: CaptureId
    ref: DocRef | None = None
    name: str = ""


Node = TreeNode[NavItem]


FOLDED = ("unchanged", "locations")


def pass_label(snap: PassSnapshot, effect: PassEffect | None) -> Text:
    """A pass's line in the tree: a mark, its number and name, and the lines it changed."""
    text = Text()
    if effect is None:
        text.append("· ", style="dim")
    elif effect.status in FOLDED:
        text.append("  ")
    elif effect.status == "failed":
        text.append("✗ ", style="bold red")
    elif effect.status in ("unknown", "unreadable"):
        text.append("? ", style="dim")
    else:
        text.append("● ", style="bold green")
    text.append(f"{snap.index:>2} ", style="dim")
    quiet = effect is not None and effect.status in FOLDED
    text.append(snap.step or snap.name, style="dim" if quiet else "")
    if effect is not None and not quiet and (effect.added or effect.removed):
        text.append(f" +{effect.added} -{effect.removed}", style="dim")
    return text


def _elision(name: str, width: int) -> tuple[int, int]:
    """Where to cut ``name`` to show it in ``width`` cells: keep ``name[:head]``, ``…``, then ``name[start:]``."""
    keep = width - 1
    head = keep // 2
    cut = name.rfind("-", 0, head + 1)
    if cut >= max(1, head - 5):  # the start ends after a whole word
        head = cut + 1
    start = len(name) - (keep - head)
    if name[start - 1] != "-":  # the end begins with a whole word
        nxt = name.find("-", start)
        if 0 <= nxt - start < 5 and nxt + 1 < len(name):
            start = nxt + 1
    return head, start


def elide_middle(name: str, width: int) -> str:
    """``name`` in ``width`` cells: its start and its end with ``…`` between (``tritongpu-…conversions``)."""
    if len(name) <= width:
        return name
    head, start = _elision(name, width)
    return f"{name[:head]}…{name[start:]}"


def fit_label(label: Text, name: str, width: int) -> Text:
    """A tree label in ``width`` cells: a pass's line counts dropped, then its ``name`` elided in the middle
    (a label without a name, or with too little room for both ends of it, is cut at the end with ``…``)."""
    excess = label.cell_len - width
    if excess <= 0:
        return label
    at = label.plain.find(name) if name else -1
    if at >= 0:
        end = at + len(name)
        label, excess = label[:end], excess - label[end:].cell_len  # the name before its +added -removed
        if excess <= 0:
            return label
    if at < 0 or len(name) - excess < 8:
        label = label.copy()
        label.truncate(max(1, width), overflow="ellipsis")
        return label
    head, start = _elision(name, len(name) - excess)
    piece = label[at:]
    return Text.assemble(label[:at], piece[:head], Text("…", style="dim"), piece[start:])


def fold_runs(passes: Sequence[PassSnapshot], effects: dict[tuple[int, str], PassEffect]) -> Iterator[
        tuple[str, list[PassSnapshot]]]:
    """Passes grouped for the tree: ``("pass", [p])`` for each changed pass, ``("fold", run)`` for unchanged runs."""
    run: list[PassSnapshot] = []
    for snap in passes:
        effect = effects.get((snap.index, ""))
        if effect is not None and effect.status in FOLDED:
            run.append(snap)
            continue
        if run:
            yield "fold", run
            run = []
        yield "pass", [snap]
    if run:
        yield "fold", run


class Navigator(Tree[NavItem]):
    """Kernels, targets, configs, stages and passes; the cursor shows what it rests on."""

    DEFAULT_CSS = """
    Navigator { width: 100%; height: 1fr; background: $panel; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Open", show=False),
        Binding("right,l", "expand_cursor", "Expand", show=False),
        Binding("left,h", "collapse_cursor", "Collapse", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("j", "cursor_down", "Down", show=False),
    ]

    def __init__(self, catalog: Catalog, *, id: str | None = None) -> None:
        super().__init__("kernels", id=id)
        self.catalog = catalog
        self.show_root = False
        self.auto_expand = False
        self.guide_depth = 2
        self._busy: dict[CaptureId, str] = {}
        self._failed: set[CaptureId] = set()
        self.marked: CaptureId | None = None

    def on_mount(self) -> None:
        """List every kernel with its targets and configs."""
        self.populate()

    def notify_style_update(self) -> None:
        """Redraw in the new colours (focus, theme) without Textual's Tree relayout of the whole screen.

        Tree drops its line caches and asks for a layout on every style change; a colour change needs only
        a repaint, which saves about 40 ms per focus change here. Falls back to Tree's own handling when a
        Textual version lacks the cache it clears.
        """
        clear = getattr(self, "_clear_line_cache", None)
        if clear is None:
            super().notify_style_update()
            return
        ScrollView.notify_style_update(self)
        clear()
        self.refresh()

    def render_label(self, node: Node, base_style: Style, style: Style) -> Text:
        """A label fitted to the tree's width: a pass's name elided in the middle, other labels cut at the end.

        The tree never scrolls sideways, and a pass name keeps both ends (``tritongpu-…conversions``); the
        header above the text names the pass in full.
        """
        label = super().render_label(node, base_style, style)
        data = node.data
        if data is None:
            return label
        width = self.size.width - self.styles.scrollbar_size_vertical
        if width <= 0:
            return label
        depth, parent = 0, node.parent
        while parent is not None and parent is not self.root:
            depth, parent = depth + 1, parent.parent
        return fit_label(label, data.name, width - depth * self.guide_depth)

    # Building -------------------------------------------------------------------------------------

    def populate(self) -> None:
        """Fill the tree from the catalog (captured configs marked)."""
        self.clear()
        captured = self.catalog.captured()
        for name in self.catalog.names():
            kernel_node = self.root.add(Text(name, style="bold"), NavItem("kernel", CaptureId(name, "")))
            for target_name in self.catalog.target_names(name):
                target = self.catalog.targets[target_name]
                target_node = kernel_node.add(self._target_label(target.name, target.description),
                                              NavItem("target", CaptureId(name, target.name)))
                for index, label in enumerate(self.catalog.configs(name, target.name)):
                    cid = CaptureId(name, target.name, index)
                    if label or cid in self.catalog.stored:
                        have = self.catalog.key(cid) in captured
                        target_node.add(self._config_label(cid, label, have), NavItem("config", cid),
                                        allow_expand=have)
                    for variant in self.catalog.variants_of(cid):
                        target_node.add(self._config_label(variant, variant.variant, True), NavItem("config", variant))

    def add_variant(self, cid: CaptureId) -> None:
        """List a variant made after the tree was built, below its config and the variants made before it."""
        if self.config_node(cid) is not None:
            return
        target = self.find("target", CaptureId(cid.kernel, cid.target))
        if target is None:
            self.populate()
            return
        after: Node | None = None
        for node in target.children:
            data = node.data
            if data is not None and data.cid.base == cid.base:
                after = node
        label = self._config_label(cid, cid.variant, True)
        if after is None:
            target.add(label, NavItem("config", cid))
        else:
            target.add(label, NavItem("config", cid), after=after)

    def set_marked(self, cid: CaptureId | None) -> None:
        """Show which capture is side A of a comparison (None: none is)."""
        before, self.marked = self.marked, cid
        for changed in (before, cid):
            if changed is not None:
                self.set_busy(changed, self._busy.get(changed))

    @staticmethod
    def _target_label(name: str, description: str) -> Text:
        text = Text(name)
        text.append(f"  {description.split(':')[0]}", style="dim")
        return text

    def _config_label(self, cid: CaptureId, label: str, have: bool) -> Text:
        text = Text()
        busy = self._busy.get(cid)
        if busy:
            text.append("⟳ ", style="bold yellow")
        elif cid in self._failed:
            text.append("✗ ", style="bold red")
        elif have:
            text.append("✓ ", style="green")
        else:
            text.append("○ ", style="dim")
        if cid.variant:
            text.append(f"c{cid.config} ", style="dim")
            text.append("↳ ", style="dim")
            text.append(label, style="magenta")
        else:
            text.append(f"c{cid.config} ", style="bold" if have else "")
            text.append(label, style="" if have else "dim")
        if cid == self.marked:
            text.append("  A", style="bold reverse")
        if busy:
            text.append(f"  {busy}", style="yellow")
        return text

    def find(self, kind: str, cid: CaptureId, ref: DocRef | None = None) -> Node | None:
        """The node of a kind for a capture id (and reference), if the tree has it."""
        stack: list[Node] = [self.root]
        while stack:
            node = stack.pop()
            data = node.data
            if data is not None and data.kind == kind and data.cid == cid and (ref is None or data.ref == ref):
                return node
            stack.extend(reversed(node.children))
        return None

    def cursor_capture(self) -> CaptureId | None:
        """The capture id of the node under the cursor (a config, or anything inside one)."""
        node = self.cursor_node
        data = node.data if node is not None else None
        if data is None or data.kind in ("kernel", "target"):
            return None
        return data.cid

    def config_node(self, cid: CaptureId) -> Node | None:
        """The node of a config."""
        return self.find("config", cid)

    def set_busy(self, cid: CaptureId, what: str | None, failed: bool = False) -> None:
        """Show a job's progress on its config (None: the job ended)."""
        if what is None:
            self._busy.pop(cid, None)
        else:
            self._busy[cid] = what
        if failed:
            self._failed.add(cid)
        elif what is not None:
            self._failed.discard(cid)
        node = self.config_node(cid)
        if node is not None:
            label = self.catalog.label(cid)
            have = bool(cid.variant) or self.catalog.key(cid) in self.catalog.captured()
            node.set_label(self._config_label(cid, label, have))

    def fill_capture(self, cid: CaptureId, key: str, stages: Sequence[Stage],
                     passes: Mapping[str, Sequence[PassSnapshot]],
                     steps: Mapping[int, Sequence[PassSnapshot]], effects: dict[tuple[int, str], PassEffect] | None,
                     note: str = "") -> None:
        """Put a capture's stages and passes under its config node (again, when passes or effects arrive)."""
        node = self.config_node(cid)
        if node is None:
            return
        expanded = {n.data.ref for n in self._walk(node) if n.is_expanded and n.data is not None}
        cursor = self.cursor_node.data if self.cursor_node is not None else None
        node.remove_children()
        node.allow_expand = True
        self.set_busy(cid, self._busy.get(cid))
        found = effects or {}
        for number, stage in enumerate(stages, 1):
            ref = DocRef(key, stage.name)
            stage_passes = passes.get(stage.name, ())
            label = Text.assemble((f"{number} " if number < 10 else "  ", "dim"), (stage.name, "bold"))  # its key
            if stage_passes and effects is not None:  # short: a stage sits three levels deep in a narrow tree
                changed = sum(1 for p in stage_passes if (e := found.get((p.index, ""))) and e.status not in FOLDED)
                label.append(f" {changed}/{len(stage_passes)} changed", style="dim")
            elif stage_passes:
                label.append(f"  {len(stage_passes)} passes", style="dim")
            else:
                label.append(f"  {stage.display}", style="dim")
            stage_node = node.add(label, NavItem("stage", cid, ref), allow_expand=bool(stage_passes))
            for kind, run in fold_runs(stage_passes, found):
                if kind == "pass":
                    self._add_pass(stage_node, cid, key, run[0], found, steps)
                    continue
                names = ", ".join(dict.fromkeys(p.name for p in run))
                fold = stage_node.add(Text.assemble(("┄ ", "dim"), (f"{len(run)} unchanged", "dim italic"),
                                                    (f": {names}", "dim")),
                                      NavItem("fold", cid, DocRef(key, stage.name, run[0].index)))
                for snap in run:
                    self._add_pass(fold, cid, key, snap, found, steps)
                if fold.data is not None and fold.data.ref in expanded:
                    fold.expand()
            if ref in expanded:
                stage_node.expand()
        if note:
            node.add_leaf(Text(note, style="dim italic"), NavItem("note", cid))
        node.expand()
        if cursor is not None and cursor.cid == cid and cursor.ref is not None:
            target = self.find(cursor.kind, cid, cursor.ref)
            if target is not None:
                self.call_after_refresh(self.move_cursor, target)

    def _add_pass(self, parent: Node, cid: CaptureId, key: str, snap: PassSnapshot,
                  effects: dict[tuple[int, str], PassEffect], steps: Mapping[int, Sequence[PassSnapshot]]) -> None:
        ref = DocRef(key, snap.stage, snap.index)
        children = steps.get(snap.index, ())
        effect = effects.get((snap.index, ""))
        pass_node = parent.add(pass_label(snap, effect), NavItem("pass", cid, ref, snap.step or snap.name),
                               allow_expand=bool(children))
        for step in children:
            label = Text.assemble(("↳ ", "dim"), pass_label(step, effects.get((snap.index, step.step))))
            pass_node.add_leaf(label, NavItem("step", cid, DocRef(key, snap.stage, snap.index, step.step),
                                              step.step or step.name))

    def _walk(self, node: Node) -> Iterator[Node]:
        yield node
        for child in node.children:
            yield from self._walk(child)

    def reveal(self, kind: str, cid: CaptureId, ref: DocRef | None = None) -> bool:
        """Expand the way to a node and put the cursor on it."""
        node = self.find(kind, cid, ref)
        if node is None:
            return False
        parent = node.parent
        while parent is not None:
            if not parent.is_expanded:
                parent.expand()
            parent = parent.parent
        self.call_after_refresh(self._move_to, node)
        return True

    def _move_to(self, node: Node) -> None:
        self.move_cursor(node)
        self.scroll_to_node(node, animate=False)

    def action_expand_cursor(self) -> None:
        """Unfold the node under the cursor, or step into it when it is unfolded."""
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and not node.is_expanded:
            node.expand()
        elif node.children:
            self.move_cursor(node.children[0])

    def action_collapse_cursor(self) -> None:
        """Fold the node under the cursor, or go to its parent when it is folded."""
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded:
            node.collapse()
        elif node.parent is not None and node.parent is not self.root:
            self.move_cursor(node.parent)

    # Events ------------------------------------------------------------------------------------------

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[NavItem]) -> None:
        """Show what the cursor rests on (without compiling anything)."""
        event.stop()
        data = event.node.data
        if data is None:
            return
        if data.kind in ("stage", "pass", "step") and data.ref is not None:
            self.post_message(ShowDocument(data.ref))
        elif data.kind == "config" and self.catalog.key(data.cid) not in self.catalog.captured():
            self.post_message(ShowCapturePrompt(data.cid))

    def on_tree_node_selected(self, event: Tree.NodeSelected[NavItem]) -> None:
        """Enter on a config opens (capturing if needed); on other nodes it folds or unfolds."""
        event.stop()
        data = event.node.data
        if data is None:
            return
        if data.kind == "config":
            if not event.node.children:
                self.post_message(OpenCapture(data.cid))
            else:
                event.node.toggle()
        elif event.node.allow_expand:
            event.node.toggle()
