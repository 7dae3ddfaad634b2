"""Run-order autocorrelation: warning, effective-n median interval, summarize's new columns."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import ebsstats as es
from benchmarks._noise import ar1
from ebsstats.stats.independence import lag1, median_ci_dependent
from ebsstats.stats.summary import median_ci_array


def test_lag1_matches_statsmodels_and_corrects_bias():
    from statsmodels.tsa.stattools import acf

    x = ar1(30, 0.5, np.random.default_rng(0))
    r1, rho, p = lag1(x)
    assert r1 == pytest.approx(acf(x, nlags=1)[1])
    assert rho == pytest.approx((30 * r1 + 1) / 26)  # E[r1] = rho - (1 + 4 rho) / n
    assert p == pytest.approx(stats.norm.sf((r1 + 1 / 30) * np.sqrt(30)))


def test_lag1_is_unbiased_for_ar1_at_n30():
    # Marriott & Pope (1954): with the mean estimated E[r1] = rho - (1 + 4 rho)/n; the
    # (1 + 3 rho)/n correction left rho at 0.479 on average for 0.5 (the audit's 20,000 runs)
    rng = np.random.default_rng(5)
    est = [lag1(ar1(30, 0.5, rng))[1] for _ in range(3000)]
    assert np.mean(est) == pytest.approx(0.5, abs=0.012)


def test_effective_n_interval_covers_under_ar1():
    # back-to-back runs, AR(1) rho = 0.5 on the log scale, 40 runs: the i.i.d. order-statistic
    # interval covers ~80 % (states >= 95 %); the effective-n interval >= 90 %
    rng = np.random.default_rng(1)
    iid, dep = [], []
    for _ in range(300):
        x = ar1(40, 0.5, rng)
        _, lo, hi, _ = median_ci_array(x)
        iid.append(lo <= 1000 <= hi)
        _, rho, _ = lag1(x)
        _, lo, hi, _ = median_ci_dependent(x, rho)
        dep.append(lo <= 1000 <= hi)
    assert np.mean(iid) < 0.88
    assert np.mean(dep) >= 0.90


def test_summarize_warns_on_dependent_runs_and_adds_columns():
    rng = np.random.default_rng(2)
    df = pd.DataFrame({"config": ["ar"] * 40 + ["iid"] * 40, "repetition": list(range(40)) * 2,
                       "value": np.r_[ar1(40, 0.9, rng), 1000 * np.exp(rng.normal(0, .05, 40))]})
    s = es.summarize(df, by="config", n_boot=499).set_index("config")
    assert "not independent" in s.loc["ar", "warning"]
    assert s.loc["ar", "lag1_autocorr"] > 0.5
    assert s.loc["ar", "n_eff"] < 12
    assert pd.isna(s.loc["iid", "warning"]) or "not independent" not in s.loc["iid", "warning"]
    a = es.autocorrelation(df, by="config").set_index("config")
    assert bool(a.loc["ar", "dependent"]) and not bool(a.loc["iid", "dependent"])
    # CV interval: scipy's BCa bootstrap of sd/mean with the group's generator
    x = df.loc[df["config"] == "iid", "value"].to_numpy()
    ref = stats.bootstrap((x,), lambda v, axis: np.std(v, ddof=1, axis=axis)
                          / np.mean(v, axis=axis), n_resamples=499, method="BCa",
                          rng=np.random.default_rng([0, 1, 16])).confidence_interval
    assert s.loc["iid", "cv_ci_low"] == pytest.approx(ref.low)
    assert s.loc["iid", "cv_ci_low"] < s.loc["iid", "cv"] < s.loc["iid", "cv_ci_high"]


def test_summarize_notes_a_bimodal_group():
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"value": np.r_[rng.normal(1000, 20, 30), rng.normal(700, 20, 20)]})
    s = es.summarize(df, n_boot=0).iloc[0]
    assert s["bimodality"] == "bimodal"
    assert "two performance bands" in s["warning"]
