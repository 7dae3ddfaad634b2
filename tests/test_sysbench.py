"""sysbench reader: every genuine sample, the extra genuine fixtures made by
tests/fixtures/make_sysbench_fixtures.sh (Debian sysbench 1.0.20), and inputs constructed from
the documented formats for the families that cannot be run here (0.4.12 release, master/1.1,
OLTP without a database server).

Expected values are read by hand off the raw files; each comment says the conversion
(MiB = 2**20 bytes, ms = 1e-3 s).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.errors import ParseError
from ebsstats.io import sysbench as sb
from tests.conftest import FIXTURES, fixture, tree_digest

MiB = 2**20
GiB = 2**30
ALL = sorted(p for p in (FIXTURES / "sysbench").iterdir() if p.is_file())
FAILING = {"sb1.0_fileio_noprepare.txt", "sb1.0_fileio_invalid_option.txt"}


def read(name, **kw):
    return es.read_sysbench(fixture("sysbench", name), **kw)


def one(df, metric, op="total", **where):
    sel = (df["metric"] == metric) & (df["op"] == op)
    for k, v in where.items():
        sel &= df[k] == v
    rows = df[sel]
    assert len(rows) == 1, (metric, op, where, len(rows))
    return float(rows["value"].iloc[0])


def approx(x):
    return pytest.approx(x, rel=1e-12, abs=1e-15)


# ----------------------------------------------------------------------------- 1.0 fileio

def test_fileio_10_rndrw_all_metrics_and_options():
    df = read("sb_fileio_rndrw_t1_run.txt")
    es.validate(df)
    assert one(df, "iops", "read") == approx(33489.30)  # "reads/s: 33489.30"
    assert one(df, "iops", "write") == approx(22326.20)  # "writes/s: 22326.20"
    assert one(df, "iops", "sync") == approx(2233.75)  # "fsyncs/s: 2233.75"
    assert one(df, "bandwidth", "read") == approx(523.27 * MiB)  # "read, MiB/s: 523.27"
    assert one(df, "bandwidth", "write") == approx(348.85 * MiB)  # = 365794918.4 B/s
    assert one(df, "runtime") == approx(3.0006)  # "total time: 3.0006s"
    assert one(df, "events") == 174215  # "total number of events: 174215"
    # "min: 0.00" (ms): under the 0.005 ms two decimals show, never a time of zero
    lat_min = df[df.metric == "lat_min"].iloc[0]
    assert np.isnan(lat_min.value) and lat_min.flag == "too_fast" and lat_min.position == "line 37"
    assert df.loc[df.metric != "lat_min", "flag"].isna().all()
    assert one(df, "lat_mean") == approx(0.02e-3)  # "avg: 0.02" ms
    assert one(df, "lat_max") == approx(4.69e-3)  # "max: 4.69" ms
    assert one(df, "lat_p95") == approx(0.01e-3)  # "95th percentile: 0.01" ms
    assert len(df) == 11 and df["run_id"].nunique() == 1
    r = df.iloc[0]
    assert (r.tool, r.tool_version, r.test, r.workload) == ("sysbench", "1.0.20", "rndrw", "randrw")
    assert (r.block_size, r.threads, r.repetition) == (16384, 1, 0)  # "Block size 16KiB"
    assert pd.isna(r.timestamp)  # sysbench prints no time
    assert r.file_total_size == "67108864"  # "64MiB total file size"
    assert (r.file_num, r.io_mode, r.extra_flags, r.format) == ("4", "sync", "none", "1.0")
    assert (r.fsync_freq, r.fsync_end, r.fsync_all, r.rw_ratio) == ("100", "on", "off", "1.50")
    assert df.loc[df.metric == "iops", "unit"].astype(str).unique().tolist() == ["IO/s"]
    assert df.loc[df.metric == "lat_mean", "position"].item() == "line 38"  # "avg: 0.02"


@pytest.mark.parametrize("name, test, workload, threads, iops", [
    # (file, mode, workload, "Number of threads", {op: value from "reads/s" etc.})
    ("sb_fileio_rndrd_t1_run.txt", "rndrd", "randread", 1, {"read": 418207.11}),
    ("sb_fileio_rndrd_t4_run.txt", "rndrd", "randread", 4, {"read": 428378.49}),
    ("sb_fileio_rndwr_t1_run.txt", "rndwr", "randwrite", 1, {"write": 6989.80, "sync": 280.92}),
    ("sb_fileio_seqrd_t1_run.txt", "seqrd", "seqread", 1, {"read": 458088.45}),
    ("sb_fileio_seqwr_t1_run.txt", "seqwr", "seqwrite", 1, {"write": 42410.64, "sync": 1696.76}),
    ("sb1.0_fileio_seqrewr_legacy.txt", "seqrewr", "rewrite", 2,
     {"write": 44465.54, "sync": 892.30}),
    ("sb1.0_fileio_seqrd_mmap.txt", "seqrd", "seqread", 1, {"read": 1731481.21}),
])
def test_fileio_10_modes(name, test, workload, threads, iops):
    df = read(name)
    es.validate(df)
    assert set(df["test"]) == {test} and set(df["workload"].astype(str)) == {workload}
    assert set(df["threads"]) == {threads}
    got = {r.op: r.value for r in df[df.metric == "iops"].itertuples()}
    assert got == {k: approx(v) for k, v in iops.items()}  # ops the mode does not do are left out


def test_fileio_10_rndrd_values_and_bandwidth():
    df = read("sb_fileio_rndrd_t1_run.txt")
    assert one(df, "bandwidth", "read") == approx(6534.49 * MiB)  # "read, MiB/s: 6534.49"
    assert one(df, "lat_max") == approx(4.06e-3)  # "max: 4.06" ms
    assert one(df, "events") == 1255564
    assert set(df["op"].astype(str)) == {"read", "total"}  # no zero write/fsync rows


def test_histogram_percentile_and_flags_variants():
    h = read("sb1.0_fileio_rndrw_histogram.txt")  # histogram table before the summary is skipped
    assert one(h, "iops", "read") == approx(28960.48)
    assert one(h, "iops", "sync") == approx(966.35)
    assert one(h, "lat_max") == approx(2.73e-3)
    p99 = read("sb1.0_fileio_rndrd_p99.txt")  # "99th percentile: 0.00"
    assert "lat_p99" in set(p99["metric"]) and "lat_p95" not in set(p99["metric"])
    assert np.isnan(one(p99, "lat_p99"))  # printed as 0.00: flagged too_fast
    assert one(p99, "bandwidth", "read") == approx(10480.98 * MiB)
    p0 = read("sb1.0_fileio_rndwr_p0.txt")  # "percentile stats: disabled" -> no percentile row
    assert not any(m.startswith("lat_p") for m in p0["metric"].astype(str))
    assert set(p0["percentile"]) == {"disabled"}
    assert one(p0, "bandwidth", "write") == approx(483.73 * MiB)
    d = read("sb1.0_fileio_rndrd_direct.txt")  # "Extra file open flags: directio"
    assert set(d["extra_flags"]) == {"directio"}
    assert one(d, "iops", "read") == approx(24229.25)
    assert one(d, "lat_mean") == approx(0.04e-3)  # "avg: 0.04" ms
    a = read("sb1.0_fileio_rndrw_async.txt")  # "Using asynchronous I/O mode"
    assert set(a["io_mode"]) == {"async"} and one(a, "iops", "write") == approx(24748.81)
    m = read("sb1.0_fileio_seqrd_mmap.txt")  # "Using fast mmaped I/O mode"
    assert set(m["io_mode"]) == {"mmap"}
    f = read("sb1.0_fileio_rndwr_fsyncall.txt")
    # no "Periodic FSYNC" line, no "at the end" line, "after each write operation", ratio 2.00
    assert (f.fsync_freq[0], f.fsync_end[0], f.fsync_all[0], f.rw_ratio[0]) == (
        "0", "off", "on", "2.00")
    assert one(f, "iops", "sync") == approx(6500.63)


def test_verbosity_and_debug_lines_are_skipped():
    v = read("sb1.0_fileio_rndrd_verbosity5.txt")
    assert one(v, "iops", "read") == approx(645745.48) and one(v, "events") == 646300
    d = read("sb1.0_fileio_rndrd_debug.txt")  # DEBUG: lines, "Debug mode enabled."
    assert one(d, "iops", "read") == approx(5798.67)
    assert one(d, "bandwidth", "read") == approx(90.60 * MiB)
    assert one(d, "events") == 6 and one(d, "runtime") == approx(0.0001)
    assert set(d["threads"]) == {2}


def test_legacy_options_warnings_kept_in_notes():
    p = sb.parse(fixture("sysbench", "sb1.0_fileio_seqrewr_legacy.txt").read_text(), "legacy")
    assert len(p.notes) == 4 and p.notes[0].startswith("line 1: WARNING: the --test option")
    assert "--max-time is deprecated" in p.notes[2]
    assert p.notes[3].startswith("lat_min (line 38) printed as zero")  # "min: 0.00" (ms)
    assert {r["test"] for r in p.records} == {"seqrewr"}


# ----------------------------------------------------------------------------- 0.4 / 0.5

def test_fileio_04_branch():
    df = read("sb0.4_fileio_rndrw_t1.txt")
    es.validate(df)
    assert set(df["format"]) == {"0.4"} and set(df["tool_version"]) == {"0.4.12"}
    # "Operations performed:  98700 reads, 65800 writes, 6578 Other = 171078 Total"
    assert one(df, "total_ios", "read") == 98700
    assert one(df, "total_ios", "write") == 65800
    assert one(df, "total_ios", "sync") == 6578
    # "Read 1.506Gb  Written 1.004Gb  Total transferred 2.5101Gb  (856.72Mb/sec)": binary units
    assert one(df, "io_bytes", "read") == approx(1.506 * GiB)
    assert one(df, "io_bytes", "write") == approx(1.004 * GiB)
    assert one(df, "bandwidth", "total") == approx(856.72 * MiB)
    assert one(df, "iops", "total") == approx(54830.04)  # "54830.04 Requests/sec executed"
    assert one(df, "runtime") == approx(3.0002) and one(df, "events") == 164500
    assert one(df, "lat_max") == approx(0.19e-3)  # "max: 0.19ms"
    # "min: 0.00ms", "avg: 0.00ms", "approx.  95 percentile: 0.00ms": too fast for 0.4's two
    # decimals of a millisecond
    for metric in ("lat_min", "lat_mean", "lat_p95"):
        assert np.isnan(one(df, metric)), metric
    assert sorted(df.loc[df.flag == "too_fast", "metric"].astype(str)) == [
        "lat_mean", "lat_min", "lat_p95"]
    assert set(df["file_total_size"]) == {str(64 * MiB)}  # "64Mb total file size"
    assert set(df["block_size"]) == {16384}  # "Block size 16Kb"
    assert set(df["extra_flags"]) == {"none"}  # "Extra file open flags: 0"


def test_fileio_05():
    df = read("sb0.5_fileio_rndrw_t1.txt")
    assert set(df["format"]) == {"0.5"} and set(df["tool_version"]) == {"0.5"}
    assert one(df, "io_bytes", "write") == approx(781.91 * MiB)  # "Written 781.91Mb"
    assert one(df, "bandwidth") == approx(651.57 * MiB)  # "(651.57Mb/sec)"
    assert one(df, "iops") == approx(41700.31)
    assert one(df, "runtime") == approx(3.0001) and one(df, "events") == 125104


def test_report_interval_05_series():
    df, ts = read("sb0.5_fileio_rndwr_ri.txt", series=True)
    es.validate(df)
    es.validate_series(ts)
    assert set(ts["run_id"]) == set(df["run_id"])
    # rndwr: the "reads: 0.00 MB/s" column is left out
    assert sorted(set(ts["metric"].astype(str))) == ["bandwidth", "iops", "lat_p95"]
    assert ts["t"].unique().tolist() == [1.0, 2.0, 3.0]
    first = ts[ts.t == 1.0].set_index("metric")["value"]
    assert first["bandwidth"] == approx(445.65 * MiB)  # "writes: 445.65 MB/s" (MB = 2**20)
    assert first["iops"] == approx(1139.87)  # "fsyncs: 1139.87/s" -> op sync
    assert first["lat_p95"] == approx(0.005e-3)  # "response time: 0.005ms (95%)"
    assert set(ts.loc[ts.metric == "iops", "op"]) == {"sync"}
    # results: "Read 0b  Written 1.5745Gb ... (403.07Mb/sec)"
    assert one(df, "bandwidth") == approx(403.07 * MiB)
    assert one(df, "io_bytes", "write") == approx(1.5745 * GiB)


def test_report_interval_10_series():
    df, ts = read("sb_fileio_rndrw_report_interval.txt", series=True)
    es.validate_series(ts)
    assert len(ts) == 16 and ts["t"].unique().tolist() == [1.0, 2.0, 3.0, 4.0]
    assert ts["run_id"].unique().tolist() == df["run_id"].unique().tolist()
    t1 = ts[ts.t == 1.0]
    # "[ 1s ] reads: 575.52 MiB/s writes: 383.67 MiB/s fsyncs: 2454.07/s latency (ms,95%): 0.018"
    assert one(t1, "bandwidth", "read") == approx(575.52 * MiB)
    assert one(t1, "bandwidth", "write") == approx(383.67 * MiB)
    assert one(t1, "iops", "sync") == approx(2454.07)
    assert one(t1, "lat_p95") == approx(0.018e-3)
    assert set(t1["unit"].astype(str)) == {"B/s", "IO/s", "s"}
    assert set(ts["block_size"]) == {16384} and set(ts["test"]) == {"rndrw"}
    t4 = ts[ts.t == 4.0]
    assert one(t4, "bandwidth", "write") == approx(381.86 * MiB)
    assert one(df, "iops", "read") == approx(35627.62) and set(df["threads"]) == {2}

    df2, ts2 = read("sb1.0_fileio_rndrw_ri_t2.txt", series=True)
    assert len(ts2) == 12  # 3 lines x 4 metrics
    assert one(ts2[ts2.t == 3.0], "bandwidth", "read") == approx(539.05 * MiB)


# ----------------------------------------------------------------------------- failures

def test_fatal_without_prepare_raises_with_sysbench_message():
    with pytest.raises(ParseError) as ei:
        read("sb1.0_fileio_noprepare.txt")
    e = ei.value
    assert e.position == "line 18"
    assert e.found.startswith("FATAL: Cannot open file 'test_file.0' errno = 2")
    assert "Did you forget to run the prepare step?" in str(e)


def test_invalid_option_raises():
    with pytest.raises(ParseError) as ei:
        read("sb1.0_fileio_invalid_option.txt")
    assert ei.value.position == "line 5" and ei.value.found == "invalid option: --init-rng=on"


def test_truncated_and_foreign_outputs_raise():
    text = fixture("sysbench", "sb_fileio_rndrw_t1_run.txt").read_text().splitlines()
    cut = "\n".join(text[:22]) + "\n"  # ends at "Threads started!"
    with pytest.raises(ParseError, match="ends early") as ei:
        sb.parse(cut, "cut.txt")
    assert ei.value.position == "line 20"  # "Threads started!"
    no_fsync = "\n".join(line for line in text if "fsyncs/s" not in line)
    with pytest.raises(ParseError, match="fsyncs/s"):
        sb.parse(no_fsync, "nofsync.txt")
    with pytest.raises(ParseError, match="sysbench banner") as ei:
        sb.parse("fio-3.33\nsomething else\n", "x.txt")
    assert ei.value.position == "line 1"
    with pytest.raises(ParseError):
        sb.parse("", "empty.txt")


# ----------------------------------------------------------------------------- prepare / cleanup

def test_prepare_gives_first_write_rate():
    df = read("sb_fileio_rndrw_t1_prepare.txt")
    es.validate(df)
    # "67108864 bytes written in 0.12 seconds (533.81 MiB/sec)."
    assert one(df, "bandwidth", "write") == approx(533.81 * MiB)
    assert one(df, "io_bytes", "write") == 67108864
    assert one(df, "runtime", "write") == approx(0.12)
    assert set(df["test"]) == {"prepare"} and set(df["workload"].astype(str)) == {"seqwrite"}
    assert df["flag"].isna().all() and df["block_size"].isna().all()
    # "4 files, 16384Kb each, 64Mb total": 4 * 16384 KiB
    assert set(df["file_num"]) == {"4"} and set(df["file_total_size"]) == {"67108864"}
    assert one(read("sb_fileio_seqwr_t1_prepare.txt"), "bandwidth", "write") == approx(
        444.38 * MiB)


def test_cleanup_gives_no_rows():
    p = sb.parse(fixture("sysbench", "sb_fileio_rndrw_t1_cleanup.txt").read_text(), "c")
    assert p.records == [] and p.series == []
    df = read("sb_fileio_rndrw_t1_cleanup.txt")
    assert len(df) == 0
    es.validate(df)


# ----------------------------------------------------------------------------- multi-run, PARAMS

def test_loop_appended_runs_are_split_with_repetitions():
    df = read("sb1.0_fileio_loop.txt")
    es.validate(df)
    runs = df.drop_duplicates("run_id")
    assert len(runs) == 4
    iops = df[df.metric == "iops"]  # rows come in file order
    # banners at lines 1, 47, 93, 139; 3 runs with --threads=1 then one with --threads=2
    assert iops["value"].tolist() == [approx(v) for v in (600665.59, 424715.49, 471659.08,
                                                          374141.06)]
    assert iops["threads"].tolist() == [1, 1, 1, 2]
    assert iops["repetition"].tolist() == [0, 1, 2, 0]
    assert iops["run_id"].tolist() == [es.schema.run_id(str(fixture("sysbench",
                                                                    "sb1.0_fileio_loop.txt")),
                                                        f"line {n}") for n in (1, 47, 93, 139)]


def test_seed_style_file_name_and_params_line():
    name = "sysbench-size-8M-mode-rndrd-threads-2"
    p = sb.parse(fixture("sysbench", name).read_text(), name)
    assert len([n for n in p.notes if "WARNING" in n]) == 4
    df = read(name)
    es.validate(df)
    assert set(df["test"]) == {"rndrd"} and set(df["threads"]) == {2}
    assert set(df["extra_flags"]) == {"directio"} and set(df["fsync_freq"]) == {"0"}
    assert set(df["file_total_size"]) == {str(8 * MiB)} and set(df["file_num"]) == {"1"}
    assert one(df, "iops", "read") == approx(22060.28)
    assert one(df, "lat_max") == approx(27.24e-3)
    assert df["run_id"].nunique() == 1 and set(df["position"]) >= {"line 28"}


MINIMAL = """\
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

General statistics:
    total time:                          2.0005s
    total number of events:              2254

Latency (ms):
         min:                                    0.55
         avg:                                    0.89
         max:                                   35.35
         95th percentile:                        0.70
"""


def test_params_and_name_fill_what_the_output_does_not_say():
    # an output that echoes no options (trimmed log) under seed 001's naming
    p = sb.parse("PARAMS 16G rndwr 16\n" + MINIMAL, "anything.txt")
    r = p.records[0]
    assert (r["test"], r["workload"], r["threads"]) == ("rndwr", "randwrite", 16)
    assert r["file_total_size"] == 16 * GiB  # "16G"
    p = sb.parse(MINIMAL, "results/sysbench-size-256M-mode-seqrd-threads-4")
    r = p.records[0]
    assert (r["test"], r["threads"], r["file_total_size"]) == ("seqrd", 4, 256 * MiB)
    # the output wins over PARAMS when both say; the disagreement is noted
    text = fixture("sysbench", "sb_fileio_rndrd_t4_run.txt").read_text()
    p = sb.parse("PARAMS 64M rndrd 8\n" + text, "x")
    assert {r["threads"] for r in p.records} == {4}
    assert any("PARAMS says 8 threads" in n for n in p.notes)


# ----------------------------------------------------------------------------- other tests

def test_cpu():
    df = read("sb_cpu.txt")
    es.validate(df)
    assert set(df["test"]) == {"cpu"} and set(df["workload"].astype(str)) == {"other"}
    assert one(df, "ops") == approx(2328.85)  # "events per second:  2328.85"
    assert one(df, "runtime") == approx(3.0060) and one(df, "events") == 7002
    assert one(df, "lat_p95") == approx(0.31e-3) and one(df, "lat_max") == approx(28.30e-3)
    assert set(df["cpu_max_prime"]) == {"10000"}  # "Prime numbers limit: 10000"
    df, ts = read("sb1.0_cpu_ri.txt", series=True)
    es.validate_series(ts)
    # "[ 1s ] thds: 1 eps: 3206.33 lat (ms,95%): 0.33"
    assert one(ts[ts.t == 1.0], "ops") == approx(3206.33)
    assert one(ts[ts.t == 2.0], "lat_p95") == approx(0.31e-3)
    assert set(ts.loc[ts.metric == "ops", "unit"].astype(str)) == {"ops/s"}
    assert one(df, "ops") == approx(3390.25)


def test_memory():
    df = read("sb_memory.txt")
    es.validate(df)
    assert set(df["test"]) == {"memory"} and set(df["block_size"]) == {1024}  # "block size: 1KiB"
    assert one(df, "ops") == approx(5107429.93)  # "(5107429.93 per second)"
    assert one(df, "bandwidth") == approx(4987.72 * MiB)  # "(4987.72 MiB/sec)"
    assert one(df, "io_bytes") == approx(14967.18 * MiB)  # "14967.18 MiB transferred"
    assert set(df["memory_oper"]) == {"write"} and set(df["memory_scope"]) == {"global"}
    df, ts = read("sb1.0_memory_read_ri.txt", series=True)
    assert set(df["memory_oper"]) == {"read"}
    assert ts["value"].tolist() == [approx(7508.77 * MiB)]  # "[ 1s ] 7508.77 MiB/sec"
    assert ts["metric"].astype(str).tolist() == ["bandwidth"]


def test_threads_and_mutex():
    df = read("sb_threads.txt")  # 1.0 does not print the test name: the file name says it
    es.validate(df)
    assert set(df["test"]) == {"threads"}
    assert one(df, "events") == 2254 and one(df, "lat_mean") == approx(0.89e-3)
    mu = read("sb1.0_mutex.txt")
    assert set(mu["test"]) == {"mutex"}
    assert one(mu, "lat_mean") == approx(165.39e-3) and one(mu, "events") == 1
    t2 = read("sb1.0_threads_t2_p99.txt")
    assert one(t2, "lat_p99") == approx(7.30e-3) and set(t2["threads"]) == {2}
    p = sb.parse(MINIMAL, "run.log")
    assert {r["test"] for r in p.records} == {"generic"}
    assert any("test='generic'" in n for n in p.notes)
    assert {r["test"] for r in sb.parse(MINIMAL, "run.log", test="mutex").records} == {"mutex"}
    named = es.read_sysbench(fixture("sysbench", "sb_threads.txt"), test="my threads")
    assert set(named["test"]) == {"my threads"}  # metadata overrides


# ----------------------------------------------------------------------------- constructed inputs
# The two families below cannot be produced with the sysbench installed here. The inputs are
# built from the exact templates in FORMATS.md §2.2 (0.4.12 release, as in sysbench 0.4.12's
# sb_fileio.c / sysbench.c) and §2.4 (master/1.1 "IOPS=" block, sb_fileio.c on master); the
# numbers are invented, only as inputs whose conversion is asserted.

RELEASE_0412 = """\
PARAMS 16G rndrw 16
sysbench 0.4.12:  multi-threaded system evaluation benchmark

Running the test with following options:
Number of threads: 16
Initializing random number generator from timer.


Extra file open flags: 16384
1 files, 16Gb each
16Gb total file size
Block size 16Kb
Number of random requests for random IO: 10000000
Read/Write ratio for combined random IO test: 1.50
Calling fsync() at the end of test, Enabled.
Using synchronous I/O mode
Doing random r/w test
Threads started!
Time limit exceeded, exiting...
(last message repeated 15 times)
Done.

Operations performed:  600000 Read, 400000 Write, 16 Other = 1000016 Total
Read 9.1553Gb  Written 6.1035Gb  Total transferred 15.259Gb  (260.42Mb/sec)
16666.40 Requests/sec executed

Test execution summary:
    total time:                          60.0010s
    total number of events:              1000000
    total time taken by event execution: 959.5017
    per-request statistics:
         min:                                  0.08ms
         avg:                                  0.96ms
         max:                                209.04ms
         approx.  95 percentile:               2.22ms

Threads fairness:
    events (avg/stddev):           62500.0000/30.30
    execution time (avg/stddev):   59.9689/0.00

"""


def test_constructed_0412_release_with_params():
    name = "sysbench-size-16G-mode-rndrw-threads-16"
    assert sb.sniff(RELEASE_0412, name) == "sysbench 0.4.12"
    p = sb.parse(RELEASE_0412, name)
    df = es.io.frame(p.records)
    es.validate(df)
    assert p.format == "sysbench 0.4.12" and not p.notes  # PARAMS agrees with the output
    assert set(df["format"]) == {"0.4.12"} and set(df["tool_version"]) == {"0.4.12"}
    assert set(df["extra_flags"]) == {"directio"}  # 16384 = O_DIRECT (Linux x86)
    assert set(df["file_total_size"]) == {str(16 * GiB)} and set(df["threads"]) == {16}
    assert one(df, "total_ios", "read") == 600000 and one(df, "total_ios", "sync") == 16
    assert one(df, "io_bytes", "read") == approx(9.1553 * GiB)  # "Read 9.1553Gb"
    assert one(df, "bandwidth") == approx(260.42 * MiB)  # "(260.42Mb/sec)": MiB/s
    assert one(df, "iops") == approx(16666.40)  # ">= 10000: no leading space"
    assert one(df, "runtime") == approx(60.0010) and one(df, "events") == 1000000
    assert one(df, "lat_min") == approx(0.08e-3) and one(df, "lat_mean") == approx(0.96e-3)
    assert one(df, "lat_max") == approx(209.04e-3) and one(df, "lat_p95") == approx(2.22e-3)
    assert set(df["fsync_freq"]) == {"0"} and set(df["fsync_end"]) == {"on"}


MASTER = """\
sysbench 1.1.0-3ceba0b (using bundled LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 1
Initializing random number generator from current time


Extra file open flags: (none)
4 files, 16MiB each
64MiB total file size
Block size 16KiB
Number of IO requests: 0
Read/Write ratio for combined random IO test: 1.50
Periodic FSYNC enabled, calling fsync() each 100 requests.
Calling fsync() at the end of test, Enabled.
Using synchronous I/O mode
Doing random r/w test
Initializing worker threads...

Threads started!

[ 1s ] reads: 575.52 MiB/s writes: 383.67 MiB/s fsyncs: 2454.07/s latency (ms,95%): 0.018

Throughput:
         read:  IOPS=33489.30 523.27 MiB/s (548.69 MB/s)
         write: IOPS=22326.20 348.85 MiB/s (365.80 MB/s)
         fsync: IOPS=2233.75

Latency (ms):
         min:                                  0.00
         avg:                                  0.02
         max:                                  4.69
         95th percentile:                      0.01
         sum:                               2945.90

"""


def test_constructed_master_iops_format():
    assert sb.sniff(MASTER, "m.txt") == "sysbench 1.1"
    p = sb.parse(MASTER, "m.txt")
    df = es.io.frame(p.records)
    es.validate(df)
    assert set(df["format"]) == {"1.1"} and set(df["tool_version"]) == {"1.1.0-3ceba0b"}
    assert one(df, "iops", "read") == approx(33489.30)  # "read:  IOPS=33489.30"
    assert one(df, "bandwidth", "read") == approx(523.27 * MiB)  # the MiB/s figure, not MB/s
    assert one(df, "bandwidth", "write") == approx(348.85 * MiB)
    assert one(df, "iops", "sync") == approx(2233.75)  # "fsync: IOPS=2233.75"
    assert one(df, "lat_max") == approx(4.69e-3)
    assert not {"runtime", "events"} & set(df["metric"])  # master fileio prints neither
    ts = es.io.concat(p.series, series=True)
    assert one(ts, "bandwidth", "read") == approx(575.52 * MiB)


# OLTP: no MySQL here. Built from the format strings of sysbench 1.0.20 src/db_driver.c
# (db_report_intermediate / db_report_cumulative) and 0.5's report line quoted in FORMATS.md §2.3;
# numbers invented.
OLTP_10 = """\
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 16
Report intermediate results every 2 second(s)
Initializing random number generator from current time


Initializing worker threads...

Threads started!

[ 2s ] thds: 16 tps: 526.38 qps: 10560.11 (r/w/o: 7392.42/2105.52/1062.17) lat (ms,95%): 41.10 \
err/s: 0.00 reconn/s: 0.00
SQL statistics:
    queries performed:
        read:                            74480
        write:                           21280
        other:                           10640
        total:                           106400
    transactions:                        5320   (531.42 per sec.)
    queries:                             106400 (10628.40 per sec.)
    ignored errors:                      0      (0.00 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          10.0093s
    total number of events:              5320

Latency (ms):
         min:                                    3.21
         avg:                                   30.09
         max:                                  120.44
         95th percentile:                       41.10
         sum:                               160078.92

Threads fairness:
    events (avg/stddev):           332.5000/4.12
    execution time (avg/stddev):   10.0049/0.00

"""


def test_constructed_oltp():
    p = sb.parse(OLTP_10, "oltp.txt")
    df = es.io.frame(p.records)
    es.validate(df)
    assert one(df, "ops", test="oltp") == approx(531.42)  # transactions per sec
    assert one(df, "ops", test="oltp_queries") == approx(10628.40)  # queries per sec
    assert one(df, "lat_p95", test="oltp") == approx(41.10e-3)
    assert set(df["workload"].astype(str)) == {"mixed"}
    ts = es.io.concat(p.series, series=True)
    assert one(ts, "ops", test="oltp") == approx(526.38)
    assert one(ts, "ops", test="oltp_queries") == approx(10560.11)
    line05 = ("[   2s] threads: 16, tps: 526.38, reads: 7446.79, writes: 2105.52, response time: "
              "210.67ms (99%), errors: 0.00, reconnects:  0.00")
    text05 = OLTP_10.replace("sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)",
                             "sysbench 0.5:  multi-threaded system evaluation benchmark")
    text05 = text05.replace(OLTP_10.splitlines()[11] + "\n" + OLTP_10.splitlines()[12],
                            line05)
    ts05 = es.io.concat(sb.parse(text05, "oltp05.txt").series, series=True)
    assert one(ts05, "ops", test="oltp") == approx(526.38)
    assert one(ts05, "lat_p99", test="oltp") == approx(210.67e-3)


# ----------------------------------------------------------------------------- whole corpus

def test_sniff():
    for p in ALL:
        text = p.read_text()
        fam = sb.sniff(text[:65536], p.name)
        assert fam is not None, p.name
    assert sb.sniff(fixture("sysbench", "sb0.4_fileio_rndrw_t1.txt").read_text(), "x") == \
        "sysbench 0.4"
    assert sb.sniff(fixture("sysbench", "sb0.5_fileio_rndrw_t1.txt").read_text(), "x") == \
        "sysbench 0.5"
    assert sb.sniff(fixture("sysbench", "sb1.0_fileio_seqrewr_legacy.txt").read_text(), "x") == \
        "sysbench 1.0"
    assert sb.sniff(fixture("ioping", "ioping_c10.txt").read_text(), "x") is None
    assert sb.sniff('{"fio version": "fio-3.33"}', "x.json") is None
    assert sb.sniff("", "x") is None


def test_runs_after_a_script_s_own_lines_are_read():
    """A loop that echoes a header, then ``Test: i`` before each run (FossilDaddy/Coen-241's
    and OneBearr/Cloud-Computing-241's scripts; read as 'not a recognised benchmark output'
    before): every run read, the script's lines left as notes. Values read
    off the file: ``events per second: 45176.02`` (line 17), ``45096.58`` (49), ``44751.23``
    (81)."""
    path = fixture("sysbench", "sb1.0_cpu_loop_echoed.txt")
    text = path.read_text()
    assert text.splitlines()[1] == "Test: 0"  # (the banner is the third line)
    assert sb.sniff(text[:65536], path.name) == "sysbench 1.0"
    df = es.read(path)
    ops = df[df.metric == "ops"].sort_values("repetition")
    assert ops.value.tolist() == [45176.02, 45096.58, 44751.23]
    assert ops.repetition.tolist() == [0, 1, 2] and ops.run_id.nunique() == 3
    assert (ops.unit == "ops/s").all()
    notes = sb.parse(text, path.name).notes
    # the lines between two runs are noted as those before the first (nidmgh/sysbenchCloudDB's
    # "######----- <date> -----######" and "Thread = 4" were dropped without a word)
    assert notes == ["line 1: ignored before the banner: sysbench CPU test with 2000 "
                     "cpu-max-prime :", "line 2: ignored before the banner: Test: 0",
                     "line 34: ignored between runs: Test: 1",
                     "line 66: ignored between runs: Test: 2"]


def test_a_banner_after_other_lines_claims_no_other_tool_s_file():
    """The banner may follow a script's lines, but within the first 40 lines, never in a PTS
    test log (PTS's reader has it, with its composite.xml) and never in an XML or JSON
    document that quotes sysbench's text."""
    banner = "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n"
    assert sb.sniff("Test: 0\n" + banner, "x") == "sysbench 1.0"
    assert sb.sniff("a line\n" * 39 + banner, "x") == "sysbench 1.0"
    assert sb.sniff("a line\n" * 40 + banner, "x") is None
    log = next((FIXTURES / "pts").rglob("test-logs/*/piops1000.log"))
    assert banner in log.read_text() and sb.sniff(log.read_text()[:65536], log.name) is None
    for doc in ('<?xml version="1.0"?>\n<a>\n' + banner + "</a>\n",
                '{"log": [\n' + banner + "]}\n", "[\n" + banner + "]\n"):
        assert sb.sniff(doc, "x") is None
    assert sb.sniff("sysbench CPU test with 2000 cpu-max-prime :\n", "x") is None


@pytest.mark.parametrize("path", [p for p in ALL if p.name not in FAILING], ids=lambda p: p.name)
def test_every_fixture_reads_twice_identically_and_validates(path):
    before = tree_digest(path.parent)
    df1, ts1 = es.read_sysbench(path, series=True)
    df2, ts2 = es.read_sysbench(path, series=True)
    pd.testing.assert_frame_equal(df1, df2)
    pd.testing.assert_frame_equal(ts1, ts2)
    es.validate(df1)
    es.validate_series(ts1)
    assert tree_digest(path.parent) == before  # inputs never modified
    if len(df1):
        assert set(df1["tool"]) == {"sysbench"}
        assert df1["position"].str.match(r"^line \d+$").all()


def test_metadata_overrides():
    df = read("sb_fileio_rndrd_t1_run.txt", config="gp3-3000", volume="vol-1")
    assert set(df["config"]) == {"gp3-3000"} and set(df["volume"]) == {"vol-1"}
    es.validate(df)


# sysbench 0.4 and 0.5 print the prepare rate in "MB/sec" (2**20 bytes, as 1.0's MiB/sec)
_OLD_PREPARE = """sysbench {v}:  multi-threaded system evaluation benchmark

128 files, 512Kb each, 64Mb total
Creating files for the test...
67108864 bytes written in 0.11 seconds (574.12 MB/sec).
"""


@pytest.mark.parametrize("version", ["0.4.12", "0.5"])
def test_old_prepare_in_mb_per_sec_gives_rows(version, tmp_path):
    f = tmp_path / f"sb{version}_prepare.txt"
    f.write_text(_OLD_PREPARE.format(v=version))
    df = es.read(f)
    es.validate(df)
    assert one(df, "bandwidth", "write") == approx(574.12 * MiB)
    assert one(df, "io_bytes", "write") == 67108864
    assert one(df, "runtime", "write") == approx(0.11)
    assert set(df["test"]) == {"prepare"} and set(df["tool_version"]) == {version}


def test_a_recognised_file_without_rows_says_why(tmp_path):
    text = _OLD_PREPARE.format(v="0.5").replace("67108864 bytes written in 0.11 seconds "
                                                "(574.12 MB/sec).\n", "")
    (tmp_path / "prep.txt").write_text(text)
    with pytest.warns(UserWarning, match="no first-write rate"):
        assert len(es.read(tmp_path / "prep.txt")) == 0
    got = es.read(tmp_path, full=True).failures
    assert got[["source", "kind", "tool"]].values.tolist() == [["prep.txt", "empty",
                                                                "sysbench"]]
    assert "prepare report without" in got["reason"].iloc[0]
    checked = es.check(tmp_path)
    assert checked["rows"].tolist() == [0] and "prepare" in checked["reason"].iloc[0]


def test_appended_runs_share_values_per_run_in_the_folder_columns():
    # several runs in one file: the values a run shares (run key, repetition, options) are
    # given per run and spread to its rows; the public records say the same
    text = fixture("sysbench", "sb_fileio_rndrd_t1_run.txt").read_text()
    both = text + "\n" + text
    cols, n = sb.READER.parse(both.encode(), "two.txt", {}).columns
    records = sb.parse(both, "two.txt").records
    half = n // 2
    assert n == len(records) == 2 * len(sb.parse(text, "one.txt").records)
    assert cols["repetition"] == [0] * half + [1] * half
    assert cols["run_key"][0] != cols["run_key"][-1]
    assert [r["run_key"] for r in records] == cols["run_key"]


def test_report_lines_of_sysbench_lua_report_default():
    # sysbench 1.0.20 running a Lua script whose intermediate reports go through sysbench's own
    # sysbench.report_default (as OLTP scripts, sysbench-tpcc among them, report): "err/s 0.00"
    # without the colon of the C reporter. Those lines were noted as not understood and their
    # series lost; read by hand from the file:
    #   [ 1s ] thds: 2 tps: 17524664.94 qps: 0.00 (r/w/o: 0.00/0.00/0.00) lat (ms,95%): 0.00 ...
    #   [ 2s ] thds: 2 tps: 17778601.87 qps: 0.00 ...
    p = sb.parse(fixture("sysbench", "sb1.0_lua_report_default_ri.txt").read_text(), "x.txt")
    assert not [n for n in p.notes if "not understood" in n]
    df, ts = read("sb1.0_lua_report_default_ri.txt", series=True)
    tps = ts[(ts["metric"] == "ops") & (ts["test"] == "oltp")].sort_values("t")
    assert tps["t"].tolist() == [1.0, 2.0]
    assert tps["value"].tolist() == [approx(17524664.94), approx(17778601.87)]
    qps = ts[(ts["metric"] == "ops") & (ts["test"] == "oltp_queries")]
    assert qps["value"].tolist() == [0.0, 0.0]
    assert ts.loc[ts["metric"] == "lat_p95", "value"].tolist() == [0.0, 0.0]
    assert set(ts["unit"].astype(str)) == {"ops/s", "s"}
    # the summary as before: 3.0006 s, 53,334,774 events, latency max 1.06 ms
    assert one(df, "runtime") == approx(3.0006)
    assert one(df, "events") == 53334774
    assert one(df, "lat_max") == approx(1.06e-3)
    # a line of the C reporter (with the colon) is read alike
    text = fixture("sysbench", "sb1.0_lua_report_default_ri.txt").read_text()
    colon = sb.parse(text.replace(" err/s 0.00", " err/s: 0.00"), "x.txt")
    assert es.io.concat(colon.series, series=True)["value"].tolist() == ts["value"].tolist()


def test_an_interrupted_run_among_appended_runs_is_left_out_and_said():
    # three sysbench 1.0.20 cpu runs appended to one file, the second killed after 1 s (its
    # output stops at "Threads started!", line 43). Read by hand: run 1 "events per second:
    # 4201.48", 4205 events, 1.0002 s; run 3 (--threads=2) 8615.41/s, 8624 events, 1.0002 s.
    text = fixture("sysbench", "sb1.0_cpu_loop_interrupted.txt").read_text()
    p = sb.parse(text, "loop.txt")
    assert [(e.position, e.found) for e in p.partial] == [("line 43", "Threads started!")]
    assert "ends early" in str(p.partial[0])
    df = es.io.frame(p.records)
    ops = df[df["metric"] == "ops"].sort_values("threads")
    assert ops["value"].tolist() == [approx(4201.48), approx(8615.41)]
    assert df.loc[df["metric"] == "events", "value"].tolist() == [4205, 8624]
    assert df["threads"].dropna().unique().tolist() == [1, 2]
    # a folder read keeps both runs and lists the one left out; a strict read refuses
    d = FIXTURES / "sysbench"
    got = es.read(d / "sb1.0_cpu_loop_interrupted.txt", errors="collect", full=True)
    assert len(got.frame) == len(df)
    part = got.failures[got.failures["kind"] == "partial"]
    assert part[["position", "source"]].values.tolist() == [
        ["line 43", str(d / "sb1.0_cpu_loop_interrupted.txt")]]
    with pytest.raises(ParseError, match="ends early") as ei:
        es.read(d / "sb1.0_cpu_loop_interrupted.txt")
    assert ei.value.position == "line 43"
    # the run alone (the file cut after it) is refused as before, as is a file of cut runs
    lines = text.splitlines(keepends=True)
    with pytest.raises(ParseError, match="ends early"):
        sb.parse("".join(lines[31:44]), "cut.txt")
    with pytest.raises(ParseError, match="ends early"):
        sb.parse("".join(lines[31:44]) * 2, "cuts.txt")


def test_a_folder_with_an_interrupted_run_keeps_the_file_s_other_runs(tmp_path):
    src = fixture("sysbench", "sb1.0_cpu_loop_interrupted.txt")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "loop.txt").write_bytes(src.read_bytes())
    (tmp_path / "a" / "run.txt").write_bytes(fixture("sysbench", "sb_cpu.txt").read_bytes())
    df, fails = es.read(tmp_path, full=True)[::2]
    assert sorted(df["source"].unique()) == ["a/loop.txt", "a/run.txt"]
    assert fails[["source", "kind", "position"]].values.tolist() == [
        ["a/loop.txt", "partial", "line 43"]]
    c = es.check(tmp_path).set_index("source")
    assert c.loc["a/loop.txt", "action"] == "read in part"
    assert c.loc["a/loop.txt", "position"] == "line 43" and c.loc["a/run.txt", "action"] == "read"
    with pytest.raises(es.IngestError, match="loop.txt"):
        es.read(tmp_path, errors="raise")


def test_a_folder_read_in_part_warns_of_it(tmp_path):
    (tmp_path / "loop.txt").write_bytes(
        fixture("sysbench", "sb1.0_cpu_loop_interrupted.txt").read_bytes())
    with pytest.warns(UserWarning, match=r"1 file\(s\) were read in part"):
        df = es.read(tmp_path)
    assert df.attrs["failures"][0]["kind"] == "partial"
    assert len(df) == 2 * 7  # two cpu runs: ops, runtime, events and four latencies each


def test_wrapped_negative_time_is_not_a_latency():
    """sysbench 0.4.12 counts a negative operation time (a clock step) as unsigned and prints
    it as the maximum, after its own warning (as in a public 0.4.12 cpu output: "WARNING:
    Operation time (18446744073688156160.000000) is greater than maximal counted value" then
    "max: 18446744073688.26ms"). The 0.4 fixture given those two lines: its lat_max is left
    out and said, every other row is the fixture's."""
    text = fixture("sysbench", "sb0.4_fileio_rndrw_t1.txt").read_text()
    bad = text.replace("Threads started!\n", "Threads started!\nWARNING: Operation time "
                       "(18446744073688156160.000000) is greater than maximal counted value, "
                       "counting as 10000000000000.000000\nWARNING: Percentile statistics "
                       "will be inaccurate\n", 1)
    bad = bad.replace("max:                                  0.19ms",
                      "max:                            18446744073688.26ms", 1)
    good, got = sb.parse(text, "sb.txt"), sb.parse(bad, "sb.txt")
    rows = {(r["op"], r["metric"]): r["value"] for r in got.records}
    want = {(r["op"], r["metric"]): r["value"] for r in good.records}
    assert want[("total", "lat_max")] == pytest.approx(0.19e-3)
    assert ("total", "lat_max") not in rows
    assert rows == {k: v for k, v in want.items() if k != ("total", "lat_max")}
    assert any("lat_max 18446744073688.26ms is sysbench's wrapped negative time" in n
               for n in got.notes)
    # the report is still complete: a max truly missing is still refused
    with pytest.raises(ParseError, match="max:"):
        sb.parse(text.replace("         max:                                  0.19ms\n",
                                    ""), "sb.txt")


def test_a_run_ended_by_fatal_among_others_is_left_out(tmp_path):
    """Three runs appended by a script; the fileio one ends at line 49, "FATAL: Cannot open
    file 'test_file.0' errno = 2": it is left out and named (kind partial), the cpu run
    ("events per second:  3051.30") and the memory run ("4706.86 MiB/sec") are kept."""
    p = sb.parse(fixture("sysbench", "sb1.0_loop_with_fatal.txt").read_text(), "loop.txt")
    tests = {r["test"] for r in p.records}
    assert tests == {"cpu", "memory"}
    eps = [r["value"] for r in p.records if r["test"] == "cpu" and r["metric"] == "ops"]
    assert eps == [3051.30]
    mib = [r["value"] for r in p.records if r["test"] == "memory" and r["metric"] == "bandwidth"]
    assert mib == [pytest.approx(4706.86 * 2**20)]
    assert [e.position for e in p.partial] == ["line 49"]
    assert "Cannot open file 'test_file.0'" in str(p.partial[0])
    (tmp_path / "loop.txt").write_bytes(fixture("sysbench", "sb1.0_loop_with_fatal.txt")
                                        .read_bytes())
    with pytest.warns(UserWarning, match="read in part"):
        r = es.read(tmp_path, full=True)
    assert set(r.frame["test"]) == {"cpu", "memory"}
    assert r.failures["kind"].tolist() == ["partial", "note"]
    assert r.failures["reason"].iloc[1].startswith("lat_min (line 78), lat_mean (line 79), "
                                                   "lat_p95 (line 81) printed as zero")  # (kept)
    # one run alone that ends at FATAL is refused, as before
    with pytest.raises(ParseError, match="line 18"):
        sb.parse(fixture("sysbench", "sb1.0_fileio_noprepare.txt").read_text(), "np.txt")


def test_a_latency_printed_as_zero_is_flagged_too_fast_by_plans_and_rule_alike(tmp_path):
    """sysbench prints latencies in two decimals of a millisecond: "min: 0.00" is a time under
    0.005 ms, never zero. Every read (the first, line by line; the later ones, by the
    layout's plan) gives NaN, ``too_fast``, and a note; a figure that is not zero stays. The
    five files are the genuine seqwr output with its "max:" figure edited (distinct contents,
    one layout), the last with "min: 0.03" (edits made here, in memory)."""
    text = fixture("sysbench", "sb_fileio_seqwr_t1_run.txt").read_text()
    assert re.search(r"min:\s+0\.00\n", text) and re.search(r"max:\s+6\.62\n", text)
    for i in range(5):
        edited = text.replace("6.62\n", f"6.6{i}\n")
        if i == 4:
            edited = re.sub(r"(min:\s+)0\.00\n", r"\g<1>0.03\n", edited)
        (tmp_path / f"run{i}.txt").write_text(edited)
    df = es.read(tmp_path, jobs=1, progress=False)
    es.validate(df)
    lat_min = df[df.metric == "lat_min"].set_index("source")
    flagged = lat_min.index[lat_min.flag == "too_fast"].tolist()
    assert [s.rsplit("/", 1)[-1] for s in flagged] == [f"run{i}.txt" for i in range(4)]
    assert lat_min.value.isna().sum() == 4
    assert lat_min.value.iloc[-1] == approx(0.03e-3)  # "min: 0.03" ms
    assert (df.loc[df.metric == "lat_max", "value"] > 0).all()
    assert one(df[df.source.str.endswith("run0.txt")], "lat_max") == approx(6.60e-3)
    # the same note on the rule's read and on a plan's
    notes = [sb._parse(t.read_text(), t.name).notes for t in sorted(tmp_path.iterdir())]
    assert notes[0] == notes[3] == [
        "lat_min (line 35) printed as zero: under the 0.005 ms sysbench's two decimals show, NaN "
        "and flagged too_fast"]
    assert notes[4] == []
    # a summary counts them out and says which way the rest lean
    s = es.summarize(df[df.metric == "lat_min"], n_boot=0).iloc[0]
    assert (s.n, s.n_excluded, s["median"]) == (1, 4, approx(0.03e-3))
    assert "4 of them too fast to measure (flag 'too_fast')" in s.warning


def test_a_second_report_without_its_banner_is_left_out_not_merged_into_the_run(tmp_path):
    """Two cpu runs in one log, the second's banner cut to "ysbench 1.0.20 (...)" (as
    caprice-j/e6118's pasted notes lost a letter; the fixture script cuts it, MANIFEST row):
    its results were read as the first run's, two "events per second" under one run id.
    The first run is kept; the second report is listed as partial at its "Running the test"
    line, with the cut banner quoted; the version is not guessed."""
    name = "sb1.0_cpu_pasted_cut_banner.txt"
    (tmp_path / name).write_bytes(fixture("sysbench", name).read_bytes())
    df, fails = es.read(tmp_path, full=True, progress=False)[::2]
    assert df["run_id"].nunique() == 1 and not df.duplicated(["metric", "op"]).any()
    assert one(df, "ops") == approx(4432.84)  # line 15 "events per second:  4432.84"
    assert one(df, "events") == 4437  # "total number of events:  4437"
    assert set(df["threads"]) == {1}  # line 4 "Number of threads: 1" (line 35 says 2)
    assert fails[["source", "kind", "position"]].values.tolist() == [
        [name, "partial", "line 34"], [name, "note", "line 32"]]  # (the cut banner, quoted)
    assert "found 'ysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)'" in fails["reason"][0]
    assert fails["reason"][1] == ("ignored between runs: ysbench 1.0.20 (using system LuaJIT "
                                  "2.1.0-beta3)")
    p = sb.parse(fixture("sysbench", name).read_text(), name)
    assert [e.position for e in p.partial] == ["line 34"]


def test_a_memory_rate_under_10000_a_second_is_read_padded_as_printed():
    """sysbench prints the memory rate with "%8.2f": 32 MiB blocks make "Total operations: 64
    (  803.72 per second)" (line 18 of the fixture made here), whose ops row was dropped without
    a word (caprice-j/e6118: "203 (   20.24 per second)")."""
    df = read("sb1.0_memory_32M_blocks.txt")
    es.validate(df)
    assert one(df, "ops") == approx(803.72)  # line 18
    assert df.loc[df.metric == "ops", "position"].item() == "line 18"
    assert one(df, "bandwidth") == approx(25719.07 * MiB)  # "(25719.07 MiB/sec)"
    assert one(df, "events") == 64


OLTP_05_NO_TRX = """\
sysbench 0.5:  multi-threaded system evaluation benchmark

Running the test with following options:
Number of threads: 8
Random number generator seed is 0 and will be ignored


Threads started!

OLTP test statistics:
    queries performed:
        read:                            0
        write:                           120000
        other:                           0
        total:                           120000
    transactions:                        0      (0.00 per sec.)
    read/write requests:                 120000 (3000.00 per sec.)
    other operations:                    0      (0.00 per sec.)
    ignored errors:                      0      (0.00 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          40.0000s
    total number of events:              60000
    total time taken by event execution: 319.2000s
    response time:
         min:                                  1.20ms
         avg:                                  5.32ms
         max:                                 48.00ms
         approx.  95 percentile:               9.10ms

Threads fairness:
    events (avg/stddev):           7500.0000/4.10
    execution time (avg/stddev):   39.9000/0.00
"""


def test_oltp_without_transactions_takes_its_events_per_second():
    """sysbench 0.5's OLTP without BEGIN/COMMIT (--oltp-skip-trx) prints ``transactions: 0``
    beside its events: hgxl64/mariadb-benchmarks' write-only run of 8,112 queries a second
    read as 0 operations a second. Constructed in 0.5's layout (no MySQL here to run it): its
    ``ops`` are 60,000 events / 40 s = 1,500 a second, with a note; a run with transactions
    keeps its printed rate (test_constructed_oltp)."""
    p = sb.parse(OLTP_05_NO_TRX, "notrx.txt")
    df = es.frame(p.records)
    assert one(df, "ops", test="oltp") == approx(1500.0)
    assert one(df, "ops", test="oltp_queries") == approx(3000.0)
    assert any(n.startswith("no transactions") and "60000 / 40 s" in n for n in p.notes)


# --------------------------------------------------------- OLTP scripts and 0.5 variants

@pytest.mark.parametrize("name, tps, qps, mix, workload", [
    # sysbench 1.0.20 against MariaDB 10.11 (tests/fixtures/make_sysbench_oltp_fixtures.sh):
    # the line numbers of "queries performed" read off each file
    ("sb1.0_oltp_point_select_t2_ri.txt", 49265.77, 49265.77,  # 147869 / 147869 (l. 17-21)
     "read-only, 1 query a transaction", "other"),
    ("sb1.0_oltp_read_only_t2_ri.txt", 3369.47, 53911.47,  # 161904 / 10119 = 16.0 (l. 20-22)
     "read-only, 16 queries a transaction", "other"),
    ("sb1.0_oltp_write_only_t2_ri.txt", 2477.20, 14866.84,  # read 0; 44639 / 7438 = 6.0
     "write-only, 6 queries a transaction", "other"),
    ("sb1.0_oltp_read_write_t2_ri.txt", 747.36, 14947.30,  # 44900 / 2245 = 20
     "read/write, 20 queries a transaction", "mixed"),
])
def test_oltp_scripts_are_told_apart_by_their_queries(name, tps, qps, mix, workload):
    """sysbench prints no script name: plantegg/sysbench_report's point_select, read_only,
    write_only and read_write runs at one thread count were four repetitions of one "mixed"
    workload (n=4, CV 1.7, no warning). Their queries performed tell them apart."""
    df = read(name)
    es.validate(df)
    assert one(df, "ops", test="oltp") == approx(tps)
    assert one(df, "ops", test="oltp_queries") == approx(qps)
    assert set(df["sql_mix"]) == {mix} and set(df["workload"].astype(str)) == {workload}
    assert "sql_mix" in es.schema.WORKLOAD_PARAMETERS


def test_oltp_mix_is_decided_per_file_where_a_plan_replays(tmp_path):
    """A file that differs from the first one of its layout only in its digits is read by
    the first one's plan: its own counts still decide its mix (a point-select run's copy with
    writes counted is read/write)."""
    text = fixture("sysbench", "sb1.0_oltp_point_select_t2_ri.txt").read_text()
    (tmp_path / "a.txt").write_text(text)
    changed = text.replace("        write:                           0\n",
                           "        write:                           5\n")
    changed = changed.replace("total:                           147869",
                              "total:                           147874")
    assert changed.count("147874") == 1 and changed != text
    (tmp_path / "b.txt").write_text(changed)
    df = es.read(tmp_path, progress=False)
    got = {k: set(v) for k, v in df.groupby("source")["sql_mix"]}
    assert got == {"a.txt": {"read-only, 1 query a transaction"},
                   "b.txt": {"read/write, 1 query a transaction"}}


def test_05_interval_response_time_in_microseconds():
    """Percona's sysbench 0.5 OLTP runs print the interval's response time in us
    ("response time: 4584.23us (95%)"): ~1000 lines of 49 files were "not understood"."""
    text05 = OLTP_10.replace("sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)",
                             "sysbench 0.5:  multi-threaded system evaluation benchmark")
    line = ("[  10s] threads: 13, tps: 4168.96, reads: 58375.91, writes: 16676.06, response "
            "time: 4584.23us (95%), errors: 0.00, reconnects:  0.00")
    text05 = text05.replace(OLTP_10.splitlines()[11] + "\n" + OLTP_10.splitlines()[12], line)
    p = sb.parse(text05, "oltp05.txt")
    ts = es.io.concat(p.series, series=True)
    assert one(ts, "ops", test="oltp") == approx(4168.96)
    assert one(ts, "lat_p95", test="oltp") == approx(4584.23e-6)
    assert not any("not understood" in n for n in p.notes)


def test_05_run_stopped_at_max_time_keeps_its_report():
    """sysbench 0.5 stops threads still in a transaction at --max-time with a FATAL line,
    then prints the whole report (Percona's 1,000- and 1,200-thread OLTP runs: "Number of
    unfinished transactions on forced shutdown: 398"): read, with a note; another FATAL line
    still refuses the run."""
    forced = OLTP_05_NO_TRX.replace(
        "OLTP test statistics:", "FATAL: The --max-time limit has expired, forcing "
        "shutdown...\nOLTP test statistics:").replace(
        "    reconnects:                          0      (0.00 per sec.)\n",
        "    reconnects:                          0      (0.00 per sec.)\n\nNumber of "
        "unfinished transactions on forced shutdown: 3\n")
    p = sb.parse(forced, "forced.txt")
    df = es.frame(p.records)
    assert one(df, "ops", test="oltp_queries") == approx(3000.0)
    assert one(df, "runtime", test="oltp") == approx(40.0)
    assert any(n.startswith("line 10: FATAL: The --max-time limit has expired") for n in p.notes)
    other = forced.replace("The --max-time limit has expired, forcing shutdown...",
                           "failed to execute MySQL query")
    with pytest.raises(ParseError, match="line 10"):
        sb.parse(other, "fatal.txt")


def test_a_target_rate_is_a_workload_parameter():
    """``--rate=N`` echoes "Target transaction rate: N/sec": Percona's rds-serverless runs at
    10-3,700 a second were 60 repetitions of one setting at 250 threads (n=60, CV 0.63). The
    fixture: sysbench 1.0.20 --rate=200 against MariaDB (line 5; 212.74 transactions a second
    on line 26)."""
    df = read("sb1.0_oltp_read_only_rate200_t2_ri.txt")
    es.validate(df)
    assert set(df["target_rate"]) == {"200"}
    assert one(df, "ops", test="oltp") == approx(212.74)
    assert "target_rate" in es.schema.WORKLOAD_PARAMETERS
    assert "target_rate" not in read("sb1.0_oltp_read_only_t2_ri.txt")


def test_a_query_count_beyond_a_float_is_read_not_a_crash(tmp_path):
    # (fuzzing, seed 61: a 400-digit "total:" under "queries performed:" raised OverflowError
    # in the float division of the queries-per-transaction text)
    text = (FIXTURES / "sysbench" / "sb1.0_oltp_read_only_t2_ri.txt").read_text()
    assert re.search(r"^\s+total:\s+161904$", text, re.M)
    big = "9" * 400
    f = tmp_path / "sb.txt"
    f.write_text(re.sub(r"(?m)^(\s+total:\s+)161904$", rf"\g<1>{big}", text))
    df = es.read_sysbench(f)
    want = es.read_sysbench(FIXTURES / "sysbench" / "sb1.0_oltp_read_only_t2_ri.txt")
    pd.testing.assert_series_equal(df["value"], want["value"])
    trx = int(re.search(r"transactions:\s+(\d+)", text).group(1))
    each = (int(big) * 2 + trx) // (2 * trx)  # (half up: no tie with this many digits)
    assert df["sql_mix"].iloc[0] == f"read-only, {each} queries a transaction"
    assert want["sql_mix"].iloc[0] == f"read-only, {round(161904 / trx)} queries a transaction"
