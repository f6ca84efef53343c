"""Generate docs/cli-reference.md from the commands' own --help (``python -m irscope.cli.reference``)."""

from __future__ import annotations

import sys

import click

from irscope.cli import COMMANDS, cli


def render_reference() -> str:
    """Markdown with the --help text of the group and of every command."""
    parts = [
        "# CLI reference",
        "",
        "Generated from `--help` by `python -m irscope.cli.reference > docs/cli-reference.md`;",
        "tests/test_docs.py fails when this file and the commands disagree.",
        "",
    ]
    settings = {**cli.context_settings, "terminal_width": 100, "max_content_width": 100}
    with click.Context(cli, info_name="irscope", **settings) as ctx:
        parts += ["## irscope", "", "```", cli.get_help(ctx).rstrip(), "```", ""]
        for name in sorted(COMMANDS):
            command = cli.get_command(ctx, name)
            assert command is not None
            with click.Context(command, info_name=name, parent=ctx, terminal_width=100,
                               max_content_width=100) as sub:
                parts += [f"## irscope {name}", "", "```", command.get_help(sub).rstrip(), "```", ""]
    return "\n".join(parts)


if __name__ == "__main__":
    sys.stdout.write(render_reference())
