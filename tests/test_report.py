"""The report pipeline: papermill runs, HTML with figures, atomic output, failures named."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ebsstats.app.reports import (
    MARKER,
    OutputRefused,
    ReportError,
    check_output,
    default_notebooks,
    notebook_list,
    notebook_parameters,
    report,
)
from tests.conftest import fixture, run_cli


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


def test_failing_page_does_not_cost_the_others(tmp_path, fio_data):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _nb(nbs / "00-ok.ipynb", ["print('fine')"])
    out = tmp_path / "rep"
    index = report(fio_data, out, notebooks=nbs)
    assert index.exists() and (out / MARKER).exists()
    _nb(nbs / "01-bad.ipynb", ["x = 1", "raise ValueError('boom')"])
    _nb(nbs / "02-ok.ipynb", ["print('after')"])
    with pytest.raises(ReportError) as info:
        report(fio_data, out, notebooks=nbs)
    assert info.value.notebook == "01-bad.ipynb"
    assert info.value.cell == 4  # title, parameters, x = 1, then the failing cell
    assert "ValueError: boom" in str(info.value)
    # the report was written: the pages after the failing one too, the failing page shows why
    assert (out / "02-ok.html").exists() and "after" in (out / "02-ok.html").read_text()
    bad = (out / "01-bad.html").read_text()
    assert "This page failed" in bad and "boom" in bad
    assert "failed" in index.read_text() and "02-ok.html" in index.read_text()
    assert not list(tmp_path.glob(".rep.building.*"))


def test_unusable_data_keeps_the_previous_report(tmp_path, fio_data):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _nb(nbs / "00-ok.ipynb", ["print('fine')"])
    out = tmp_path / "rep"
    before = report(fio_data, out, notebooks=nbs).read_text()
    with pytest.raises(FileNotFoundError):
        report(tmp_path / "missing", out, notebooks=nbs)
    assert (out / "index.html").read_text() == before


def test_parameters_are_values_not_code(tmp_path, fio_data):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    evil = 'a"b\'c\nimport os; os.remove("x")  # """'
    _nb(nbs / "00-p.ipynb", ["from pathlib import Path\n"
                             "Path(output, 'seen.txt').write_text(title)"],
        params='data = "x"\noutput = "."\ntitle = "t"\n')
    report(fio_data, tmp_path / "rep", notebooks=nbs, parameters={"title": evil})
    assert (tmp_path / "rep" / "seen.txt").read_text() == evil


def test_unknown_parameter_refused_with_the_valid_ones(tmp_path, fio_data):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _nb(nbs / "00-p.ipynb", ["pass"], params='data = "x"\noutput = "."\ntitle = "t"\n')
    with pytest.raises(ValueError, match="unknown parameter.*tilte.*valid: title"):
        report(fio_data, tmp_path / "rep", notebooks=nbs, parameters={"tilte": "x"})
    assert not (tmp_path / "rep").exists()


def test_list_parameter_accepts_comma_separated_values(tmp_path, fio_data):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _nb(nbs / "00-p.ipynb", ["from pathlib import Path\n"
                             "Path(output, 'seen.txt').write_text(repr(tools))"],
        params='data = "x"\noutput = "."\ntools = ["fio"]  # tools to keep\n')
    report(fio_data, tmp_path / "rep", notebooks=nbs, parameters={"tools": "fio,sysbench"})
    assert (tmp_path / "rep" / "seen.txt").read_text() == "['fio', 'sysbench']"


def test_every_parameter_line_of_the_bundled_notebooks_parses_for_papermill():
    import papermill as pm

    for book in notebook_list(default_notebooks()):
        ours = notebook_parameters(book)  # raises on a line papermill would drop
        assert set(pm.inspect_notebook(str(book))) == set(ours), book.name
        assert {"data", "series", "output"} <= set(ours), book.name


def test_parameter_line_papermill_drops_is_an_error(tmp_path):
    _nb(tmp_path / "x.ipynb", [], params='data = "x"\nvolume = None  # None = the first\n')
    with pytest.raises(ValueError, match="exactly one '='"):
        notebook_parameters(tmp_path / "x.ipynb")


def test_notebooks_select_only_through_metadata():
    pattern = re.compile(r'003_797c|seed00[0-9]_|"campaign"|data/published|/ *"published"')
    for book in notebook_list(default_notebooks()):
        text = book.read_text(encoding="utf-8")
        assert not pattern.search(text), (book.name, pattern.search(text).group(0))


def _digest(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
            if p.is_file()}


def test_output_may_not_be_or_touch_the_data(tmp_path, fio_data):
    (fio_data / "sub").mkdir()
    (fio_data / "sub" / "keep.txt").write_text("mine")
    before = _digest(tmp_path)
    for out in (fio_data, fio_data / "reports", fio_data / "sub", tmp_path):
        with pytest.raises(OutputRefused):
            report(fio_data, out, notebooks=tmp_path / "nowhere")
    assert _digest(tmp_path) == before


def test_output_refuses_a_folder_of_unrelated_files(tmp_path, fio_data):
    out = tmp_path / "stuff"
    out.mkdir()
    (out / "thesis.tex").write_text("years of work")
    with pytest.raises(OutputRefused, match="not an ebsstats report"):
        check_output(fio_data, out)
    proc = run_cli("report", str(fio_data), "-o", str(out))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "not an ebsstats report" in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert (out / "thesis.tex").read_text() == "years of work"
    assert sorted(p.name for p in out.iterdir()) == ["thesis.tex"]


def test_report_files_are_readable_by_others(tmp_path, fio_data):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _nb(nbs / "00-ok.ipynb", ["print('fine')"])
    old = os.umask(0o022)
    try:
        report(fio_data, tmp_path / "rep", notebooks=nbs)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "rep").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "rep" / "index.html").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "rep" / "notebooks").stat().st_mode) == 0o755


def test_cli_report_exit_code_and_message(tmp_path, fio_data):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _nb(nbs / "00-bad.ipynb", ["1/0"])
    cmd = [sys.executable, "-m", "ebsstats.app.cli", "report", str(fio_data), "-o",
           str(tmp_path / "rep"), "--notebooks", str(nbs)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1
    assert "00-bad.ipynb, cell 3" in proc.stderr and "ZeroDivisionError" in proc.stderr


def test_cost_page_leaves_out_a_volume_type_the_book_does_not_price(tmp_path):
    """A folder whose sidecar says ``volume_type: local`` (data/samples): the cost page said
    'no price for volume type local' as a failure and the report stopped; now it notes the
    type and shows the rest."""
    d = tmp_path / "data"
    d.mkdir()
    shutil.copy(fixture("fio", "small_json.json"), d / "small_json.json")
    (d / "meta.yaml").write_text("config: local-disk\nvolume_type: local\nsize_gib: 100\n")
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    shutil.copy(Path(default_notebooks()) / "05-cost.ipynb", nbs / "05-cost.ipynb")
    index = report(d, tmp_path / "rep", notebooks=nbs)
    page = (index.parent / "05-cost.html").read_text()
    assert "no price for volume type local" in page


def test_a_results_section_that_showed_nothing_is_one_line_on_the_page(tmp_path, fio_data):
    """A section tagged ``results`` whose code printed nothing loses its prose on the page
    (the page's "Not shown" note says why), not in the executed notebook; an untagged
    section and a tagged one that showed something stay whole."""
    def md(text, tags=()):
        return {"cell_type": "markdown", "metadata": {"tags": list(tags)}, "source": text}

    def code(text, tags=()):
        return {"cell_type": "code", "metadata": {"tags": list(tags)}, "source": text,
                "outputs": [], "execution_count": None}

    cells = [md("# Page"), code('data = "x"\noutput = "."\n', ["parameters"]),
             md("## Empty section\n\nHeading's own prose.", ["results"]),
             md("Prose of the empty method."),
             code("ok = False\nif ok:\n    print('never')"),
             md("## Full section", ["results"]), md("Prose of the shown method."),
             code("print('shown value 42')"),
             md("## Advice"), md("Prose of the advice."), code("x = 1")]
    nb = {"cells": [{**c, "id": f"c{k}"} for k, c in enumerate(cells)],
          "metadata": {"kernelspec": {"name": "python3", "language": "python",
                                      "display_name": "Python 3"}},
          "nbformat": 4, "nbformat_minor": 5}
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    (nbs / "00-page.ipynb").write_text(json.dumps(nb))
    out = tmp_path / "rep"
    report(fio_data, out, notebooks=nbs)
    page = (out / "00-page.html").read_text()
    assert "Empty section" in page and "Nothing to show for this data." in page
    assert "Prose of the empty method." not in page and "Heading's own prose." not in page
    assert "Prose of the shown method." in page and "shown value 42" in page
    assert "Prose of the advice." in page
    assert page.count("Nothing to show for this data.") == 1
    executed = json.loads((out / "notebooks" / "00-page.ipynb").read_text())
    assert any("Prose of the empty method." in "".join(c["source"]) for c in executed["cells"])


def test_bundled_notebooks_tag_their_result_sections():
    """Every ``##`` section of the bundled notebooks with code is tagged ``results``, except
    the sections that are advice (a silent clean-up under a table of advice)."""
    untagged = []
    for book in notebook_list(default_notebooks()):
        cells = json.loads(book.read_text())["cells"]
        heads = [k for k, c in enumerate(cells) if c["cell_type"] == "markdown"
                 and "".join(c["source"]).lstrip().startswith("##")]
        for a, b in zip(heads, [*heads[1:], len(cells)], strict=True):
            has_code = any(c["cell_type"] == "code" for c in cells[a:b])
            tagged = "results" in cells[a]["metadata"].get("tags", [])
            assert not tagged or has_code, (book.name, "".join(cells[a]["source"])[:60])
            if has_code and not tagged:
                untagged.append((book.name, "".join(cells[a]["source"]).splitlines()[0]))
    assert untagged == [("06-scale.ipynb", "## When to switch")]


def test_notebooks_run_at_once_in_their_folder_and_pages_keep_their_order(tmp_path, fio_data):
    # each notebook waits until all three have started: run one after another, the first one
    # would give up waiting (and print fewer than 3); the pages and the index keep the books'
    # order whichever finishes first, each kernel starts in the notebooks' folder, and this
    # process's own working directory is left as it was
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    met = tmp_path / "met"
    met.mkdir()
    for k in range(3):
        _nb(nbs / f"0{k}-page.ipynb", [
            f"import os, pathlib, time\nd = pathlib.Path({str(met)!r})\n(d / '{k}').touch()\n"
            "t = time.monotonic()\n"
            "while len(list(d.iterdir())) < 3 and time.monotonic() - t < 120:\n"
            "    time.sleep(0.05)\n"
            f"print('started together:', len(list(d.iterdir())), 'page {k}')\n"
            "print('kernel folder:', os.getcwd())"])
    before = os.getcwd()
    index = report(fio_data, tmp_path / "rep", notebooks=nbs, jobs=3)
    assert os.getcwd() == before
    for k in range(3):
        page = (tmp_path / "rep" / f"0{k}-page.html").read_text()
        assert f"started together: 3 page {k}" in page
        assert f"kernel folder: {nbs}" in page
    text = index.read_text()
    assert text.index("00-page.html") < text.index("01-page.html") < text.index("02-page.html")


def test_one_job_runs_the_notebooks_one_after_another(tmp_path, fio_data):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    log = tmp_path / "order.txt"
    for k in range(2):
        _nb(nbs / f"0{k}-page.ipynb", [f"open({str(log)!r}, 'a').write('{k}')"])
    report(fio_data, tmp_path / "rep", notebooks=nbs, jobs=1)
    assert log.read_text() == "01"


@pytest.mark.skipif(os.name != "posix", reason="Unix sockets: POSIX only (TCP elsewhere)")
def test_kernels_talk_over_sockets_of_their_own_and_leave_none(tmp_path, fio_data,
                                                              monkeypatch):
    # kernels started at once took TCP ports the client picked and the kernel bound later
    # (another kernel's connection could take one: "Address already in use" in a report of the
    # wheel); each now has Unix sockets at paths of its own, outside the notebooks' folder
    # (the kernel's working directory), removed when it shuts down
    import shutil
    import tempfile

    from ebsstats.app.reports import _kernel_manager_class

    # a temporary folder of this test's own (short: a Unix socket path has ~107 characters):
    # another test's report running meanwhile (pytest -n) makes its kernels' sockets in the
    # shared one, which this test would count as left over
    private = tempfile.mkdtemp(prefix="ek", dir="/tmp" if os.path.isdir("/tmp") else None)
    monkeypatch.setattr(tempfile, "tempdir", private)
    kms = [_kernel_manager_class()() for _ in range(2)]
    assert [km.transport for km in kms] == ["ipc", "ipc"]
    assert all(os.path.isabs(km.ip) for km in kms) and kms[0].ip != kms[1].ip
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    for k in range(3):
        _nb(nbs / f"0{k}-page.ipynb", [f"print('page {k}')"])
    before = set(os.listdir(tempfile.gettempdir()))
    report(fio_data, tmp_path / "rep", notebooks=nbs, jobs=3)
    for k in range(3):
        assert f"page {k}" in (tmp_path / "rep" / f"0{k}-page.html").read_text()
    assert sorted(p.name for p in nbs.iterdir()) == [f"0{k}-page.ipynb" for k in range(3)]
    left = {n for n in set(os.listdir(tempfile.gettempdir())) - before
            if n.startswith("ebsstats-kernel-")}
    shutil.rmtree(private, ignore_errors=True)
    assert left == set()


def test_rerun_refuses_files_the_report_did_not_write(tmp_path, fio_data):
    """An audit: a user's NOTES.md beside the pages was deleted without a word by the next
    report. The marker lists what the report wrote; anything else stops the re-run."""
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _nb(nbs / "00-ok.ipynb", ["print('fine')"])
    out = tmp_path / "rep"
    report(fio_data, out, notebooks=nbs)
    listed = (out / MARKER).read_text().splitlines()[1:]
    assert "00-ok.html" in listed and "index.html" in listed
    report(fio_data, out, notebooks=nbs)  # its own files only: replaced
    (out / "NOTES.md").write_text("mine")
    with pytest.raises(OutputRefused, match=r"holds files the report did not write \(NOTES.md\)"):
        check_output(fio_data, out)
    with pytest.raises(OutputRefused):
        report(fio_data, out, notebooks=nbs)
    assert (out / "NOTES.md").read_text() == "mine"
    # a marker that lists nothing (a report made before the list) vouches for its folder
    (out / MARKER).write_text("ebsstats 0.1.0 report of x\n")
    check_output(fio_data, out)


def test_parameter_values_must_name_something_in_the_data(tmp_path, fio_data):
    """An audit: -p metric iopz gave pages saying 'no repeated runs ... with IOPS' of data
    full of them, exit 0. A value that names nothing in the data is refused before any page
    runs, with the nearest values; the earlier report stays."""
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _nb(nbs / "00-ok.ipynb", ["print('fine')"],
        params='data = "x"\noutput = "."\nmetric = None\nbaseline = None\n')
    out = tmp_path / "rep"
    report(fio_data, out, notebooks=nbs, parameters={"metric": "iops"})
    before = (out / "00-ok.html").read_bytes()
    with pytest.raises(ValueError, match=r"-p metric iopz: not in this data's metric .*"
                                         r"did you mean iops\?"):
        report(fio_data, out, notebooks=nbs, parameters={"metric": "iopz"})
    with pytest.raises(ValueError, match=r"-p baseline nosuchcfg: not in this data's config"):
        report(fio_data, out, notebooks=nbs, parameters={"baseline": "nosuchcfg"})
    assert (out / "00-ok.html").read_bytes() == before


def test_an_empty_folder_is_a_fine_output(tmp_path, fio_data):
    """The refusals advise 'an empty or new folder': an existing empty one must do (the marker
    check read a missing marker: FileNotFoundError)."""
    out = tmp_path / "empty"
    out.mkdir()
    check_output(fio_data, out)


def test_parameter_values_by_the_notebooks_rules(tmp_path):
    """volume takes a config too (notebook 03), lists arrive as 'a,b', numbers match by value
    (a review of check_values: all three were refused)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ebsstats.app.reports import check_values

    f = tmp_path / "r.parquet"
    pq.write_table(pa.table({"config": ["gp2-20g", "gp3"], "volume": ["vol-1", "vol-2"],
                             "volume_type": ["gp2", "gp3"], "size_gib": [100.0, 200.0]}), f)
    check_values({"volume": "gp2-20g"}, f)
    check_values({"grouping": ["volume_type"], "baseline": "gp3"}, f)
    check_values({"grouping": ["size_gib"], "baseline": 100}, f)
    with pytest.raises(ValueError, match="volume_type .*did you mean gp2, gp3"):
        check_values({"grouping": ["volume_type"], "baseline": "gp4"}, f)
