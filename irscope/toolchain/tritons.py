"""Several Tritons side by side: environments under the store, and which one compiles.

``irscope triton install 3.5.1`` makes a virtual environment with that Triton under
``<store>/tritons/3.5.1``; the global ``--triton VERSION`` (or ``--triton /path/to/python``, or
``$IRSCOPE_TRITON``) then makes every compiling command compile there, through a worker process
(irscope.compile.remote). The Triton of the interpreter running irscope stays the default.
Nothing here imports Triton: the version of an interpreter's Triton is read by running it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from irscope.errors import UsageError

# The oldest Triton irscope supports (its spellings, metadata and dump formats are tested from here on).
MIN_VERSION = (3, 5)
# Example: "3.5.1", "3.6.0", "3.5", "3.6.0rc1", "3.5.1.post2"
_VERSION_RE = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?(?:(?:a|b|rc)\d+)?(?:\.post\d+)?$")
ENV_VAR = "IRSCOPE_TRITON"
_MARKER = "irscope-env.json"


@dataclass(frozen=True)
class TritonEnv:
    """One Triton irscope can compile with.

    Attributes:
        version: the Triton version (``3.5.1``).
        python: the interpreter that imports it.
        kind: ``current`` (the interpreter running irscope), ``managed`` (made by ``irscope triton
            install``) or ``interpreter`` (given as ``--triton /path/to/python``).
        root: the environment directory of a managed Triton.
    """

    version: str
    python: Path
    kind: str
    root: Path | None = None

    @property
    def foreign(self) -> bool:
        """Whether compiling with it needs a worker process (another interpreter)."""
        return self.kind != "current"

    def describe(self) -> str:
        """``Triton 3.5.1 (/path/to/python)``."""
        return f"Triton {self.version} ({self.python})"


def check_version(text: str) -> tuple[int, ...]:
    """The numeric parts of a version irscope supports; UsageError otherwise."""
    match = _VERSION_RE.match(text.strip())
    if match is None:
        raise UsageError(f"{text!r} is not a Triton version; give one like 3.5.1 or 3.6.0")
    parts = tuple(int(p) for p in match.groups() if p is not None)
    if parts[:2] < MIN_VERSION:
        raise UsageError(f"Triton {text} is older than irscope supports; give {MIN_VERSION[0]}.{MIN_VERSION[1]} "
                         "or newer")
    return parts


def envs_root(store: Path) -> Path:
    """Where managed environments live: ``<store>/tritons``."""
    return store / "tritons"


def env_python(root: Path) -> Path:
    """The interpreter of a virtual environment."""
    return root / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


# Example: __version__ = '3.9.0'
_INIT_VERSION_RE = re.compile(r"""^__version__\s*=\s*["']([^"']+)["']""", re.M)


@functools.cache
def local_triton_version() -> str:
    """Installed Triton's version, read from its __init__.py without importing it (metadata as fallback).

    Read once per process: every capture key needs it, and the TUI computes keys for whole trees.
    """
    import importlib.util

    spec = importlib.util.find_spec("triton")
    if spec is None or spec.origin is None:
        raise UsageError("Triton is not installed; install it with 'pip install triton'")
    try:
        match = _INIT_VERSION_RE.search(Path(spec.origin).read_text(encoding="utf-8"))
    except OSError:
        match = None
    if match:
        return match.group(1)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("triton")
    except PackageNotFoundError:
        raise UsageError("Triton is not installed; install it with 'pip install triton'") from None


def triton_version() -> str:
    """The version of the Triton that compiles in this process: ``--triton``'s choice, else the installed one."""
    chosen = selected()
    return chosen.version if chosen is not None else local_triton_version()


def current() -> TritonEnv:
    """The Triton of the interpreter running irscope."""
    return TritonEnv(version=local_triton_version(), python=Path(sys.executable), kind="current")


# Reads the version as local_triton_version does (the __init__'s __version__ first), so
# the key a worker computes for its captures equals the one computed here.
_PROBE = """
import importlib.metadata as m, importlib.util as u, json, re, sys
v = ''
spec = u.find_spec('triton')
if spec is not None and spec.origin:
    found = re.search(r'^__version__\\s*=\\s*["\\']([^"\\']+)["\\']', open(spec.origin, encoding='utf-8').read(), re.M)
    if found:
        v = found.group(1)
    else:
        try:
            v = m.version('triton')
        except m.PackageNotFoundError:
            pass
print(json.dumps({'triton': v, 'python': list(sys.version_info[:2]), 'prefix': sys.prefix}))
"""


def probe(python: Path) -> tuple[str, str]:
    """The Triton version ``python`` imports ('' when it has none) and its sys.prefix; UsageError when it does not
    run."""
    import subprocess  # here, not at the top: a warm show reads the current Triton's version without a process

    try:
        proc = subprocess.run([str(python), "-c", _PROBE], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UsageError(f"cannot run {python}: {exc}") from None
    try:
        answer = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise UsageError(f"{python} is not a Python interpreter irscope can use (it printed: "
                         f"{(proc.stderr or proc.stdout).strip()[:200]!r})") from None
    if tuple(answer["python"]) < (3, 10):
        raise UsageError(f"{python} is Python {'.'.join(map(str, answer['python']))}; irscope's worker needs 3.10+")
    return str(answer["triton"]), str(answer["prefix"])


def installed(store: Path) -> list[TritonEnv]:
    """The managed environments, oldest version first (half-made ones are not listed)."""
    root = envs_root(store)
    found: list[TritonEnv] = []
    if not root.is_dir():
        return found
    for child in root.iterdir():
        marker = child / _MARKER
        if child.name.startswith(".") or not marker.is_file():
            continue
        try:
            version = str(json.loads(marker.read_text(encoding="utf-8"))["triton"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        found.append(TritonEnv(version=version, python=env_python(child), kind="managed", root=child))
    return sorted(found, key=lambda e: _sort_key(e.version))


def _sort_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version))


def resolve(spec: str, store: Path) -> TritonEnv:
    """What ``--triton SPEC`` names: ``current``, a version, or a path to a Python interpreter."""
    text = spec.strip()
    if not text:
        raise UsageError("--triton is empty; give a version (irscope triton list), a path to a Python "
                         "interpreter, or leave it out for this interpreter's Triton")
    here = current()
    if text == "current":
        return here
    if os.sep in text or text.startswith(".") or Path(text).is_file():
        python = Path(text).expanduser()
        if not python.exists():
            raise UsageError(f"--triton {text}: no such file; give a version or a Python interpreter")
        version, prefix = probe(python)
        if not version:
            raise UsageError(f"--triton {text}: that interpreter has no Triton (pip install triton there)")
        check_version(version)
        # A venv's python is a link to its base interpreter: the prefix, not the file, tells them apart.
        same = Path(prefix).resolve() == Path(sys.prefix).resolve()
        return here if same else TritonEnv(version=version, python=python.absolute(), kind="interpreter")
    check_version(text)
    if text == here.version:
        return here
    envs = installed(store)
    for env in envs:
        if env.version == text:
            return env
    have = ", ".join([f"{here.version} (current)"] + [e.version for e in envs])
    raise UsageError(f"Triton {text} is not installed for irscope (have: {have}); install it with: "
                     f"irscope triton install {text}")


# The Triton chosen for this process (None: the current interpreter's); resolved lazily from
# $IRSCOPE_TRITON, which ``select`` also sets so that child processes (TUI jobs) compile with it too.
_SELECTED: TritonEnv | None = None
_RESOLVED = False


def select(env: TritonEnv | None) -> None:
    """Make ``env`` the Triton that compiles in this process and its children (None: the current one)."""
    global _SELECTED, _RESOLVED
    _SELECTED = env if env is not None and env.foreign else None
    _RESOLVED = True
    if _SELECTED is not None:
        os.environ[ENV_VAR] = str(_SELECTED.python)
    else:
        os.environ.pop(ENV_VAR, None)


@contextlib.contextmanager
def using(env: TritonEnv | None) -> Iterator[None]:
    """Compile with ``env`` inside the block (None: keep the current choice), then restore the choice."""
    if env is None:
        yield
        return
    before, spec = selected(), os.environ.get(ENV_VAR)
    select(env)
    try:
        yield
    finally:
        select(before)
        if spec is not None and before is None:
            os.environ[ENV_VAR] = spec


def reset() -> None:
    """Forget the choice (tests): the next ``selected`` reads $IRSCOPE_TRITON again."""
    global _SELECTED, _RESOLVED
    _SELECTED, _RESOLVED = None, False


def selected() -> TritonEnv | None:
    """The foreign Triton chosen with ``--triton`` (or $IRSCOPE_TRITON), or None for the current interpreter's."""
    global _RESOLVED
    if not _RESOLVED:
        spec = os.environ.get(ENV_VAR, "").strip()
        if spec:
            from irscope.model.paths import store_root

            try:
                select(resolve(spec, store_root(None)))
            except UsageError as exc:
                raise UsageError(f"${ENV_VAR}={spec}: {exc}") from None
        _RESOLVED = True
    return _SELECTED


def worker_command(module: str, *args: str, env: TritonEnv | None = None) -> list[str]:
    """The command that runs ``python -m module args`` with ``env``'s interpreter (default: the selected Triton's).

    irscope's own package directory (and filelock's, which the store needs) go at the end of the
    worker's ``sys.path``, so its environment's Triton is the one imported, never ours.
    """
    import filelock

    env = env if env is not None else selected()
    python = str(env.python) if env is not None and env.foreign else sys.executable
    extra = [str(irscope_root()), str(Path(filelock.__file__).resolve().parents[1])]
    boot = (f"import sys, runpy; sys.path += [p for p in {extra!r} if p not in sys.path]; "
            f"sys.argv[0] = {module!r}; runpy.run_module({module!r}, run_name='__main__', alter_sys=True)")
    return [python, "-c", boot, *args]


def irscope_root() -> Path:
    """The directory that holds the ``irscope`` package this process runs (for a worker's ``sys.path``)."""
    return Path(__file__).resolve().parents[2]


def install(version: str, store: Path, echo: object = None) -> TritonEnv:
    """Make ``<store>/tritons/VERSION`` with that Triton (uv when on PATH, else venv + pip).

    Built under a hidden name and renamed when complete, so an interrupted install leaves nothing
    that ``list`` or ``--triton`` would take for an environment.
    """
    check_version(version)
    for env in installed(store):
        if env.version == version:
            return env
    root = envs_root(store)
    root.mkdir(parents=True, exist_ok=True)
    final = root / version
    partial = root / f".partial-{version}-{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    say = echo if callable(echo) else (lambda _text: None)
    uv = shutil.which("uv")
    try:
        if uv:
            say(f"creating the environment with uv ({uv})")
            _run([uv, "venv", "--quiet", "--python", sys.executable, str(partial)])
            say(f"installing triton=={version} (uv's cache is reused)")
            _run([uv, "pip", "install", "--python", str(env_python(partial)), f"triton=={version}", "filelock"])
        else:
            say("creating the environment (python -m venv)")
            _run([sys.executable, "-m", "venv", str(partial)])
            say(f"installing triton=={version} with pip (pip's wheel cache is reused)")
            _run([str(env_python(partial)), "-m", "pip", "install", "--disable-pip-version-check",
                  "--progress-bar", "on", f"triton=={version}", "filelock"])
        got = probe(env_python(partial))[0]
        if got != version and not got.startswith(version + "."):
            raise UsageError(f"the environment has Triton {got or 'none'}, not {version}")
        (partial / _MARKER).write_text(json.dumps({"triton": got}) + "\n", encoding="utf-8")
        if final.exists():
            shutil.rmtree(final)
        partial.rename(final)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return TritonEnv(version=got, python=env_python(final), kind="managed", root=final)


def _run(command: list[str]) -> None:
    """Run an installer step with its messages (and progress bars) on our stderr; UsageError when it fails."""
    import subprocess

    sys.stderr.flush()
    proc = subprocess.run(command, stdout=sys.stderr.fileno() if hasattr(sys.stderr, "fileno") else None)
    if proc.returncode != 0:
        raise UsageError(f"{Path(command[0]).name} failed (exit status {proc.returncode}); its messages are above")


def remove(version: str, store: Path) -> Path:
    """Delete a managed environment; return where it was."""
    check_version(version)
    for env in installed(store):
        if env.version == version and env.root is not None:
            shutil.rmtree(env.root)
            return env.root
    have = ", ".join(e.version for e in installed(store)) or "none"
    raise UsageError(f"Triton {version} is not installed for irscope (installed: {have})")
