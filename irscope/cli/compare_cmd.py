"""``irscope compare``: two compilations side by side, by the facts that matter, then their text."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from irscope.cli.options import (
    jobs_option,
    json_option,
    kernel_options,
    not_empty,
    output_file,
    store_option,
    target_value,
)
from irscope.cli.output import render_rich, write
from irscope.cli.requests import Asked
from irscope.errors import UsageError
from irscope.request.captures import LaunchSpec

if TYPE_CHECKING:
    from irscope.analysis.divergence import Divergence


@click.command("compare")
@click.argument("kernel")
@click.argument("other", required=False)
@click.option("--target", "-t", metavar="TARGET", default=None, callback=target_value, help="target of the first side")
@click.option("--vs-target", metavar="TARGET", default=None, callback=target_value, help="target of the second side")
@click.option("--config", "-c", "config", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="config of the first side")
@click.option("--vs-config", metavar="N", type=click.IntRange(min=0), default=None, help="config of the second side")
@click.option("--triton", "triton_spec", metavar="VERSION|PYTHON", default=None, callback=not_empty,
              help="Triton of the first side (default: the global --triton, else this interpreter's)")
@click.option("--vs-triton", metavar="VERSION|PYTHON", default=None, callback=not_empty,
              help="Triton of the second side (a version from 'irscope triton list' or a Python interpreter)")
@click.option("--stage", "-s", metavar="STAGE", default=None, callback=not_empty,
              help="also show this stage's text diff (ttir, ttgir, llir, ptx, sass, amdgcn)")
@click.option("--all", "show_all", is_flag=True, help="list the facts that are equal too")
@click.option("--html", "html_file", metavar="FILE.html", callback=output_file,
              help="also write the comparison as one self-contained HTML page, with every stage's side-by-side diff")
@click.option("--facts-only", is_flag=True,
              help="only the facts: no first divergent pass (which needs both per-pass dumps), no per-line "
                   "pairing of two targets")
@click.option("--no-swap", is_flag=True,
              help="between two Tritons, do not run each side's LLVM IR through the other's backend")
@jobs_option("with 2 or more, the two sides compile at once when both are missing")
@json_option
@store_option
@kernel_options
def compare(kernel: str, other: str | None, target: str | None, vs_target: str | None, config: int,
            vs_config: int | None, triton_spec: str | None, vs_triton: str | None, stage: str | None, show_all: bool,
            html_file: str | None, facts_only: bool, no_swap: bool, jobs: int | None, as_json: bool,
            store_dir: str | None, launch: LaunchSpec) -> None:
    """Compare two compilations by what changed: the first pass where they part ways and what it did
    there, then loops and pipelining, tensor-core instructions, layouts, registers, spills, shared
    memory, occupancy and the instruction mix.

    The first divergence aligns the two MLIR pass pipelines by pass name (passes added, removed or
    renamed between Tritons are allowed) and names the pass from whose output on the two differ, with
    SSA numbers and locations set aside; when every MLIR pass agrees, the first lower stage that
    differs (LLVM IR, PTX or AMDGCN, SASS), with what moved per kernel line. It needs both sides'
    per-pass dumps (compiled once when missing); --facts-only leaves it out. Between two targets,
    the machine code is also paired by kernel line (tensor-core family and shape, buffer ops,
    access widths), ranked by perf's estimate of how often each line's instructions run. Between
    two Tritons for one target, each side's LLVM IR also goes through the other side's backend
    (LLVM's code generator, and ptxas), which tells whether registers, spills and instructions
    moved with the IR Triton lowered or with the backend (--no-swap leaves it out; cached).

    The sides are KERNEL and OTHER (kernels or capture keys; OTHER defaults to KERNEL), each
    with its --target/--config/--triton and the second's --vs-target/--vs-config/--vs-triton.

    Example:

        irscope compare matmul --config 0 --vs-config 1

        irscope compare matmul --triton 3.5.1 --vs-triton 3.9.0 --target sm90   # needs Triton 3.5.1

        irscope compare matmul --set num_stages=2

        irscope compare matmul --config 0 --vs-config 1 --html compare.html
    """
    from irscope.analysis.facts import capture_facts, compare_facts
    from irscope.model.paths import store_root
    from irscope.toolchain.tritons import resolve, using

    root = store_root(store_dir)
    first_env = resolve(triton_spec, root) if triton_spec else None
    second_env = resolve(vs_triton, root) if vs_triton else first_env
    from dataclasses import replace

    # --set makes a what-if variant of the second side; the first stays the base config.
    first_launch = replace(launch, settings=())
    second_launch = launch if other is None else LaunchSpec(settings=launch.settings)
    second_config = config if vs_config is None else vs_config
    first = Asked(kernel, target, config, first_launch, store_dir)
    second = Asked(other or kernel, vs_target or target, second_config, second_launch, store_dir)
    with using(first_env):
        request = first.request(stage)
        first_key = request.key()
    with using(second_env):
        other_request = second.request(stage)
        second_key = other_request.key()
    from irscope.request.factsfile import default_workers
    from irscope.store.store import Store

    store = Store(root)
    missing = [k for k in (first_key, second_key) if store.get(k) is None]
    if len(set(missing)) == 2 and (jobs or default_workers()) > 1:  # both compile, side by side
        _compile_both(store.root, [(kernel, request.target.name, config, first_launch, first_env),
                                   (other or kernel, other_request.target.name, second_config, second_launch,
                                    second_env)])
    with using(first_env):
        left = first.capture(request)
    with using(second_env):
        right = second.capture(other_request)
    if left.manifest.key == right.manifest.key:
        raise UsageError(f"both sides are capture {left.manifest.key}; give a second kernel, --vs-target, "
                         "--vs-config, --vs-triton or --set NAME=VALUE")
    a, b = capture_facts(left), capture_facts(right)
    deltas = compare_facts(a.values, b.values)
    sides = (Side(kernel, request.target.name, config, triton_spec, first_launch.settings,
                  tuple(first_launch.cli_args())),
             Side(other or kernel, other_request.target.name, second_config, vs_triton or triton_spec,
                  second_launch.settings, tuple(second_launch.cli_args())))
    div = None if facts_only else _divergence((request, left, first_env), (other_request, right, second_env))
    swap = None if facts_only or no_swap else _swap(left, right, first_env, second_env, a.values, b.values)
    targets = None
    if request.target.name != other_request.target.name and not facts_only:
        targets = _targets((request, left, first_env), (other_request, right, second_env), a.values, b.values)
    if html_file is not None:
        from irscope.cli.html_cmd import write_page
        from irscope.request.share import gather_comparison
        from irscope.views.html_compare import comparison_page

        write_page(html_file, comparison_page(gather_comparison(left, right), _told(div, swap, deltas, sides)))
    if as_json:
        click.echo(json.dumps(_json_data(a, b, deltas, div, swap, targets, sides), indent=2, default=str))
        return
    from irscope.views.facts_text import render_comparison

    head = _told(div, swap, deltas, sides)
    if targets is not None:
        from irscope.views.divergence_text import render_targets

        head += [""] if head else []
        head += render_targets(targets, request.target.name, other_request.target.name)
    report = render_comparison(a, b, deltas, show_all, head) + "\n"
    if stage is not None:
        from irscope.analysis.diff import DiffOptions
        from irscope.request.compare import diff_points, stage_point
        from irscope.views.diff import render_unified

        result = diff_points(stage_point(left, stage, f"{stage} of A"), stage_point(right, stage, f"{stage} of B"),
                             DiffOptions())
        report += "\n" + render_rich(render_unified(result), color=False, width=200, soft_wrap=True, end="")
    write(report, newline=False)


@dataclass(frozen=True)
class Side:
    """One side of a comparison as the command line named it (for the commands that show its text)."""

    kernel: str
    target: str
    config: int
    triton: str | None
    settings: tuple[str, ...]
    launch: tuple[str, ...] = ()  # a FILE:FUNCTION kernel's --signature/--args/--constexpr/--num-warps as given

    def args(self) -> list[str]:
        """Its options: KERNEL --target T [--config N] [--triton X] [launch] [--set NAME=VALUE ...]."""
        out = [self.kernel, "--target", self.target]
        out += ["--config", str(self.config)] if self.config else []
        out += ["--triton", self.triton] if self.triton else []
        return out + list(self.launch) + [arg for item in self.settings for arg in ("--set", item)]


def see_commands(div: Divergence, a: Side, b: Side) -> list[str]:
    """How to see the text where two sides diverge: that pass's diff on each side, or that stage across both."""
    if div.level == "pass":
        llvm = ["--llvm"] if div.dump == "llvm" else []
        return [shlex.join(["irscope", "diff", *side.args(), "--pass", str(index), *llvm])
                for side, index in ((a, div.index_a), (b, div.index_b)) if index is not None]
    if div.level != "stage" or not div.stage:
        return []
    vs = [] if b.kernel == a.kernel else [b.kernel]
    vs += [*a.args()[1:]]
    vs += ["--vs-target", b.target] if b.target != a.target else []
    vs += ["--vs-config", str(b.config)] if b.config != a.config else []
    vs += ["--vs-triton", b.triton] if b.triton and b.triton != a.triton else []
    vs += [arg for item in b.settings if item not in a.settings for arg in ("--set", item)]
    return [shlex.join(["irscope", "compare", a.kernel, *vs, "--stage", div.stage, "--facts-only"])]


def _divergence(first: tuple[Any, Any, Any], second: tuple[Any, Any, Any]) -> Divergence:
    """Where the second side first differs from the first (each: request, capture, Triton environment)."""
    from irscope.cli.requests import dump_notice
    from irscope.request.divergence import first_divergence
    from irscope.request.passdump import get_pass_dump
    from irscope.toolchain.tritons import using

    def dump(side: tuple[Any, Any, Any], llvm: bool = False) -> Any:
        request, capture, env = side
        with using(env):
            return get_pass_dump(request, capture, llvm=llvm, on_compile=dump_notice)

    from irscope.analysis.divergence import Divergence
    from irscope.errors import IrscopeError

    try:
        return first_divergence(first[1], second[1], lambda: dump(first), lambda: dump(second),
                                lambda: dump(first, llvm=True), lambda: dump(second, llvm=True))
    except (IrscopeError, OSError) as exc:  # a per-pass compile that fails leaves the facts to compare
        click.echo(f"irscope: no first divergence: {exc}", err=True)
        return Divergence(level="unknown", stage=None, note=f"not searched: {exc}")


def _told(div: Any, swap: Any, deltas: Any, sides: tuple[Side, Side]) -> list[str]:
    """The first divergence and the backend swap, as the lines above the facts."""
    lines: list[str] = []
    if div is not None:
        from irscope.views.divergence_text import render_divergence

        lines = render_divergence(div, deltas, see_commands(div, *sides))
    if swap is not None:
        from irscope.views.swap_text import render_swap

        lines += [""] if lines else []
        lines += render_swap(swap)
    return lines


def _json_data(a: Any, b: Any, deltas: Any, div: Any, swap: Any, targets: Any,
               sides: tuple[Side, Side]) -> dict[str, Any]:
    """``compare --json``: both sides' facts, what changed, and the divergence, swap and targets when found."""
    data: dict[str, Any] = {
        "a": {"key": a.key, "label": a.label, "facts": a.values, "unread": list(a.unread)},
        "b": {"key": b.key, "label": b.label, "facts": b.values, "unread": list(b.unread)},
        "changed": [{"fact": d.name, "a": d.before, "b": d.after} for d in deltas]}
    if div is not None:
        from irscope.views.divergence_text import divergence_json

        data["first_divergence"] = divergence_json(div, deltas, see_commands(div, *sides))
    if swap is not None:
        from irscope.views.swap_text import swap_json

        data["backend_swap"] = swap_json(swap)
    if targets is not None:
        from irscope.views.divergence_text import targets_json

        data["targets"] = targets_json(targets)
    return data


def _swap(left: Any, right: Any, left_env: Any, right_env: Any, a_facts: Any, b_facts: Any) -> Any:
    """Each side's LLVM IR through the other's backend, when the two Tritons differ and the target is one."""
    from irscope.errors import IrscopeError
    from irscope.request.backend_swap import explain_moves

    try:
        return explain_moves(left, right, left_env, right_env, a_facts, b_facts)
    except (IrscopeError, OSError) as exc:
        click.echo(f"irscope: no backend swap: {exc}", err=True)
        return None


def _targets(first: tuple[Any, Any, Any], second: tuple[Any, Any, Any], facts_a: dict[str, Any],
             facts_b: dict[str, Any]) -> Any:
    """The two targets' machine code paired by kernel line (each side: request, capture, Triton environment)."""
    from irscope.request.passdump import get_pass_dump
    from irscope.request.target_compare import compare_targets
    from irscope.toolchain.tritons import using

    def dumps() -> Any:
        out = []
        for request, capture, env in (first, second):
            with using(env):
                out.append(get_pass_dump(request, capture))
        return tuple(out)

    return compare_targets((first[0], first[1]), (second[0], second[1]), (facts_a, facts_b), dumps)


def _compile_both(store: Any, sides: list[tuple[str, str, int, LaunchSpec, Any]]) -> None:
    """Compile both sides in worker processes at once (each with its own Triton); errors surface afterwards."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from irscope.request.factsfile import launch_data, run_job

    click.echo(f"irscope: compiling both sides ({sides[0][0]} {sides[0][1]} c{sides[0][2]} and {sides[1][0]} "
               f"{sides[1][1]} c{sides[1][2]}) at once...", err=True)
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = []
        for kernel, target, config, launch, env in sides:
            job = {"kernel": kernel, "target": target, "config": config,
                   "launch": launch_data(launch)}
            futures.append(pool.submit(run_job, job, str(store), str(env.python) if env is not None else None, False))
        for future in futures:
            future.result()  # a side that failed is compiled (and reported) again below, in this process
