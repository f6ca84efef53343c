"""Browser tests: the pages `irscope html`, `compare --html` and `check --html` write, opened in headless Chromium.

Each check is against irscope's own answer for the same capture (its source map, its terminal diff and layout map),
not against constants. One browser for the session, a few pages.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser import box, launch_browser, open_page
from tests.conftest import invoke

pytestmark = [pytest.mark.browser, pytest.mark.compile]
# One browser for this module; stopped when the module ends: Playwright's sync API keeps an event loop and a thread
# running while it is open, which later tests (the TUI's asyncio.run, forking effect workers) must not meet.
chromium = pytest.fixture(scope="module", name="browser")(launch_browser)


@pytest.fixture(scope="module")
def matmul_page(shared_store: Path, captures: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The matmul's page with every pass stored (sm90, config 0)."""
    captures("matmul", "sm90")
    out = tmp_path_factory.mktemp("html") / "matmul.html"
    result = invoke("html", "matmul", "--target", "sm90", "-o", out, store=shared_store)
    assert result.exit_code == 0, result.output
    return out


def _dot_line(capture: Any) -> int:
    """The kernel line with the K-loop's ``tl.dot`` (read from the capture's own source)."""
    lines = capture.read("source").splitlines()
    return next(i for i, text in enumerate(lines, start=1) if "tl.dot(" in text and "accumulator" in text)


def test_matmul_page_is_small_and_ready_fast(browser: Any, matmul_page: Path) -> None:
    size = matmul_page.stat().st_size
    assert size < 8_000_000, f"the matmul page is {size / 1e6:.1f} MB"
    page = open_page(browser, matmul_page)
    ready = page.evaluate("window.irscope.readyAt")
    assert ready < 2000, f"the matmul page was ready after {ready:.0f} ms"
    assert page.errors == []
    page.close()


def test_click_source_line_marks_the_lines_of_every_stage(browser: Any, matmul_page: Path, captures: Any) -> None:
    from irscope.analysis.sourcemap import build_source_map

    capture = captures("matmul", "sm90")
    smap = build_source_map(capture, None)
    line = _dot_line(capture)
    page = open_page(browser, matmul_page)
    page.click(f"#source .ln[data-n='{line}']")
    assert page.locator("#source .ln.sel").get_attribute("data-n") == str(line)
    checked = []
    for stage in smap.stages:
        expected = sorted({m.number for m in stage.for_line(line)})
        page.click(f".stage-tabs button[data-stage='{stage.stage}']")
        assert page.locator("#stage-view").get_attribute("data-stage") == stage.stage
        marked = sorted(int(n) for n in page.eval_on_selector_all("#stage-view .ln.hit",
                                                                  "els => els.map(e => e.dataset.n)"))
        assert marked == expected, stage.stage
        badge = page.locator(f".stage-tabs button[data-stage='{stage.stage}'] .badge").inner_text()
        assert badge == f"({len(stage.for_line(line))})"
        if expected:  # the marked line is the text the map names, and it is scrolled into view
            first = page.locator(f"#stage-view .ln[data-n='{expected[0]}'] .tx").inner_text()
            mapped = next(m for m in stage.lines if m.number == expected[0])
            assert mapped.opcode.split(".")[-1] in first, (stage.stage, first)
            view, hit = box(page, "#stage-view"), box(page, "#stage-view .ln.hit")
            assert view["y"] <= hit["y"] <= view["y"] + view["height"], stage.stage
            checked.append(stage.stage)
    assert {"ttgir", "ptx"} <= set(checked)  # the dot reaches the TTGIR and the PTX at least
    assert page.errors == []
    page.close()


def test_pass_diff_is_the_terminal_diff(browser: Any, matmul_page: Path, shared_store: Path) -> None:
    listing = json.loads(invoke("passes", "matmul", "--target", "sm90", "--json", store=shared_store).output)
    row = next(r for r in listing["passes"] if r["name"] == "tritongpu-pipeline" and not r["step"])
    terminal = invoke("diff", "matmul", "--target", "sm90", "--pass", str(row["index"]), "--no-color",
                      store=shared_store).stdout
    body = terminal.splitlines()[2:-1]  # between the ---/+++ headers and the "+A -R lines" summary
    added, removed = sum(1 for t in body if t.startswith("+")), sum(1 for t in body if t.startswith("-"))
    page = open_page(browser, matmul_page)
    page.click("#tab-passes")
    shown = page.locator("#pass-table tr.pass:visible").count()
    assert shown == sum(1 for r in listing["passes"] if r["status"] != "unchanged")
    page.click("#show-unchanged")
    assert page.locator("#pass-table tr.pass:visible").count() == len(listing["passes"])
    page.click(f"#pass-table tr.pass[data-pass='{row['index']}']")
    assert "on" in (page.locator(f"#pass-table tr.pass[data-pass='{row['index']}']").get_attribute("class") or "")
    assert page.locator("#pass-diff h2").inner_text() == f"pass {row['index']}: what it changed"
    page.wait_for_selector("#pass-diff .diffbox[data-drawn='all']")
    assert page.locator("#pass-diff .diff tr.a").count() == added
    assert page.locator("#pass-diff .diff tr.d").count() == removed
    diff = box(page, "#pass-diff .diffbox")
    assert diff["y"] < 900 and diff["height"] > 100  # scrolled into view, drawn as a block
    assert page.errors == []
    page.close()


def _terminal_cells(text: str) -> dict[tuple[str, str], str]:
    """(row label, column label) -> cell of ``irscope layouts --map`` (plain: cells name the warp)."""
    lines = [t for t in text.splitlines()[1:] if t.strip()]
    cols = lines[0].split()
    cells = {}
    for row in lines[1:]:
        parts = row.split()
        if len(parts) != len(cols) + 1 or not parts[0].isdigit():
            continue
        cells.update({(parts[0], c): v for c, v in zip(cols, parts[1:], strict=False) if c != "…"})
    return cells


def test_layout_map_matches_the_terminal_and_names_warps(browser: Any, matmul_page: Path, shared_store: Path) -> None:
    terminal = _terminal_cells(invoke("layouts", "matmul", "--target", "sm90", "--map", "mma",
                                      store=shared_store).output)
    page = open_page(browser, matmul_page)
    page.click("#tab-layouts")
    card = page.locator(".layout", has=page.locator("h2", has_text=re.compile(r"^#mma$")))
    card.locator(".map-button").click()
    table = card.locator("table.map").first
    cols = table.locator("tr").first.locator("th").all_inner_texts()[1:]
    compared = 0
    for tr in table.locator("tr").all()[1:]:
        cells = tr.locator("th, td").all_inner_texts()
        for col, value in zip(cols, cells[1:], strict=False):
            if (cells[0], col) in terminal:
                assert value == terminal[(cells[0], col)], (cells[0], col)
                compared += 1
    assert compared >= 40
    # Readable without colour: every tensor-view cell names its warp (the hardware view draws one warp, named in
    # its title).
    named = page.eval_on_selector_all(".layout .map-box:first-child table.map td[data-warp]",
                                      "els => els.every(e => e.textContent.startsWith('w' + e.dataset.warp + ':'))")
    assert named
    maps = card.locator("table.map")
    assert maps.count() == 2  # tensor and hardware view
    first, second = maps.nth(0).bounding_box(), maps.nth(1).bounding_box()
    assert first and second and first["height"] > 100 and second["height"] > 100
    assert page.errors == []
    page.close()


def test_layout_of_the_page_screenshot(browser: Any, matmul_page: Path, tmp_path: Path) -> None:
    page = open_page(browser, matmul_page)
    shot = tmp_path / "code.png"
    page.screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    header, source, stage = box(page, "header"), box(page, "#source"), box(page, "#stage-view")
    assert header["y"] == 0 and header["height"] < 120
    assert source["x"] + source["width"] <= stage["x"]  # side by side: source left, stage right
    assert abs(source["y"] - stage["y"]) < 60 and source["y"] >= header["height"]
    assert source["width"] > 400 and stage["width"] > source["width"]
    assert source["y"] + source["height"] <= 900 + 1  # both panes fit the window and scroll inside
    tabs = page.locator("nav button").all_inner_texts()
    assert tabs == ["Source \u2192 stages", "Passes", "Layouts", "Loops, resources, perf", "Verify", "Capture"]
    page.click("#tab-verify")
    assert re.fullmatch(r"\d+ agree, \d+ disagree, \d+ unchecked", page.locator("#verify-summary").inner_text())
    page.click("#tab-report")
    for part in ("loops", "resources", "perf"):
        assert box(page, f"#report-{part} pre")["height"] > 20
    page.close()


def test_compare_page_side_by_side(browser: Any, tmp_path: Path) -> None:
    # Its own store: config 1 captured in the shared one would change what the TUI tests offer as not captured yet.
    shared_store = tmp_path / "store"
    out = tmp_path / "compare.html"
    result = invoke("compare", "matmul", "--target", "sm90", "--config", "0", "--vs-config", "1", "--html", out,
                    store=shared_store)
    assert result.exit_code == 0, result.output
    page = open_page(browser, out)
    told = invoke("compare", "matmul", "--target", "sm90", "--config", "0", "--vs-config", "1", "--json",
                  store=shared_store)
    changed = [c["fact"] for c in json.loads(told.stdout)["changed"]]
    differs = page.eval_on_selector_all("table.compare tr.differs td:first-child", "els => els.map(e => e.textContent)")
    assert set(changed) <= set(differs) and changed
    assert page.locator("#first-divergence").inner_text().startswith("First divergence: ")
    # the first divergence as `irscope compare` words it (the configs' tile sizes differ from the first IR, the TTIR)
    first = json.loads(told.stdout)["first_divergence"]
    told_here = page.locator("#pass-divergence").inner_text()
    assert first["stage"] == "ttir" and "ttir" in told_here.lower() and first["see"].split(" ; ")[0] in told_here
    page.click("#tab-diffs")
    page.click(".stage-tabs button[data-stage='ttgir']")
    page.wait_for_selector("#stage-diff .diffbox[data-drawn='all']")
    rows = page.locator("#stage-diff .diff tr").count()
    assert rows > 10
    left, right = box(page, "#stage-diff .diff td.d"), box(page, "#stage-diff .diff td.a")
    assert left["x"] + left["width"] <= right["x"]  # removals on the left, additions on the right
    assert page.errors == []
    page.close()


def test_hostile_source_does_not_break_or_script_the_page(browser: Any, shared_store: Path, tmp_path: Path) -> None:
    kernel = tmp_path / "hostile.py"
    kernel.write_text(HOSTILE, encoding="utf-8")
    out = tmp_path / "hostile.html"
    result = invoke("html", f"{kernel}:copy_kernel", "--target", "sm90", "--args", "fp32[1024], fp32[1024], 1024",
                    "--constexpr", "BLOCK=256", "--no-passes", "-o", out, store=shared_store)
    assert result.exit_code == 0, result.output
    page = open_page(browser, out)
    assert page.evaluate("window.pwned") is None
    assert page.locator("script").count() == 2 and page.locator("img").count() == 0
    source = page.locator("#source").inner_text()
    for line in ("</script><script>window.pwned = 1</script><!--", "<img src=x onerror=\"window.pwned=2\">"):
        assert line in source
    page.click("#tab-facts")
    assert "copy_kernel" in page.locator("table.facts").inner_text()
    assert page.errors == []
    page.close()


HOSTILE = '''import triton
import triton.language as tl

# </script><script>window.pwned = 1</script><!-- ]]> &amp; &lt;
# <img src=x onerror="window.pwned=2">


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """</script><b>not bold</b>"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
'''


def test_report_page_shows_a_clicked_kernels_detail(browser: Any, llama_program: Any, tmp_path: Path) -> None:
    """`irscope report --html` of the Llama program: the kernel table has the report's rows, and clicking a row shows
    that kernel's lines of the terminal report."""
    import shutil

    shared, _ = llama_program
    store = tmp_path / "store"  # the report writes its cache into the store: a copy, not the session's
    shutil.copytree(shared, store, ignore=shutil.ignore_patterns("locks", "staging"))
    out = tmp_path / "report.html"
    result = invoke("report", "--what-if", "0", "--top", "3", "--html", out, store=store)
    assert result.exit_code == 0, result.output
    data = json.loads(invoke("report", "--what-if", "0", "--top", "3", "--json", store=store).stdout)
    page = open_page(browser, out)
    names = page.eval_on_selector_all("table.report-kernels tr td:nth-child(2)", "els => els.map(e => e.textContent)")
    assert names == [k["name"] for k in data["kernels"]]
    page.click("table.report-kernels tr:nth-child(3)")  # the second kernel (row 1 is the heads)
    shown = page.locator("#kernel-detail").inner_text()
    assert shown.splitlines()[0] == f"2. {data['kernels'][1]['name']} ({data['kernels'][1]['kind']})"
    assert all(line.strip() in result.output for line in shown.splitlines())
    page.click("#tab-externs")
    assert "not modelled" in page.locator("#externs").inner_text()
    assert page.errors == []
    page.close()
