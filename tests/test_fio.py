"""fio reports (JSON, json+, client/server, status-interval, terse, normal text): values read by hand
off the raw files, converted to canonical units as the comments say.

Conversions used below: KiB/s × 1024 = B/s; ns × 1e-9 = s; µs × 1e-6 = s; ms × 1e-3 = s;
2.x ``io_bytes`` KiB × 1024 = B; normal text ``MiB`` × 2**20, 2.x ``KB``/``MB`` are KiB/MiB.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

import ebsstats as es
from ebsstats.io import fio
from ebsstats.io.fio import json as fio_json
from tests.conftest import fixture, tree_digest

F = ("fio",)
G = ("fio", "gen")


def val(df: pd.DataFrame, metric: str, op: str = "read", test: str | None = None,
        row: int = 0) -> float:
    sel = df[(df["metric"] == metric) & (df["op"] == op)]
    if test is not None:
        sel = sel[sel["test"] == test]
    assert len(sel) > row, (metric, op, test)
    return float(sel["value"].iloc[row])


def close(a: float, b: float, rel: float = 1e-9) -> bool:
    return math.isclose(a, b, rel_tol=rel, abs_tol=0.0)


def read(*parts: str, **kw):
    df = es.read_fio(fixture(*parts), **kw)
    if isinstance(df, tuple):
        es.validate(df[0])
        es.validate_series(df[1])
    else:
        es.validate(df)
    return df


# ---------------------------------------------------------------- JSON 3.x

def test_small_json_every_family():
    df = read(*F, "small_json.json")
    assert set(df["op"].astype(str)) == {"read", "total"}  # write/trim/sync are empty
    assert close(val(df, "iops"), 62727.090970)
    assert close(val(df, "bandwidth"), 256930164)  # "bw_bytes": 256930164 B/s
    assert close(val(df, "io_bytes"), 771047424)  # "io_bytes" (3.x: bytes)
    assert close(val(df, "runtime"), 3.001)  # "runtime": 3001 ms
    assert val(df, "total_ios") == 188244
    assert close(val(df, "slat_min"), 4348e-9)  # slat_ns.min 4348 ns
    assert close(val(df, "clat_mean"), 118820.499299e-9)
    assert close(val(df, "clat_stddev"), 943059.595729e-9)
    assert close(val(df, "lat_max"), 33436685e-9)
    assert close(val(df, "clat_p99.9"), 23199744e-9)  # percentile["99.900000"] ns
    assert close(val(df, "clat_p50"), 78336e-9)
    assert close(val(df, "bandwidth_min"), 207176 * 1024)  # bw_min KiB/s
    assert close(val(df, "bandwidth_stddev"), 31394.355977 * 1024)  # bw_dev
    assert close(val(df, "bw_agg"), 100.0)
    assert val(df, "iops_max") == 71876
    assert close(val(df, "iops_stddev"), 7848.588994)
    assert close(val(df, "cpu_usr", "total"), 8.1) and close(val(df, "cpu_sys", "total"), 48.4)
    r = df.iloc[0]
    assert r["tool"] == "fio" and r["tool_version"] == "fio-3.33"
    assert r["test"] == "small-randread-4k" and r["workload"] == "randread"
    # bs=4k, iodepth=8 from job options; ioengine/direct/size/runtime from global options
    assert r["block_size"] == 4096 and r["iodepth"] == 8 and r["threads"] == 1
    assert (r["ioengine"], r["direct"], r["job_size"], r["job_runtime"]) == (
        "libaio", "1", "32m", "3")
    # timestamp_ms 1795318139763 is the END; start = end - elapsed (4 s)
    assert r["timestamp"] == pd.Timestamp(1795318139763 - 4000, unit="ms", tz="UTC")
    assert df["position"].str.startswith("$.jobs[0]").all()


@pytest.mark.parametrize("name, op, iops, bw_bytes, clat_p999_ns, bs", [
    ("cli_randread_1M.json", "read", 2016.327891, 2114273034, 8716288, 1 << 20),
    ("cli_randread_4k.json", "read", 92506.497834, 378906615, 114176, 4096),
    ("cli_randwrite_4k.json", "write", 59606.464512, 244148078, 2834432, 4096),
    ("cli_read_1M.json", "read", 2547.817394, 2671580171, 2637824, 1 << 20),
    ("cli_write_1M.json", "write", 1240.09324, 1300332009, 15925248, 1 << 20),
    ("cli_rw_4k.json", "write", 23303.232256, 95450039, 164864, 4096),
    ("cli_randrw_4k.json", "write", 21586.137954, 88416821, 593920, 4096),
    ("warn_iodepth_psync.json", "read", 35426.286857, 145106070, 68096, 4096),
    ("logs_avg_run.json", "read", 22005.664778, 90135202, 108032, 4096),
    ("logs_raw_run.json", "write", 999.50025, 4093953, 3850240, 4096),
])
def test_cli_json(name, op, iops, bw_bytes, clat_p999_ns, bs):
    df = read(*F, name)
    assert close(val(df, "iops", op), iops)
    assert close(val(df, "bandwidth", op), bw_bytes)  # bw_bytes B/s
    assert close(val(df, "clat_p99.9", op), clat_p999_ns * 1e-9)
    assert (df["block_size"].dropna() == bs).all()  # bs=1M → 1048576 B


def test_randrw_and_rw_workloads():
    rr = read(*F, "cli_randrw_4k.json")
    assert set(rr["workload"].astype(str)) == {"randrw"}
    assert close(val(rr, "lat_mean", "read"), 50561.396008e-9)
    assert val(rr, "total_ios", "write") == 64780
    assert close(val(rr, "cpu_usr", "total"), 6.833333)
    rw = read(*F, "cli_rw_4k.json")
    assert set(rw["workload"].astype(str)) == {"mixed"}  # rw=rw → mixed
    assert set(read(*F, "cli_write_1M.json")["workload"].astype(str)) == {"seqwrite"}
    assert set(read(*F, "cli_read_1M.json")["workload"].astype(str)) == {"seqread"}


def test_numjobs_clones_kept_apart():
    df = read(*F, "multi_json.json")
    # 2 sections x numjobs=2 without group_reporting: 4 entries, two named "rr", two "rw"
    assert df["run_id"].nunique() == 4
    rr = df[(df["test"] == "rr") & (df["metric"] == "iops")]
    assert sorted(rr["value"]) == [24067.310896, 24199.600133]
    assert set(rr["position"]) == {"$.jobs[0].read.iops", "$.jobs[1].read.iops"}
    assert close(val(df, "iops", "write", "rw", row=1), 22523.492169)
    assert (df["threads"] == 2).all()  # numjobs=2 in job options
    assert (df["iodepth"] == 4).all()  # iodepth=4 from global options


def test_group_reporting_and_stonewall_groups():
    gr = read(*F, "multi_gr_json.json")
    assert gr["run_id"].nunique() == 1 and set(gr["test"]) == {"rr"}
    assert close(val(gr, "iops", "read"), 49240.586471)
    assert close(val(gr, "iops", "write"), 42627.457514)  # merged randread+randwrite group
    sw = read(*F, "stonewall_groups_json.json")
    groups = sw.groupby("test")["groupid"].first().to_dict()
    assert groups == {"seqwrite": "0", "seqread": "1"}
    assert close(val(sw, "bandwidth", "write", "seqwrite"), 1153708713)
    assert close(val(sw, "bandwidth", "read", "seqread"), 1115094548)
    assert (sw["block_size"] == 65536).all()  # bs=64k in global options


def test_unified_mixed_is_total():
    df = read(*F, "unified_mixed.json")
    assert set(df["op"].astype(str)) == {"total"}
    assert close(val(df, "iops", "total"), 40515.242379)
    assert close(val(df, "bandwidth", "total"), 165950432)
    assert close(val(df, "clat_p99.9", "total"), 5079040e-9)


def test_sync_direction_fsync_latency():
    df = read(*F, "ioengine_sync_fsync.json")
    assert val(df, "total_ios", "sync") == 3951  # sync.total_ios
    assert close(val(df, "lat_mean", "sync"), 485148.335864e-9)  # sync.lat_ns.mean
    assert close(val(df, "lat_p1", "sync"), 124416e-9)  # sync.lat_ns.percentile["1.000000"]
    assert not ((df["op"] == "sync") & (df["metric"] == "iops")).any()
    assert close(val(df, "iops", "write"), 1974.512744)


def test_warning_before_json_kept_as_note():
    p = fio.parse(fixture(*F, "warn_iodepth_psync.json").read_text(), "w.json")
    assert p.notes and p.notes[0].startswith("note: both iodepth >= 1 and synchronous I/O")
    assert p.format == "json"


def test_custom_percentiles_clat_and_lat():
    df = read(*G, "custom_percentiles.json")
    # percentile_list=50:99:99.99 with lat_percentiles=1: both clat_ns and lat_ns have them
    pct = sorted(m for m in df["metric"].astype(str).unique() if "_p" in m)
    assert pct == ["clat_p50", "clat_p99", "clat_p99.99", "lat_p50", "lat_p99", "lat_p99.99"]
    assert close(val(df, "lat_p50", "read"), 41728e-9)
    assert close(val(df, "clat_p99.99", "write"), 23986176e-9)


# ---------------------------------------------------------------- JSON 2.x

def test_json_2_1_10_units():
    df = read(*F, "f2110_small_json.json")
    r = df.iloc[0]
    assert r["tool_version"] == "fio-2.1.10" and pd.isna(r["timestamp"])  # no timestamp in 2.1
    assert close(val(df, "io_bytes"), 1279504 * 1024)  # 2.x io_bytes is KiB
    assert close(val(df, "bandwidth"), 426359 * 1024)  # bw KiB/s, no bw_bytes
    assert val(df, "iops") == 106589
    assert close(val(df, "clat_mean"), 67.35e-6)  # "clat" (µs) in 2.x
    assert close(val(df, "slat_max"), 1120e-6)
    assert close(val(df, "lat_stddev"), 118.32e-6)
    assert close(val(df, "clat_p99.9"), 163e-6)
    # duplicate "0.00": 0 padding keys are not percentiles
    assert not df["metric"].astype(str).str.contains(r"_p0$").any()
    # bw_min..bw_dev are all 0 (no samples): not reported as 0 B/s
    assert not df["metric"].astype(str).str.startswith("bandwidth_").any()
    assert close(val(df, "cpu_sys", "total"), float(
        fio.parse(fixture(*F, "f2110_small_json.json").read_text(), "x").records[-1]["value"]))
    assert pd.isna(r["block_size"])  # 2.1.10 prints no job options: nothing guessed


def test_json_2_1_10_group_reporting():
    df = read(*F, "f2110_multi_gr_json.json")
    assert close(val(df, "iops", "read"), 52978)
    assert close(val(df, "bandwidth", "write"), 163244 * 1024)
    assert close(val(df, "io_bytes", "write"), 489896 * 1024)
    assert close(val(df, "clat_p99.99", "write"), 55040e-6)
    assert close(val(df, "cpu_usr", "total"), 2.12)


# ---------------------------------------------------------------- json+, client/server, streams

def test_jsonplus_bins_histogram():
    path = fixture(*F, "small_jsonplus.json")
    df = read(*F, "small_jsonplus.json")
    assert close(val(df, "iops"), 60664.111963)
    assert fio.parse(path.read_text(), str(path)).format == "json+"
    h = fio.read_fio_histogram(path)
    assert len(h) == 455 and h["count"].sum() == 182053  # == read.total_ios
    first = h.sort_values("lat").iloc[0]
    assert close(first["lat"], 24960e-9) and first["count"] == 1  # "24960" : 1
    assert set(h["run_id"]) == set(df["run_id"])
    assert list(h.columns) == ["run_id", "source", "test", "op", "latency", "lat", "count"]
    assert len(fio.read_fio_histogram(fixture(*F, "small_json.json"))) == 0


def test_client_server_json():
    df = read(*G, "client_server.json")
    assert df["run_id"].nunique() == 3 and set(df["host"]) == {"127.0.0.1"}
    agg = df[df["test"] == "All clients"]
    assert set(agg["flag"]) == {"aggregate"}
    assert df[df["test"] == "csjob"]["flag"].isna().all()
    assert close(val(df, "iops", test="All clients"), 68721.278721)
    assert close(val(df, "iops", test="csjob", row=0), 34155.844156)
    assert close(val(df, "bandwidth", test="csjob", row=1), 141580019)
    # global options repeat every key (duplicate keys): last value kept, same text
    assert set(df["job_size"]) == {"4m"} and set(df["ioengine"]) == {"psync"}
    # no "elapsed" in client mode: start = timestamp (1795322693) - job_runtime 1001 ms
    # ("job_runtime": 1000, read runtime 1001 → the larger)
    assert df["timestamp"].iloc[0] == pd.Timestamp(1795322693000 - 1001, unit="ms", tz="UTC")


def test_status_interval_stream():
    df, ts = read(*G, "status_interval.json", series=True)
    # results = the last of 4 documents
    assert close(val(df, "iops"), 54449.516828) and val(df, "total_ios") == 163403
    assert df["position"].iloc[0].startswith("document 4 (line 820), $.jobs[0]")
    # duplicate "runtime" keys in global options ("1" then "3"): the last wins
    assert set(df["job_runtime"]) == {"3"}
    iops = ts[ts["metric"] == "iops"].sort_values("t")
    assert list(iops["t"]) == [1.0, 2.0, 3.0, 4.0]  # elapsed of each report
    # interval 1: total_ios 47354 over 879 ms (doc 1: runtime 879, total_ios 47354)
    text = fixture(*G, "status_interval.json").read_text()
    import json
    d1 = json.JSONDecoder().raw_decode(text)[0]["jobs"][0]["read"]
    assert close(iops["value"].iloc[0], d1["total_ios"] / (d1["runtime"] / 1000))
    assert set(ts["run_id"]) == set(df["run_id"])
    # the whole run: the windows add up to the final total_ios
    dt = iops["t"].diff()  # not used for the check: rates × Δruntime add up instead
    del dt
    bw = ts[ts["metric"] == "bandwidth"]
    assert (bw["unit"] == "B/s").all() and (bw["value"] > 0).all()


def test_normal_then_json_stream():
    p = fio.parse(fixture(*G, "normal_json.txt").read_text(), "n.txt")
    assert p.format == "json" and any("normal text report beside" in n for n in p.notes)
    df = read(*G, "normal_json.txt")
    assert close(val(df, "iops", "write"), 49501.498501)
    assert close(val(df, "bandwidth", "write"), 202758137)


def test_eta_lines_and_banner_around_json():
    text = ("\nhostname=vm, be=0, 64-bit, os=Linux, arch=x86-64, fio=fio-3.33, flags=1\n"
            "Jobs: 1 (f=1): [r(1)][50.0%][eta 00m:01s]\rJobs: 1 (f=1): [r(1)][100.0%]\r\n"
            + fixture(*F, "small_json.json").read_text())
    p = fio.parse(text, "eta.json")
    assert not any(n.startswith("Jobs:") for n in p.notes)
    assert any(n.startswith("hostname=vm") for n in p.notes)
    assert len(p.records) == len(fio.parse(fixture(*F, "small_json.json").read_text(),
                                           "x").records)


# ---------------------------------------------------------------- terse

def test_terse_v3_3_33():
    df = read(*F, "small_terse_v3.txt")
    r = df.iloc[0]
    assert r["tool_version"] == "fio-3.33" and r["test"] == "small-randread-4k"
    assert close(val(df, "io_bytes"), 1028752 * 1024)  # field 5: KiB
    assert close(val(df, "bandwidth"), 342803 * 1024)  # field 6: KiB/s
    assert val(df, "iops") == 85700 and close(val(df, "runtime"), 3.001)
    assert close(val(df, "slat_mean"), 6.861864e-6)  # terse latencies are µs, also in 3.x
    assert close(val(df, "clat_max"), 42741e-6)
    assert close(val(df, "clat_p99.9"), 3391e-6)  # "99.900000%=3391"
    assert close(val(df, "lat_stddev"), 679.853113e-6)
    assert close(val(df, "bandwidth_max"), 432328 * 1024)
    assert close(val(df, "bandwidth_mean"), 357070.4 * 1024)
    assert close(val(df, "cpu_sys", "total"), 63.233333)  # "63.233333%"
    assert not df["metric"].astype(str).str.contains(r"_p0$").any()  # "0%=0" slots skipped
    assert set(df["op"].astype(str)) == {"read", "total"}


def test_terse_2_1_10_and_version_field():
    df = read(*F, "f2110_small_terse.txt")
    assert df["tool_version"].iloc[0] == "fio-2.1.10"
    assert val(df, "iops") == 88473 and close(val(df, "clat_p99.99"), 28544e-6)
    assert close(val(df, "cpu_usr", "total"), 6.966667)


def test_terse_v2_v4_v5():
    v2 = read(*G, "terse_v2.txt")  # 161 fields: no fio version, read+write+trim, no disk
    assert v2["tool_version"].isna().all() and set(v2["test"]) == {"terse_v2"}
    assert val(v2, "iops", "write") == 33608  # 2nd block, field 2
    assert close(val(v2, "clat_p99.99", "read"), 19267e-6)
    v4 = read(*G, "terse_v4.txt")  # 171 fields
    assert val(v4, "iops", "read") == 34565 and close(val(v4, "bandwidth", "read"),
                                                        138261 * 1024)
    v5 = read(*G, "terse_v5.txt")  # 189 fields: + bw samples, iops min/max/mean/stdev/samples
    assert val(v5, "iops", "read") == 34121
    fields = fixture(*G, "terse_v5.txt").read_text().strip().split(";")
    # read block starts at field 5; iops min..stdev at 5+42..5+45
    assert val(v5, "iops_min", "read") == float(fields[47])
    assert close(val(v5, "iops_stddev", "read"), float(fields[50]))
    assert close(val(v5, "cpu_usr", "total"), 4.4)  # "4.400000%" (field 146)


def test_terse_description_and_client_server():
    d = read(*G, "terse_v3_desc.txt")
    assert set(d["description"]) == {"tiny randread"} and val(d, "iops") == 90921
    cs = read(*G, "client_server_terse.txt")  # "Jobs: 2 (f=2)\r" glued to the first line
    assert sorted(cs["test"].unique()) == ["All clients", "csjob"]
    assert set(cs[cs["test"] == "All clients"]["flag"]) == {"aggregate"}
    assert val(cs, "iops", test="All clients") == 84810
    assert val(cs, "iops", test="csjob", row=1) == 42298


# ---------------------------------------------------------------- normal text

def test_normal_3_33():
    df = read(*F, "small_normal.txt")
    assert df["tool_version"].iloc[0] == "fio-3.33"
    # "pid=6036: Sun Nov 22 03:29:23 2026" (printed at the end, cut to the second) less the
    # runtime "3001msec": the start is in [03:29:19.999, 03:29:20.999), given to the second
    assert (df["timestamp"] == pd.Timestamp("2026-11-22 03:29:20", tz="UTC")).all()
    # IOPS=114k: "issued rwts: total=342683,…" over "(1339MiB/3001msec)", 114,190 rounded to
    # three digits
    assert close(val(df, "iops"), 342683 / 3.001)
    assert val(df, "bandwidth") == 446 * 2**20  # BW=446MiB/s
    assert val(df, "io_bytes") == 1339 * 2**20 and close(val(df, "runtime"), 3.001)
    assert close(val(df, "slat_stddev"), 29.15e-6)  # slat (usec) stdev=29.15
    assert close(val(df, "clat_p99.99"), 1532e-6)  # 99.99th=[ 1532] usec
    assert close(val(df, "bandwidth_mean"), 455868.80 * 1024)  # bw (KiB/s) avg
    assert close(val(df, "bw_agg"), 99.81)
    assert close(val(df, "iops_stddev"), 6700.81)
    assert close(val(df, "cpu_sys", "total"), 87.57)
    assert val(df, "total_ios") == 342683  # issued rwts: total=342683,0,0,0
    r = df.iloc[0]
    assert (r["block_size"], r["iodepth"], r["ioengine"], r["workload"]) == (
        4096, 8, "libaio", "randread")


def test_normal_auto_scaled_units_and_two_directions():
    df = read(*F, "cli_randrw_4k_normal.txt")
    # IOPS=42.3k: the issued count over the runtime, "issued rwts: total=126930,…" / 3001 msec
    assert close(val(df, "iops", "read"), 126930 / 3.001) and round(126930 / 3.001, -2) == 42300
    assert close(val(df, "bandwidth", "write"), 70.7 * 2**20)  # BW=70.7MiB/s
    assert close(val(df, "clat_min", "read"), 821e-9)  # clat (nsec): min=821
    assert close(val(df, "clat_max", "read"), 27398e3 * 1e-9)  # max=27398k nsec
    assert close(val(df, "lat_mean", "write"), 80.06e-6)  # lat (usec) avg=80.06
    assert val(df, "total_ios", "write") == 54291
    assert set(df["workload"].astype(str)) == {"randrw"}


def test_normal_group_reporting_jobs_count():
    df = read(*F, "multi_gr_normal.txt")
    assert set(df["test"]) == {"rr"} and (df["threads"] == 4).all()  # jobs=4
    # IOPS=46.2k: "issued rwts: total=150890,138744,0,0" over "(542MiB/3001msec)"
    assert close(val(df, "iops", "write"), 138744 / 3.001)
    assert close(val(df, "clat_max", "write"), 30506e3 * 1e-9)  # max=30506k (nsec)


def test_normal_2_x():
    d2 = read(*F, "f2110_small_normal.txt")
    assert d2["tool_version"].iloc[0] == "fio-2.1.10"
    assert close(val(d2, "io_bytes"), 1136.3 * 2**20)  # io=1136.3MB (MiB)
    assert val(d2, "bandwidth") == 387701 * 1024  # bw=387701KB/s (KiB/s)
    # iops=96925, the integer quotient of "issued: total=r=290873" over "runt=  3001msec"
    assert close(val(d2, "iops"), 290873 / 3.001) and 290873 * 1000 // 3001 == 96925
    assert close(val(d2, "runtime"), 3.001)
    assert close(val(d2, "clat_p99.99"), 15808e-6)
    assert val(d2, "total_ios") == 290873  # issued: total=r=290873/w=0/d=0
    d0 = read(*F, "f205_small_normal.txt")
    assert d0["tool_version"].iloc[0] == "2.0.5"  # printed "fio 2.0.5"
    assert close(val(d0, "slat_max"), 916e-6)  # "max=916 ," (2.0.5 spacing)
    assert close(val(d0, "iops"), 272050 / 3.000)  # "iops=90683 ,": total=r=272050, runt=3000
    assert close(val(d0, "clat_p99.9"), 290e-6)
    assert close(val(d0, "cpu_usr", "total"), 7.23)


def test_normal_client_server_host():
    df = read(*G, "client_server_normal.txt")
    # IOPS=35.6k: "issued rwts: total=35659,0,0,0" over "(139MiB/1001msec)"
    assert set(df["host"]) == {"vm"} and close(val(df, "iops"), 35659 / 1.001)
    assert close(val(df, "clat_p99.99"), 118e-6)


# ---------------------------------------------------------------- protocol

def test_sniff():
    assert fio.sniff(fixture(*F, "small_json.json").read_text()[:65536], "x") == "json"
    assert fio.sniff(fixture(*F, "small_terse_v3.txt").read_text(), "x") == "terse"
    assert fio.sniff(fixture(*F, "f205_small_normal.txt").read_text(), "x") == "normal"
    assert fio.sniff(fixture(*F, "logs_avg", "logavg_bw.1.log").read_text(), "x") is None
    for other in Path(fixture("bonnie")).iterdir():
        assert fio.sniff(other.read_text(errors="replace")[:65536], other.name) is None


@pytest.mark.parametrize("name", ["small_json.json", "status_interval.json",
                                  "small_terse_v3.txt", "multi_gr_normal.txt"])
def test_reading_twice_is_identical_and_inputs_untouched(name):
    parts = (*G, name) if name == "status_interval.json" else (*F, name)
    before = tree_digest(fixture("fio"))
    a = es.read_fio(fixture(*parts), series=True)
    b = es.read_fio(fixture(*parts), series=True)
    pd.testing.assert_frame_equal(a[0], b[0])
    pd.testing.assert_frame_equal(a[1], b[1])
    assert tree_digest(fixture("fio")) == before


def test_meta_overrides():
    df = es.read_fio(fixture(*F, "small_json.json"), config="gp3", host="h1")
    assert set(df["config"]) == {"gp3"} and set(df["host"]) == {"h1"}
    es.validate(df)


def test_workload_mapping():
    assert [fio.workload_of(x) for x in ("read", "write", "randread", "randwrite", "randrw",
                                         "rw", "readwrite", "trim", "randtrim:8")] == [
        "seqread", "seqwrite", "randread", "randwrite", "randrw", "mixed", "mixed", "other",
        "other"]


def test_rate_iops_option_and_achieved_rate():
    df = read(*F, "logs_raw_run.json")
    assert set(df["rate_iops"]) == {"1000"}  # job option rate_iops=1000 (a string column)
    assert close(val(df, "iops", "read"), 999.50025)  # the achieved rate, as fio printed it


FIO_DIR = Path(__file__).parent / "fixtures" / "fio"


@pytest.mark.parametrize("text", [
    *(p.read_text() for p in sorted(FIO_DIR.glob("*.json"))),
    'fio: note before the report\n{"jobs": [], "x": 1}\n\n',
    '{"jobs": [], "x": 1}\nfio: a note after the report\n',
    '{"jobs": [1]}\n{"jobs": [2]}\n',  # --status-interval: several documents
    '{"jobs": [], "v": NaN}',  # the standard library reads NaN, msgspec refuses it
    '{"jobs": [], "big": 123456789012345678901234567890}',
])
def test_json_documents_are_the_same_through_msgspec_and_the_standard_library(text):
    """The msgspec decoding gives the documents, their lines and the text around them exactly
    as the standard decoder's loop does (which it falls back to for what msgspec refuses)."""
    fast = fio_json._json_docs(text, "x.json")
    slow = fio_json._json_docs_stdlib(text, "x.json")
    assert repr(fast) == repr(slow)


@pytest.mark.parametrize("first", ["ebsstats.io.fio.jsonplus", "ebsstats.io.fio.log"])
def test_package_names_are_functions_whatever_module_is_imported_first(first):
    """The reader is a package with a module per format: its public names stay functions (no
    module shadows one), and ``json`` inside it is the standard library where it is used."""
    import subprocess
    import sys

    code = (f"import importlib, types; importlib.import_module({first!r})\n"
            "import ebsstats.io.fio as f, ebsstats.io.fio.json as j, ebsstats as es\n"
            "for n in f.__all__ + ['workload_of', 'job_meta']:\n"
            "    assert callable(getattr(f, n)), n\n"
            "    assert not isinstance(getattr(f, n), types.ModuleType), n\n"
            "assert j.json.__name__ == 'json' and hasattr(j.json, 'JSONDecoder')\n"
            "assert es.read_fio_log.__module__ == 'ebsstats.io.fio.log'\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_rwmixread_of_mixed_jobs():
    """A mixed job's read share (fio 3.33 JSON): --rwmixread=70 -> "70" (its issued reads and
    writes are near 70:30), a randrw without the option -> fio's default "50", a pure read ->
    none (the share says nothing there)."""
    mix = es.read(fixture("fio", "gen", "randrw_mix70.json"))
    assert set(mix["rwmixread"]) == {"70"}
    ios = mix[mix["metric"] == "total_ios"].set_index("op")["value"]
    assert 0.65 < ios["read"] / (ios["read"] + ios["write"]) < 0.75
    assert set(es.read(fixture("fio", "gen", "custom_percentiles.json"))["rwmixread"]) == {"50"}
    assert "rwmixread" in es.schema.WORKLOAD_PARAMETERS
    pure = es.read(fixture("fio", "gen", "sigint.json"))  # randread
    assert "rwmixread" not in pure or pure["rwmixread"].isna().all()
