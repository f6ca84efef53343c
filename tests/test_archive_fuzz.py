"""Generated attacks on ``irscope open``: member names, kinds and sizes, manifest fields, cut and garbled bytes.

Every archive either adds captures that read back exactly as the archive held them, or is refused with
one line before anything is written; the capture already in the store is never touched. The profile
(HYPOTHESIS_PROFILE=fast|thorough) sets how many archives are tried.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_archive import real_members, seeded_store, snapshot, write_archive

from irscope.store.store import Store
from tests.conftest import invoke

settings.register_profile("fast", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))

pytestmark = pytest.mark.compile

_SEGMENTS = st.sampled_from(["captures", ".", "..", "", "k", "manifest.json", "x.ttgir", "a\\b", "-", " ",
                             "vector_add-gfx942-c0-0123456789abcdef0123", "CAPTURES", "~", "\u00e9"])
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                 max_size=3), max_leaves=6)
_FIELDS = st.sampled_from(["key", "kernel", "files", "metadata", "checksums", "config_index", "sizes", "arch",
                           "warp_size", "format", "replay", "origin", "signature", "stage_seconds", "backend"])


@st.composite
def attacks(draw: st.DrawFn) -> tuple[str, object]:
    """One mutation of a real exported capture."""
    kind = draw(st.sampled_from(["name", "kind", "field", "cut", "flip", "size"]))
    if kind == "name":
        return kind, "/".join(draw(st.lists(_SEGMENTS, min_size=1, max_size=4)))
    if kind == "kind":
        return kind, draw(st.sampled_from(["symlink", "hardlink", "fifo", "chr", "dir"]))
    if kind == "field":
        return kind, (draw(_FIELDS), draw(_JSON))
    if kind == "cut":
        return kind, draw(st.floats(min_value=0.0, max_value=0.999))
    if kind == "flip":
        return kind, (draw(st.floats(min_value=0.0, max_value=0.999)), draw(st.integers(1, 255)))
    return kind, draw(st.integers(min_value=0, max_value=3 * 1024 * 1024))


def build(tmp: Path, key: str, members: dict[str, bytes], attack: tuple[str, object]) -> Path:
    kind, arg = attack
    items = [("file", n, d) for n, d in members.items()]
    ttgir = next(n for n in members if n.endswith(".ttgir"))
    if kind == "name":
        items.append(("file", str(arg), b"payload"))
    elif kind == "kind":
        items = [it for it in items if it[1] != ttgir] + [(str(arg), ttgir, b"/etc/passwd")]
    elif kind == "field":
        field, value = arg  # type: ignore[misc]
        mname = f"captures/{key}/manifest.json"
        manifest = json.loads(members[mname])
        manifest[field] = value
        items = [("file", n, json.dumps(manifest).encode() if n == mname else d) for _, n, d in items]
    elif kind == "size":
        items.append(("file", f"captures/{key}/add_kernel.ptx", bytes(int(arg))))  # type: ignore[call-overload]
    path = write_archive(tmp / "attack.tar.gz", items)
    if kind in ("cut", "flip"):
        data = bytearray(path.read_bytes())
        if kind == "cut":
            data = data[: int(len(data) * float(arg))]  # type: ignore[arg-type]
        else:
            where, byte = arg  # type: ignore[misc]
            data[int(len(data) * where)] ^= byte
        path.write_bytes(bytes(data))
    return path


@given(attack=attacks())
def test_generated_archives_add_exactly_or_refuse_before_writing(captures, tmp_path_factory, attack):
    tmp = tmp_path_factory.mktemp("fuzz")
    key, members = real_members(captures)
    store, before = seeded_store(captures, tmp / "store")
    archive = build(tmp, key, members, attack)
    result = invoke("open", archive, "--max-bytes", str(2 * 1024 * 1024), store=store)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    after = snapshot(store)
    assert {k: v for k, v in after.items() if k in before} == before  # nothing lost, nothing replaced
    if result.exit_code == 0:
        opened = Store(store).get(key)
        assert opened is not None
        for name in opened.manifest.files.values():
            assert (opened.path / name).read_bytes() == members[f"captures/{key}/{name}"]
        assert not Store(store).is_trusted(key)
    else:
        assert result.exit_code in (1, 2), result.output
        assert after == before, "refused, but something was written"
        assert len([ln for ln in result.output.splitlines() if ln.strip()]) == 1, result.output
    staging = store / "staging"
    assert not staging.exists() or not any(staging.iterdir())
    assert not any(p.name == "payload" for p in tmp.rglob("*"))
    if log := os.environ.get("IRSCOPE_FUZZ_LOG"):  # tallies for the report: attack kind, exit status
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(json.dumps([attack[0], result.exit_code]) + "\n")
