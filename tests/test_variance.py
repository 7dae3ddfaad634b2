"""summarize / median_ci: values equal scipy, a hand-computed median CI, warnings, coverage."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import ebsstats as es
from ebsstats.stats.summary import average_method, median_ci_array, order_stat_ranks, summarize


def test_order_statistic_ranks_hand_computed():
    j, k, level, reached = order_stat_ranks([5, 10, 30], 0.95)
    # n=10: (3,8) covers 1 - 2*P(B<=2) = 1 - 2*56/1024 = 0.891 < .95, (2,9) covers
    # 1 - 2*P(B<=1) = 1 - 2*11/1024 = 0.97852
    assert (j[1], k[1]) == (2, 9)
    assert level[1] == pytest.approx(1 - 2 * stats.binom.cdf(1, 10, 0.5))
    assert level[1] == pytest.approx(1 - 22 / 1024)
    # n=30: P(B<=9) = 0.02139 <= .025 < P(B<=10) = 0.04937 -> (10, 21)
    assert (j[2], k[2]) == (10, 21)
    assert level[2] == pytest.approx(1 - 2 * stats.binom.cdf(9, 30, 0.5))
    # n=5: even (1,5) covers only 1 - 2/32 = 0.9375
    assert (j[0], k[0], bool(reached[0])) == (1, 5, False)
    assert level[0] == pytest.approx(0.9375)
    assert list(reached[1:]) == [True, True]


def test_median_ci_on_1_to_10():
    r = es.median_ci(np.arange(1.0, 11.0))
    row = r.iloc[0]
    assert (row["median"], row["median_ci_low"], row["median_ci_high"]) == (5.5, 2.0, 9.0)
    assert row["median_ci_level"] == pytest.approx(0.978515625)
    assert (row["rank_low"], row["rank_high"]) == (2, 9)
    assert pd.isna(row["warning"])


def test_n5_warning_text():
    df = pd.DataFrame({"config": ["a"] * 5, "value": [3.0, 1, 2, 5, 4]})
    s = summarize(df, by="config", n_boot=0)
    assert s["warning"].iloc[0] == ("n=5: no order-statistic interval reaches 95 %; "
                                    "widest covers 93.75 %")
    assert (s["median_ci_low"].iloc[0], s["median_ci_high"].iloc[0]) == (1.0, 5.0)
    assert s["median_ci_level"].iloc[0] == pytest.approx(0.9375)
    one = summarize(pd.DataFrame({"value": [2.0]}), n_boot=0)
    assert one["warning"].iloc[0].startswith("n=1: too few values")
    assert np.isnan(one["median_ci_low"].iloc[0])


def test_summarize_equals_scipy():
    rng = np.random.default_rng(7)
    x = np.exp(rng.normal(5, 0.3, 15))
    df = pd.DataFrame({"config": "gp3", "metric": "iops", "unit": "IO/s", "value": x})
    s = summarize(df, by="config", n_boot=2999, seed=11).iloc[0]
    lo, hi = stats.t.interval(0.95, 14, loc=x.mean(), scale=stats.sem(x))
    assert (s["mean_ci_low"], s["mean_ci_high"]) == pytest.approx((lo, hi))
    boot = stats.bootstrap((x,), np.mean, n_resamples=2999, method="BCa",
                           rng=np.random.default_rng([11, 0]))
    assert s["mean_boot_ci_low"] == pytest.approx(boot.confidence_interval.low)
    assert s["mean_boot_ci_high"] == pytest.approx(boot.confidence_interval.high)
    assert s["sd"] == pytest.approx(np.std(x, ddof=1))
    assert s["cv"] == pytest.approx(np.std(x, ddof=1) / x.mean())
    assert s["mad"] == pytest.approx(stats.median_abs_deviation(x, scale="normal"))
    assert s["mad"] == pytest.approx(1.482602218505602 * np.median(np.abs(x - np.median(x))))
    assert s["iqr"] == pytest.approx(stats.iqr(x))
    assert (s["min"], s["max"], s["median"]) == (x.min(), x.max(), np.median(x))
    # IO/s from fixed-work runs: harmonic mean (Hoefler & Belli)
    assert s["average"] == pytest.approx(stats.hmean(x))
    assert s["average_method"].startswith("harmonic")
    assert (s["unit"], s["metric"], s["n"]) == ("IO/s", "iops", 15)


def test_averages_and_nan_exclusion():
    df = pd.DataFrame({"tool": "sysbench", "unit": "B/s", "metric": "bandwidth",
                       "value": [1.0, 2.0, 4.0, np.nan], "flag": [None, None, None, "too_fast"]})
    s = summarize(df, n_boot=0)
    assert (s["n"].iloc[0], s["n_excluded"].iloc[0]) == (3, 1)
    assert s["average"].iloc[0] == pytest.approx(7 / 3)  # sysbench runs are fixed-time
    assert "1 NaN value(s) excluded" in s["warning"].iloc[0]
    g = summarize(df, n_boot=0, average="geometric")
    assert g["average"].iloc[0] == pytest.approx(2.0)  # (1*2*4)^(1/3)
    assert average_method("auto", "s")[0] == "arithmetic"
    assert average_method("auto", "ratio")[0] == "geometric"
    with pytest.raises(ValueError):
        summarize(df, average="median")


def test_within_columns_keep_metrics_apart_and_input_untouched():
    df = pd.DataFrame({"config": ["a", "a", "b", "b"] * 2,
                       "metric": ["iops"] * 4 + ["lat_mean"] * 4,
                       "value": [1.0, 2, 3, 4, 10, 20, 30, 40]})
    before = df.copy()
    s = summarize(df, by="config", n_boot=0)
    assert len(s) == 4
    assert s.set_index(["config", "metric"]).loc[("b", "lat_mean"), "median"] == 35.0
    pd.testing.assert_frame_equal(df, before)
    with pytest.raises(KeyError):
        summarize(df, by="nope")


def test_median_ci_coverage_small_simulation():
    # exact level 0.9785 at n=10; 600 lognormal replications: se ~0.006
    rng = np.random.default_rng(2024)
    hits = 0
    reps = 600
    for _ in range(reps):
        _, lo, hi, _ = median_ci_array(np.exp(rng.normal(0, 0.3, 10)))
        hits += lo <= 1.0 <= hi
    assert 0.955 <= hits / reps <= 0.995


def test_plots_return_axes():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ebsstats.plots.summary import ci_width_plot, distribution_plot, forest_plot

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"config": np.repeat(["gp2", "gp3"], 10), "unit": "B/s",
                       "metric": "bandwidth", "higher_is_better": True,
                       "value": np.exp(rng.normal(18, 0.2, 20))})
    ax = distribution_plot(df)
    assert ax.get_ylabel() == "value [MB/s]"
    from ebsstats.stats.comparison import compare

    ax2 = forest_plot(compare(df, baseline="gp2", n_boot=99))
    assert "ratio of medians to gp2" in ax2.get_xlabel()
    curve = es.repetitions_needed(df, by="config", n_boot=20)
    ax3 = ci_width_plot(curve, hue="config")
    assert len(ax3.lines) >= 2
    plt.close("all")
