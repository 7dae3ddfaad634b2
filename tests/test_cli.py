"""The command line on genuine outputs: ingest round trip, benchstat-like tables within 100
columns, check, simulate."""

from __future__ import annotations

import re
import shutil

import pandas as pd
import pytest

import ebsstats as es
from tests.conftest import ROOT, run_cli, run_process, tree_digest

SAMPLES = ROOT / "data" / "samples"

#: ``ebsstats ARGS`` in this process (exit code, stdout, stderr, as a finished process)
run = run_cli


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    d = tmp_path_factory.mktemp("samples")
    shutil.copytree(SAMPLES, d / "s")
    (d / "s" / "broken.json").write_text('{"fio version" : "fio-3.33", "jobs" : [ {')
    (d / "s" / "notes.txt").write_text("coffee at 10\n")
    return d / "s"


def test_ingest_writes_parquet_identical_to_read(samples, tmp_path):
    before = tree_digest(samples)
    out = tmp_path / "tidy.parquet"
    proc = run("ingest", str(samples), "-o", str(out), "-q")
    assert proc.returncode == 0, proc.stderr
    assert tree_digest(samples) == before
    assert "fio" in proc.stdout and "sysbench" in proc.stdout and "bonnie++" in proc.stdout
    assert "FAILED 1 file(s)" in proc.stdout and "broken.json" in proc.stdout
    back = es.read_parquet(out)
    with pytest.warns(UserWarning, match="1 file"):
        direct = es.read(samples, errors="collect")
    direct.attrs = {}
    pd.testing.assert_frame_equal(back, direct)
    strict = run("ingest", str(samples), "-o", str(tmp_path / "t2.parquet"), "-q", "--strict")
    assert strict.returncode == 1


def test_summary_and_compare_tables_fit_100_columns(samples):
    s = run("summary", str(samples), "--metric", "iops", "--by", "config,test,op,metric")
    assert s.returncode == 0, s.stderr
    assert "randread_4k" in s.stdout and "median" in s.stdout
    assert max(len(line) for line in s.stdout.splitlines()) <= 100
    c = run("compare", str(ROOT / "data" / "campaign" / "pts"), "--by", "config",
            "--baseline", "gp2-20g", "--metric", "iops")
    assert c.returncode == 0, c.stderr
    assert "verdict" in c.stdout and "io1-100g-1000" in c.stdout
    assert max(len(line) for line in c.stdout.splitlines()) <= 100


def test_check_lists_tool_version_format_and_refusals(samples):
    proc = run("check", str(samples))
    assert proc.returncode == 0, proc.stderr
    lines = {line.split()[0]: line for line in proc.stdout.splitlines() if line.strip()}
    assert "fio-3.33" in lines["fio/randread_4k_rep0.json"]
    assert "refuse" in lines["broken.json"]
    assert "skip" in lines["notes.txt"]
    assert "companion" in lines["meta.yaml"]


def test_simulate_writes_a_campaign(tmp_path):
    proc = run("simulate", "-o", str(tmp_path / "c"), "--seed", "3", "--weeks", "1")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "c" / "truth.yaml").exists()


def test_simulate_refuses_a_non_empty_folder(tmp_path):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "results.json").write_text("{}")
    proc = run_process("simulate", "-o", str(tmp_path / "c"), "--weeks", "1")
    assert proc.returncode == 2 and "not empty" in proc.stderr and "Traceback" not in proc.stderr
    assert [p.name for p in (tmp_path / "c").iterdir()] == ["results.json"]
    assert (tmp_path / "c" / "results.json").read_text() == "{}"


def test_ingest_of_nothing_exits_non_zero(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "notes.txt").write_text("coffee at 10\n")
    proc = run("ingest", str(tmp_path / "d"), "-o", str(tmp_path / "x.parquet"), "-q")
    assert proc.returncode == 1 and "0 rows" in proc.stderr


def test_cli_errors_are_one_line_with_the_fix(samples):
    proc = run("compare", str(samples), "--baseline", "nope", "--metric", "iops")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "--baseline 'nope'" in proc.stderr and "valid:" in proc.stderr
    proc = run("summary", str(samples), "--metric", "iopz")
    assert proc.returncode == 2 and "unknown metric iopz" in proc.stderr and "iops" in proc.stderr
    proc = run("summary", str(samples / "missing"))
    assert proc.returncode == 2 and "no such file or folder" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_summary_formats(samples):
    csv = run("summary", str(samples), "--metric", "iops", "--format", "csv")
    assert csv.returncode == 0, csv.stderr
    frame = pd.read_csv(__import__("io").StringIO(csv.stdout))
    assert {"config", "median", "n"} <= set(frame.columns)
    js = run("summary", str(samples), "--metric", "iops", "--format", "json")
    assert __import__("json").loads(js.stdout)[0]["metric"] == "iops"
    # the count said before the work is the table's: groups by --by and test/op/metric, a
    # missing op (a PTS score) its own group (it said "2 groups" above a table of 54)
    for out in (csv, run("summary", str(ROOT / "tests" / "fixtures" / "pts"), "--format", "csv")):
        table = pd.read_csv(__import__("io").StringIO(out.stdout))
        said = int(out.stderr.split(" values in ")[1].split(" groups")[0])
        assert said == len(table) > 1


def test_check_pattern_shows_each_files_metadata(tmp_path):
    d = tmp_path / "m5.large"
    d.mkdir()
    shutil.copy(SAMPLES / "fio" / "randread_4k_rep0.json", d / "ext4_nvme1n1_1311975019.json")
    proc = run("check", str(tmp_path), "--pattern",
               "{instance_type}/{filesystem}_{volume}_{timestamp}.json")
    assert proc.returncode == 0, proc.stderr
    assert ("instance_type=m5.large, filesystem=ext4, volume=nvme1n1, "
            "timestamp=2011-07-29T21:30:19+00:00") in proc.stdout


def test_ingest_says_which_files_it_read_in_part(tmp_path):
    from tests.conftest import fixture

    d = tmp_path / "runs"
    d.mkdir()
    (d / "loop.txt").write_bytes(fixture("sysbench", "sb1.0_cpu_loop_interrupted.txt").read_bytes())
    proc = run("ingest", str(d), "-o", str(tmp_path / "t.parquet"), "-q")
    assert proc.returncode == 0, proc.stderr
    assert "read 1 file(s) in part" in proc.stdout and "loop.txt, line 43" in proc.stdout
    assert "FAILED" not in proc.stdout and "skipped" not in proc.stdout
    assert len(es.read_parquet(tmp_path / "t.parquet")) == 14


def test_summary_of_reported_means_only_says_why(tmp_path):
    """A PTS file whose entries hold only their reported mean (several run times, an empty
    RawString): nothing to summarise, said in one line (it was "'n' is not in list")."""
    text = (ROOT / "tests" / "fixtures" / "pts" / "ebs-mini-single-volume" / "composite.xml"
            ).read_text()
    (tmp_path / "composite.xml").write_text(
        re.sub(r"<RawString>[^<]*</RawString>", "<RawString></RawString>", text))
    out = run("summary", str(tmp_path))
    assert out.returncode == 2, out.stderr  # (the CLI's exit code for a usage error)
    assert "no runs to summarise" in out.stderr and "reported_mean" in out.stderr
    assert "Traceback" not in out.stderr


def test_inventory_counts_runs_not_reported_means():
    df = es.read(ROOT / "tests" / "fixtures" / "pts" / "ebs-mini-single-volume" / "composite.xml")
    inv = es.inventory(df, by=["tool"])
    runs = es.select(df, exclude_flags=es.schema.SUMMARY_FLAGS)["run_id"].nunique()
    assert inv["runs"].tolist() == [runs] and runs < df["run_id"].nunique()
