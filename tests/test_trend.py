"""Trend: Theil–Sen and Mann–Kendall equal scipy; STL recovers a daily cycle."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ebsstats.stats.trends import decompose, trend


def test_theil_sen_and_kendall_equal_scipy_on_daily_medians():
    rng = np.random.default_rng(0)
    t = pd.Timestamp("2024-01-01", tz="UTC") + pd.to_timedelta(rng.uniform(0, 30 * 24, 200),
                                                                unit="h")
    days = np.asarray((t - pd.Timestamp("2024-01-01", tz="UTC")) / pd.Timedelta(days=1))
    v = 100 * np.exp(0.005 * days + rng.normal(0, 0.05, 200))
    df = pd.DataFrame({"timestamp": t, "value": v})
    r = trend(df, confidence=0.9).iloc[0]
    ly = np.log(df.value).groupby(df.timestamp.dt.floor("D")).median()
    x = np.asarray((ly.index - ly.index[0]) / pd.Timedelta(days=1))
    ts = stats.theilslopes(ly.to_numpy(), x, alpha=0.9)
    kt = stats.kendalltau(x, ly.to_numpy())
    assert r.ratio_per_day == pytest.approx(np.exp(ts.slope), rel=1e-12)
    assert r.ratio_per_day_ci_low == pytest.approx(np.exp(ts.low_slope), rel=1e-12)
    assert r.ratio_per_day_ci_high == pytest.approx(np.exp(ts.high_slope), rel=1e-12)
    assert r.tau == pytest.approx(kt.statistic) and r.p_value == pytest.approx(kt.pvalue)
    assert r.n == len(ly) and r.n_runs == 200 and r.n_excluded == 0
    assert r.ratio_per_day_ci_low < np.exp(0.005) < r.ratio_per_day_ci_high


def test_raw_runs_groups_and_exclusions():
    t = pd.date_range("2024-01-01", periods=20, freq="D", tz="UTC")
    up = 100 * 1.02 ** np.arange(20)
    df = pd.concat([pd.DataFrame({"timestamp": t, "value": up, "g": "up"}),
                    pd.DataFrame({"timestamp": t, "value": up[::-1], "g": "down"})])
    df.iloc[0, df.columns.get_loc("value")] = -5.0
    r = trend(df, by="g", freq=None).set_index("g")
    assert r.loc["up", "slope_pct_per_day"] == pytest.approx(2.0, rel=1e-9)
    assert r.loc["down", "ratio_per_day"] == pytest.approx(1 / 1.02, rel=1e-9)
    assert r.loc["up", "n_excluded"] == 1 and r.loc["up", "n"] == 19
    assert r.loc["up", "tau"] == 1.0 and (r.p_adjusted >= r.p_value).all()


def test_decompose_recovers_daily_cycle_and_refuses_sparse():
    rng = np.random.default_rng(1)
    t = pd.date_range("2024-01-01", periods=24 * 21, freq="h", tz="UTC")
    season = 0.03 * np.cos(2 * np.pi * (t.hour - 3) / 24)
    v = 500 * np.exp(season + 0.001 * np.arange(len(t)) / 24 + rng.normal(0, 0.005, len(t)))
    out = decompose(pd.DataFrame({"timestamp": t, "value": v}))
    peak = out.groupby(out.time.dt.hour).seasonal.mean()
    truth = 0.03 * np.cos(2 * np.pi * (np.arange(24) - 3) / 24)
    assert np.corrcoef(peak, truth)[0, 1] > 0.95
    assert peak.idxmax() in (2, 3, 4) and peak.max() == pytest.approx(0.03, abs=0.005)
    sparse = pd.DataFrame({"timestamp": t[::5], "value": v[::5]})
    with pytest.raises(ValueError, match="too sparse"):
        decompose(sparse)
