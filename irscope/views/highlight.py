"""Syntax highlighting of stage text for terminals."""

from __future__ import annotations

from typing import Any


def lexer_for(name: str) -> Any:
    """The Pygments lexer for a stage's ``lexer`` name."""
    from pygments.lexers import get_lexer_by_name

    from irscope.views.lexers import SASSLexer, TritonMLIRLexer

    if name == "mlir":
        return TritonMLIRLexer()
    if name == "sass":
        return SASSLexer()
    if name == "amdgcn":
        return get_lexer_by_name("gas")
    return get_lexer_by_name(name)


def highlight_ansi(text: str, lexer: str, style: str = "monokai") -> str:
    """Text coloured with 256-colour ANSI escapes."""
    from pygments import highlight
    from pygments.formatters import Terminal256Formatter

    return highlight(text, lexer_for(lexer), Terminal256Formatter(style=style))


def page(text: str, color: bool) -> None:
    """Show ``text`` through the user's pager; coloured text reaches the screen with any ``LESS`` setting.

    click sets ``LESS=-R`` only when it decides on colours itself; told ``color=True`` it leaves ``LESS``
    alone, and less (Debian's default pager, ``LESS`` unset) then prints escape codes as ``ESC[38;5;..m``.
    """
    import os

    import click

    less = os.environ.get("LESS")
    wants_raw = color and "r" not in (less or "").lower()
    if wants_raw:
        os.environ["LESS"] = f"{less} -R".strip() if less else "-R"
    try:
        click.echo_via_pager(text, color=color)
    finally:
        if wants_raw:
            if less is None:
                os.environ.pop("LESS", None)
            else:
                os.environ["LESS"] = less
