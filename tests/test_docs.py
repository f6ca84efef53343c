"""Docs stay tied to the code: every command is in the CLI reference, and the README's commands are real."""

from __future__ import annotations

import re

from irscope.cli import COMMANDS
from irscope.cli.reference import render_reference
from tests.conftest import REPO


def test_cli_reference_is_current():
    on_disk = (REPO / "docs" / "cli-reference.md").read_text()
    assert on_disk == render_reference(), "regenerate: python -m irscope.cli.reference > docs/cli-reference.md"
    for name in COMMANDS:
        assert f"## irscope {name}\n" in on_disk


def test_readme_starts_with_two_setup_commands_and_the_main_job():
    readme = (REPO / "README.md").read_text()
    blocks = re.findall(r"```(?:bash|sh)?\n(.*?)```", readme, re.S)
    setup = [line for line in blocks[0].splitlines() if line.strip() and not line.startswith("#")]
    assert len(setup) == 2
    assert "pip install" in setup[0] and setup[1].strip() == "python -m pytest"
    assert "irscope show matmul --stage ttgir" in blocks[1]
    ci = (REPO / ".ci" / "run").read_text()
    assert setup[0] in ci and setup[1] in ci


def test_the_testing_guide_example_passes(tmp_path):
    """docs/examples/test_pin_compiler.py is the file users copy: it must pass as written."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "IRSCOPE_HOME": str(tmp_path), "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(REPO / "docs" / "examples" / "test_pin_compiler.py")],
                          capture_output=True, text=True, env=env, timeout=900, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "3 passed" in proc.stdout
