"""Portable captures: export, open elsewhere, identical artifacts; hostile archives refused before writing."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from irscope.cli import cli
from irscope.store.archive import build_member, export
from irscope.store.store import Store
from tests.conftest import invoke

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


# ---- attacks on `irscope open`: each one refused with one line and exit 1, before anything is written ----

def real_members(captures) -> tuple[str, dict[str, bytes]]:
    """The members of an archive `irscope export` writes for a real capture (vector_add on gfx942)."""
    cap = captures("vector_add", "gfx942")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for path in sorted(cap.path.iterdir()):
            if path.is_file() and not path.name.startswith("."):
                build_member(tar, f"captures/{cap.manifest.key}/{path.name}", path.read_bytes())
    buf.seek(0)
    with tarfile.open(fileobj=buf, mode="r:gz") as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]
    return cap.manifest.key, members


def write_archive(path: Path, members: list[tuple[str, str, bytes]]) -> Path:
    """A .tar.gz of (kind, name, payload) members; kinds: file, dir, symlink, hardlink, fifo, chr."""
    kinds = {"dir": tarfile.DIRTYPE, "symlink": tarfile.SYMTYPE, "hardlink": tarfile.LNKTYPE,
             "fifo": tarfile.FIFOTYPE, "chr": tarfile.CHRTYPE}
    with tarfile.open(path, "w:gz") as tar:
        for kind, name, payload in members:
            if kind == "file":
                build_member(tar, name, payload)
                continue
            info = tarfile.TarInfo(name)
            info.type = kinds[kind]
            info.linkname = payload.decode() if kind in ("symlink", "hardlink") else ""
            tar.addfile(info)
    return path


def seeded_store(captures, root: Path) -> tuple[Path, dict[str, bytes]]:
    """A store already holding a real capture (softmax on gfx942); returns it and a snapshot of every file."""
    cap = captures("softmax", "gfx942")
    import shutil

    shutil.copytree(cap.path, root / "captures" / cap.manifest.key)
    return root, snapshot(root)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under the store's captures/, by relative path."""
    base = root / "captures"
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(base.rglob("*")) if p.is_file()}


def assert_refused_before_writing(result, store: Path, before: dict[str, bytes], needle: str) -> None:
    """One line naming the archive, exit 1, no traceback; the store exactly as it was; nothing staged."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("irscope: error: "), result.output
    assert needle in result.output, result.output
    assert snapshot(store) == before
    staging = store / "staging"
    assert not staging.exists() or not any(staging.iterdir())


def manifest_with(members: dict[str, bytes], key: str, **changes) -> dict[str, bytes]:
    data = json.loads(members[f"captures/{key}/manifest.json"])
    data.update(changes)
    return {**members, f"captures/{key}/manifest.json": json.dumps(data).encode()}


def _dot_key_attack(key: str, members: dict[str, bytes]) -> list[tuple[str, str, bytes]]:
    """The reported attack: members captures/./... whose manifest key is '.'."""
    out = []
    for name, data in members.items():
        fname = name.rsplit("/", 1)[1]
        if fname == "manifest.json":
            manifest = json.loads(data)
            manifest["key"] = "."
            data = json.dumps(manifest).encode()
        out.append(("file", f"captures/./{fname}", data))
    return out


NAME_ATTACKS = [
    ("/etc/irscope-owned", "only captures/<key>/<file> and programs/<id>/program.json paths"),
    ("captures/{key}/../../../escape.txt", "only captures/<key>/<file> and programs/<id>/program.json paths"),
    ("captures/../escape.txt", "is not a capture key"),
    ("captures/./manifest.json", "is not a capture key"),
    ("captures/../../x/manifest.json", "only captures/<key>/<file> and programs/<id>/program.json paths"),
    ("captures/{key}/sub/manifest.json", "only captures/<key>/<file> and programs/<id>/program.json paths"),
    ("captures/{key}/.hidden", "is not a plain file name"),
    ("captures/{key}/..", "is not a plain file name"),
    ("captures/k/x.ttgir", "is not a capture key"),
    ("captures/{key}", "a file where a capture folder belongs"),
    ("captures/{key}/a\\b", "is not a plain file name"),
    ("captures/{key}/ba d", "is not a plain file name"),
    ("notes.txt", "only captures/<key>/<file> and programs/<id>/program.json paths"),
    ("captures", "only captures/<key>/<file> and programs/<id>/program.json paths"),
    ("captures/x-sm90-c0-0123", "is not a capture key"),
    ("captures/-sm90-c0-0123456789abcdef0123/manifest.json", "is not a capture key"),
    ("Captures/{key}/manifest.json", "only captures/<key>/<file> and programs/<id>/program.json paths"),
    ("./captures/{key}/manifest.json", "only captures/<key>/<file> and programs/<id>/program.json paths"),
]


@pytest.mark.parametrize(("name", "needle"), NAME_ATTACKS)
def test_member_name_attacks_are_refused_before_writing(captures, tmp_path, name, needle):
    key, members = real_members(captures)
    store, before = seeded_store(captures, tmp_path / "store")
    hostile = [("file", n, d) for n, d in members.items()] + [("file", name.format(key=key), b"x")]
    result = invoke("open", write_archive(tmp_path / "evil.tar.gz", hostile), store=store)
    assert_refused_before_writing(result, store, before, needle)
    assert not (tmp_path / "escape.txt").exists()


def test_the_dot_key_archive_deletes_nothing(captures, tmp_path):
    key, members = real_members(captures)
    store, before = seeded_store(captures, tmp_path / "store")
    result = invoke("open", write_archive(tmp_path / "dot.tar.gz", _dot_key_attack(key, members)), store=store)
    assert_refused_before_writing(result, store, before, "'.' is not a capture key")


@pytest.mark.parametrize("kind", ["symlink", "hardlink", "fifo", "chr"])
def test_links_and_special_files_are_refused(captures, tmp_path, kind):
    _key, members = real_members(captures)
    store, before = seeded_store(captures, tmp_path / "store")
    hostile = [("file", n, d) for n, d in members.items() if not n.endswith(".ttgir")]
    hostile.append((kind, next(n for n in members if n.endswith(".ttgir")), b"/etc/passwd"))
    result = invoke("open", write_archive(tmp_path / "evil.tar.gz", hostile), store=store)
    assert_refused_before_writing(result, store, before, "links and special files are not allowed")


MANIFEST_ATTACKS = [
    ("not an object (list)", lambda m: [1, 2], "holds a list, not an object"),
    ("not an object (null)", lambda m: None, "holds null, not an object"),
    ("not an object (string)", lambda m: "x", "holds a string, not an object"),
    ("files as a list", lambda m: {**m, "files": ["a"]}, "field 'files' must be an object"),
    ("files null", lambda m: {**m, "files": None}, "field 'files' must be an object"),
    ("metadata null", lambda m: {**m, "metadata": None}, "field 'metadata' must be an object, not null"),
    ("files outside", lambda m: {**m, "files": {**m["files"], "ttgir": "../../../etc/passwd"}},
     "only a plain file name inside the capture"),
    ("files absolute", lambda m: {**m, "files": {**m["files"], "ttgir": "/etc/passwd"}},
     "only a plain file name inside the capture"),
    ("key '.'", lambda m: {**m, "key": "."}, "names the key '.'"),
    ("key of another capture", lambda m: {**m, "key": m["key"][:-1] + ("0" if m["key"][-1] != "0" else "1")},
     "names the key"),
    ("config_index a string", lambda m: {**m, "config_index": "0"}, "field 'config_index' must be an integer"),
    ("warp_size negative", lambda m: {**m, "warp_size": -64}, "field 'warp_size' must be a positive integer"),
    ("sizes of strings", lambda m: {**m, "sizes": {"N": "big"}}, "field 'sizes' must map names to integers"),
    ("checksums a list", lambda m: {**m, "checksums": []}, "field 'checksums' must be an object"),
    ("checksum size a string", lambda m: {**m, "checksums": {k: {**v, "size": "1"} for k, v in
                                                              m["checksums"].items()}}, "must hold an integer size"),
    ("key missing", lambda m: {k: v for k, v in m.items() if k != "key"}, "lacks the field 'key'"),
    ("not JSON", None, "is not valid JSON"),
    ("files names a file the archive lacks", lambda m: {**m, "files": {**m["files"], "sass": "k.sass"}},
     "names k.sass, which the archive lacks"),
]


@pytest.mark.parametrize(("what", "mutate", "needle"), MANIFEST_ATTACKS, ids=[a[0] for a in MANIFEST_ATTACKS])
def test_manifest_attacks_are_refused_before_writing(captures, tmp_path, what, mutate, needle):
    key, members = real_members(captures)
    store, before = seeded_store(captures, tmp_path / "store")
    mname = f"captures/{key}/manifest.json"
    data = b"{not json" if mutate is None else json.dumps(mutate(json.loads(members[mname]))).encode()
    hostile = [("file", n, data if n == mname else d) for n, d in members.items()]
    result = invoke("open", write_archive(tmp_path / "evil.tar.gz", hostile), store=store)
    assert_refused_before_writing(result, store, before, needle)
    assert str(tmp_path / "evil.tar.gz") in result.output


def test_a_file_that_differs_from_its_checksum_is_refused(captures, tmp_path):
    _key, members = real_members(captures)
    store, before = seeded_store(captures, tmp_path / "store")
    name = next(n for n in members if n.endswith(".ttgir"))
    hostile = [("file", n, d[:-4] + b"XXXX" if n == name else d) for n, d in members.items()]
    result = invoke("open", write_archive(tmp_path / "evil.tar.gz", hostile), store=store)
    assert_refused_before_writing(result, store, before, "differs from the size and sha256")


def test_a_member_twice_is_refused(captures, tmp_path):
    key, members = real_members(captures)
    store, before = seeded_store(captures, tmp_path / "store")
    hostile = [("file", n, d) for n, d in members.items()]
    hostile.append(("file", f"captures/{key}/source.py", b"import os\n"))
    result = invoke("open", write_archive(tmp_path / "evil.tar.gz", hostile), store=store)
    assert_refused_before_writing(result, store, before, "it appears twice")


def _gzip_bomb(path: Path, key: str, members: dict[str, bytes], zeros: int) -> Path:
    """A real capture plus one member of ``zeros`` zero bytes, streamed (the archive stays small)."""
    with gzip.open(path, "wb", compresslevel=9) as gz, tarfile.open(fileobj=gz, mode="w|") as tar:
        for name, data in members.items():
            build_member(tar, name, data)
        info = tarfile.TarInfo(f"captures/{key}/add_kernel.ptx")
        info.size = zeros

        class Zeros(io.RawIOBase):
            left = zeros

            def readinto(self, b):  # type: ignore[no-untyped-def]
                n = min(len(b), self.left)
                b[:n] = bytes(n)
                self.left -= n
                return n

        tar.addfile(info, Zeros())
    return path


def test_a_gzip_bomb_is_refused_by_its_ratio_before_writing(captures, tmp_path):
    key, members = real_members(captures)
    store, before = seeded_store(captures, tmp_path / "store")
    bomb = _gzip_bomb(tmp_path / "bomb.tar.gz", key, members, 64 * 1024 * 1024)
    assert bomb.stat().st_size < 200_000
    result = invoke("open", bomb, store=store)
    assert_refused_before_writing(result, store, before, "as a compression bomb does (--max-ratio raises the cap)")


def test_the_total_size_cap_refuses_before_writing_and_a_flag_raises_it(captures, tmp_path):
    _key, members = real_members(captures)
    store, before = seeded_store(captures, tmp_path / "store")
    total = sum(len(d) for d in members.values())
    archive = write_archive(tmp_path / "big.tar.gz", [("file", n, d) for n, d in members.items()])
    result = invoke("open", archive, "--max-bytes", str(total // 2), store=store)
    assert_refused_before_writing(result, store, before, "(--max-bytes raises it)")
    assert invoke("open", archive, "--max-bytes", str(total * 2), store=store).exit_code == 0


def test_the_member_count_cap(captures, tmp_path):
    _key, members = real_members(captures)
    store, before = seeded_store(captures, tmp_path / "store")
    archive = write_archive(tmp_path / "many.tar.gz", [("file", n, d) for n, d in members.items()])
    result = invoke("open", archive, "--max-members", "3", store=store)
    assert_refused_before_writing(result, store, before, "more than 3 members (--max-members raises the cap)")


def test_a_header_claiming_100_gb_is_refused(captures, tmp_path):
    key, _members = real_members(captures)
    store, before = seeded_store(captures, tmp_path / "store")
    info = tarfile.TarInfo(f"captures/{key}/add_kernel.ptx")
    info.size = 100 * 1024**3
    header = info.tobuf(format=tarfile.GNU_FORMAT)
    archive = tmp_path / "claim.tar.gz"
    archive.write_bytes(gzip.compress(header + b"x" * 4096))
    result = invoke("open", archive, store=store)
    assert_refused_before_writing(result, store, before, "claims 107374182400 bytes")


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.9, 0.99])
def test_a_truncated_archive_is_refused(captures, tmp_path, cut):
    _key, members = real_members(captures)
    store, before = seeded_store(captures, tmp_path / "store")
    whole = write_archive(tmp_path / "whole.tar.gz", [("file", n, d) for n, d in members.items()]).read_bytes()
    archive = tmp_path / "cut.tar.gz"
    archive.write_bytes(whole[:int(len(whole) * cut)])
    result = invoke("open", archive, store=store)
    assert_refused_before_writing(result, store, before, str(archive))


@pytest.mark.parametrize("where", [0.3, 0.6])
def test_a_corrupt_gzip_is_refused(captures, tmp_path, where):
    _key, members = real_members(captures)
    store, before = seeded_store(captures, tmp_path / "store")
    whole = bytearray(write_archive(tmp_path / "w.tar.gz", [("file", n, d) for n, d in members.items()]).read_bytes())
    at = int(len(whole) * where)
    whole[at:at + 16] = bytes(16)
    archive = tmp_path / "corrupt.tar.gz"
    archive.write_bytes(bytes(whole))
    result = invoke("open", archive, store=store)
    assert_refused_before_writing(result, store, before, "not a readable capture archive")


def test_not_an_archive(tmp_path):
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(b"not a tar at all")
    store = tmp_path / "s"
    result = invoke("open", junk, store=store)
    assert result.exit_code == 1 and "not a readable capture archive" in result.output
    assert not store.exists() or not (store / "captures").exists()


def test_open_never_replaces_what_the_store_has_unless_asked(captures, tmp_path):
    key, members = real_members(captures)
    store = tmp_path / "store"
    archive = write_archive(tmp_path / "a.tar.gz", [("file", n, d) for n, d in members.items()])
    assert "1 capture(s) added" in invoke("open", archive, store=store).output
    # The store's copy is damaged (a file cut short); opening again leaves it as it is and says so ...
    ttgir = next((store / "captures" / key).glob("*.ttgir"))
    ttgir.write_bytes(ttgir.read_bytes()[:100])
    result = invoke("open", archive, store=store)
    assert result.exit_code == 0 and "0 capture(s) added, 1 already in the store" in result.output
    assert len(ttgir.read_bytes()) == 100
    # ... until --replace names that key.
    result = invoke("open", archive, "--replace", key, store=store)
    assert result.exit_code == 0 and "1 capture(s) added" in result.output, result.output
    assert ttgir.read_bytes() == members[f"captures/{key}/{ttgir.name}"]
    assert invoke("open", archive, "--replace", "nope-sm90-c0-0123456789abcdef0123", store=store).exit_code == 2


def test_export_skips_files_open_would_refuse(captures, tmp_path):
    cap = captures("vector_add", "gfx942")
    import shutil

    store = tmp_path / "store"
    shutil.copytree(cap.path, store / "captures" / cap.manifest.key)
    (store / "captures" / cap.manifest.key / ".passes.mlir.1-2-3.gz.tmp").write_bytes(b"partial")
    (store / "captures" / cap.manifest.key / "passes.mlir.json").symlink_to("/etc/hostname")
    archive = tmp_path / "out.tar.gz"
    done = export([Store(store).get(cap.manifest.key)], archive)  # type: ignore[list-item]
    assert invoke("open", archive, store=tmp_path / "fresh").exit_code == 0
    assert done.skipped == (f"{cap.manifest.key}/.passes.mlir.1-2-3.gz.tmp: a partial file, left by a write that "
                            "was interrupted", f"{cap.manifest.key}/passes.mlir.json: a link")
    with tarfile.open(archive) as tar:
        assert done.files == len(tar.getmembers()) == len(list(cap.path.iterdir()))


def test_export_and_list_say_what_they_leave_out(captures, tmp_path):
    """A capture whose manifest is damaged was missing from `list` ("0 captures") and from `export --all`, and a
    file export cannot carry was dropped without a word; each is now named with why."""
    import shutil

    cap = captures("vector_add", "sm90")
    store = tmp_path / "store"
    for source in (cap, captures("vector_add", "gfx942")):
        shutil.copytree(source.path, store / "captures" / source.manifest.key)
    (store / "captures" / cap.manifest.key / "manifest.json").write_text("{ damaged")
    good = captures("vector_add", "gfx942").manifest.key
    (store / "captures" / good / "passes.mlir.0-0-0.gz").symlink_to("/etc/hostname")
    listing = CliRunner().invoke(cli, ["list", "--store", str(store)])
    assert listing.exit_code == 0, listing.output
    assert f"Captures in {store}: 1 (and 1 that cannot be read)" in listing.stdout
    assert f"  cannot read {cap.manifest.key}: manifest.json is not valid JSON (" in listing.stdout
    data = json.loads(CliRunner().invoke(cli, ["list", "--json", "--store", str(store)]).stdout)
    assert [u["key"] for u in data["unreadable"]] == [cap.manifest.key]
    exported = CliRunner().invoke(cli, ["export", "--all", "-o", str(tmp_path / "all.tar.gz"), "--store", str(store)])
    assert exported.exit_code == 0, exported.output
    assert exported.stderr.splitlines() == [
        f"irscope: warning: left out {good}/passes.mlir.0-0-0.gz: a link",
        f"irscope: warning: left out the capture {cap.manifest.key}, which cannot be read: manifest.json is not valid "
        f"JSON (Expecting property name enclosed in double quotes: line 1 column 3 (char 2))"]


@pytest.mark.compile
def test_export_names_a_damaged_pass_dump_and_is_quiet_about_a_healthy_capture(captures, tmp_path):
    """Issue 28 item 5: a per-pass dump its index names but that was deleted gave "12 files" and no word, a cut one
    went out silently, and every export warned about the capture's derived/ folder (what irscope makes again)."""
    import shutil

    cap = captures("vector_add", "sm90")
    store = tmp_path / "store"
    shutil.copytree(cap.path, store / "captures" / cap.manifest.key)
    key = cap.manifest.key
    assert invoke("passes", key, store=store).exit_code == 0  # stores the dump
    assert invoke("show", key, "--stage", "sass", store=store).exit_code == 0  # fills derived/
    folder = store / "captures" / key
    assert (folder / "derived").is_dir()
    (dump,) = folder.glob("passes.mlir.*.gz")

    def exported(name: str) -> list[str]:
        result = invoke("export", key, "-o", tmp_path / name, store=store)
        assert result.exit_code == 0, result.output
        return result.stderr.splitlines()

    assert exported("healthy.tar.gz") == []
    data = dump.read_bytes()
    dump.write_bytes(data[: len(data) // 2])
    (line,) = exported("cut.tar.gz")
    assert line.startswith(f"irscope: warning: exported as it is, damaged: {key}/{dump.name}: cut short ("), line
    dump.unlink()
    assert exported("missing.tar.gz") == [
        f"irscope: warning: exported as it is, damaged: {key}/{dump.name}: missing (named by passes.mlir.json)"]
