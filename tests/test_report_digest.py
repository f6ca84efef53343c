"""The report cache's digest covers every irscope module the report path imports (issue 40): an upgrade of any of
them, the performance model's own modules included, is not answered from cached facts."""

from __future__ import annotations

from pathlib import Path

from irscope.analysis.report.digest import model_digest, report_modules


def test_the_digest_covers_the_modules_perf_imports_found_from_the_import_graph() -> None:
    modules = report_modules()
    # those the old hand list left out: the launch record, the GPU table, the SASS reader, the stage runner
    for name in ("irscope.analysis.perf.capture", "irscope.analysis.perf.facts", "irscope.analysis.perf.predict",
                 "irscope.model.launch", "irscope.model.gpus", "irscope.analysis.sourcemap",
                 "irscope.toolchain.stages", "irscope.analysis.loops", "irscope.parse.lineinfo",
                 "irscope.analysis.banks.conflicts"):  # the last one imported by name (importlib)
        assert name in modules, name
    assert all(path.suffix == ".py" and path.is_file() for path in modules.values())


def test_changing_any_such_module_changes_the_digest() -> None:
    modules = report_modules()
    base = model_digest(modules=modules)
    assert base == model_digest()
    for name, path in modules.items():
        def changed(file: Path, target: Path = path) -> bytes:
            return file.read_bytes() + (b"\n# changed\n" if file == target else b"")

        assert model_digest(read=changed, modules=modules) != base, name
