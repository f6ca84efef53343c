"""``--measured`` files that are not what they should be: one line naming the file and what is wrong, exit 1, never
a traceback; odd text read in linear time. The good files are real profiles (tests/test_measured_parse.py); these
are hand-written edge cases of the three formats' shapes."""

from __future__ import annotations

import contextlib
import gzip
import json
import time
from pathlib import Path

import pytest

from irscope.parse.profiles import ProfileError, parse_profile, read_profile
from tests.conftest import invoke

KERNEL = {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_0", "ts": 10.0, "dur": 2.5,
          "args": {"grid": [4, 1, 1], "block": [128, 1, 1]}}


def _refused(text: str) -> str:
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "p.json")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("--measured p.json: ")
    return message


@pytest.mark.parametrize(("text", "says"), [
    ('{"traceEvents": [', "not valid JSON"),
    ('{"traceEvents": 5}', "traceEvents is int, not a list"),
    ('{"traceEvents": []}', "no GPU kernel events"),
    ('{"traceEvents": [{"cat": "cpu_op", "name": "aten::mm", "dur": 3}]}', "no GPU kernel events"),
    ('{"other": 1}', "neither a torch.profiler trace"),
    ("[" * 200_000, "nested too deeply"),
    ('[{"frame": 3}]', "a Proton node without a frame name"),
    ('[{"frame": {"name": "ROOT"}, "metrics": {}, "children": {"a": 1}}]', "children ('ROOT') is not a list"),
    ('[{"frame": {"name": "ROOT"}, "metrics": {}, "children": [7]}]', "a Proton node is int"),
    ('[{"frame": {"name": "ROOT"}, "metrics": {"count": 0, "time (ns)": 0}, "children": []}]', "no kernel"),
    ("plain words", "not a profile irscope reads"),
    ('"ID","Kernel Name","Metric Name","Metric Value"\n', "without a profiled launch"),
    ('"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n"0","k","sm__cycles","cycle","5"\n',
     "without gpu__time_duration.sum for any launch"),
    ('"Kernel Name"' + '"' * 300_000, "not CSV as ncu --csv writes it"),
])
def test_a_malformed_profile_is_one_line(text: str, says: str) -> None:
    assert says in _refused(text)


def test_fields_of_the_wrong_type_are_passed_over_and_counted() -> None:
    events = [KERNEL, {**KERNEL, "dur": "2"}, {**KERNEL, "name": 5}, {**KERNEL, "dur": -1.0}, {**KERNEL, "dur": True},
              {**KERNEL, "args": {"grid": ["4", 1, 1]}}, {**KERNEL, "args": "x"}, "not an event"]
    profile = parse_profile(json.dumps({"traceEvents": events}), "p.json")
    assert profile.notes == ("4 kernel event(s) without a name or a duration were passed over",)
    (kernel,) = profile.kernels
    assert (kernel.calls, kernel.total_us, kernel.grids) == (3, 7.5, ((4, 1, 1),))  # a grid not of ints is None
    proton = [{"frame": {"name": "ROOT"}, "metrics": {"count": 0, "time (ns)": 0}, "children": [
        {"frame": {"name": "k"}, "metrics": {"count": 2, "time (ns)": 3000}, "children": []},
        {"frame": {"name": "k2"}, "metrics": {"count": "2", "time (ns)": 3000}, "children": []},
        {"frame": {"name": "k3"}, "metrics": {"count": 1.5, "time (ns)": 3000}, "children": []}]}, {}]
    profile = parse_profile(json.dumps(proton), "p.hatchet")
    assert [(k.name, k.calls, k.total_us) for k in profile.kernels] == [("k", 2, 3.0)]
    assert profile.notes == ("2 Proton node(s) whose count or time (ns) is not a number were passed over",)


def test_ncu_units_scale_and_unknown_units_are_noted() -> None:
    head = '"ID","Kernel Name","Grid Size","Block Size","Metric Name","Metric Unit","Metric Value"\n'
    rows = ['"0","k","(8, 2, 1)","(128, 1, 1)","gpu__time_duration.sum","msecond","1.5"',
            '"0","k","(8, 2, 1)","(128, 1, 1)","dram__bytes_read.sum","Mbyte","1,024.5"',
            '"0","k","(8, 2, 1)","(128, 1, 1)","dram__bytes_write.sum","Kbyte","2"',
            '"1","k","(8, 2, 1)","(128, 1, 1)","gpu__time_duration.sum","furlong","3"']
    profile = parse_profile("==PROF== Connected\nprogram output\n" + head + "\n".join(rows) + "\n", "p.csv")
    (launch,) = profile.launches
    assert (launch.us, launch.dram_bytes, launch.grid, launch.block) == (1500.0, 1_024_502_000.0, (8, 2, 1),
                                                                        (128, 1, 1))
    assert profile.notes == ("values ncu printed that are not numbers in a known unit were passed over: "
                             "gpu__time_duration.sum '3' 'furlong'",
                             "1 launch(es) without gpu__time_duration.sum (or a kernel name) were passed over")


def test_files_that_are_not_regular_cut_short_or_bombs(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="not a regular file"):
        read_profile(tmp_path)
    with pytest.raises(ProfileError, match="cannot be read"):
        read_profile(tmp_path / "missing.json")
    link = tmp_path / "link.json"
    (tmp_path / "real.json").write_text(json.dumps({"traceEvents": [KERNEL]}))
    link.symlink_to(tmp_path / "real.json")
    with pytest.raises(ProfileError, match="not a regular file"):
        read_profile(link)
    whole = gzip.compress(json.dumps({"traceEvents": [KERNEL] * 50}).encode())
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(ProfileError, match="the gzip stream is cut short"):
        read_profile(cut)
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b" " * (8 * 1024**2)))  # 8 MB of spaces in 8 KB
    assert bomb.stat().st_size < 64 * 1024
    with pytest.raises(ProfileError, match=r"more than 1048576 bytes decompressed; not read"):
        read_profile(bomb, max_bytes=1024**2)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"traceEvents": "caf\xe9"}')
    with pytest.raises(ProfileError, match="not UTF-8 text"):
        read_profile(latin)
    good = tmp_path / "good.json.gz"
    good.write_bytes(whole)
    assert read_profile(good).kernels[0].calls == 50


@pytest.mark.parametrize("text", [
    '"ID","Kernel Name"\n' + '"0",' * 400_000,
    '"ID","Kernel Name","Grid Size","Metric Name","Metric Unit","Metric Value"\n' + '"0","k","(' + "1," * 200_000
    + '","gpu__time_duration.sum","ns","1"\n',
    '{"traceEvents": [' + ",".join([json.dumps(KERNEL)] * 20_000) + "]}",
])
def test_odd_text_is_read_in_linear_time(text: str) -> None:
    started = time.perf_counter()
    with contextlib.suppress(ProfileError):
        parse_profile(text, "p")
    assert time.perf_counter() - started < 10  # a few hundred ms on a loaded CI core; quadratic would be minutes


@pytest.mark.parametrize("command", [["report", "latest"], ["perf", "vector_add", "--target", "sm90"]])
def test_the_commands_refuse_a_bad_profile_in_one_line_before_modelling(command: list[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"traceEvents": [')
    for path, says in ((bad, "not valid JSON"), (tmp_path, "not a regular file")):
        result = invoke(*command, "--measured", str(path), store=tmp_path / "store")
        assert result.exit_code == 1, result.output
        (line,) = result.output.strip().splitlines()
        assert line.startswith(f"irscope: error: --measured {path}: ") and says in line


def test_tui_measured_needs_report() -> None:
    result = invoke("tui", "vector_add", "--measured", "x.json")
    assert result.exit_code == 2 and "--measured goes with --report" in result.output
