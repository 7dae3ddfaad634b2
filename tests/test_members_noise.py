"""Slow members under heavy-tailed noise (Student t3 on the log scale, not the simulator's
normal model): persistence from the member's own ratio interval, practical floor, heavy-tail
calibration, two-member sets, refusals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ebsstats.stats import members as mb

T0 = pd.Timestamp("2026-03-02", tz="UTC")


def t3_raid(seed=0, members=4, days=14, runs=3, slow=None, factor=0.7, scale=0.10, sets=1):
    rng = np.random.default_rng(seed)
    rows = []
    for s in range(sets):
        for d in range(days):
            for r in range(runs):
                for m in range(members):
                    f = factor if m == slow else 1.0
                    rows.append({"raid_set": f"md{s}", "volume": f"v{m}", "metric": "iops",
                                 "timestamp": T0 + pd.Timedelta(days=d, hours=8 * r),
                                 "value": 1000 * f * np.exp(scale * rng.standard_t(3))})
    return pd.DataFrame(rows)


def test_persistently_slow_member_is_persistent_even_unflagged():
    # seed 2: a 30 % slow member under t3 noise; the one-pass baseline learns its level and
    # flags it in no window, so a share-of-flags rule alone calls it "ok"
    res = mb.slow_volumes(t3_raid(seed=2, slow=2))
    s = mb.slow_summary(res).set_index("volume")
    assert s.loc["v2", "ratio_ci_high"] < 0.9
    assert s.loc["v2", "status"] == "persistent" and s.loc["v2", "persistent_by_ci"]
    assert (s.drop(index="v2")["status"] == "ok").all()


def test_healthy_members_under_t3_flag_near_nominal():
    # 20 healthy 4-member sets x 14 days: the MAD-scaled z > 3.5 flags ~0.7 % of member-windows
    # (30x nominal) under t3; the t-calibrated z with the 10 % floor flags <= 0.2 %
    res = mb.slow_volumes(t3_raid(seed=7, sets=20))
    assert len(res) == 20 * 14 * 4
    assert res["flag"].mean() <= 0.002
    assert 2 < res["tail_df"].iloc[0] < 10          # the fitted tail is heavy


def test_practical_floor_keeps_a_four_percent_member():
    rng = np.random.default_rng(2)
    rows = [{"volume": f"v{m}", "raid_set": "md0", "timestamp": T0 + pd.Timedelta(days=d),
             "value": 1000 * (0.96 if m == 0 else 1.0) * np.exp(rng.normal(0, 0.002))}
            for d in range(10) for m in range(4)]
    res = mb.slow_volumes(pd.DataFrame(rows), baseline=False)
    assert res["z"].min() < -3.5                      # statistically it stands out ...
    assert not res["flag"].any()                      # ... but 4 % is below the 10 % floor
    assert mb.slow_volumes(pd.DataFrame(rows), baseline=False, floor=0)["flag"].sum() == 10


def test_two_member_set_says_which_is_slower():
    res = mb.slow_volumes(t3_raid(seed=3, members=2, slow=1))
    assert res["pairwise"].all() and res["z"].isna().all() and not res["flag"].any()
    assert res.loc[res["volume"] == "v1", "ratio"].median() == pytest.approx(0.7, abs=0.05)
    s = mb.slow_summary(res).set_index("volume")
    assert s.loc["v1", "status"] == "slower" and s.loc["v0", "status"] == "ok"
    assert "not whether it is an outlier" in s.loc["v1", "note"]


def test_infinite_values_are_refused():
    df = t3_raid(seed=0, days=3)
    df.loc[5, "value"] = np.inf
    with pytest.raises(ValueError, match="infinite value"):
        mb.slow_volumes(df)
    with pytest.raises(ValueError, match="infinite value"):
        mb.fleet_outliers(df, fixed=())


def test_fleet_outliers_refuses_one_run_per_member():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"volume": [f"v{i}" for i in range(60)], "metric": "iops",
                       "value": 1000 * np.exp(0.1 * rng.standard_t(3, 60))})
    with pytest.raises(ValueError, match="one run per"):
        mb.fleet_outliers(df, fixed=())
