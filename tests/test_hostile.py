"""Hostile and broken input, round two: each attack sits beside good genuine files.

For every attack: the read finishes within a time limit (SIGALRM in-process, or a subprocess with
a timeout and an address-space limit), the good files are always ingested with their measured
values unchanged, the attack is listed by name, nothing from outside the folder reaches the
output, and no traceback is printed.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats import atomic
from ebsstats.app import cli
from ebsstats.io import _common, folder
from ebsstats.io import meta as metamod
from tests.conftest import ROOT, fixture

pytestmark = pytest.mark.filterwarnings("ignore:ebsstats.read:UserWarning")

GOOD = [("fio", "small_json.json"), ("bonnie", "bon_q_s512_n0.csv"),
        ("sysbench", "sb_fileio_rndrd_t4_run.txt"), ("pts", "pts-10.8.4_composite_1system.xml")]


def _good(root: Path) -> Path:
    """Good genuine outputs in ``root/good`` (one per tool)."""
    d = root / "good"
    d.mkdir(parents=True, exist_ok=True)
    for tool, name in GOOD:
        shutil.copy(fixture(tool, name), d / name)
    return root


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> pd.DataFrame:
    """The good files read alone: the values every attacked read must reproduce."""
    return es.read(_good(tmp_path_factory.mktemp("base")))


@pytest.fixture(autouse=True)
def bounded():
    """Every test here fails (rather than hangs) after 60 s."""
    def boom(*_):
        raise TimeoutError("the read did not finish in 60 s")
    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(60)
    metamod.clear_cache()
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)
    metamod.clear_cache()


def _values(df: pd.DataFrame) -> pd.DataFrame:
    cols = ["source", "position", "metric", "op", "value", "unit"]
    out = df[cols].astype({"source": str, "position": str, "metric": str, "op": str,
                           "unit": str}).copy()
    out["source"] = out["source"].str.rsplit("/", n=1).str[-1]
    return out.sort_values(cols[:4]).reset_index(drop=True)


def _assert_good_read(df: pd.DataFrame, baseline: pd.DataFrame) -> None:
    good = df[df["source"].astype(str).str.startswith("good/")]
    pd.testing.assert_frame_equal(_values(good), _values(baseline))


def _failed(fails: pd.DataFrame) -> dict[str, str]:
    bad = fails[fails["kind"] == "error"]
    return dict(zip(bad["source"], bad["reason"], strict=True))


def _run_cli(args: list[str], cwd: Path, env: dict | None = None, mem_mb: int = 3000,
             timeout: float = 60) -> subprocess.CompletedProcess:
    """``ebsstats <args>`` in a fresh process with an address-space limit and a timeout."""
    code = ("import resource, sys\n"
            f"resource.setrlimit(resource.RLIMIT_AS, ({mem_mb} * 1024**2, {mem_mb} * 1024**2))\n"
            "from ebsstats.app.cli import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    e = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env=e)


# ------------------------------------------------------------------------------------------
# 1. YAML merge-key bomb


def _merge_bomb(levels: int = 9, width: int = 9) -> str:
    lines = ["a0: &a0 {x: 1}"]
    for i in range(1, levels + 1):
        refs = ", ".join([f"*a{i - 1}"] * width)
        lines.append(f"a{i}: &a{i}\n  <<: [{refs}]")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def attacked_ingest(tmp_path_factory):
    """One ``ebsstats ingest`` subprocess (1.5 GB address space, 60 s) over a tree holding the
    good files and the attacks of items 1, 6 and 7: a merge-key bomb, sidecars linked out of the
    tree, a bonnie++ CSV that would need far more memory than the budget, a 1 MB sidecar value."""
    tmp = tmp_path_factory.mktemp("attacked")
    root = _good(tmp / "tree")
    bomb = root / "bombed"
    bomb.mkdir()
    (bomb / "meta.yaml").write_text(_merge_bomb())
    shutil.copy(fixture("fio", "cli_read_1M.json"), bomb / "run.json")
    outside = tmp / "outside"
    outside.mkdir()
    (outside / "secrets.yaml").write_text("db_password: hunter2-SECRET\n")
    for sub, target in [("proc", "/proc/self/status"), ("sec", outside / "secrets.yaml")]:
        d = root / sub
        d.mkdir()
        os.symlink(target, d / "meta.yaml")
        shutil.copy(fixture("fio", "cli_randwrite_4k.json" if sub == "sec" else "cli_rw_4k.json"),
                    d / "run.json")
    os.symlink(outside / "secrets.yaml", root / "good" / "small_json.json.meta.yaml")
    rows = fixture("bonnie", "bon_q_x3_s512_n0.csv").read_text().splitlines(keepends=True)
    (root / "big_bonnie.csv").write_text("".join(rows * 12_000))  # ~6 MB, 1.3M rows
    (root / "wide").mkdir()
    (root / "wide" / "meta.yaml").write_text("note: " + "A" * 1_000_000 + "\n")
    shutil.copy(fixture("fio", "cli_write_1M.json"), root / "wide" / "run.json")
    out = tmp / "out.parquet"
    t0 = time.perf_counter()
    res = _run_cli(["ingest", str(root), "-o", str(out)], tmp, mem_mb=1500,
                   env={"EBSSTATS_MEMORY_BUDGET": str(400 * 1024**2)})
    return res, out, time.perf_counter() - t0


def test_1_merge_key_bomb_is_refused_fast_and_the_rest_ingested(attacked_ingest, baseline,
                                                                tmp_path):
    res, out, took = attacked_ingest
    assert took < 50, took  # was: > 60 s and 817 MB, then MemoryError
    assert res.returncode == 0, res.stderr[-2000:]
    assert "Traceback" not in res.stderr + res.stdout
    assert "bombed/run.json, sidecar bombed/meta.yaml" in res.stdout
    assert "merge keys" in res.stdout
    df = es.read_parquet(out)
    assert not df["source"].astype(str).str.startswith("bombed/").any()
    # the sidecar alone: refused in well under a second
    (tmp_path / "meta.yaml").write_text(_merge_bomb())
    assert len((tmp_path / "meta.yaml").read_bytes()) < 600
    t0 = time.perf_counter()
    with pytest.raises(es.ParseError, match="merge keys"):
        metamod._load_yaml(tmp_path / "meta.yaml")
    assert time.perf_counter() - t0 < 2.0


# ------------------------------------------------------------------------------------------
# 2. sidecar values PyYAML cannot construct


@pytest.mark.parametrize("text", [
    "timestamp: 2026-13-45\n", "config: 2026-02-30\n", "volume: !!int abc\n",
    "note: " + "7" * 5000 + "\n", "raid_members: .inf\n", "threads: !!float nan\n",
    "config: [1, 2]\n", "x: !!binary aGVsbG8=\n", "a: " + "[" * 3000 + "]" * 3000 + "\n",
], ids=["bad-month", "feb-30", "int-abc", "5000-digits", "members-inf", "threads-nan",
        "list", "binary", "deep-nesting"])
def test_2_unconstructible_sidecars_fail_only_their_files(tmp_path, baseline, text):
    root = _good(tmp_path)
    bad = root / "bad"
    bad.mkdir()
    (bad / "meta.yaml").write_text(text)
    shutil.copy(fixture("fio", "small_json.json"), bad / "run.json")
    df, fails = es.read(root, with_failures=True)
    _assert_good_read(df, baseline)
    failed = _failed(fails)
    assert list(failed) == ["bad/run.json"]
    assert "bad/meta.yaml, line 1" in failed["bad/run.json"]


# ------------------------------------------------------------------------------------------
# 3. deep JSON and > 4,300-digit integers in every JSON reader


def _pts_entry_json(payload: str) -> str:
    xml = fixture("pts", "pts-10.8.4_composite_1system.xml").read_text()
    return xml.replace('<JSON>{"test-run-times":"3.46:3.48:3.46"}</JSON>',
                       f"<JSON>{payload}</JSON>", 1)


def _pts_export() -> str:
    return fixture("pts", "ebs-fio-sample.result-file-to-json.json").read_text()


DEEP = "[" * 100_000 + "]" * 100_000
HUGE = "9" * 5000


@pytest.mark.parametrize("reader,make", [
    ("ioping", lambda: fixture("ioping", "ioping_json.txt").read_text().replace(
        '"ignored": true', f'"ignored": {DEEP}', 1)),
    ("ioping", lambda: fixture("ioping", "ioping_json.txt").read_text().replace(
        '"request": 1', f'"request": {HUGE}', 1)),
    ("pts", lambda: _pts_export().rstrip()[:-1] + f', "deep": {DEEP}}}'),
    ("pts", lambda: _pts_export().rstrip()[:-1] + f', "huge": {HUGE}}}'),
    ("pts", lambda: _pts_entry_json(DEEP)),
    ("pts", lambda: _pts_entry_json('{"test-run-times": ' + HUGE + "}")),
    ("fio", lambda: fixture("fio", "small_json.json").read_text().replace(
        '"runtime" : 3001', f'"runtime" : {HUGE}', 1)),
], ids=["ioping-deep", "ioping-huge", "pts-json-deep", "pts-json-huge", "pts-entry-deep",
        "pts-entry-huge", "fio-huge"])
def test_3_deep_json_and_huge_integers_are_parse_errors(tmp_path, baseline, reader, make):
    root = _good(tmp_path)
    text = make()
    name = {"ioping": "attack_ioping.json", "pts": "attack_pts.json",
            "fio": "attack_fio.json"}[reader]
    if text.lstrip().startswith("<?xml"):
        name = "attack_pts.xml"
    (root / name).write_text(text)
    sniffed = es.read  # the folder read must not raise, whatever the reader does
    df, fails = sniffed(root, with_failures=True)
    _assert_good_read(df, baseline)
    assert name in _failed(fails)
    # the reader itself gives a ParseError too (not RecursionError/ValueError)
    from ebsstats.io.sniff import sniff_text

    s = sniff_text(text[:65536], name)
    assert s is not None and s.tool in ("ioping", "pts", "fio")
    import importlib

    with pytest.raises(es.ParseError):
        importlib.import_module(s.module).parse(text, name)


# ------------------------------------------------------------------------------------------
# 4. a legal 246-255-byte name


@pytest.mark.parametrize("length", [246, 250, 255])
def test_4_long_file_names_are_read_and_checked(tmp_path, baseline, length):
    root = _good(tmp_path)
    name = ("x" * (length - 5)) + ".json"
    assert len(name.encode()) == length
    shutil.copy(fixture("fio", "cli_randread_4k.json"), root / name)
    df, fails = es.read(root, with_failures=True)
    _assert_good_read(df, baseline)
    alone = es.read_fio(fixture("fio", "cli_randread_4k.json"))
    assert (df["source"] == name).sum() == len(alone) > 0
    c = es.check(root)
    assert c.loc[c["source"] == name, "action"].tolist() == ["read"]


# ------------------------------------------------------------------------------------------
# 5. sidecars may not overwrite measurements or identities


@pytest.mark.parametrize("text", [
    "value: 12345\n", "value: .inf\n", "value: -5\n", "value: .nan\n", "run_id: same\n",
    "unit: B/s\n", "tool: fio\n", "op: write\n", "source: elsewhere.json\n", "metric: iops\n",
    "flag: ok\n", "position: line 1\n", "threads: -4\n", "size_gib: -100\n",
    "raid_members: 0\n", "provisioned_iops: -3000\n",
])
def test_5_sidecars_cannot_change_measured_or_identity_columns(tmp_path, baseline, text):
    root = _good(tmp_path)
    (root / "good" / "small_json.json.meta.yaml").write_text(text)
    df, fails = es.read(root, with_failures=True)
    failed = _failed(fails)
    assert list(failed) == ["good/small_json.json"]
    key = text.split(":")[0]
    assert f"'{key}'" in failed["good/small_json.json"]
    others = baseline[baseline["source"] != "good/small_json.json"]
    pd.testing.assert_frame_equal(_values(df), _values(others))
    es.validate(df)


def test_5_ingest_never_writes_a_frame_validate_rejects(tmp_path, baseline):
    root = _good(tmp_path / "tree")
    (root / "good" / "meta.yaml").write_text("value: .inf\n")
    (root / "ok").mkdir()
    shutil.copy(fixture("fio", "small_json.json"), root / "ok" / "run.json")
    out = tmp_path / "o.parquet"
    assert cli.main(["ingest", str(root), "-o", str(out), "--quiet"]) == 0
    df = es.read_parquet(out)
    es.validate(df)
    assert np.isfinite(df["value"].dropna()).all() and len(df)


# ------------------------------------------------------------------------------------------
# 6. sidecars through links out of the tree


def test_6_sidecar_links_leaving_the_tree_are_refused_and_never_read(attacked_ingest,
                                                                     baseline):
    res, out, _ = attacked_ingest
    assert res.returncode == 0 and "Traceback" not in res.stderr
    blob = out.read_bytes() + res.stdout.encode() + res.stderr.encode()
    for secret in (b"hunter2", b"db_password", b"VmRSS", b"Uid", b"TracerPid"):
        assert secret not in blob
    df = es.read_parquet(out)
    assert "leaves the folder" in res.stdout
    listed = {line.strip().split(",")[0] for line in res.stdout.splitlines()}
    assert {"proc/run.json", "sec/run.json", "good/small_json.json"} <= listed
    good = baseline[baseline["source"] != "good/small_json.json"]
    pd.testing.assert_frame_equal(_values(df[df["source"].str.startswith("good/")]),
                                  _values(good))


# ------------------------------------------------------------------------------------------
# 7. memory amplification: refused before the parse, within a memory limit


def test_7_memory_amplification_refused_before_parsing(attacked_ingest):
    res, out, _ = attacked_ingest
    assert res.returncode == 0, res.stderr[-2000:]
    assert "Traceback" not in res.stderr
    assert "big_bonnie.csv" in res.stdout and "memory budget" in res.stdout
    assert "wide/meta.yaml" in res.stdout and "4,096 characters" in res.stdout
    df = es.read_parquet(out)
    assert set(df["source"].astype(str)) >= {"good/bon_q_s512_n0.csv", "good/sb_fileio_rndrd_t4_run.txt"}


def test_7_budget_is_per_reader_factor_times_size(tmp_path, monkeypatch):
    monkeypatch.setenv(folder.MEMORY_BUDGET_ENV, str(1024**2))
    data = fixture("fio", "small_json.json").read_bytes()
    from ebsstats.io import fio

    if len(data) * fio.MEMORY_FACTOR > 1024**2:
        with pytest.raises(es.ParseError, match="memory budget"):
            folder._guarded_parse(fio.READER, data, "x.json", {})
    monkeypatch.setenv(folder.MEMORY_BUDGET_ENV, str(10 * 1024**3))
    parsed = folder._guarded_parse(fio.READER, data, "x.json", {})
    assert parsed.records or parsed.columns  # (columns: the folder path of the fio reader)


# ------------------------------------------------------------------------------------------
# 8. mathtext in metadata


def test_8_mathtext_in_metadata_does_not_break_plots(tmp_path):
    from ebsstats.plots.overview import overview_plot

    root = tmp_path / "t"
    (root / "a").mkdir(parents=True)
    shutil.copy(fixture("fio", "small_json.json"), root / "a" / "run.json")
    (root / "a" / "meta.yaml").write_text('config: "gp3 $\\\\undefinedcmd{x}$"\n')
    df = es.read(root)
    assert df["config"].iloc[0] == "gp3 $\\undefinedcmd{x}$"  # the value, unchanged
    fig = overview_plot(df)
    fig.canvas.draw()
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["gp3 \\$\\undefinedcmd{x}\\$"]


# ------------------------------------------------------------------------------------------
# 9. smaller items


def test_9_outputs_follow_the_umask(tmp_path, baseline):
    old = os.umask(0o022)
    try:
        es.to_parquet(baseline, tmp_path / "f.parquet")
        es.to_parquet(baseline, tmp_path / "d.parquet", partition_cols=["tool"])
    finally:
        os.umask(old)
    assert (tmp_path / "f.parquet").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "d.parquet").stat().st_mode & 0o777 == 0o755


def test_9_sigterm_cleans_up_and_stale_temporaries_go(tmp_path):
    code = ("import os, signal, sys, time\n"
            "from ebsstats.atomic import atomic_file, atomic_dir\n"
            f"target = {str(tmp_path / 'out.parquet')!r}\n"
            "with atomic_dir(target + '.d') as d:\n"
            "    with atomic_file(target) as tmp:\n"
            "        tmp.write_text('half'); print('ready', flush=True); time.sleep(30)\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.stdout.readline().strip() == "ready"
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=20)
    assert sorted(x.name for x in tmp_path.iterdir()) == []
    # litter a killed run left (SIGKILL cannot be handled): cleaned by the next write
    stale = [tmp_path / ".out.parquet.abc123.tmp", tmp_path / ".out.parquet.old"]
    stale[0].write_text("x")
    stale[1].mkdir()
    (tmp_path / ".out.parquet.building.zz").mkdir()
    fresh = tmp_path / ".out.parquet.live99.tmp"
    fresh.write_text("a concurrent writer's")
    for s in [*stale, tmp_path / ".out.parquet.building.zz"]:
        os.utime(s, (0, 0))
    with atomic.atomic_file(tmp_path / "out.parquet") as tmp:
        tmp.write_text("ok")
    assert sorted(x.name for x in tmp_path.iterdir()) == [".out.parquet.live99.tmp",
                                                          "out.parquet"]


def test_9_concurrent_directory_swaps_never_fail(tmp_path):
    target = tmp_path / "rep"
    errors: list[BaseException] = []

    def writer(k: int) -> None:
        for i in range(25):
            try:
                with atomic.atomic_dir(target) as d:
                    (d / "who").write_text(f"{k}-{i}")
            except BaseException as exc:
                errors.append(exc)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert (target / "who").read_text().count("-") == 1
    assert sorted(x.name for x in tmp_path.iterdir()) == ["rep"]


@pytest.mark.parametrize("case", ["output-is-folder", "read-only", "duplicate-group",
                                  "adjacent-groups", "disk-full"])
def test_9_operational_errors_one_line_before_the_parse(tmp_path, monkeypatch, capsys, case):
    root = _good(tmp_path / "tree")
    out = tmp_path / "o.parquet"
    args = ["ingest", str(root), "-o", str(out)]
    if case == "output-is-folder":
        out.mkdir()
    elif case == "read-only":
        ro = tmp_path / "ro"
        ro.mkdir()
        args[-1] = str(ro / "o.parquet")
        monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != ro)
    elif case == "duplicate-group":
        args += ["--pattern", "{config}/{config}.json"]
    elif case == "adjacent-groups":
        args += ["--pattern", "{config}{volume}.json"]
    else:
        real = os.statvfs

        def full(p):
            st = real(p)
            return os.statvfs_result((st.f_bsize, st.f_frsize, st.f_blocks, 0, 0, st.f_files,
                                      st.f_ffree, st.f_favail, st.f_flag, st.f_namemax))
        monkeypatch.setattr(os, "statvfs", full)

    def never(*a, **k):
        raise AssertionError("parsed before the operational check")
    monkeypatch.setattr(folder, "_ingest", never)
    assert cli.main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err
    assert {"output-is-folder": "is a folder", "read-only": "not writable",
            "duplicate-group": "appears twice", "adjacent-groups": "no text between",
            "disk-full": "disk is full"}[case] in err


def test_9_corrupted_bonnie_csv_line_is_refused_under_strict(tmp_path, capsys):
    root = _good(tmp_path / "tree")
    rows = fixture("bonnie", "bon_q_x3_s512_n0.csv").read_text().splitlines(keepends=True)
    rows.insert(2, "\x7f@#,%%,&&&,***\n")
    (root / "corrupt.csv").write_text("".join(rows))
    rc = cli.main(["ingest", str(root), "-o", str(tmp_path / "o.parquet"), "--strict"])
    out = capsys.readouterr().out
    assert rc == 1 and "corrupt.csv, line 3" in out


def test_9_control_bytes_in_names_are_escaped(tmp_path, capsys):
    root = _good(tmp_path / "tree")
    evil = "run\x1b]0;owned\x07\x1b[2J.json"
    (root / evil).write_text("{ not json")
    cli.main(["ingest", str(root), "-o", str(tmp_path / "o.parquet")])
    cli.main(["check", str(root)])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "run\\x1b]0;owned\\x07\\x1b[2J.json" in out


def test_9_adjacent_placeholders_do_not_backtrack():
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match="no text between"):
        es.read(fixture("fio", "small_json.json").parent, pattern="{a}{b}{c}x.json")
    assert time.perf_counter() - t0 < 1.0
    t0 = time.perf_counter()
    for _ in range(200):
        metamod.pattern_meta("d/" + "a" * 250, "{config}-{volume}/{a}-{b}x.json")
    assert time.perf_counter() - t0 < 1.0


def test_9_a_file_growing_past_the_limit_is_refused(tmp_path, monkeypatch):
    p = tmp_path / "grow.json"
    p.write_bytes(fixture("fio", "small_json.json").read_bytes())
    small = os.stat(fixture("fio", "small_json.json")).st_size
    inode = os.stat(p).st_ino
    real_stat, real_fstat = os.stat, os.fstat

    def before_growth(st):  # the stats saw the file before it grew
        if st.st_ino == inode:
            return os.stat_result((st.st_mode, *tuple(st)[1:6], 100, *tuple(st)[7:10]))
        return st
    monkeypatch.setattr(_common.os, "stat", lambda path, *a, **k: before_growth(
        real_stat(path, *a, **k)))
    monkeypatch.setattr(_common.os, "fstat", lambda fd: before_growth(real_fstat(fd)))
    with pytest.raises(es.ParseError, match="grew past the limit"):
        _common.load_bytes(p, max_bytes=small - 1)


def test_9_fio_without_jobs_says_why(tmp_path):
    (tmp_path / "r.json").write_text('{"fio version": "fio-3.33", "jobs": []}')
    df, fails = es.read(tmp_path, with_failures=True)
    assert len(df) == 0
    assert "at least one job" in _failed(fails)["r.json"]


def test_9_slow_volumes_and_cost_refuse_impossible_values():
    from ebsstats.stats.costs import cost
    from ebsstats.stats.members import slow_volumes

    rows = pd.DataFrame({"volume": [f"v{i}" for i in range(5)], "raid_set": "a",
                         "timestamp": pd.Timestamp("2026-01-01", tz="UTC"),
                         "metric": "iops", "unit": "IO/s",
                         "value": [100.0, 101.0, -99.0, 102.0, 98.0]})
    with pytest.raises(ValueError, match="negative or infinite"):
        slow_volumes(rows)
    with pytest.raises(ValueError, match="negative or infinite"):
        slow_volumes(rows.assign(value=[100.0, np.inf, 99.0, 102.0, 98.0]))
    c = rows.assign(config="gp3", volume_type="gp3", size_gib=100.0, provisioned_iops=3000)
    with pytest.raises(ValueError, match="cost: 1 negative or infinite"):
        cost(c)
    with pytest.raises(ValueError, match="'size_gib'"):
        cost(c.assign(value=100.0, size_gib=-100.0))
