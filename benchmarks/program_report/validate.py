"""How ``irscope report``'s offline ranking of a program's Triton kernels agrees with the GPU's profile (issue 31).

For each model: the measured profile (``models.py --profile``, on the H200: each kernel's calls and device time over
the profiled steps) and ``irscope report``'s predicted time per step of the same program captured offline
(``irscope capture --target sm90 --gpu h200 -- python models.py --model NAME``, one step). Kernels are joined by
name (Inductor names them the same on both sides when the graphs agree); per name, time per step, summed over the
report's rows of that name (a forward and a backward kernel may share one). The agreement: Spearman's rank
correlation of per-kernel time per step over the joined Triton kernels, and whether the five longest measured kernels
are all among the report's eight longest.

    python benchmarks/program_report/validate.py --measured DIR --report llama=REPORT.json ...

``REPORT.json`` is ``irscope report PROGRAM --json`` of the model's capture. ``--out FILE`` writes the joined table
and the scores as JSON.

    python benchmarks/program_report/validate.py --measured DIR --report MODEL=REPORT.json ... \
        --store MODEL=STORE ... --build-data tests/data/program_report

writes the committed data ``tests/test_report_validation.py`` recomputes the agreement from: the profiles, each
report's rows, the scores as the baseline, and the captures of the ``SAMPLED`` longest measured kernels of each
model, of its longest rotary-embedding kernel, if any, and of its cross-entropy forward (without source text, LLVM IR
and derived tool output), which the test models again.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

TOP_MEASURED, TOP_PREDICTED = 5, 8
SAMPLED = 3  # per model, the longest measured kernels whose captures are committed and modelled again by the test
ROW_KEYS = ("name", "kind", "per_step", "step_us", "per_launch_us")


@dataclass(frozen=True)
class Agreement:
    """One model's agreement between measured and predicted per-kernel time per step.

    Attributes:
        model: the model's name; ``kernels`` the joined kernels as (name, measured us, predicted us) per step.
        spearman: the rank correlation over the joined kernels.
        top_measured_in_top_predicted: how many of the five longest measured are among the eight longest predicted.
        only_measured / only_predicted: Triton kernels found on one side only.
    """

    model: str
    kernels: tuple[tuple[str, float, float], ...]
    spearman: float
    top_measured_in_top_predicted: int
    only_measured: tuple[str, ...]
    only_predicted: tuple[str, ...]


def ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank (1 = smallest), ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson's over the ranks, ties averaged); 0 when either side is constant."""
    rx, ry = ranks(xs), ranks(ys)
    n = len(rx)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else 0.0


def measured_per_step(profile: Mapping[str, Any]) -> dict[str, float]:
    """Each Triton kernel's measured device time per step, in microseconds."""
    steps = int(profile["steps"])
    return {name: float(k["device_us"]) / steps for name, k in profile["kernels"].items() if name.startswith("triton_")}


def predicted_per_step(report: Mapping[str, Any]) -> dict[str, float]:
    """Each modelled Triton kernel's predicted time per step, summed over the report's rows of one name."""
    out: dict[str, float] = {}
    for row in report["kernels"]:
        if row.get("chosen") is None:
            continue
        out[row["name"]] = out.get(row["name"], 0.0) + float(row["step_us"])
    return out


def agreement(model: str, profile: Mapping[str, Any], report: Mapping[str, Any]) -> Agreement:
    """The agreement of one model's profile and report."""
    measured, predicted = measured_per_step(profile), predicted_per_step(report)
    names = sorted(set(measured) & set(predicted), key=lambda n: -measured[n])
    kernels = tuple((n, round(measured[n], 3), round(predicted[n], 3)) for n in names)
    top_predicted = set(sorted(names, key=lambda n: -predicted[n])[:TOP_PREDICTED])
    hits = sum(1 for n in names[:TOP_MEASURED] if n in top_predicted)  # of min(5, joined) kernels
    return Agreement(model=model, kernels=kernels,
                     spearman=round(spearman([measured[n] for n in names], [predicted[n] for n in names]), 4),
                     top_measured_in_top_predicted=hits,
                     only_measured=tuple(sorted(set(measured) - set(predicted))),
                     only_predicted=tuple(sorted(set(predicted) - set(measured))))


def build_data(out: Path, profiles: dict[str, Any], reports: dict[str, Any], stores: dict[str, Path]) -> None:
    """The committed validation data (see the module's docstring) under ``out``."""
    import shutil
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from perf_foreign import _strip  # type: ignore[import-not-found]

    from irscope.store.archive import export
    from irscope.store.store import Store

    out.mkdir(parents=True, exist_ok=True)
    models: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        picked = Store(Path(tmp) / "store")
        picked.captures_dir.mkdir(parents=True)
        for model, report in reports.items():
            result = agreement(model, profiles[model], report)
            sampled = [name for name, _m, _p in result.kernels[:SAMPLED]]
            # and the longest kernel that computes sines and cosines (a rotary embedding: libdevice's slow paths)
            sampled += [name for name, _m, _p in result.kernels if "_cos_" in name and "_sin_" in name
                        and name not in sampled][:1]
            # and the cross-entropy forward (the logit at each label: a load that waits for the labels' load)
            sampled += [name for name, _m, _p in result.kernels if "nll_loss_forward" in name and "backward" not in name
                        and name not in sampled][:1]
            rows = [{**{k: row[k] for k in ROW_KEYS}, "key": (row.get("chosen") or {}).get("key", "")}
                    for row in report["kernels"] if row.get("chosen") is not None]
            for row in rows:
                if row["name"] in sampled:
                    target = picked.captures_dir / row["key"]
                    shutil.copytree(stores[model] / "captures" / row["key"], target)
                    shutil.rmtree(target / "derived", ignore_errors=True)
                    _strip(target)
            models[model] = {"profile": profiles[model], "rows": rows, "sampled": sampled, "gpu": report["gpu"],
                             "target": report["target"], "command": report["command"],
                             "baseline": {"spearman": result.spearman,
                                          "top_measured_in_top_predicted": result.top_measured_in_top_predicted}}
        export(picked.captures(), out / "captures.tar.gz")
    (out / "validation.json").write_text(json.dumps(models, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measured", type=Path, required=True, help="folder of models.py --profile JSON files")
    parser.add_argument("--report", action="append", default=[], metavar="MODEL=REPORT.json", required=True)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--store", action="append", default=[], metavar="MODEL=STORE")
    parser.add_argument("--build-data", type=Path, default=None, metavar="DIR")
    args = parser.parse_args(argv)
    results = []
    profiles: dict[str, Any] = {}
    reports: dict[str, Any] = {}
    for item in args.report:
        model, _, path = item.partition("=")
        profile = json.loads((args.measured / f"{model}.json").read_text(encoding="utf-8"))
        report = json.loads(Path(path).read_text(encoding="utf-8"))
        profiles[model], reports[model] = profile, report
        result = agreement(model, profile, report)
        results.append(result)
        print(f"{model}: {len(result.kernels)} kernels joined, Spearman {result.spearman:.3f}, top {TOP_MEASURED} "
              f"measured in top {TOP_PREDICTED} predicted: {result.top_measured_in_top_predicted}/{TOP_MEASURED}; "
              f"only measured {len(result.only_measured)}, only predicted {len(result.only_predicted)}")
        for name, m, p in result.kernels:
            print(f"    {m:9.2f} us measured {p:9.2f} us predicted  {name[:90]}")
    if args.out:
        args.out.write_text(json.dumps([asdict(r) for r in results], indent=1), encoding="utf-8")
    if args.build_data:
        stores = {m: Path(p) for m, _, p in (s.partition("=") for s in args.store)}
        build_data(args.build_data, profiles, reports, stores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
