"""Syntax highlighting of stage text for terminals, in a dark or a light theme."""

from __future__ import annotations

from functools import cache
from typing import Any

# Theme name -> the Pygments style it is built on. Body text keeps the terminal's own foreground in
# both, so the IR stays readable whatever the background; the accents are chosen for the background.
THEMES: dict[str, str] = {"dark": "monokai", "light": "default"}
DEFAULT_THEME = "dark"


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


@cache
def theme_style(theme: str) -> Any:
    """The Pygments style of a theme: its base style with plain text, names and punctuation uncoloured."""
    from pygments.style import Style
    from pygments.styles import get_style_by_name
    from pygments.token import Name, Punctuation, Text, Token, Whitespace

    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}: {', '.join(THEMES)}")
    base = get_style_by_name(THEMES[theme])
    # Monokai paints plain text near-white (#f8f8f2), invisible on a light terminal: leave it to the terminal.
    plain = {Token: "", Text: "", Whitespace: "", Name: "", Punctuation: ""}
    styles = {token: value for token, value in base.styles.items() if token not in plain}
    return type(f"Irscope{theme.title()}Style", (Style,), {"styles": {**styles, **plain},
                                                            "background_color": base.background_color})


def highlight_ansi(text: str, lexer: str, theme: str = DEFAULT_THEME) -> str:
    """Text coloured with 256-colour ANSI escapes in ``theme`` (dark or light)."""
    from pygments import highlight
    from pygments.formatters import Terminal256Formatter

    return highlight(text, lexer_for(lexer), Terminal256Formatter(style=theme_style(theme)))


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
        click.echo_via_pager(text[:-1] if text.endswith("\n") else text, color=color)  # click adds a newline
    finally:
        if wants_raw:
            if less is None:
                os.environ.pop("LESS", None)
            else:
                os.environ["LESS"] = less
