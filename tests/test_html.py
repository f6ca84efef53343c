"""The HTML pages without a browser: escaping, the data a page carries, and the commands that write them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke

_DATA = re.compile(r'<script type="application/json" id="irscope-data">(.*?)</script>', re.S)


def page_data(text: str) -> dict[str, Any]:
    """The JSON a page carries, read as a browser does: up to the first ``</script>``."""
    found = _DATA.search(text)
    assert found is not None
    return json.loads(found.group(1))


def decode(line: str) -> str:
    """A stage line without its class switches (U+E000 + N)."""
    return "".join(c for c in line if not 0xE000 <= ord(c) < 0xE100)


def test_embedded_json_cannot_close_its_script() -> None:
    from irscope.views.html_page import embed_json

    data = {"source": "x = '</script><script>alert(1)</script>' <!-- -->", "</SCRIPT>": "]]> &amp; \u2028"}
    text = embed_json(data)
    assert "</" not in text and "<!--" not in text and "<" not in text and ">" not in text
    assert "\u2028" not in text
    assert json.loads(text) == data


def test_highlighted_lines_keep_the_stage_numbering() -> None:
    from irscope.views.html_page import highlight_lines

    text = "\n\n%0 = arith.constant 1 : i32 loc(#loc1)\n\n  tt.return\n"
    out = highlight_lines(text, "mlir")
    assert [decode(x) for x in out["lines"]] == text.split("\n")[:-1]  # Pygments' stripnl would drop the first two
    assert out["classes"][0] == "" and len(out["classes"]) > 1
    third = out["lines"][2]
    assert chr(0xE000 + out["classes"].index("kt")) + "i32" in third  # the type in the theme's colour
    assert third.startswith("%0")  # the SSA name uncoloured, as the terminal leaves it
    hostile = highlight_lines("a \ue001 b\n", "python")
    assert decode(hostile["lines"][0]) == "a \ufffd b"  # a switch character in the text is not taken for one


def test_page_is_one_file_without_network() -> None:
    from irscope.analysis.share import SharedCapture, StageText
    from irscope.views.html_capture import capture_page

    shared = SharedCapture(title="<b>k</b>", facts=(("kernel", "</script>"),),
                           stages=(StageText("source", "Python source", "python", "# </script><!--\n"),))
    text = capture_page(shared)
    assert "<b>k</b>" not in text and "&lt;b&gt;k&lt;/b&gt;" in text
    assert not re.search(r"<(link|img|iframe)\b|src=|href=|https?://", text.split("<script>", 1)[0])
    assert text.count("<script") == 2 and text.count("</script>") == 2
    data = page_data(text)
    assert data["facts"] == [["kernel", "</script>"]]
    assert decode(data["stages"][0]["lines"][0]) == "# </script><!--"


@pytest.mark.compile
def test_capture_page_carries_the_source_map(captures: Any, shared_store: Path, tmp_path: Path) -> None:
    from irscope.analysis.sourcemap import build_source_map

    capture = captures("matmul", "sm90")
    out = tmp_path / "m.html"
    result = invoke("html", "matmul", "--target", "sm90", "--no-passes", "-o", out, store=shared_store)
    assert result.exit_code == 0, result.output
    data = page_data(out.read_text(encoding="utf-8"))
    stages = {s["name"]: s for s in data["stages"]}
    assert [decode(x) for x in stages["source"]["lines"]] == \
        capture.read("source").split("\n")[:len(stages["source"]["lines"])]
    assert [decode(x) for x in stages["ttgir"]["lines"]] == \
        capture.read("ttgir").split("\n")[:len(stages["ttgir"]["lines"])]
    smap = build_source_map(capture, None)
    for stage in smap.stages:
        for line in range(1, len(smap.source) + 1):
            want = [m.number for m in stage.for_line(line)]
            assert data["map"][stage.stage].get(str(line), []) == want, (stage.stage, line)
        marked = {n for lines in data["map"][stage.stage].values() for n in lines}
        assert max(marked, default=0) <= len(stages[stage.stage]["lines"]), stage.stage  # every mapped line is shown
    assert data["passes"] is None and "passes" in data["missing"]
    assert {p["id"] for p in data["sections"]} >= {"loops", "resources", "perf", "layout-report"}
    assert data["verify"]["disagree"] == 0 and data["verify"]["agree"] > 0
    assert ["Triton", capture.manifest.triton_version] in data["facts"]


@pytest.mark.compile
def test_check_html_lists_the_facts_that_moved(captures: Any, shared_store: Path, tmp_path: Path) -> None:
    captures("matmul", "sm90")
    facts = tmp_path / "facts.json"
    assert invoke("facts", "matmul", "--target", "sm90", "-j", "1", "-o", facts, store=shared_store).exit_code == 0
    snapshot = json.loads(facts.read_text())
    recorded = snapshot["entries"][0]["facts"]
    recorded["registers"] += 40
    facts.write_text(json.dumps(snapshot))
    out = tmp_path / "check.html"
    result = invoke("check", str(facts), "-j", "1", "--html", out, store=shared_store)
    assert result.exit_code == 1, result.output
    data = page_data(out.read_text(encoding="utf-8"))
    assert data["failed"] == 1 and data["total"] == 1
    entry = data["entries"][0]
    assert entry["failed"] and entry["label"] == "matmul sm90 c0"
    assert [d[:3] for d in entry["deltas"]] == [["registers", str(recorded["registers"]),
                                                 str(recorded["registers"] - 40)]]


@pytest.mark.compile
def test_html_of_a_stored_capture_imports_neither_torch_nor_triton(captures: Any, shared_store: Path,
                                                                   tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from tests.conftest import repo_path

    captures("matmul", "sm90")
    code = ("import sys\nfrom click.testing import CliRunner\nfrom irscope.cli import cli\n"
            "r = CliRunner().invoke(cli, ['html', 'matmul', '--target', 'sm90', '--no-passes', '-o', "
            f"{str(tmp_path / 'm.html')!r}, '--store', {str(shared_store)!r}])\n"
            "print(r.exit_code, 'triton' in sys.modules, 'torch' in sys.modules)")
    for _ in range(2):  # the first may import the kernel's module once for perf's launch (cached, as `perf` does)
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                              env={**os.environ, "PYTHONPATH": repo_path()})
    assert proc.stdout.split() == ["0", "False", "False"], proc.stdout + proc.stderr[-2000:]


def test_html_refuses_an_output_in_a_missing_folder(tmp_path: Path) -> None:
    result = invoke("html", "matmul", "-o", tmp_path / "no-such-dir" / "m.html")
    assert result.exit_code != 0
    assert "Traceback" not in result.output and "no-such-dir" in result.output


def test_a_missing_browser_fails_the_browser_tests_where_they_are_required(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    from tests import browser

    monkeypatch.setenv("IRSCOPE_CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setenv("IRSCOPE_BROWSER_TESTS", "required")  # as .ci/run sets it
    with pytest.raises(pytest.fail.Exception, match="apt-get install -y chromium"):
        browser.chromium_path()
    monkeypatch.delenv("IRSCOPE_BROWSER_TESTS")  # a machine with nothing but Python: not run, and the summary says why
    monkeypatch.setattr(browser, "BROWSERLESS", [])
    with pytest.raises(pytest.skip.Exception, match="IRSCOPE_BROWSER_TESTS=required makes this a failure"):
        browser.chromium_path()
    assert "apt-get install -y chromium" in browser.BROWSERLESS[0]
