"""Every documented way to install ebsstats gets the locked versions, not whatever is newest."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _pins(name: str) -> dict[str, str]:
    """``{package: version}`` of the ``NAME==VERSION`` lines of a requirements file."""
    text = (ROOT / name).read_text(encoding="utf-8")
    return {m["name"].lower().replace("_", "-"): m["version"]
            for m in re.finditer(r"^(?P<name>[A-Za-z0-9_.\-]+)==(?P<version>\S+)", text, re.M)}


def _locked() -> dict[str, str]:
    return _pins("requirements-lock.txt")


def _assert_pinned_with_hashes(name: str) -> None:
    """Every requirement of the file is ``==`` a version, each with its sha256 hash."""
    text = (ROOT / name).read_text(encoding="utf-8")
    requirements = [ln for ln in text.splitlines() if ln and not ln[0].isspace()
                    and not ln.startswith("#")]
    assert requirements and all("==" in ln for ln in requirements)
    assert text.count("--hash=sha256:") >= len(requirements)


def test_the_pip_lock_pins_every_dependency_with_hashes():
    _assert_pinned_with_hashes("requirements-lock.txt")
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    locked = _locked()
    for spec in declared["project"]["dependencies"]:
        name = re.match(r"[A-Za-z0-9_.\-]+", spec).group(0).lower().replace("_", "-")
        assert name in locked, f"{name} is declared but not in requirements-lock.txt"
    assert (ROOT / "uv.lock").exists()


def test_the_conda_environment_installs_nothing_beside_the_lock():
    # conda solving the dependencies itself would give a fresh machine the newest versions:
    # environment.yml brings Python and pip only, the packages come from requirements-lock.txt
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    assert env["dependencies"] == ["python=3.11", "pip"]
    assert "requirements-lock.txt" in (ROOT / "environment.yml").read_text(encoding="utf-8")


def test_every_make_install_is_pinned():
    # a `pip install NAME` or `uv pip install "NAME>=x"` in the Makefile installs today's newest
    # release on a fresh machine: every install names an exact version or a hashed lock file
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    uv_version = re.search(r"^UV_VERSION := (\S+)$", make, re.M)
    assert uv_version and "install -q uv==$(UV_VERSION)" in make
    for line in make.splitlines():
        if re.search(r"\bpip (install|sync)\b", line):
            ok = ("uv==$(UV_VERSION)" in line or "--require-hashes" in line
                  or "--no-deps" in line or "-c requirements-lock.txt" in line)
            assert ok, f"an install that is not pinned: {line.strip()}"


def test_the_lowest_run_is_locked_with_hashes_and_uses_the_locked_test_tools():
    _assert_pinned_with_hashes("requirements-lowest.txt")
    lowest, locked, tools = _pins("requirements-lowest.txt"), _locked(), _pins(
        "requirements-lowest.in")
    assert set(tools) == {"pytest", "hypothesis", "pytest-xdist", "radon", "import-linter"}
    for name, version in tools.items():
        assert locked[name] == version == lowest[name], name
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for spec in declared["project"]["dependencies"]:  # each floor is what the run installs
        m = re.match(r"([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?>=([0-9][^,;\s]*)", spec)
        if m:
            name = m.group(1).lower().replace("_", "-")
            assert lowest[name].split("+")[0] == m.group(2) or lowest[name].startswith(
                m.group(2) + "."), (name, lowest[name], m.group(2))
