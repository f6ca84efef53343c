"""Installing the corpus's sources: pinned downloads into a wheel cache, then one folder per source."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

from sources import Source


def _pip(*args: str) -> None:
    cmd = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args]
    # mamba-ssm's setup.py builds CUDA code unless told not to, even to read its metadata
    env = dict(os.environ, MAMBA_SKIP_CUDA_BUILD="TRUE", CAUSAL_CONV1D_SKIP_CUDA_BUILD="TRUE")
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        tail = [ln for ln in (done.stderr or done.stdout).splitlines() if ln.strip() and "WARNING" not in ln][-3:]
        raise SystemExit(f"corpus: {' '.join(cmd[3:6])} ... failed: {' | '.join(tail)}")


def download(source: Source, wheels: Path, python_version: str | None) -> None:
    """``pip download`` the source's pins (no dependencies) into ``wheels``; sdists for unpack sources."""
    wheels.mkdir(parents=True, exist_ok=True)
    for req in source.unpack:
        _pip("download", "--no-deps", "--no-binary", ":all:", "--no-build-isolation", "-d", str(wheels), req)
    for req in source.requirements:
        if req.startswith("gemlite"):  # an sdist only, pure Python
            _pip("download", "--no-deps", "--no-binary", ":all:", "--no-build-isolation", "-d", str(wheels), req)
        elif python_version:
            _pip("download", "--no-deps", "--only-binary", ":all:", "--python-version", python_version,
                 "--platform", "manylinux_2_28_x86_64", "--platform", "manylinux2014_x86_64",
                 "--platform", "manylinux_2_17_x86_64", "--platform", "any", "-d", str(wheels), req)
        else:
            _pip("download", "--no-deps", "-d", str(wheels), req)


def _sdist(wheels: Path, req: str) -> Path:
    name, version = req.split("==")
    for stem in {name, name.replace("-", "_")}:
        path = wheels / f"{stem}-{version}.tar.gz"
        if path.is_file():
            return path
    raise SystemExit(f"corpus: no sdist of {req} in {wheels} (run install with the network once)")


def install(source: Source, wheels: Path, site: Path, src: Path, offline: bool) -> None:
    """Install ``source`` into ``site/NAME`` (``pip --no-deps --target``) or unpack its sdist into ``src/NAME``."""
    dest = src / source.name
    if source.unpack and not dest.is_dir():
        for req in source.unpack:
            with tarfile.open(_sdist(wheels, req)) as tar:
                tar.extractall(dest, filter="data")
    target = site / source.name
    if target.is_dir() and any(target.iterdir()):
        return
    index = ["--no-index", "--find-links", str(wheels)] if offline else ["--find-links", str(wheels)]
    reqs = list(source.requirements)
    if reqs:
        _pip("install", "--no-deps", "--no-build-isolation", "--no-compile", *index, "--target", str(target),
             *reqs)


def source_dir(source: Source, src: Path) -> Path | None:
    """The unpacked sdist's top folder for an unpack source, else None."""
    if not source.unpack:
        return None
    tops = sorted(p for p in (src / source.name).glob("*") if p.is_dir())
    return tops[0] if tops else None
