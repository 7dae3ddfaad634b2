"""Published tables: every CSV number equals the number printed in the seed write-up.

The seed passages are kept verbatim in tests/fixtures/pts/seed_excerpts/ (checked against the
full seed documents in /work/shared/seeds when that folder exists); the tests parse those
passages independently of the CSVs and compare cell by cell.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

import ebsstats as es
from ebsstats.io import published
from tests.conftest import ROOT, fixture

DATA = ROOT / "data" / "published"
EXCERPTS = fixture("pts", "seed_excerpts")
SEEDS = Path("/work/shared/seeds")


def table(name: str) -> list[dict]:
    text = (DATA / name).read_text(encoding="utf-8")
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    return list(csv.DictReader(io.StringIO(body)))


def excerpt(seed: str) -> str:
    return (EXCERPTS / f"{seed}.excerpt.txt").read_text(encoding="utf-8")


def num(s: str) -> float:
    return float(s.replace(",", ""))


@pytest.mark.skipif(not SEEDS.is_dir(), reason="seed documents not on this machine")
@pytest.mark.parametrize("seed", ["000_8d7be2063a6f0e21", "002_fedefca7e085c7f8",
                                  "003_797c6504d3c4da64"])
def test_excerpts_are_verbatim(seed):
    full = (SEEDS / f"{seed}.txt").read_text(encoding="utf-8")
    for part in excerpt(seed).split("[...]\n"):
        assert part in full


# ------------------------------------------------------------------ seed 000 (bonnie++)

COLS000 = ["output_per_char_kbs", "output_block_kbs", "output_rewrite_kbs",
           "input_per_char_kbs", "input_block_kbs"]


def seed000_rows() -> dict[str, list[float]]:
    text = excerpt("000_8d7be2063a6f0e21")
    out = {}
    for m in re.finditer(r"^(\S.*?\)) ([\d,]+) ([\d,]+) ([\d,]+) ([\d,]+) ([\d,]+)$", text, re.M):
        out[m.group(1)] = [num(m.group(k)) for k in range(2, 7)]
    return out


def test_seed000_table_cells_equal_seed_text():
    printed = seed000_rows()
    assert len(printed) == 6
    rows = [r for r in table("seed000_bonnie_ec2_ebs.csv") if r["origin"] == "table"]
    assert [r["config"] for r in rows] == list(printed)
    for r in rows:
        assert [num(r[c]) for c in COLS000] == printed[r["config"]], r["config"]
        assert r["random_seeks_per_s"] == ""  # the post's table has no seeks


def test_seed000_neil_row_equals_comment_14():
    text = excerpt("000_8d7be2063a6f0e21")
    labels = ["Output per char", "Output block", "Output rewrite", "Input per char",
              "Input block"]
    printed = [num(re.search(rf"^\s*{lab}: ([\d,]+) K/sec$", text, re.M).group(1))
               for lab in labels]
    seeks = num(re.search(r"Random seeks: ([\d,]+)/sec", text).group(1))
    (neil,) = [r for r in table("seed000_bonnie_ec2_ebs.csv") if r["origin"].startswith("comment")]
    assert [num(neil[c]) for c in COLS000] == printed
    assert num(neil["random_seeks_per_s"]) == seeks == 687
    assert neil["bonnie_version"] == "1.03c" and "1.03c" in text
    assert neil["raid_level"] == "RAID0" and neil["raid_members"] == "2"
    assert neil["filesystem"] == "ext3"


def test_seed000_tidy_units():
    df = es.validate(es.read_published("seed000_bonnie_ec2_ebs"))
    assert set(df["tool"]) == {"table"}
    assert set(df["source"]) == {"published/seed000_bonnie_ec2_ebs.csv"}
    assert set(df["seed"]) == {"000_8d7be2063a6f0e21.txt"}
    r = df[(df["config"] == "4x5Gb RAID0 (JFS)") & (df["test"] == "get_block")]
    assert r["value"].tolist() == [96320 * 1024]  # Input Block 96,320 KB/s (KiB/s) * 1024 B/s
    assert r["unit"].tolist() == ["B/s"] and r["workload"].tolist() == ["seqread"]
    assert r["position"].tolist() == ["row 2, input_block_kbs"]
    seeks = df[df["test"] == "seeks"]
    assert seeks["value"].tolist() == [687.0] and seeks["metric"].tolist() == ["ops"]
    assert seeks["tool_version"].tolist() == ["1.03c"]
    assert len(df) == 6 * 5 + 5 + 1
    # one run per table row: the 5 numbers of a row share a run_id
    assert df.groupby("config")["run_id"].nunique().eq(1).all()


# ------------------------------------------------------------------ seed 002 (EBS vs NVMe)


def seed002_rows() -> dict[str, list[str]]:
    text = excerpt("002_fedefca7e085c7f8").split("[...]")[0]
    flat = " ".join(text.split())  # the gp2 row wraps over three lines in the post
    labels = ["EBS – Cold HDD (sc1)", "EBS – Throughput HDD (st1)", "EBS – Standard SSD (gp2)",
              "NVMe Instance Store SS3 (i3.large)"]
    out = {}
    for k, lab in enumerate(labels):
        start = flat.index(lab) + len(lab)
        end = flat.index(labels[k + 1]) if k + 1 < len(labels) else len(flat)
        out[lab] = flat[start:end].split()
    return out


def test_seed002_cells_equal_seed_text():
    printed = seed002_rows()
    rows = {r["disk_type"]: r for r in table("seed002_ebs_vs_nvme_i3large.csv")}
    assert list(rows) == list(printed)
    for lab, cells in printed.items():
        r = rows[lab]
        if lab.endswith("(gp2)"):
            # 500GB 2074 (bursting) 692 (bursting) 22-53 (variable perf) 53 0.1
            assert cells == ["500GB", "2074", "(bursting)", "692", "(bursting)", "22-53",
                             "(variable", "perf)", "53", "0.1"]
            assert (r["read_iops"], r["read_iops_note"]) == ("2074", "bursting")
            assert (r["write_iops"], r["write_iops_note"]) == ("692", "bursting")
            assert r["read_mbps"] == ""  # a range is never one number
            assert (r["read_mbps_low"], r["read_mbps_high"]) == tuple(cells[5].split("-"))
            assert r["read_mbps_note"] == "variable perf"
            assert (r["write_mbps"], r["cost_usd_per_gb_month"]) == (cells[8], cells[9])
            assert r["size_gb"] + "GB" == cells[0]
        else:
            size, rd, wr, rmb, wmb, cost = cells
            assert r["size_gb"] + "GB" == size
            assert [r["read_iops"], r["write_iops"], r["read_mbps"], r["write_mbps"],
                    r["cost_usd_per_gb_month"]] == [rd, wr, rmb, wmb, cost]
            assert r["read_iops_note"] == r["write_iops_note"] == r["read_mbps_low"] == ""


def test_seed002_tidy_range_and_bursting():
    df = es.validate(es.read_published("seed002_ebs_vs_nvme_i3large.csv"))
    gp2 = df[df["volume_type"] == "gp2"]
    rd = gp2[(gp2["metric"] == "bandwidth") & (gp2["op"] == "read")].sort_values("value")
    # "22-53 (variable perf)" MB/s, MB = 10**6 B (the 53.1 MB/s i3.large EBS limit is decimal)
    assert rd["value"].tolist() == [22e6, 53e6]
    assert rd["flag"].tolist() == ["range_low", "range_high"]
    io_ = gp2[gp2["metric"] == "iops"].sort_values("op")
    assert io_["value"].tolist() == [2074.0, 692.0] and set(io_["flag"]) == {"bursting"}
    nv = df[(df["volume_type"] == "instance-store") & (df["metric"] == "bandwidth")]
    assert sorted(nv["value"]) == [200e6, 238e6]
    assert set(df["size_gib"]) == {500.0, 442.0}
    assert set(df["cost_usd_per_gb_month"]) == {"0.025", "0.045", "0.1", "0.2477"}


# ------------------------------------------------------------------ seed 003 (PTS)


def seed003_front() -> dict:
    text = excerpt("003_797c6504d3c4da64")
    return yaml.safe_load(text.split("---")[1])


def test_seed003_cells_equal_seed_text():
    front = seed003_front()
    printed = [(res["caption"], res["footer"], r["config"], r["score"], r["error"])
               for res in front["results"] for r in res["rows"]]
    rows = table("seed003_pts_piops_m1small.csv")
    assert len(front["results"]) == 20 and len(rows) == len(printed) == 98
    for r, (cap, foot, cfg, score, err) in zip(rows, printed, strict=True):
        assert (r["caption"], r["footer"], r["config"]) == (cap, foot, cfg)
        assert float(r["score"]) == score and float(r["error"]) == err
        more = "more is better" in foot
        assert r["higher_is_better"] == str(more).lower()
        assert r["unit"] == re.match(r"&[lr]arr; (.+), (?:more|less) is better", foot).group(1)
        assert r["provisioned_iops"] == (re.search(r"piops(\d+)$", cfg) or [None, ""])[1]


def test_seed003_tidy_score_and_spread():
    df = es.validate(es.read_published("seed003_pts_piops_m1small"))
    cap = "Dbench v4.0: 12 Clients"
    d = df[(df["test"] == cap) & (df["config"] == "small-attached-ebs-piops1000")]
    score = d[d["metric"] == "score"]
    spread = d[d["metric"] == "score_max_deviation"]
    assert score["value"].tolist() == [119.3] and score["unit"].tolist() == ["MB/s"]
    assert score["higher_is_better"].tolist() == [True]
    assert spread["value"].tolist() == [0.03] and spread["flag"].tolist() == ["spread"]
    assert spread["unit"].tolist() == ["MB/s"]
    assert score["run_id"].tolist() == spread["run_id"].tolist()
    assert d["provisioned_iops"].tolist() == [1000, 1000]
    gz = df[(df["test"] == "Gzip Compression: 2GB File Compression") & (df["metric"] == "score")]
    assert set(gz["unit"]) == {"seconds"} and not gz["higher_is_better"].any()
    # spreads are kept as one row each, never expanded into runs
    assert (df["metric"] == "score_max_deviation").sum() == 98
    assert df["repetition"].isna().all()


# ------------------------------------------------------------------ all tables, sniff, errors


def test_read_all_tables():
    df = es.validate(es.read_published())
    assert set(df["source"]) == {f"published/{p.name}" for p in DATA.glob("*.csv")}
    assert len(df) == 36 + 17 + 196
    assert set(df["tool"]) == {"table"}


def test_sniff_and_folder_style_parse():
    for p in DATA.glob("*.csv"):
        assert published.sniff(p.read_text()[:65536], p.name) == "published table"
    assert published.sniff("name,file_size,putc\n", "x.csv") is None
    assert published.sniff((DATA / "SOURCES.md").read_text(), "SOURCES.md") is None
    parsed = published.parse((DATA / "seed002_ebs_vs_nvme_i3large.csv").read_text(), "t/x.csv")
    assert parsed.tool == "table" and {r["source"] for r in parsed.records} == {"t/x.csv"}


@pytest.mark.parametrize("text,where", [
    ("config,a\n1,2\n", "line 1"),
    ("# ebsstats published table\n# layout: nope\nx\n", "line 2"),
    ("# ebsstats published table\n# layout: ebs_nvme\ndisk_type,volume_type\n", "line 3"),
    ("# ebsstats published table\n# layout: pts_scores\ncaption,footer,unit,higher_is_better,"
     "config,score,error\nc,f,MB/s,true,x,12..5,0.1\n", "row 1, score"),
])
def test_bad_tables_raise_parse_error(text, where):
    with pytest.raises(es.ParseError) as ei:
        published.parse(text, "bad.csv")
    assert where in str(ei.value)


def test_unknown_name():
    with pytest.raises(FileNotFoundError):
        es.read_published("no-such-table")


def test_frame_columns_typed():
    df = es.read_published("seed003_pts_piops_m1small")
    assert df["provisioned_iops"].dtype == pd.Int64Dtype()
    assert df["seed"].dtype == pd.StringDtype()
