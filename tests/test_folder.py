"""Folder ingest against a stand-in reader, so these tests pin the ingest rules themselves:
sniffing by content, metadata precedence, failures collected, duplicates, links, Parquet."""

from __future__ import annotations

import os
import sys
import warnings

import pandas as pd
import pytest

import ebsstats as es
from ebsstats.errors import IngestError, ParseError
from ebsstats.io import folder
from ebsstats.io import meta as metamod
from ebsstats.io._registry import Reader, register, text_parser, unregister
from tests.conftest import fixture, tree_digest

pytestmark = pytest.mark.filterwarnings("ignore:ebsstats.read:UserWarning")

FAKE = "ebsstats.io._fake_tool"


def _fake_reader() -> Reader:
    def sniff(head, name):
        return "fake v1" if head.startswith("FAKE ") else None

    def parse(text, source, **options):
        from ebsstats.io._common import Parsed

        lines = text.splitlines()
        if not lines[0].startswith("FAKE "):
            raise ParseError(source, 1, "'FAKE <version>'", found=lines[0])
        recs = []
        for i, line in enumerate(lines[1:], start=2):
            try:
                test, value = line.split("=")
                v = float(value)
            except ValueError as exc:
                raise ParseError(source, i, "'<test>=<number>'", found=line) from exc
            recs.append({"source": source, "run_key": f"line {i}", "position": f"line {i}",
                         "tool": "sim", "tool_version": lines[0][5:], "test": test,
                         "metric": "iops", "value": v, "op": "read", "config": "from-file"})
        return Parsed(tool="sim", format="fake v1", version=lines[0][5:], records=recs)

    return Reader(tool="sim", name=FAKE, detect=sniff, parse=text_parser(parse))


@pytest.fixture(autouse=True)
def fake_reader():
    register(_fake_reader(), first=True)  # asked before the built-in readers
    metamod.clear_cache()
    yield
    unregister(FAKE)
    metamod.clear_cache()


def _tree(tmp_path):
    (tmp_path / "gp2" / "vol-a").mkdir(parents=True)
    (tmp_path / "gp3" / "vol-b").mkdir(parents=True)
    (tmp_path / "gp2" / "vol-a" / "run-0.txt").write_text("FAKE 1.0\nrr=100\nrw=50\n")
    (tmp_path / "gp2" / "vol-a" / "run-1.txt").write_text("FAKE 1.0\nrr=110\n")
    (tmp_path / "gp3" / "vol-b" / "run-0.txt").write_text("FAKE 1.1\nrr=300\n")
    (tmp_path / "gp3" / "vol-b" / "broken.txt").write_text("FAKE 1.1\nrr=3x0\n")
    (tmp_path / "gp3" / "notes.log").write_text("unrelated program output\n")
    (tmp_path / "gp3" / "meta.yaml").write_text("volume_type: gp3\nsize_gib: 100\n")
    (tmp_path / "gp3" / "vol-b" / "run-0.txt.meta.yaml").write_text("volume: vol-b-own\n")
    return tmp_path


def test_folder_read_collects_good_and_bad(tmp_path):
    root = _tree(tmp_path)
    before = tree_digest(root)
    with pytest.warns(UserWarning, match="1 file"):
        df, fails = es.read(root, with_failures=True)
    es.validate(df)
    assert tree_digest(root) == before  # inputs never modified
    assert sorted(df["value"]) == [50.0, 100.0, 110.0, 300.0]
    assert set(df["source"]) == {"gp2/vol-a/run-0.txt", "gp2/vol-a/run-1.txt",
                                 "gp3/vol-b/run-0.txt"}
    bad = fails.set_index("source")
    assert bad.loc["gp3/vol-b/broken.txt", "kind"] == "error"
    assert bad.loc["gp3/vol-b/broken.txt", "position"] == "line 2"
    assert "'<test>=<number>'" in bad.loc["gp3/vol-b/broken.txt", "reason"]
    assert bad.loc["gp3/notes.log", "kind"] == "skipped"
    assert "meta.yaml" not in " ".join(fails["source"])  # sidecars are companions, not failures
    assert df.attrs["failures"] == fails.astype(object).where(fails.notna(), None).to_dict(
        "records")


def test_metadata_precedence(tmp_path):
    root = _tree(tmp_path)
    df = es.read(root, pattern="{volume_type}/{volume}/run-{repetition}.txt", errors="collect")
    row = df[df["source"] == "gp3/vol-b/run-0.txt"].iloc[0]
    assert row["volume"] == "vol-b-own"      # <file>.meta.yaml beats the pattern
    assert row["volume_type"] == "gp3"        # folder meta.yaml
    assert row["size_gib"] == 100.0
    assert row["config"] == "from-file"       # nothing overrides the file's own value here
    a = df[df["source"] == "gp2/vol-a/run-1.txt"].iloc[0]
    assert a["volume"] == "vol-a" and a["repetition"] == 1 and a["volume_type"] == "gp2"
    df2 = es.read(root, pattern="{volume_type}/{volume}/run-{repetition}.txt", config="arg",
                  volume="forced")
    assert set(df2["config"]) == {"arg"} and set(df2["volume"]) == {"forced"}  # arguments win


def test_strict_folder_read_lists_every_failure(tmp_path):
    root = _tree(tmp_path)
    (root / "gp2" / "bad2.txt").write_text("FAKE 1\nx\n")
    with pytest.raises(IngestError) as info:
        es.read(root, errors="raise")
    assert len(info.value.failures) == 2
    assert "gp2/bad2.txt" in str(info.value)


def test_single_file_raises_parse_error(tmp_path):
    p = tmp_path / "one.txt"
    p.write_text("FAKE 1\nrr=abc\n")
    with pytest.raises(ParseError, match=r"one.txt, line 2"):
        es.read(p)
    q = tmp_path / "other.txt"
    q.write_text("hello\n")
    with pytest.raises(ParseError, match="benchmark output"):
        es.read(q)


def test_same_input_twice_gives_identical_frames(tmp_path):
    root = _tree(tmp_path)
    a = es.read(root)
    b = es.read(root)
    pd.testing.assert_frame_equal(a, b)


def test_duplicates_read_once_and_symlink_loops(tmp_path):
    root = _tree(tmp_path)
    (root / "copy.txt").write_bytes((root / "gp2" / "vol-a" / "run-0.txt").read_bytes())
    os.symlink(root, root / "gp2" / "loop")          # a directory link back to the root
    df, fails = es.read(root, with_failures=True)
    assert (fails["kind"] == "duplicate").sum() == 1
    assert len(df) == 4


def test_size_limit_and_binary(tmp_path):
    root = _tree(tmp_path)
    (root / "big.txt").write_text("FAKE 1\n" + "rr=1\n" * 1000)
    (root / "blob.bin").write_bytes(b"\x00\x01\x02" * 10)
    df, fails = es.read(root, with_failures=True, max_bytes=1000)
    reasons = fails.set_index("source")["reason"]
    assert "at most 1,000 bytes" in reasons["big.txt"]
    assert fails.set_index("source").loc["blob.bin", "kind"] == "skipped"


def test_parallel_read_equals_serial(tmp_path):
    for i in range(30):
        (tmp_path / f"r{i:02d}.txt").write_text(f"FAKE 1\nrr={i}\n")
    pd.testing.assert_frame_equal(es.read(tmp_path), es.read(tmp_path, jobs=2))


def test_workers_type_blocks_that_join_as_one_read_types_them(tmp_path):
    """Worker processes type their runs of files into blocks; joined in the files' order they
    give the frame one process gives: duplicates in other workers' runs dropped (and their
    categories), a broken file listed, series rows kept."""
    sources = [fixture("fio", "small_json.json"), fixture("fio", "f2110_small_json.json"),
               fixture("bonnie", "bon_q_x3_s512_n0.csv"),
               fixture("sysbench", "sb_fileio_rndrw_report_interval.txt"),
               fixture("sysbench", "sb1.0_cpu_ri.txt")]
    for i in range(150):
        src = sources[i % len(sources)]
        (tmp_path / f"r{i:03d}{src.suffix}").write_bytes(src.read_bytes() + b"\n" * (i // 5))
    # the same bytes as r000 (read in the first worker's run) far down the listing, and a
    # file only the last run has: its categories must not outlive it when it is dropped
    (tmp_path / "r140.json").write_bytes((tmp_path / "r000.json").read_bytes())
    (tmp_path / "r145.json").write_text('{"fio version": "fio-3.1", "jobs": [')
    serial = es.read(tmp_path, jobs=1, series=True, full=True, progress=False)
    parallel = es.read(tmp_path, jobs=2, series=True, full=True, progress=False)
    assert len(folder._parts(list(range(150)), [100] * 150, 2)) == 3  # blocks were joined
    pd.testing.assert_frame_equal(serial.frame, parallel.frame)
    pd.testing.assert_frame_equal(serial.series, parallel.series)
    pd.testing.assert_frame_equal(serial.failures, parallel.failures)
    assert set(serial.failures["kind"]) == {"duplicate", "error", "note"}
    # the notes, made in the workers, come back with their files: the 30 copies of the
    # report-interval fixture each say its line-42 minimum latency printed as 0.00
    noted = serial.failures[serial.failures["kind"] == "note"]
    assert len(noted) == 30 and noted["reason"].str.startswith("lat_min (line 42) printed as "
                                                                "zero").all()
    assert len(serial.series) and serial.frame["source"].nunique() == 148


def _fio_folder(root, n=60):
    src = fixture("fio", "small_json.json").read_bytes()
    root.mkdir()
    for i in range(n):
        (root / f"r{i:03d}.json").write_bytes(src + b"\n" * i)
    return root


def test_workers_leave_their_blocks_in_a_private_folder_removed_after(tmp_path, monkeypatch):
    """A worker writes its typed block to a file in the read's own temporary folder (mode
    0700) and sends back its path: through the pool's pipe a block waited for the parent's
    GIL piece by piece. The folder is gone after the read, and the frame is one process's."""
    data = _fio_folder(tmp_path / "data")
    drops = tmp_path / "drops"
    drops.mkdir()
    monkeypatch.setattr(folder, "_drop_parent", lambda: str(drops))
    made = []
    real = folder.tempfile.mkdtemp
    monkeypatch.setattr(folder.tempfile, "mkdtemp",
                        lambda **kw: made.append(real(**kw)) or made[-1])
    parallel = es.read(data, jobs=2, progress=False)
    pd.testing.assert_frame_equal(es.read(data, jobs=1, progress=False), parallel)
    assert len(made) == 1 and made[0].startswith(str(drops))
    assert list(drops.iterdir()) == []  # removed, with the blocks in it


def test_a_block_that_cannot_be_written_is_sent_back(tmp_path, monkeypatch):
    """A full /dev/shm (64 MiB in a default Docker container): the worker sends its outcomes
    through the pipe instead, and the read is the same."""
    data = _fio_folder(tmp_path / "data")

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(folder.pickle, "dump", full)  # (the forked workers inherit it)
    parallel = es.read(data, jobs=2, progress=False)
    pd.testing.assert_frame_equal(es.read(data, jobs=1, progress=False), parallel)
    assert folder._received(["kept"]) == ["kept"]


def test_a_sniff_that_raises_fails_its_file_not_the_read(tmp_path):
    """Found by fuzzing a folder: sysbench's sniff converted a 16,925-digit version with int()
    (ValueError) and the whole read stopped. Such a sniff now fails only that file."""
    (tmp_path / "good.txt").write_text("FAKE 1\nrr=5\n")
    (tmp_path / "huge.txt").write_text("sysbench " + "1" * 5000 + ".0 (using bundled LuaJIT)\n")
    (tmp_path / "bad.txt").write_text("BOOM\n")

    def boom(head, name):
        if head.startswith("BOOM"):
            raise ValueError("a reader's own bug")
        return None

    register(Reader(tool="sim", name="ebsstats.io._boom", detect=boom, parse=None), first=True)
    try:
        df, fails = es.read(tmp_path, with_failures=True)
    finally:
        unregister("ebsstats.io._boom")
    assert df["value"].tolist() == [5.0]
    kinds = fails.set_index("source")["kind"]
    assert kinds["bad.txt"] == "error" and kinds["huge.txt"] == "skipped"
    assert "ValueError: a reader's own bug" in fails.set_index("source")["reason"]["bad.txt"]


def test_progress_bar_counts_every_file_with_workers(tmp_path, monkeypatch):
    for i in range(120):
        (tmp_path / f"r{i:03d}.txt").write_text(f"FAKE 1\nrr={i}\n")
    (tmp_path / "notes.bin").write_bytes(b"\x00" * 8)  # skipped: counted too

    class Bar:
        def __init__(self):
            self.n, self.closed = 0, False

        def update(self, k):
            self.n += k

        def close(self):
            self.closed = True

    bars = []
    monkeypatch.setattr(folder, "_progress", lambda total, progress: bars.append(Bar()) or bars[-1])
    es.read(tmp_path, jobs=2)
    assert bars[0].n == 121 and bars[0].closed


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux")
def test_workers_are_forked_whatever_the_default_start_method(tmp_path, monkeypatch):
    """Python 3.14 makes forkserver the default: its workers would not know a reader
    registered here (the fake one) and would skip those files; forked ones do."""
    import multiprocessing

    monkeypatch.setattr(multiprocessing, "get_context",
                        lambda method=None, _real=multiprocessing.get_context:
                        _real(method or "spawn"))  # a default that is not fork
    assert folder._pool_context().get_start_method() == "fork"
    for i in range(30):
        (tmp_path / f"r{i:02d}.txt").write_text(f"FAKE 1\nrr={i}\n")
    assert len(es.read(tmp_path, jobs=2)) == 30


def test_parts_are_consecutive_runs_of_about_equal_work():
    # 100 small files, then 10 of 500 kB: each of those is about 11 small files' work
    sizes = [10] * 100 + [500_000] * 10 + [40 * 1024**2]  # the last one is read here
    parts = folder._parts(list(range(111)), sizes, 2)
    assert [i for p in parts for i in p] == list(range(110))
    work = [sum(folder._work(sizes[i]) for i in p) for p in parts]
    assert len(parts) == 2 and max(work) / min(work) < 1.3  # by bytes alone: 2 vs 108 files


def test_parquet_round_trip(tmp_path):
    root = _tree(tmp_path / "in")
    df = es.read(root, pattern="{volume_type}/{volume}/run-{repetition}.txt")
    df.attrs = {}
    out = es.to_parquet(df, tmp_path / "tidy.parquet")
    back = es.read_parquet(out)
    pd.testing.assert_frame_equal(df, back)
    es.validate(back)


def test_check_lists_actions(tmp_path):
    root = _tree(tmp_path)
    c = es.check(root).set_index("source")
    assert c.loc["gp2/vol-a/run-0.txt", "action"] == "read"
    assert c.loc["gp2/vol-a/run-0.txt", "rows"] == 2
    assert c.loc["gp2/vol-a/run-0.txt", "version"] == "1.0"
    assert c.loc["gp3/vol-b/broken.txt", "action"] == "refuse"
    assert c.loc["gp3/notes.log", "action"] == "skip"
    assert c.loc["gp3/meta.yaml", "action"] == "companion"


def test_bad_sidecar_is_a_parse_error_naming_it(tmp_path):
    root = _tree(tmp_path)
    (root / "gp2" / "meta.yaml").write_text("config: [unclosed\n")
    df, fails = es.read(root, with_failures=True)
    assert fails["reason"].str.contains("meta.yaml").any()


def test_read_metadata_keywords_are_deprecated_in_favour_of_meta(tmp_path):
    root = _tree(tmp_path / "in")
    with pytest.warns(DeprecationWarning, match=r"meta=\{'campaign': \.\.\.\}"):
        old = es.read(root, campaign=True)  # (serie=True, a typo of series=, is a TypeError)
    new = es.read(root, meta={"campaign": True})
    old.attrs, new.attrs = {}, {}
    pd.testing.assert_frame_equal(old, new)


def _bump_mtime(path, seconds=5):
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 1_000_000_000))


def test_edited_folder_sidecar_is_read_again_without_clearing_the_cache(tmp_path):
    # a notebook session: read, edit meta.yaml, read again -> the new metadata (no clear_cache)
    (tmp_path / "gp3").mkdir()
    (tmp_path / "gp3" / "run-0.txt").write_text("FAKE 1.0\nrr=100\n")
    sidecar = tmp_path / "gp3" / "meta.yaml"
    sidecar.write_text("volume_type: gp3\nsize_gib: 100\n")
    assert es.read(tmp_path)["volume_type"].tolist() == ["gp3"]
    sidecar.write_text("volume_type: io2\nsize_gib: 100\n")  # same size: the mtime tells
    _bump_mtime(sidecar)
    df = es.read(tmp_path)
    assert df["volume_type"].tolist() == ["io2"] and df["size_gib"].tolist() == [100.0]
    sidecar.write_text("volume_type: io2\nsize_gib: 100\nprovisioned_iops: 16000\n")
    _bump_mtime(sidecar, 10)
    assert es.read(tmp_path)["provisioned_iops"].tolist() == [16000]


def test_unchanged_sidecar_is_parsed_once_and_a_fixed_one_again(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "run-0.txt").write_text("FAKE 1.0\nrr=100\n")
    sidecar = tmp_path / "a" / "meta.yaml"
    sidecar.write_text("config: [unclosed\n")
    _, fails = es.read(tmp_path, with_failures=True)
    assert fails["reason"].str.contains("meta.yaml").all()
    sidecar.write_text("config: fixed\n")  # the cached ParseError does not outlive the edit
    _bump_mtime(sidecar)
    assert es.read(tmp_path)["config"].tolist() == ["fixed"]
    before = metamod._sidecar_cached.cache_info()
    es.read(tmp_path)
    after = metamod._sidecar_cached.cache_info()
    assert (after.hits - before.hits, after.misses - before.misses) == (1, 0)


# --- read(**meta): typos of parameters are errors, metadata keywords still work (deprecated) ---

def _one_file(tmp_path):
    f = tmp_path / "run-0.txt"
    f.write_text("FAKE 1.0\nrr=100\n")
    return f


@pytest.mark.parametrize("typo, meant", [("serie", "series"), ("Series", "series"),
                                         ("patern", "pattern"), ("error", "errors"),
                                         ("max_byte", "max_bytes"), ("job", "jobs")])
def test_a_typo_of_a_read_parameter_is_a_type_error_not_a_column(tmp_path, typo, meant):
    f = _one_file(tmp_path)
    with pytest.raises(TypeError, match=rf"unexpected keyword argument '{typo}'; did you mean "
                                        rf"{meant}=\? \(metadata goes in meta="):
        es.read(f, **{typo: True})
    with pytest.raises(TypeError, match=rf"did you mean {meant}="):
        es.read(tmp_path, **{typo: "x"})


def test_read_series_refuses_the_typo_too(tmp_path):
    with pytest.raises(TypeError, match="did you mean series="):
        es.read_series(_one_file(tmp_path), serie=True)


def test_a_mapping_keyword_is_not_metadata(tmp_path):
    with pytest.raises(TypeError, match="'metadata' holding a mapping; metadata goes in meta="):
        es.read(_one_file(tmp_path), metadata={"config": "gp3"})


def test_metadata_keywords_still_work_with_a_deprecation_warning(tmp_path):
    f = _one_file(tmp_path)
    # schema columns close to a parameter name and free keys alike stay metadata
    with pytest.warns(DeprecationWarning, match=r"pass meta=\{'config': \.\.\., 'raid_set'"):
        df = es.read(f, config="gp3", raid_set="md0", series_id="s-7")
    assert (df["config"].tolist(), df["raid_set"].tolist(), df["series_id"].tolist()) == (
        ["gp3"], ["md0"], ["s-7"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # the new way warns about nothing
        assert es.read(f, meta={"serie": "x"})["serie"].tolist() == ["x"]


def test_a_read_leaves_the_garbage_collector_as_it_found_it(tmp_path):
    """The collector is paused during a read (bulk object building), never left off, and
    stays off if the caller had turned it off."""
    import gc

    (tmp_path / "a.json").write_text(fixture("fio", "small_json.json").read_text())
    assert gc.isenabled()
    seen = []
    real = folder._read_path

    def spy(*args):
        seen.append(gc.isenabled())
        return real(*args)

    folder._read_path = spy
    try:
        es.read(tmp_path, jobs=1)
        assert seen == [False] and gc.isenabled()
        gc.disable()
        es.read(tmp_path, jobs=1)
        assert not gc.isenabled()
    finally:
        folder._read_path = real
        gc.enable()


def test_a_read_without_failures_builds_no_failures_frame_unless_asked(tmp_path, monkeypatch):
    # the frame of no failures is only built when full=True or with_failures=True ask for it;
    # without failures the frame's attrs say so all the same
    (tmp_path / "a.csv").write_bytes(fixture("bonnie", "bon_q_s512_n0.csv").read_bytes())
    built = []
    real = folder._failures_of
    monkeypatch.setattr(folder, "_failures_of", lambda rows: built.append(rows) or real(rows))
    df = es.read(tmp_path)
    assert df.attrs["failures"] == [] and built == []
    full = es.read(tmp_path, full=True)
    assert built == [[]] and full.frame.attrs["failures"] == []
    pd.testing.assert_frame_equal(full.failures, folder.failures_frame([]))
    assert list(full.failures.columns) == folder.FAILURE_COLUMNS
    (tmp_path / "notes.log").write_text("not a benchmark\n")
    df = es.read(tmp_path)  # a failure: the frame is built, as before
    assert [f["kind"] for f in df.attrs["failures"]] == ["skipped"]


def test_a_compressed_output_is_read_as_what_it_holds(tmp_path):
    """wikimedia/cloud-storage-performance-tests keeps every fio report and log gzipped: all
    3,132 were "binary file, not a benchmark output", then named as compressed; gzip, bzip2
    and xz files are now read (tests/test_compressed.py has the rest)."""
    import bz2
    import gzip
    import lzma

    src = fixture("fio", "small_json.json").read_bytes()
    (tmp_path / "run_stats.log.gz").write_bytes(gzip.compress(src))
    (tmp_path / "r.json.bz2").write_bytes(bz2.compress(src))
    (tmp_path / "r.json.xz").write_bytes(lzma.compress(src))
    (tmp_path / "r.json").write_bytes(src)
    df, _, fails = es.read(tmp_path, full=True, dedupe=False)
    assert set(df["source"]) == {"r.json", "run_stats.log.gz", "r.json.bz2", "r.json.xz"}
    one = df.groupby("source", observed=True)["value"].apply(list)
    assert one["run_stats.log.gz"] == one["r.json"] == one["r.json.bz2"] == one["r.json.xz"]
    assert fails.empty


def test_a_pattern_of_any_folders_then_any_file(tmp_path):
    """The read's own docstring example, pattern="{config}/**/*", was refused ("'**/*' has no
    text between two placeholders"): "**/" ends with its own "/", so a placeholder or "*"
    may follow it."""
    src = fixture("fio", "small_json.json").read_bytes()
    for cfg, sub in (("gp2", "runs/2024"), ("gp3", "")):
        d = tmp_path / cfg / sub
        d.mkdir(parents=True, exist_ok=True)
        (d / f"{cfg}.json").write_bytes(src + cfg.encode())
    df = es.read(tmp_path, pattern="{config}/**/*", progress=False)
    assert df.groupby("source")["config"].first().to_dict() == {
        "gp2/runs/2024/gp2.json": "gp2", "gp3/gp3.json": "gp3"}
    with pytest.raises(ValueError, match="no text between two placeholders"):
        es.read(tmp_path, pattern="{config}{volume}/*")
