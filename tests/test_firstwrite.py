"""Tests of ebsstats.stats.firstwrite: every evidence kind, CIs against scipy, coverage, attribution."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import ebsstats as es
from ebsstats.stats.firstwrite import first_write, log_ratio_ci, synthetic_touch_log, touch_table


def test_log_ratio_ci_equals_scipy_pooled_t():
    first, later = np.array([20.0, 22.0, 19.0]), np.array([100.0, 104.0, 97.0, 101.0])
    r, lo, hi = log_ratio_ci(first, later)
    a, b = np.log(first), np.log(later)
    res = stats.ttest_ind(b, a, equal_var=True)
    ci = res.confidence_interval(0.95)
    assert r == pytest.approx(math.exp(b.mean() - a.mean()))
    assert lo == pytest.approx(math.exp(ci.low)) and hi == pytest.approx(math.exp(ci.high))


def test_log_ratio_ci_single_first_run_is_prediction_interval():
    later = np.array([100.0, 104.0, 97.0, 101.0, 99.0])
    r, lo, hi = log_ratio_ci([20.0], later)
    b = np.log(later)
    half = stats.t.ppf(0.975, 4) * b.std(ddof=1) * math.sqrt(1 + 1 / 5)
    assert lo == pytest.approx(math.exp(b.mean() - math.log(20) - half))
    assert hi == pytest.approx(math.exp(b.mean() - math.log(20) + half))


def _results(first_rate=20.0, seed=0, n=12):
    rng = np.random.default_rng(seed)
    rows = []
    for p in range(n):
        noise = math.exp(rng.normal(0, 0.03))
        put = (first_rate if p == 0 else 100.0) * noise
        for test, v, met in (("put_block", put, "bandwidth"), ("rewrite", 45.0 * noise,
                                                               "bandwidth")):
            rows.append({"config": "gp3", "run_id": f"b{p}", "tool": "bonnie++", "test": test,
                         "op": "write", "metric": met, "value": v * 1e6, "unit": "B/s",
                         "pass": str(p)})
    rows.append({"config": "gp3", "run_id": "s0", "tool": "sysbench", "test": "prepare",
                 "op": "write", "metric": "bandwidth", "value": 10e6, "unit": "B/s",
                 "pass": "0", "source": "prep.txt"})
    rows.append({"config": "gp3", "run_id": "s0", "tool": "sysbench", "test": "prepare",
                 "op": "write", "metric": "io_bytes", "value": 4e9, "unit": "B", "pass": "0",
                 "source": "prep.txt"})
    for p, v in ((1, 49e6), (2, 51e6), (3, 50e6)):
        rows.append({"config": "gp3", "run_id": f"s{p}", "tool": "sysbench", "test": "seqwr",
                     "op": "write", "metric": "bandwidth", "value": v, "unit": "B/s",
                     "pass": str(p), "source": f"s{p}.txt"})
    return pd.DataFrame(rows)


def test_passes_bonnie_sysbench_evidence():
    df = _results()
    r = first_write(df).set_index(["evidence", "test"])
    # passes on put_block: first run 20 MB/s vs later 100 MB/s (noise 3 %) -> about 5
    p = r.loc[("passes", "put_block")]
    assert p["penalty_ci_low"] < 5 < p["penalty_ci_high"] and p["n_first"] == 1
    assert p["n_later"] == 11 and p["detected"]
    # rewrite runs with the volume's level in every run: no penalty
    rw = r.loc[("passes", "rewrite")]
    assert rw["penalty_ci_low"] < 1 < rw["penalty_ci_high"]
    # bonnie: put/rewrite ratio removes the shared per-run noise exactly: 100/45 vs 20/45
    b = r.loc[("bonnie", "put_block/rewrite")]
    assert b["penalty"] == pytest.approx(5.0) and b["penalty_ci_high"] - b["penalty_ci_low"] < 1e-6
    # sysbench: prepare 10 MB/s vs seqwr 49, 51, 50 -> geometric mean 49.99 / 10
    s = r.loc[("sysbench", "prepare/seqwr")]
    assert s["penalty"] == pytest.approx(stats.gmean([49, 51, 50]) / 10)
    assert s["bytes_to_clear"] == 4e9


def test_latency_metric_penalty_is_first_over_later():
    df = pd.DataFrame({"config": "v", "test": "t", "op": "write", "metric": "lat_mean",
                       "unit": "s", "value": [0.010, 0.002, 0.0021, 0.0019], "pass":
                       ["0", "1", "2", "3"]})
    r = first_write(df, evidence="passes", metrics=["lat_mean"]).iloc[0]
    assert r["penalty"] == pytest.approx(0.010 / stats.gmean([0.002, 0.0021, 0.0019]))


def test_passes_of_other_iodepths_are_not_pooled():
    """wikimedia/cloud-storage-performance-tests: 10 first runs at iodepth 1 (~1,100 IOPS)
    and 10 at iodepth 128 (~28,000) were one "first" group: its level the median of two bands
    and a CI of 0.41-2.58 made by the workload difference. Each iodepth is a group of its own,
    named in its row, and its figures are those of its runs alone."""
    rows = []
    for depth, level in ((1, 1100.0), (128, 28000.0)):
        for p, f in enumerate((0.5, 1.0, 1.02, 0.98, 1.01)):
            rows.append({"config": "rbd", "test": "read", "op": "read", "metric": "iops",
                         "unit": "IO/s", "iodepth": depth, "pass": str(p),
                         "value": level * f})
    out = first_write(pd.DataFrame(rows), evidence="passes")
    assert list(out.columns[:2]) == ["config", "iodepth"]  # the setting named in its row
    r = out.set_index("iodepth")
    assert sorted(r.index) == [1, 128]
    for depth, level in ((1, 1100.0), (128, 28000.0)):
        later = np.array([1.0, 1.02, 0.98, 1.01]) * level
        pen, lo, hi = log_ratio_ci([0.5 * level], later)
        assert r.loc[depth, "first_level"] == pytest.approx(0.5 * level)
        assert r.loc[depth, "penalty"] == pytest.approx(pen)
        assert (r.loc[depth, "penalty_ci_low"], r.loc[depth, "penalty_ci_high"]) == \
            (pytest.approx(lo), pytest.approx(hi))


def test_touch_table_orders_passes_and_marks_repeats():
    ts = pd.DataFrame({"run_id": ["b", "b", "a", "a"], "pass": ["1", "1", "0", "0"],
                       "t": [1.0, 2.0, 1.0, 2.0], "value": 1.0, "metric": "clat",
                       "offset": [4096, 8192, 0, 4096], "block_size": 4096})
    tt = touch_table(ts, by="run_id")   # by run: each run on its own
    assert tt["first_touch"].tolist() == [True, True, True, True]
    tt = touch_table(ts.assign(volume="v"))
    # pass 0 (run a) first: 0, 4096 new; pass 1: 4096 repeat, 8192 new
    assert tt["run_id"].tolist() == ["a", "a", "b", "b"]
    assert tt["first_touch"].tolist() == [True, True, False, True]
    assert tt["elapsed"].tolist() == [1.0, 2.0, 3.0, 4.0]


@pytest.mark.parametrize("case", ["first_touch", "time", "both", "none"])
def test_first_touch_and_burst_not_confused(case):
    burst = {"bucket": 1000.0, "baseline": 100.0, "slowdown": 4.0}
    kw = {"first_touch": {"factor": 5.0}, "time": {"factor": 1.0, "burst": burst},
          "both": {"factor": 5.0, "burst": burst}, "none": {"factor": 1.0}}[case]
    ok = 0
    for seed in range(8):
        ts = synthetic_touch_log(seed=seed, n_blocks=512, n_ios=2048, **kw)
        r = first_write(ts, evidence="offsets").iloc[0]
        assert r["attribution"] == case
        ok += r["penalty_ci_low"] <= kw["factor"] <= r["penalty_ci_high"]
        if "burst" in kw:
            t_dep = ts.loc[~ts["true_bursting"], "t"].min()
            assert r["time_change_at"] == pytest.approx(t_dep, rel=0.10)
            assert r["time_effect"] == pytest.approx(4.0, rel=0.10)
    assert ok >= 7   # 95 % intervals (z-scores over 60 seeds: mean 0.03, SD 1.04)
    if case == "time":   # the naive first-vs-repeat ratio is fooled by the burst, we are not
        assert r["naive_ratio"] < 0.9


def test_offsets_coverage_on_simulated_campaigns():
    # small version of benchmarks/validate_warmup.py (200 seeds there)
    from ebsstats.simulate.model import campaign
    hits, n = 0, 0
    for seed in range(12):
        camp = campaign(seed, weeks=1, volume_types=["gp3", "io1"], tools=("fio",),
                        first_write=5.0, offset_logs=2, fio_jobs=("randread-4k",))
        s = camp.series
        ts = pd.DataFrame({"run_id": s["config"] + s["pass"].astype(str), "metric": "lat",
                           "t": s["t_s"], "value": s["lat_s"], "unit": "s",
                           "offset": s["offset"], "block_size": 262144,
                           "config": s["config"], "pass": s["pass"].astype(str)})
        for row in first_write(ts, evidence="offsets", log_metric="lat").itertuples():
            hits += row.penalty_ci_low <= 5.0 <= row.penalty_ci_high
            n += 1
    assert n == 24 and hits / n >= 0.8


def test_end_to_end_bundled_campaign():
    df, ts = es.read("data/campaign/gp2-20g", series=True)
    r = first_write((df, ts))
    off = r[r["evidence"] == "offsets"].iloc[0]
    # truth.yaml: first_write factor 5.0; clat = lat - slat adds a few 0.1 % to the ratio
    assert off["penalty_ci_low"] < 5.05 and off["penalty_ci_high"] > 4.95
    assert off["n_first"] == 1024          # every 256 KiB block of the 256 MiB region once
    assert off["attribution"] == "first_touch" and off["coverage"] == 1.0
    bon = r[r["evidence"] == "bonnie"].iloc[0]
    assert bon["penalty_ci_low"] < 5 < bon["penalty_ci_high"]
    put = r[(r["evidence"] == "passes") & (r["test"] == "put_block")].iloc[0]
    assert put["penalty_ci_low"] < 5 < put["penalty_ci_high"]
    assert es.first_write is first_write


def test_bad_evidence():
    with pytest.raises(ValueError):
        first_write(pd.DataFrame(), evidence="tea leaves")


def test_offsets_se_matches_exact_ols_on_true_touches():
    # The simulator's per-I/O latencies are iid lognormal (sigma 0.1) times 5 on first touches
    # and a per-pass level, so OLS of log latency on the *true* first-touch indicator and the
    # pass has an exact t interval. first_write must match it: same z-scores up to the time-
    # regime terms. 200 seeds x 2 volumes (benchmarks/validate_warmup.py): coverage 0.935, z SD
    # 1.066, exact OLS 0.935 / 1.051. The 82.5 % (40 seeds) and 88 % (60 seeds) seen before were
    # unlucky low seeds: on seeds 0-29 the exact OLS covers 5 in 80 % too.
    import statsmodels.api as sm

    from ebsstats.simulate.model import campaign
    z, z_exact = [], []
    for seed in range(300, 330):
        camp = campaign(seed, weeks=1, volume_types=["gp3", "io1"], tools=("fio",),
                        first_write=5.0, offset_logs=2, fio_jobs=("randread-4k",))
        s = camp.series
        s = s[s["pass"].notna() & s["offset"].notna()]
        ts = pd.DataFrame({"run_id": s["config"] + s["pass"].astype(str), "metric": "lat",
                           "t": s["t_s"], "value": s["lat_s"], "unit": "s",
                           "offset": s["offset"], "block_size": 262144,
                           "config": s["config"], "pass": s["pass"].astype(str)})
        r = first_write(ts, evidence="offsets", log_metric="lat").set_index("config")
        for cfg, g in s.groupby("config"):
            X = np.column_stack([np.ones(len(g)), g["first_touch"].astype(float),
                                 (g["pass"] == 1).astype(float)])
            f = sm.OLS(np.log(g["lat_s"].to_numpy()), X).fit()
            z_exact.append((f.params[1] - math.log(5)) / f.bse[1])
            row = r.loc[cfg]
            se = math.log(row.penalty_ci_high / row.penalty_ci_low) / (2 * stats.norm.ppf(0.975))
            z.append((math.log(row.penalty) - math.log(5)) / se)
    z, z_exact = np.array(z), np.array(z_exact)
    assert np.corrcoef(z, z_exact)[0, 1] > 0.95  # same estimate up to the regime terms
    assert abs(z.std(ddof=1) / z_exact.std(ddof=1) - 1) < 0.10  # same SE scale
    assert np.mean(np.abs(z) < 1.96) >= 0.85  # 60 intervals at 95 %


def test_passes_follow_the_time_before_the_repetition():
    """Two sessions a month apart on one volume, each numbering its runs 1, 2, 3: ranked by
    repetition, both sessions' run 1 was "the first pass" (a 5x penalty read as 2.2x, not
    detected). The time says which pass came first."""
    rng = np.random.default_rng(0)
    t0 = pd.Timestamp("2024-03-01", tz="UTC")
    rows = [{"volume": "vol-1", "test": "randwrite", "op": "write", "metric": "iops",
             "unit": "IO/s", "repetition": rep,
             "value": (200 if (ses == 0 and rep == 1) else 1000) * math.exp(rng.normal(0, .02)),
             "timestamp": t0 + pd.Timedelta(days=day, minutes=rep)}
            for ses, day in ((0, 0), (1, 30)) for rep in (1, 2, 3)]
    r = first_write(pd.DataFrame(rows), evidence="passes").iloc[0]
    later = np.array([row["value"] for row in rows[1:]])
    pen, lo, hi = log_ratio_ci([rows[0]["value"]], later)
    assert r["n_first"] == 1 and r["penalty"] == pytest.approx(pen)
    assert (r["penalty_ci_low"], r["penalty_ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
    assert 4.5 < r["penalty"] < 5.5 and r["detected"]
