"""The ``irscope`` command: a click group whose commands load lazily, so a warm ``show`` stays fast."""

from __future__ import annotations

import importlib
from typing import Any

import click

from irscope import __version__
from irscope.errors import IrscopeError

# command name -> "module:attribute"; each module holds one command.
COMMANDS: dict[str, str] = {
    "list": "irscope.cli.list_cmd:list_cmd",
    "show": "irscope.cli.show:show",
    "run": "irscope.cli.run_cmd:run",
    "capture": "irscope.cli.capture_cmd:capture",
    "export": "irscope.cli.archive_cmd:export_cmd",
    "open": "irscope.cli.archive_cmd:open_cmd",
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

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except IrscopeError as exc:
            click.echo(f"irscope: error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("irscope: interrupted", err=True)
            ctx.exit(130)


@click.group(cls=IrscopeGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="irscope")
def cli() -> None:
    """See what the Triton compiler does to a GPU kernel, offline, for any NVIDIA or AMD target.

    Example:

        irscope show matmul --stage ttgir --target sm90
    """


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="irscope")


if __name__ == "__main__":
    main()
