"""``irscope capture -- CMD``: record every Triton kernel a program compiles."""

from __future__ import annotations

import click

from irscope.cli.options import store_option, target_value
from irscope.paths import store_root
from irscope.store import Store
from irscope.targets import resolve_target


@click.command("capture", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.option("--target", "-t", metavar="TARGET", default=None, callback=target_value,
              help="compile for this target without running anything (no GPU needed), e.g. sm90; "
                   "without it the program runs for real on the local GPU")
@click.option("--autotune", type=click.Choice(["pruned", "first", "all"]), default=None, metavar="MODE",
              help="with --target, which configs of each autotuner to compile: pruned (default: those the "
                   "autotuner would benchmark after its own early_config_prune / perf_model + top_k), first "
                   "(only the first of those), all (every config)")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="with --target, how many compiles run at once, each in its own process (default: the cores)")
@store_option
@click.argument("command", nargs=-1, type=click.UNPROCESSED, required=True)
def capture(target: str | None, autotune: str | None, jobs: int | None, store_dir: str | None,
            command: tuple[str, ...]) -> None:
    """Run COMMAND and record every Triton kernel it compiles (jit kernels, autotune configs,
    torch.compile/Inductor kernels), with their specialization, into the store.

    With --target, the GPU driver is stood in for: launches compile for that target but do not
    run, and autotuners compile the configs they would benchmark on it (--autotune), -j at a time.
    Afterwards `irscope list`, `show`, `passes`,
    `layouts` and `tui` work on the recorded kernels by name.

    Example:

        irscope capture --target sm90 -- python my_script.py --size 4096
    """
    from irscope.compile.program import run_program
    from irscope.errors import UsageError

    if not target and (autotune or jobs):
        raise UsageError(f"{'--autotune' if autotune else '-j'} applies to offline captures (--target); on the "
                         "local GPU the autotuner itself chooses and benchmarks")
    offline = resolve_target(target) if target else None
    store = Store(store_root(store_dir))
    report = run_program(list(command), store, offline, autotune=autotune or "pruned", jobs=jobs)
    mode = f"offline for {report.offline_target}" if report.offline_target else "on the local GPU"
    click.echo(f"irscope: ran {report.command} ({mode}), exit status {report.exit_code}", err=True)
    for cap in report.captures:
        m = cap.manifest
        click.echo(f"  captured {m.kernel:<24} {m.target:<7} {m.key}")
    for line in report.tuning:
        click.echo(f"  autotune {line}", err=True)
    for failure in report.failures:
        click.echo(f"  NOT captured: {failure}", err=True)
    if report.exit_code != 0:
        kept = f"the {len(report.captures)} kernel(s) compiled before it stopped were kept" if report.captures \
            else "no kernel was compiled before it stopped"
        click.echo(f"irscope: the program failed (exit status {report.exit_code}); {kept}", err=True)
        raise SystemExit(1)
    if not report.captures:
        import os

        why = ("; TRITON_INTERPRET is set, so Triton's interpreter ran its kernels without compiling them: unset "
               "it to capture") if os.environ.get("TRITON_INTERPRET", "0") not in ("", "0") else ""
        click.echo(f"irscope: the program compiled no Triton kernel{why}", err=True)
        raise SystemExit(1)
