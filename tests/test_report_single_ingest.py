"""A report parses its data once and checks its notebooks itself.

Before, ``ebsstats report DATA`` parsed the campaign twice (``ebsstats.check`` for its notes,
then the report's own read), the notes ("no benchmark results", the ``--pattern`` ones) were the
command line's alone, and the ``--notebooks``/``--only`` checks too: a Python caller of
``report()`` got "no notebooks to run", or a report without the page it named."""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import pytest

from ebsstats.app import reports
from ebsstats.app.reports import ReportError, report
from ebsstats.io import folder
from tests.conftest import ROOT, run_cli, tree_digest

FIO = ROOT / "data" / "samples" / "fio"
PARTLY = "gp2/randread_4k_rep{repetition}.json"  # (matches the file in gp2/ only)
FILES = ["gp2/randread_4k_rep0.json", "io2/randread_4k_rep1.json"]


def _notebook(path: Path) -> None:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": "# Tiny", "id": "c0"},
             {"cell_type": "code", "metadata": {"tags": ["parameters"]}, "id": "c1",
              "source": 'data = "x"\noutput = "."\n', "outputs": [], "execution_count": None}]
    path.write_text(json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5,
                                "metadata": {}}))


@pytest.fixture
def campaign(tmp_path) -> tuple[Path, Path]:
    """Two fio runs (``gp2/`` and ``io2/``) and a folder of two notebooks."""
    d = tmp_path / "runs"
    for rel in FILES:
        (d / rel).parent.mkdir(parents=True)
        shutil.copy(FIO / Path(rel).name, d / rel)
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _notebook(nbs / "00-ok.ipynb")
    _notebook(nbs / "01-more.ipynb")
    return d, nbs


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """Every file parsed (``folder._read_path``); the notebooks are not run (a stub page)."""
    seen: list[str] = []
    real = folder._read_path

    def counted(path, rel, *args, **kwargs):
        seen.append(rel)
        return real(path, rel, *args, **kwargs)

    def page(pm, book, tmp, use, *args):
        (tmp / book.with_suffix(".html").name).write_text("<p>page</p>")

    monkeypatch.setattr(folder, "_read_path", counted)
    monkeypatch.setattr(reports, "_run_one", page)
    return seen


def test_the_report_command_parses_each_file_once_and_says_the_pattern_note(
        campaign, parses, tmp_path):
    data, nbs = campaign
    proc = run_cli("report", str(data), "-o", str(tmp_path / "rep"), "--notebooks", str(nbs),
                   "--pattern", PARTLY)
    assert proc.returncode == 0, proc.stderr
    assert sorted(parses) == FILES  # (before: each twice, ebsstats.check then the report)
    notes = [ln for ln in proc.stderr.splitlines() if ln.startswith("note: ")]
    assert notes == [f"note: --pattern {PARTLY!r} matched 1 of the 2 file(s) read: 1 got no "
                     f"metadata from it (see `ebsstats check {data} --pattern ...`)"]


def test_a_python_caller_of_report_gets_the_pattern_note(campaign, parses, tmp_path):
    from ebsstats.io.meta import PatternWarning

    data, nbs = campaign
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report(data, tmp_path / "rep", notebooks=nbs, pattern=PARTLY)
    said = [(w.category, str(w.message), Path(w.filename).name) for w in caught
            if issubclass(w.category, UserWarning)]
    assert said == [(PatternWarning, f"pattern {PARTLY!r} matched 1 of the 2 file(s) read: 1 "
                                     "got no metadata from it", Path(__file__).name)]
    assert sorted(parses) == FILES


def test_a_python_caller_of_report_is_told_there_are_no_results(tmp_path, parses):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "bad.json").write_text('{"fio version" : "fio-3.33", "jobs" : [ {')
    (bad / "notes.txt").write_text("nothing a benchmark wrote\n")
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _notebook(nbs / "00-ok.ipynb")
    with pytest.warns(UserWarning) as caught:
        index = report(bad, tmp_path / "rep", notebooks=nbs)
    assert index.exists() and parses == ["bad.json", "notes.txt"]
    assert [str(w.message) for w in caught] == [
        f"no benchmark results in {bad} (2 file(s): 1 refuse, 1 skip); the report is built "
        f"anyway: its page 00 lists what was found and why; see ebsstats.check({str(bad)!r})"]
    proc = run_cli("report", str(bad), "-o", str(tmp_path / "rep"), "--notebooks", str(nbs))
    assert proc.returncode == 0, proc.stderr
    assert [ln for ln in proc.stderr.splitlines() if ln.startswith("note: ")] == [
        f"note: no benchmark results in {bad} (2 file(s): 1 refuse, 1 skip); the report is "
        f"built anyway: its page 00 lists what was found and why; see `ebsstats check {bad}`"]


@pytest.mark.parametrize("kwargs, said", [
    ({"only": ["zzz"]}, "only=zzz: no notebook's name has it; the notebooks: 00-ok.ipynb, "
                        "01-more.ipynb"),
    ({"only": ["00", "zzz"]}, "only=zzz: no notebook's name has it; the notebooks: "
                              "00-ok.ipynb, 01-more.ipynb"),
    ({"notebooks": "nowhere"}, "notebooks={tmp}/nowhere: no such folder"),
    ({"notebooks": "empty"}, "notebooks={tmp}/empty: no notebooks (*.ipynb) in it"),
], ids=["only", "one-only-of-two", "no-folder", "no-notebooks"])
def test_report_refuses_notebooks_that_are_not_there_before_reading(campaign, parses,
                                                                    tmp_path, kwargs, said):
    data, nbs = campaign
    (tmp_path / "empty").mkdir()
    if "notebooks" in kwargs:
        kwargs = {"notebooks": tmp_path / kwargs["notebooks"]}
    before = tree_digest(tmp_path)
    with pytest.raises(ValueError) as info:
        report(data, tmp_path / "rep", **({"notebooks": nbs} | kwargs))
    assert str(info.value) == said.format(tmp=tmp_path)
    assert isinstance(info.value, ReportError)  # (as "no notebooks to run" was)
    assert parses == [] and tree_digest(tmp_path) == before  # nothing read, nothing written


def test_the_command_line_says_the_notebook_errors_with_its_options(campaign, parses,
                                                                   tmp_path):
    data, nbs = campaign
    proc = run_cli("report", str(data), "-o", str(tmp_path / "rep"), "--notebooks", str(nbs),
                   "--only", "00", "--only", "zzz")
    assert proc.returncode == 2 and parses == []
    assert proc.stderr.splitlines() == ["ebsstats report: --only zzz: no notebook's name has "
                                        "it; the notebooks: 00-ok.ipynb, 01-more.ipynb"]
    proc = run_cli("report", str(data), "-o", str(tmp_path / "rep"), "--notebooks",
                   str(tmp_path / "nowhere"))
    assert proc.stderr.splitlines() == [f"ebsstats report: --notebooks {tmp_path}/nowhere: "
                                        "no such folder"]
    assert proc.returncode == 2 and not (tmp_path / "rep").exists()
