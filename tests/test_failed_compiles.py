"""A compile Triton rejected is remembered for that exact compile; ``--retry`` compiles it again (issue 26 item 5)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from irscope.request.captures import RETRY_ENV
from irscope.store.failed import failed_compile
from irscope.store.store import Store, triton_version
from tests.conftest import DATA, invoke

pytestmark = pytest.mark.compile
TINY = f"{DATA / 'kernels' / 'tiny_dot.py'}:tiny_dot"
REJECTED = "Input shapes should have M >= 1, N >= 1 and K >= 16"  # Triton's words for a dot with K = 8


def _show_args(block: int) -> list[str]:
    return ["show", TINY, "--signature", f"*fp16, *fp16, *fp32, {block}", "--target", "sm90"]


def _show(store: Path, block: int) -> Any:
    return invoke(*_show_args(block), store=store)


def test_a_rejected_compile_is_answered_from_its_record_until_retry(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    first = _show(tmp_path, 8)
    assert first.exit_code == 1 and REJECTED in first.stderr
    records = list((tmp_path / "failed").glob("*.json"))
    assert len(records) == 1 and not Store(tmp_path).captures()  # a record beside the store's captures, none of them
    record = json.loads(records[0].read_text(encoding="utf-8"))
    assert record["reason"] == REJECTED and record["triton_version"] == triton_version()
    assert failed_compile(tmp_path, record["key"]) is not None

    from irscope.compile import remote

    def no_compile(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a remembered rejection must not compile again")

    monkeypatch.setattr(remote, "compile_job", no_compile)
    again = _show(tmp_path, 8)
    assert again.exit_code == 1
    assert again.stderr.startswith(f"irscope: error: Triton {triton_version()} rejected this compile on "
                                   f"{record['when'][:10]} ({REJECTED}); --retry compiles it again\n")
    assert "tl.dot(a, b)" in again.stderr  # Triton's whole message, with the source line, follows
    monkeypatch.undo()

    other = _show(tmp_path, 16)  # another specialization is another compile: it compiles (and is stored)
    assert other.exit_code == 0, other.stderr
    assert "tt.dot" in other.output and len(Store(tmp_path).captures()) == 1

    for args in (["--retry", *_show_args(8)], [*_show_args(8), "--retry"]):  # the global option, the command's
        retried = invoke(*args, store=tmp_path)
        assert retried.exit_code == 1
        assert "compiling tiny_dot for sm90" in retried.stderr and "rejected this compile" not in retried.stderr
        assert REJECTED in retried.stderr
        os.environ.pop(RETRY_ENV, None)  # --retry in-process chose it for the rest of the process


def test_a_rejected_what_if_of_the_tutorial_matmul_is_remembered(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    args = ("show", "matmul", "--set", "BLOCK_SIZE_K=8", "--target", "sm90")  # Triton's tutorial 03, K tile 8
    first = invoke(*args, store=tmp_path)
    assert first.exit_code == 1 and REJECTED in first.stderr and "rejected this compile" not in first.stderr
    from irscope.compile import remote
    from irscope.errors import UsageError

    compiled: list[str] = []

    def counted(job: Any, *args: Any, **kwargs: Any) -> Any:
        compiled.append(job.key())
        raise UsageError("not compiled in this test")

    monkeypatch.setattr(remote, "compile_job", counted)
    again = invoke(*args, store=tmp_path)
    assert again.exit_code == 1 and "rejected this compile on " in again.stderr and REJECTED in again.stderr
    assert compiled == []
    invoke("show", "matmul", "--set", "BLOCK_SIZE_K=16", "--target", "sm90", store=tmp_path)
    assert len(compiled) == 1  # another setting is another compile: it is not answered from the record


def test_an_unreadable_record_is_not_trusted(tmp_path: Path) -> None:
    key = "tiny_dot-sm90-c0-0123456789abcdef0123"
    folder = tmp_path / "failed"
    folder.mkdir()
    (folder / f"{key}.json").write_text('{"key": "' + key + '", "reason": 3}', encoding="utf-8")
    assert failed_compile(tmp_path, key) is None
    assert failed_compile(tmp_path, "../escape") is None
