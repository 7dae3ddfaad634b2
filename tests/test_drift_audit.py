"""drift_test on designs an audit built: a factor confounded with a block, blocks constant
within days under the weekday permutation, constant values, configurations pooled."""

import warnings

import numpy as np
import pandas as pd
import pytest

from ebsstats.stats.calendar import drift_test

BASE = pd.Timestamp("2024-01-01", tz="UTC")  # a Monday


def _runs(day, hour, value, **cols):
    ts = BASE + pd.to_timedelta(np.asarray(day) * 24 + np.asarray(hour), unit="h")
    return pd.DataFrame({"timestamp": ts, "value": value, **cols})


def test_a_weekday_confounded_with_a_block_is_not_estimable_and_not_permuted():
    # config A only on Mondays, 10 % faster, no weekday effect: the weekday cannot be told
    # from the config; the permutation test had replaced the NaN p with p = 0.001, "drift"
    day = np.repeat(np.arange(28), 6)
    hour = np.tile([2, 6, 10, 14, 18, 22], 28)
    cfg = np.where(day % 7 == 0, "A", "B")
    v = 1000 * np.where(cfg == "A", 1.1, 1) * np.exp(np.random.default_rng(2).normal(0, 0.02,
                                                                                   day.size))
    r = drift_test(_runs(day, hour, v, config=cfg), tz="UTC", block="config")
    wd = r.set_index("factor").loc["weekday"]
    assert np.isnan(wd["p_value"]) and wd["verdict"].startswith("not estimable")


def test_the_weekday_permutation_holds_blocks_constant_within_days():
    # 14 days of 2 or 8 runs, config B (-10 %) on the weekend and one Wednesday, no weekday
    # effect: the permutation test ignored the config between days (48 % rejections)
    days = 14
    sizes = np.where(np.arange(days) % 3 == 0, 2, 8)
    day = np.repeat(np.arange(days), sizes)
    hour = np.concatenate([np.linspace(1, 22, s).astype(int) for s in sizes])
    wd = np.arange(days) % 7
    cfg = np.where((wd >= 5) | (np.arange(days) == 2), "B", "A")[day]
    rejected = 0
    for rep in range(40):
        rng = np.random.default_rng(rep)
        y = (np.log(1000) + np.where(cfg == "B", np.log(0.9), 0) + rng.normal(0, 0.02, day.size)
             + rng.normal(0, 0.01, days)[day])
        r = drift_test(_runs(day, hour, np.exp(y), config=cfg), tz="UTC", block="config",
                       n_permutations=199)
        row = r.set_index("factor").loc["weekday"]
        assert "permuted between days" in row["method"]
        rejected += row["p_value"] < 0.05
    assert rejected <= 6  # 5 % of 40 is 2; 19 of 40 before


def test_constant_values_are_not_testable():
    # every run at a gp3 cap of 3,000 IOPS: the hour test gave p = 8.6e-7, "drift"
    day = np.repeat(np.arange(28), 6)
    hour = np.tile([2, 6, 10, 14, 18, 22], 28)
    r = drift_test(_runs(day, hour, 3000.0), tz="UTC", n_permutations=0)
    assert len(r) == 1 and r["verdict"].iloc[0].startswith("not testable: every value is the")
    assert np.isnan(r["p_value"].iloc[0])


def test_pooled_configurations_warn():
    day = np.repeat(np.arange(28), 6)
    hour = np.tile([2, 6, 10, 14, 18, 22], 28)
    cfg = np.where(day % 7 == 0, "A", "B")
    v = np.exp(np.random.default_rng(3).normal(0, 0.02, day.size)) * 1000
    with pytest.warns(UserWarning, match="pools the runs of several configurations"):
        drift_test(_runs(day, hour, v, config=cfg), tz="UTC")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        drift_test(_runs(day, hour, v, config=cfg), tz="UTC", by="config")


def _ar(rng, n, phi, sd=0.02):
    e = rng.normal(0, sd * np.sqrt(1 - phi**2), n)
    x = np.empty(n)
    x[0] = rng.normal(0, sd)
    for i in range(1, n):
        x[i] = phi * x[i - 1] + e[i]
    return x


def test_back_to_back_runs_keep_their_order_under_the_hour_randomization():
    # 28 days of 6 back-to-back hourly runs from a random start hour, AR(1) 0.8, no hour
    # effect: free permutations within a day rejected in 32 % of 150 campaigns, rotations
    # along the day's runs in 15 % (9 % at 0.5; 5.3 % at 0); here 60 campaigns
    rejected = 0
    for r in range(60):
        rng = np.random.default_rng([r, 8])
        start = rng.integers(0, 18, 28)
        day = np.repeat(np.arange(28), 6)
        hour = start[day] + np.tile(np.arange(6), 28)
        v = 1000 * np.exp(_ar(rng, day.size, 0.8))
        t = drift_test(_runs(day, hour, v), tz="UTC", n_permutations=199).set_index("factor")
        assert "rotated along each day's runs" in t.loc["hour", "method"]
        rejected += t.loc["hour", "p_value"] < 0.05
    assert rejected <= 13, rejected  # (about 19 of 60 with free permutations)


def test_one_level_factor_is_said_not_dropped():
    """Every run on a Monday: the weekday test is 'not testable' (the row was missing)."""
    rng = np.random.default_rng(0)
    t = (pd.Timestamp("2024-01-01", tz="UTC") + pd.to_timedelta(rng.integers(0, 4, 200) * 7,
                                                                 unit="D")
         + pd.to_timedelta(rng.uniform(0, 24, 200), unit="h"))
    df = pd.DataFrame({"timestamp": t, "value": 1000 * np.exp(rng.normal(0, .03, 200))})
    r = drift_test(df, n_permutations=99).set_index("factor")  # (the hour test's, not used)
    assert r.loc["weekday", "verdict"] == "not testable: every run on Mon"
    assert r.loc["weekday", "levels"] == 1 and np.isnan(r.loc["weekday", "p_value"])


def test_unobserved_levels_are_named():
    """Mon-Fri, runs at 00, 04, ... 16 h: the tests say which days and hour bins were never
    run (the verdict speaks only of those seen)."""
    rng = np.random.default_rng(1)
    t = (pd.bdate_range("2024-01-01", periods=40, tz="UTC").repeat(5)
         + pd.to_timedelta(np.tile(np.arange(5) * 4, 40), unit="h"))
    df = pd.DataFrame({"timestamp": t, "value": 1000 * np.exp(rng.normal(0, .03, 200))})
    r = drift_test(df, hour_bins=12).set_index("factor")
    assert r.loc["weekday", "method"].endswith(
        "no run on Sat, Sun: the test compares the 5 days seen")
    assert r.loc["hour", "method"].endswith(
        "no run in hour(s) 02-04, 06-08, 10-12, 14-16, 18-20, 20-22, 22-24: the test compares"
        " the 5 hour bins seen")
