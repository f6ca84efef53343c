"""Portable captures: export, open elsewhere, identical artifacts; hostile archives refused."""

from __future__ import annotations

import io
import tarfile

import pytest
from click.testing import CliRunner

from irscope.archive import build_member
from irscope.cli import cli
from irscope.store import Store

pytestmark = pytest.mark.compile


def test_export_then_open_in_a_fresh_store_gives_identical_artifacts(captures, shared_store, tmp_path):
    originals = [captures("matmul", "sm90"), captures("matmul", "gfx942")]
    archive = tmp_path / "caps.tar.gz"
    result = CliRunner().invoke(cli, ["export", "matmul", "-o", str(archive), "--store", str(shared_store)])
    assert result.exit_code == 0, result.output
    fresh = tmp_path / "fresh"
    result = CliRunner().invoke(cli, ["open", str(archive), "--store", str(fresh)])
    assert result.exit_code == 0, result.output
    for cap in originals:
        opened = Store(fresh).get(cap.manifest.key)
        assert opened is not None
        for name in cap.manifest.files.values():
            assert (opened.path / name).read_bytes() == (cap.path / name).read_bytes()
    # And the opened capture is what `show` reads for that kernel and target, without compiling.
    shown = CliRunner().invoke(cli, ["show", "matmul", "-t", "gfx942", "-s", "ttgir", "--store", str(fresh)])
    assert shown.stdout == originals[1].read("ttgir") + ("" if originals[1].read("ttgir").endswith("\n") else "\n")
    assert "compiling" not in shown.stderr


def _archive(path, members):
    with tarfile.open(path, "w:gz") as tar:
        for kind, name, payload in members:
            if kind == "file":
                build_member(tar, name, payload)
            else:
                info = tarfile.TarInfo(name)
                info.type = tarfile.SYMTYPE if kind == "symlink" else tarfile.LNKTYPE
                info.linkname = payload.decode()
                tar.addfile(info, io.BytesIO(b""))


@pytest.mark.parametrize(("members", "needle"), [
    ([("file", "/etc/irscope-owned", b"x")], "refusing member '/etc/irscope-owned'"),
    ([("file", "captures/k/../../../escape.txt", b"x")], "refusing member 'captures/k/../../../escape.txt'"),
    ([("symlink", "captures/k/manifest.json", b"/etc/passwd")], "links and special files are not allowed"),
    ([("hardlink", "captures/k/x.ttgir", b"/etc/passwd")], "links and special files are not allowed"),
    ([("file", "captures/k/x.ttgir", b"module {}")], "capture k has no manifest.json"),
    ([("file", "notes.txt", b"hi")], "refusing member 'notes.txt'"),
])
def test_hostile_archives_are_refused_before_anything_is_written(tmp_path, members, needle):
    archive = tmp_path / "evil.tar.gz"
    _archive(archive, members)
    store = tmp_path / "store"
    result = CliRunner().invoke(cli, ["open", str(archive), "--store", str(store)])
    assert result.exit_code == 2
    assert needle in result.output
    assert "Traceback" not in result.output
    assert not (store / "captures").exists() or not any((store / "captures").iterdir())
    assert not (tmp_path / "escape.txt").exists()


def test_not_an_archive(tmp_path):
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(b"not a tar at all")
    result = CliRunner().invoke(cli, ["open", str(junk), "--store", str(tmp_path / "s")])
    assert result.exit_code == 2 and "is not a capture archive" in result.output
