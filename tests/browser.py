"""Headless Chromium for the browser tests: Debian's /usr/bin/chromium driven by Playwright (never a downloaded build).

CI installs the browser (.ci/run) and sets IRSCOPE_BROWSER_TESTS=required: there a missing browser fails the tests
with what to install. On a machine with nothing but Python (the README's two commands) the browser tests are not
run; the summary says so, with what to install (``BROWSERLESS``, printed by tests/conftest.py).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
INSTALL = ("install it: `apt-get install -y chromium` (Debian's package, /usr/bin/chromium) and "
           "`pip install -e '.[dev]'` (Playwright); never `playwright install`")
BROWSERLESS: list[str] = []  # why the browser tests did not run here, for the terminal summary


def _missing(why: str) -> None:
    """No browser: a failure where the browser tests are required (CI), else the tests are not run, and said so."""
    if os.environ.get("IRSCOPE_BROWSER_TESTS", "") == "required":
        pytest.fail(f"{why}; {INSTALL}", pytrace=False)
    if not BROWSERLESS:
        BROWSERLESS.append(f"{why}; {INSTALL} (CI runs them: IRSCOPE_BROWSER_TESTS=required)")
    pytest.skip(f"{why} (IRSCOPE_BROWSER_TESTS=required makes this a failure)")


def chromium_path() -> str:
    """The Chromium to drive: $IRSCOPE_CHROMIUM, else Debian's, else one on PATH; none: see ``_missing``."""
    chosen = os.environ.get("IRSCOPE_CHROMIUM")
    if chosen:
        if not Path(chosen).is_file():
            _missing(f"IRSCOPE_CHROMIUM={chosen} is not a file")
        return chosen
    found = "/usr/bin/chromium" if Path("/usr/bin/chromium").is_file() else None
    found = found or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        _missing("the browser tests need Chromium and it is not installed")
    assert found is not None
    return found


def launch_browser() -> Iterator[Any]:
    """One headless Chromium (a fixture's body: ``pytest.fixture(scope="session", name="browser")(launch_browser)``)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the browser tests need Playwright and it is not installed")
    path = chromium_path()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield b
        b.close()


def open_page(browser: Any, file: Path, width: int = 1400, height: int = 900) -> Any:
    """A new tab showing ``file``, once its script says it is ready; its page errors are kept in ``page.errors``."""
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(file.resolve().as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    return page


def box(page: Any, selector: str) -> dict[str, float]:
    """An element's box on screen (x, y, width, height), failing the test when it is not drawn."""
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return dict(found)
