"""``irscope trust``: let irscope import the Python of captures opened from an archive."""

from __future__ import annotations

from pathlib import Path

import click

from irscope.cli.options import store_option
from irscope.errors import UsageError
from irscope.model.paths import store_root
from irscope.store.store import Store


@click.command("trust")
@click.argument("what", metavar="KEY|ARCHIVE")
@store_option
def trust(what: str, store_dir: str | None) -> None:
    """Trust a capture opened from an archive (by KEY), or every capture opened from ARCHIVE.

    Opened captures are untrusted: reading them is always allowed, but passes, timing and
    diff --pass compile them again, which imports the Python source they carry. Trust only
    archives whose author you trust.

    Example:

        irscope trust captures.tar.gz   # needs an exported archive
    """
    from irscope.store.archive import trust_archive

    store = Store(store_root(store_dir))
    path = Path(what)
    if path.is_file():
        keys = trust_archive(path, store)
        if not keys:
            raise UsageError(f"no untrusted capture in {store.root} was opened from {what} (same sha256)")
        click.echo(f"irscope: trusted {len(keys)} capture(s) opened from {what}")
        for key in keys:
            click.echo(f"  {key}")
        return
    if store.get(what) is None:
        raise UsageError(f"no capture with the key {what!r} in {store.root}, and no archive file of that name")
    if store.trust(what):
        click.echo(f"irscope: trusted {what}")
    else:
        click.echo(f"irscope: {what} was already trusted (made on this machine or trusted before)")
