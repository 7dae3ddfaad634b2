"""bonnie++ reader: every genuine sample, hand-read values, and the format pitfalls of FORMATS.md §1.

Values below are read off the raw files by hand; the comment says how they become canonical units
(K/sec is KiB/s: x 1024 -> B/s; latency suffixes us/ms/s -> s).
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

import ebsstats as es
from ebsstats.errors import ParseError
from ebsstats.io import bonnie, frame
from ebsstats.io._columns import Const
from tests.conftest import FIXTURES, fixture, tree_digest

BON = FIXTURES / "bonnie"
ALL = sorted(p.name for p in BON.iterdir())

KiB, MiB = 1024, 1024**2

# the genuine 1.96 CSV line (bon1.96_plain_s512_n1.txt, line 24): base of the hand-made 1.9x rows
L196 = fixture("bonnie", "bon1.96_plain_s512_n1.txt").read_text().splitlines()[23]
# the genuine 1.03a CSV line (bon1.03a_plain_s512_n1.txt, line 22)
L103 = fixture("bonnie", "bon1.03a_plain_s512_n1.txt").read_text().splitlines()[21]
# the 2.00a -x header row (bon_q_x3_s512_n0.csv, line 1): 48 names for 50 data columns
H200 = fixture("bonnie", "bon_q_x3_s512_n0.csv").read_text().splitlines()[0]


def read(name: str, **kw) -> pd.DataFrame:
    return es.read_bonnie(BON / name, **kw)


def parse(text: str, **kw) -> pd.DataFrame:
    return es.validate(frame(bonnie.parse(text, "mem.txt", **kw).records))


def one(df: pd.DataFrame, test: str, metric: str, **where) -> pd.Series:
    sel = (df["test"] == test) & (df["metric"] == metric)
    for k, v in where.items():
        sel &= df[k] == v
    rows = df[sel]
    assert len(rows) == 1, (test, metric, where, len(rows))
    return rows.iloc[0]


def val(df, test, metric, **where) -> float:
    return float(one(df, test, metric, **where)["value"])


def is_too_fast(df, test, metric, **where) -> bool:
    row = one(df, test, metric, **where)
    return math.isnan(row["value"]) and row["flag"] == "too_fast"


# --- every file ---------------------------------------------------------------------------------
SNIFF = {
    "bon1.03a_plain_s512_n1.txt": "csv 1.03",
    "bon1.03a_q_x2_s512_n0.csv": "csv 1.03",
    "bon1.96_plain_s512_n1.txt": "csv 1.96",
    "bon_csv2txt.txt": "bon_csv2txt",
    "bon_fast_f_s512_n0.txt": "csv 1.98",
    "bon_n1_s512.txt": "csv 1.98",
    "bon_plain_s512_n0.txt": "csv 1.98",
    "bon_q_s512_n0.csv": "csv 1.98",
    "bon_q_s512_n0.stderr.txt": "text",
    "bon_q_x3_s512_n0.csv": "csv 1.98",
    "gen_c2_s512_n0_f.txt": "csv 1.98",
    "gen_chunk64k_s512_n0_f.txt": "csv 1.98",
    "gen_comma_name_q.csv": "csv 1.98",
    "gen_comma_name_q.stderr.txt": "text",
    "gen_s0_n1_4096_512_2.txt": "csv 1.98",
    "gen_s0_n1_q.csv": "csv 1.98",
    "gen_s0_n1_q.stderr.txt": "text",
    "gen_s0_n64_q.csv": "csv 1.98",
    "gen_s0_n64_q.stderr.txt": "text",
    "gen_seed42_q.csv": "csv 1.98",
    "gen_seed42_q.stderr.txt": "text",
    "gen_x2_s512_n0_f.txt": "csv 1.98",
}


def test_every_sample_is_listed():
    assert sorted(SNIFF) == ALL


@pytest.mark.parametrize("name", ALL)
def test_sniff(name):
    head = (BON / name).read_text()[: 64 * 1024]
    assert bonnie.sniff(head, name) == SNIFF[name]


@pytest.mark.parametrize("name", ALL)
def test_every_sample_reads_validates_and_is_stable(name):
    before = tree_digest(BON)
    df = read(name)
    es.validate(df)
    assert len(df) > 0
    assert (df["tool"] == "bonnie++").all()
    assert df["timestamp"].isna().all()  # bonnie++ prints no time; the seed is not one
    assert df["position"].str.match(r"^line \d+$").all()
    assert df["run_id"].notna().all()
    # NaN only as too_fast, and then always flagged
    assert (df["value"].isna() == (df["flag"] == "too_fast").fillna(False)).all()
    pd.testing.assert_frame_equal(df, read(name))  # reading twice: identical
    assert tree_digest(BON) == before  # the input is never modified


def test_sniff_does_not_claim_other_tools():
    others = [p for p in FIXTURES.rglob("*") if p.is_file()
              and p.relative_to(FIXTURES).parts[0] != "bonnie" and p.suffix not in (".tsv", ".sh")]
    assert len(others) > 20
    for p in others:
        try:
            head = p.read_text(encoding="utf-8")[: 64 * 1024]
        except UnicodeDecodeError:
            continue
        assert bonnie.sniff(head, p.name) is None, p
        with pytest.raises(ParseError):
            bonnie.parse(p.read_text(encoding="utf-8"), str(p))


# --- 1.03 ---------------------------------------------------------------------------------------
def test_103_plain_csv_values():
    df = read("bon1.03a_plain_s512_n1.txt")
    assert set(df["tool_version"]) == {"1.03"}
    assert set(df["position"]) == {"line 22"}  # the CSV line wins over the table
    assert df["run_id"].nunique() == 1
    # putc 112336 K/sec * 1024 = 115032064 B/s, 80 %CP, 1 byte at a time
    assert val(df, "putc", "bandwidth") == 112336 * KiB == 115032064
    assert val(df, "putc", "cpu") == 80
    assert one(df, "putc", "bandwidth")["block_size"] == 1
    # put_block 569798 K/sec * 1024 = 583473152 B/s in 8 KiB blocks
    assert val(df, "put_block", "bandwidth") == 583473152
    assert one(df, "put_block", "bandwidth")["block_size"] == 8192
    # getc 187391 K/sec * 1024 = 191888384 B/s
    assert val(df, "getc", "bandwidth") == 191888384
    # rewrite, get_block, seeks: +++++ / +++ -> NaN, too_fast (never 0)
    for test in ("rewrite", "get_block"):
        assert is_too_fast(df, test, "bandwidth") and is_too_fast(df, test, "cpu")
    assert is_too_fast(df, "seeks", "iops")
    # file tests: seq_create 493 files/s 31 %CP, ran_create 897/s 38 %CP, the rest +++++
    assert val(df, "seq_create", "ops") == 493 and val(df, "seq_create", "cpu") == 31
    assert val(df, "ran_create", "ops") == 897 and val(df, "ran_create", "cpu") == 38
    for test in ("seq_stat", "seq_del", "ran_stat", "ran_del"):
        assert is_too_fast(df, test, "ops")
    assert not (df["metric"] == "lat_max").any()  # 1.0x has no latency columns
    row = one(df, "seq_create", "ops")
    assert (row["workload"], row["op"], row["unit"]) == ("create", "total", "ops/s")
    assert (row["host"], row["file_size"], row["num_files"], row["files"]) == (
        "vm", "512M", "1", "1024")  # -n 1 = 1 x 1024 files
    assert row["threads"] == 1
    assert len(df) == 24  # 12 tests x (rate, %CP)


def test_103_x2_header_ignored_and_repetitions():
    df = read("bon1.03a_q_x2_s512_n0.csv")
    # line 1 is the header row "name,file_size,putc,..."; rows at lines 2 and 3
    assert sorted(df["position"].unique()) == ["line 2", "line 3"]
    assert df.groupby("position")["repetition"].unique().map(list).to_dict() == {
        "line 2": [0], "line 3": [1]}
    assert df["run_id"].nunique() == 2
    # put_block 529610 and 553407 K/sec * 1024
    assert val(df, "put_block", "bandwidth", repetition=0) == 529610 * KiB
    assert val(df, "put_block", "bandwidth", repetition=1) == 553407 * KiB
    # rewrite 1040537 K/sec * 1024 = 1065509888 B/s, 44 %CP
    assert val(df, "rewrite", "bandwidth", repetition=0) == 1065509888
    # -f: putc/getc fields empty -> no rows; -n 0: no file tests
    assert not df["test"].isin(["putc", "getc"]).any()
    assert not df["metric"].eq("ops").any()
    assert is_too_fast(df, "get_block", "bandwidth", repetition=1)


def test_103_text_only_matches_csv():
    lines = (BON / "bon1.03a_plain_s512_n1.txt").read_text().splitlines()
    text = "\n".join(lines[:21])  # drop the CSV line: the table alone
    df = parse(text)
    csv = read("bon1.03a_plain_s512_n1.txt")
    assert set(df["tool_version"]) == {"1.03"}
    # table row at line 17 (IO) and line 21 (files), one run
    assert set(df["position"]) == {"line 17", "line 21"}
    assert df["run_id"].nunique() == 1
    # putc 112336 overflows its %5d column: still read as 112336 K/sec
    assert val(df, "putc", "bandwidth") == 112336 * KiB
    key = ["test", "metric"]
    merged = df.merge(csv, on=key, suffixes=("_t", "_c"))
    assert len(merged) == len(csv) == 24
    assert ((merged["value_t"] == merged["value_c"])
            | (merged["value_t"].isna() & merged["value_c"].isna())).all()


def test_103_comma_in_machine_name():
    row = L103.replace("vm,", "vol,a b,", 1)  # 28 fields: the name is not quoted
    assert row.count(",") == 27
    df = parse(row)
    assert set(df["host"]) == {"vol,a b"}
    assert val(df, "putc", "bandwidth") == 112336 * KiB


def test_103_size_with_chunk():
    row = L103.replace(",512M,", ",1G:32k,", 1)  # -s 1024:32768 prints size:chunk (FORMATS 1.3)
    df = parse(row)
    row = one(df, "put_block", "bandwidth")
    assert (row["file_size"], row["chunk_size"], row["block_size"]) == ("1G", "32k", 32768)
    assert one(df, "putc", "bandwidth")["block_size"] == 1


# --- 1.96 / 1.97 (hand-made rows from the genuine 1.96 line) ------------------------------------
def test_196_plain_csv_values():
    df = read("bon1.96_plain_s512_n1.txt")
    assert set(df["position"]) == {"line 24"}
    assert set(df["tool_version"]) == {"1.96"}
    # putc 410 K/sec * 1024 = 419840 B/s; getc 1167 * 1024 = 1195008 B/s
    assert val(df, "putc", "bandwidth") == 419840
    assert val(df, "getc", "bandwidth") == 1195008
    # put_block 439738 * 1024 = 450291712; rewrite 506813 * 1024 = 518976512
    assert val(df, "put_block", "bandwidth") == 450291712
    assert val(df, "rewrite", "bandwidth") == 518976512
    # latency 57820us = 0.05782 s (putc), 8030us = 0.00803 s (seeks), 25us (ran_stat)
    assert val(df, "putc", "lat_max") == pytest.approx(0.05782)
    assert val(df, "seeks", "lat_max") == pytest.approx(0.00803)
    assert val(df, "ran_stat", "lat_max") == pytest.approx(25e-6)
    # a too-fast test keeps its latency
    assert is_too_fast(df, "get_block", "bandwidth")
    assert val(df, "get_block", "lat_max") == pytest.approx(5017e-6)
    assert val(df, "seq_create", "ops") == 1260 and val(df, "ran_create", "cpu") == 99
    row = one(df, "seeks", "iops")
    assert (row["workload"], row["op"], row["unit"], row["block_size"]) == (
        "seeks", "read", "IO/s", 8192)  # io_chunk_size empty = default 8192
    assert (row["seed"], row["concurrency"], row["threads"]) == ("1795295020", "1", 1)
    assert one(df, "rewrite", "bandwidth")[["workload", "op"]].tolist() == ["rewrite", "write"]
    assert len(df) == 36  # 12 tests x (rate, %CP, latency)


def test_196_text_only_matches_csv():
    lines = (BON / "bon1.96_plain_s512_n1.txt").read_text().splitlines()
    df = parse("\n".join(lines[:23]))
    csv = read("bon1.96_plain_s512_n1.txt")
    assert df["run_id"].nunique() == 1
    assert set(df["concurrency"]) == {"1"}  # from the "Concurrency   1" row
    merged = df.merge(csv, on=["test", "metric"], suffixes=("_t", "_c"))
    assert len(merged) == len(csv) == 36
    same = (merged["value_t"] == merged["value_c"]) | (
        merged["value_t"].isna() & merged["value_c"].isna())
    assert same.all()
    assert one(df, "putc", "lat_max")["position"] == "line 18"  # the Latency row


def _s0_196() -> str:
    """1.96 -s 0 row: the IO fields (5..18: file_size .. seeks_cpu) and IO latencies (36..41)
    are empty, and 1.96 writes one empty field too few (FORMATS 1.4): 47 fields."""
    f = L196.split(",")
    for k in [*range(5, 19), *range(36, 42)]:
        f[k] = ""
    del f[5]
    return ",".join(f)


def test_196_s0_row_is_realigned():
    row = _s0_196()
    assert len(row.split(",")) == 47
    assert bonnie.sniff(row, "x") == "csv 1.96"
    df = parse(row)
    assert set(df["workload"]) == {"create", "stat", "delete"}  # no IO rows
    # seq_create 1260 files/s 95 %CP, ran_create 1765 / 99, latency 1265us
    assert val(df, "seq_create", "ops") == 1260 and val(df, "seq_create", "cpu") == 95
    assert val(df, "ran_create", "ops") == 1765 and val(df, "ran_create", "cpu") == 99
    assert val(df, "seq_create", "lat_max") == pytest.approx(1265e-6)
    assert val(df, "ran_del", "lat_max") == pytest.approx(37e-6)
    assert is_too_fast(df, "seq_stat", "ops")
    assert set(df["num_files"]) == {"1"}
    assert df["file_size"].isna().all()


def test_196_s0_row_with_comma_name():
    row = _s0_196().replace(",vm,", ",a,b,", 1)  # 48 fields, but not a normal 48-field row
    df = parse(row)
    assert set(df["host"]) == {"a,b"}
    assert val(df, "seq_create", "ops") == 1260


def test_196_x_header_is_not_zipped():
    # the 1.96 -x header omits concurrency and seed: 46 names for 48 columns (FORMATS 1.4)
    header = H200.replace("concurrency,seed,", "")
    assert len(header.split(",")) == 46
    again = L196.split(",")
    again[8] = str(int(again[8]) + 1)  # (another run: a row equal byte for byte is a copy)
    df = parse("\n".join([header, L196, ",".join(again)]))
    assert sorted(df["position"].unique()) == ["line 2", "line 3"]
    assert df.groupby("position")["repetition"].first().tolist() == [0, 1]
    assert val(df, "putc", "bandwidth", repetition=1) == 419840
    assert set(df["seed"]) == {"1795295020"}  # not mapped from the header's 5th name


def test_197_rows():
    f = L196.split(",")
    f[0] = f[1] = "1.97"  # format 1.97: same 48 fields as 1.96 (FORMATS 1.4)
    row = ",".join(f)
    assert bonnie.sniff(row, "x") == "csv 1.97"
    p = bonnie.parse(row, "x")
    assert p.format == "csv 1.97" and p.version == "1.97"
    df = es.validate(frame(p.records))
    assert val(df, "put_block", "bandwidth") == 450291712
    # 1.97 fixed the -s 0 row: aligned, 48 fields
    for k in [*range(5, 19), *range(36, 42)]:
        f[k] = ""
    df = parse(",".join(f))
    assert val(df, "ran_create", "ops") == 1765 and not df["workload"].eq("seqwrite").any()
    # so a 47-field 1.97 row is malformed, not shifted
    del f[5]
    with pytest.raises(ParseError) as err:
        bonnie.parse(",".join(f), "x.csv")
    assert err.value.position == "line 1" and "48 fields" in str(err.value)


def test_latency_suffixes():
    f = L196.split(",")
    assert (f[36], f[37], f[38]) == ("57820us", "12067us", "12509us")
    f[36], f[37], f[38] = "512ms", "101s", "44660us"  # bonnie prints %ds above 99.99 s
    df = parse(",".join(f))
    assert val(df, "putc", "lat_max") == pytest.approx(0.512)  # 512ms
    assert val(df, "put_block", "lat_max") == pytest.approx(101.0)  # 101s
    assert val(df, "rewrite", "lat_max") == pytest.approx(0.04466)  # 44660us
    assert one(df, "putc", "lat_max")["unit"] == "s"


# --- 1.98 / 2.00a -------------------------------------------------------------------------------
def test_200a_plain_csv_wins_over_table():
    p = bonnie.parse((BON / "bon_plain_s512_n0.txt").read_text(), "p.txt")
    assert p.format == "csv 1.98" and p.version == "2.00a"
    assert any("text table ignored" in n for n in p.notes)
    df = read("bon_plain_s512_n0.txt")
    assert set(df["position"]) == {"line 14"}
    # put_block 432434 K/sec * 1024 = 442812416 B/s (the table says a rounded "422m")
    assert val(df, "put_block", "bandwidth") == 442812416
    # putc 1143 * 1024 = 1170432; rewrite 741686 * 1024 = 759486464; getc 1904 * 1024
    assert val(df, "putc", "bandwidth") == 1170432
    assert val(df, "rewrite", "bandwidth") == 759486464
    assert val(df, "getc", "bandwidth") == 1904 * KiB
    assert val(df, "get_block", "lat_max") == pytest.approx(47e-6)  # 47us
    row = one(df, "seeks", "iops")
    assert (row["seeks"], row["seek_proc_count"], row["seed"]) == ("8192", "5", "1795302671")
    assert row["threads"] == 1 and row["block_size"] == 8192
    assert not df["metric"].eq("ops").any()  # -n 0: empty file fields, no rows


def test_200a_text_table_scaled_cells():
    df = read("bon_q_s512_n0.stderr.txt")  # -q: the table went to stderr
    csv = read("bon_q_s512_n0.csv")
    assert set(df["position"]) == {"line 4", "line 5"}
    assert df["run_id"].nunique() == 1
    # "1141k" = 1141 KiB/s = 1168384 B/s; "442m" = 442 MiB/s = 463470592 B/s; "816m"
    assert val(df, "putc", "bandwidth") == 1141 * KiB == 1168384
    assert val(df, "put_block", "bandwidth") == 442 * MiB == 463470592
    assert val(df, "rewrite", "bandwidth") == 816 * MiB
    assert val(df, "putc", "cpu") == 96
    assert val(df, "putc", "lat_max") == pytest.approx(0.031391)  # 31391us
    assert is_too_fast(df, "get_block", "bandwidth") and is_too_fast(df, "seeks", "iops")
    assert set(df["concurrency"]) == {"1"}  # 2.00a omits concurrency 1 from the table
    # the table rounds to whole MiB/s: within 0.5 MiB/s of the CSV (452418 K/sec)
    assert val(csv, "put_block", "bandwidth") == 452418 * KiB
    both = df.merge(csv, on=["test", "metric"], suffixes=("_t", "_c"))
    assert len(both) == len(csv) == 18
    bw = both[both["metric"] == "bandwidth"].dropna(subset=["value_t"])
    assert ((bw["value_t"] - bw["value_c"]).abs() <= 0.5 * MiB).all()
    lat = both[both["metric"] == "lat_max"]
    assert (lat["value_t"] == lat["value_c"]).all()


def test_200a_x3_repetitions_share_seed():
    df = read("bon_q_x3_s512_n0.csv")
    assert sorted(df["position"].unique()) == ["line 2", "line 3", "line 4"]
    assert df.groupby("position")["repetition"].first().tolist() == [0, 1, 2]
    assert df["run_id"].nunique() == 3
    assert set(df["seed"]) == {"1795304108"}
    # put_block 471369, 496861, 460872 K/sec * 1024
    got = [val(df, "put_block", "bandwidth", repetition=r) for r in range(3)]
    assert got == [471369 * KiB, 496861 * KiB, 460872 * KiB]
    # seeks_latency 10251us, 16088us, 37655us
    got = [val(df, "seeks", "lat_max", repetition=r) for r in range(3)]
    assert got == pytest.approx([0.010251, 0.016088, 0.037655])


def test_200a_x2_interleaved_with_progress():
    df = read("gen_x2_s512_n0_f.txt")  # header at line 2, rows at 7 and 12 between progress
    assert sorted(df["position"].unique()) == ["line 12", "line 7"]
    assert one(df, "put_block", "bandwidth", repetition=0)["position"] == "line 7"
    # 433943 and 495391 K/sec * 1024
    assert val(df, "put_block", "bandwidth", repetition=0) == 433943 * KiB
    assert val(df, "put_block", "bandwidth", repetition=1) == 495391 * KiB
    assert val(df, "put_block", "lat_max", repetition=1) == pytest.approx(111e-6)


def test_invocations_appended_to_one_file_are_repetitions_in_their_order():
    """Each bonnie++ draws a new seed, which its text report does not print: a shell loop's
    runs of one configuration were repetitions 0, 1, … read from their tables but all 0 from
    their CSV rows (cunnie/cloud_storage_benchmarks: 9 runs a file), so the CSV lost the run
    order that first-write and independence checks read. The seed no longer starts a group."""
    a = (BON / "bon_q_s512_n0.csv").read_text()
    b = (BON / "gen_seed42_q.csv").read_text()  # another run: another seed
    df = parse(a + b)
    assert sorted(set(df["repetition"])) == [0, 1]
    assert df["run_id"].nunique() == 2
    assert df.groupby("repetition")["seed"].nunique().tolist() == [1, 1]
    # a header row between identical runs also starts a new group
    df = parse("\n".join([H200, L196, H200, L196]))
    assert set(df["repetition"]) == {0}


def test_200a_comma_in_machine_name():
    df = read("gen_comma_name_q.csv")  # -m "vol,a b": 51 fields
    assert len((BON / "gen_comma_name_q.csv").read_text().strip().split(",")) == 51
    assert set(df["host"]) == {"vol,a b"}
    assert val(df, "put_block", "bandwidth") == 553649 * KiB  # 553649 K/sec
    assert set(df["seed"]) == {"1795315547"}
    txt = read("gen_comma_name_q.stderr.txt")
    assert set(txt["host"]) == {"vol,a b"}
    assert val(txt, "put_block", "bandwidth") == 541 * MiB  # "541m"


def test_200a_file_tests_only():
    df = read("gen_s0_n1_q.csv")  # -s 0 -n 1: 16 empty IO fields, all file tests +++++
    assert set(df["workload"]) == {"create", "stat", "delete"}
    assert df["file_size"].isna().all()
    assert (df.loc[df["metric"] != "lat_max", "flag"] == "too_fast").all()
    assert val(df, "seq_create", "lat_max") == pytest.approx(164e-6)  # 164us
    assert val(df, "ran_create", "lat_max") == pytest.approx(870e-6)  # 870us
    assert set(df["num_files"]) == {"1"} and set(df["files"]) == {"1024"}
    txt = read("gen_s0_n1_q.stderr.txt")  # the file table alone (no IO table)
    assert set(txt["host"]) == {"vm"}  # from the -Create-- sub-header line
    both = txt.merge(df, on=["test", "metric"], suffixes=("_t", "_c"))
    assert len(both) == len(df) == 18
    lat = both[both["metric"] == "lat_max"]
    assert (lat["value_t"] == lat["value_c"]).all()


def test_200a_dirs_land_after_the_chunk_column():
    df = read("gen_s0_n1_4096_512_2.txt")  # -n 1:4096:512:2 -> CSV ...,1,4096,512,,2,...
    row = one(df, "seq_create", "lat_max")
    assert (row["num_files"], row["files"], row["max_size"], row["min_size"], row["dirs"]) == (
        "1:4096:512/2", "1024", "4096", "512", "2")
    assert row["value"] == pytest.approx(174e-6)  # 174us
    assert row["position"] == "line 13"
    txt = parse((BON / "gen_s0_n1_4096_512_2.txt").read_text().replace(
        (BON / "gen_s0_n1_4096_512_2.txt").read_text().splitlines()[12], ""))
    assert set(txt["num_files"]) == {"1:4096:512/2"} and set(txt["dirs"]) == {"2"}
    # the header says num_dirs, file_chunk_size; bonnie writes chunk, dirs
    assert bonnie._dirs_and_chunk("", "2") == ("2", None)
    assert bonnie._dirs_and_chunk("2", "") == ("2", None)
    assert bonnie._dirs_and_chunk("4k", "2") == ("2", "4k")
    assert bonnie._dirs_and_chunk("2", "4k") == ("2", "4k")
    assert bonnie._dirs_and_chunk("", "4k") == (None, "4k")


def test_200a_seed_and_concurrency():
    df = read("gen_seed42_q.csv")
    assert set(df["seed"]) == {"42"}
    assert df["timestamp"].isna().all()  # the seed is not a time
    c2 = read("gen_c2_s512_n0_f.txt")
    assert set(c2["concurrency"]) == {"2"} and set(c2["threads"]) == {2}
    # put_block 577086 K/sec * 1024 with -c 2
    assert val(c2, "put_block", "bandwidth") == 577086 * KiB
    lines = (BON / "gen_c2_s512_n0_f.txt").read_text().splitlines()
    txt = parse("\n".join(lines[:11]))  # the table alone: "vm          512M::2"
    assert set(txt["concurrency"]) == {"2"} and set(txt["threads"]) == {2}
    assert set(txt["file_size"]) == {"512M"}
    assert val(txt, "put_block", "bandwidth") == 564 * MiB  # "564m"


def test_200a_chunk_size_from_table_when_csv_leaves_it_empty():
    p = bonnie.parse((BON / "gen_chunk64k_s512_n0_f.txt").read_text(), "c.txt")
    assert any("64k" in n for n in p.notes)
    df = es.validate(frame(p.records))
    # -s 512:65536: table "512M:64k", CSV io_chunk_size empty (2.00a bug)
    assert set(df["chunk_size"]) == {"64k"}
    assert one(df, "put_block", "bandwidth")["block_size"] == 65536
    assert one(df, "seeks", "iops")["block_size"] == 65536
    # seeks 15412/s, 68 %CP; put_block 306271 K/sec * 1024
    assert val(df, "seeks", "iops") == 15412 and val(df, "seeks", "cpu") == 68
    assert val(df, "put_block", "bandwidth") == 306271 * KiB
    csv_line = (BON / "gen_chunk64k_s512_n0_f.txt").read_text().splitlines()[11]
    alone = parse(csv_line)  # CSV alone: the default chunk is assumed...
    assert one(alone, "put_block", "bandwidth")["block_size"] == 8192
    told = parse(csv_line, chunk_size="64k")  # ...unless the caller knows better
    assert one(told, "put_block", "bandwidth")["block_size"] == 65536
    df2 = read("gen_chunk64k_s512_n0_f.txt", chunk_size=4096)  # the file's own table wins
    assert one(df2, "put_block", "bandwidth")["block_size"] == 65536


def test_empty_fields_give_no_rows():
    df = read("bon_fast_f_s512_n0.txt")  # -f -n 0
    assert set(df["test"]) == {"put_block", "rewrite", "get_block", "seeks"}
    assert len(df) == 12  # 4 tests x (rate, %CP, latency)
    # 466701 K/sec * 1024, 34 %CP, 251us
    assert val(df, "put_block", "bandwidth") == 466701 * KiB
    assert val(df, "put_block", "lat_max") == pytest.approx(251e-6)
    assert val(df, "seeks", "lat_max") == pytest.approx(0.02407)  # 24070us


def test_n1_file_tests_too_fast_but_latency_kept():
    df = read("bon_n1_s512.txt")
    for test in ("seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"):
        assert is_too_fast(df, test, "ops") and is_too_fast(df, test, "cpu")
    assert val(df, "seq_create", "lat_max") == pytest.approx(226e-6)  # 226us
    assert val(df, "ran_del", "lat_max") == pytest.approx(41e-6)  # 41us
    assert one(df, "seq_del", "ops")[["workload", "op", "unit"]].tolist() == [
        "delete", "total", "ops/s"]


def test_bon_csv2txt_output():
    p = bonnie.parse((BON / "bon_csv2txt.txt").read_text(), "b.txt")
    assert p.format == "bon_csv2txt"
    assert any("Expected 1.98" in n for n in p.notes)  # its complaint about the header row
    df = es.validate(frame(p.records))
    assert sorted(df["position"].unique(), key=lambda s: int(s.split()[1])) == [
        f"line {k}" for k in range(5, 13)]
    assert df["run_id"].nunique() == 4
    assert df.groupby("run_id")["repetition"].first().sort_values().tolist() == [0, 1, 2, 3]
    # row 1: "1141k" = 1168384 B/s, "442m" = 442 MiB/s; row 4 "1128k", "450m"
    assert val(df, "putc", "bandwidth", repetition=0) == 1141 * KiB
    assert val(df, "put_block", "bandwidth", repetition=0) == 442 * MiB
    assert val(df, "put_block", "bandwidth", repetition=3) == 450 * MiB
    # bon_csv2txt renders +++++ get_block as "0k" next to "+++": too fast, never 0
    assert all(is_too_fast(df, "get_block", "bandwidth", repetition=r) for r in range(4))
    row = one(df, "seeks", "iops", repetition=0)  # "vm     512M::8192:5"
    assert (row["host"], row["file_size"], row["seeks"], row["seek_proc_count"]) == (
        "vm", "512M", "8192", "5")
    assert val(df, "seeks", "lat_max", repetition=3) == pytest.approx(0.037655)  # 37655us


def test_meta_overrides():
    df = read("bon_q_s512_n0.csv", config="gp3", volume="vol-1", host="db1")
    assert set(df["config"]) == {"gp3"} and set(df["volume"]) == {"vol-1"}
    assert set(df["host"]) == {"db1"}


def test_run_ids_are_stable_and_distinct():
    a, b = read("bon_q_x3_s512_n0.csv"), read("bon_q_x3_s512_n0.csv")
    assert a["run_id"].tolist() == b["run_id"].tolist()
    other = es.read_bonnie(BON / "bon_q_s512_n0.csv")
    assert not set(a["run_id"]) & set(other["run_id"])


# --- errors -------------------------------------------------------------------------------------
def test_truncated_200a_row():
    line = (BON / "bon_q_s512_n0.csv").read_text().strip()
    cut = ",".join(line.split(",")[:30])
    with pytest.raises(ParseError) as err:
        bonnie.parse("Using uid:0, gid:0.\n" + cut + "\n", "t.csv")
    e = err.value
    assert e.source == "t.csv" and e.position == "line 2"
    assert "50 fields" in e.expected and "30 fields" in e.found


def test_truncated_103_row():
    cut = ",".join(L103.split(",")[:10])
    with pytest.raises(ParseError) as err:
        bonnie.parse(L103 + "\n" + cut, "t.csv")
    assert err.value.position == "line 2" and "27 fields" in err.value.expected


def test_bad_csv_cell():
    f = L196.split(",")
    f[9] = "12x4"  # put_block
    with pytest.raises(ParseError) as err:
        bonnie.parse("\n" + ",".join(f), "b.csv")
    assert err.value.position == "line 2" and "put_block" in err.value.found
    f = L196.split(",")
    f[36] = "57820 parsecs"
    with pytest.raises(ParseError, match="putc_latency"):
        bonnie.parse(",".join(f), "b.csv")


def test_misaligned_row_is_not_read_as_a_comma_name():
    # 4 commas too many in the middle: the extra fields must not be swallowed into the name
    line = (BON / "bon_fast_f_s512_n0.txt").read_text().splitlines()[11]
    bad = line.replace(",+++,,", ",+++,,,,,,", 1)
    assert len(bad.split(",")) == 54
    assert bonnie.sniff(bad, "x") is None
    with pytest.raises(ParseError) as err:
        bonnie.parse(bad, "m.csv")
    assert err.value.position == "line 1" and err.value.found.startswith("54 fields")


def test_bad_table_size_column():
    text = (BON / "bon_q_s512_n0.stderr.txt").read_text().replace("  512M ", "512M:x ")
    with pytest.raises(ParseError) as err:
        bonnie.parse(text, "s.txt")
    assert err.value.position == "line 4"


def test_bad_table_cell():
    text = (BON / "bon_q_s512_n0.stderr.txt").read_text().replace("442m", "44?m")
    with pytest.raises(ParseError) as err:
        bonnie.parse(text, "s.txt")
    assert err.value.position == "line 4" and "put_block" in err.value.expected
    text = (BON / "bon_q_s512_n0.stderr.txt").read_text().replace("4022us", "4022xx")
    with pytest.raises(ParseError) as err:
        bonnie.parse(text, "s.txt")
    assert err.value.position == "line 5"


def test_table_without_its_column_header():
    lines = (BON / "bon_q_s512_n0.stderr.txt").read_text().splitlines()
    del lines[2]
    with pytest.raises(ParseError) as err:
        bonnie.parse("\n".join(lines), "s.txt")
    assert err.value.position == "line 3"


@pytest.mark.parametrize("text", ["", "\n\n", "hello world\nthis is not bonnie\n",
                                  "Using uid:0, gid:0.\nWriting intelligently...done\n",
                                  H200 + "\n"])
def test_garbage_is_a_parse_error(text):
    with pytest.raises(ParseError) as err:
        bonnie.parse(text, "g.txt")
    assert err.value.source == "g.txt"
    assert "bonnie++" in err.value.expected


def test_read_bonnie_errors_name_the_file(tmp_path: Path):
    p = tmp_path / "broken.csv"
    p.write_text("vm,512M,112336,80\n")
    with pytest.raises(ParseError) as err:
        es.read_bonnie(p)
    assert err.value.source == str(p) and err.value.position == "line 1"


def test_crlf_line_endings_read_the_same():
    text = (BON / "bon1.96_plain_s512_n1.txt").read_text()
    a = parse(text)
    b = parse(text.replace("\n", "\r\n"))
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("name", ["bon1.96_plain_s512_n1.txt", "bon_csv2txt.txt",
                                  "bon1.03a_plain_s512_n1.txt", "gen_s0_n1_4096_512_2.txt"])
def test_cut_files_give_a_frame_or_a_parse_error(name):
    # a file cut anywhere (a crashed or copied-short run) never escapes as another exception
    text = (BON / name).read_text()
    for cut in range(0, len(text), 23):
        try:
            df = parse(text[:cut])
        except ParseError:
            continue
        assert (df["tool"] == "bonnie++").all()


def test_a_table_cut_mid_row_is_an_error_not_a_smaller_value():
    text = (BON / "bon_q_s512_n0.stderr.txt").read_text()
    lines = text.splitlines(keepends=True)
    start = len("".join(lines[:3]))  # the IO row (line 4) and its Latency row (line 5)
    row_end = start + len(lines[3])
    ends = {row_end - 1, row_end, row_end + len(lines[4]) - 1}  # with or without the newline
    for cut in range(start + 1, start + len(lines[3]) + len(lines[4])):
        if cut in ends:  # whole rows: fine
            assert len(parse(text[:cut])) > 0
            continue
        with pytest.raises(ParseError) as err:
            parse(text[:cut])
        assert err.value.position in ("line 4", "line 5"), cut


def test_a_row_classified_by_the_sniff_still_fails_at_its_own_file_and_line():
    # the sniff's verdict on a row is reused by the parse (a cache of the row's classification):
    # an error must still name the file and line of the parse, not those of an earlier call
    f = L196.split(",")
    f[9] = "12x4"  # put_block
    bad = ",".join(f)
    assert bonnie.sniff(bad, "x") is None
    for source, lead in (("a.csv", ""), ("b.csv", "\n\n")):
        with pytest.raises(ParseError) as err:
            bonnie.parse(lead + bad, source)
        assert (err.value.source, err.value.position) == (source, f"line {len(lead) + 1}")
    good = bonnie.parse(L196, "c.csv")
    assert bonnie.sniff(L196, "x") == "csv 1.96"  # a cache hit gives the same verdict
    assert bonnie.parse(L196, "c.csv").records == good.records


def test_the_folder_columns_are_the_public_records(tmp_path: Path):
    # the reader hands the folder columns; parse() gives the same rows as dicts
    text = (BON / "bon_q_x3_s512_n0.csv").read_text()
    cols, n = bonnie.READER.parse(text.encode(), "x.csv", {}).columns
    records = bonnie.parse(text, "x.csv").records
    assert n == len(records) > 12
    for name, col in cols.items():
        values = [col.value] * col.n if isinstance(col, Const) else col
        assert pd.Series(values, dtype=object).equals(
            pd.Series([r[name] for r in records], dtype=object)), name  # NaN equals NaN here
    assert [r["repetition"] for r in records][::len(records) // 3] == [0, 1, 2]


_FIELD_VALUES = ["", "+++", "+++++", "12", "1.5", "12ms", "3us", "4s", "abc", "16G", "8k", "8K",
                 "link", "symlink", "\u0663", "-1", "1e5", "2.00a", "1.98", "0", " 1", "1.",
                 "12m", "5:6", "1+", "+1", "1.5.5", ".5", "1.5ms", "ms", "++"]


@pytest.mark.parametrize("layout, label", [(bonnie._LAYOUT_198, "1.98"),
                                           (bonnie._LAYOUT_196, "1.96")])
def test_a_row_checked_in_one_match_agrees_with_the_field_by_field_check(layout, label):
    # _classify accepts a 1.9x row through one compiled match of every field's pattern; that
    # must be exactly "_check_19x finds no problem" (rows from a genuine one, fields replaced)
    import random

    rng = random.Random(7)
    base = fixture("bonnie", "bon_q_s512_n0.csv").read_text().splitlines()[-1].split(",")
    base = (base + [""] * len(layout))[:len(layout)]
    base[0] = label
    for _ in range(3000):
        fields = list(base)
        for _ in range(rng.choice([1, 2, 3])):
            fields[rng.randrange(2, len(fields))] = rng.choice(_FIELD_VALUES)
        named = dict(zip(layout, fields, strict=True))
        problem = bonnie._check_19x(named, label)
        got = bonnie._classify(",".join(fields))
        if problem is None:
            assert got == (label, fields)
        else:
            assert got != (label, fields), (fields, problem)


def test_comment_lines_with_commas_are_notes_not_corrupted_rows():
    """A file of CSV rows with a keeper's notes on top ("# 190G L2ARC, 12G SLOG, iSCSI, tuned
    kernel", cunnie/cloud_storage_benchmarks: 13 files, ~190 runs refused as corrupted): the
    '#' lines are ignored and said, every row read as without them; a stray line that is no
    comment is still refused."""
    text = fixture("bonnie", "bon_q_x3_s512_n0.csv").read_text()
    plain = bonnie.parse(text, "x.csv")
    lines = text.splitlines(keepends=True)
    noted = bonnie.parse("# RAIDZ2, no L2ARC, no SLOG, 80GB file\n" + lines[0]
                         + "  # between, two, rows, of, it\n" + "".join(lines[1:]), "x.csv")
    moved = ["run_id", "position"]  # (the rows are two lines further down: their positions)
    assert frame(noted.records).drop(columns=moved).equals(
        frame(plain.records).drop(columns=moved)) and len(plain.records) == 54
    assert noted.notes[0] == ("2 comment line(s) with commas ignored (lines starting with "
                              "'#', the first on line 1)")
    with pytest.raises(ParseError, match="line 2"):
        bonnie.parse(lines[0] + "RAIDZ2, no L2ARC, no SLOG, 80GB file\n" + "".join(lines[1:]),
                     "x.csv")


def test_csv_1_0x_row_takes_its_tables_version():
    """A 1.0x CSV row has no version field (1.01-1.03 share its layout): the table printed
    before it says which. The 1.03a fixture's table respelled "Version 1.02b" (as a public
    2003 post of bonnie++ 1.02b output prints it): its CSV row's tool_version is 1.02b; the
    values are the fixture's."""
    text = fixture("bonnie", "bon1.03a_plain_s512_n1.txt").read_text()
    assert "Version  1.03 " in text
    p = bonnie.parse(text.replace("Version  1.03 ", "Version 1.02b ", 1), "b.txt")
    q = bonnie.parse(text, "b.txt")
    assert {r["tool_version"] for r in p.records} == {"1.02b"}
    assert {r["tool_version"] for r in q.records} == {"1.03"}
    assert [r["value"] for r in p.records] == [r["value"] for r in q.records]
    # another host's table says nothing of this row
    other = text.replace("Version  1.03 ", "Version 1.02b ", 1).replace("\nvm ", "\nxx ", 1)
    assert {r["tool_version"] for r in bonnie.parse(other, "b.txt").records} == {"1.03"}


def test_the_file_rates_of_2_00a_text_alone_are_left_out_and_said(tmp_path):
    """bonnie++ 2.00a's text prints every timed file-test rate of -n 64 as 65536, where the
    CSV row of the same run (gen_s0_n64_q.csv, stdout of -q; the text is its stderr: both made
    here, MANIFEST rows) says 22223, 84644, 2746 and 92256 a second. Read alone, the text's
    rates are left out with a note; its %CP, latencies and +++++ agree with the CSV and stay."""
    text_src = FIXTURES / "bonnie" / "gen_s0_n64_q.stderr.txt"
    csv_src = FIXTURES / "bonnie" / "gen_s0_n64_q.csv"
    assert text_src.read_text().splitlines()[3].split()[:4] == ["64", "65536", "90", "+++++"]
    (tmp_path / "text.txt").write_bytes(text_src.read_bytes())
    (tmp_path / "row.csv").write_bytes(csv_src.read_bytes())
    df = es.read(tmp_path, progress=False)
    text, row = df[df.source == "text.txt"], df[df.source == "row.csv"]
    assert sorted(row.loc[(row.metric == "ops") & row.value.notna(), "value"]) == [
        2746, 22223, 84644, 92256]
    assert not (text.metric == "ops").loc[text.value.notna()].any()  # no 65536
    assert (text.flag == "too_fast").sum() == (row.flag == "too_fast").sum() == 4  # 2 x +++++
    key = ["test", "metric"]
    kept = text.set_index(key)["value"]
    assert kept.equals(row.set_index(key)["value"].reindex(kept.index))  # %CP and latencies
    p = bonnie.parse(text_src.read_text(), "text.txt")
    assert p.notes == ["4 file-test rate(s) of bonnie++ 2.00's text left out (line 4 first): "
                       "that text prints them wrongly (65536 where its CSV row says 22223); the "
                       "CSV row, printed after the tables (on stdout with -q), has them"]


def test_a_date_between_text_runs_ends_the_table_with_a_note(tmp_path):
    """A shell loop's ``date`` between bonnie++ text tables (``bonnie++ -q 2>>log; date
    >>log``; cunnie/cloud_storage_benchmarks' RAIDZ2 runs without their CSV lines) refused the
    whole file: ``Thu Oct 30 08:40:38 PDT 2014`` was read as a file-table row. A line after a
    Latency row that is no row of the table now ends the table, named in a note; the runs
    around it are read, their values as in the genuine table (1.96: 410 K/sec -> 419,840 B/s)."""
    text = fixture("bonnie", "bon1.96_plain_s512_n1.txt").read_text()
    table = "\n".join(ln for ln in text.splitlines()
                      if ln.startswith(("Version", "Concurrency", "Machine", "vm", "Latency",
                                        "              files", "                  1")))
    path = tmp_path / "loop.txt"
    path.write_text(f"{table}\nThu Oct 30 08:40:38 PDT 2014\n{table}\n"
                    "Thu Oct 30 09:12:01 PDT 2014\n")
    df = es.read(path)
    assert sorted(df["repetition"].unique()) == [0, 1]
    putc = df[(df["test"] == "putc") & (df["metric"] == "bandwidth")]["value"]
    assert putc.tolist() == [410 * 1024] * 2
    notes = [f["reason"] for f in df.attrs["failures"] if f["kind"] == "note"]
    assert any("'Thu Oct 30 08:40:38 PDT 2014'" in n for n in notes)
    # a line that is no row before any Latency row is still refused
    lines = table.splitlines()
    path.write_text("\n".join(lines[:3] + ["Thu Oct 30 08:40:38 PDT 2014"] + lines[3:]) + "\n")
    with pytest.raises(es.ParseError, match="line 4"):
        es.read_bonnie(path)


def test_a_csv_row_pasted_again_is_read_once(tmp_path):
    """A 1.9x/2.00 CSV row equal byte for byte to an earlier one (seed and every figure) is a
    copy (ZubairLK/bonnie2gchartdocker's sample: two rows twice, n=2 with a spread of 0): read
    once, with a note. A 1.03 row, without seed nor latencies, stays a run."""
    lines = (BON / "bon_q_x3_s512_n0.csv").read_text().splitlines()
    (tmp_path / "x.csv").write_text("\n".join([*lines, lines[2]]) + "\n")
    df, fails = es.read(tmp_path / "x.csv", with_failures=True)
    assert df["run_id"].nunique() == 3 and sorted(df["repetition"].unique()) == [0, 1, 2]
    assert fails["reason"].tolist() == [
        f"line {len(lines) + 1} repeats line 3 byte for byte, its seed "
        f"{lines[2].split(',')[4]} included: a copy of that run, read once"]
    old = (BON / "bon1.03a_q_x2_s512_n0.csv").read_text().splitlines()
    (tmp_path / "o.csv").write_text("\n".join([*old, old[-1]]) + "\n")
    assert es.read(tmp_path / "o.csv")["run_id"].nunique() == len(old)


def test_a_line_without_commas_above_csv_rows_is_noted(tmp_path):
    """annttu/bonnie2gchart's CSV opens with "Comment here!": dropped without a word. It is
    noted; bonnie++'s own progress lines (stderr in the same file) are not."""
    lines = (BON / "bon_q_x3_s512_n0.csv").read_text().splitlines()
    (tmp_path / "c.csv").write_text("\n".join(["Comment here!", "Writing intelligently...done",
                                               *lines]) + "\n")
    df, fails = es.read(tmp_path / "c.csv", with_failures=True)
    assert df["run_id"].nunique() == 3
    assert fails["reason"].tolist() == ["1 line(s) without commas ignored (line 1 first: "
                                        "'Comment here!')"]
