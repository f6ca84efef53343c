"""The ``irscope`` command: a click group whose commands load lazily, so a warm ``show`` stays fast."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from irscope import __version__
from irscope.cli.crash import describe_os_error, one_line, one_line_usage, quiet_stdout, report_crash
from irscope.cli.options import RETRY_HELP, TRITON_HELP, choose_retry, choose_triton
from irscope.cli.output import theme_option
from irscope.errors import CompileError, IrscopeError

# command name -> "module:attribute"; each module holds one command.
COMMANDS: dict[str, str] = {
    "list": "irscope.cli.list_cmd:list_cmd",
    "show": "irscope.cli.show:show",
    "run": "irscope.cli.run_cmd:run",
    "capture": "irscope.cli.capture_cmd:capture",
    "export": "irscope.cli.archive_cmd:export_cmd",
    "open": "irscope.cli.archive_cmd:open_cmd",
    "layouts": "irscope.cli.layouts:layouts",
    "bench": "irscope.cli.bench:bench",
    "passes": "irscope.cli.passes:passes",
    "diff": "irscope.cli.diff:diff",
    "timing": "irscope.cli.timing:timing",
    "map": "irscope.cli.map_cmd:map_cmd",
    "annotate": "irscope.cli.map_cmd:annotate",
    "loops": "irscope.cli.loops_cmd:loops",
    "resources": "irscope.cli.resources_cmd:resources",
    "perf": "irscope.cli.perf_cmd:perf",
    "tui": "irscope.cli.tui:tui",
    "graph": "irscope.cli.graph_cmd:graph",
    "verify": "irscope.cli.verify_cmd:verify",
    "trust": "irscope.cli.trust_cmd:trust",
    "triton": "irscope.cli.triton_cmd:triton",
    "compare": "irscope.cli.compare_cmd:compare",
    "facts": "irscope.cli.facts_cmd:facts",
    "check": "irscope.cli.facts_cmd:check",
    "repro": "irscope.cli.repro_cmd:repro",
    "html": "irscope.cli.html_cmd:html_cmd",
    "report": "irscope.cli.report_cmd:report",
}


class IrscopeGroup(click.Group):
    """A group that imports a command's module only when that command runs, and turns library
    errors into one line and an exit status."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attr = target.split(":")
        command: click.Command = getattr(importlib.import_module(module), attr)
        return command

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:  # the group's own options (irscope --bogus)
            raise one_line_usage(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # a command's options and arguments, as read or checked in its body
            raise one_line_usage(exc) from None
        except IrscopeError as exc:
            # Triton's own compile message keeps its lines (a source excerpt with a caret); others are one line.
            text = str(exc) if isinstance(exc, CompileError) else one_line(str(exc))
            click.echo(f"irscope: error: {text}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("irscope: interrupted", err=True)
            ctx.exit(130)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:
            quiet_stdout()  # the reader went away (`irscope show ... | head`): nothing more to say
            ctx.exit(1)
        except OSError as exc:
            click.echo(f"irscope: error: {describe_os_error(exc)}", err=True)
            ctx.exit(1)
        except UnicodeDecodeError as exc:
            click.echo(f"irscope: error: a file is not UTF-8 text ({exc.reason} at byte {exc.start})", err=True)
            ctx.exit(1)
        except Exception as exc:  # the last resort: one line for the user, the traceback in a crash log
            click.echo(f"irscope: internal error: {report_crash(exc, ctx)}", err=True)
            ctx.exit(70)


@click.group(cls=IrscopeGroup, invoke_without_command=True, subcommand_metavar="[COMMAND] [ARGS]...",
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="irscope")
@click.option("--triton", "triton_spec", metavar="VERSION|PYTHON", default=None, help=TRITON_HELP)
@click.option("--retry", is_flag=True, help=RETRY_HELP)
@theme_option
@click.pass_context
def cli(ctx: click.Context, triton_spec: str | None, retry: bool) -> None:
    """See what the Triton compiler does to a GPU kernel, offline, for any NVIDIA or AMD target.

    With no command on a terminal, opens the terminal UI (irscope tui).

    Example:

        irscope show matmul --stage ttgir --target sm90
    """
    choose_triton(triton_spec)
    choose_retry(retry)
    for stream in (sys.stdout, sys.stderr):  # a file name that is not UTF-8 prints escaped, never crashes
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    if ctx.invoked_subcommand is not None:
        return
    if sys.stdin.isatty() and sys.stdout.isatty():
        assert isinstance(ctx.command, click.Group)
        command = ctx.command.get_command(ctx, "tui")
        assert command is not None
        ctx.invoke(command)
        return
    no_args = getattr(click.exceptions, "NoArgsIsHelpError", None)  # click >= 8.2: usage on stderr, status 2
    if no_args is not None:
        raise no_args(ctx)
    click.echo(ctx.get_help())


def main() -> None:
    """Console-script entry point."""
    from irscope.cli.teardown import install

    install()
    cli(prog_name="irscope")


if __name__ == "__main__":
    main()
