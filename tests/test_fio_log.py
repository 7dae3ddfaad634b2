"""fio log files: values read by hand off the raw logs (conversions in the comments)."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.io.fio import log as fio_log
from tests.conftest import FIXTURES, fixture


def first(ts: pd.DataFrame, op: str | None = None) -> pd.Series:
    sel = ts if op is None else ts[ts["op"] == op]
    return sel.iloc[0]


def read(*parts, **kw) -> pd.DataFrame:
    ts = es.read_fio_log(fixture("fio", *parts), **kw)
    es.validate_series(ts)
    return ts


def test_averaged_bw_log_found_run():
    ts = read("logs_avg", "logavg_bw.1.log")
    r = first(ts)
    # "500, 107344, 0, 0, 0": t 500 ms, 107344 KiB/s × 1024, ddir 0 = read
    assert (r["t"], r["value"], r["op"], r["metric"], r["unit"]) == (
        0.5, 107344 * 1024, "read", "bandwidth", "B/s")
    assert pd.isna(r["block_size"]) and pd.isna(r["offset"])  # averaged: bs 0, no offset
    assert set(ts["sampling"]) == {"window_mean"}  # log_avg_msec=500 in the run's JSON
    # the run's JSON (logs_avg_run.json beside the folder) gives the job name and run_id
    df = es.read_fio(fixture("fio", "logs_avg_run.json"))
    assert set(ts["test"]) == {"logavg"} and set(ts["run_id"]) == set(df["run_id"])
    assert len(ts) == 10


def test_averaged_iops_and_latency_logs():
    iops = read("logs_avg", "logavg_iops.1.log")
    assert first(iops)["value"] == 26838 and first(iops)["unit"] == "IO/s"  # "500, 26838, 0"
    clat = read("logs_avg", "logavg_clat.1.log")
    r = first(clat)  # "500, 32893, 1, 0, 0": 3.x latency ns × 1e-9, ddir 1 = write
    assert r["op"] == "write" and r["metric"] == "clat" and math.isclose(r["value"], 32893e-9)
    lat = read("logs_avg", "logavg_lat.1.log")
    assert math.isclose(first(lat, "read")["value"], 32383e-9)  # "500, 32383, 0, 0, 0"
    slat = read("logs_avg", "logavg_slat.1.log")
    assert math.isclose(first(slat, "read")["value"], 7796e-9)  # "500, 7796, 0, 0, 0"


def test_raw_per_io_logs_and_aggregation():
    ios = read("logs_raw", "lograw_iops.1.log")
    # per-I/O rows "0, 1, 0, 4096, 0": an event (count 1), not a rate
    assert set(ios["metric"]) == {"ios"} and set(ios["unit"]) == {"count"}
    assert set(ios["sampling"]) == {"per_io"} and (ios["block_size"] == 4096).all()
    # one row per I/O: 2000 reads + 2000 writes = the run's total_ios (logs_raw_run.json)
    assert (ios["op"] == "read").sum() == 2000 and (ios["op"] == "write").sum() == 2000
    agg = fio_log.aggregate_log(ios, window=1.0)
    es.validate_series(agg)
    # rate_iops=1000: 1000 reads in each 1 s window
    assert agg[(agg["op"] == "read") & (agg["t"] == 1.0)]["value"].item() == 1000.0
    bw = read("logs_raw", "lograw_bw.1.log")
    assert first(bw)["value"] == 31371 * 1024  # "0, 31371, 0, 4096, 0"
    abw = fio_log.aggregate_log(bw, window=1.0)
    # 1000 I/Os × 4096 B in 1 s
    assert abw[(abw["op"] == "write") & (abw["t"] == 1.0)]["value"].item() == 4096000.0
    lat = read("logs_raw", "lograw_lat.1.log")
    assert math.isclose(first(lat)["value"], 194925e-9)  # "0, 194925, 0, 4096, 0"
    clat = read("logs_raw", "lograw_clat.1.log")
    assert math.isclose(first(clat, "write")["value"], 163216e-9)  # "0, 163216, 1, 4096, 0"
    slat = read("logs_raw", "lograw_slat.1.log")
    assert math.isclose(first(slat, "write")["value"], 11832e-9)  # "0, 11832, 1, 4096, 0"
    alat = fio_log.aggregate_log(lat, window=1.0)
    sel = lat[(lat["op"] == "read") & (lat["t"] < 1.0)]["value"].mean()
    assert math.isclose(alat[(alat["op"] == "read") & (alat["t"] == 1.0)]["value"].item(), sel)


def test_log_offset_six_columns():
    ts = read("gen", "logs_offset", "lo_bw.1.log")
    r = first(ts)  # "0, 41392, 0, 4096, 249856, 0": offset 249856, prio 0
    assert (r["value"], r["offset"], r["block_size"]) == (41392 * 1024, 249856, 4096)
    w = first(ts, "write")  # "0, 22746, 1, 4096, 3104768, 0"
    assert (w["value"], w["offset"]) == (22746 * 1024, 3104768)
    for kind, ns in (("clat", 98955), ("lat", 182983), ("slat", 84028)):
        t = read("gen", "logs_offset", f"lo_{kind}.1.log")
        assert math.isclose(first(t)["value"], ns * 1e-9) and first(t)["offset"] == 249856
    assert set(read("gen", "logs_offset", "lo_iops.1.log")["metric"]) == {"ios"}


def test_log_max_value():
    ts = read("gen", "logs_max", "lm_clat.1.log")
    assert set(ts["sampling"]) == {"window_max"}  # log_max_value=1 in lm_run.json
    assert math.isclose(ts.iloc[1]["value"], 1052013e-9)  # "500, 1052013, 0, 0, 0"
    bw = read("gen", "logs_max", "lm_bw.1.log")
    assert first(bw)["value"] == 380496 * 1024 and first(bw)["t"] == 0.25
    assert first(read("gen", "logs_max", "lm_iops.1.log"))["value"] == 95124
    assert math.isclose(first(read("gen", "logs_max", "lm_lat.1.log"))["value"], 275186e-9)
    assert math.isclose(first(read("gen", "logs_max", "lm_slat.1.log"))["value"], 67246e-9)


def test_version_from_argument_without_report():
    path = fixture("fio", "logs_avg", "logavg_clat.1.log")
    ts = es.read_fio_log(path, fio_version="fio-3.33", find_report=False)
    assert math.isclose(first(ts)["value"], 32893e-9)
    assert set(ts["sampling"]) == {"window"}  # averaged, but mean or max is not known
    assert set(ts["test"]) == {"logavg"}  # the log prefix


def test_layouts_by_version():
    # fio 2.x: 5th column is the offset, latency in µs
    p = fio_log.parse("10, 250, 1, 4096, 8192\n", "x_clat.log", fio_version="fio-2.1.10")
    r = p.series[0].iloc[0]
    assert (r["op"], r["offset"], r["value"]) == ("write", 8192, 250e-6)
    # 3.18-3.36: 5th column is the priority
    r = fio_log.parse("10, 250, 0, 4096, 1\n", "x_clat.1.log",
                      fio_version="fio-3.20").series[0].iloc[0]
    assert pd.isna(r["offset"]) and math.isclose(r["value"], 250e-9)
    # 3.37+ with log_max_value=both: time, mean, max, ddir, bs, offset, prio
    s = fio_log.parse("500, 300, 900, 0, 0, 0, 0\n", "x_lat.1.log",
                      fio_version="fio-3.37").series[0]
    got = dict(zip(s["sampling"], s["value"], strict=True))
    assert math.isclose(got["window_max"], 900e-9) and math.isclose(got["window_mean"], 300e-9)
    # 3.37+, 6 columns: a third column above 3 cannot be a ddir, so it is the max
    s = fio_log.parse("500, 300, 900, 1, 0, 0\n", "x_lat.1.log",
                      fio_version="fio-3.38").series[0]
    assert set(s["op"]) == {"write"} and len(s) == 2
    # 4 columns need no version for bw (KiB/s in every version)
    s = fio_log.parse("500, 100, 2, 0\n", "x_bw.log").series[0]
    assert (s["op"].iloc[0], s["value"].iloc[0]) == ("trim", 102400.0)
    s = fio_log.parse("500, 100, 3, 0\n", "x_lat.log", time_unit="us").series[0]
    assert s["op"].iloc[0] == "sync" and math.isclose(s["value"].iloc[0], 100e-6)


def test_hist_log():
    h = fio_log.read_fio_hist_log(fixture("fio", "gen", "logs_hist", "lh_clat_hist.1.log"))
    line = fixture("fio", "gen", "logs_hist", "lh_clat_hist.1.log").read_text().split(", ")
    assert len(line) == 1859  # 3.x: time, ddir, bs + 1856 bins
    counts = np.array(line[3:], dtype=np.int64)
    assert h["count"].sum() == counts.sum() and (h["t"] == 0.501).all()  # "501, 0, 4096, …"
    # bins below 128 are exact ns values (fio's plat_idx_to_val); above, group midpoints
    vals = fio_log._plat_values(1856)
    assert vals[5] == 5 and vals[128] == 128 + 0.5 * 2 and vals[192] == 256 + 0.5 * 4
    assert set(h["op"]) == {"read"}


def test_hist_log_corrupt_counts_are_refused_with_their_line(tmp_path):
    """pbench's sample clat_hist logs hold bin counts such as 7,310,584,035,473,358,880 (ASCII
    bytes read as a count) beside 2,147,483,647: their int64 sum wrapped to -2,472,969,824,354,
    250,113 I/Os and every percentile came from garbage, without a word. A line that counts
    more than 1e9 I/Os per second of the run so far is refused, its line named; the genuine
    log (fio 3.33, 0.501 s) still reads."""
    good = fixture("fio", "gen", "logs_hist", "lh_clat_hist.1.log").read_text()
    t, ddir, bs, *bins = good.strip().split(", ")
    assert 0 < sum(map(int, bins)) <= 0.501 * fio_log.HIST_MAX_IOPS  # (fio's own: passes)
    bad = bins.copy()
    bad[700] = "7310584035473358880"
    path = tmp_path / "x_clat_hist.1.log"
    path.write_text(good + ", ".join([t, ddir, bs, *bad]) + "\n")
    with pytest.raises(es.ParseError, match="corrupt bin counts") as err:
        fio_log.read_fio_hist_log(path, find_report=False)
    assert err.value.position == "line 2"
    assert "501,000,000 by 0.501 s" in str(err.value)
    # at the bound itself a line is kept: 1e9 I/Os per second, 1 ms at least for t = 0
    path.write_text("0, 0, 4096, " + ", ".join(["1000000"] + ["0"] * 1855) + "\n")
    assert fio_log.read_fio_hist_log(path, find_report=False)["count"].tolist() == [1_000_000]
    path.write_text("0, 0, 4096, " + ", ".join(["1000001"] + ["0"] * 1855) + "\n")
    with pytest.raises(es.ParseError, match="corrupt bin counts"):
        fio_log.read_fio_hist_log(path, find_report=False)


def test_a_folder_says_what_a_hist_log_is_and_how_to_read_it(tmp_path):
    """A folder read leaves fio's histogram logs out of its frames (no series metric: a
    histogram per interval); it said they were "not a recognised benchmark output", though
    ebsstats reads them. It now names them and the function that reads them."""
    for name in ("lh_clat_hist.1.log", "lh_run.json"):
        (tmp_path / name).write_bytes(fixture("fio", "gen", "logs_hist", name).read_bytes())
    (tmp_path / "short.log").write_text("501, 0, 4096, " + ", ".join(["7"] * 1000) + "\n")
    c = es.check(tmp_path).set_index("source")
    assert c.loc["lh_clat_hist.1.log", "action"] == "skip"
    assert c.loc["lh_clat_hist.1.log", "reason"].startswith(
        "a fio histogram log (write_hist_log): latency histograms per interval")
    assert "ebsstats.read_fio_hist_log" in c.loc["lh_clat_hist.1.log", "reason"]
    assert c.loc["short.log", "reason"] == "not a recognised benchmark output"  # (1003 columns)
    assert len(es.read_fio_hist_log(tmp_path / "lh_clat_hist.1.log"))  # (as said: it reads)


def test_sniff():
    assert fio_log.sniff("500, 107344, 0, 0, 0\n", "logavg_bw.1.log") == "bw"
    assert fio_log.sniff("500, 107344, 0, 0, 0\n", "whatever.txt") == "log"
    hist = fixture("fio", "gen", "logs_hist", "lh_clat_hist.1.log")
    assert fio_log.sniff(hist.read_text()[:65536], hist.name) is None
    assert fio_log.sniff('{"fio version": "fio-3.33"}', "a.json") is None
    assert fio_log.sniff("a,b,c\n1,2,3\n", "x.csv") is None


def test_meta_and_read_twice():
    a = es.read_fio_log(fixture("fio", "logs_raw", "lograw_lat.1.log"), config="gp3")
    b = es.read_fio_log(fixture("fio", "logs_raw", "lograw_lat.1.log"), config="gp3")
    pd.testing.assert_frame_equal(a, b)
    assert set(a["config"]) == {"gp3"}
    es.validate_series(a)


@pytest.mark.parametrize("name", ["lograw_bw.1.log", "lograw_iops.1.log"])
def test_raw_logs_cover_the_run(name):
    ts = read("logs_raw", name)
    assert ts["t"].max() <= 2.001 and ts["t"].min() == 0.0  # runtime=2 s


def test_folder_read_links_log_rows_to_their_job_run_id(tmp_path):
    """A log read in a folder shares the run_id of its job in the JSON report beside it."""
    import shutil

    import ebsstats as es
    from tests.conftest import FIXTURES

    shutil.copytree(FIXTURES / "fio" / "logs_avg", tmp_path / "logs_avg")
    shutil.copy(FIXTURES / "fio" / "logs_avg_run.json", tmp_path / "logs_avg_run.json")
    df, ts = es.read(tmp_path, series=True)
    job_ids = set(df.loc[df["source"] == "logs_avg_run.json", "run_id"])
    assert len(job_ids) == 1
    assert set(ts["run_id"]) == job_ids
    assert set(ts["test"]) == {"logavg"}


def test_logs_are_linked_to_a_report_not_named_json(tmp_path):
    """wikimedia/cloud-storage-performance-tests keep each run's fio JSON report as
    ``run_stats.log`` beside its ``data_bw.log``: the logs had run_ids of their own and the
    test "data" instead of the report's job. A report is found by its first bytes."""
    import shutil

    import ebsstats as es
    from tests.conftest import FIXTURES

    shutil.copytree(FIXTURES / "fio" / "logs_avg", tmp_path, dirs_exist_ok=True)
    shutil.copy(FIXTURES / "fio" / "logs_avg_run.json", tmp_path / "run_stats.log")
    (tmp_path / "notes.txt").write_text("the run on host a\n")
    run = fio_log.find_run(tmp_path / "logavg_bw.1.log")
    assert run is not None and run["report"] == str(tmp_path / "run_stats.log")
    df, ts = es.read(tmp_path, series=True)
    job_ids = set(df.loc[df["source"] == "run_stats.log", "run_id"])
    assert len(job_ids) == 1
    assert set(ts["run_id"]) == job_ids
    assert set(ts["test"]) == {"logavg"}


def test_six_column_337_log_without_options_reads_the_max_column_from_one_parse():
    """fio >= 3.37, 6 columns, no options to say which: a third column above 3 cannot be a
    ddir, so it is the window max (time, mean, max, ddir, bs, prio); the probe parse is the
    parse (the file is not read twice)."""
    p = fio_log.parse("0, 5, 7, 0, 4096, 1\n10, 6, 9, 1, 4096, 2\n", "x_bw.1.log",
                      fio_version="3.37")
    ts = p.series[0]
    assert ts["value"].tolist() == [5 * 1024, 6 * 1024, 7 * 1024, 9 * 1024]  # KiB/s -> B/s
    assert ts["sampling"].tolist() == ["window_mean"] * 2 + ["window_max"] * 2
    assert ts["op"].tolist() == ["read", "write", "read", "write"]
    assert ts["t"].tolist() == [0.0, 0.01, 0.0, 0.01]  # ms -> s
    assert ts["block_size"].tolist() == [4096] * 4


def test_large_log_is_parsed_from_disk_as_its_text_is(tmp_path, monkeypatch):
    """A log above 256 KiB goes to pyarrow as a file (its bytes are never copied into Python),
    and its constant string columns repeat one Arrow chunk: the frame is the one ``parse``
    gives the same text, row for row and dtype for dtype; its bytes are read only for an
    error (the line named) or a UTF-16 log."""
    n = 70_000  # > 65,536: more than one chunk of constant strings
    text = "".join(f"{i}, {i * 7 % 1000}, {i % 2}, {4096 if i % 3 else 0}, {i * 4096}\n"
                   for i in range(n))
    path = tmp_path / "big_bw.1.log"
    path.write_text(text)
    assert path.stat().st_size > 256 * 1024
    ref = fio_log.parse(text, str(path), fio_version="3.3").series[0]
    with monkeypatch.context() as m:  # read without load_bytes: pyarrow opened the file
        m.setattr(fio_log, "load_bytes", lambda *a, **k: pytest.fail("bytes copied"))
        ts = es.read_fio_log(path, find_report=False, fio_version="3.3")
    pd.testing.assert_frame_equal(ts, ref, check_exact=True)
    assert ts["source"].tolist() == [str(path)] * n and str(ts["source"].dtype) == "string"
    assert ts.loc[n - 1, ["t", "value", "offset"]].tolist() == [
        (n - 1) / 1000, ((n - 1) * 7 % 1000) * 1024, (n - 1) * 4096]
    path.write_text(text + "12, x, 0, 4096, 0\n")
    with pytest.raises(es.ParseError, match=f"line {n + 1}:.*found '12, x, 0, 4096, 0'"):
        es.read_fio_log(path, find_report=False, fio_version="3.3")
    path.write_text(text, encoding="utf-16")  # NULs everywhere: decoded, then parsed
    u16 = es.read_fio_log(path, find_report=False, fio_version="3.3")
    pd.testing.assert_frame_equal(u16, ref, check_exact=True)
    path.write_bytes(text.encode() + b"\x00" * 8)
    with pytest.raises(es.ParseError, match=f"line {n + 1}:.*NUL"):
        es.read_fio_log(path, find_report=False, fio_version="3.3")


def test_quoted_field_is_refused_with_its_line():
    """fio never quotes a field; a quoted number (which a CSV reader would unquote) is not a
    fio log line: refused with its line, as every other non-integer field."""
    with pytest.raises(es.ParseError, match="line 2: expected a fio log line of 4 integer "
                       "columns.*found '\"2\", 3, 1, 4096'"):
        fio_log.parse('1, 2, 0, 4096\n"2", 3, 1, 4096\n', "x_bw.1.log")


def test_threaded_float_columns_equal_the_serial_conversion(monkeypatch):
    """A long log converts its time and value columns in a second thread: same frame as the
    serial conversion, and an error found there still names its line."""
    text = "".join(f"{i}, {i * 7}, {i * 9 + 5}, {i % 2}, 4096, 1\n" for i in range(3000))
    serial = fio_log.parse(text, "x_lat.1.log", fio_version="3.38").series[0]
    monkeypatch.setattr(fio_log, "_THREAD_ROWS", 1000)
    threaded = fio_log.parse(text, "x_lat.1.log", fio_version="3.38").series[0]
    pd.testing.assert_frame_equal(threaded, serial, check_exact=True)
    assert threaded["value"].iloc[[1, 3001]].tolist() == [7 * 1e-9, 14 * 1e-9]  # mean, max: ns
    with pytest.raises(es.ParseError, match="line 3001: expected a non-negative t"):
        fio_log.parse(text + "-1, 5, 5, 0, 4096, 1\n", "x_lat.1.log", fio_version="3.38",
                      log_max_value="both")


def test_a_log_prefix_named_by_several_reports_is_linked_to_the_last_run():
    """Two runs of one template into one folder (fio 3.33, randread then randwrite, both with
    write_bw_log=.../shared: MANIFEST row) leave one shared_bw.1.log, the second run's (its
    lines say direction 1, write), and two reports naming it. louwrentius/fio-plot's 14 reports
    per prefix had every log linked to the first (a one-job randread) without a word, then (to
    be safe) to none. fio rewrites the log on each run: the run that ended last (its report's
    timestamp, 2 s later here) wrote it, and the log's own direction agrees."""
    folder = FIXTURES / "fio" / "gen" / "logs_shared"
    assert fixture("fio", "gen", "logs_shared", "shared_bw.1.log").read_text().startswith(
        "500, 128432, 1, 0")
    stamps = {n: json.loads((folder / n).read_text())["timestamp"]
              for n in ("randread.json", "randwrite.json")}
    assert stamps["randwrite.json"] > stamps["randread.json"]
    df, ts, _ = es.read(folder, series=True, full=True, progress=False)
    assert ts["op"].astype(str).unique().tolist() == ["write"] and len(ts) == 3
    assert ts["value"].iloc[0] == 128432 * 1024  # KiB/s -> B/s
    writer = df.loc[df["source"] == "randwrite.json", "run_id"].unique().tolist()
    assert ts["run_id"].unique().tolist() == writer and ts["test"].unique().tolist() == [
        "randwrite"]
    run = fio_log.find_run(folder / "shared_bw.1.log")
    assert Path(run["report"]).name == "randwrite.json" and run["run_key"] == "$.jobs[0]"
    data = (folder / "shared_bw.1.log").read_bytes()
    parsed = fio_log._parse_in_folder(data, "shared_bw.1.log",
                                      {"path": folder / "shared_bw.1.log"})
    assert parsed.notes == [
        "2 fio reports name this log's prefix (randwrite.json, randread.json): fio rewrote the "
        "log on each run, so it is linked to randwrite.json, the last run (by its report's "
        "timestamp) whose jobs could write it"]


def test_a_log_only_a_run_of_more_jobs_wrote_is_linked_to_it(tmp_path):
    """louwrentius/fio-plot runs one prefix at 1, 2, 4 ... 64 jobs: ``prefix_bw.33.log`` can
    only be the 64-job run's. Here (fio 3.33, MANIFEST rows) randread with 2 jobs, then a
    second later randwrite with 1 job: .1 is the second run's (direction 1 in its lines), .2
    the first run's second job (direction 0)."""
    folder = FIXTURES / "fio" / "gen" / "logs_rewritten"
    assert fixture("fio", "gen", "logs_rewritten", "rewritten_bw.1.log").read_text() == (
        "500, 103544, 1, 0, 0\n")
    assert fixture("fio", "gen", "logs_rewritten", "rewritten_bw.2.log").read_text() == (
        "500, 66120, 0, 0, 0\n")
    one, two = (fio_log.find_run(folder / f"rewritten_bw.{i}.log") for i in (1, 2))
    assert (Path(one["report"]).name, one["run_key"], one["test"]) == ("one.json", "$.jobs[0]",
                                                                         "onejob")
    assert (Path(two["report"]).name, two["run_key"], two["test"]) == ("two.json", "$.jobs[1]",
                                                                         "twojobs")
    df, ts, _ = es.read(folder, series=True, full=True, progress=False)
    ids = df.groupby(["source", "op"], observed=True)["run_id"].first()
    got = ts.groupby("source", observed=True).agg(op=("op", "first"), run_id=("run_id", "first"))
    assert got.loc["rewritten_bw.1.log", "op"] == "write"
    assert got.loc["rewritten_bw.1.log", "run_id"] == ids["one.json", "write"]
    assert got.loc["rewritten_bw.2.log", "op"] == "read"
    assert got.loc["rewritten_bw.2.log", "run_id"] == df.loc[
        (df["source"] == "two.json") & (df["job"] == "twojobs"), "run_id"].unique()[1]
    # two runs that ended in the same second: which wrote .1 is unknown, linked to none
    for name in ("one.json", "two.json", "rewritten_bw.1.log"):
        (tmp_path / name).write_bytes((folder / name).read_bytes())
    t = json.loads((folder / "two.json").read_text())["timestamp"]
    text = (tmp_path / "one.json").read_text()
    (tmp_path / "one.json").write_text(text.replace(f'"timestamp" : {t + 2},',
                                                    f'"timestamp" : {t},'))
    assert f'"timestamp" : {t},' in (tmp_path / "one.json").read_text()
    run = fio_log.find_run(tmp_path / "rewritten_bw.1.log")
    assert run["run_id"] is None and run["linked"] is None


def test_a_log_below_its_report_takes_the_version_of_the_reports_above(tmp_path):
    """pbench keeps a run's fio report at the top and each client's logs two folders below
    (``clients/<host>/fio_clat.1.log``), where no report names them: a latency log needs the
    fio version (ns in 3.x, us in 2.x) and was refused ("expected fio_version= or
    time_unit="). Made with fio 3.33 (MANIFEST rows): the nearest folder above whose fio
    reports all print one version gives it, and a note says so; reports of two versions
    there say nothing (refused, as before)."""
    folder = FIXTURES / "fio" / "gen" / "logs_nested"
    log = folder / "clients" / "h1" / "fio_clat.1.log"
    assert log.read_text().startswith("500, 77375, 0, 0, 0\n")  # ns in 3.x: 77.375 us
    assert json.loads((folder / "run.json").read_text())["fio version"] == "fio-3.33"
    df, ts, fails = es.read(folder, series=True, full=True, progress=False)
    clat = ts[ts["source"] == "clients/h1/fio_clat.1.log"]
    assert clat["value"].iloc[0] == pytest.approx(77375e-9) and clat["t"].iloc[0] == 0.5
    assert clat["op"].astype(str).unique().tolist() == ["read"] and len(clat) == 5
    assert set(ts["source"]) == {f"clients/h1/fio_{k}.1.log" for k in ("clat", "lat", "slat")}
    noted = fails[(fails["kind"] == "note") & (fails["source"] == "clients/h1/fio_clat.1.log")]
    assert noted["reason"].tolist() == [
        "no fio report beside this log names it: its columns are read as fio-3.33's, the "
        "version of the fio reports at the top of the folder read"]
    # the full intervals' means lie within 10 % of the report's clat mean (73.33 us): the unit
    # is right (read as us, they would be 1,000 times the report's)
    mean = json.loads((folder / "run.json").read_text())["jobs"][0]["read"]["clat_ns"]["mean"]
    assert ((clat["value"].iloc[:4] / (mean * 1e-9) - 1).abs() < 0.1).all()
    # without the report: refused, as before
    shutil.copytree(folder / "clients", tmp_path / "alone" / "clients")
    bad = es.read(tmp_path / "alone", full=True, progress=False).failures
    assert set(bad.loc[bad["kind"] == "error", "reason"].str.contains(regex=False, pat=
        "a fio report of its run beside it or in a folder above, or "
        "ebsstats.read_fio_log(path, fio_version=")) == {True}
    # two reports of different versions above: which wrote the logs is unknown, refused
    shutil.copytree(folder, tmp_path / "two")
    text = (folder / "run.json").read_text()
    (tmp_path / "two" / "old.json").write_text(text.replace('"fio-3.33"', '"fio-3.1"'))
    two = es.read(tmp_path / "two", full=True, progress=False).failures
    assert len(two[two["kind"] == "error"]) == 3
