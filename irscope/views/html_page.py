"""The shell of irscope's self-contained HTML pages: inline CSS and script, the data as escaped JSON.

A page holds its data in one ``<script type="application/json">`` element and draws each part when it is
opened (irscope/views/html_assets/page.js), so a kernel with hundreds of passes stays quick to open.
Everything that comes from a capture (names, source, IR) reaches the page as JSON text or escaped HTML.
"""

from __future__ import annotations

import html
import io
import json
from functools import cache
from importlib import resources
from typing import Any

from irscope.views.highlight import DEFAULT_THEME, lexer_for, theme_style

__all__ = ["embed_json", "highlight_lines", "page", "rich_html"]


def embed_json(data: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``</script>``, ``<!--`` or ``]]>`` can close or bend it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


# A line's text carries its highlighting as class switches: U+E000 + N starts class N of the stage's table
# (0: plain). Three bytes per switch instead of a <span> per token keeps an LLVM IR of 800 kB near its size.
_SWITCH = 0xE000
_MAX_CLASSES = 0x100


def _token_class(ttype: Any, style: Any) -> str:
    """The CSS class Pygments' HTML formatter gives a token type ("" for one the theme leaves uncoloured)."""
    from pygments.token import STANDARD_TYPES

    while ttype not in STANDARD_TYPES and ttype.parent is not None:
        ttype = ttype.parent
    look = style.style_for_token(ttype)
    if not any(look.get(k) for k in ("color", "bold", "italic", "underline", "bgcolor")):
        return ""
    return STANDARD_TYPES.get(ttype, "")


def highlight_lines(text: str, lexer: str) -> dict[str, Any]:
    """``text`` highlighted as the terminal does (the same Pygments lexer and theme): the classes used, and one
    string per line in which U+E000 + N switches to class N (the page's script turns them into spans)."""
    style = theme_style(DEFAULT_THEME)
    lex = lexer_for(lexer)
    lex.stripnl = False  # Pygments drops leading blank lines by default: the lines must keep the stage's numbers
    classes: dict[str, int] = {"": 0}
    lines: list[list[str]] = [[]]
    current = [0]
    clean = text.translate(_PRIVATE)
    for ttype, value in lex.get_tokens(clean):
        name = _token_class(ttype, style)
        index = classes.setdefault(name, len(classes)) if len(classes) < _MAX_CLASSES or name in classes else 0
        for i, piece in enumerate(value.split("\n")):
            if i:
                lines.append([])
                current[0] = 0
            if not piece:
                continue
            if index != current[0]:
                lines[-1].append(chr(_SWITCH + index))
                current[0] = index
            lines[-1].append(piece)
    joined = ["".join(parts) for parts in lines]
    wanted = clean.split("\n")
    if wanted and wanted[-1] == "":
        wanted.pop()
    joined = joined[:len(wanted)] + [""] * (len(wanted) - len(joined))
    return {"classes": list(classes), "lines": joined}


_PRIVATE = {c: 0xFFFD for c in range(_SWITCH, _SWITCH + _MAX_CLASSES)}


def rich_html(renderable: Any, width: int = 110) -> str:
    """A rich renderable (the terminal's own view) as escaped HTML with inline colours, without a page around it."""
    from rich.console import Console

    console = Console(record=True, width=width, file=io.StringIO(), color_system="truecolor", force_terminal=True)
    console.print(renderable, soft_wrap=False)
    return console.export_html(inline_styles=True, code_format="{code}")


@cache
def _asset(name: str) -> str:
    return resources.files("irscope.views").joinpath("html_assets", name).read_text(encoding="utf-8")


@cache
def _token_css() -> str:
    from pygments.formatters import HtmlFormatter

    return str(HtmlFormatter(style=theme_style(DEFAULT_THEME)).get_style_defs(".code"))


def page(title: str, data: dict[str, Any]) -> str:
    """One whole HTML document: ``data`` drawn by the page's script, nothing loaded from anywhere else."""
    return "".join([
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        # No network at all: a page opened from a CI artifact or a mail must not call out.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'; img-src data:\">",
        f"<title>{html.escape(title)}</title>\n<style>{_asset('page.css')}\n{_token_css()}</style></head>\n",
        f"<body><header><h1>{html.escape(title)}</h1><nav id=\"tabs\"></nav></header><main id=\"main\">"
        "<noscript>This page draws its parts with JavaScript.</noscript></main>\n",
        f"<script type=\"application/json\" id=\"irscope-data\">{embed_json(data)}</script>\n",
        f"<script>{_asset('page.js')}</script>\n</body></html>\n",
    ])
