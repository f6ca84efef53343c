"""``irscope diff``: what changed between two stages or passes, or between targets or configs."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from dataclasses import asdict, replace
from typing import TYPE_CHECKING

import click

from irscope.cli.options import json_option, not_empty, target_value
from irscope.cli.output import write_rich
from irscope.cli.requests import Asked, dump_notice, kernel_request
from irscope.errors import UsageError
from irscope.model.stages import get_stage
from irscope.request.captures import Request
from irscope.store.store import Capture

if TYPE_CHECKING:
    from irscope.analysis.diff import TextDiff


def _check(*, start: str | None, end: str | None, one_pass: str | None, vs_target: str | None, vs_config: int | None,
           vs: str | None, stage: str, **_: object) -> None:
    """What diff refuses before it resolves the kernel: an unknown --stage, and options that do not combine."""
    get_stage(stage)  # an unknown --stage is refused even when only --from/--to are compared
    if (vs_target is not None or vs_config is not None or vs) and (start or end or one_pass):
        raise UsageError("--vs/--vs-target/--vs-config compare one --stage; they do not combine with "
                         "--from/--to/--pass")
    if vs and (vs_target is not None or vs_config is not None):
        raise UsageError("--vs names the other capture itself; it does not combine with --vs-target/--vs-config")
    if one_pass and (start or end):
        raise UsageError("--pass P is --from P --to P; give either --pass or --from/--to")


@click.command("diff")
@click.option("--from", "start", metavar="A", default=None, callback=not_empty,
              help="stage (ttir, ttgir, ...) or pass to start from")
@click.option("--to", "end", metavar="B", default=None, callback=not_empty, help="stage or pass to end at (its output)")
@click.option("--pass", "one_pass", metavar="P", default=None, callback=not_empty,
              help="just this pass's change: name, unique prefix, index, name:N or name/Step")
@click.option("--vs-target", metavar="TARGET", default=None, callback=target_value,
              help="compare one stage against this target")
@click.option("--vs-config", metavar="N", type=click.IntRange(min=0), default=None,
              help="compare one stage against this config")
@click.option("--vs", metavar="KERNEL", default=None, callback=not_empty,
              help="compare one stage against another capture: a stored key (one 'irscope open' added, say) or a "
                   "kernel, compiled for KERNEL's target and config")
@click.option("--stage", "-s", metavar="STAGE", default="ttgir", show_default=True, callback=not_empty,
              help="the stage compared with --vs / --vs-target / --vs-config")
@click.option("--side-by-side", "-y", is_flag=True, help="two columns instead of a unified diff")
@click.option("--keep-locs", is_flag=True, help="keep location attributes and #loc lines (stripped by default)")
@click.option("--normalize-ssa/--no-normalize-ssa", default=None,
              help="ignore SSA renumbering (%x_12 vs %x_13), or show it (default: ignored when it is most of the "
                   "diff; --json: shown)")
@click.option("--context", "-U", "context", type=click.IntRange(0, 100_000), default=3, show_default=True,
              help="lines of context")
@click.option("--llvm", is_flag=True, help="look passes up in the dump that includes LLVM's own passes")
@kernel_request(check=_check)
@json_option
@click.option("--color/--no-color", default=None,
              help="force or disable colours (default: on a terminal, unless NO_COLOR is set)")
@click.option("--pager/--no-pager", default=None, help="page on a terminal (default: output taller than the screen)")
def diff(asked: Asked, request: Request, capture: Capture, start: str | None, end: str | None, one_pass: str | None,
         vs_target: str | None, vs_config: int | None, vs: str | None, stage: str, side_by_side: bool, keep_locs: bool,
         normalize_ssa: bool | None, context: int, llvm: bool, as_json: bool, color: bool | None,
         pager: bool | None) -> None:
    """Show what changed in KERNEL's IR between two stages or passes, or across targets or configs.

    A and B are stages (ttir, ttgir, llir, ...) or passes (see 'irscope passes KERNEL'). From a
    pass means the IR it received, to a pass the IR it produced, so --pass P is --from P --to P.
    A pass that runs several times is picked by index or as name:N. Locations are stripped unless
    --keep-locs. When most changed lines only renumber SSA values (a pass that adds ops makes the
    printer renumber every value after them), the renumbering is ignored and the lines are shown
    as printed; --no-normalize-ssa shows the diff as printed, --normalize-ssa always ignores it.

    Example:

        irscope diff matmul --target sm90 --pass tritongpu-pipeline

        irscope diff matmul --from ttir --to ttgir

        irscope diff matmul --target sm80 --vs-target sm90 --stage ttgir

        irscope diff KEY --vs matmul --stage ttgir

    --vs KERNEL compares KERNEL's stage with another capture's: a capture 'irscope open' added against
    irscope's own compile of the same kernel, say.
    """
    from irscope.analysis.diff import DiffOptions
    from irscope.request.compare import diff_points, resolve_points, stage_point

    options = DiffOptions(keep_locs=keep_locs, normalize_ssa=bool(normalize_ssa), context=context)
    if vs:  # another capture: the same target and config unless its key says otherwise
        m = capture.manifest
        other_asked = replace(asked, kernel=vs, target=asked.target or m.target, config=m.config_index)
        other = other_asked.capture(other_asked.request())
        left = stage_point(capture, stage, f"{stage} {m.key}")
        right = stage_point(other, stage, f"{stage} {other.manifest.key}")
    elif vs_target is not None or vs_config is not None:
        other_asked = replace(asked, target=vs_target or asked.target,
                              config=asked.config if vs_config is None else vs_config)
        other = other_asked.capture(other_asked.request())
        left = stage_point(capture, stage, f"{stage} {capture.manifest.target} config {capture.manifest.config_index}")
        right = stage_point(other, stage, f"{stage} {other.manifest.target} config {other.manifest.config_index}")
    else:
        if one_pass:
            start = end = one_pass
        if not start or not end:
            raise UsageError("say what to compare: --pass P, --from A --to B, --vs KERNEL, --vs-target T or "
                             "--vs-config N")
        from irscope.request.passdump import get_pass_dump

        def dump() -> object:
            return get_pass_dump(request, capture, llvm=llvm, on_compile=dump_notice)

        left, right = resolve_points(capture, start, end, dump)  # type: ignore[arg-type]
    result = diff_points(left, right, options)
    if normalize_ssa is None and not as_json:
        result = _ignore_renumbering(result, lambda: diff_points(left, right, replace(options, normalize_ssa=True)))
    if as_json:
        click.echo(json.dumps({"left": result.left, "right": result.right, "added": result.added,
                               "removed": result.removed, "identical": not result.changed,
                               "options": asdict(options), "hunks": [h.to_json() for h in result.hunks]}, indent=2))
        return
    _emit(result, side_by_side, color, pager)


def _ignore_renumbering(printed: TextDiff, normalised: Callable[[], TextDiff]) -> TextDiff:
    """The diff without SSA renumbering when that leaves at most half of the changed lines (the TUI's rule), with
    a note on stderr; else the diff as printed."""
    from irscope.request.compare import renumbering_ignored

    other = renumbering_ignored(printed, normalised)
    if other is not printed:
        changed, left = printed.added + printed.removed, other.added + other.removed
        click.echo(f"irscope: SSA renumbering ignored: {changed - left} of {changed} changed lines only renumber "
                   "values (--no-normalize-ssa shows them)", err=True)
    return other


def _emit(result: object, side_by_side: bool, color: bool | None, pager: bool | None) -> None:
    """Write the diff: coloured and paged on a terminal, plain when piped."""
    from irscope.analysis.diff import TextDiff
    from irscope.views.diff import render_side_by_side, render_unified

    assert isinstance(result, TextDiff)
    width = shutil.get_terminal_size((160, 40)).columns if sys.stdout.isatty() else 200
    text = render_side_by_side(result, width) if side_by_side else render_unified(result)
    write_rich(text, color=color, pager=pager, width=width, soft_wrap=True, end="")
