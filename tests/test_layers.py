"""Architecture checks run by the suite: the import-linter layer contracts of pyproject.toml and
the cyclomatic-complexity limit of tools/complexity.py (each also shown to fail on a violation)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
sys.path.insert(0, str(ROOT / "tools"))
import complexity  # noqa: E402


def _lint_imports(*args: str, cwd: Path = ROOT, env=None) -> subprocess.CompletedProcess:
    if not LINT_IMPORTS.exists():
        pytest.skip("lint-imports is not installed (dev dependency group)")
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


def test_the_package_keeps_every_import_contract():
    res = _lint_imports()
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Contracts: 5 kept, 0 broken." in res.stdout


def test_the_contracts_catch_statistics_importing_a_reader(tmp_path):
    pkg = tmp_path / "ebsstats"
    for sub in ("app", "plots", "stats", "io", "simulate"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    for core in ("pricing", "schema", "atomic", "units", "errors", "_docs", "_lazy"):
        (pkg / f"{core}.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "stats" / "costs.py").write_text("import ebsstats.io.folder\n")
    (pkg / "io" / "folder.py").write_text("from ebsstats import schema\n")
    (pkg / "simulate" / "cli.py").write_text("import ebsstats.plots\n")
    (pkg / "schema.py").write_text("import ebsstats.pricing\n")
    config = tmp_path / "pyproject.toml"
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    config.write_text(text[text.index("[tool.importlinter]"):], encoding="utf-8")
    env = {"PYTHONPATH": str(tmp_path), "PATH": ""}
    res = _lint_imports("--config", str(config), cwd=tmp_path, env=env)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "ebsstats.stats.costs -> ebsstats.io.folder" in res.stdout
    assert "ebsstats.simulate.cli -> ebsstats.plots" in res.stdout
    assert "ebsstats.schema -> ebsstats.pricing" in res.stdout
    assert "Contracts: 2 kept, 3 broken." in res.stdout


TOO_COMPLEX = "def f(x):\n" + "".join(
    f"    if x == {i}:\n        return {i}\n" for i in range(26)) + "    return -1\n"


def test_complexity_check_fails_on_a_synthetic_too_complex_function(tmp_path, capsys):
    src = tmp_path / "bad.py"
    src.write_text(TOO_COMPLEX + textwrap.dedent("""
        class K:
            def fine(self, y):
                return y or 1
        """))
    assert dict(complexity.complexities([src]))[f"{src.as_posix()}:f"] == 27
    assert dict(complexity.complexities([src]))[f"{src.as_posix()}:K.fine"] == 2
    assert complexity.main([str(src)]) == 1
    assert "bad.py:f: cyclomatic complexity 27 > 25" in capsys.readouterr().out
    assert complexity.main([str(src), "--max", "27"]) == 0


def test_a_pending_function_may_not_grow(tmp_path):
    src = tmp_path / "bad.py"
    src.write_text(TOO_COMPLEX)
    name = f"{src.as_posix()}:f"
    assert complexity.offenders([src], pending={name: 27}) == []
    assert complexity.offenders([src], pending={name: 26}) == [(name, 27)]


def test_stats_app_and_io_are_within_the_limit():
    assert {"ebsstats/stats", "ebsstats/app", "ebsstats/io"} <= set(complexity.DEFAULT_PATHS)
    assert complexity.offenders([ROOT / p for p in complexity.DEFAULT_PATHS]) == []


def test_the_text_readers_need_no_pending_entry():
    # bonnie++, sysbench, PTS and ioping were split below the limit: none may come back
    readers = ("bonnie", "sysbench", "pts", "ioping")
    assert not [n for n in complexity.PENDING if n.split(":")[0].rsplit("/", 1)[-1][:-3]
                in readers]
    assert complexity.offenders([ROOT / "ebsstats" / "io" / f"{r}.py" for r in readers],
                                pending={}) == []
