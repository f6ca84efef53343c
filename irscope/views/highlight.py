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
