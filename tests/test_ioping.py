"""ioping reader: the genuine samples (ioping 1.3) and the extra ones made by
tests/fixtures/make_sysbench_fixtures.sh. Expected values are read by hand off the raw files;
comments give the conversion (KiB/MiB binary, "k" = 1000, ns = 1e-9 s)."""

from __future__ import annotations

import pandas as pd
import pytest

import ebsstats as es
from ebsstats.errors import ParseError
from ebsstats.io import ioping as ip
from tests.conftest import FIXTURES, fixture, tree_digest

KiB, MiB = 2**10, 2**20
ALL = sorted(p for p in (FIXTURES / "ioping").iterdir() if p.is_file())


def read(name, **kw):
    return es.read_ioping(fixture("ioping", name), **kw)


def one(df, metric, op=None):
    rows = df[df["metric"] == metric]
    if op is not None:
        rows = rows[rows["op"] == op]
    assert len(rows) == 1, (metric, len(rows))
    return float(rows["value"].iloc[0])


def approx(x):
    return pytest.approx(x, rel=1e-12, abs=1e-18)


def test_default_output_summary_and_requests():
    df, ts = read("ioping_c10.txt", series=True)
    es.validate(df)
    es.validate_series(ts)
    # "min/avg/max/mdev = 77.0 us / 114.4 us / 153.0 us / 25.0 us"
    assert one(df, "lat_min") == approx(77.0e-6)
    assert one(df, "lat_mean") == approx(114.4e-6)
    assert one(df, "lat_max") == approx(153.0e-6)
    assert one(df, "lat_stddev") == approx(25.0e-6)
    # "9 requests completed in 1.03 ms, 36 KiB read, 8.74 k iops, 34.2 MiB/s"
    assert one(df, "iops") == approx(8740.0)
    assert one(df, "bandwidth") == approx(34.2 * MiB)
    assert one(df, "total_ios") == 9 and one(df, "io_bytes") == 36 * KiB
    assert one(df, "runtime") == approx(9.0)  # "generated 10 requests in 9.00 s"
    r = df.iloc[0]
    assert (r.tool, r.test, r.op, r.workload, r.block_size) == ("ioping", "ioping", "read",
                                                                "randread", 4096)
    assert (r.filesystem, r.device, r.target) == ("ext4", "/dev/vda", "/mnt/bench/iopwork")
    assert pd.isna(r.timestamp) and pd.isna(r.tool_version)
    assert df.loc[df.metric == "iops", "position"].item() == "line 13"
    # per-request series: request 1 is the warm-up (excluded, as ioping does), 2..10 kept;
    # t = (request - 1) * interval, interval = 9.00 s / (10 - 1) gaps = 1 s
    assert ts["t"].tolist() == [approx(float(k)) for k in range(1, 10)]
    assert ts["value"].tolist()[:2] == [approx(90.0e-6), approx(92.7e-6)]  # "time=90.0 us"
    assert set(ts["metric"].astype(str)) == {"lat"} and set(ts["unit"].astype(str)) == {"s"}
    assert ts["run_id"].unique().tolist() == df["run_id"].unique().tolist()
    # an explicit interval wins
    _, ts2 = read("ioping_c10.txt", series=True, interval=0.5)
    assert ts2["t"].tolist()[:3] == [0.5, 1.0, 1.5]


def test_quiet_summary_with_mixed_units():
    df = read("ioping_q_c20.txt")
    es.validate(df)
    # "min/avg/max/mdev = 37.9 us / 960.8 us / 16.7 ms / 3.71 ms"
    assert one(df, "lat_min") == approx(37.9e-6)
    assert one(df, "lat_mean") == approx(960.8e-6)
    assert one(df, "lat_max") == approx(16.7e-3)
    assert one(df, "lat_stddev") == approx(3.71e-3)
    # "19 requests completed in 18.3 ms, 76 KiB read, 1.04 k iops, 4.07 MiB/s"
    assert one(df, "iops") == approx(1040.0) and one(df, "bandwidth") == approx(4.07 * MiB)
    assert set(df["block_size"]) == {4096}  # 76 KiB / 19 requests
    assert one(df, "runtime") == approx(1.90)  # "generated 20 requests in 1.90 s"



def test_a_request_size_beyond_64_bits_is_refused_at_its_line():
    # fuzzing found it: "99999999999999999999999999 KiB read" over 19 requests made a block
    # size the Int64 column cannot hold, and typing crashed with OverflowError
    text = fixture("ioping", "ioping_q_c20.txt").read_text().replace(
        "76 KiB read", "99999999999999999999999999 KiB read")
    line = next(k for k, ln in enumerate(text.splitlines(), 1) if "requests completed" in ln)
    with pytest.raises(ParseError, match="within 64 bits") as err:
        ip.parse(text, "q.txt")
    assert err.value.position == f"line {line}"

def test_writes():
    df, ts = read("ioping_W_D_c4.txt", series=True)
    es.validate(df)
    assert set(df["op"].astype(str)) == {"write"} and set(df["workload"].astype(str)) == {
        "randwrite"}
    assert set(df["block_size"]) == {8192}  # "8 KiB >>>"
    # "3 requests completed in 1.92 ms, 24 KiB written, 1.56 k iops, 12.2 MiB/s"
    assert one(df, "iops") == approx(1560.0) and one(df, "bandwidth") == approx(12.2 * MiB)
    assert one(df, "lat_mean") == approx(639.9e-6)  # "/ 639.9 us /"
    assert one(df, "runtime") == approx(300.8e-3)  # "generated 4 requests in 300.8 ms"
    # interval = 0.3008 s / 3 gaps; requests 2..4
    assert ts["t"].tolist() == [approx(k * 0.3008 / 3) for k in (1, 2, 3)]
    assert ts["value"].tolist() == [approx(608.3e-6), approx(663.1e-6), approx(648.3e-6)]


def test_batch_raw_line():
    df = read("ioping_B_c20.txt")
    es.validate(df)
    # "19 1707550 11127 45576411 45505 89871 170009 38269 20 1900157788"
    assert one(df, "total_ios") == 19
    assert one(df, "iops") == 11127 and one(df, "bandwidth") == 45576411  # bytes/s
    assert one(df, "lat_min") == approx(45505e-9) and one(df, "lat_mean") == approx(89871e-9)
    assert one(df, "lat_max") == approx(170009e-9) and one(df, "lat_stddev") == approx(38269e-9)
    assert one(df, "runtime") == approx(1.900157788)  # wall time, ns
    # the raw line does not say read or write
    assert set(df["op"].astype(str)) == {"total"} and set(df["workload"].astype(str)) == {"other"}
    forced = read("ioping_B_c20.txt", op="read", workload="randread")
    assert set(forced["op"].astype(str)) == {"read"}


def test_periodic_raw_lines():
    # -B -p 2: two periodic lines, then the whole run's (count 4 = 2 + 2, generated 5 = 3 + 2)
    df, ts = read("ioping_B_p2_c5.txt", series=True)
    es.validate(df)
    es.validate_series(ts)
    assert set(df["position"]) == {"line 3"}
    assert one(df, "lat_mean") == approx(169553e-9) and one(df, "total_ios") == 4
    assert one(df, "runtime") == approx(0.400335111)
    assert ts["t"].unique().tolist() == [approx(0.200297805), approx(0.200297805 + 0.200008402)]
    first = ts[ts.t == ts.t.min()].set_index("metric")["value"]
    assert first["iops"] == 6234 and first["bandwidth"] == 25536000
    assert first["lat_mean"] == approx(160401e-9)
    # -q -p 2: periodic lines only -> no results, series kept, a note says why
    p = ip.parse(fixture("ioping", "ioping_q_p2_c5.txt").read_text(), "q")
    assert p.records == [] and any("periodic" in n for n in p.notes)
    df, ts = read("ioping_q_p2_c5.txt", series=True)
    assert len(df) == 0 and len(ts) == 6
    es.validate(df)
    # -p 2 with the human summary: results from the summary, periodic lines as series
    df, ts = read("ioping_p2_c5.txt", series=True)
    assert one(df, "lat_mean") == approx(230.8e-6) and one(df, "iops") == approx(4330.0)
    # periodic "2 473788 4221 17290434 222306 236894 ..." and "2 449282 4452 ... 224641 ..."
    assert ts.loc[ts.metric == "lat_mean", "value"].tolist() == [approx(236894e-9),
                                                                 approx(224641e-9)]
    periodic = ts[ts.metric == "iops"]
    assert periodic["value"].tolist() == [4221.0, 4452.0]
    assert len(ts[ts.metric == "lat"]) == 4  # requests 2..5


def test_json():
    df, ts = read("ioping_json.txt", series=True)
    es.validate(df)
    es.validate_series(ts)
    assert set(df["timestamp"]) == {pd.Timestamp("2026-11-22 03:40:25.484101", tz="UTC")}
    # "$[5].stat": count 4, iops 7615.377732, bps 31192587, min/avg/max/mdev ns
    assert one(df, "total_ios") == 4 and one(df, "io_bytes") == 16384
    assert one(df, "iops") == approx(7615.377732) and one(df, "bandwidth") == 31192587
    assert one(df, "lat_min") == approx(90820e-9) and one(df, "lat_mean") == approx(131313e-9)
    assert one(df, "lat_max") == approx(152756e-9) and one(df, "lat_stddev") == approx(24281e-9)
    assert one(df, "runtime") == approx(0.400263337)  # "load": {"time": 400263337}
    assert df.loc[df.metric == "lat_mean", "position"].item() == "$[5].stat.avg"
    assert set(df["filesystem"]) == {"ext4"} and set(df["block_size"]) == {4096}
    # requests 2..5 (request 1 "ignored": true); t from the timestamps
    assert ts["t"].tolist() == [approx(t - 1795318825.484101) for t in (
        1795318825.584309, 1795318825.684308, 1795318825.784303, 1795318825.884262)]
    assert ts["value"].tolist() == [approx(v * 1e-9) for v in (134622, 147055, 152756, 90820)]

    df, ts = read("ioping_json_p2_c5.txt", series=True)
    assert set(df["position"].str[:4]) == {"$[7]"}  # the last "stat" is the whole run's
    assert one(df, "lat_mean") == approx(189518e-9)
    periodic = ts[ts.metric == "iops"]
    assert periodic["value"].tolist() == [approx(4986.884494), approx(5601.958445)]


def test_errors():
    with pytest.raises(ParseError) as ei:
        ip.parse("4 KiB <<< . (ext4 /dev/vda 1 GiB): request=1 time=5.0 us (warmup)\n"
                 "4 KiB <<< . (ext4 /dev/vda 1 GiB): request=2 time=5.0 us\n"
                 "garbage here\n", "bad.txt")
    assert ei.value.position == "line 3" and ei.value.found == "garbage here"
    text = fixture("ioping", "ioping_c10.txt").read_text().splitlines()
    with pytest.raises(ParseError, match="min/avg/max/mdev"):
        ip.parse("\n".join(text[:-1]), "cut.txt")  # statistics block cut short
    with pytest.raises(ParseError, match="cut short"):
        ip.parse("\n".join(text[:5]), "cut.txt")  # requests but no statistics
    with pytest.raises(ParseError) as ei:
        ip.parse("ioping: No such file or directory\n", "e.txt")
    assert ei.value.found == "ioping: No such file or directory"
    with pytest.raises(ParseError):
        ip.parse('[{"timestamp": 1, "target": {}, "io": {', "broken.json")
    with pytest.raises(ParseError, match="stat"):
        ip.parse('[{"timestamp": 1, "target": {}, "io": {"request": 1}}]', "nostat.json")
    with pytest.raises(ParseError):
        ip.parse("", "empty.txt")


def test_sniff():
    assert ip.sniff(fixture("ioping", "ioping_c10.txt").read_text(), "x") == "text"
    assert ip.sniff(fixture("ioping", "ioping_q_c20.txt").read_text(), "x") == "text"
    assert ip.sniff(fixture("ioping", "ioping_B_c20.txt").read_text(), "x") == "raw"
    assert ip.sniff(fixture("ioping", "ioping_json.txt").read_text(), "x") == "json"
    assert ip.sniff(fixture("sysbench", "sb_cpu.txt").read_text(), "x") is None
    assert ip.sniff('{"fio version": "fio-3.33", "jobs": []}', "x") is None
    assert ip.sniff("1 2 3\n", "x") is None
    for p in ALL:
        assert ip.sniff(p.read_text(), p.name) is not None, p.name


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_every_fixture_reads_twice_identically_and_validates(path):
    before = tree_digest(path.parent)
    df1, ts1 = es.read_ioping(path, series=True)
    df2, ts2 = es.read_ioping(path, series=True)
    pd.testing.assert_frame_equal(df1, df2)
    pd.testing.assert_frame_equal(ts1, ts2)
    es.validate(df1)
    es.validate_series(ts1)
    assert tree_digest(path.parent) == before


def test_the_older_request_lines_are_skipped_with_what_they_are(tmp_path):
    """AbhishekGhosh/OpenVZ-2GB-Host1Plus-Benchmark's ioping log prints "4.0 KiB from .
    (ext4 /dev/ploop12411p1): request=1 time=296 us" (no "<<<"): a form the reader does not
    read, which the folder listing called "not a recognised benchmark output". Two of its
    lines, typed here (no older ioping can be run on this machine to make a fixture)."""
    (tmp_path / "ioping.txt").write_text(
        "root@host:~# ioping .\n"
        "4.0 KiB from . (ext4 /dev/ploop12411p1): request=1 time=296 us\n"
        "4.0 KiB from . (ext4 /dev/ploop12411p1): request=2 time=455 us\n")
    row = es.check(tmp_path).set_index("source").loc["ioping.txt"]
    assert row["action"] == "skip" and row["reason"].startswith("ioping's older output")
    assert "'4 KiB <<< TARGET'" in row["reason"]


def test_a_run_copied_from_a_terminal_with_its_prompt_is_read(tmp_path):
    """A run pasted with the shell's prompt and command before it (echochio-tw's blog post:
    ``[root@ip-172-31-35-11 ramdisk] #  ioping -S64M -L -s4k -W -c 10 .``) was "not a
    recognised benchmark output": the sniff looked at the first line only. Up to 5 such lines
    may come first; lines before each run are left out with a note naming them; a line that
    is not ioping's inside a run is still refused."""
    run = fixture("ioping", "ioping_c10.txt").read_text()
    alone = es.read(fixture("ioping", "ioping_c10.txt"))
    prompt = "[root@ip-172-31-35-11 ~] # cd /mnt/bench\n[root@ip-172-31-35-11 bench] #  ioping "
    path = tmp_path / "session.txt"
    path.write_text(prompt + "-c 10 iopwork\n" + run + "[root@ip ~] # date\nFri Aug 27 2021\n"
                    + run)
    c = es.check(tmp_path).set_index("source")
    assert c.loc["session.txt", "action"] == "read"
    got = es.read(path)
    assert len(got) == 2 * len(alone)
    assert got["value"].tolist() == alone["value"].tolist() * 2
    notes = [f["reason"] for f in got.attrs["failures"] if f["kind"] == "note"]
    assert len(notes) == 4 and "[root@ip ~] # date" in notes[2]
    lines = run.splitlines()
    path.write_text(prompt + "-c 10 iopwork\n" + "\n".join(lines[:3] + ["oops"] + lines[3:]))
    with pytest.raises(ParseError, match="line 6"):
        es.read_ioping(path)
    # no line of ioping's at all: refused at the first line, not called "an empty file"
    path.write_text("$ ioping -c 10 .\n19 1707550 11127\n")
    with pytest.raises(ParseError, match="line 1: expected an ioping request line"):
        es.read_ioping(path)
    # six lines before ioping's first: not taken for ioping's
    (tmp_path / "six.txt").write_text("x\n" * 6 + run)
    assert es.check(tmp_path).set_index("source").loc["six.txt", "action"] == "skip"


def test_a_json_io_size_beyond_64_bits_is_a_positioned_error():
    # fuzz seed 48: "size": 1e308 in the first io object became a block_size Python could not
    # put in an Int64 column (an invalid frame, not a ParseError)
    text = fixture("ioping", "ioping_json_p2_c5.txt").read_text()
    assert '"size": 4096,' in text
    bad = text.replace('"size": 4096,', '"size": 1e308,', 1)
    with pytest.raises(es.ParseError, match=r"\$\[0\]\.io\.size.*1 byte to 8 EiB"):
        ip.parse(bad, "x.json")
