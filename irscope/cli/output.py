"""How every command writes a report: colours (--color, NO_COLOR, --theme) and the pager on a terminal.

On a terminal a report is coloured (unless ``--no-color`` or ``NO_COLOR``) and paged when it is taller
than the screen; piped, it is exactly the text, unpaged and (unless --color) without escape codes.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from irscope.views.highlight import DEFAULT_THEME, THEMES

F = TypeVar("F", bound=Callable[..., Any])
THEME_ENV = "IRSCOPE_THEME"
THEME_HELP = f"colours of highlighted IR, for a dark or a light terminal (default: {DEFAULT_THEME}; env {THEME_ENV})"
_THEME_KEY = "irscope.theme"
_BAD_ENV_KEY = "irscope.theme.bad-env"
_WIDEST = 1000


def theme_value(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """Remember ``--theme`` for the whole command line; the last one given wins. A bad one is a one-line usage
    error: it was typed for this command (a bad ``IRSCOPE_THEME`` is only warned about, by ``current_theme``)."""
    if value is None:
        return
    if value.strip().lower() not in THEMES:
        click.echo(f"irscope: error: --theme {value!r} is not a theme; valid: {', '.join(THEMES)}", err=True)
        ctx.exit(2)
    ctx.meta[_THEME_KEY] = value.strip().lower()


def theme_option(f: F) -> F:
    """``--theme dark|light`` (else ``IRSCOPE_THEME``): the colours of highlighted text."""
    return click.option("--theme", metavar="|".join(THEMES), default=None, expose_value=False,
                        callback=theme_value, help=THEME_HELP)(f)


def current_theme() -> str:
    """The theme of ``--theme``, else of ``IRSCOPE_THEME``, else the default.

    ``IRSCOPE_THEME`` is a setting of the shell that every command sees, most of them never colouring: it is
    read only here, where text is highlighted, and one that names no theme costs one warning line (once per
    command) and the default theme rather than failing the command.
    """
    ctx = click.get_current_context(silent=True)
    meta: dict[str, Any] = ctx.meta if ctx is not None else {}
    theme = meta.get(_THEME_KEY)
    if isinstance(theme, str):
        return theme
    value = os.environ.get(THEME_ENV, "")
    theme = value.strip().lower() or DEFAULT_THEME
    if theme not in THEMES:
        click.echo(f"irscope: warning: {THEME_ENV}={value!r} is not a theme (valid: {', '.join(THEMES)}); "
                   f"using {DEFAULT_THEME}", err=True)
        theme = DEFAULT_THEME
    meta[_THEME_KEY] = theme
    return theme


def wants_colour(color: bool | None) -> bool:
    """Colours: as ``--color/--no-color`` says, else off when ``NO_COLOR`` is set (no-color.org), else on when
    ``FORCE_COLOR`` is, else on a terminal."""
    if color is not None:
        return color
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):  # force-color.org, as rich and most tools read it
        return True
    return sys.stdout.isatty()


def _pages(text: str, pager: bool | None) -> bool:
    """Page: only on a terminal; with --pager always, by default text taller than the screen."""
    if not sys.stdout.isatty() or pager is False:
        return False
    return pager is True or text.count("\n") >= shutil.get_terminal_size().lines


def write(text: str, *, color: bool | None = None, pager: bool | None = None, lexer: str | None = None,
          newline: bool = True) -> None:
    """Write a report: highlighted with ``lexer`` when colours are on, paged when long on a terminal.

    ``newline`` ends text that lacks one with a newline (off: the text is written exactly as it is).
    """
    use_colour = wants_colour(color)
    if use_colour and lexer is not None:
        from irscope.views.highlight import highlight_ansi

        text = highlight_ansi(text, lexer, current_theme())
    if _pages(text, pager):
        from irscope.views.highlight import page

        page(text, use_colour)
    else:
        click.echo(text, nl=newline and not text.endswith("\n"), color=use_colour)


def render_rich(renderable: object, *, color: bool | None = None, width: int | None = None,
                soft_wrap: bool = False, end: str = "\n") -> str:
    """A rich renderable as text: fitted to ``width`` (the terminal's on a tty), escape codes only with colours.

    Piped and without a width, each row is one unwrapped line, trailing spaces dropped.
    """
    from rich.console import Console

    use_colour = wants_colour(color)
    tty = sys.stdout.isatty()
    fitted = width is None and not tty
    if fitted:
        measured = Console(width=_WIDEST, highlight=False).measure(renderable).maximum  # type: ignore[arg-type]
        width = max(40, min(measured, _WIDEST))
    console = Console(width=width, force_terminal=use_colour, no_color=not use_colour, highlight=False,
                      soft_wrap=soft_wrap)
    with console.capture() as captured:
        console.print(renderable, end=end)
    text = captured.get()
    if fitted:  # one unwrapped line per row, as print_rich always wrote it
        text = "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
    return text


def write_rich(renderable: object, *, color: bool | None = None, pager: bool | None = None,
               width: int | None = None, soft_wrap: bool = False, end: str = "\n") -> None:
    """Write a rich renderable as a report (see ``render_rich`` and ``write``)."""
    write(render_rich(renderable, color=color, width=width, soft_wrap=soft_wrap, end=end), color=color, pager=pager)
