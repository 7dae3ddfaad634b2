"""PTS reader: values read by hand off the genuine samples in tests/fixtures/pts/."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.io import pts
from tests.conftest import FIXTURES, fixture, tree_digest

MiB = 2**20
ONE = fixture("pts", "pts-10.8.4_composite_1system.xml")
TWO = fixture("pts", "ebs-mini-two-volumes", "composite.xml")
TWO_DIR = TWO.parent
PRE3 = fixture("pts", "synthetic_pre3.0_composite.xml")


def rows(df, **eq):
    m = pd.Series(True, index=df.index)
    for k, v in eq.items():
        m &= df[k] == v
    return df[m]


def runs(df, **eq):
    return rows(df, **eq).query("flag.isna()").sort_values("repetition")


# ------------------------------------------------------------------ sniffing


@pytest.mark.parametrize("path,fmt", [
    (ONE, "composite.xml"),
    (TWO, "composite.xml"),
    (PRE3, "composite.xml pre-3.0"),
    (fixture("pts", "ebs-fio-sample.result-file-to-csv.csv"), "csv export"),
    (fixture("pts", "ebs-mini-two-volumes", "ebs-mini-two-volumes.csv"), "csv export"),
    (fixture("pts", "ebs-mini-two-volumes", "ebs-mini-two-volumes-raw.csv"), "raw csv export"),
    (fixture("pts", "ebs-fio-sample.result-file-to-json.json"), "json export"),
    (fixture("pts", "ebs-mini-single-volume", "ebs-mini-single-volume.json"), "json export"),
    (fixture("pts", "ebs-mini-two-volumes", "ebs-mini-two-volumes.txt"), None),
    (fixture("pts", "ebs-mini-two-volumes", "ebs-mini-two-volumes-stats.txt"), None),
])
def test_sniff_pts_files(path, fmt):
    assert pts.sniff(path.read_text()[:65536], path.name) == fmt


def test_sniff_claims_no_other_tool_output():
    root = Path(fixture("fio")).parent
    for tool in ("fio", "bonnie", "sysbench", "ioping"):
        for f in (root / tool).rglob("*"):
            if f.is_file():
                assert pts.sniff(f.read_text(errors="replace")[:65536], f.name) is None, f
    # test logs inside a PTS result dir are raw fio/sysbench output, not PTS files
    for f in (TWO_DIR / "test-logs").rglob("*.log"):
        assert pts.sniff(f.read_text()[:65536], f.name) is None
    # PTS test-profile definitions share the root element but are not results
    prof = ('<?xml version="1.0"?>\n<PhoronixTestSuite>\n  <ResultsParser>\n'
            '    <OutputTemplate>x</OutputTemplate>\n  </ResultsParser>\n</PhoronixTestSuite>')
    assert pts.sniff(prof, "results-definition.xml") is None
    assert pts.sniff('{"fio version": "fio-3.33", "jobs": []}', "x.json") is None


# ------------------------------------------------------------------ composite.xml 10.8.4


@pytest.fixture(scope="module")
def one():
    df, ts = es.read_pts(ONE, series=True)
    return es.validate(df), es.validate_series(ts)


def test_one_system_raw_runs_and_reported_mean(one):
    df, _ = one
    bw = rows(df, arguments="randread libaio 0 1 1m", metric="bandwidth")
    r = runs(bw)
    # RawString 2367:1595:2119 MB/s (PTS fio = MiB/s) * 2**20
    assert r["value"].tolist() == [2367 * MiB, 1595 * MiB, 2119 * MiB]
    assert r["repetition"].tolist() == [0, 1, 2]
    mean = rows(bw, flag="reported_mean")
    assert mean["value"].tolist() == [2027 * MiB]  # <Value>2027</Value>
    # PTS's Value is the (rounded) mean of the RawString runs
    assert mean["value"].iloc[0] == pytest.approx(r["value"].mean(), rel=1e-3)
    assert mean["repetition"].isna().all()
    assert set(bw["unit"]) == {"B/s"} and bw["higher_is_better"].all()
    assert set(bw["mb_basis"]) == {"MiB/s (checked: IOPS x block size)"}


def test_one_system_iops_and_metadata(one):
    df, _ = one
    r = runs(df, arguments="randwrite libaio 0 1 4k", metric="iops")
    assert r["value"].tolist() == [91700.0, 94100.0, 110000.0]  # RawString 91700:94100:110000
    first = r.iloc[0]
    assert first["config"] == "vol-a gp3"
    assert first["test"] == "Flexible IO Tester"
    assert first["workload"] == "randwrite" and first["op"] == "write"
    assert first["block_size"] == 4096  # "Block Size: 4KB" (fio's 4k = 4096 B)
    assert first["result_identifier"] == "local/fio-ebs-1.15.0"
    assert first["app_version"] == "3.29"
    assert first["scale"] == "IOPS"
    assert first["tool"] == "pts" and first["tool_version"] == "10.8.4"
    # System TimeStamp 2026-11-22 03:43:40, local time without zone, read as UTC
    assert first["timestamp"] == pd.Timestamp("2026-11-22 03:43:40", tz="UTC")
    assert first["hw_processor"] == "AMD EPYC (2 Cores)"
    assert first["hw_disk"] == "252GB"
    assert first["sw_os"] == "Debian 12"
    assert first["sw_kernel"] == "6.18.44-fc-v769 (x86_64)"
    assert first["sw_compiler"] == "GCC 12.2.0 + LLVM 14.0.6"
    assert first["sw_file_system"] == "ext4" and first["filesystem"] == "ext4"
    assert first["position"] == "/PhoronixTestSuite/Result[8]/Data/Entry[1]/RawString (run 1)"


def test_runtime_rows_once_per_run_and_series(one):
    df, ts = one
    rt = rows(df, arguments="randread libaio 0 1 1m", metric="runtime")
    # test-run-times 3.46:3.48:3.46, shared by the MB/s and IOPS results: emitted once
    assert rt["value"].tolist() == [3.46, 3.48, 3.46]
    assert set(rt["unit"]) == {"s"}
    # the raw runs of MB/s and IOPS of one execution share run_ids
    bw = runs(df, arguments="randread libaio 0 1 1m", metric="bandwidth")
    io = runs(df, arguments="randread libaio 0 1 1m", metric="iops")
    assert bw["run_id"].tolist() == io["run_id"].tolist() == rt["run_id"].tolist()
    s = ts[(ts["arguments"] == "randread libaio 0 1 1m") & (ts["metric"] == "iops")]
    assert s["value"].tolist() == [2336.0, 1564.0, 2088.0]
    assert s["t"].tolist() == pytest.approx([0.0, 3.46, 6.94])  # cumulative test-run-times
    assert set(s["t_basis"]) == {"test-run-times"}
    assert s["run_id"].tolist() == io["run_id"].tolist()


def test_tz_option(tmp_path):
    df = es.read_pts(ONE, tz="Europe/Berlin")
    # 03:43:40 CET (UTC+1 in November) = 02:43:40 UTC
    assert df["timestamp"].iloc[0] == pd.Timestamp("2026-11-22 02:43:40", tz="UTC")
    with pytest.raises(ValueError):
        es.read_pts(ONE, tz="Mars/Olympus")


# ------------------------------------------------------------------ composite.xml 10.8.6, 2 systems


@pytest.fixture(scope="module")
def two():
    df, ts = es.read_pts(TWO, series=True)
    return es.validate(df), es.validate_series(ts)


def test_two_systems_fio_sys_profile_is_decimal_mb(two):
    df, _ = two
    r = runs(df, config="piops1000", arguments="randwrite libaio 1 4k", metric="bandwidth")
    # RawString 4.065:4.095:4.095; the local fio-sys profile reports fio's "(4095kB/s)", i.e.
    # decimal MB/s (test-logs show BW=3999KiB/s (4095kB/s)): * 10**6, checked against
    # IOPS 997 * 4096 B = 4.08e6 B/s
    assert r["value"].tolist() == pytest.approx([4.065e6, 4.095e6, 4.095e6], rel=1e-12)
    assert r["repetition"].tolist() == [0, 1, 2]
    assert set(r["mb_basis"]) == {"MB/s (checked: IOPS x block size)"}
    forced = es.read_pts(TWO, fio_mb="MiB")
    f = runs(forced, config="piops1000", arguments="randwrite libaio 1 4k", metric="bandwidth")
    assert f["value"].tolist() == [4.065 * MiB, 4.095 * MiB, 4.095 * MiB]


def test_two_systems_sysbench_rates_and_latency_are_canonical(two):
    # the sysbench file I/O profile's ms result is sysbench's "Latency (ms) avg:" (its test
    # log: 0.06, 0.88, 2.96 for small-attached-ebs rndrd): lat_mean in seconds
    df, _ = two
    lat = rows(df, config="small-attached-ebs", arguments="seqwr 1M", scale="ms")
    r = runs(lat, metric="lat_mean")
    assert r["value"].tolist() == pytest.approx([5.77e-3, 2.95e-3, 690.39e-3], rel=1e-12)
    assert set(r["unit"]) == {"s"} and set(r["basis"]) == {"ms -> s (the profile's mean latency)"}
    assert not r["higher_is_better"].any()  # Proportion LIB
    mean = rows(lat, flag="reported_mean")
    assert mean["value"].tolist() == pytest.approx([233.04e-3], rel=1e-12)
    assert mean["value"].iloc[0] == pytest.approx(np.mean([5.77, 2.95, 690.39]) / 1e3, abs=1e-5)
    mbs = runs(df, config="piops1000", arguments="rndrd 4K", scale="MB/s")
    assert set(mbs["metric"]) == {"bandwidth"} and set(mbs["unit"]) == {"B/s"}
    # MB/s 4.01604608 (= sysbench's 3.83 MiB/s x 1.048576) beside IOPS 981.38 x 4096 B =
    # 4.0197e6 B/s: the profile's MB are decimal, found by the same check as for fio
    assert mbs["value"].tolist() == pytest.approx([4.01604608e6, 4.22576128e6, 4.28867584e6],
                                                  rel=1e-12)
    assert set(mbs["mb_basis"]) == {"MB/s (checked: IOPS x block size)"}
    iops = runs(df, config="piops1000", arguments="rndrd 4K", scale="IOPS")
    assert set(iops["metric"]) == {"iops"} and set(iops["unit"]) == {"IO/s"}
    assert set(mbs["workload"]) == {"randread"}  # Test Mode: Random Read
    es.validate(df)


def test_test_log_times(two):
    df, ts = two
    r = runs(df, config="piops1000", arguments="randread libaio 1 4k", metric="iops")
    # test-logs/3916cc9b…/piops1000.log: "piops1000 - Run 1/2/3" at 03:44:56, 03:45:04, 03:45:10
    assert r["timestamp"].tolist() == [pd.Timestamp(f"2026-11-22 {t}", tz="UTC")
                                       for t in ("03:44:56", "03:45:04", "03:45:10")]
    assert r["result_hash"].iloc[0] == "3916cc9b7b4320099d2a6dd58d78b5b990b04673"
    s = ts[(ts["config"] == "piops1000") & (ts["arguments"] == "randread libaio 1 4k")
           & (ts["metric"] == "iops")]
    assert s["t"].tolist() == [0.0, 8.0, 14.0]
    assert set(s["t_basis"]) == {"test-log"}
    # without the logs the reported System TimeStamp is used
    no = es.read_pts(TWO, test_logs=False)
    r2 = runs(no, config="piops1000", arguments="randread libaio 1 4k", metric="iops")
    assert set(r2["timestamp"]) == {pd.Timestamp("2026-11-22 03:44:46", tz="UTC")}


# ------------------------------------------------------------------ missing entries


def test_missing_entries_for_a_system():
    df = es.validate(es.read_pts(fixture("pts", "ebs-fio-sample.result-file-to-json.json")))
    # vol-b gp2 ran only the 4KB random-read option: no rows for the other results
    b = rows(df, config="vol-b gp2")
    assert set(b["arguments"]) == {"randread libaio 0 1 4k"}
    r = runs(b, metric="bandwidth")
    assert r["value"].tolist() == [359 * MiB, 322 * MiB, 398 * MiB]  # raw_values 359,322,398
    assert rows(b, metric="bandwidth", flag="reported_mean")["value"].tolist() == [360 * MiB]
    assert set(rows(df, config="vol-a gp3")["arguments"]) == {
        "randread libaio 0 1 1m", "randread libaio 0 1 4k", "randwrite libaio 0 1 1m",
        "randwrite libaio 0 1 4k"}
    assert set(b["sw_file_system"]) == {"ext4"}  # JSON export: software dict


# ------------------------------------------------------------------ exports


def test_csv_export_reported_means_only():
    df = es.validate(es.read_pts(fixture("pts", "ebs-fio-sample.result-file-to-csv.csv")))
    assert set(df["flag"]) == {"reported_mean"}
    v = rows(df, config="vol-b gp2", metric="iops")
    assert v["value"].tolist() == [92067.0]  # row "…Block Size: 4KB … (IOPS)",HIB,108667,92067
    assert v["description"].iloc[0].startswith("Type: Random Read - Engine: Linux AIO")
    bw = rows(df, config="vol-a gp3", metric="bandwidth", block_size=4096, workload="randwrite")
    assert bw["value"].tolist() == [385 * MiB]  # 385 MB/s (PTS fio = MiB/s) * 2**20
    assert bw["hw_processor"].iloc[0] == "AMD EPYC (2 Cores)"  # system table row Processor
    assert bw["filesystem"].iloc[0] == "ext4"
    # 8 results; vol-b only has 2 values
    assert len(df) == 8 + 2


def test_raw_csv_export_runs_without_scale():
    df = es.validate(es.read_pts(
        fixture("pts", "ebs-mini-two-volumes", "ebs-mini-two-volumes-raw.csv")))
    assert set(df["metric"]) == {"score"} and set(df["unit"]) == {"unknown"}
    assert set(df["flag"]) == {"scale_unknown"}
    r = rows(df, config="piops1000", test="Sysbench File I/O (System sysbench)")
    # third block of the sysbench random-read option is the LIB latency: 0.12,0.1,0.08
    lib = r[r["higher_is_better"] == False]  # noqa: E712
    assert lib["value"].tolist()[:3] == [0.12, 0.1, 0.08]
    assert set(r["app_version"]) == {"1.0.20"}  # "Sysbench File I/O (System sysbench) 1.0.20"


def test_json_export_matches_composite(two):
    df, _ = two
    js = es.validate(es.read_pts(fixture("pts", "ebs-mini-two-volumes",
                                         "ebs-mini-two-volumes.json")))
    cols = ["config", "arguments", "scale", "metric", "repetition", "value", "timestamp"]
    a = df[cols].sort_values(cols[:5]).reset_index(drop=True)
    b = js[cols].sort_values(cols[:5]).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)


# ------------------------------------------------------------------ pre-3.0 schema


def test_pre3_schema_synthetic():
    # tests/fixtures/pts/synthetic_pre3.0_composite.xml is NOT genuine: no PTS 0.x-2.x file was
    # found; it is written from the element structure documented in FORMATS.md section 4.2.
    df = es.validate(es.read_pts(PRE3))
    r = runs(df, config="raid0-xfs")
    # RawString 87.00:89.00:89.50 MB/s: a rate, in B/s; dbench's MB is 10^6 bytes (dbench.c:
    # throughput = 1.0e-6 * total_bytes / t), the profile's (PROFILE_MB)
    assert r["value"].tolist() == [87.0e6, 89.0e6, 89.5e6]
    assert set(r["metric"]) == {"bandwidth"} and set(r["unit"]) == {"B/s"}
    assert set(r["mb_basis"]) == {"MB/s (the dbench profile: its tool counts 10^6 bytes)"}
    assert r["description"].iloc[0] == "12 Clients"  # Attributes
    assert r["arguments"].iloc[0] == "-c client.txt 12"  # TestArguments
    assert r["result_identifier"].iloc[0] == "dbench"  # TestName
    assert r["timestamp"].iloc[0] == pd.Timestamp("2009-05-03 12:40:00", tz="UTC")  # TestDate
    assert r["tool_version"].iloc[0] == "2.0.0"
    assert r["hw_system_memory"].iloc[0] == "1700MB"
    assert r["filesystem"].iloc[0] == "xfs"
    unpack = rows(df, test="Unpacking The Linux Kernel")
    assert set(unpack["config"]) == {"ebs-ext3"}  # raid0-xfs has no entry
    assert not unpack["higher_is_better"].any()  # LIB
    assert rows(unpack, flag="reported_mean")["value"].tolist() == [25.10]


# ------------------------------------------------------------------ details and errors


def test_split_system_string():
    s = ("OS: Debian 12, Kernel: 6.18.44-fc-v769 (x86_64), Compiler: GCC 12.2.0 + LLVM 14.0.6, "
         "File-System: ext4, System Layer: docker")
    assert pts.split_system_string(s) == {
        "OS": "Debian 12", "Kernel": "6.18.44-fc-v769 (x86_64)",
        "Compiler": "GCC 12.2.0 + LLVM 14.0.6", "File-System": "ext4", "System Layer": "docker"}
    # commas inside a value stay (no known key follows them)
    assert pts.split_system_string("Disk: 2 x 100GB (md0, raid0), Memory: 4GB") == {
        "Disk": "2 x 100GB (md0, raid0)", "Memory": "4GB"}
    assert pts.split_system_string("Graphics: llvmpipe, 256MB, Monitor: none") == {
        "Graphics": "llvmpipe, 256MB", "Monitor": "none"}


XML_HEAD = '<?xml version="1.0"?>\n'


def _composite(entries: str, scale="MB/s", ident="pts/fio-1.15.0", args="read libaio 0 1 4k",
               desc="Type: Sequential Read - Block Size: 4KB", fmt="BAR_GRAPH") -> str:
    return (XML_HEAD + "<PhoronixTestSuite><Generated><Title>t</Title></Generated>"
            "<System><Identifier>a</Identifier><TimeStamp>2024-01-02 03:04:05</TimeStamp>"
            "</System><System><Identifier>b</Identifier></System>"
            f"<Result><Identifier>{ident}</Identifier><Title>Flexible IO Tester</Title>"
            f"<Arguments>{args}</Arguments><Description>{desc}</Description>"
            f"<Scale>{scale}</Scale><Proportion>HIB</Proportion>"
            f"<DisplayFormat>{fmt}</DisplayFormat><Data>{entries}</Data></Result>"
            "</PhoronixTestSuite>")


def test_non_numeric_values_skipped_with_note():
    text = _composite("<Entry><Identifier>a</Identifier><Value>PASS</Value>"
                      "<RawString>PASS:PASS</RawString></Entry>"
                      "<Entry><Identifier>b</Identifier><Value>12</Value>"
                      "<RawString>11:13</RawString></Entry>", scale="Seconds", fmt="PASS_FAIL")
    p = pts.parse(text, "x.xml")
    assert [r["config"] for r in p.records] == ["b", "b", "b"]
    assert any("non-numeric Value 'PASS'" in n for n in p.notes)
    df = es.validate(es.io.frame(p.records))
    assert set(df["metric"]) == {"score"} and set(df["unit"]) == {"Seconds"}


def test_mb_basis_assumed_without_iops_sibling():
    p = pts.parse(_composite("<Entry><Identifier>a</Identifier><Value>103</Value>"
                             "<RawString>103</RawString></Entry>"), "x.xml")
    # 103 MB/s (PTS fio = MiB/s) * 2**20
    assert [r["value"] for r in p.records] == [103 * MiB, 103 * MiB]
    assert p.records[0]["mb_basis"].startswith("MiB/s assumed")


def test_nib_proportion_is_na():
    text = _composite("<Entry><Identifier>a</Identifier><Value>5</Value></Entry>",
                      scale="Watts").replace("HIB", "NIB")
    df = es.validate(es.io.frame(pts.parse(text, "x.xml").records))
    assert df["higher_is_better"].isna().all()


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<PhoronixTestSuite><Generated><Title>&lol3;</Title></Generated></PhoronixTestSuite>"""

EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE PhoronixTestSuite [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<PhoronixTestSuite><Generated><Title>&xxe;</Title></Generated></PhoronixTestSuite>"""


@pytest.mark.parametrize("doc", [BILLION_LAUGHS, EXTERNAL], ids=["billion-laughs", "xxe"])
def test_defusedxml_refuses_entities(doc):
    with pytest.raises(es.ParseError) as ei:
        pts.parse(doc, "evil.xml")
    assert "evil.xml" in str(ei.value)
    assert "Forbidden" in str(ei.value)


@pytest.mark.parametrize("text,where", [
    ("<PhoronixTestSuite><Result><Title>x</Title>", "line 1"),
    (XML_HEAD + "<PhoronixTestSuite><Result><Title>T</Title><Data><Entry><Value>1</Value>"
     "</Entry></Data></Result></PhoronixTestSuite>", "/PhoronixTestSuite/Result[1]/Data/Entry[1]"),
    ("not a pts file at all", "line 1"),
    ('{"title": "x", "last_modified": "", "systems": {"a": []}, "results": {}}', "$.systems"),
])
def test_bad_input_raises_parse_error(text, where):
    with pytest.raises(es.ParseError) as ei:
        pts.parse(text, "bad")
    assert where in str(ei.value)


def test_inputs_not_modified(tmp_path):
    d = tmp_path / "res"
    shutil.copytree(TWO_DIR, d)
    before = tree_digest(d)
    es.read_pts(d / "composite.xml", series=True)
    es.read_pts(d / "ebs-mini-two-volumes.json")
    assert tree_digest(d) == before


def test_meta_overrides():
    df = es.read_pts(ONE, volume_type="gp3", config="override")
    assert set(df["volume_type"]) == {"gp3"} and set(df["config"]) == {"override"}


def test_a_folder_read_finds_test_logs_wherever_it_was_started(tmp_path, monkeypatch):
    """The run times in ``test-logs/<hash>/<system>.log`` are found next to the file itself,
    not next to its path relative to the folder resolved against the working directory: a
    folder read from elsewhere gave every run its system's TimeStamp (2 distinct times for
    the two-volume fixture, 38 from its logs; ManuelJBrito/Phoronix-results read from /tmp)."""
    folder = FIXTURES / "pts" / "ebs-mini-two-volumes"
    monkeypatch.chdir(tmp_path)  # (no test-logs/ here)
    whole = es.read(folder)
    whole = whole[whole["source"] == "composite.xml"]
    alone = es.read(folder / "composite.xml")
    assert len(whole) == len(alone) == 148
    assert whole["timestamp"].nunique() == alone["timestamp"].nunique() == 38
    assert sorted(whole["timestamp"].dropna().unique()) == sorted(
        alone["timestamp"].dropna().unique())


def test_a_per_test_file_beside_its_composite_is_read_once(tmp_path):
    """PTS 5.x keeps ``test-1.xml``, ``test-2.xml``, … beside the ``composite.xml`` it merges
    them into (laertispappas/aws-ec2-phoronix-benchmark: 20 a result folder); each run was
    counted twice. A piece whose every system, value and raw-run string is in the composite
    beside it gives no rows and says why; a file of that name with a value of its own, or
    without a composite beside it, is read."""
    whole = FIXTURES / "pts" / "pts-10.8.4_composite_1system.xml"
    shutil.copy(whole, tmp_path / "composite.xml")
    text = whole.read_text()
    (tmp_path / "test-1.xml").write_text(text.replace("<PhoronixTestSuite>",
                                                      "<PhoronixTestSuite>\n", 1))  # (not the
    # same bytes: not a duplicate file)
    first = re.search(r"<Value>([^<]+)</Value>", text)
    (tmp_path / "test-2.xml").write_text(text.replace(first.group(0), "<Value>12345.6</Value>", 1))
    alone = es.read(whole)
    got = es.read(tmp_path)
    assert sorted(got["source"].unique()) == ["composite.xml", "test-2.xml"]
    assert (got["source"] == "composite.xml").sum() == len(alone)
    skipped = [f for f in got.attrs["failures"] if f["source"] == "test-1.xml"]
    assert skipped[0]["kind"] == "empty" and "merged it into" in skipped[0]["reason"]
    lone = tmp_path / "lone"
    lone.mkdir()
    shutil.copy(whole, lone / "test-1.xml")
    assert len(es.read(lone)) == len(alone)


def test_an_active_xml_with_its_composites_bytes_is_read_once_not_dropped(tmp_path):
    """laertispappas/aws-ec2-phoronix-benchmark's ``threaded-last`` folders hold an
    ``active.xml`` with the very bytes of the ``composite.xml`` beside it: the folder read named
    the composite a duplicate of ``active.xml``, and ``active.xml`` gave no rows as a piece of
    that composite, so the folder's 261 results were read by neither. One of the twins is read
    now (the first in the listing), the other is named its duplicate."""
    whole = FIXTURES / "pts" / "pts-10.8.4_composite_1system.xml"
    for name in ("active.xml", "composite.xml"):
        shutil.copy(whole, tmp_path / name)
    alone = es.read(whole)
    got = es.read(tmp_path)
    assert len(got) == len(alone) > 0 and set(got["source"]) == {"active.xml"}
    [dup] = [f for f in got.attrs["failures"] if f["source"] == "composite.xml"]
    assert dup["kind"] == "duplicate" and "active.xml" in dup["reason"]
