"""Size and load time of `irscope html`'s matmul page (every pass stored), measured in headless Chromium.

Writes the page for the bundled matmul (sm90, config 0, with the pass table and every changed pass's diff),
then opens it from file:// in Debian's Chromium (Playwright drives it; never a downloaded browser) a few
times and reports: the file's size; ``ready``, the page's own performance.now() when its script has drawn
the first view (navigation start to the ready marker, parsing the JSON included); ``load``, the wall time
of goto + waiting for the marker; and how long drawing the largest stage and the largest pass diff take
on a click (the diff: its first rows, and all of them). Then the same page with its pass table repeated to 324 passes
(all their diffs kept): its ready time and how long the pass tab takes to draw. Prints one JSON object.

    python3 benchmarks/html_page.py [--store DIR] [--runs 5] [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def write_page(store: str, out: Path) -> float:
    """``irscope html matmul`` into ``out``; the seconds it took (a first run compiles the pass dump)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "irscope", "html", "matmul", "--target", "sm90", "-o", str(out),
                    "--store", store], check=True, env=env)
    return time.perf_counter() - start


def measure(page_file: Path, chromium: str, runs: int) -> dict[str, object]:
    """Ready and load times over ``runs`` fresh tabs, and the time to draw the largest stage and pass diff."""
    from playwright.sync_api import sync_playwright

    ready, load, stage_ms = [], [], []
    diff_ms: list[list[float]] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        for _ in range(runs):
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            start = time.perf_counter()
            page.goto(page_file.resolve().as_uri())
            page.wait_for_selector("body[data-ready='1']")
            load.append((time.perf_counter() - start) * 1000)
            ready.append(page.evaluate("window.irscope.readyAt"))
            stage_ms.append(page.evaluate("""() => {
                const big = window.irscope.data.stages.filter(s => s.name !== 'source')
                    .sort((a, b) => b.lines.length - a.lines.length)[0];
                const t = performance.now(); window.irscope.showStage(big.name);
                document.getElementById('stage-view').getBoundingClientRect(); return performance.now() - t; }"""))
            page.click("#tab-passes")
            diff_ms.append(page.evaluate("""() => {
                const diffs = window.irscope.data.passes.diffs;
                const big = Object.keys(diffs).sort((a, b) => JSON.stringify(diffs[b]).length
                                                          - JSON.stringify(diffs[a]).length)[0];
                const t = performance.now(); window.irscope.showPass(parseInt(big, 10));
                document.getElementById('pass-diff').getBoundingClientRect(); const first = performance.now() - t;
                return new Promise(done => { const wait = () => document.querySelector("#pass-diff \
.diffbox[data-drawn='all']")
                    ? done([first, performance.now() - t]) : setTimeout(wait, 5); wait(); }); }"""))
            page.close()
        browser.close()
    return {"ready_ms_median": round(statistics.median(ready), 1), "ready_ms_max": round(max(ready), 1),
            "load_ms_median": round(statistics.median(load), 1),
            "largest_stage_draw_ms": round(statistics.median(stage_ms), 1),
            "largest_pass_diff_first_rows_ms": round(statistics.median(d[0] for d in diff_ms), 1),
            "largest_pass_diff_all_rows_ms": round(statistics.median(d[1] for d in diff_ms), 1), "runs": runs}


def many_passes(data: dict[str, object], out: Path, copies: int = 4) -> int:
    """The page of ``data`` with its passes (and their diffs) repeated ``copies`` times; how many passes it has."""
    sys.path.insert(0, str(REPO))
    from irscope.views.html_page import page

    passes: dict[str, object] = data["passes"]  # type: ignore[assignment]
    rows, diffs = passes["rows"], passes["diffs"]  # type: ignore[index]
    step = max(r["index"] for r in rows) + 1
    passes["rows"] = [{**r, "index": r["index"] + k * step} for k in range(copies) for r in rows]  # type: ignore[index]
    passes["diffs"] = {str(int(i) + k * step): d for k in range(copies) for i, d in diffs.items()}  # type: ignore[index]
    out.write_text(page("many passes", data), encoding="utf-8")
    return len(passes["rows"])  # type: ignore[arg-type]


def passes_tab(page_file: Path, chromium: str) -> dict[str, float]:
    """Ready time of a page, and the time its pass tab takes to draw."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(page_file.resolve().as_uri())
        page.wait_for_selector("body[data-ready='1']")
        ready = page.evaluate("window.irscope.readyAt")
        drawn = page.evaluate("""() => { const t = performance.now(); window.irscope.showTab('passes');
            document.getElementById('pass-table').getBoundingClientRect(); return performance.now() - t; }""")
        browser.close()
    return {"ready_ms": round(ready, 1), "pass_tab_draw_ms": round(drawn, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", help="irscope store (default: a fresh one in a temporary folder)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chromium", default=os.environ.get("IRSCOPE_CHROMIUM", "/usr/bin/chromium"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "matmul.html"
        seconds = write_page(args.store or str(Path(tmp) / "store"), out)
        data = json.loads(out.read_text(encoding="utf-8").split('id="irscope-data">', 1)[1].split("</script>", 1)[0])
        result = {"page": "irscope html matmul --target sm90 (every pass)", "bytes": out.stat().st_size,
                  "megabytes": round(out.stat().st_size / 1e6, 2), "passes": len(data["passes"]["rows"]),
                  "pass_diffs": len(data["passes"]["diffs"]), "write_seconds": round(seconds, 1),
                  **measure(out, args.chromium, args.runs)}
        big = Path(tmp) / "many.html"
        count = many_passes(data, big)
        result["many_passes"] = {"passes": count, "bytes": big.stat().st_size, **passes_tab(big, args.chromium)}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
