"""One wall-clock period rule (:func:`ebsstats.stats._core.period_starts` and
:func:`~ebsstats.stats._core.period_grid`) for trend, decompose and changepoints_frame: the
periods each caller cuts across a change of summer time are the same."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ebsstats.stats._core import period_grid, period_starts
from ebsstats.stats.changepoint import changepoints_frame
from ebsstats.stats.trends import decompose, trend

#: (zone, a UTC time a day before a change of summer time)
CHANGES = [("Europe/Berlin", "2024-03-30"),      # 02:00 CET -> 03:00 CEST: a skipped hour
           ("Europe/Berlin", "2024-10-26"),      # 03:00 CEST -> 02:00 CET: a repeated hour
           ("America/New_York", "2024-03-09"),   # 02:00 EST -> 03:00 EDT
           ("America/New_York", "2024-11-02"),   # 02:00 EDT -> 01:00 EST
           ("America/Sao_Paulo", "2018-11-03"),  # midnight skipped (00:00 -> 01:00)
           ("America/Havana", "2024-11-02")]     # midnight's hour repeated (01:00 -> 00:00)


def _local(start: str, tz: str, days: int = 3, step: str = "10min") -> pd.Series:
    t = pd.Series(pd.date_range(start, periods=int(pd.Timedelta(days=days) / pd.Timedelta(step)),
                                freq=step, tz="UTC"))
    return t.dt.tz_convert(tz)


@pytest.mark.parametrize(("tz", "start"), CHANGES)
@pytest.mark.parametrize("freq", ["30min", "h", "2h", "D"])
def test_every_period_start_is_on_the_grid_and_every_grid_start_has_times(tz, start, freq):
    t = _local(start, tz)
    starts = period_starts(t, freq, tz)
    grid = period_grid(pd.DatetimeIndex(starts), freq, tz)
    assert grid.is_unique and grid.is_monotonic_increasing
    assert set(starts) == set(grid)  # (times every 10 min fill every period)
    assert (starts <= t).all() and starts.is_monotonic_increasing
    # each time lies before the next period's start
    nxt = pd.Series(grid[1:], index=grid[:-1])
    later = starts.map(nxt)
    assert (t[later.notna()] < later[later.notna()]).all()


def test_the_repeated_hour_is_two_periods_and_the_skipped_hour_none():
    fall = period_grid(pd.DatetimeIndex(period_starts(_local("2024-11-02", "America/New_York"),
                                                      "h", "America/New_York")),
                       "h", "America/New_York")
    day = fall[fall.strftime("%Y-%m-%d") == "2024-11-03"]
    assert len(day) == 25 and day.strftime("%H%z")[1:3].tolist() == ["01-0400", "01-0500"]
    spring = period_grid(pd.DatetimeIndex(period_starts(_local("2024-03-30", "Europe/Berlin"),
                                                        "h", "Europe/Berlin")),
                         "h", "Europe/Berlin")
    day = spring[spring.strftime("%Y-%m-%d") == "2024-03-31"]
    assert len(day) == 23 and "02" not in day.strftime("%H").tolist()


def test_a_day_whose_midnight_repeats_is_one_day_and_its_first_hour_two_periods():
    """Havana, 2024-11-03: 01:00 CDT -> 00:00 CST. The day is one period of 25 hours from the
    first midnight (a later occurrence starts a period of its own only where the clock went
    back by a period or more); its repeated 00:00 hour is two hourly periods."""
    t = _local("2024-11-02", "America/Havana")
    days = period_starts(t, "D", "America/Havana")
    on_3rd = days[t.dt.strftime("%Y-%m-%d") == "2024-11-03"]
    assert on_3rd.nunique() == 1 and on_3rd.iloc[0].strftime("%H:%M%z") == "00:00-0400"
    grid = period_grid(pd.DatetimeIndex(days), "D", "America/Havana")
    assert (grid[1:] - grid[:-1]).max() == pd.Timedelta(hours=25)
    hours = period_grid(pd.DatetimeIndex(period_starts(t, "h", "America/Havana")), "h",
                        "America/Havana")
    first = hours[hours.strftime("%Y-%m-%d %H") == "2024-11-03 00"]
    assert first.strftime("%H:%M%z").tolist() == ["00:00-0400", "00:00-0500"]


@pytest.mark.parametrize(("tz", "start"), CHANGES[:4])
@pytest.mark.parametrize("freq", ["h", "2h"])
def test_trend_decompose_and_changepoints_cut_the_same_periods(tz, start, freq):
    t = _local(start, tz, days=6)
    v = 100 * np.exp(np.random.default_rng(0).normal(0, 0.01, t.size))
    df = pd.DataFrame({"timestamp": t.dt.tz_convert("UTC"), "value": v})
    cells = pd.DatetimeIndex(period_starts(t, freq, tz).unique())
    dec = decompose(df, freq=freq, tz=tz, period=24 // int(freq.rstrip("h") or 1))
    assert not dec["filled"].any()
    assert pd.DatetimeIndex(dec["time"]).equals(cells)
    assert trend(df, freq=freq, tz=tz).iloc[0]["n"] == len(cells)
    cp = changepoints_frame(df, freq=freq, tz=tz, n_boot=0)
    assert cp["n_periods"].sum() == len(cells)
    assert cp["start_time"].iloc[0] == cells[0] and cp["end_time"].iloc[-1] == cells[-1]
