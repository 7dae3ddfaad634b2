"""RMIT schedule: every config in every round, balanced over weekdays, hours and positions."""

from __future__ import annotations

import pandas as pd
import pytest

from ebsstats.stats.design import balance, schedule


def test_rounds_contain_every_config_once_in_random_order():
    plan = schedule(["gp2", "gp3", "io1", "st1"], start="2024-01-01", days=14, runs_per_day=4)
    assert len(plan) == 14 * 4 * 4
    assert (plan.groupby("round").config.nunique() == 4).all()
    orders = plan.groupby("round").config.agg(tuple)
    assert orders.nunique() > 10  # randomized, not a fixed rotation
    assert (balance(plan, "weekday") == 8).all().all()       # 2 weeks x 4 rounds/day
    assert balance(plan, "hour").nunique().max() == 1         # same count for each config
    assert sorted(plan.hour.unique()) == list(range(24))      # 6 days of rotating offsets cover 24 h
    assert balance(plan, "position").nunique().max() == 1     # Latin squares: 14 per position
    assert plan.trial.tolist() == list(range(len(plan)))
    assert plan.timestamp.is_monotonic_increasing


def test_reproducible_and_seed_dependent():
    a = schedule(["a", "b", "c"], start="2024-01-01", days=3, seed=1)
    b = schedule(["a", "b", "c"], start="2024-01-01", days=3, seed=1)
    c = schedule(["a", "b", "c"], start="2024-01-01", days=3, seed=2)
    pd.testing.assert_frame_equal(a, b)
    assert not a.config.equals(c.config)


def test_local_hours_timezone_and_csv(tmp_path):
    plan = schedule(["a", "b"], start="2024-07-01", days=2, hours=[9, 21], tz="Europe/Dublin",
                    run_minutes=30, blocks=["i-1", "i-2"], out=tmp_path / "plan.csv")
    first = plan.iloc[0]
    assert first.local_time.hour == 9 and first.timestamp.hour == 8  # IST = UTC+1 in July
    assert plan[plan.position == 1].local_time.dt.minute.eq(30).all()
    assert set(plan.block) == {"i-1", "i-2"} and len(plan) == 2 * 2 * 2 * 2
    back = pd.read_csv(tmp_path / "plan.csv")
    assert list(back.columns) == list(plan.columns) and len(back) == len(plan)
    assert pd.to_datetime(back.timestamp, utc=True).tolist() == plan.timestamp.tolist()


def test_bad_input():
    with pytest.raises(ValueError):
        schedule([], start="2024-01-01")
    with pytest.raises(ValueError):
        schedule(["a", "a"], start="2024-01-01")
