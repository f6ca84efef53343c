"""Opened captures never run their Python until trusted; concurrent per-pass compiles of one capture are
serialized by a file lock; staging directories of dead owners are swept at once, live ones never."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from irscope.store.archive import build_member
from irscope.store.store import Store
from tests.conftest import invoke, repo_path

pytestmark = pytest.mark.compile


def forged_archive(captures, tmp_path: Path, origin: str) -> tuple[Path, str, Path]:
    """A real capture whose source.py writes a marker file when imported, as a 'program' or 'module' capture."""
    cap = captures("vector_add", "gfx942")
    marker = tmp_path / "EXECUTED"
    evil = f"open({str(marker)!r}, 'w').write('ran')\nraise SystemExit('archive code ran')\n".encode()
    manifest = json.loads((cap.path / "manifest.json").read_text())
    manifest["origin"] = origin
    if origin == "program":
        manifest.update(program="python evil.py", replay={"signature": {}, "constexprs": {}, "attrs": {},
                                                           "options": {}})
    else:  # names its own source.py in the store as the kernel module to compile again
        manifest["kernel_path"] = str(tmp_path / "store" / "captures" / cap.manifest.key / "source.py")
    manifest["checksums"]["source.py"] = {"size": len(evil), "sha256": hashlib.sha256(evil).hexdigest()}
    archive = tmp_path / "evil.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        # The capture's own files only: pass dumps other tests left beside it would let `passes` read
        # instead of compile.
        own = {"manifest.json", *cap.manifest.files.values()}
        for path in sorted(p for p in cap.path.iterdir() if p.name in own):
            data = {"manifest.json": json.dumps(manifest).encode(), "source.py": evil}.get(path.name)
            build_member(tar, f"captures/{cap.manifest.key}/{path.name}", data or path.read_bytes())
    return archive, cap.manifest.key, marker


@pytest.mark.parametrize("origin", ["program", "module"])
def test_an_opened_capture_is_read_freely_but_its_python_runs_only_once_trusted(captures, tmp_path, origin,
                                                                                monkeypatch):
    archive, key, marker = forged_archive(captures, tmp_path, origin)
    import irscope.request.captures

    # As in a fresh process: the session's own compile of this key must not stand in for the archive's.
    monkeypatch.setattr(irscope.request.captures, "_REQUESTS", {})
    store = tmp_path / "store"
    opened = invoke("open", str(archive), store=store)
    assert opened.exit_code == 0 and "untrusted" in opened.stderr
    for args in (["show", key, "-s", "ttgir"], ["layouts", key], ["loops", key], ["resources", key]):
        assert invoke(*args, store=store).exit_code == 0
    for args in (["passes", key], ["timing", key], ["diff", key, "--pass", "1"]):
        result = invoke(*args, store=store)
        assert result.exit_code == 2, (args, result.output)
        assert f"capture {key} was opened from {archive} and is not trusted" in result.output
        assert f"irscope trust {key}" in result.output
        assert not marker.exists(), f"{args[0]} imported the archive's source.py"
        assert "compiling" not in result.output and "compile(s)" not in result.output  # refused before announcing
    assert not (store / "captures" / key / "passes.mlir.json").exists()
    trusted = invoke("trust", str(archive), store=store)
    assert trusted.exit_code == 0 and key in trusted.output
    after = invoke("passes", key, store=store)
    assert after.exit_code != 0 and "is not trusted" not in after.output  # the forged kernel fails ...
    if origin == "program":
        # ... and a recorded kernel is replayed from its source read with ast: even trusted, the
        # program's own top-level code never runs.
        assert not marker.exists()


def test_trust_cannot_be_forged_by_the_archive(captures, tmp_path):
    archive, key, _marker = forged_archive(captures, tmp_path, "program")
    with tarfile.open(archive) as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]
    sneaky = tmp_path / "sneaky.tar.gz"
    with tarfile.open(sneaky, "w:gz") as tar:
        for name, data in members.items():
            build_member(tar, name, data)
        build_member(tar, "untrusted/" + key, b"")  # an attempt to write the store's own record
    store = tmp_path / "store"
    assert invoke("open", str(sneaky), store=store).exit_code == 1
    assert invoke("open", str(archive), "--trust", store=store).exit_code == 0  # the user's explicit choice
    assert Store(store).is_trusted(key)
    other = tmp_path / "other"
    assert invoke("open", str(archive), store=other).exit_code == 0
    assert not Store(other).is_trusted(key)
    assert invoke("trust", key, store=other).output.startswith("irscope: trusted")
    assert Store(other).is_trusted(key)
    assert invoke("trust", "nope", store=other).exit_code == 2


def test_four_concurrent_passes_print_the_same_table(captures, tmp_path):
    import shutil

    cap = captures("vector_add", "sm80")
    store = tmp_path / "store"
    shutil.copytree(cap.path, store / "captures" / cap.manifest.key,
                    ignore=shutil.ignore_patterns("passes.*", ".passes.*"))
    env = {**os.environ, "PYTHONPATH": repo_path()}
    cmd = [sys.executable, "-m", "irscope", "passes", "vector_add", "--target", "sm80", "--store", str(store)]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for _ in range(4)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], [o[1] for o in outs]
    tables = {o[0] for o in outs}
    assert len(tables) == 1, "the four runs printed different tables"
    table = tables.pop()
    assert "cannot read" not in table and "tritongpu-" in table
    assert sum("compiling vector_add for sm80 again with per-pass dumps" in o[1] for o in outs) == 1
    assert len(list((store / "captures" / cap.manifest.key).glob("passes.mlir.*.gz"))) == 1


_HOLD = """
import sys, time
from pathlib import Path
from irscope.store.store import Store
path = Store(Path(sys.argv[1])).new_staging("add_kernel-sm80-c0-0123456789abcdef0123")
(path / "partial.ttgir").write_text("being written")
print(path, flush=True)
if sys.argv[2] == "hold":
    time.sleep(60)
"""


def test_staging_of_a_dead_owner_is_swept_at_once_and_a_live_one_never(tmp_path):
    env = {**os.environ, "PYTHONPATH": repo_path()}
    store = tmp_path / "store"
    dead = Path(subprocess.run([sys.executable, "-c", _HOLD, str(store), "exit"], capture_output=True, text=True,
                               env=env, check=True).stdout.strip())
    assert (dead / "partial.ttgir").is_file()  # its owner exited without committing or cleaning up
    live_proc = subprocess.Popen([sys.executable, "-c", _HOLD, str(store), "hold"], stdout=subprocess.PIPE,
                                 text=True, env=env)
    try:
        assert live_proc.stdout is not None
        live = Path(live_proc.stdout.readline().strip())
        assert not dead.exists(), "a staging directory whose owner is gone was kept"  # swept by the new owner
        mine = Store(store).new_staging("add_kernel-sm80-c0-0123456789abcdef0124")  # sweeps on the way
        assert live.is_dir() and (live / "partial.ttgir").read_text() == "being written"
        assert mine.is_dir()
        assert Store(store).sweep_staging() == []  # ours is held by this process, the other by its owner
    finally:
        live_proc.kill()
        live_proc.wait()
    assert Store(store).sweep_staging() == [live]
    Store(store).discard(mine)
    assert sorted(p.name for p in (store / "locks" / "staging").iterdir()) == []  # no lock files left behind


def test_a_staging_lock_being_taken_is_not_swept_as_an_orphan(tmp_path):
    """filelock creates a lock file, then locks it: a sweep in between took it, and its owner's own lock failed.

    (Seen once as "... is held by another process" in two processes capturing softmax at once.) A lock file
    whose staging directory does not exist yet is left alone while it is young; an old one is swept.
    """
    store = Store(tmp_path / "store")
    store.new_staging("add_kernel-sm80-c0-0123456789abcdef0125")  # makes the store's folders
    taking = store.locks_dir / "staging" / "add_kernel-sm80-c0-0123456789abcdef0126.1234.00000000.lock"
    taking.write_text("")  # created by another process, not locked yet, its directory not made yet
    store.sweep_staging()
    assert taking.exists()
    os.utime(taking, (time.time() - 120, time.time() - 120))  # an owner that died before making its directory
    store.sweep_staging()
    assert not taking.exists()
