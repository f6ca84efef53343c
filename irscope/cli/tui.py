"""``irscope tui``: the terminal UI, for browsing stages, passes, diffs, source and layouts."""

from __future__ import annotations

import click

from irscope.cli.options import config_option, store_option, target_option, triton_option


@click.command("tui")
@click.argument("kernel", required=False)
@target_option
@config_option
@triton_option
@store_option
@click.option("--no-passes", is_flag=True, help="do not record each opened capture's per-pass IR in the background")
@click.option("--report", "report", is_flag=True,
              help="open the report of a program capture (KERNEL: the program's id, a prefix or latest; "
                   "default latest)")
@click.option("--measured", "measured_path", metavar="FILE",
              help="with --report: a GPU profile of the program (torch.profiler trace, Proton .hatchet, ncu --csv); "
                   "the table gets its measured time per launch and measured over predicted")
@click.option("--no-precompile", is_flag=True,
              help="do not compile the opened capture's what-if neighbours in the background (also: "
                   "IRSCOPE_PRECOMPILE=0)")
def tui(kernel: str | None, target: str | None, config: int, store_dir: str | None, no_passes: bool,
        report: bool, measured_path: str | None, no_precompile: bool) -> None:
    """Browse KERNEL's compilation in a terminal UI: stages, passes, diffs, source and layouts.

    KERNEL is a bundled kernel, a kernel-module path or a stored capture; without it the newest
    capture in the store opens. Kernels, targets and configs not captured yet can be chosen in the
    tree: they compile in the background. Press ? inside for every key. With --report, the report of a
    program capture (irscope report) opens as a view of its own.

    Example:

        irscope tui matmul --target sm90
    """
    import gc
    import sys

    from irscope.errors import UsageError
    from irscope.model.paths import require_writable, store_root

    if measured_path is not None and not report:
        raise UsageError("--measured goes with --report (the report of a program capture); for one kernel use "
                         "irscope perf KERNEL --measured FILE")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("irscope tui needs a terminal (stdin and stdout are not one); for text use irscope show, "
                         "layouts, passes or diff")
    if report:
        from irscope.tui.report_app import make_report_app

        make_report_app(kernel, store_dir, measured=measured_path).run()
        return
    require_writable(store_root(store_dir))  # the TUI compiles into it: refuse a bad store before the screen opens
    gc.disable()  # start-up allocates and frees little; the app collects once when the first screen is up
    from irscope.request.neighbours import enabled
    from irscope.tui.app import make_app

    app = make_app(kernel, target, config, store_dir, record_passes=not no_passes,
                   precompile=enabled() and not no_precompile)
    app.run()
    if app.crash is not None:  # the screen is closed; report it as the CLI reports any internal error
        raise app.crash
