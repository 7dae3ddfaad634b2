"""Tests of ebsstats.stats.warmup: SNIA window rule, changepoint classes, steady start and level."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.stats.warmup import batch_means_ci, segments, snia_windows, steady_state


def _ts(v, t=None, metric="iops", unit="IO/s"):
    t = np.arange(1.0, len(v) + 1.0) if t is None else t
    return pd.DataFrame({"run_id": "r", "op": "read", "metric": metric, "t": t, "value": v,
                         "unit": unit})


def test_snia_window_hand_computed():
    # window [100, 101, 99, 100, 102]: mean 100.4, range 3 -> 2.99 %; slope by least squares
    # over k = -2..2: (-2*100 - 101 + 0 + 100 + 2*102) / 10 = 0.3 -> excursion 0.3*4 = 1.2
    w = snia_windows([100, 101, 99, 100, 102, 150], window=5)
    assert w["mean"].iloc[0] == pytest.approx(100.4)
    assert w["range_frac"].iloc[0] == pytest.approx(3 / 100.4)
    assert w["slope_frac"].iloc[0] == pytest.approx(1.2 / 100.4)
    # second window [101, 99, 100, 102, 150]: range 51 / 110.4 = 46 % > 20 %
    assert w["steady"].tolist() == [True, False]
    # slope alone can fail: a ramp 100..108 has range 8 % but slope excursion 8 % -> ok at 10 %,
    # fails at 5 %
    ramp = [100, 102, 104, 106, 108]
    assert snia_windows(ramp, slope_tol=0.10)["steady"].iloc[0]
    assert not snia_windows(ramp, slope_tol=0.05)["steady"].iloc[0]


def test_snia_matches_numpy_polyfit():
    rng = np.random.default_rng(4)
    x = 50 + rng.normal(0, 3, 40)
    w = snia_windows(x, window=7)
    for i in (0, 13, 33):
        slope = np.polyfit(np.arange(7), x[i:i + 7], 1)[0]
        assert w["slope_frac"].iloc[i] == pytest.approx(abs(slope) * 6 / x[i:i + 7].mean())


def test_batch_means_against_scipy_t():
    from scipy import stats
    x = np.arange(20.0)
    m, lo, hi, k = batch_means_ci(x, batches=4)
    bm = x.reshape(4, 5).mean(axis=1)           # 2, 7, 12, 17
    half = stats.t.ppf(0.975, 3) * bm.std(ddof=1) / 2
    assert (m, k) == (9.5, 4)
    assert lo == pytest.approx(9.5 - half) and hi == pytest.approx(9.5 + half)


def test_flat_warmup_slowdown_and_no_steady_state():
    rng = np.random.default_rng(0)
    e = np.exp(rng.normal(0, 0.03, 300))
    t = np.arange(1.0, 301.0)
    flat = steady_state(_ts(1000 * e)).iloc[0]
    assert flat["klass"] == "flat" and flat["n_changepoints"] == 0
    assert flat["steady_start"] == 1.0 and flat["snia_steady"]
    # 100 s of first-write plateau at 1/5 of the level, then the level: warm-up, and steady
    # state starts at the shift, not at t = 0 (where an online SNIA run would have stopped)
    wu = steady_state(_ts(np.where(t <= 100, 200.0, 1000.0) * e)).iloc[0]
    assert wu["klass"] == "warmup" and wu["steady_start"] == 101.0
    assert wu["snia_first_window"] == 1.0 and wu["snia_window_start"] >= 101.0
    assert wu["steady_level_ci_low"] < 1000 < wu["steady_level_ci_high"]
    assert wu["first_level"] == pytest.approx(200, rel=0.05)
    # burst running dry: slowdown
    sd = steady_state(_ts(np.where(t <= 150, 3000.0, 100.0) * e)).iloc[0]
    assert sd["klass"] == "slowdown" and sd["steady_start"] == 151.0
    # the shift happens in the last 5 % of the run: no steady state
    ns = steady_state(_ts(np.where(t <= 290, 1000.0, 400.0) * e)).iloc[0]
    assert ns["klass"] == "no_steady_state" and pd.isna(ns["steady_level"])


def test_latency_direction_inverts_classes():
    t = np.arange(1.0, 201.0)
    lat = np.where(t <= 50, 0.010, 0.002) * np.exp(np.random.default_rng(1).normal(0, .03, 200))
    r = steady_state(_ts(lat, metric="clat", unit="s")).iloc[0]
    assert r["lower_is_better"] and r["klass"] == "warmup"   # latency fell: it got better
    r2 = steady_state(_ts(lat, metric="clat", unit="s"), higher_is_better=True).iloc[0]
    assert r2["klass"] == "slowdown"


def test_flat_series_classified_flat_in_95_percent():
    # small version of benchmarks/validate_warmup.py: iid and AR(1) noise, CV 3 %
    flat = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        e = rng.normal(0, 0.03, 300)
        ar = np.empty(300)
        ar[0] = e[0]
        for i in range(1, 300):
            ar[i] = 0.3 * ar[i - 1] + e[i]
        for v in (np.exp(e), np.exp(ar)):
            flat += steady_state(_ts(1000 * v))["klass"].iloc[0] == "flat"
    assert flat / 80 >= 0.95


def test_repeated_runs_in_timestamp_order():
    ts = pd.date_range("2024-03-01", periods=12, freq="D", tz="UTC")
    v = [20.0, 21, 19, 100, 101, 99, 100, 102, 98, 100, 101, 99]
    df = pd.DataFrame({"timestamp": ts, "value": v, "metric": "bandwidth", "unit": "B/s"})
    r = steady_state(df, time="timestamp", by="metric").iloc[0]
    assert r["klass"] == "warmup" and r["steady_start"] == ts[3]


def test_segments_and_binning_of_per_io_logs():
    rng = np.random.default_rng(2)
    n = 4000
    t = np.cumsum(rng.exponential(0.001, n))
    lat = np.where(np.arange(n) < 1000, 0.005, 0.001) * np.exp(rng.normal(0, .1, n))
    ts = _ts(lat, t, metric="clat", unit="s").assign(sampling="per_io")
    r = steady_state(ts).iloc[0]
    assert r["n"] == n and r["n_rounds"] <= 200          # >= 20 I/Os per bin
    assert r["klass"] == "warmup"
    assert r["steady_start"] == pytest.approx(t[1000], rel=0.05)
    seg = segments(ts)
    assert seg["final"].tolist()[-1] and seg["ratio_to_final"].iloc[0] == pytest.approx(5, rel=.1)


def test_short_series_not_classified():
    # sysbench --report-interval over a 30 s run gives 6 points: too few to tell a shift
    r = steady_state(_ts([100.0, 130, 95, 101, 99, 70])).iloc[0]
    assert r["klass"] == "too_short" and pd.isna(r["steady_level"])
    assert not r["snia_steady"]          # last window 130..70: range 60 % > 20 %


def test_public_name_and_bad_method():
    assert es.steady_state is steady_state
    with pytest.raises(ValueError):
        steady_state(_ts([1.0, 2.0]), method="magic")


def test_end_to_end_on_bundled_burst_log():
    ts = es.read_series("data/campaign/gp2-20g/burst")
    r = steady_state(ts[ts["metric"] == "iops"]).iloc[0]
    # truth.yaml: predicted_depletion_s 1862.07 for this run; fio stamps 9 s windows at their end
    assert r["klass"] == "slowdown"
    assert r["steady_start"] == pytest.approx(1862, abs=3 * 9)
    assert r["snia_first_window"] == 9.0          # the SNIA rule alone stops inside the burst
