"""compare() checks that successive runs are independent (lag-1 autocorrelation in run order)."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from benchmarks._noise import ar1
from ebsstats.stats.comparison import _ratio_ci_neff, compare
from ebsstats.stats.independence import lag1


def _frame(rho, seed, n=30, factor=1.0):
    rng = np.random.default_rng(seed)
    a, b = ar1(n, rho, rng, 0.1), ar1(n, rho, rng, 0.1) * factor
    df = pd.DataFrame({"config": ["a"] * n + ["b"] * n, "repetition": list(range(1, n + 1)) * 2,
                       "value": np.r_[a, b], "higher_is_better": True})
    # rows out of run order: the check must sort by repetition itself
    return df.sample(frac=1, random_state=1).reset_index(drop=True), a, b


def test_ar1_runs_warn_and_lose_the_spurious_verdict():
    # AR(1) rho = 0.5, no true difference: the i.i.d. analysis calls b "better" (a false
    # verdict); today nothing warns although the frame holds the run order
    df, a, b = _frame(0.5, seed=0)
    old = compare(df, baseline="a", n_boot=499, dependence="ignore").iloc[0]
    assert old["verdict"] == "better" and "not independent" not in old["warning"]
    assert "holds 1" in old["warning"]  # (its i.i.d. ratio CI, 0.97-1.15, says so already)
    r = compare(df, baseline="a", n_boot=499).iloc[0]
    assert "runs not independent" in r["warning"] and "repetition order" in r["warning"]
    assert r["lag1_autocorr"] == pytest.approx(lag1(b)[1])
    assert r["lag1_autocorr_baseline"] == pytest.approx(lag1(a)[1])
    assert r["lag1_autocorr"] > 0.5 and r["lag1_autocorr_baseline"] > 0.5
    assert r["ratio_ci_low_dep"] < 1 < r["ratio_ci_high_dep"]
    assert r["ratio_ci_low_dep"] <= r["ratio_ci_low"] and r["ratio_ci_high_dep"] >= r["ratio_ci_high"]
    assert r["verdict"] == "~" and "effective-n ratio CI" in r["method"]
    # existing columns are untouched by the check
    for c in ("ratio", "ratio_ci_low", "ratio_ci_high", "p_value", "p_adjusted", "shift"):
        assert r[c] == old[c]


def test_independent_runs_keep_todays_verdict_and_no_warning():
    df, _, _ = _frame(0.0, seed=33, factor=1.1)
    r = compare(df, baseline="a", n_boot=499).iloc[0]
    old = compare(df, baseline="a", n_boot=499, dependence="ignore").iloc[0]
    assert pd.isna(r["warning"]) and r["verdict"] == old["verdict"] == "better"
    assert "effective-n" not in r["method"]
    assert np.isfinite(r["lag1_autocorr"]) and np.isnan(old["lag1_autocorr"])


def test_a_large_effect_survives_dependence():
    df, _, _ = _frame(0.5, seed=0, factor=1.5)
    r = compare(df, baseline="a", n_boot=499).iloc[0]
    assert "runs not independent" in r["warning"] and r["verdict"] == "better"
    assert r["ratio_ci_low_dep"] > 1


def test_no_run_order_not_checked_and_bad_option():
    df, _, _ = _frame(0.5, seed=0)
    r = compare(df.drop(columns="repetition"), baseline="a", n_boot=199).iloc[0]
    assert np.isnan(r["lag1_autocorr"]) and np.isnan(r["ratio_ci_low_dep"])
    with pytest.raises(ValueError, match="dependence must be one of"):
        compare(df, baseline="a", dependence="yes")


def test_ratio_ci_neff_is_the_inflated_normal_interval():
    rng = np.random.default_rng(5)
    x, y = rng.lognormal(0, 0.1, 20), rng.lognormal(0.1, 0.1, 20)
    lo, hi = _ratio_ci_neff(x, y, 0.5, 0.0, 0.95, 999, np.random.default_rng(7))
    g = np.random.default_rng(7)

    def se(v):
        return stats.bootstrap((v,), lambda s, axis=-1: np.log(np.median(s, axis=axis)),
                               n_resamples=999, vectorized=True, method="percentile",
                               rng=g).standard_error

    half = stats.norm.ppf(0.975) * math.sqrt(3 * se(x) ** 2 + se(y) ** 2)
    c = math.log(np.median(y) / np.median(x))
    assert (lo, hi) == pytest.approx((math.exp(c - half), math.exp(c + half)))


def test_a_constant_run_order_column_gives_no_dependence_and_no_order_effect():
    """nidmgh/sysbenchCloudDB read with repetition 0 on every run: the rows' storage order was
    taken as run order (lag-1 0.98 of sorted values), and the verdict flipped from "~" to
    "better" when the rows were shuffled. Tied places are no order: not testable, and the
    verdict is the same in any row order."""
    import ebsstats as es

    rng = np.random.default_rng(0)
    n = 12
    df = pd.DataFrame({"config": ["a"] * n + ["b"] * n,
                       "value": np.r_[np.sort(rng.normal(100, 10, n)), rng.normal(112, 10, n)],
                       "repetition": 0, "higher_is_better": True})
    cols = ["lag1_autocorr_baseline", "p_adjusted", "verdict"]
    one = es.compare(df, by="config", baseline="a")
    two = es.compare(df.sample(frac=1, random_state=1), by="config", baseline="a")
    assert one[cols].iloc[0]["verdict"] == two[cols].iloc[0]["verdict"] == "better"
    assert np.isnan(one["lag1_autocorr_baseline"].iloc[0])
    s = es.summarize(df, by="config", n_boot=0)
    assert s["warning"].fillna("").str.contains("lag-1").sum() == 0
