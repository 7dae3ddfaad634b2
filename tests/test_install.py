"""Every documented way to install ebsstats gets the locked versions, not whatever is newest."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _locked() -> dict[str, str]:
    text = (ROOT / "requirements-lock.txt").read_text(encoding="utf-8")
    return {m["name"].lower().replace("_", "-"): m["version"]
            for m in re.finditer(r"^(?P<name>[A-Za-z0-9_.\-]+)==(?P<version>\S+)", text, re.M)}


def test_the_pip_lock_pins_every_dependency_with_hashes():
    text = (ROOT / "requirements-lock.txt").read_text(encoding="utf-8")
    requirements = [ln for ln in text.splitlines() if ln and not ln[0].isspace()
                    and not ln.startswith("#")]
    assert requirements and all("==" in ln for ln in requirements)
    assert text.count("--hash=sha256:") >= len(requirements)
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
