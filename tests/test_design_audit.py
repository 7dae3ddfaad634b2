"""Audit fixes in ebsstats.stats.design.schedule: summer time, overlapping rounds, hour cover."""

from __future__ import annotations

import pandas as pd
import pytest

from ebsstats.stats.design import schedule


def _utc(plan: pd.DataFrame) -> list[str]:
    return plan.timestamp.dt.strftime("%m-%d %H:%M").tolist()


def test_round_in_the_skipped_hour_is_shifted_once_and_its_runs_follow():
    # Berlin 2024-03-31: 02:00 CET does not exist (02:00 -> 03:00 CEST = 01:00 UTC). The round
    # moves to 03:00 CEST and its runs follow 10 min apart: 01:00, 01:10, 01:20 UTC.
    p = schedule(["a", "b", "c"], start="2024-03-31", days=1, hours=[2], tz="Europe/Berlin")
    assert _utc(p) == ["03-31 01:00", "03-31 01:10", "03-31 01:20"]
    assert p.local_time.dt.strftime("%H:%M%z").tolist() == ["03:00+0200", "03:10+0200",
                                                             "03:20+0200"]
    assert p.position.tolist() == [0, 1, 2] and p.hour.tolist() == [3, 3, 3]


def test_runs_of_a_round_follow_in_elapsed_time_across_fall_back():
    # Berlin 2024-10-27: round at 01:30 CEST = 23:30 UTC (26th); 4 runs x 20 min in elapsed time:
    # 23:30, 23:50, 00:10, 00:30 UTC = 01:30, 01:50 CEST, then 02:10, 02:30 CEST (still summer
    # time until 01:00 UTC), not 02:10 CET (= 01:10 UTC, an 80-minute jump).
    p = schedule(list("abcd"), start="2024-10-27", days=1, hours=[1.5], run_minutes=20,
                 tz="Europe/Berlin")
    assert _utc(p) == ["10-26 23:30", "10-26 23:50", "10-27 00:10", "10-27 00:30"]
    assert p.local_time.dt.strftime("%H:%M%z").tolist()[2:] == ["02:10+0200", "02:30+0200"]
    # a round at the repeated 02:00 is taken in standard time: 02:00 CET = 01:00 UTC
    p = schedule(["a", "b"], start="2024-10-27", days=1, hours=[2], run_minutes=30,
                 tz="Europe/Berlin")
    assert _utc(p) == ["10-27 01:00", "10-27 01:30"]


def test_round_after_midnight_waits_for_the_previous_round():
    # seed 5, 8 configs x 10 min = 80-minute rounds, 4 a day (every 6 h plus an offset 0-5):
    # day 4 (2024-01-05) has offset 5 -> its last round (19) starts 23:00 and ends 00:20; day 5
    # has offset 0 -> round 20 nominally at 00:00, pushed to 00:20; round 21 stays at 06:00.
    p = schedule([f"c{i}" for i in range(8)], start="2024-01-01", days=14, runs_per_day=4,
                 seed=5, blocks=["x", "y"])
    first = p[p.position == 0].drop_duplicates("round").set_index("round").timestamp
    assert first.loc[19] == pd.Timestamp("2024-01-05 23:00", tz="UTC")
    assert first.loc[20] == pd.Timestamp("2024-01-06 00:20", tz="UTC")
    assert first.loc[21] == pd.Timestamp("2024-01-06 06:00", tz="UTC")
    for _, g in p.groupby("block"):
        gaps = g.timestamp.diff().dropna().dt.total_seconds() / 60
        assert gaps.min() == 10  # no run starts before the previous one on its block has ended
        assert g.timestamp.is_unique


def test_given_hours_too_close_push_and_too_dense_raises():
    # 4 configs x 10 min = 40 min: the 09:30 round waits until 09:00 + 40 min = 09:40
    p = schedule(list("abcd"), start="2024-01-01", days=1, hours=[9, 9.5])
    starts = p[p.position == 0].local_time.dt.strftime("%H:%M").tolist()
    assert starts == ["09:00", "09:40"]
    # 8 configs x 60 min x 4 rounds = 32 h > 24 h: cannot fit
    with pytest.raises(ValueError, match="do not fit"):
        schedule([f"c{i}" for i in range(8)], start="2024-01-01", run_minutes=60)
    # 6 x 60 min x 4 = 24 h exactly: fits, back to back (every 6 h, 1 h apart)
    p = schedule([f"c{i}" for i in range(6)], start="2024-01-01", days=3, run_minutes=60)
    assert (p.timestamp.diff().dropna() >= pd.Timedelta(hours=1)).all()
    with pytest.raises(ValueError, match="hours"):
        schedule(["a"], start="2024-01-01", hours=[])


def test_every_hour_starts_a_round_when_runs_per_day_does_not_divide_24():
    # 5 rounds a day: spacing 24/5 = 4.8 h, offsets 0..ceil(4.8)-1 = 0..4, one per day over 5
    # days. Round i starts at o + 4.8 i: i=0 -> hours 0-4, i=1 (4.8..8.8) -> 4-8,
    # i=2 (9.6..13.6) -> 9-13, i=3 (14.4..18.4) -> 14-18, i=4 (19.2..23.2) -> 19-23.
    p = schedule(["a", "b"], start="2024-01-01", days=5, runs_per_day=5)
    rounds = p[p.position == 0]
    assert sorted(set(rounds.hour)) == list(range(24))
    assert sorted(rounds.groupby("day").hour.min()) == [0, 1, 2, 3, 4]
    day0 = rounds[rounds.day == rounds.loc[rounds.hour == 0, "day"].iloc[0]]
    # offset 0: 00:00, 04:48, 09:36, 14:24, 19:12
    assert day0.local_time.dt.strftime("%H:%M").tolist() == ["00:00", "04:48", "09:36", "14:24",
                                                              "19:12"]
    p = schedule(["a", "b"], start="2024-01-01", days=60, runs_per_day=5)
    assert sorted(set(p.loc[p.position == 0, "hour"])) == list(range(24))
    # 7 a day: spacing 3.43 h, offsets 0..3 -> every hour within 4 days
    p = schedule(["a", "b"], start="2024-01-01", days=4, runs_per_day=7)
    assert sorted(set(p.loc[p.position == 0, "hour"])) == list(range(24))
