"""PerfKit Benchmarker results (JSON lines) into the tidy frame.

Fixtures: tests/fixtures/pkb, written by tests/fixtures/make_pkb_fixtures.py (PKB's format,
our numbers)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import ebsstats as es
from ebsstats.errors import ParseError
from ebsstats.io.pkb import labels_to_dict, parse, read_pkb, sniff
from ebsstats.io.sniff import sniff_file

PKB = Path(__file__).parent / "fixtures" / "pkb"
FILES = sorted(PKB.rglob("perfkitbenchmarker_results.json"))


def _raw(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def frame():
    return es.read(PKB)


def test_fixture_lines_have_pkb_key_order():
    first = _raw(FILES[0])[0]
    assert list(first) == ["metric", "value", "unit", "timestamp", "test", "product_name",
                           "official", "owner", "run_uri", "sample_uri", "labels"]


def test_folder_read_sniffs_pkb_files(frame):
    assert sniff_file(FILES[0]).module == "ebsstats.io.pkb"
    assert set(frame["tool"].astype(str)) == {"fio", "bonnie++", "sysbench"}
    assert frame["run_uri"].nunique() == 2


def test_fio_values_and_units_by_hand(frame):
    raw = {(s["run_uri"], s["metric"]): s for f in FILES for s in _raw(f)}
    run = sorted({k[0] for k in raw})[0]
    sub = frame[(frame["run_uri"] == run) & (frame["test"] == "rand_4k_read")]
    got = dict(zip(sub["metric"].astype(str), sub["value"], strict=True))
    assert got["bandwidth"] == raw[run, "rand_4k_read:read:bandwidth"]["value"] * 1024
    assert got["iops"] == raw[run, "rand_4k_read:read:iops"]["value"]
    assert got["clat_p99.9"] == pytest.approx(
        raw[run, "rand_4k_read:read:latency:p99.9"]["value"] * 1e-6)
    assert got["clat_mean"] == pytest.approx(
        raw[run, "rand_4k_read:read:latency:mean"]["value"] * 1e-6)
    row = sub.iloc[0]
    assert (row["workload"], row["op"], row["block_size"], row["iodepth"], row["threads"]) == (
        "randread", "read", 4096, 16, 1)
    assert row["tool_version"] == "fio-3.39"
    assert sub["run_id"].nunique() == 1  # one fio job of one PKB run = one run


def test_metadata_mapped_onto_schema_columns(frame):
    row = frame.iloc[0]
    assert (row["volume_type"], row["size_gib"], row["provisioned_iops"], row["instance_type"],
            row["az"], row["region"], row["config"]) == (
        "gp3", 100.0, 3000, "m5.xlarge", "us-east-1a", "us-east-1", "gp3-100g-3000")
    assert row["timestamp"] == es.read_pkb(FILES[0])["timestamp"].iloc[0]


def test_bonnie_and_sysbench_units(frame):
    raw = {s["metric"]: s for s in _raw(FILES[0]) if s["test"] != "fio"}
    one = es.read_pkb(FILES[0])
    b = one[one["tool"] == "bonnie++"].set_index(["test", "metric"])["value"]
    assert b["put_block", "bandwidth"] == raw["put_block"]["value"] * 1024  # K/sec = KiB/s
    assert b["seeks", "iops"] == raw["seeks"]["value"]  # seeks/s despite PKB's K/sec label
    assert b["seeks", "lat_max"] == pytest.approx(raw["seeks_latency"]["value"] * 1e-6)  # us
    assert b["putc", "lat_max"] == pytest.approx(raw["putc_latency"]["value"] * 1e-3)  # ms
    s = one[one["tool"] == "sysbench"].set_index(["test", "metric"])["value"]
    assert s["oltp_read_write", "ops"] == raw["tps"]["value"]
    assert s["oltp_read_write queries", "ops"] == raw["qps"]["value"]
    p95 = labels_to_dict(raw["tps"]["labels"])["percentile_95_latency"]
    assert s["oltp_read_write", "lat_p95"] == pytest.approx(float(p95) * 1e-3)


def test_skipped_samples_are_counted():
    parsed = parse(FILES[0].read_text(), str(FILES[0]))
    # per fio job-mode the bare ":latency" sample (3), sysbench tps_array + data load time (2)
    assert parsed.notes == ["5 PKB sample(s) of other metrics or benchmarks skipped",
                            "68 row(s) without their run's start_time sample: timestamp is the "
                            "time PKB wrote the sample, after the run"]


def test_a_run_s_start_time_sample_is_its_rows_timestamp(tmp_path):
    """PKB stamps a sample when it publishes it, after the whole benchmark: jliu312/
    parse-perfkit's fio samples carried 17:32:24, 202 s after their run's "start_time" sample
    (1685035742.4282012 sec, line 121), the time the schema means. A run's start_time sample
    gives its rows' timestamp; the other runs keep the sample time, with the note."""
    lines = _raw(FILES[0])
    fio = [s for s in lines if s["test"] == "fio"]
    uri = fio[0]["run_uri"]
    start = {**fio[0], "metric": "start_time", "value": 1685035742.4282012, "unit": "sec"}
    p = tmp_path / "results.json"
    p.write_text("".join(json.dumps(s) + "\n" for s in [*lines, start]))
    parsed = parse(p.read_text(), str(p))
    got = es.io.frame(parsed.records)
    mine = got["run_id"].isin(got.loc[got["run_uri"] == uri, "run_id"]) & (got["tool"] == "fio")
    assert set(got.loc[mine, "timestamp"]) == {pd.Timestamp(1685035742.4282012, unit="s",
                                                            tz="UTC")}
    assert not got.loc[~mine, "timestamp"].eq(pd.Timestamp(1685035742.4282012, unit="s",
                                                           tz="UTC")).any()
    assert any(n.endswith("timestamp is the time PKB wrote the sample, after the run")
               for n in parsed.notes) == bool((~mine).any())


def test_uncollapsed_metadata_object_reads_the_same(tmp_path):
    lines = _raw(FILES[0])[:3]
    for s in lines:
        s["metadata"] = labels_to_dict(s.pop("labels"))
    p = tmp_path / "results.json"
    p.write_text("".join(json.dumps(s) + "\n" for s in lines))
    a = read_pkb(p)
    b = read_pkb(FILES[0]).iloc[: len(a)]
    assert a["value"].tolist() == b["value"].tolist()
    assert a["config"].tolist() == b["config"].tolist()


def test_bad_lines_name_the_line(tmp_path):
    good = FILES[0].read_text().splitlines()[0]
    p = tmp_path / "r.json"
    p.write_text(good + "\n{not json\n")
    with pytest.raises(ParseError, match="line 2"):
        read_pkb(p)
    p.write_text(good + '\n{"metric": "x", "value": 1}\n')
    with pytest.raises(ParseError, match="unit"):
        read_pkb(p)


def test_sniff_refuses_other_json():
    fio = (Path(__file__).parent / "fixtures" / "fio" / "small_json.json").read_text()[:65536]
    assert sniff(fio) is None
    assert sniff('{"metric": "m", "value": 1, "unit": "", "labels": "", "test": "fio"}') == \
        "json lines"
    assert sniff("metric,value\n") is None


def test_a_file_of_other_benchmarks_says_what_it_holds(tmp_path):
    """jliu312/parse-perfkit's coremark results: "recognised as fio (json lines) but it holds
    no results". It is a PKB file whose samples are of a benchmark ebsstats does not read."""
    lines = _raw(FILES[0])[:2]
    for s in lines:
        s["test"], s["metric"] = "coremark", "Coremark Score"
    p = tmp_path / "coremark.json"
    p.write_text("".join(json.dumps(s) + "\n" for s in lines))
    assert parse(p.read_text(), str(p)).why_empty == (
        "a PerfKit Benchmarker results file without fio, bonnie++ or sysbench results: its "
        "samples are of coremark (2)")
