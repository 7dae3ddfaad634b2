"""Large groups (a fio latency log's values): the bag of little bootstraps above BLB_MIN_N and
the mixture EM on standardised values, each against an independent computation."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import ebsstats as es
from ebsstats.stats._core import BLB_MIN_N, bootstrap_interval, bootstrap_method
from ebsstats.stats.flags import gmm2


def test_method_by_size():
    assert [bootstrap_method(n) for n in (3, 5000, 5001, BLB_MIN_N, BLB_MIN_N + 1)] == [
        "BCa", "BCa", "percentile", "percentile", "bag of little bootstraps"]


def _cv_delta_halfwidth(x: np.ndarray, confidence: float) -> float:
    """Delta-method half-width of the sample CV for any distribution with four moments:
    Var(cv) ~ (c^2 / n) (c^2 - c g1 + (k - 1) / 4), g1 the skewness, k the (non-excess)
    kurtosis; for normal data it is c^2 (c^2 + 1/2) / n."""
    c = np.std(x, ddof=1) / np.mean(x)
    g1, k = stats.skew(x), stats.kurtosis(x, fisher=False)
    se = math.sqrt(c * c / len(x) * (c * c - c * g1 + (k - 1) / 4))
    return stats.norm.ppf(0.5 + confidence / 2) * se


@pytest.mark.parametrize("n", [BLB_MIN_N + 1, 60_000])
def test_bag_matches_the_asymptotic_intervals(n):
    x = np.random.default_rng(n).lognormal(3, 0.4, n)
    lo, hi = bootstrap_interval(x, "mean", 0.95, 1999, np.random.default_rng(1))
    t_lo, t_hi = stats.t.interval(0.95, n - 1, x.mean(), stats.sem(x))
    assert (hi - lo) / (t_hi - t_lo) == pytest.approx(1, abs=0.1)
    assert abs((lo + hi) / 2 - x.mean()) < 0.1 * (hi - lo)  # centred on the whole sample's
    lo, hi = bootstrap_interval(x, "cv", 0.95, 1999, np.random.default_rng(2))
    cv = np.std(x, ddof=1) / np.mean(x)
    half = _cv_delta_halfwidth(x, 0.95)
    assert (hi - lo) / (2 * half) == pytest.approx(1, abs=0.15)
    assert lo < cv < hi


def test_bag_covers():
    """40 normal samples just above the switch, 399 resamples (20 a subset; the suite's time):
    the 95 % intervals of the mean and the CV cover the true values (100, 0.1) in at least 34
    (P(fewer) < 0.005 at 95 % coverage). benchmarks/validate_statistics.py runs 400 samples
    at the default 1,999."""
    rng = np.random.default_rng(7)
    hits = np.zeros(2)
    for i in range(40):
        x = rng.normal(100, 10, BLB_MIN_N + 1)
        m = bootstrap_interval(x, "mean", 0.95, 399, np.random.default_rng([i, 0]))
        c = bootstrap_interval(x, "cv", 0.95, 399, np.random.default_rng([i, 1]))
        hits += [m[0] < 100 < m[1], c[0] < 0.1 < c[1]]
    assert (hits >= 34).all(), hits


def test_summarize_names_the_bag():
    x = np.random.default_rng(3).lognormal(3, 0.3, BLB_MIN_N + 500)
    s = es.summarize(pd.DataFrame({"value": x}), n_boot=999).iloc[0]
    assert "bag of little bootstraps (Kleiner et al. 2014) (999 resamples)" in s["method"]
    assert s["mean_boot_ci_low"] < x.mean() < s["mean_boot_ci_high"]
    assert s["cv_ci_low"] < np.std(x, ddof=1) / x.mean() < s["cv_ci_high"]


def _em_reference(x, max_iter=500, tol=1e-10):
    """The textbook EM on the raw values with scipy's normal density (the implementation
    gmm2 replaced): best log-likelihood of the three quantile-split starts."""
    floor = (0.05 * np.std(x)) ** 2 + 1e-300
    best = -np.inf
    for q in (0.25, 0.5, 0.75):
        cut = np.quantile(x, q)
        a, b = x[x <= cut], x[x > cut]
        w = np.array([len(a), len(b)], float) / len(x)
        mu = np.array([a.mean(), b.mean()])
        var = np.maximum(np.array([a.var(), b.var()]), floor)
        ll_old = -np.inf
        for _ in range(max_iter):
            logp = np.log(w) + stats.norm.logpdf(x[:, None], mu, np.sqrt(var))
            rows = np.logaddexp(logp[:, 0], logp[:, 1])
            ll = rows.sum()
            resp = np.exp(logp - rows[:, None])
            nk = resp.sum(axis=0)
            w = nk / len(x)
            mu = (resp * x[:, None]).sum(axis=0) / nk
            var = np.maximum((resp * (x[:, None] - mu) ** 2).sum(axis=0) / nk, floor)
            if ll - ll_old < tol * abs(ll):
                break
            ll_old = ll
        best = max(best, ll)
    return best


@pytest.mark.parametrize("kind", ["normal", "two bands", "log-normal", "rounded at a cap"])
def test_gmm2_equals_the_textbook_em(kind):
    rng = np.random.default_rng(11)
    x = {"normal": rng.normal(100, 5, 120),
         "two bands": np.r_[rng.normal(100, 3, 60), rng.normal(80, 3, 40)],
         "log-normal": np.log(rng.lognormal(3, 0.5, 150)),
         "rounded at a cap": np.round(rng.normal(3000, 2, 90))}[kind]
    assert gmm2(x)["loglik"] == pytest.approx(_em_reference(x), rel=1e-8)
