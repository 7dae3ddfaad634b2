"""Audit fixes in ebsstats.stats.trends: summer-time changes, daily STL, all-excluded groups."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ebsstats.stats.trends import decompose, trend

BERLIN = "Europe/Berlin"


def _hourly(start: str, days: int, tz: str = BERLIN) -> pd.DataFrame:
    t = pd.date_range(start, periods=24 * days, freq="h", tz="UTC")
    local_hour = t.tz_convert(tz).hour
    return pd.DataFrame({"timestamp": t,
                         "value": 100 * np.exp(0.02 * np.sin(2 * np.pi * local_hour / 24))})


def test_decompose_across_fall_back_keeps_the_repeated_hour_twice():
    # 14 days x 24 = 336 UTC hours from 2024-10-20; Berlin leaves summer time on 2024-10-27 at
    # 03:00 CEST (01:00 UTC), so 02:00-02:59 local occurs twice: 00:00 UTC (+02:00) and
    # 01:00 UTC (+01:00). Every UTC hour is its own cell: 336 cells, none empty.
    out = decompose(_hourly("2024-10-20", 14), tz=BERLIN)
    assert len(out) == 336 and not out.filled.any() and out.time.is_unique
    two = out.time[out.time.dt.strftime("%Y-%m-%d %H") == "2024-10-27 02"]
    assert two.dt.strftime("%z").tolist() == ["+0200", "+0100"]
    assert two.dt.tz_convert("UTC").dt.hour.tolist() == [0, 1]
    # the local day of 2024-10-27 has 25 cells
    assert (out.time.dt.date.astype(str) == "2024-10-27").sum() == 25
    assert out.seasonal_ratio.max() == pytest.approx(np.exp(0.02), abs=0.003)


def test_decompose_across_spring_forward_skips_the_missing_hour():
    # 2024-03-31 02:00 CET does not exist (clocks jump to 03:00 CEST): that local day has 23
    # cells, and the 336 UTC hours from 2024-03-24 still give 336 cells without gaps.
    out = decompose(_hourly("2024-03-24", 14), tz=BERLIN)
    assert len(out) == 336 and not out.filled.any()
    day = out.time[out.time.dt.date.astype(str) == "2024-03-31"]
    assert len(day) == 23 and 2 not in set(day.dt.hour)


def test_trend_hourly_across_fall_back_and_daily_across_a_skipped_midnight():
    r = trend(_hourly("2024-10-20", 14), tz=BERLIN, freq="h").iloc[0]
    assert r.n == 336 and r.n_runs == 336 and pd.isna(r.note)  # one period per UTC hour
    # Sao Paulo 2018-11-04: midnight -03 jumps to 01:00 -02, so that local day starts at 01:00
    # and has 23 hours. 7 local days from 2018-11-01 00:00 -03 (03:00 UTC) = 7 * 24 - 1 = 167 h.
    t = pd.date_range("2018-11-01 03:00", periods=167, freq="h", tz="UTC")
    r = trend(pd.DataFrame({"timestamp": t, "value": 1.0}), tz="America/Sao_Paulo").iloc[0]
    assert r.n == 7 and r.n_runs == 167
    assert str(r.origin) == "2018-11-01 00:00:00-03:00"


def test_decompose_daily_cells_across_a_skipped_midnight():
    # 21 local days from 2018-10-25 00:00 -03 (03:00 UTC) = 21 * 24 - 1 = 503 hours (one 23-hour
    # day); daily cells are the local days, the 2018-11-04 one starting at 01:00 -02.
    t = pd.date_range("2018-10-25 03:00", periods=503, freq="h", tz="UTC")
    out = decompose(pd.DataFrame({"timestamp": t, "value": 1.0 + np.arange(503) / 1e4}),
                    freq="D", tz="America/Sao_Paulo")
    assert len(out) == 21 and not out.filled.any()
    assert "2018-11-04 01:00:00-02:00" in out.time.astype(str).tolist()


def test_decompose_daily_defaults_to_a_weekly_season():
    # Saturdays are 5 % higher: log ratio 0.05 on one day in 7. A weekly (period 7) season
    # centred on zero gives Saturday 0.05 * 6/7 -> exp = 1.0438 and every other day
    # -0.05/7 -> exp = 0.9929.
    t = pd.date_range("2024-01-01", periods=8 * 7, freq="D", tz="UTC")
    v = 100 * np.exp(0.05 * (t.day_of_week == 5))
    out = decompose(pd.DataFrame({"timestamp": t, "value": v}), freq="D")
    sat = out.time.dt.day_of_week == 5
    assert out.seasonal_ratio[sat].to_numpy() == pytest.approx(np.exp(0.05 * 6 / 7), abs=0.002)
    assert out.seasonal_ratio[~sat].to_numpy() == pytest.approx(np.exp(-0.05 / 7), abs=0.002)
    with pytest.raises(ValueError, match="pass period"):
        decompose(pd.DataFrame({"timestamp": t, "value": v}), freq="2D")
    # "2D" cells are anchored at 1970-01-01: 2024-01-01 is day 19723 (odd), so cells run from
    # 2023-12-31 to 2024-02-25 (day 19778): 56 / 2 + 1 = 29 cells
    assert len(decompose(pd.DataFrame({"timestamp": t, "value": v}), freq="2D", period=7)) == 29


def test_trend_keeps_a_group_whose_values_are_all_excluded():
    t = pd.date_range("2024-01-01", periods=10, freq="D", tz="UTC")
    df = pd.concat([pd.DataFrame({"cfg": "a", "timestamp": t, "value": np.linspace(100, 110, 10)}),
                    pd.DataFrame({"cfg": "b", "timestamp": t, "value": 0.0}),
                    pd.DataFrame({"cfg": "c", "timestamp": t[:3], "value": [-1.0, np.nan, 0]})])
    r = trend(df, by="cfg").set_index("cfg")
    assert r.index.tolist() == ["a", "b", "c"]
    # a: 10 daily periods, nothing excluded; only one valid p-value, so p_adjusted = p_value
    assert r.loc["a", "n"] == 10 and r.loc["a", "n_excluded"] == 0 and pd.isna(r.loc["a", "note"])
    assert r.loc["a", "p_adjusted"] == r.loc["a", "p_value"]
    # b: 10 zeros, c: -1, NaN, 0 -> 10 and 3 excluded, no periods, NaN estimates, a reason
    for g, n_excl in (("b", 10), ("c", 3)):
        assert r.loc[g, "n"] == 0 and r.loc[g, "n_runs"] == 0
        assert r.loc[g, "n_excluded"] == n_excl
        assert r.loc[[g], ["ratio_per_day", "p_value", "p_adjusted", "level_start"]].isna().all(
            axis=None)
        assert r.loc[g, "shape"] == "" and pd.isna(r.loc[g, "origin"])
        assert r.loc[g, "note"].startswith(f"all {n_excl} values excluded")
    assert list(r.columns[-3:]) == ["note", "confidence", "method"]


def test_trend_note_for_too_few_periods():
    t = pd.date_range("2024-01-01", periods=2, freq="D", tz="UTC")
    r = trend(pd.DataFrame({"timestamp": t, "value": [1.0, 2.0]})).iloc[0]
    assert r.n == 2 and np.isnan(r.ratio_per_day) and "at least 3" in r.note
