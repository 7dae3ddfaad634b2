"""Audit fixes of ebsstats.stats.changepoint: constant series have no changepoint; periods cut
in a time zone across changes of summer time. Expected numbers are computed by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ebsstats.stats._core import period_starts
from ebsstats.stats.changepoint import _robust_sigma, changepoints, changepoints_frame


@pytest.mark.parametrize("c", [np.log(100.0), 7.3, 0.1, 100.0, -3.7e6])
@pytest.mark.parametrize("model", ["normal_mean", "normal_meanvar"])
def test_constant_series_has_no_changepoint(c, model):
    # np.full(20, 7.3).std() is 1.8e-15 (rounding of the mean), not 0: the series is constant
    seg = changepoints(np.full(20, c), model=model)
    assert seg["start"].tolist() == [0] and seg["n"].tolist() == [20]
    assert seg["mean"].iloc[0] == pytest.approx(c)
    assert seg["sd"].iloc[0] == pytest.approx(0.0, abs=1e-12 * max(1.0, abs(c)))


def test_robust_sigma_ignores_rounding_noise():
    # constant: no noise to estimate -> the neutral 1.0
    assert _robust_sigma(np.full(20, 7.3)) == 1.0
    # a noiseless ramp 7.3 + 0.1 k: its differences are all 0.1, their SD 6e-16 is rounding;
    # the fallback is the SD of the series, 0.1 x sqrt((20^2 - 1) / 12) = 0.57663
    x = 7.3 + 0.1 * np.arange(20)
    assert _robust_sigma(x) == pytest.approx(0.1 * np.sqrt(399 / 12))
    # a noiseless step is still found: 10 x 7.3 then 10 x 8.1
    seg = changepoints(np.r_[np.full(10, 7.3), np.full(10, 8.1)])
    assert seg["start"].tolist() == [0, 10]


def test_changepoints_frame_constant_days():
    t = pd.date_range("2024-01-01", periods=20, freq="D", tz="UTC")
    r = changepoints_frame(pd.DataFrame({"timestamp": t, "value": 100.0}), n_boot=50)
    # one segment over the 20 days at the level 100, no change, nothing to bootstrap
    assert len(r) == 1
    assert r["n_periods"].iloc[0] == 20 and r["level"].iloc[0] == pytest.approx(100.0)
    assert np.isnan(r["detected_share"].iloc[0])


def test_hourly_periods_across_new_york_fall_back_stay_distinct():
    # 2024-11-03 06:00 UTC summer time ends in New York: 01:00 EDT (05:00 UTC) and 01:00 EST
    # (06:00 UTC) are two hours. 12 hours from 23:00 UTC, two samples per hour -> 12 periods,
    # 24 observations; the level doubles from 06:00 UTC (the second 01:00), period 7 of 12.
    t = pd.date_range("2024-11-02 23:00", periods=24, freq="30min", tz="UTC")
    v = np.where(t >= pd.Timestamp("2024-11-03 06:00", tz="UTC"), 200.0, 100.0)
    r = changepoints_frame(pd.DataFrame({"timestamp": t, "value": v}), freq="h",
                           tz="America/New_York", n_boot=20)
    assert r["n_periods"].tolist() == [7, 5] and r["n"].tolist() == [14, 10]
    assert str(r["start_time"].iloc[0]) == "2024-11-02 19:00:00-04:00"
    assert str(r["end_time"].iloc[0]) == "2024-11-03 01:00:00-04:00"   # the first 01:00
    assert str(r["start_time"].iloc[1]) == "2024-11-03 01:00:00-05:00"  # the second 01:00
    assert r["step_ratio"].iloc[1] == pytest.approx(2.0)
    # noiseless: every residual-bootstrap series is the fit itself, the change is always found
    assert r["detected_share"].iloc[1] == 1.0


def test_daily_periods_across_sao_paulo_missing_midnight():
    # 2018-11-04 00:00 did not exist in Sao Paulo (clocks went to 01:00, -02:00). Samples every
    # 12 h from 2018-11-02 12:00 UTC: local 11-02 09:00 and 21:00, 11-03 09:00 and 21:00 (-03),
    # 11-04 10:00 and 22:00 (-02) -> three local days of 2 samples; the third starts at 01:00.
    t = pd.date_range("2018-11-02 12:00", periods=6, freq="12h", tz="UTC")
    r = changepoints_frame(pd.DataFrame({"timestamp": t, "value": 100.0 + np.arange(6)}),
                           tz="America/Sao_Paulo", n_boot=0)
    assert r["n_periods"].sum() == 3 and r["n"].sum() == 6
    assert str(r["start_time"].iloc[0]) == "2018-11-02 00:00:00-03:00"
    assert str(r["end_time"].iloc[-1]) == "2018-11-04 01:00:00-02:00"


def test_period_starts_spring_forward_and_utc():
    # New York 2024-03-10 02:00 EST -> 03:00 EDT: hourly periods skip 02:00; days from local
    # midnight (the 10th is 23 hours long)
    t = pd.Series(pd.date_range("2024-03-10 05:30", periods=3, freq="h", tz="UTC"))
    local = t.dt.tz_convert("America/New_York")
    assert period_starts(local, "h", "America/New_York").astype(str).tolist() == [
        "2024-03-10 00:00:00-05:00", "2024-03-10 01:00:00-05:00", "2024-03-10 03:00:00-04:00"]
    assert period_starts(local, "D", "America/New_York").astype(str).unique().tolist() == [
        "2024-03-10 00:00:00-05:00"]
    # without a zone: UTC floors
    assert period_starts(t, "D", None).astype(str).unique().tolist() == [
        "2024-03-10 00:00:00+00:00"]
