"""The command line's audited defects: outputs never over the inputs, failures write nothing,
empty inputs are errors, one line per error (no traceback), usage errors exit 2."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.io.meta import check_pattern
from tests.conftest import ROOT, fixture, run_cli, run_process, tree_digest

FIO = ROOT / "data" / "samples" / "fio"

#: ``ebsstats ARGS`` in this process (exit code, stdout, stderr, as a finished process)
run = run_cli


def one_line_error(proc: subprocess.CompletedProcess, rc: int = 2) -> str:
    assert proc.returncode == rc, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if not ln.startswith("note: ")]
    assert len(lines) == 1, proc.stderr
    return lines[0]


def _data(folder: Path) -> Path:
    """A copy of two fio runs of the bundled samples (one config, local-disk)."""
    d = folder / "data"
    d.mkdir()
    for f in sorted(FIO.glob("randread_4k_rep*.json"))[:2]:
        shutil.copy(f, d / f.name)
    shutil.copy(FIO.parent / "meta.yaml", d / "meta.yaml")  # (config: local-disk)
    return d


@pytest.fixture
def data(tmp_path) -> Path:
    return _data(tmp_path)


@pytest.fixture(scope="module")
def ingested(tmp_path_factory) -> Path:
    """``ebsstats ingest`` of :func:`data`, once for the module (tests get a copy: ``tidy``)."""
    folder = tmp_path_factory.mktemp("ingested")
    out = folder / "tidy.parquet"
    assert run("ingest", str(_data(folder)), "-o", str(out), "-q").returncode == 0
    return out


@pytest.fixture
def tidy(tmp_path, data, ingested) -> Path:
    out = tmp_path / "tidy.parquet"
    shutil.copy(ingested, out)
    return out


def _empty_parquet(path: Path) -> Path:
    return es.to_parquet(es.schema.empty(), path)


# D1, D9 ------------------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["input_file", "inside", "same_file", "contains"])
def test_ingest_refuses_to_write_over_or_into_its_input(tmp_path, data, where):
    one = data / "randread_4k_rep0.json"
    path, out = {"input_file": (data, one), "inside": (data, data / "tidy.parquet"),
                 "same_file": (one, one), "contains": (data, tmp_path)}[where]
    before = tree_digest(tmp_path)
    line = one_line_error(run("ingest", str(path), "-o", str(out), "-q"))
    assert line.startswith("ebsstats ingest: -o ") and ("data" in line or "input" in line)
    assert tree_digest(tmp_path) == before  # the input byte-identical, nothing written


def test_ingest_refuses_series_inside_the_data_or_at_the_output(tmp_path, data):
    before = tree_digest(tmp_path)
    line = one_line_error(run("ingest", str(data), "-o", str(tmp_path / "t.parquet"),
                              "--series", str(data / "s.parquet"), "-q"))
    assert "--series" in line and "inside the data folder" in line
    same = tmp_path / "x.parquet"
    line = one_line_error(run("ingest", str(data), "-o", str(same), "--series", str(same), "-q"))
    assert "-o and --series are the same file" in line
    assert tree_digest(tmp_path) == before


def test_ingest_beside_a_single_input_file_is_fine(tmp_path, data):
    one = data / "randread_4k_rep0.json"
    proc = run("ingest", str(one), "-o", str(data.parent / "one.parquet"), "-q")
    assert proc.returncode == 0, proc.stderr


# D2 ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("content", ["empty", "only_bad"])
def test_failed_ingest_leaves_an_earlier_output_untouched(tmp_path, tidy, content):
    d = tmp_path / content
    d.mkdir()
    if content == "only_bad":
        (d / "bad.json").write_text('{"fio version" : "fio-3.33", "jobs" : [ {')
    good = tidy.read_bytes()
    proc = run("ingest", str(d), "-o", str(tidy), "-q")
    assert proc.returncode == 1 and "0 rows" in proc.stderr and "nothing was written" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert tidy.read_bytes() == good
    assert not (tmp_path / "new.parquet").exists()


# D3 ----------------------------------------------------------------------------------------

def test_regress_of_an_empty_parquet_is_an_error(tmp_path, tidy):
    empty = _empty_parquet(tmp_path / "empty.parquet")
    for hist, new in ((tidy, empty), (empty, tidy)):
        line = one_line_error(run("regress", str(hist), str(new)))
        assert "no benchmark results found" in line and str(empty) in line
    # as for an empty folder
    (tmp_path / "none").mkdir()
    assert "no benchmark results found" in one_line_error(
        run("regress", str(tidy), str(tmp_path / "none")))


# D7 ----------------------------------------------------------------------------------------

def test_parquet_folder_counts_a_copied_file_once(tmp_path, tidy):
    pq = tmp_path / "pq"
    pq.mkdir()
    shutil.copy(tidy, pq / "a.parquet")
    shutil.copy(tidy, pq / "b.parquet")
    one = run("summary", str(tidy), "--metric", "iops", "--format", "json")
    two = run("summary", str(pq), "--metric", "iops", "--format", "json")
    assert one.returncode == two.returncode == 0, two.stderr
    assert [r["n"] for r in json.loads(two.stdout)] == [r["n"] for r in json.loads(one.stdout)]
    assert "exact copies" in two.stderr and "counted once" in two.stderr


def test_parquet_folder_with_a_readme_is_still_read_as_parquet(tmp_path, tidy):
    pq = tmp_path / "pq"
    pq.mkdir()
    shutil.copy(tidy, pq / "a.parquet")
    (pq / "README.md").write_text("what this is\n")
    proc = run("summary", str(pq), "--metric", "iops", "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    assert "set aside README.md" in proc.stderr and "randread_4k" in proc.stdout


# D8 ----------------------------------------------------------------------------------------

def test_pattern_with_an_unbalanced_brace_is_refused(tmp_path, data):
    for cmd in (["ingest", str(data), "-o", str(tmp_path / "p.parquet"), "-q"],
                ["summary", str(data)], ["check", str(data)]):
        line = one_line_error(run(*cmd, "--pattern", "{config"))
        assert "outside a placeholder" in line
    assert not (tmp_path / "p.parquet").exists()
    with pytest.raises(ValueError, match="outside a placeholder"):
        check_pattern("{config}/{volume")


def test_pattern_that_matches_no_file_or_names_no_column_is_noted(tmp_path, data):
    out = tmp_path / "p.parquet"
    proc = run("ingest", str(data), "-o", str(out), "-q", "--pattern", "x/{config}.json")
    assert proc.returncode == 0, proc.stderr
    assert "note: --pattern 'x/{config}.json' matched 0 of the 2 file(s) read" in proc.stderr
    proc = run("summary", str(data), "--pattern", "{conifg}_rep{repetition}.json", "--metric",
               "iops", "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    assert "{conifg} is not a column" in proc.stderr and "did you mean {config}" in proc.stderr
    assert "matched" not in proc.stderr  # (it matched both files)


# D10 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_compare_with_one_group_is_one_line_and_exit_2(tidy, fmt):
    proc = run("compare", str(tidy), "--baseline", "local-disk", "--metric", "iops",
               "--format", fmt)
    line = one_line_error(proc)
    assert "only one config (local-disk)" in line and "nothing to compare" in line
    assert "Warning" not in proc.stderr and proc.stdout == ""


def test_compare_table_of_nothing():
    import pandas as pd

    from ebsstats.app.tables import compare_table

    assert compare_table(pd.DataFrame()) == "(nothing to compare)"


# D11, D6 -----------------------------------------------------------------------------------

def _notebook(path: Path) -> None:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": "# Tiny", "id": "c0"},
             {"cell_type": "code", "metadata": {"tags": ["parameters"]}, "id": "c1",
              "source": 'data = "x"\noutput = "."\n', "outputs": [], "execution_count": None},
             {"cell_type": "code", "metadata": {}, "source": "print('ok')", "outputs": [],
              "execution_count": None, "id": "c2"}]
    path.write_text(json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5,
                                "metadata": {"kernelspec": {"name": "python3", "language":
                                                            "python",
                                                            "display_name": "Python 3"}}}))


@pytest.fixture(scope="module")
def reported(tmp_path_factory) -> Path:
    """A folder holding ``data``, ``nbs`` (one notebook that works) and ``rep``: the report
    ``ebsstats report data -o rep --notebooks nbs`` wrote, once for the module."""
    folder = tmp_path_factory.mktemp("reported")
    nbs = folder / "nbs"
    nbs.mkdir()
    _notebook(nbs / "00-ok.ipynb")
    out = folder / "rep"
    assert run("report", str(_data(folder)), "-o", str(out), "--notebooks", str(nbs)
               ).returncode == 0
    return folder


@pytest.fixture
def report_done(tmp_path, reported) -> tuple[Path, Path, Path]:
    """A copy of :func:`reported` in ``tmp_path`` (the report's files, times included): the
    data, the notebooks and the report an earlier run wrote."""
    for name in ("data", "nbs", "rep"):
        shutil.copytree(reported / name, tmp_path / name)
    return tmp_path / "data", tmp_path / "nbs", tmp_path / "rep"


def test_report_only_or_notebooks_that_match_nothing_are_usage_errors(tmp_path, report_done):
    data, nbs, out = report_done  # (the report of data with nbs written to out: exit 0)
    before = tree_digest(out)
    line = one_line_error(run("report", str(data), "-o", str(out), "--notebooks", str(nbs),
                              "--only", "zzz"))
    assert "--only zzz" in line and "00-ok.ipynb" in line
    line = one_line_error(run("report", str(data), "-o", str(tmp_path / "r2"), "--notebooks",
                              str(tmp_path / "nonexist")))
    assert "no such folder" in line
    assert tree_digest(out) == before and not (tmp_path / "r2").exists()


def test_report_of_no_results_says_so(tmp_path):
    """Page 00 is built on purpose for data with no results (it lists every file and why it
    was not read), so the report still builds, with a note on the command line."""
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "bad.json").write_text('{"fio version" : "fio-3.33", "jobs" : [ {')
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _notebook(nbs / "00-ok.ipynb")
    before = tree_digest(bad)
    proc = run("report", str(bad), "-o", str(tmp_path / "rep"), "--notebooks", str(nbs))
    assert proc.returncode == 0, proc.stderr
    assert f"note: no benchmark results in {bad} (1 file(s): 1 refuse)" in proc.stderr
    assert tree_digest(bad) == before


def test_report_failure_claims_pages_only_when_this_run_wrote_them(report_done):
    data, nbs, out = report_done  # (the report of data with nbs written to out: exit 0)
    book = json.loads((nbs / "00-ok.ipynb").read_text())
    book["cells"][2]["source"] = "1/0"
    (nbs / "01-bad.ipynb").write_text(json.dumps(book))
    proc = run("report", str(data), "-o", str(out), "--notebooks", str(nbs))
    assert proc.returncode == 1 and "the other pages were written" in proc.stderr


# D13 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, said", [
    (["--weeks", "-1"], "at least 1"), (["--weeks", "0"], "at least 1"),
    (["--raid", "bogus"], "expected LEVEL:N:TYPE:GIB, e.g. raid0:4:gp3:50"),
    (["--raid", "raid0:x:gp3:50"], "expected LEVEL:N:TYPE:GIB")])
def test_simulate_argument_checks(tmp_path, args, said):
    proc = run("simulate", "-o", str(tmp_path / "c"), *args)
    assert proc.returncode == 2 and said in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "c").exists()


# D14 ---------------------------------------------------------------------------------------

def test_ingest_says_notes_not_python_warnings(tmp_path, data):
    (data / "bad.json").write_text('{"fio version" : "fio-3.33", "jobs" : [ {')
    proc = run_process("ingest", str(data), "-o", str(tmp_path / "t.parquet"), "-q")
    assert proc.returncode == 0, proc.stderr
    assert "UserWarning" not in proc.stderr and "frame.attrs" not in proc.stderr
    assert "cli.py" not in proc.stderr and "FAILED 1 file(s)" in proc.stdout


def test_summary_notes_name_the_command_not_the_library(data):
    (data / "bad.json").write_text('{"fio version" : "fio-3.33", "jobs" : [ {')
    proc = run("summary", str(data), "--metric", "iops", "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    assert f"see `ebsstats check {data}`" in proc.stderr and "frame.attrs" not in proc.stderr


def test_check_of_an_empty_folder(tmp_path):
    (tmp_path / "empty").mkdir()
    line = one_line_error(run("check", str(tmp_path / "empty")))
    assert "no files found" in line


@pytest.mark.parametrize("args", [
    ["summary", "DATA", "--width", "0"], ["summary", "DATA", "--width", "-4"],
    ["compare", "DATA", "--baseline", "x", "--width", "0"],
    ["ingest", "DATA", "-o", "OUT", "--jobs", "-3"], ["report", "DATA", "--jobs", "0"],
    ["regress", "DATA", "DATA", "--alpha", "5"], ["regress", "DATA", "DATA", "--alpha", "0"],
    ["regress", "DATA", "DATA", "--confidence", "95"]])
def test_out_of_range_arguments_are_usage_errors(tmp_path, data, args):
    args = [str(data) if a == "DATA" else str(tmp_path / "o.parquet") if a == "OUT" else a
            for a in args]
    proc = run(*args)
    assert proc.returncode == 2 and "error: argument" in proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "o.parquet").exists()


def test_fixture_inputs_exist():
    assert fixture("fio", "small_json.json").exists() and len(list(FIO.glob("*.json"))) >= 2


def test_compare_baseline_by_value(tmp_path):
    """--baseline 100 on a float size column (100.0): the CLI's own check compared text."""
    rng = np.random.default_rng(0)
    f = tmp_path / "x.parquet"
    pd.DataFrame({"size_gib": [100.0] * 8 + [200.0] * 8, "metric": "iops", "test": "t",
                  "tool": "fio", "config": "c", "run_id": [str(i) for i in range(16)],
                  "value": np.r_[rng.normal(100, 3, 8), rng.normal(120, 3, 8)]}).to_parquet(f)
    proc = run("compare", str(f), "--by", "size_gib", "--baseline", "100", "--metric", "iops")
    assert proc.returncode == 0, proc.stderr
    assert "200.0" in proc.stdout and "+17.0%" in proc.stdout


def test_a_parquet_folder_is_read_by_the_report_and_the_notebooks_too(tmp_path, tidy):
    """The Parquet-folder rule lived in the CLI: ``ebsstats summary pq/`` read it, while
    ``ebsstats report pq/`` and ``nb.load("pq/")`` read it as benchmark outputs (0 rows)."""
    import warnings

    from ebsstats.app import notebook as nb
    from ebsstats.app.reports import _ingest
    from ebsstats.io.parquet import read_parquet_data

    pq = tmp_path / "pq"
    pq.mkdir()
    shutil.copy(tidy, pq / "a.parquet")
    (pq / "README.md").write_text("what this is\n")
    want = es.read_parquet(tidy)
    with pytest.warns(UserWarning, match="set aside README.md"):
        got = read_parquet_data(pq)
    pd.testing.assert_frame_equal(got, want)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        results, _, said = _ingest(pq, None, tmp_path, print)
        assert len(nb._load(pq, None, False)) == len(want)
    assert len(es.read_parquet(results)) == len(want) > 0
    assert said.startswith(f"{len(want):,} values")
    assert read_parquet_data(tmp_path / "nowhere.txt") is None
