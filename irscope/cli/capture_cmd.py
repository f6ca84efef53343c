"""``irscope capture -- CMD``: record every Triton kernel a program compiles."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from irscope.cli.options import store_option, target_value
from irscope.errors import UsageError

if TYPE_CHECKING:
    from irscope.model.program_record import ProgramRecord


@click.command("capture", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.option("--target", "-t", metavar="TARGET", default=None, callback=target_value,
              help="compile for this target without running anything (no GPU needed), e.g. sm90; "
                   "without it the program runs for real on the local GPU (on a machine without one: "
                   "$IRSCOPE_TARGET, else sm90, offline)")
@click.option("--gpu", metavar="GPU", default=None,
              help="with --target: the GPU whose answers the program's device queries get (torch.cuda name, "
                   "capability, properties; Triton's device properties), e.g. h200; default: the target's usual "
                   "GPU (sm80 a100, sm90 h100, sm100 b200, gfx942 mi300x, gfx950 mi350x)")
@click.option("--autotune", type=click.Choice(["pruned", "first", "all"]), default=None, metavar="MODE",
              help="with --target, which configs of each autotuner to compile: pruned (default: those the "
                   "autotuner would benchmark after its own early_config_prune / perf_model + top_k), first "
                   "(only the first of those), all (every config)")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="with --target, how many compiles run at once, each in its own process (default: the cores)")
@click.option("--no-same-code", is_flag=True, default=False,
              help="with --target, compile every config in full, even one whose TTGIR another config already made "
                   "(by default such a compile stops after TTGIR and its capture holds that config's later stages)")
@store_option
@click.argument("command", nargs=-1, type=click.UNPROCESSED, required=True)
def capture(target: str | None, gpu: str | None, autotune: str | None, jobs: int | None, no_same_code: bool,
            store_dir: str | None, command: tuple[str, ...]) -> None:
    """Run COMMAND and record every Triton kernel it compiles (jit kernels, autotune configs,
    torch.compile/Inductor kernels), with their specialization, into the store.

    With --target, the GPU driver is stood in for: launches compile for that target but do not
    run, and autotuners compile the configs they would benchmark on it (--autotune), -j at a time;
    the program's questions about its GPU are answered as the target's GPU would answer them (see
    --gpu), while its tensors stay on the CPU. Afterwards `irscope list`, `show`, `passes`,
    `layouts` and `tui` work on the recorded kernels by name.

    Example:

        irscope capture --target sm90 -- python my_script.py --size 4096   # needs your program
    """
    from irscope.toolchain.tritons import selected

    chosen = selected()
    if chosen is not None:
        raise UsageError(f"--triton does not apply to capture: a program compiles with the Triton of the Python "
                         f"that runs it; run it with that one instead: irscope capture -- {chosen.python} "
                         f"{' '.join(command[1:]) or 'PROGRAM.py'} (it needs the program's own packages there)")
    from irscope.model.gpus import resolve_gpu
    from irscope.request.programs import capture_program, capture_target, same_code_note

    offline, fallback = capture_target(target)
    if offline is None and (autotune or jobs or no_same_code):
        flag = "--autotune" if autotune else "-j" if jobs else "--no-same-code"
        raise UsageError(f"{flag} applies to offline captures (--target); on the local GPU the autotuner itself "
                         "chooses and benchmarks")
    if gpu is not None and offline is None:
        raise UsageError(f"--gpu {gpu} needs --target: without it the program runs on the local GPU, which answers "
                         "for itself (e.g. --target sm90 --gpu h200)")
    stood_in = resolve_gpu(gpu, offline.name) if offline else None
    report = capture_program(list(command), store_dir, offline, stood_in.name if stood_in else None,
                             autotune=autotune or "pruned", jobs=jobs, same_code=not no_same_code)
    mode = "on the local GPU"
    if report.offline_target:
        mode = f"offline for {report.offline_target}" + (f" as an {stood_in.product}" if stood_in else "")
        mode += f": {fallback}" if fallback else ""
    click.echo(f"irscope: ran {report.command} ({mode}), exit status {report.exit_code}", err=True)
    for cap in report.captures:
        m = cap.manifest
        same = f"  ({same_code_note(m, report.captures)})" if m.same_code_as else ""
        click.echo(f"  captured {m.kernel:<24} {m.target:<7} {m.key}{same}")
    if report.program is not None:
        click.echo(f"irscope: {program_summary(report.program, store_dir)}", err=True)
    for line in report.tuning:
        click.echo(f"  autotune {line}", err=True)
    for failure in report.failures:
        click.echo(f"  NOT captured: {failure}", err=True)
    for note in report.notes:
        if report.captures or "replaced irscope's" not in note:  # else the last line gives it as the reason
            click.echo(f"irscope: note: {note}", err=True)
    if report.exit_code != 0:
        kept = f"the {len(report.captures)} kernel(s) compiled before it stopped were kept" if report.captures \
            else "no kernel was compiled before it stopped"
        click.echo(f"irscope: {report.failure or f'the program failed (exit status {report.exit_code})'}"
                   f"; {kept}; no program record was written ({_latest(store_dir)})", err=True)
        raise SystemExit(1)
    if not report.captures:
        import os

        from irscope.model.targets import native_target

        why = ""
        if os.environ.get("TRITON_INTERPRET", "0") not in ("", "0"):
            why = ("; TRITON_INTERPRET is set, so Triton's interpreter ran its kernels without compiling them: unset "
                   "it to capture")
        elif offline is None and native_target() is None:
            why = (": this machine has no GPU, so its tensors are on the CPU, where torch.compile (Inductor) writes "
                   "C++; pass --target (e.g. --target sm90) to compile its kernels for a GPU offline")
        removed = next((f"; {n}" for n in report.notes if "replaced irscope's" in n), "")
        click.echo(f"irscope: the program compiled no Triton kernel{why}{removed}", err=True)
        raise SystemExit(1)


def _latest(store_dir: str | None) -> str:
    """What ``latest`` still names after a failed capture: the program captured before it, or none."""
    from irscope.model.paths import store_root
    from irscope.store.programs import list_programs

    ids = list_programs(store_root(store_dir))
    return f"`irscope report` still reads the one before, {ids[-1]}" if ids else "the store holds no program yet"


def program_summary(record: ProgramRecord, store_dir: str | None) -> str:
    """``program ID: 6 captures of 4 kernels; ...``: what the run recorded, as ``irscope report`` will count it."""
    from irscope.model.paths import store_root
    from irscope.request.program_report import launched_outside_graphs
    from irscope.store.store import Store
    from irscope.views.words import counted

    store = Store(store_root(store_dir))
    in_graphs = {use.name for g in record.graphs for use in g.kernels}
    outside, silent = launched_outside_graphs(store, record)
    names = {c.manifest.kernel for c in (store.get(k) for k in record.keys) if c is not None}
    graphs = (f"{counted(len(in_graphs), 'kernel')} launched by {counted(len(record.graphs), 'torch.compile graph')}"
              if record.graphs else "no torch.compile graph")
    parts = [graphs, f"{len({u.name for u in outside})} launched outside them"] if outside or not record.graphs \
        else [graphs]
    parts += [f"{len(silent)} compiled and never launched"] if silent else []
    return (f"program {record.id}: {counted(len(record.keys), 'capture')} of {counted(len(names), 'kernel')}; "
            f"{', '.join(parts)}; "
            f"irscope report {record.id} models them")
