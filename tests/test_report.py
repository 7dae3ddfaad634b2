"""The report pipeline: papermill runs, HTML with figures, atomic output, failures named."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ebsstats.app.reports import ReportError, report
from tests.conftest import fixture


def _nb(path: Path, code: list[str], params: str = 'data = "x"\noutput = "."\n'):
    cells = [{"cell_type": "markdown", "metadata": {}, "source": "# Tiny page", "id": "c0"},
             {"cell_type": "code", "metadata": {"tags": ["parameters"]}, "source": params,
              "outputs": [], "execution_count": None, "id": "c1"}]
    cells += [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [],
               "execution_count": None, "id": f"c{i + 2}"} for i, c in enumerate(code)]
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "language": "python",
                                                      "display_name": "Python 3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))


@pytest.fixture
def fio_data(tmp_path):
    d = tmp_path / "data"
    d.mkdir()
    shutil.copy(fixture("fio", "small_json.json"), d / "small_json.json")
    return d


def test_failing_notebook_is_named_and_previous_report_kept(tmp_path, fio_data):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _nb(nbs / "00-ok.ipynb", ["print('fine')"])
    out = tmp_path / "rep"
    index = report(fio_data, out, notebooks=nbs)
    assert index.exists()
    before = index.read_text()
    _nb(nbs / "01-bad.ipynb", ["x = 1", "raise ValueError('boom')"])
    with pytest.raises(ReportError) as info:
        report(fio_data, out, notebooks=nbs)
    assert info.value.notebook == "01-bad.ipynb"
    assert info.value.cell == 4  # title, parameters, x = 1, then the failing cell
    assert "ValueError: boom" in str(info.value)
    assert index.read_text() == before  # previous report intact
    assert not list(tmp_path.glob(".rep.building.*"))


def test_parameters_are_values_not_code(tmp_path, fio_data):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    evil = 'a"b\'c\nimport os; os.remove("x")  # """'
    _nb(nbs / "00-p.ipynb", ["from pathlib import Path\n"
                             "Path(output, 'seen.txt').write_text(title)"],
        params='data = "x"\noutput = "."\ntitle = "t"\n')
    report(fio_data, tmp_path / "rep", notebooks=nbs, parameters={"title": evil,
                                                                  "unknown": 1})
    assert (tmp_path / "rep" / "seen.txt").read_text() == evil


def test_cli_report_exit_code_and_message(tmp_path, fio_data):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _nb(nbs / "00-bad.ipynb", ["1/0"])
    cmd = [sys.executable, "-m", "ebsstats.app.cli", "report", str(fio_data), "-o",
           str(tmp_path / "rep"), "--notebooks", str(nbs)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1
    assert "00-bad.ipynb, cell 3" in proc.stderr and "ZeroDivisionError" in proc.stderr
