"""Bad fio inputs raise ebsstats.ParseError naming the file and the line or JSON path."""

from __future__ import annotations

import math

import pytest

import ebsstats as es
from ebsstats.io import fio
from ebsstats.io.fio import log as fio_log
from tests.conftest import fixture


def test_garbage():
    with pytest.raises(es.ParseError) as e:
        fio.parse("hello\nthis is not fio\n", "g.txt")
    assert e.value.source == "g.txt" and e.value.position == "line 1"


def test_empty():
    with pytest.raises(es.ParseError, match="empty file"):
        fio.parse("", "e.json")


def test_truncated_json():
    text = fixture("fio", "small_json.json").read_text()
    cut = text[: len(text) // 2]
    with pytest.raises(es.ParseError) as e:
        fio.parse(cut, "cut.json")
    assert e.value.source == "cut.json"
    assert e.value.position.startswith(f"line {cut.count(chr(10)) + 1}, column")


def test_error_only_output_quotes_fio():
    with pytest.raises(es.ParseError) as e:
        es.read_fio(fixture("fio", "gen", "error_only.json"))
    assert e.value.found == "fio: engine nonexistent not loadable"
    assert str(fixture("fio", "gen", "error_only.json")) in str(e.value)
    with pytest.raises(es.ParseError, match="failed parsing rw=foo"):
        es.read_fio(fixture("fio", "gen", "error_badrw.json"))


def test_bad_value_names_json_path():
    text = fixture("fio", "small_json.json").read_text().replace(
        '"iops" : 62727.090970', '"iops" : "fast"')
    with pytest.raises(es.ParseError) as e:
        fio.parse(text, "p.json")
    assert e.value.position == "$.jobs[0].read.iops" and e.value.found == "'fast'"


def test_not_a_fio_document():
    with pytest.raises(es.ParseError, match="'jobs' or 'client_stats'"):
        fio.parse('{"fio version": "fio-3.33", "results": []}', "x.json")


def test_job_with_error_is_flagged_never_zero():
    df = es.read_fio(fixture("fio", "gen", "error_job.json"))
    es.validate(df)
    bad = df[df["test"] == "bad"]
    assert set(bad["flag"]) == {"error=22"}  # "error" : 22 (EINVAL: unaligned direct I/O)
    rates = bad[bad["metric"].isin(["iops", "bandwidth"])]
    assert len(rates) == 2 and rates["value"].isna().all()  # NaN, not 0 IO/s
    assert bad[bad["metric"] == "total_ios"]["value"].item() == 1  # counts stay as printed
    good = df[df["test"] == "good"]
    assert good["flag"].isna().all()
    assert math.isclose(good[good["metric"] == "iops"]["value"].item(), 98158.841159)


def test_terse_job_with_error():
    p = fio.parse(fixture("fio", "gen", "error_job_terse.txt").read_text(), "t.txt")
    assert any(n.startswith("fio: pid=") for n in p.notes)
    df = es.io.frame(p.records)
    es.validate(df)
    assert set(df["flag"]) == {"error=22"}
    assert df[df["metric"].isin(["iops", "bandwidth"])]["value"].isna().all()


def test_truncated_terse_line():
    line = fixture("fio", "small_terse_v3.txt").read_text().split(";")
    text = "\n" + ";".join(line[:110]) + "\n"
    with pytest.raises(es.ParseError) as e:
        fio.parse(text, "t.txt")
    assert e.value.position == "line 2" and "terse v3 has at least 121" in e.value.found


def test_bad_normal_line():
    text = fixture("fio", "small_normal.txt").read_text().replace(
        "avg= 7.51", "avg= x7.51")
    with pytest.raises(es.ParseError) as e:
        fio.parse(text, "n.txt")
    assert e.value.position == "line 7"


# ---------------------------------------------------------------- logs

def test_log_five_columns_without_version_refused():
    with pytest.raises(es.ParseError, match="fio_version"):
        fio_log.parse("500, 107344, 0, 0, 0\n", "x_bw.1.log")


def test_latency_log_without_version_refused():
    with pytest.raises(es.ParseError, match="ns, 2.x in µs"):
        fio_log.parse("500, 107344, 0, 0\n", "x_clat.log")


def test_log_without_report_refused(tmp_path):
    p = tmp_path / "copy_clat.1.log"
    p.write_bytes(fixture("fio", "logs_avg", "logavg_clat.1.log").read_bytes())
    with pytest.raises(es.ParseError) as e:
        es.read_fio_log(p)
    assert e.value.source == str(p)


def test_log_ragged_and_non_numeric_lines():
    with pytest.raises(es.ParseError) as e:
        fio_log.parse("0, 1, 0, 4096, 0\n1, 1, 0\n", "x_iops.1.log", fio_version="3.33")
    assert e.value.position == "line 2"
    with pytest.raises(es.ParseError) as e:
        fio_log.parse("0, 1, 0, 4096, 0\n1, 1, 0, 4096, 0\n2, x, 0, 4096, 0\n",
                      "x_iops.1.log", fio_version="3.33")
    assert e.value.position == "line 3"
    with pytest.raises(es.ParseError) as e:
        fio_log.parse("0, 1, 0, 4096, 0\n1, 1, 7, 4096, 0\n", "x_iops.1.log",
                      fio_version="3.33")
    assert e.value.position == "line 2" and "ddir" in e.value.expected


def test_log_kind_unknown():
    with pytest.raises(es.ParseError, match="kind="):
        fio_log.parse("0, 1, 0, 4096\n", "mystery.log", fio_version="3.33")


def test_hist_log_not_a_series():
    with pytest.raises(es.ParseError, match="read_fio_hist_log"):
        es.read_fio_log(fixture("fio", "gen", "logs_hist", "lh_clat_hist.1.log"))


def test_a_job_line_without_a_report_is_fio_output_that_says_why(tmp_path):
    """fio 3.33 with --numjobs=5000 (MANIFEST row) prints "error: maximum number of jobs
    reached." and the job line "manyjobs: (g=0): rw=randread, bs=(R) 4096B-4096B, ..." and no
    report; 74th/m1-mac-fio-bench's macOS runs stopped at 8 jobs that way. Such a file was
    skipped as "not a recognised benchmark output"; fio's job line now makes it fio's output,
    refused with fio's own message."""
    src = fixture("fio", "gen", "max_jobs_error.txt")
    assert "error: maximum number of jobs reached." in src.read_text()
    (tmp_path / "max.txt").write_bytes(src.read_bytes())
    row = es.check(tmp_path).set_index("source").loc["max.txt"]
    assert (row["action"], row["tool"], row["position"]) == ("refuse", "fio", "line 1")
    assert row["reason"].endswith("found 'error: maximum number of jobs reached.'")
    with pytest.raises(es.ParseError, match="maximum number of jobs reached"):
        es.read_fio(src)


def test_a_version_with_a_run_of_thousands_of_digits_is_no_crash():
    # fuzz seed 47: "fio-2.1.999…" (13,112 digits) raised Python's ValueError for integers of
    # over 4,300 digits from fio.parse; the version's number parts are at most 9 digits
    from ebsstats.io import fio as fio_reader
    from tests.conftest import fixture

    text = fixture("fio", "f2110_small_json.json").read_text()
    text = text.replace('"fio-2.1.10"', '"fio-2.1.' + "9" * 5000 + '"')
    parsed = fio_reader.parse(text, "x.json")
    assert parsed.version.startswith("fio-2.1.999")
