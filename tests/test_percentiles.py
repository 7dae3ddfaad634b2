"""Pooled latency percentiles against hand merges of genuine fio json+ bins and histogram logs.

Fixtures: tests/fixtures/fio/hist, made by tests/fixtures/make_hist_fixtures.sh (fio 3.33).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ebsstats.io.fio import read_fio, read_fio_histogram
from ebsstats.io.fio.log import read_fio_hist_log
from ebsstats.stats.percentiles import (
    BIN_RELATIVE_ERROR,
    compare_percentiles,
    histogram_percentile,
    merge_histograms,
    percentiles_over_time,
    pooled_percentiles,
)

HIST = Path(__file__).parent / "fixtures" / "fio" / "hist"
JSONS = sorted(HIST.glob("*.json"))
LOGS = sorted(HIST.glob("*_clat_hist.*.log"))


def _config(path) -> str:
    return Path(path).name.split("_")[0]


@pytest.fixture(scope="module")
def bins():
    return pd.concat([read_fio_histogram(f).assign(config=_config(f)) for f in JSONS],
                     ignore_index=True)


@pytest.fixture(scope="module")
def logs():
    return pd.concat([read_fio_hist_log(f).assign(config=_config(f)) for f in LOGS],
                     ignore_index=True)


def _hand_bins(config: str) -> Counter:
    """The clat bins of every job of every run of one configuration, summed by hand (raw JSON)."""
    total: Counter = Counter()
    for f in JSONS:
        if _config(f) != config:
            continue
        for job in json.loads(f.read_text())["jobs"]:
            for k, v in job["read"]["clat_ns"]["bins"].items():
                total[int(k)] += v
    return total


def _fio_rule(counter: Counter, p: float) -> float:
    """fio's calc_clat_percentiles: first bin whose running count reaches p % of the total."""
    keys = sorted(counter)
    n = sum(counter.values())
    run = 0
    for k in keys:
        run += counter[k]
        if run >= p / 100 * n:
            return k * 1e-9
    raise AssertionError


def test_fixtures_are_genuine_fio():
    assert len(JSONS) == 6 and len(LOGS) == 12
    doc = json.loads(JSONS[0].read_text())
    assert doc["fio version"] == "fio-3.33" and len(doc["jobs"]) == 2
    assert "bins" in doc["jobs"][0]["read"]["clat_ns"]


@pytest.mark.parametrize("config", ["bs4k", "bs64k"])
def test_merged_bins_equal_hand_merge(bins, config):
    merged = merge_histograms(bins[bins["config"] == config], by=None)
    hand = _hand_bins(config)
    got = dict(zip(np.rint(merged["lat"] * 1e9).astype(np.int64), merged["count"], strict=True))
    assert got == dict(hand)


@pytest.mark.parametrize("config", ["bs4k", "bs64k"])
def test_pooled_percentiles_equal_hand_merge(bins, config):
    r = pooled_percentiles(bins[bins["config"] == config], percentiles=[50, 90, 99, 99.9],
                           n_boot=0)
    hand = _hand_bins(config)
    assert r["n_ios"].iloc[0] == sum(hand.values())
    for p, v in zip(r["percentile"], r["value"], strict=True):
        assert v == pytest.approx(_fio_rule(hand, p), rel=1e-12)


def test_one_job_reproduces_fio_own_percentiles(bins):
    """fio's own clat percentiles of each job are what the rule gives on that job's bins."""
    res = pd.concat([read_fio(f) for f in JSONS], ignore_index=True)
    want = res[res["metric"].isin(["clat_p50", "clat_p99", "clat_p99.9"])].copy()
    want["percentile"] = want["metric"].astype(str).str[6:].astype(float)
    got = pooled_percentiles(bins, by="run_id", percentiles=[50, 99, 99.9], n_boot=0)
    m = got.merge(want[["run_id", "percentile", "value"]], on=["run_id", "percentile"])
    assert len(m) == 12 * 3
    np.testing.assert_allclose(m["value_x"], m["value_y"], rtol=1e-9)


def test_pooled_differs_from_averaged_on_genuine_data(bins):
    r = pooled_percentiles(bins, by="config", percentiles=[50, 99], n_boot=0)
    p50 = r[r["percentile"] == 50]
    assert (p50["averaged_vs_pooled_pct"].abs() < 100 * BIN_RELATIVE_ERROR).all()
    p99 = r[(r["percentile"] == 99) & (r["config"] == "bs64k")].iloc[0]
    # the average of the 6 jobs' p99 understates the pooled p99 by more than fio's bin error
    assert p99["averaged_vs_pooled_pct"] < -5
    hand_avg = np.mean([_fio_rule(Counter({int(k): v for k, v in j["read"]["clat_ns"]["bins"]
                                           .items()}), 99)
                        for f in JSONS if _config(f) == "bs64k"
                        for j in json.loads(f.read_text())["jobs"]])
    assert p99["averaged"] == pytest.approx(hand_avg, rel=1e-12)


def test_bootstrap_ci_brackets_pooled_and_needs_two_runs(bins):
    r = pooled_percentiles(bins, by="config", percentiles=[99], n_boot=499, seed=1)
    assert ((r["ci_low"] <= r["value"]) & (r["value"] <= r["ci_high"])).all()
    one = pooled_percentiles(bins[bins["run_id"] == bins["run_id"].iloc[0]], percentiles=[99],
                             n_boot=499)
    assert np.isnan(one["ci_low"].iloc[0]) and one["n_runs"].iloc[0] == 1


def test_bin_error_is_fio_stat_h():
    assert BIN_RELATIVE_ERROR == 1 / 128


def test_histogram_percentile_rule():
    assert histogram_percentile([3.0, 1.0, 2.0], [5, 50, 45], [50, 95, 99]).tolist() == [
        1.0, 2.0, 3.0]
    assert np.isnan(histogram_percentile([1.0], [0], [50])[0])


def test_percentiles_over_time_equal_hand_merge_of_log_lines(logs):
    r = percentiles_over_time(logs, by="config", percentiles=[99])
    # hand: every 4 KiB log line whose time rounds to 1.0 s, bins summed from the raw text
    total: Counter = Counter()
    from ebsstats.io.fio.log import _plat_values

    vals = _plat_values(1856)
    for f in LOGS:
        if _config(f) != "bs4k":
            continue
        for line in f.read_text().splitlines():
            cols = [int(x) for x in line.split(",")]
            if round(cols[0] / 500) == 2:
                for i, c in enumerate(cols[3:]):
                    if c:
                        total[int(vals[i])] += c
    row = r[(r["config"] == "bs4k") & (r["t"] == 1.0)].iloc[0]
    assert row["n_ios"] == sum(total.values())
    assert row["value"] == pytest.approx(_fio_rule(total, 99), rel=1e-12)


def test_compare_percentiles_semantics(bins):
    r = compare_percentiles(bins, by="config", baseline="bs4k", percentile=99, n_boot=299)
    row = r.iloc[0]
    pooled = pooled_percentiles(bins, by="config", percentiles=[99], n_boot=0)
    v = dict(zip(pooled["config"], pooled["value"], strict=True))
    assert row["ratio"] == pytest.approx(v["bs64k"] / v["bs4k"])
    assert row["ratio_ci_low"] <= row["ratio"] <= row["ratio_ci_high"]
    # 6 jobs vs 6 jobs: exact permutation p = 0.011 < 0.05, larger latency -> worse
    assert row["p_value"] < 0.05 and row["verdict"] == "worse"
    # per source (3 runs each): the smallest permutation p is 0.1 -> no verdict, and it says so
    r3 = compare_percentiles(bins, by="config", run="source", n_boot=0)
    assert r3["verdict"].iloc[0] == "~"
    assert r3["p_value"].iloc[0] >= 0.1
    assert "not testable" in r3["warning"].iloc[0]
