"""The scale-out path: Dask frames with the tidy schema on a dask.distributed LocalCluster,
group statistics equal to pandas/ebsstats.summarize, partitioned Parquet, DuckDB over it."""

from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats import schema
from ebsstats.io import dataset as scale
from ebsstats.stats.dask import SUMMARY_COLUMNS
from tests.conftest import tree_digest

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
FIXTURES = __import__("pathlib").Path(__file__).parent / "fixtures"
distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A small mixed tree: bonnie++ CSV, sysbench text, fio JSON, in two 'configs'."""
    root = tmp_path_factory.mktemp("tree")
    picks = {"gp2": ["bonnie", "sysbench"], "gp3": ["fio"]}
    for config, tools in picks.items():
        for tool in tools:
            dst = root / config / tool
            dst.mkdir(parents=True)
            src = sorted(p for p in (FIXTURES / tool).iterdir()
                         if p.is_file() and p.suffix in (".csv", ".txt", ".json"))
            for p in src[:6]:
                shutil.copyfile(p, dst / p.name)
        (root / config / "meta.yaml").write_text(f"config: {config}\nvolume_type: {config}\n")
    return root


def _plain(df: pd.DataFrame, cols) -> pd.DataFrame:
    """Comparable form: categoricals as strings, rows in a canonical order."""
    out = df[list(cols)].copy()
    for c in out.columns:
        if isinstance(out[c].dtype, pd.CategoricalDtype):
            out[c] = out[c].astype(object).where(out[c].notna(), None).astype(schema.STRING)
    return out.sort_values(["source", "position", "metric", "op", "repetition"],
                           na_position="last").reset_index(drop=True)


def test_file_partitions_keep_folders_together(tree):
    parts = scale.file_partitions(tree, files_per_partition=4)
    assert len(parts) > 1
    seen = {}
    for k, files in enumerate(parts):
        for f in files:
            assert seen.setdefault(f.parent, k) == k  # a folder never spans two partitions
    assert sum(len(p) for p in parts) == len(list(p for p in tree.rglob("*") if p.is_file()))


def test_read_dask_equals_read(client, tree):
    before = tree_digest(tree)
    ddf = scale.read_dask(tree, files_per_partition=4, extra=["job"])
    assert ddf.npartitions > 1
    assert list(ddf.columns) == [*schema.COLUMNS, *schema.META_COLUMNS, "job"]
    got = ddf.compute()
    assert tree_digest(tree) == before  # inputs never modified
    ref = es.read(tree, dedupe=False)
    es.validate(got)
    assert len(got) == len(ref) > 100
    cols = [*schema.COLUMNS, *schema.META_COLUMNS, "job"]
    pd.testing.assert_frame_equal(_plain(got, cols), _plain(ref, cols))
    # the metadata precedence works inside partitions too
    assert set(got["config"]) == {"gp2", "gp3"}
    assert (got.loc[got["tool"] == "fio", "config"] == "gp3").all()


def _reference(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """n, mean, median, sd, cv, min, max per group, straight from numpy."""
    rows = []
    for key, sub in df.groupby(keys, dropna=False, observed=True, sort=True):
        x = sub["value"].to_numpy(dtype=float)
        bad = ~np.isfinite(x)
        x = x[~bad]
        n = len(x)
        sd = float(np.std(x, ddof=1)) if n > 1 else np.nan
        mean = float(np.mean(x)) if n else np.nan
        rows.append({**dict(zip(keys, key, strict=True)), "n": n, "n_excluded": int(bad.sum()),
                     "mean": mean, "median": float(np.median(x)) if n else np.nan, "sd": sd,
                     "cv": sd / mean if n > 1 and mean != 0 else np.nan,
                     "min": float(np.min(x)) if n else np.nan,
                     "max": float(np.max(x)) if n else np.nan})
    return pd.DataFrame(rows)


def test_summarize_dask_equals_pandas(client, tree):
    ddf = scale.read_dask(tree, files_per_partition=4)
    got = es.summarize_dask(ddf, by=["config", "tool"]).compute().reset_index(drop=True)
    df = ddf.compute()
    keys = ["config", "tool", "test", "op", "metric"]
    ref = _reference(df.astype({k: object for k in ("tool", "op", "metric")}), keys)
    assert list(got.columns) == keys + SUMMARY_COLUMNS
    assert len(got) == len(ref) > 20
    assert got["n_excluded"].sum() > 0  # bonnie++ "+++++" values are NaN and excluded
    for c in SUMMARY_COLUMNS:
        # (sd and cv come from sums of squares across partitions, pandas' from two passes: the
        # one-pass formula loses digits where the spread is small beside the mean, 1.4e-12
        # relative on a group of sysbench latencies of ~1e-4 s)
        rtol = 1e-9 if c in ("sd", "cv") else 1e-12
        np.testing.assert_allclose(got[c].to_numpy(float), ref[c].to_numpy(float), rtol=rtol,
                                   equal_nan=True, err_msg=c)
    for k in keys:
        assert got[k].astype(object).tolist() == ref[k].astype(str).tolist()


def test_summarize_dask_equals_ebsstats_summarize(client, tree):
    variance = pytest.importorskip("ebsstats.stats.summary")  # on main once the stats work is merged
    ddf = scale.read_dask(tree, files_per_partition=4)
    got = es.summarize_dask(ddf, by=["config"]).compute().reset_index(drop=True)
    ref = variance.summarize(ddf.compute(), by=["config"], n_boot=0)
    keys = ["config", "test", "op", "metric"]
    ref = ref.sort_values(keys).reset_index(drop=True)
    got = got.sort_values(keys).reset_index(drop=True)
    assert len(got) == len(ref)
    for c in SUMMARY_COLUMNS:
        np.testing.assert_allclose(got[c].to_numpy(float), ref[c].to_numpy(float), rtol=1e-9,
                                   equal_nan=True, err_msg=c)


def test_parquet_dataset_round_trip_and_duckdb(client, tree, tmp_path):
    df = es.read(tree, dedupe=False)
    out = scale.to_parquet_dataset(df, tmp_path / "tidy")
    dirs = {p.relative_to(out).parent.as_posix() for p in out.rglob("*.parquet")}
    assert any(d.startswith("tool=fio/config=gp3/date=") for d in dirs)
    assert all(d.count("/") == 2 for d in dirs)  # tool / config / date
    back = scale.read_dataset(out)
    es.validate(back)
    cols = [*schema.COLUMNS, *schema.META_COLUMNS]
    pd.testing.assert_frame_equal(_plain(back, cols), _plain(df, cols))
    # one partition only, by filter
    gp3 = scale.read_dataset(out, filters=[("config", "==", "gp3")])
    assert set(gp3["tool"]) == {"fio"} and len(gp3) == int((df["config"] == "gp3").sum())
    # the same dataset as a Dask frame, and SQL over it with DuckDB
    ddf = scale.read_dask(out)
    assert len(ddf.compute()) == len(df)
    duckdb = pytest.importorskip("duckdb")
    sql = duckdb.sql(f"SELECT tool, count(*) AS n FROM read_parquet('{out}/**/*.parquet', "
                     "hive_partitioning = true) GROUP BY tool ORDER BY tool").fetchall()
    want = df["tool"].astype(str).value_counts().sort_index()
    assert sql == list(zip(want.index, want.tolist(), strict=True))


def test_parquet_dataset_from_dask_is_atomic(client, tree, tmp_path):
    target = tmp_path / "ds"
    scale.to_parquet_dataset(scale.read_dask(tree, files_per_partition=4), target)
    first = sorted(p.relative_to(target).as_posix() for p in target.rglob("*.parquet"))
    assert first and not list(tmp_path.glob(".ds.*"))  # no temporary folder left behind
    scale.to_parquet_dataset(scale.read_dask(tree, files_per_partition=4), target)  # replace
    assert len(scale.read_dataset(target)) == len(es.read(tree, dedupe=False))


def test_read_dask_series(client, tree):
    ddf = scale.read_dask(tree, series=True, files_per_partition=4)
    got = ddf.compute()
    ref = es.read_series(tree, dedupe=False)
    assert list(got.columns[:len(schema.SERIES_COLUMNS)]) == list(schema.SERIES_COLUMNS)
    assert len(got) == len(ref)
    assert np.isclose(got["value"].sum(), ref["value"].sum())


def test_partition_extra_column_of_another_dtype_becomes_string():
    """A partition whose extra column is not a string (an integer column read back from
    elsewhere) is given the Dask frame's string dtype, values as the engine writes them
    ("4", not "4.0"); this path called a helper schema does not have (AttributeError)."""
    part = schema.empty().iloc[:0].reindex(range(2))
    part["job"] = pd.array([4, None], dtype="Int64")
    shaped = scale._shape(part, False, ["job"])
    assert shaped["job"].dtype == schema.STRING
    assert shaped["job"].tolist()[0] == "4" and pd.isna(shaped["job"].tolist()[1])
