"""An audit's findings in the variance family: a degenerate REML fit is not an answer, lag-1's
bias, the bootstrap at large n, fio's time_based read for the rate average."""

import time
import warnings

import numpy as np
import pandas as pd
import pytest

import ebsstats as es


def test_an_infinite_likelihood_reml_fit_is_refused_for_the_next_optimizer():
    # unbalanced one-level design: lbfgs stopped at instance variance 0 with llf = +inf and
    # "converged"; statsmodels' default fit and the ANOVA estimator agree on 0.0082 / 0.031
    import statsmodels.formula.api as smf

    rng = np.random.default_rng(1)
    inst = np.repeat(np.arange(10), [2, 3, 8, 4, 6, 2, 10, 5, 3, 7])
    y = 10 + rng.normal(0, 0.05, 10)[inst] + rng.normal(0, 0.2, inst.size)
    df = pd.DataFrame({"instance": inst.astype(str), "value": y})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = smf.mixedlm("value ~ 1", df, groups=df["instance"]).fit(reml=True)
        r = es.variance_components(df, levels=["instance"], log=False, n_boot=0)
    got = dict(zip(r["level"], r["variance"], strict=True))
    assert got["instance"] == pytest.approx(float(ref.cov_re.iloc[0, 0]), rel=1e-3)
    assert got["run"] == pytest.approx(float(ref.scale), rel=1e-3)
    assert got["instance"] == pytest.approx(0.00824, abs=5e-5)


def test_large_samples_get_the_percentile_bootstrap():
    # BCa's jackknife is an n x n array in scipy: 37 GiB at n = 200,000, 68 s at 20,000
    x = np.exp(np.random.default_rng(0).normal(0, 0.1, 20_000))
    t = time.perf_counter()
    s = es.summarize(pd.DataFrame({"value": x}), n_boot=99).iloc[0]
    assert time.perf_counter() - t < 40
    assert "percentile bootstrap (99 resamples)" in s["method"]
    assert s["mean_boot_ci_low"] < np.mean(x) < s["mean_boot_ci_high"]
    small = es.summarize(pd.DataFrame({"value": x[:50]}), n_boot=99).iloc[0]
    assert "BCa bootstrap" in small["method"]


def test_time_based_fio_runs_average_arithmetically():
    # small_json.json ran with time_based=1: its rates are fixed-time, so the arithmetic mean
    # (Hoefler & Belli); fio's JSON prints a bare --time_based as ""
    from ebsstats.io.fio._options import _flag_option
    from tests.conftest import fixture

    df = es.read(fixture("fio", "small_json.json"), progress=False)
    assert set(df["time_based"].dropna()) == {"1"}
    s = es.summarize(df[df["metric"] == "iops"]).iloc[0]
    assert s["average_method"].startswith("arithmetic (rate, fixed-time runs")
    assert _flag_option("") == "1" and _flag_option("0") == "0"
    assert es.stats.summary.average_method("auto", "IO/s", time_based="")[0] == "arithmetic"


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.1])
def test_median_ci_refuses_a_level_outside_0_1(confidence):
    with pytest.raises(ValueError, match="confidence must be in"):
        es.median_ci([1.0, 2, 3, 4, 5, 6], confidence=confidence)
