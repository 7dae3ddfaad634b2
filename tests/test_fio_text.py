"""fio's text outputs (terse and normal): the rows and the errors of the cases the table-driven
readers treat apart (failed jobs, unified ``mixed`` directions, indentation, bad cells), with
values worked out by hand from the lines below."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest

import ebsstats as es
from ebsstats.io import fio
from tests.conftest import fixture

MiB = 1024**2


def _rows(parsed, **where) -> list[dict]:
    return [r for r in parsed.records if all(r.get(k) == v for k, v in where.items())]


def _value(parsed, op: str, metric: str) -> float:
    (row,) = _rows(parsed, op=op, metric=metric)
    return row["value"]


# --------------------------------------------------------------------------- normal text

def _small_normal() -> str:
    return fixture("fio", "small_normal.txt").read_text()


def test_normal_direction_line_indented_with_a_tab():
    # fio indents with spaces; a tab is whitespace too, and the line still opens the direction
    text = _small_normal().replace("  read: IOPS=", "\tread: IOPS=")
    p = fio.parse(text, "n.txt")
    assert _value(p, "read", "iops") == pytest.approx(342_683 / 3.001)  # IOPS=114k, exact
    assert _value(p, "read", "bandwidth") == 446 * MiB
    assert _value(p, "read", "io_bytes") == 1339 * MiB
    assert _value(p, "read", "runtime") == pytest.approx(3.001)
    # the lines after it belong to the direction: latencies, percentiles, samples, issued
    assert _value(p, "read", "clat_mean") == pytest.approx(62.19e-6)
    assert _value(p, "read", "clat_p99.99") == pytest.approx(1532e-6)
    assert _value(p, "read", "bw_agg") == pytest.approx(99.81)
    assert _value(p, "read", "iops_stddev") == pytest.approx(6700.81)
    assert _value(p, "read", "total_ios") == 342_683.0


def test_normal_failed_job_zero_rates_become_nan_counts_stay():
    text = _small_normal().replace("err= 0:", "err= 5:").replace("IOPS=114k", "IOPS=0")
    p = fio.parse(text, "n.txt")
    assert {r["flag"] for r in p.records} == {"error=5"}
    assert math.isnan(_value(p, "read", "iops"))
    assert _value(p, "read", "bandwidth") == 446 * MiB  # not zero: kept
    assert _value(p, "read", "total_ios") == 342_683.0


def test_normal_failed_job_without_direction_gets_nan_rates_for_its_rw():
    text = ("x: (g=0): rw=randwrite, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, "
            "ioengine=libaio, iodepth=1\n"
            "fio-3.33\n"
            "x: (groupid=0, jobs=1): err= 5: pid=1: Sun Nov 22 03:29:23 2026\n"
            "  cpu          : usr=0.00%, sys=0.00%, ctx=1, majf=0, minf=18\n")
    p = fio.parse(text, "n.txt")
    got = {(r["op"], r["metric"], r["position"]) for r in p.records}
    assert got == {("total", "cpu_usr", "line 4"), ("total", "cpu_sys", "line 4"),
                   ("write", "iops", "line 3"), ("write", "bandwidth", "line 3")}
    assert all(math.isnan(r["value"]) for r in p.records)
    assert {r["block_size"] for r in p.records if r["op"] == "write"} == {4096}


def test_normal_unified_mixed_direction_sums_issued_and_keeps_sync():
    text = ("u: (groupid=0, jobs=1): err= 0: pid=1: Sun Nov 22 03:29:23 2026\n"
            "  mixed: IOPS=2k, BW=8000KiB/s (8192kB/s)(16.0MiB/2048msec)\n"
            "     issued rwts: total=10,20,0,5 short=0,0,0,0 dropped=0,0,0,0\n")
    p = fio.parse(text, "n.txt")
    assert _value(p, "total", "iops") == 2000.0
    assert _value(p, "total", "bandwidth") == 8000 * 1024
    assert _value(p, "total", "io_bytes") == 16 * MiB
    assert _value(p, "total", "runtime") == pytest.approx(2.048)
    assert _value(p, "total", "total_ios") == 30.0  # read + write + trim
    assert _value(p, "sync", "total_ios") == 5.0


@pytest.mark.parametrize("old, new, line, expected", [
    ("99.99th=[ 1532]", "101.00th=[ 1532]", "line 15", "a line of fio's normal report"),
    ("stdev=26803.24", "stdev=-1", "line 16", "a finite, non-negative bandwidth_stddev"),
])
def test_normal_bad_value_names_its_line(old, new, line, expected):
    """A percentile beyond 100, a negative statistic: refused at their line."""
    with pytest.raises(es.ParseError) as e:
        fio.parse(_small_normal().replace(old, new), "n.txt")
    assert e.value.position == line
    assert expected in str(e.value)


def test_normal_job_count_beyond_64_bits_refused():
    text = _small_normal().replace("jobs=1)", "jobs=99999999999999999999)")
    with pytest.raises(es.ParseError, match="line 5"):
        fio.parse(text, "n.txt")


# --------------------------------------------------------------------------- terse

def _terse_fields() -> list[str]:
    return fixture("fio", "small_terse_v3.txt").read_text().strip().split(";")


def _terse(fields: list[str]) -> str:
    return ";".join(fields) + "\n"


def test_terse_v3_fields_by_offset():
    p = fio.parse(_terse(_terse_fields()), "t.txt")
    assert _value(p, "read", "io_bytes") == 1_028_752 * 1024
    assert _value(p, "read", "bandwidth") == 342_803 * 1024
    assert _value(p, "read", "iops") == 85_700
    assert _value(p, "read", "runtime") == pytest.approx(3.001)
    assert _value(p, "read", "slat_max") == pytest.approx(6142e-6)
    assert _value(p, "read", "clat_p99.99") == pytest.approx(31850e-6)
    assert _value(p, "read", "bw_agg") == 100.0
    assert _value(p, "total", "cpu_sys") == pytest.approx(63.233333)
    (row,) = _rows(p, op="read", metric="bandwidth_mean")
    assert row["position"] == "line 1, field 44" and row["value"] == pytest.approx(357070.4 * 1024)
    assert not _rows(p, op="write")  # an empty direction gives no rows


@pytest.mark.parametrize("index, cell, found", [
    (5, "x", "field 5 (io KiB) is 'x', not a number"),
    (9, "-1", "field 9 (slat stat) is '-1', not a finite, non-negative number"),
    (6, "1e308", "field 6 (bandwidth) overflows in canonical units"),
    (17, "50=3", "field 17 is '50=3', expected 'P%=value'"),
    (17, "101%=x", "field 17 is '101%=x', expected 'P%=value' with 0 <= P <= 100"),
])
def test_terse_bad_cell_names_the_field(index, cell, found):
    fields = _terse_fields()
    fields[index] = cell
    with pytest.raises(es.ParseError) as e:
        fio.parse(_terse(fields), "t.txt")
    assert e.value.position == "line 1"
    assert found in e.value.found


def test_terse_failed_job_without_direction_gets_nan_total_rates():
    fields = _terse_fields()
    fields[4] = "22"  # error
    for j in (0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 32, 33, 34):  # read: no io, no latencies
        fields[5 + j] = "0"
    p = fio.parse(_terse(fields), "t.txt")
    got = {(r["op"], r["metric"], r["position"]) for r in p.records}
    assert got == {("total", "cpu_usr", "line 1, field 87"),
                   ("total", "cpu_sys", "line 1, field 88"),
                   ("total", "iops", "line 1, field 5"),
                   ("total", "bandwidth", "line 1, field 5")}
    assert {r["flag"] for r in p.records} == {"error=22"}
    assert math.isnan(_value(p, "total", "iops"))
    assert _value(p, "total", "cpu_sys") == pytest.approx(63.233333)


def test_normal_text_iops_is_the_issued_count_over_the_runtime():
    """fio prints a direction's IOPS as an integer quotient (``1000 * issued / runtime_ms``):
    ``IOPS=2`` for 9 writes in 3,001 ms (tests/fixtures/fio/gen/slow_normal_json.txt, made
    here by fio 3.33 with ``--rate_iops=3 --output-format=normal,json``: both reports of one
    run). The text's IOPS is the count over the runtime, 9 / 3.001 s, as the JSON report of the
    same run prints it (``"iops" : 2.999000``); chris-sanders/ceph-fio-results' fio 2.16 text
    said ``iops=0`` for 37 writes in 60.119 s."""
    text = fixture("fio", "gen/slow_normal_json.txt").read_text()
    assert "write: IOPS=2, BW=12.0KiB/s (12.3kB/s)(36.0KiB/3001msec)" in text
    assert "issued rwts: total=0,9,0,0" in text and '"iops" : 2.999000' in text

    def iops(fmt):
        df = es.frame(fio.parse(text, "x", format=fmt).records)
        return df.loc[(df["metric"] == "iops") & (df["op"] == "write"), "value"].tolist()

    assert iops("normal") == [pytest.approx(9 / 3.001, rel=1e-12)]
    assert iops("json") == [pytest.approx(iops("normal")[0], abs=5e-7)]  # (6 decimals)


def test_a_printed_iops_that_disagrees_with_its_count_is_kept():
    """Only a quotient that the printed figure rounds: a count or runtime that is not what fio
    divided (a hand-edited report) leaves the printed IOPS as it is."""
    text = fixture("fio", "gen/slow_normal_json.txt").read_text()
    normal = text[text.index("slow: (groupid=0"):]
    edited = normal.replace("issued rwts: total=0,9,0,0", "issued rwts: total=0,90,0,0")
    df = es.frame(fio.parse(edited, "x", format="normal").records)
    assert df.loc[(df["metric"] == "iops") & (df["op"] == "write"), "value"].tolist() == [2.0]
    df = es.frame(fio.parse(normal, "x", format="normal").records)
    assert df.loc[(df["metric"] == "iops") & (df["op"] == "write"), "value"].tolist() == [
        pytest.approx(2.999, abs=5e-7)]


# ------------------------------------------------- bits, the sync block, a stopped run (fio 3.33)

def _normal_part(name: str) -> str:
    """The normal text of a ``--output-format=normal,json`` fixture (fio 3.33 writes the JSON
    first, then the text from the job's ``name: (groupid=…`` line on)."""
    text = fixture("fio", "gen", name).read_text()
    end = text.index("\n}\n") + 3  # the JSON document's end
    return text[:text.index("{")] + text[end:]


def test_normal_rates_in_bits():
    # --unit_base=1: "read: IOPS=42.5k, BW=1328Mibit/s (1393Mbit/s)(166MiB/1001msec)"
    p = fio.parse(_normal_part("bits_normal_json.txt"), "bits.txt", format="normal")
    assert _value(p, "read", "bandwidth") == 1328 * MiB / 8  # Mibit/s: 2^20 bits, an eighth
    assert _value(p, "read", "io_bytes") == 166 * MiB
    assert _value(p, "read", "iops") == pytest.approx(42_549 / 1.001)  # issued / runtime
    # the JSON of the same run: bw_bytes 174,106,597 B/s, printed to 4 digits as 1328 Mibit/s
    js = es.read(fixture("fio", "gen", "bits_normal_json.txt"))
    bw = js.loc[(js["op"] == "read") & (js["metric"] == "bandwidth"), "value"].item()
    assert bw == 174_106_597 and abs(1328 * MiB / 8 / bw - 1) < 0.0005


def test_normal_rates_in_bits_fio_2():
    # fio 2.x with --unit_base=1 prints "bw=958205Kbit/s" (K = 1024 bits, as 2.x KB is KiB): a
    # 2.x line of the small 2.0.5 fixture respelled in its bits
    text = fixture("fio", "f205_small_normal.txt").read_text()
    line = next(ln for ln in text.splitlines() if ln.lstrip().startswith(("read :", "write:")))
    kb = int(line.split("bw=")[1].split("KB/s")[0])
    p = fio.parse(text.replace(f"bw={kb}KB/s", f"bw={kb * 8}Kbit/s"), "b.txt", format="normal")
    q = fio.parse(text, "b.txt", format="normal")
    assert [r["value"] for r in _rows(p, metric="bandwidth")] == [
        r["value"] for r in _rows(q, metric="bandwidth")]


def test_normal_direction_line_not_understood_is_said():
    # a summary line in a unit no fio prints: its rates are left out, and the notes say so
    text = _normal_part("bits_normal_json.txt").replace("Mibit/s (1393", "Mibyte/s (1393")
    p = fio.parse(text, "x.txt", format="normal")
    assert not _rows(p, metric="bandwidth", op="read")
    assert _rows(p, metric="clat_mean", op="read")  # the direction's other lines still read
    assert any(n.startswith("line ") and "does not read" in n for n in p.notes)


def test_normal_sync_block_as_the_json():
    # "fsync/fdatasync/sync_file_range:" then "sync (usec): min=147, max=7972, avg=2361.55,
    # stdev=1913.47" and its percentiles: op sync, lat_*, as the JSON's "sync" object gives them
    p = fio.parse(_normal_part("fsync_normal_json.txt"), "f.txt", format="normal")
    assert _value(p, "sync", "lat_min") == pytest.approx(147e-6)
    assert _value(p, "sync", "lat_mean") == pytest.approx(2361.55e-6)
    assert _value(p, "sync", "lat_p99") == pytest.approx(7767e-6)  # "99.00th=[ 7767]"
    assert _value(p, "sync", "total_ios") == 424  # "issued rwts: total=0,424,0,424"
    assert not _rows(p, op="sync", metric="iops")  # (a sync block has no rates)
    js = es.read(fixture("fio", "gen", "fsync_normal_json.txt"))
    sync = js[js["op"] == "sync"].set_index("metric")["value"]
    text = {r["metric"]: r["value"] for r in _rows(p, op="sync")}
    assert set(text) == set(sync.index)
    for metric, v in text.items():  # the text rounds to its printed digits
        assert v == pytest.approx(sync[metric], rel=0.005), metric


@pytest.mark.parametrize("name", ["sigint.json", "sigint_normal.txt"])
def test_run_stopped_on_a_signal_is_flagged(name):
    # "fio: terminating on signal 2": a 10 s job stopped after ~2.1 s; its rows are kept,
    # flagged interrupted, left out by select() and named in summarize()'s warning
    df = es.read(fixture("fio", "gen", name))
    assert set(df["flag"]) == {"interrupted"} and len(df) > 0
    runtime = df.loc[(df["op"] == "read") & (df["metric"] == "runtime"), "value"].item()
    assert runtime == pytest.approx(2.167 if name.endswith("json") else 2.138)
    assert es.select(df, metric="iops").empty
    s = es.summarize(df[df["metric"] == "iops"], by=["op"])
    assert "stopped on a signal" in s["warning"].iloc[0]
    p = fio.parse(fixture("fio", "gen", name).read_text(), name)
    assert any("signal 2" in n and "interrupted" in n for n in p.notes)


def test_a_job_file_section_line_amid_the_percentiles_is_skipped_and_said():
    """kangeek/fio-bench-disks-ceph printed a "[global]" line (its job file's) between "clat
    percentiles (usec):" and the rows: all 17 percentiles were lost without a word. The
    genuine small_normal.txt with that line put after its line 10 (an edit made here, in
    memory): the 17 rows as without it ("1.00th=[   50]" ... "99.99th=[ 1532]"), and a note."""
    text = _small_normal()
    lines = text.splitlines(keepends=True)
    assert lines[9].strip() == "clat percentiles (usec):"
    edited = "".join(lines[:10] + ["[global]\n"] + lines[10:])
    plain, got = fio.parse(text, "a.txt"), fio.parse(edited, "a.txt")
    pct = [(r["metric"], r["value"]) for r in got.records if r["metric"].startswith("clat_p")]
    assert len(pct) == 17 and pct == [(r["metric"], r["value"]) for r in plain.records
                                      if r["metric"].startswith("clat_p")]
    assert pct[0] == ("clat_p1", pytest.approx(50e-6)) and pct[-1] == ("clat_p99.99",
                                                                     pytest.approx(1532e-6))
    assert "line 11: '[global]' inside a percentiles block: skipped, the block read on" in (
        got.notes)


def test_a_terse_record_run_into_the_status_line_is_read():
    """A terminal log of terse,normal output that lost its carriage returns (made with fio
    3.33 under ``script``, ``tr -d '\\r'``: MANIFEST row), as hikalium/bench's: line 7 is
    fio's status "Jobs: 1 (f=1): [...][eta ...]" run into the first job's terse record, whose
    job was dropped without a word. Now both jobs: seqread's "3;fio-3.33;seqread;0;0;
    2870272;1432986;1399;2003" is 1,432,986 KiB/s, 1,399 IOPS over 2.003 s."""
    text = fixture("fio", "gen/terse_after_status_tty.txt").read_text()
    assert text.splitlines()[6].startswith("Jobs: 1 (f=1)")
    p = fio.parse(text, "tty.txt")
    assert p.format == "terse" and {r["test"] for r in p.records} == {"seqread", "seqwrite"}
    read = {r["metric"]: r["value"] for r in _rows(p, test="seqread", op="read")}
    assert read["bandwidth"] == 1432986 * 1024 and read["iops"] == 1399
    assert read["runtime"] == pytest.approx(2.003)


def test_terse_rows_take_the_options_of_their_job_line():
    """With ``--output-format=terse,normal`` fio prints each job's line ("seqread: (g=0):
    rw=read, bs=(R) 1024KiB-1024KiB, ..., ioengine=psync, iodepth=1") before the terse
    records, which hold none of these: the rows had no workload, block size nor queue depth
    (the normal report of the same run had them). Each terse job now takes the last job line
    of its name before it (runs appended to one file: each run its own options)."""
    text = fixture("fio", "gen/terse_after_status_tty.txt").read_text()
    p = fio.parse(text, "tty.txt")
    for test, workload, rw in (("seqread", "seqread", "read"), ("seqwrite", "seqwrite", "write")):
        rows = _rows(p, test=test)
        assert {r["workload"] for r in rows} == {workload} and {r["rw"] for r in rows} == {rw}
        assert {r["iodepth"] for r in rows} == {1} and {r["ioengine"] for r in rows} == {"psync"}
        assert {r.get("block_size") for r in rows} == {1024 * 1024}  # 1024KiB, every op
    # the same job again, appended with other options: each run its own
    again = text.replace("rw=read, bs=(R) 1024KiB-1024KiB", "rw=randread, bs=(R) 4096B-4096B")
    p2 = fio.parse(text + again, "two.txt")
    reads = [r for r in p2.records if r["test"] == "seqread" and r["op"] == "read"
             and r["metric"] == "iops"]
    assert [(r["workload"], r["block_size"]) for r in reads] == [("seqread", 1048576),
                                                                 ("randread", 4096)]
    # pure terse (no job line printed): as before, no options
    plain = fio.parse(fixture("fio", "small_terse_v3.txt").read_text(), "t.txt")
    assert not any("workload" in r for r in plain.records)


def test_fio_2_17_to_3_3_issued_rwt_line_gives_total_ios_and_exact_iops():
    """fio 2.17 to 3.3 print ``issued rwt: total=r,w,t`` (three counts; 3.4+ ``issued rwts:``
    with four, 2.16 and older ``issued : total=r=…/w=…``): the reader matched neither, so fio
    3.1's reports (Ubuntu 18.04's fio; chris-sanders/ceph-fio-results) had no ``total_ios``
    and kept the rounded IOPS. tests/fixtures/fio/gen/f31_randrw_normal.txt is made here by fio
    3.1 built from its tag (tests/fixtures/make_fio31_fixtures.sh)."""
    text = fixture("fio", "gen/f31_randrw_normal.txt").read_text()
    assert "issued rwt: total=18373,18393,0, short=0,0,0" in text
    assert "read: IOPS=9181," in text and "write: IOPS=9191," in text and "2001msec" in text
    df = es.read(fixture("fio", "gen/f31_randrw_normal.txt"))

    def one(metric, op):
        return df.loc[(df["metric"] == metric) & (df["op"] == op), "value"].item()

    assert one("total_ios", "read") == 18373 and one("total_ios", "write") == 18393
    assert one("iops", "read") == pytest.approx(18373 / 2.001, rel=1e-12)  # 9181.9090…
    assert one("iops", "write") == pytest.approx(18393 / 2.001, rel=1e-12)  # 9191.9040…


def test_iops_from_10k_printed_from_the_cut_quotient_is_refined():
    """From 10,000 IOPS fio prints its integer quotient to three digits: rawstor/rawstor_bench's
    fio-3.40 ``IOPS=10.1k`` for ``issued rwts: total=101514`` in 10,001 ms: fio's 10,150 (cut
    from 10,150.38) printed as ``10.1``, 50.38 from the quotient, beyond the half unit (50)
    the refinement allowed; the JSON report of the same run says 10150.384962."""
    from ebsstats.io.fio.normal import _exact_iops

    rows = [("read", 3, "iops", 10100.0), ("read", 3, "runtime", 10.001),
            ("read", 21, "total_ios", 101514.0)]
    _exact_iops(rows)
    assert rows[0][3] == pytest.approx(10150.384962, abs=1e-6)
    # a count that is not the one fio divided still leaves the printed figure
    rows = [("read", 3, "iops", 10100.0), ("read", 3, "runtime", 10.001),
            ("read", 21, "total_ios", 101530.0)]  # 10,151.98: 51.98 away
    _exact_iops(rows)
    assert rows[0][3] == 10100.0


def test_fio_3_1_json_reads():
    """fio 3.1's JSON (the same build): ``"bw" : 74094`` KiB/s -> 75,872,256 B/s, ``"iops" :
    18523.738131``, ``"total_ios" : 37066`` in ``"runtime" : 2001`` ms."""
    df = es.read(fixture("fio", "gen/f31_randread.json"))
    got = dict(zip(df["metric"], df["value"], strict=False))
    assert got["bandwidth"] == 74094 * 1024 and got["iops"] == pytest.approx(18523.738131)
    assert got["total_ios"] == 37066 and got["runtime"] == pytest.approx(2.001)
    assert set(df["tool_version"]) == {"fio-3.1"}


def test_bw_agg_before_fio_2_1_8_is_left_out_with_a_note():
    """fio before 2.1.8 wrote a direction's mean bandwidth (KiB/s) as the JSON's ``bw_agg``
    (fio commit a806bf2e): PerfKit Benchmarker's fio-2.1.4 sample read as 63,936.8 %. Such rows
    are left out with a note; from 2.1.8 on the share is kept. The fio 2.1.7 and 2.1.10 builds
    here take no bandwidth samples on this VM (``"bw_mean" : 0.00``: no such rows at all), so
    the rule is shown on fio 2.1.10's report given samples as fio 2.1.4 writes them: its read
    ``bw_min``/``bw_max``/``bw_mean`` 380,000/395,000/387,701 KiB/s, ``bw_agg`` the same mean."""
    old = es.read(fixture("fio", "gen/f217_randrw.json"))  # (fio 2.1.7's JSON reads)
    assert set(old["tool_version"]) == {"fio-2.1.7"}
    text = fixture("fio", "gen/f217_randrw.json").read_text()
    assert old.loc[(old["metric"] == "bandwidth") & (old["op"] == "read"), "value"].item() == (
        int(re.search(r'"bw" : (\d+)', text)[1]) * 1024)
    text = fixture("fio", "f2110_small_json.json").read_text()
    sampled = text.replace('"bw_min" : 0,\n        "bw_max" : 0,\n        "bw_agg" : 0.00,\n'
                           '        "bw_mean" : 0.00,',
                           '"bw_min" : 380000,\n        "bw_max" : 395000,\n        "bw_agg" : '
                           '{agg},\n        "bw_mean" : 387701.00,', 1)
    assert sampled != text

    def parsed(version, agg):
        p = fio.parse(sampled.replace("fio-2.1.10", version).replace("{agg}", agg), "x.json")
        return es.frame(p.records), p.notes

    df, notes = parsed("fio-2.1.10", "100.00")  # the share, as 2.1.8+ write it
    assert df.loc[df["metric"] == "bw_agg", "value"].tolist() == [100.0]
    assert df.loc[df["metric"] == "bandwidth_mean", "value"].item() == 387701 * 1024
    df, notes = parsed("fio-2.1.4", "387701.00")
    assert "bw_agg" not in set(df["metric"]) and "bandwidth_mean" in set(df["metric"])
    assert any("fio-2.1.4 writes the mean bandwidth (KiB/s) as bw_agg" in n for n in notes)


def test_each_stonewalled_job_starts_at_its_job_start():
    """fio's ``elapsed`` is whole seconds since fio started (``mtime_since_genesis``, rounded
    up), the same for every job of a report: a second job stonewalled behind the first was
    dated at fio's start (rawstor_bench: both jobs 10:39:06.858, the second began at 17.678).
    fio 3.36+ print each job's ``job_start`` (ms since the epoch), which is now its start.
    f336_stonewall.json is made here by fio 3.36 built from its tag."""
    text = fixture("fio", "gen/f336_stonewall.json").read_text()
    assert '"job_start" : 1795811516317' in text and '"job_start" : 1795811518521' in text
    assert text.count('"elapsed" : 5,') == 2 and '"timestamp_ms" : 1795811520533' in text
    df = es.read(fixture("fio", "gen/f336_stonewall.json"))
    start = df.groupby("job")["timestamp"].first()
    assert start["f336-first"] == pd.Timestamp(1795811516317, unit="ms", tz="UTC")
    assert start["f336-second"] == pd.Timestamp(1795811518521, unit="ms", tz="UTC")
    # without job_start (fio before 3.36): the report's end minus elapsed, for both
    old = es.frame(fio.parse(re.sub(r'\n\s*"job_start" : \d+,', "", text), "x.json").records)
    assert set(old["timestamp"]) == {pd.Timestamp(1795811520533 - 5000, unit="ms", tz="UTC")}


def test_fio_1_57_issued_line_gives_total_ios_and_exact_iops():
    """fio 1.x prints ``issued r/w/d: total=20001/0/0`` (terryma/ebs-benchmarking's 389 EBS
    reports of fio 1.55/1.57 had no ``total_ios``). f157_randread_normal.txt is made here by fio
    1.57 built from its tag: ``iops=9995`` is 20,001 I/Os over 2,001 ms cut to an integer;
    ``bw=39982KB/s`` is KiB/s (x 1,024)."""
    text = fixture("fio", "gen/f157_randread_normal.txt").read_text()
    assert "issued r/w/d: total=20001/0/0" in text and "iops=9995 , runt=  2001msec" in text
    df = es.read(fixture("fio", "gen/f157_randread_normal.txt"))
    got = dict(zip(df["metric"], df["value"], strict=False))
    assert got["total_ios"] == 20001
    assert got["iops"] == pytest.approx(20001 / 2.001, rel=1e-12)  # 9995.0025…
    assert got["bandwidth"] == 39982 * 1024


def test_a_job_run_again_in_one_file_takes_its_own_header():
    """A wrapper loop runs one job at 4k, then 64k, appending fio's normal reports to one file
    (jharriga/fiotest's 4K/64K/512K, GijsVermarien's two runs): the second run kept the first
    one's header (bs 4096 for 64 KiB I/Os, and its rw/iodepth/ioengine). Fixture made here
    (make_fio_fixtures.sh): headers on lines 2 (4096B) and 35 (64.0KiB)."""
    import ebsstats as es
    from tests.conftest import FIXTURES

    df = es.read(FIXTURES / "fio" / "gen" / "appended_bs_normal.txt")
    line = df["position"].str.extract(r"line (\d+)", expand=False).astype(int)
    first = df.assign(line=line).groupby("run_id", observed=True)["line"].min().sort_values()
    bs = df.groupby("run_id", observed=True)["block_size"].unique()
    assert [list(bs[r]) for r in first.index] == [[4096], [65536]]
    io = df[df.metric.isin(["io_bytes", "total_ios"])].pivot_table(
        index="run_id", columns="metric", values="value", observed=True)
    # (io_bytes as printed, "64.3MiB": the size of an I/O within 0.1 %)
    assert (io["io_bytes"] / io["total_ios"]).loc[first.index].tolist() == pytest.approx(
        [4096.0, 65536.0], rel=1e-3)


def test_normal_text_start_is_the_printed_time_less_the_runtime():
    """fio prints each job's report with the time it printed it (stat.c: time() and ctime_r,
    local time without a zone, read as UTC as PTS's TimeStamp is); the run started one runtime
    before. fio 2.0 printed no time: NaT."""
    import ebsstats as es
    from tests.conftest import FIXTURES

    df = es.read(FIXTURES / "fio" / "gen" / "appended_bs_normal.txt")
    line = df["position"].str.extract(r"line (\d+)", expand=False).astype(int)
    starts = df.assign(line=line).groupby("run_id", observed=True).agg(
        line=("line", "min"), ts=("timestamp", "first")).sort_values("line")["ts"]
    # line 7 "Fri Nov 27 23:12:43 2026" and line 39 "... 23:12:45 2026", each 1001msec
    assert starts.tolist() == [pd.Timestamp("2026-11-27 23:12:42", tz="UTC"),
                               pd.Timestamp("2026-11-27 23:12:44", tz="UTC")]
    old = es.read(FIXTURES / "fio" / "f205_small_normal.txt")  # "pid=29612" and no time
    assert old["timestamp"].isna().all()
    # the error form "err= 5 (file:io_u.c:1889, func=io_u error, error=...): pid=..: <time>"
    from ebsstats.io.fio.normal import _printed_at

    got = _printed_at("j: (groupid=0, jobs=1): err= 5 (file:io_u.c:1889, func=io_u error, "
                      "error=Input/output error): pid=77: Mon Feb  2 01:02:03 2026\n")
    assert got == pd.Timestamp("2026-02-02 01:02:03", tz="UTC")
    assert _printed_at("j: (groupid=0, jobs=1): err= 0: pid=7: Mon Feb 30 01:02:03 2026") is None
