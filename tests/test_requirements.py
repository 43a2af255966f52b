"""The lock files: every direct dependency of requirements/*.in is locked at its pinned
version, and every locked package carries a hash (what `pip install --require-hashes`
needs). A .in file changed without `make lock` fails here, not in a deployment."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REQUIREMENTS = Path(__file__).resolve().parent.parent / "requirements"
PIN = re.compile(r"^([A-Za-z0-9_.-]+)(\[[^\]]*\])?==([^\s;#]+)")


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        match = PIN.match(line.strip())
        if match:
            found[normalised(match.group(1))] = match.group(3)
    return found


def locked(path: Path) -> dict[str, list[str]]:
    """Each locked package with its hashes."""
    packages: dict[str, list[str]] = {}
    current = None
    for line in path.read_text().splitlines():
        match = PIN.match(line)
        if match:
            current = f"{normalised(match.group(1))}=={match.group(3)}"
            packages[current] = []
        if current and "--hash=sha256:" in line:
            packages[current].append(line.split("--hash=sha256:")[1].split()[0])
    return packages


@pytest.mark.parametrize("name", ["base", "test"])
def test_every_direct_dependency_is_locked_at_its_version(name):
    lock = locked(REQUIREMENTS / f"{name}.lock")
    direct = pins(REQUIREMENTS / f"{name}.in")
    if name == "test":
        direct |= pins(REQUIREMENTS / "base.in")
    missing = [f"{p}=={v}" for p, v in direct.items() if f"{p}=={v}" not in lock]
    assert not missing, f"run `make lock`: {name}.lock lacks {missing}"


@pytest.mark.parametrize("name", ["base", "test"])
def test_every_locked_package_has_a_hash(name):
    lock = locked(REQUIREMENTS / f"{name}.lock")
    assert len(lock) > 50
    assert [package for package, hashes in lock.items() if not hashes] == []


def test_the_test_lock_keeps_the_runtime_versions():
    base, test = locked(REQUIREMENTS / "base.lock"), locked(REQUIREMENTS / "test.lock")
    assert set(base) <= set(test)
