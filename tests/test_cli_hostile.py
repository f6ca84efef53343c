"""Every command x each of its options, given bad values: a non-zero status and one clean line, never a traceback.

The cases are generated from the commands' own click parameters, so a new option gets the bad
values of its kind without anyone writing a case. Nearly all are refused before anything compiles;
the few that reach a capture read vector_add on sm90 from the session store (compiled once).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from irscope.cli import COMMANDS, cli
from irscope.request.passdump import get_pass_dump

LONG = "k" * 5000
BASE_KERNEL = ["vector_add", "--target", "sm90"]


@dataclass(frozen=True)
class Case:
    """One command line expected to be refused.

    Attributes:
        args: the arguments after ``irscope``.
        why: what is bad in it.
    """

    args: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class Files:
    """Hostile files and folders made once per session."""

    store: Path
    plain_file: Path
    folder: Path
    not_utf8_ttgir: Path
    not_utf8_kernel: Path
    not_utf8_name: str  # a path that is not UTF-8 and does not exist
    missing_dir_file: str
    kernel_file: Path


@pytest.fixture(scope="session")
def files(tmp_path_factory: pytest.TempPathFactory, shared_store: Path, captures: object) -> Files:
    """The session store (vector_add on sm90 captured) and a few hostile files beside it."""
    capture = captures("vector_add", "sm90")  # type: ignore[operator]
    get_pass_dump(captures.request("vector_add", "sm90"), capture)  # type: ignore[attr-defined]
    root = tmp_path_factory.mktemp("hostile")
    plain = root / "plain.txt"
    plain.write_text("not a directory\n")
    folder = root / "folder"
    folder.mkdir()
    ttgir = root / "latin1.ttgir"
    ttgir.write_bytes(b"#blocked = #ttg.blocked<{sizePerThread = [1]}> // caf\xe9\n")
    kernel = root / "latin1_kernel.py"
    kernel.write_bytes(b"import triton\n# caf\xe9\n@triton.jit\ndef k(x):\n    pass\n")
    good = root / "good_kernel.py"
    good.write_text("import triton\n\n\n@triton.jit\ndef add(x, n):\n    pass\n")
    return Files(store=shared_store, plain_file=plain, folder=folder, not_utf8_ttgir=ttgir, not_utf8_kernel=kernel,
                 not_utf8_name=os.fsdecode(os.fsencode(root) + b"/missing-caf\xe9.ttgir"),
                 missing_dir_file=str(root / "no-such-dir" / "out.svg"), kernel_file=good)


def _bad_values(option: str, f: Files) -> list[tuple[str, str]]:
    """(value, why) pairs for an option, by the option's name."""
    path_values = [("", "empty"), (str(f.folder), "a directory as file"), (f.missing_dir_file, "missing folder"),
                   ("/proc/irscope-no-such/out.svg", "a /proc path"), (f"/tmp/{LONG}.svg", "a 5000-char name")]
    table: dict[str, list[tuple[str, str]]] = {
        "--target": [("", "empty"), ("  ", "blank"), ("bogus", "unknown"), ("SM90", "wrong case"),
                     (LONG, "5000 chars")],
        "--vs-target": [("", "empty"), ("bogus", "unknown"), (LONG, "5000 chars")],
        "--config": [("-1", "negative"), ("x", "not a number"), ("99999999999999999999", "huge")],
        "--vs-config": [("-1", "negative"), ("x", "not a number"), ("99999999999999999999", "huge")],
        "--stage": [("", "empty"), ("bogus", "unknown"), (LONG, "5000 chars")],
        "--triton": [("", "empty"), ("3.7.0", "not installed"), ("3.4", "too old"), ("/nonexistent/python", "missing")],
        "--store": [("", "empty"), (str(f.plain_file), "a file"), ("/proc/self/status", "a /proc file"),
                    (f"/tmp/{LONG}", "a 5000-char name")],
        "--signature": [("", "empty"), ("*foo:16, i32", "unknown dtype"), ("*fp16:7", "bad hint"),
                        (",,", "empty entries")],
        "--args": [("", "empty"), ("x=zz[4]", "unknown dtype"), ("x=fp16[4", "unclosed")],
        "--constexpr": [("", "empty"), ("=1", "no name"), ("BLOCK", "no value"), ("B=fp16[4]", "a tensor")],
        "--num-warps": [("0", "zero"), ("3", "not a power of two"), ("-4", "negative"), ("64", "too many"),
                        ("1099511627776", "huge"), ("x", "not a number")],
        "--num-stages": [("-1", "negative"), ("x", "not a number")],
        "--context": [("-5", "negative"), ("x", "not a number"), ("10000000000", "huge")],
        "--from": [("", "empty"), ("no-such-pass", "unknown")],
        "--to": [("", "empty")],
        "--pass": [("", "empty"), ("no-such-pass", "unknown")],
        "--line": [("0", "zero"), ("-3", "negative"), ("x", "not a number")],
        "--limit": [("-1", "negative")],
        "--repeat": [("0", "zero"), ("100", "too many")],
        "--runs": [("0", "zero"), ("-2", "negative")],
        "--sizes": [("", "empty"), ("axb", "not numbers")],
        "--device": [("bogus", "unknown")],
        "--seed": [("x", "not a number")],
        "--file": [("", "empty"), ("/nonexistent/k.ttgir", "missing"), (str(f.folder), "a directory"),
                   (str(f.not_utf8_ttgir), "a non-UTF-8 file"), (f.not_utf8_name, "a non-UTF-8 path"),
                   (f"/tmp/{LONG}.ttgir", "a 5000-char name")],
        "--module": [("0", "zero"), ("-1", "negative")],
        "--map": [("", "empty"), ("no_such_layout", "unknown"), (LONG, "5000 chars")],
        "--shape": [("", "empty"), ("0x4", "zero dim"), ("3x4", "not powers of two"), ("axb", "not numbers"),
                    ("16384x16384", "beyond the element bound"), ("-4", "negative"), (LONG, "5000 chars")],
        "--view": [("bogus", "unknown")],
        "--gpu": [("", "empty"), ("bogus", "unknown"), ("mi300x", "another target's GPU"), (LONG, "5000 chars")],
        "--size": [("", "empty"), ("axb", "not numbers"), ("0", "zero"), ("n_elements=-1", "negative"),
                   ("Q=4", "unknown size"), ("4x4", "too many sizes")],
        "--grid": [("", "empty"), ("0", "zero"), ("x", "not a number"), ("1,2,3,4", "four axes"), ("-1", "negative")],
        "--warp": [("-1", "negative"), ("999", "beyond the layout's warps")],
        "--max-elements": [("0", "zero"), ("-1", "negative")],
        "--image": path_values,
        "--out": path_values,
        "--output": path_values,
        "--plot": path_values,
        "--replace": [("", "empty"), ("../x", "not a key"), (LONG, "5000 chars")],
        "--max-bytes": [("0", "zero"), ("-1", "negative"), ("x", "not a number")],
        "--max-members": [("0", "zero"), ("-1", "negative")],
        "--max-ratio": [("0", "zero"), ("-5", "negative")],
    }
    return table.get(option, [])


# Base command lines: valid except for what a case changes (the store comes from IRSCOPE_HOME).
def _bases(f: Files) -> dict[str, list[str]]:
    return {
        "show": BASE_KERNEL, "passes": BASE_KERNEL, "loops": BASE_KERNEL, "resources": BASE_KERNEL,
        "timing": BASE_KERNEL, "annotate": BASE_KERNEL, "graph": BASE_KERNEL, "verify": BASE_KERNEL,
        "layouts": [*BASE_KERNEL, "--map", "blocked"], "map": [*BASE_KERNEL, "--line", "31"],
        "diff": [*BASE_KERNEL, "--from", "ttir", "--to", "ttgir"], "list": [], "tui": ["vector_add"],
        "export": ["vector_add", "--output", str(f.folder / "out.tar.gz")], "open": [str(f.folder / "none.tar.gz")],
        "trust": ["no_such_key"], "bench": ["vector_add"], "run": ["vector_add"],
        "capture": ["--target", "sm90", "--", "true"],
        "compare": [*BASE_KERNEL, "--vs-config", "1"], "facts": [*BASE_KERNEL, "-o", str(f.folder / "facts.json")],
        "check": [str(f.folder / "no-facts.json")], "repro": [*BASE_KERNEL, "-o", str(f.folder / "repro.py")],
        "triton": ["list"], "perf": BASE_KERNEL, "html": [*BASE_KERNEL, "-o", str(f.folder / "page.html")],
        "report": ["latest"],
    }


_LAUNCH_OPTIONS = ("--signature", "--args", "--constexpr", "--num-warps", "--num-stages")



def _with_option(base: list[str], option: str, value: str) -> list[str]:
    """``base`` with ``option`` set to ``value`` (replacing it when present), before any ``--``."""
    args = list(base)
    if option in args:
        i = args.index(option)
        del args[i:i + 2]
    cut = args.index("--") if "--" in args else len(args)
    return [*args[:cut], option, value, *args[cut:]]


def _positional_cases(name: str, f: Files) -> Iterator[Case]:
    """Bad KERNEL / ARCHIVE arguments."""
    if name in ("list", "capture", "export"):
        return
    rest = _bases(f)[name][1:]
    if name in ("open", "trust"):
        values = [("", "empty"), (str(f.folder), "a directory"), ("/nonexistent/a.tar.gz", "missing"),
                  (str(f.plain_file), "not an archive"), (str(f.not_utf8_ttgir), "not an archive, not UTF-8"),
                  (f.not_utf8_name, "a non-UTF-8 name"), (f"/tmp/{LONG}.tar.gz", "a 5000-char name")]
    else:
        values = [("", "empty"), ("   ", "blank"), (LONG, "a 5000-char name"), (f"{LONG}.py", "a 5000-char file"),
                  ("no_such_kernel", "unknown"), ("/nonexistent/k.py", "missing file"),
                  (str(f.not_utf8_kernel), "a non-UTF-8 kernel module"), (str(f.folder) + "/", "a directory"),
                  (f"{f.not_utf8_kernel}:k", "a non-UTF-8 FILE:FUNCTION")]
    for value, why in values:
        extra = ["--args", "1"] if value.endswith(":k") else []
        yield Case((name, value, *rest, *extra), f"{name} KERNEL {why}")


def hostile_cases(f: Files) -> list[Case]:
    """Every command x each option with bad values, plus bad positional arguments."""
    cases: list[Case] = []
    ctx = click.Context(cli)
    for name in sorted(COMMANDS):
        command = cli.get_command(ctx, name)
        assert command is not None
        for param in command.params:
            base = _bases(f)[name]
            if not isinstance(param, click.Option) or param.is_flag:
                continue
            option = max(param.opts, key=len)
            for value, why in _bad_values(option, f):
                if option in _LAUNCH_OPTIONS:  # described for a FILE:FUNCTION kernel, valid but for this option
                    launch = [] if option in ("--signature", "--args") else ["--signature", "*fp16:16, i32"]
                    base = [f"{f.kernel_file}:add", *_bases(f)[name][1:], *launch]
                args = _with_option(base, option, value)
                cases.append(Case((name, *args), f"{name} {option} {why}"))
        cases.extend(_positional_cases(name, f))
    # The store unusable for writing: refused before a compile starts.
    for name in ("show", "layouts", "passes", "loops", "resources"):
        cases.append(Case((name, "softmax", "--target", "gfx950", "--store", "/proc/irscope-no-such/store"),
                          f"{name} --store under /proc"))
    return cases


def _clean(result: object) -> str | None:
    """None when the result is a refusal in one clean line; else what is wrong with it."""
    code = result.exit_code  # type: ignore[attr-defined]
    out, err = result.stdout, result.stderr  # type: ignore[attr-defined]
    escaped = result.exception  # type: ignore[attr-defined]
    if escaped is not None and not isinstance(escaped, SystemExit):
        return f"a traceback ({type(escaped).__name__}: {str(escaped)[:100]})"
    if code == 0:
        return "exit status 0"
    if "Traceback" in out + err:
        return "a traceback"
    lines = err.strip().splitlines()
    if not lines:
        return f"exit status {code} and nothing on stderr"
    if lines[0].startswith("Usage: ") or lines[-1].startswith("Error: "):
        return f"click's usage form ({len(lines)} lines, status {code}), not one line"
    if len(lines) != 1:
        return f"{len(lines)} lines on stderr"
    if not lines[0].startswith("irscope: error: "):
        return f"not an 'irscope: error:' line: {lines[0][:120]}"
    if code not in (1, 2):
        return f"exit status {code}"
    return None


@pytest.mark.compile
def test_every_bad_command_line_is_one_clean_line(files: Files, monkeypatch: pytest.MonkeyPatch) -> None:
    """At least 200 bad command lines: each exits non-zero with one line, no traceback."""
    monkeypatch.setenv("IRSCOPE_HOME", str(files.store))
    cases = hostile_cases(files)
    runner = CliRunner()
    failures = []
    for case in cases:
        result = runner.invoke(cli, list(case.args))
        problem = _clean(result)
        if problem is not None:
            shown = " ".join(a if len(a) < 60 else a[:30] + "..." for a in case.args)
            failures.append(f"{case.why}: {problem}\n    irscope {shown}\n    {result.stderr.strip()[:300]}")
    print(f"bad CLI inputs tried: {len(cases)}; one clean line: {len(cases) - len(failures)}")
    assert len(cases) >= 200
    assert not failures, f"{len(failures)} of {len(cases)} bad command lines were not refused cleanly:\n" + \
        "\n".join(failures)
