"""split_by_time: each group's own last fraction of its time span is "new" (page 07), so
configurations that ran at different times each keep a history."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ebsstats as es

DAY = pd.Timedelta(days=1)


def _campaign() -> pd.DataFrame:
    """Config a ran on days 0-11, config b on days 20-31 (one run a day, iops and lat_mean)."""
    t0 = pd.Timestamp("2024-03-01", tz="UTC")
    rows = [{"config": c, "test": "randread", "op": "read", "metric": m,
             "timestamp": t0 + (start + d) * DAY, "value": 1000.0 + d}
            for c, start in (("a", 0), ("b", 20)) for d in range(12)
            for m in ("iops", "lat_mean")]
    return pd.DataFrame(rows)


def test_each_group_cut_on_its_own_span():
    df = _campaign()
    history, new = es.split_by_time(df, 0.2)
    # each group's span is 11 days: the cut is at day 8.8 of it, so days 9, 10 and 11 are new
    for c, start in (("a", 0), ("b", 20)):
        days = ((new.loc[new["config"] == c, "timestamp"] - pd.Timestamp(
            "2024-03-01", tz="UTC")) / DAY).astype(int)
        assert sorted(set(days)) == [start + 9, start + 10, start + 11]
    assert len(new) == 3 * 2 * 2 and len(history) == len(df) - len(new)
    assert history.index.intersection(new.index).empty
    # one cut of the whole 31-day span (the page's old rule) left config a nothing new
    cut = df["timestamp"].max() - (df["timestamp"].max() - df["timestamp"].min()) * 0.2
    assert (df.loc[df["timestamp"] >= cut, "config"] == "b").all()


def test_whole_campaign_cut_with_by_none_and_no_within():
    df = _campaign()
    history, new = es.split_by_time(df, 0.2, by=None, within=None)
    assert set(new["config"]) == {"b"}
    assert new["timestamp"].min() >= df["timestamp"].max() - 0.2 * 31 * DAY


def test_rows_without_time_are_in_neither_and_regressions_runs():
    df = _campaign()
    df.loc[0, "timestamp"] = pd.NaT
    history, new = es.split_by_time(df, 0.2)
    assert 0 not in history.index and 0 not in new.index
    assert len(history) + len(new) == len(df) - 1
    out = es.regressions(history[history["metric"] == "iops"], new[new["metric"] == "iops"])
    assert sorted(out["config"]) == ["a", "b"]
    assert (out["n_new"] == 3).all() and sorted(out["n_history"]) == [8, 9]
    assert not out["verdict"].astype(str).str.startswith("not testable").any()


@pytest.mark.parametrize("bad", [0, 1, -0.1, 1.5, np.nan])
def test_fraction_checked(bad):
    with pytest.raises(ValueError, match="new_fraction"):
        es.split_by_time(_campaign(), bad)
