"""Bad input at the folder and output level, with the real readers (ARCHITECTURE.md "Errors").

What users point ebsstats at: folders with truncated files, tool errors, other programs' logs,
older tool versions, links, FIFOs, names that are not UTF-8, huge files, copies; plus the output
side: atomic Parquet, reports whose parameters are values, and ``ebsstats check``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

import pandas as pd
import pytest

import ebsstats as es
from ebsstats.app import cli as cli
from ebsstats.io import _common, folder
from ebsstats.io.sniff import sniff_file
from tests.conftest import FIXTURES, fixture, tree_digest
from tests.test_pts import BILLION_LAUGHS, EXTERNAL  # the same hostile XML documents

pytestmark = pytest.mark.filterwarnings("ignore:ebsstats.read:UserWarning")

# one genuine output per tool version; (relative fixture path, tool, tool_version as read)
MIXED = [
    ("fio/f2110_small_json.json", "fio", "fio-2.1.10"),
    ("fio/f205_small_normal.txt", "fio", "2.0.5"),
    ("fio/small_json.json", "fio", "fio-3.33"),
    ("fio/small_terse_v3.txt", "fio", "fio-3.33"),
    ("bonnie/bon1.03a_plain_s512_n1.txt", "bonnie++", "1.03"),
    ("bonnie/bon1.96_plain_s512_n1.txt", "bonnie++", "1.96"),
    ("bonnie/bon_q_s512_n0.csv", "bonnie++", "2.00a"),
    ("sysbench/sb0.4_fileio_rndrw_t1.txt", "sysbench", "0.4.12"),
    ("sysbench/sb0.5_fileio_rndrw_t1.txt", "sysbench", "0.5"),
    ("sysbench/sb_fileio_rndrd_t4_run.txt", "sysbench", "1.0.20"),
    ("pts/pts-10.8.4_composite_1system.xml", "pts", "10.8.4"),
    ("pts/synthetic_pre3.0_composite.xml", "pts", "2.0.0"),
]
UNRELATED = ("Nov 21 04:12:01 ip-10-0-0-12 CRON[3120]: (root) CMD (command -v debian-sa1)\n"
             "Nov 21 04:12:09 ip-10-0-0-12 systemd[1]: Started Session 42 of user admin.\n")


def _mixed(root: Path) -> Path:
    """A folder with every tool and version above, a truncated fio JSON and a syslog excerpt."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, _, _ in MIXED:
        dst = root / rel.replace("/", "__")
        shutil.copy(fixture(*rel.split("/")), dst)
    full = fixture("fio", "small_json.json").read_bytes()
    (root / "cut_run.json").write_bytes(full[: len(full) // 2])  # the run was killed
    (root / "syslog.txt").write_text(UNRELATED)
    return root


@pytest.fixture
def mixed(tmp_path):
    return _mixed(tmp_path / "runs")


@pytest.fixture
def no_hang():
    """Fail (rather than hang the suite) if a read blocks, e.g. on a FIFO."""
    def boom(*_):
        raise TimeoutError("the read blocked")
    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


# ------------------------------------------------------------------------------------------
# a real mixed folder


def test_mixed_folder_every_good_file_read_and_the_two_others_listed(mixed):
    before = tree_digest(mixed)
    df, fails = es.read(mixed, with_failures=True)
    es.validate(df)
    assert tree_digest(mixed) == before  # inputs never modified
    assert set(df["tool"].astype(str)) == {"fio", "bonnie++", "sysbench", "pts"}
    read = df.groupby("source", observed=True)["tool_version"].first()
    for rel, tool, version in MIXED:
        name = rel.replace("/", "__")
        assert name in read.index, name  # every good file, old and new versions alike
        assert df.loc[df["source"] == name, "tool"].astype(str).unique().tolist() == [tool]
        got = read[name]
        assert got == version, (name, got)
    noted = fails[fails["kind"] == "note"]  # files read, with what their readers noted
    assert len(noted) and set(noted["source"]) <= set(read.index)
    assert noted["reason"].str.contains("text table ignored|printed as zero").all()
    fails = fails[fails["kind"] != "note"]
    assert sorted(fails["source"]) == ["cut_run.json", "syslog.txt"]
    f = fails.set_index("source")
    assert f.loc["cut_run.json", "kind"] == "error" and f.loc["cut_run.json", "tool"] == "fio"
    assert f.loc["cut_run.json", "position"].startswith("line ")  # where the JSON stops
    assert f.loc["syslog.txt", "kind"] == "skipped"
    assert f.loc["syslog.txt", "reason"] == "not a recognised benchmark output"


def test_check_cli_lists_tool_version_format_and_reasons(mixed, capsys):
    assert cli.main(["check", str(mixed)]) == 0
    out = capsys.readouterr().out
    lines = {ln.split()[0]: ln for ln in out.splitlines() if ln.strip()}
    fio3 = lines["fio__small_json.json"]
    assert " read " in fio3 and " fio " in fio3 and " json " in fio3 and "fio-3.33" in fio3
    b103 = lines["bonnie__bon1.03a_plain_s512_n1.txt"]
    assert "bonnie++" in b103 and " csv 1.03 " in b103  # the text report holds a CSV row
    sb04 = lines["sysbench__sb0.4_fileio_rndrw_t1.txt"]
    assert "sysbench" in sb04 and "0.4.12" in sb04
    assert " refuse " in lines["cut_run.json"] and "complete fio JSON document" in \
        lines["cut_run.json"]
    assert " skip " in lines["syslog.txt"] and "not a recognised" in lines["syslog.txt"]
    # check never builds a frame: it parses to count rows, and touches nothing
    c = es.check(mixed).set_index("source")
    assert c.loc["fio__small_json.json", "format"] == "json"
    assert c.loc["fio__small_json.json", "rows"] == len(es.read_fio(mixed /
                                                                    "fio__small_json.json"))


def test_every_fixture_read_leaves_the_inputs_unchanged():
    before = tree_digest(FIXTURES)
    df, fails = es.read(FIXTURES, with_failures=True)
    es.validate(df)
    assert tree_digest(FIXTURES) == before
    # the genuine error outputs among the fixtures are refused with a position; the only
    # position-less refusals are fio latency logs whose fio version (ns or µs?) is unknown
    errors = fails[fails["kind"] == "error"]
    unpositioned = errors[errors["position"].isna()]
    assert errors["position"].notna().sum() >= 2
    assert unpositioned["reason"].str.contains("no fio version for a latency log").all()


# ------------------------------------------------------------------------------------------
# links, FIFOs, unreadable files and folders


def test_links_loops_and_dangling_links_with_real_readers(mixed, no_hang):
    os.symlink(mixed, mixed / "again")                       # folder link back to the root
    os.symlink(mixed / "a_loop", mixed / "b_loop")           # file links in a loop
    os.symlink(mixed / "b_loop", mixed / "a_loop")
    os.symlink(mixed / "gone.json", mixed / "dangling.json")  # points at nothing
    os.symlink(mixed / "fio__small_json.json", mixed / "alias.json")  # same file twice
    df, fails = es.read(mixed, with_failures=True)
    f = fails.set_index("source")
    for name in ("a_loop", "b_loop", "dangling.json"):
        assert f.loc[name, "kind"] == "error"
        assert "broken or looping symbolic link" in f.loc[name, "reason"]
    assert "again" not in " ".join(df["source"].unique())  # the folder link is not followed
    assert f.loc["again", "kind"] == "skipped"  # ... and said so, not silently left out
    assert "a link to a folder, not followed" in f.loc["again", "reason"]
    assert len(df[df["source"] == "fio__small_json.json"]) > 0  # read once, by its real name
    assert "alias.json" not in set(df["source"])


def test_a_linked_campaign_folder_is_listed_not_lost(tmp_path):
    """A campaign folder linked in from elsewhere (``ln -s /data/gp3 runs/gp3``) is not read
    (links to folders are never followed) and is named among the failures, also when it is
    the only thing in the folder and also below a sub-folder (its name relative to the root);
    a hidden one is not (hidden folders are never read)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "r.txt").write_text("x")
    root = tmp_path / "runs"
    (root / "sub").mkdir(parents=True)
    os.symlink(outside, root / "sub" / "gp3")
    os.symlink(outside, root / ".hidden")
    df, fails = es.read(root, with_failures=True)
    assert len(df) == 0
    assert fails["source"].tolist() == ["sub/gp3"]
    assert fails["kind"].tolist() == ["skipped"]
    assert fails["reason"].str.contains("read its target folder itself").all()
    assert es.check(root).set_index("source").loc["sub/gp3", "action"] == "skip"


def test_fifo_is_skipped_never_opened(mixed, no_hang):
    os.mkfifo(mixed / "results.json")  # opening a FIFO for reading blocks until a writer comes
    df, fails = es.read(mixed, with_failures=True)
    f = fails.set_index("source")
    assert f.loc["results.json", "kind"] == "skipped"
    assert f.loc["results.json", "reason"] == "not a regular file (FIFO)"
    assert len(df) > 0
    with pytest.raises(es.ParseError, match="a regular file"):
        es.read_fio(mixed / "results.json")
    assert sniff_file(mixed / "results.json") is None
    c = es.check(mixed).set_index("source")
    assert c.loc["results.json", "action"] == "skip"


def test_unreadable_file_is_listed_and_the_rest_read(mixed, monkeypatch):
    # tests run as root, so chmod 000 would not stop the read: make os.open() refuse instead
    real_open = os.open

    def guarded(path, *args, **kwargs):
        if Path(path).name == "fio__small_json.json":
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(_common.os, "open", guarded)
    df, fails = es.read(mixed, with_failures=True)
    f = fails.set_index("source")
    assert f.loc["fio__small_json.json", "kind"] == "error"
    assert "PermissionError: Permission denied" in f.loc["fio__small_json.json", "reason"]
    assert "fio__small_json.json" not in set(df["source"])
    assert "fio__f2110_small_json.json" in set(df["source"])


def test_unlistable_folder_is_listed(mixed, monkeypatch):
    real_walk = os.walk

    def walk(top, *args, onerror=None, **kwargs):
        for dirpath, dirnames, filenames in real_walk(top, *args, onerror=onerror, **kwargs):
            if Path(dirpath).name == "private":
                onerror(PermissionError(13, "Permission denied", dirpath))
                dirnames[:] = []
                continue
            yield dirpath, dirnames, filenames

    (mixed / "private").mkdir()
    shutil.copy(fixture("fio", "small_json.json"), mixed / "private" / "x.json")
    monkeypatch.setattr(folder.os, "walk", walk)
    df, fails = es.read(mixed, with_failures=True)
    f = fails.set_index("source")
    assert f.loc["private", "kind"] == "error"
    assert "unreadable folder (Permission denied)" in f.loc["private", "reason"]


# ------------------------------------------------------------------------------------------
# names, sizes, copies


def test_non_utf8_file_names_stay_printable(tmp_path, capsys):
    root = tmp_path / "runs"
    root.mkdir()
    good = os.path.join(os.fsencode(root), b"caf\xe9-gp3.json")  # Latin-1 name of a fio run
    with open(good, "wb") as fh:
        fh.write(fixture("fio", "small_json.json").read_bytes())
    bad = os.path.join(os.fsencode(root), b"notes-\xff.txt")
    with open(bad, "wb") as fh:
        fh.write(UNRELATED.encode())
    df, fails = es.read(root, with_failures=True)
    es.validate(df)
    assert set(df["source"]) == {"caf\\xe9-gp3.json"}   # the byte shown as \xe9, not lost
    assert fails["source"].tolist() == ["notes-\\xff.txt"]
    for text in [*df["source"], *fails["source"], *fails["reason"]]:
        text.encode("utf-8")  # printable and storable (Arrow/Parquet strings)
    es.to_parquet(df, tmp_path / "t.parquet")
    assert cli.main(["check", str(root)]) == 0
    assert "caf\\xe9-gp3.json" in capsys.readouterr().out


def test_size_limit_gives_a_clear_message(tmp_path):
    root = tmp_path / "runs"
    root.mkdir()
    shutil.copy(fixture("fio", "small_json.json"), root / "run.json")
    with open(root / "huge.log", "wb") as fh:  # sparse: 600 MiB on paper, nothing on disk
        fh.truncate(600 * 1024**2)
    df, fails = es.read(root, with_failures=True)
    f = fails.set_index("source")
    assert f.loc["huge.log", "kind"] == "error"
    assert ("expected a file of at most 536,870,912 bytes (the size limit; max_bytes= raises "
            "it); found '629,145,600 bytes'") in f.loc["huge.log", "reason"]
    assert set(df["source"]) == {"run.json"}
    _, fails = es.read(root, with_failures=True, max_bytes=5_000)  # the JSON is 6,588 bytes
    assert "at most 5,000 bytes" in fails.set_index("source").loc["run.json", "reason"]


def test_duplicate_files_read_once_and_flagged(mixed):
    shutil.copy(mixed / "fio__small_json.json", mixed / "zz_copy_of_run.json")
    df, fails = es.read(mixed, with_failures=True)
    f = fails.set_index("source")
    assert f.loc["zz_copy_of_run.json", "kind"] == "duplicate"
    assert f.loc["zz_copy_of_run.json", "reason"] == ("duplicate of fio__small_json.json "
                                                      "(same bytes; read once)")
    assert "zz_copy_of_run.json" not in set(df["source"])
    once = es.read(mixed, dedupe=False)
    assert len(once) == len(df) + len(df[df["source"] == "fio__small_json.json"])


# ------------------------------------------------------------------------------------------
# XML




def test_xml_entities_refused_in_a_folder(mixed):
    (mixed / "laughs" / "composite.xml").parent.mkdir()
    (mixed / "laughs" / "composite.xml").write_text(BILLION_LAUGHS)
    (mixed / "xxe" / "composite.xml").parent.mkdir()
    (mixed / "xxe" / "composite.xml").write_text(EXTERNAL)
    df, fails = es.read(mixed, with_failures=True)
    f = fails.set_index("source")
    for name, what in (("laughs/composite.xml", "EntitiesForbidden"),
                       ("xxe/composite.xml", "EntitiesForbidden")):
        assert f.loc[name, "kind"] == "error" and f.loc[name, "tool"] == "pts"
        assert f.loc[name, "position"] == "XML prolog"
        assert what in f.loc[name, "reason"] and "refused for safety" in f.loc[name, "reason"]
    assert "root:x:0:0" not in df.to_string()
    assert "pts__pts-10.8.4_composite_1system.xml" in set(df["source"])


# ------------------------------------------------------------------------------------------
# outputs: Parquet, reports


def _fail_midway(self, path, *args, **kwargs):
    Path(path).write_bytes(b"PAR1 half a file")  # what a crash mid-write leaves behind
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("partitioned", [False, True], ids=["file", "dataset"])
def test_parquet_write_failure_keeps_the_old_output(tmp_path, monkeypatch, partitioned):
    df = es.read_fio(fixture("fio", "small_json.json"))
    out = tmp_path / "tidy.parquet"
    cols = ["tool"] if partitioned else None
    es.to_parquet(df, out, partition_cols=cols)
    before = tree_digest(tmp_path)

    def fail(self, path, *args, **kwargs):
        target = Path(path) / "part.parquet" if partitioned else Path(path)
        _fail_midway(self, target)

    monkeypatch.setattr(pd.DataFrame, "to_parquet", fail)
    with pytest.raises(OSError, match="disk is full") as info:  # one line, the target named
        es.to_parquet(df.head(3), out, partition_cols=cols)
    assert str(out) in str(info.value) and "\n" not in str(info.value)
    monkeypatch.undo()
    assert tree_digest(tmp_path) == before              # old output intact, byte for byte
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tidy.parquet"]  # no temp left
    assert len(es.read_parquet(out)) == len(df)


def _notebook(path: Path, code: list[str], params: str) -> None:
    cells = [{"cell_type": "code", "metadata": {"tags": ["parameters"]}, "source": params,
              "outputs": [], "execution_count": None, "id": "p"}]
    cells += [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [],
               "execution_count": None, "id": f"c{i}"} for i, c in enumerate(code)]
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "language": "python",
                                                      "display_name": "Python 3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))


def test_cli_report_parameters_are_values_and_failures_exit_nonzero(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(fixture("fio", "small_json.json"), data)
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    _notebook(nbs / "00-echo.ipynb",
              ["import json, pathlib\n"
               "pathlib.Path(output, 'seen.json').write_text(json.dumps([title, note, n]))"],
              'data = "x"\noutput = "."\ntitle = "t"\nnote = "n"\nn = 0\n')
    evil = "x\"; import os; os.system('touch PWNED'); y = \"\n'''\"\"\"\\"
    code = "__import__('os').system('touch PWNED2')"
    out = tmp_path / "rep"
    rc = cli.main(["report", str(data), "-o", str(out), "--notebooks", str(nbs),
                   "-p", "title", evil, "-p", "note", code, "-p", "n", "3"])
    assert rc == 0
    assert json.loads((out / "seen.json").read_text()) == [evil, code, 3]  # values, verbatim
    assert not list(tmp_path.rglob("PWNED*")) and not Path("PWNED").exists()
    # a failing notebook: exit 1, the notebook and cell named, the other pages still written
    _notebook(nbs / "01-bad.ipynb", ["x = 1", "raise RuntimeError('disk gone')"],
              'data = "x"\noutput = "."\n')
    capsys.readouterr()
    rc = cli.main(["report", str(data), "-o", str(out), "--notebooks", str(nbs)])
    err = capsys.readouterr().err
    assert rc == 1
    assert "01-bad.ipynb, cell 3" in err and "RuntimeError: disk gone" in err
    assert (out / "00-echo.html").exists() and "disk gone" in (out / "01-bad.html").read_text()
    assert not list(tmp_path.glob(".rep.building.*"))


def test_encodings_utf16_read_latin1_refused_with_its_line(tmp_path):
    root = tmp_path / "runs"
    root.mkdir()
    text = fixture("fio", "small_json.json").read_text()
    (root / "ps.json").write_bytes(text.encode("utf-16"))  # PowerShell: fio ... > ps.json
    sb = fixture("sysbench", "sb_fileio_rndrd_t4_run.txt").read_text()
    lines = sb.splitlines(keepends=True)
    (root / "latin1.txt").write_bytes("".join(lines[:5]).encode() + "Débit: 1\n".encode(
        "latin-1") + "".join(lines[5:]).encode())
    df, fails = es.read(root, with_failures=True)
    utf8 = es.read_fio(fixture("fio", "small_json.json"))
    assert df["value"].tolist() == utf8["value"].tolist()
    f = fails.set_index("source")
    assert f.loc["latin1.txt", "kind"] == "error" and f.loc["latin1.txt", "position"] == "line 6"
    assert "expected UTF-8 text; found 'byte 0xe9 at offset" in f.loc["latin1.txt", "reason"]
    cut = text.encode("utf-16")[:-2] + b"\x00\xd8"  # ends in half a surrogate pair
    with pytest.raises(es.ParseError, match=rf"ps\.json, line {text.count(chr(10))}: "
                       "expected UTF-16 text"):
        es.read_fio(_write(tmp_path / "ps.json", cut))


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
