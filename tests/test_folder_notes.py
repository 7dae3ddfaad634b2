"""What a reader notes of a file it read (``Parsed.notes``: the tool's own warnings, values
not taken as printed) reaches the user of a folder read: failures of kind ``"note"``, the
``notes`` column of ``check``, the command line. Before, the notes were kept on the parse and
dropped by every folder read: a sysbench test guessed as ``generic``, fio's ``io_u error``,
bonnie++ 2.00's wrong file-test rates left out were said to nobody."""

from __future__ import annotations

import shutil

import ebsstats as es
from ebsstats.app import cli
from ebsstats.io import fio
from ebsstats.io.folder import NOTES_SHOWN
from tests.conftest import fixture

LEGACY = "sb1.0_fileio_seqrewr_legacy.txt"
# read off the file: its first three lines, and its minimum latency printed as 0.00 ms
LEGACY_NOTES = [  # (position, reason): the line a note names is its position
    ("line 1", "WARNING: the --test option is deprecated. You can pass a script name or path "
     "on the command line without any options."),
    ("line 2", "WARNING: --num-threads is deprecated, use --threads instead"),
    ("line 3", "WARNING: --max-time is deprecated, use --time instead"),
    (None, "lat_min (line 38) printed as zero: under the 0.005 ms sysbench's two decimals "
     "show, NaN and flagged too_fast"),
]
SAID = [f"{at}: {why}" if at else why for at, why in LEGACY_NOTES]  # (as check() joins them)


def _folder(tmp_path, *names):
    d = tmp_path / "runs"
    d.mkdir()
    for tool, name in names:
        shutil.copy(fixture(tool, name), d / name)
    return d


def test_a_folder_read_lists_each_note_of_each_file_read(tmp_path):
    d = _folder(tmp_path, ("sysbench", LEGACY), ("fio", "small_json.json"))
    assert fixture("sysbench", LEGACY).read_text().splitlines()[37].strip() == (
        "min:                                    0.00")  # (line 38, as the note says)
    df, _, fails = es.read(d, full=True)
    assert set(df["source"]) == {LEGACY, "small_json.json"}  # both read, whole
    assert fails["kind"].tolist() == ["note"] * 4
    assert fails["source"].tolist() == [LEGACY] * 4 and set(fails["tool"]) == {"sysbench"}
    assert list(zip(fails["position"].astype(object).where(fails["position"].notna(), None),
                    fails["reason"], strict=True)) == LEGACY_NOTES
    assert df.attrs["failures"][0]["kind"] == "note"  # (where the report finds them)


def test_notes_warn_nobody_and_raise_nothing(tmp_path, recwarn):
    d = _folder(tmp_path, ("sysbench", LEGACY))
    es.read(d, errors="raise")  # a note is no failure: nothing raised
    es.read(d / LEGACY)
    assert not [w for w in recwarn if "ebsstats.read" in str(w.message)]


def test_check_has_the_notes_of_each_file(tmp_path):
    d = _folder(tmp_path, ("sysbench", LEGACY), ("fio", "small_json.json"))
    c = es.check(d).set_index("source")
    assert c.loc[LEGACY, "notes"] == " | ".join(SAID)
    assert c.loc["small_json.json", "action"] == "read"
    assert c["notes"].isna().tolist() == [False, True]  # (sorted: small_json.json second)


def test_a_file_of_many_warnings_shows_the_first_twenty_and_counts_the_rest(tmp_path):
    d = tmp_path / "runs"
    d.mkdir()
    body = fixture("sysbench", LEGACY).read_text()
    warn = "".join(f"WARNING: warning number {k}\n" for k in range(30))
    (d / "noisy.txt").write_text(warn + body)
    fails = es.read(d, full=True).failures
    # 30 of ours + the 3 of the file + its line-68 latency = 34 notes
    assert len(fails) == NOTES_SHOWN + 1 == 21
    assert (fails["position"].iloc[0], fails["reason"].iloc[0]) == ("line 1", "WARNING: "
                                                                    "warning number 0")
    assert (fails["position"].iloc[19], fails["reason"].iloc[19]) == ("line 20", "WARNING: "
                                                                      "warning number 19")
    assert fails["reason"].iloc[20] == "... and 14 more note(s) (34 in all)"


def test_fio_progress_chatter_is_no_note_but_its_warnings_are():
    """fio prints its banner, a line per job, "Starting N processes" and "Laying out IO file"
    on every run: those made a dozen notes a file that hid its real warnings."""
    text = ("seq: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, "
            "ioengine=psync, iodepth=1\n...\nfio-3.33\nStarting 4 processes\n"
            "seq: Laying out IO file (1 file / 16MiB)\n"
            "fio: file hash not empty on exit\n"
            + fixture("fio", "small_json.json").read_text())
    assert fio.parse(text, "x.json").notes == ["fio: file hash not empty on exit"]
    # normal text beside terse lines: named once, as beside JSON, not 53 lines of it
    p = fio.parse(fixture("fio", "gen", "terse_after_status_tty.txt").read_text(), "t.txt")
    assert p.notes == ["the normal text report beside the terse lines was not read (the terse "
                       "lines hold the same results)"]
    p = fio.parse(fixture("fio", "gen", "normal_json.txt").read_text(), "n.txt")
    assert p.notes == ["the normal text report beside the JSON was not read (the JSON holds "
                       "the same results)"]
    p = fio.parse(fixture("fio", "gen", "error_job_terse.txt").read_text(), "e.txt")
    assert [n[:20] for n in p.notes] == ["fio: io_u error on f", "fio: pid=10089, err="]


def test_the_command_line_says_the_notes(tmp_path, capsys):
    d = _folder(tmp_path, ("sysbench", LEGACY), ("fio", "small_json.json"))
    assert cli.main(["check", str(d)]) == 0
    out = capsys.readouterr().out
    said = out[out.index("notes (the tools' warnings"):].splitlines()
    assert said[1:] == [f"  {LEGACY}:"] + [f"    {n}" for n in SAID]
    assert cli.main(["ingest", str(d), "-o", str(tmp_path / "t.parquet"), "--quiet"]) == 0
    assert "4 note(s) on 1 file(s) read" in capsys.readouterr().out


def test_the_report_page_shows_each_note_once_line_numbers_aside(tmp_path):
    """Page 00 groups the notes (``notes_summary``): caprice-j's sysbench logs repeat
    ``WARNING: the --test option is deprecated`` on every run of a loop, which made one table
    row per line. Three copies of the legacy fixture: each of its four notes once, three times
    in three files."""
    from ebsstats.app.notebook import notes_summary

    d = tmp_path / "runs"
    d.mkdir()
    for k in range(3):  # (a trailing newline apart: not duplicates)
        (d / f"r{k}.txt").write_bytes(fixture("sysbench", LEGACY).read_bytes() + b"\n" * k)
    s = notes_summary(es.read(d, full=True).failures)
    assert s["notes"].tolist() == [3] * 4 and s["files"].tolist() == [3] * 4
    assert s.index.get_level_values("note")[3] == (  # (one text in every copy: as it is)
        "lat_min (line 38) printed as zero: under the 0.005 ms sysbench's two decimals show, "
        "NaN and flagged too_fast")
    # the same note of other lines and figures: one row, its numbers aside
    failures = es.read(d, full=True).failures
    failures.loc[failures.index[-1], "reason"] = failures["reason"].iloc[-1].replace(
        "line 38", "line 40")
    failures = failures[failures["reason"].str.startswith("lat_min")]
    assert notes_summary(failures).index.get_level_values("note").tolist() == [
        "lat_min (line …) printed as zero: under the 0.005 ms sysbench's two decimals show, "
        "NaN and flagged too_fast"]
    assert s["example"].tolist() == ["r0.txt"] * 4


def test_ingest_parquet_keeps_what_the_read_said(tmp_path):
    """``ebsstats ingest`` wrote the frame without its failures and notes, so a report made from
    that Parquet file said "every file was read" of a folder whose read had listed four notes.
    The file now keeps ``attrs["failures"]`` and ``read_parquet`` (and the report's loader)
    gives it back; a frame without failures stays without."""
    from ebsstats.app.notebook import load

    d = _folder(tmp_path, ("sysbench", LEGACY), ("fio", "small_json.json"))
    out = tmp_path / "tidy.parquet"
    assert cli.main(["ingest", str(d), "-o", str(out), "--quiet"]) == 0
    want = es.read(d).attrs["failures"]
    assert len(want) == 4 and es.read_parquet(out).attrs["failures"] == want
    assert load(out).attrs["failures"] == want
    clean = tmp_path / "clean.parquet"
    es.to_parquet(es.read(fixture("fio", "small_json.json")), clean)
    assert "failures" not in es.read_parquet(clean).attrs
