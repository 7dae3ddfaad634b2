"""Compressed outputs (gzip, bzip2, xz) are read as the bytes they hold.

wikimedia/cloud-storage-performance-tests keeps every fio report and log gzipped
(``run_stats.log.gz`` beside ``data_bw.log.gz``): all 3,132 files had been "binary file, not a
benchmark output". The fixtures here are genuine fio outputs, compressed by the test.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import shutil
import warnings

import pandas as pd
import pytest

import ebsstats as es
from ebsstats.errors import ParseError
from ebsstats.io import _common
from ebsstats.io.fio import log as fio_log
from ebsstats.io.sniff import sniff_file
from tests.conftest import fixture, tree_digest

COMPRESS = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}


def _compressed_copy(src, dst, suffix=".gz", rename=None):
    """Every file of the folder ``src`` compressed into ``dst`` (``rename``: name -> name)."""
    dst.mkdir()
    for f in sorted(src.iterdir()):
        name = (rename or {}).get(f.name, f.name)
        (dst / f"{name}{suffix}").write_bytes(COMPRESS[suffix](f.read_bytes()))


def _without_suffix(df: pd.DataFrame, suffix: str) -> pd.DataFrame:
    """``df`` with its sources named as the plain files and without run_id (a hash of the
    source): what must equal the plain read."""
    out = df.drop(columns=["run_id"]).copy()
    out["source"] = out["source"].astype(str).str.removesuffix(suffix)
    return out.reset_index(drop=True)


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
def test_a_compressed_report_and_its_logs_read_as_the_plain_files(tmp_path, suffix):
    """A fio report and its five logs, each compressed: the same result and series rows
    (values, ops, tests) as the plain folder, the logs linked to the report's job."""
    src = fixture("fio", "gen", "logs_max")
    _compressed_copy(src, tmp_path / "c", suffix)
    plain, plain_ts, _ = es.read(src, full=True, series=True)
    got, got_ts, _ = es.read(tmp_path / "c", full=True, series=True)
    assert got.attrs["failures"] == []
    pd.testing.assert_frame_equal(_without_suffix(got, suffix), _without_suffix(plain, ""))
    pd.testing.assert_frame_equal(_without_suffix(got_ts, suffix),
                                  _without_suffix(plain_ts, ""))
    # linked: each log's rows carry the report job's run_id, as the plain logs do theirs
    assert set(got_ts["run_id"]) <= set(got["run_id"])
    assert set(plain_ts["run_id"]) <= set(plain["run_id"])
    assert sorted(set(got_ts["metric"])) == sorted(set(plain_ts["metric"]))


def test_wikimedias_layout_a_gzipped_report_not_named_json(tmp_path):
    """wikimedia's run folder: ``run_stats.log.gz`` (the fio JSON report) beside
    ``data_bw.log.gz``; the logs are linked to it through its gzipped bytes."""
    src = fixture("fio", "gen", "logs_max")
    _compressed_copy(src, tmp_path / "run_1", rename={"lm_run.json": "run_stats.log"})
    df, ts, _ = es.read(tmp_path / "run_1", full=True, series=True)
    assert df.attrs["failures"] == []
    assert set(df["source"]) == {"run_stats.log.gz"}
    assert len(ts) and set(ts["run_id"]) <= set(df["run_id"])
    plain_ts = es.read(src, full=True, series=True).series
    assert sorted(ts["value"]) == sorted(plain_ts["value"])
    assert set(ts["test"]) == set(plain_ts["test"])


def test_a_single_compressed_file_and_its_sniff(tmp_path):
    src = fixture("fio", "small_json.json")
    gz = tmp_path / "r.json.gz"
    gz.write_bytes(gzip.compress(src.read_bytes()))
    got = es.read(gz)
    plain = es.read(src)
    assert list(got["value"]) == list(plain["value"]) and len(got) > 0
    assert sniff_file(gz).tool == "fio"


def test_a_large_compressed_log_is_read_from_its_decompressed_bytes(tmp_path, monkeypatch):
    """A log past the size read from disk by pyarrow (here: made small) that is compressed is
    read from what it holds (pyarrow would read the gzip bytes as its lines)."""
    src = fixture("fio", "logs_raw", "lograw_clat.1.log")
    gz = tmp_path / "lograw_clat.1.log.gz"
    gz.write_bytes(gzip.compress(src.read_bytes(), compresslevel=1))
    monkeypatch.setattr(fio_log, "_HEAD", 1024)  # compressed size > 4 * _HEAD: the disk path
    assert gz.stat().st_size > 4 * 1024
    opened = fio_log._open_log(gz)
    assert isinstance(opened, bytes) and opened == src.read_bytes()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = es.read_fio_log(gz, fio_version="3.33")
        plain = es.read_fio_log(src, fio_version="3.33")
    assert list(got["value"]) == list(plain["value"]) and len(got) > 1000


def test_a_compression_bomb_stops_at_the_size_limit(tmp_path):
    """200 MiB of zeros in 200 KiB of gzip: refused once max_bytes are decompressed, with the
    file named; the folder's other files are kept."""
    src = fixture("fio", "small_json.json")
    shutil.copy(src, tmp_path / "r.json")
    z = gzip.compress(b"0" * (200 * 1024**2), compresslevel=9)
    assert len(z) < 300 * 1024
    (tmp_path / "bomb.json.gz").write_bytes(z)
    with pytest.warns(UserWarning, match="1 file"):
        df, _, fails = es.read(tmp_path, max_bytes=16 * 1024**2, full=True)
    assert set(df["source"]) == {"r.json"}
    row = fails.set_index("source").loc["bomb.json.gz"]
    assert row["kind"] == "error"
    assert "more than 16,777,216 bytes once decompressed (gzip)" in row["reason"]
    with pytest.raises(ParseError, match="once decompressed"):
        _common.load_bytes(tmp_path / "bomb.json.gz", 1024**2)


def test_a_damaged_stream_is_an_error_naming_it(tmp_path):
    data = gzip.compress(fixture("fio", "small_json.json").read_bytes())
    (tmp_path / "cut.json.gz").write_bytes(data[: len(data) // 2])
    with pytest.raises(ParseError) as exc:
        es.read(tmp_path / "cut.json.gz")
    assert exc.value.source.endswith("cut.json.gz")
    assert exc.value.expected == "a complete gzip stream"
    assert "EOFError" in exc.value.found


def test_text_that_starts_like_a_magic_is_text(tmp_path):
    """bzip2's magic is three letters: "BZh" text is not taken for a stream."""
    assert _common.compression_of(b"BZh91AY&SY") == "bzip2"
    assert _common.compression_of(b"BZhello, world\n") is None
    assert _common.compression_of(b"\x1f\x8bx") is None  # gzip needs its deflate method byte
    p = tmp_path / "notes.txt"
    p.write_bytes(b"BZh is where this line starts\n")
    assert _common.load_bytes(p) == b"BZh is where this line starts\n"


def test_zstd_and_twice_compressed_files_are_named_not_read(tmp_path):
    src = fixture("fio", "small_json.json").read_bytes()
    (tmp_path / "r.json.zst").write_bytes(b"\x28\xb5\x2f\xfd" + b"\x00" * 16)
    (tmp_path / "r.json.gz.gz").write_bytes(gzip.compress(gzip.compress(src)))
    (tmp_path / "r.json").write_bytes(src)
    df, _, fails = es.read(tmp_path, full=True)
    assert set(df["source"]) == {"r.json"}
    reasons = fails.set_index("source")["reason"]
    assert reasons["r.json.zst"] == "zstd-compressed file: not read (decompress it first, e.g. unzstd)"
    assert reasons["r.json.gz.gz"].startswith("gzip-compressed file: not read")


def test_reading_compressed_files_leaves_them_as_they_were(tmp_path):
    _compressed_copy(fixture("fio", "gen", "logs_max"), tmp_path / "c")
    before = tree_digest(tmp_path / "c")
    es.read(tmp_path / "c", full=True, series=True)
    assert tree_digest(tmp_path / "c") == before
    assert sorted(p.name for p in (tmp_path / "c").iterdir())[0].endswith(".gz")


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress])
def test_a_corrupted_stream_is_a_parse_error_never_another_exception(tmp_path, compress):
    """Bytes of a compressed report changed or cut at random (seeded): each file either
    reads or is a ParseError naming it. zlib.error and lzma.LZMAError, which are no
    OSError, escaped before (212 of 400 gzip and all 400 xz cases here)."""
    import random

    rnd = random.Random(5)
    z = compress(fixture("fio", "small_json.json").read_bytes())
    errors = 0
    for i in range(150):
        b = bytearray(z)
        for _ in range(rnd.randint(1, 4)):
            b[rnd.randrange(len(b))] = rnd.randrange(256)
        if i % 3 == 0:
            b = b[: rnd.randrange(len(b))]
        p = tmp_path / f"r{i}.json.z"
        p.write_bytes(bytes(b))
        _common.read_head(p, 1000)
        try:
            _common.load_bytes(p)
        except ParseError as exc:
            assert exc.source == str(p)
            errors += 1
    assert errors > 100


@pytest.mark.parametrize("tool", ["fio", "bonnie", "sysbench", "pts", "ioping"])
def test_every_fixture_of_a_tool_gzipped_reads_as_the_plain_tree(tmp_path, tool):
    """Each genuine fixture of a tool gzipped in place (its logs, reports and PTS test-logs
    too): the same results and series, and the same failures, as the plain tree. fio's
    ``logs_avg_run.json.gz`` beside ``logs_avg/`` must still give its logs their version (10
    logs were refused until the ``<folder>_run.json`` convention took compressed reports)."""
    from tests.conftest import FIXTURES

    src = FIXTURES / tool
    for f in src.rglob("*"):
        if f.is_file():
            out = tmp_path / "gz" / f"{f.relative_to(src)}.gz"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(gzip.compress(f.read_bytes()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = es.read(src, full=True, series=True, progress=False)
        got = es.read(tmp_path / "gz", full=True, series=True, progress=False)
    assert len(plain.frame) > 50

    def same(df: pd.DataFrame, suffix: str) -> pd.DataFrame:
        out = df.drop(columns=["run_id"]).astype(str)
        out["source"] = out["source"].str.removesuffix(suffix)
        return out.sort_values(list(out.columns)).reset_index(drop=True)

    pd.testing.assert_frame_equal(same(got.frame, ".gz"), same(plain.frame, ""))
    pd.testing.assert_frame_equal(same(got.series, ".gz"), same(plain.series, ""))
    # the same failures, but for the companions (README, MANIFEST.tsv, job files): passed over
    # by their plain names, compressed they are listed as skipped (a meta.yaml.gz is never
    # silently passed over: ebsstats reads no compressed sidecar)
    from ebsstats.io.sniff import is_companion_name

    def failures(f: pd.DataFrame, suffix: str) -> list:
        f = f.assign(source=f["source"].astype(str).str.removesuffix(suffix))
        return sorted(map(tuple, f[["source", "kind"]].to_numpy().tolist()))

    extra = [(src, kind) for src, kind in failures(got.failures, ".gz")
             if kind == "skipped" and is_companion_name(src.rsplit("/", 1)[-1])]
    assert sorted(failures(got.failures, ".gz")) == sorted(
        failures(plain.failures, "") + extra)
    assert all(k == "skipped" for _, k in extra)


def test_a_compressed_sidecar_is_listed_never_silently_passed_over(tmp_path):
    """ebsstats reads no compressed sidecar: a meta.yaml.gz is listed as skipped (its
    metadata not applied), not passed over as the plain sidecar's companion name would be."""
    shutil.copy(fixture("fio", "small_json.json"), tmp_path / "r.json")
    (tmp_path / "meta.yaml.gz").write_bytes(gzip.compress(b"config: gp3-100g\n"))
    df, _, fails = es.read(tmp_path, full=True)
    assert df["config"].isna().all()
    row = fails.set_index("source").loc["meta.yaml.gz"]
    assert row["kind"] == "skipped" and "not a recognised benchmark output" in row["reason"]
