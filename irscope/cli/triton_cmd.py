"""``irscope triton``: the Tritons irscope can compile with (install, list, remove).

Environments live under the store (``$IRSCOPE_HOME/tritons/VERSION``); the option ``--triton VERSION``
(``irscope --triton VERSION COMMAND ...`` or ``irscope COMMAND ... --triton VERSION``, or ``$IRSCOPE_TRITON``)
makes a command compile with one.
"""

from __future__ import annotations

import json

import click

from irscope.cli.options import json_option, not_empty
from irscope.model.paths import require_writable, store_root


@click.group("triton")
def triton() -> None:
    """Tritons to compile with: install, list and remove environments under the store.

    Any compiling command then takes --triton VERSION, before the command or after its name.

    Example:

        irscope triton install 3.5.1   # needs network: downloads Triton 3.5.1

        irscope --triton 3.5.1 show matmul --stage ttgir   # needs Triton 3.5.1
    """


@triton.command("install")
@click.argument("version", callback=not_empty)
def install_cmd(version: str) -> None:
    """Make an environment with Triton VERSION (3.5 or newer) under the store.

    Uses uv when it is on the PATH, else python -m venv and pip; their wheel caches are reused.
    """
    from irscope.toolchain.tritons import check_version, install

    check_version(version)
    root = store_root(None)
    require_writable(root)
    env = install(version, root, echo=lambda text: click.echo(f"irscope: {text}", err=True))
    click.echo(f"Triton {env.version}: {env.python}")


@triton.command("list")
@json_option
def list_cmd(as_json: bool) -> None:
    """The Tritons irscope can compile with; * marks the one commands use now."""
    from irscope.toolchain.tritons import current, installed, selected

    root = store_root(None)
    chosen = selected()
    rows = [current(), *installed(root)]
    in_use = chosen.python if chosen is not None else rows[0].python
    if as_json:
        click.echo(json.dumps([{"version": e.version, "python": str(e.python), "kind": e.kind,
                                "in_use": e.python == in_use} for e in rows], indent=2))
        return
    for env in rows:
        mark = "*" if env.python == in_use else " "
        click.echo(f"{mark} {env.version:<10} {env.kind:<8} {env.python}")
    if chosen is not None and chosen.kind == "interpreter":
        click.echo(f"* {chosen.version:<10} {chosen.kind:<8} {chosen.python}")


@triton.command("remove")
@click.argument("version", callback=not_empty)
def remove_cmd(version: str) -> None:
    """Delete the environment of Triton VERSION."""
    from irscope.toolchain.tritons import remove

    root = store_root(None)
    require_writable(root)
    click.echo(f"removed {remove(version, root)}")
