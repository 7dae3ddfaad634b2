"""repetitions_needed: CONFIRM curve, hand-checkable end point, n_needed, extrapolation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ebsstats.stats.planning import repetitions_needed


def _frame(sd, n=30, seed=0, config="a"):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"config": config, "metric": "iops",
                         "value": 1000 * np.exp(rng.normal(0, sd, n))})


def test_curve_end_point_is_the_sample_itself():
    df = _frame(0.1, n=20)
    curve = repetitions_needed(df, n_boot=50)
    assert curve["n"].tolist() == list(range(2, 21))
    # at n = n_obs every subset (without replacement) is the whole sample: order stats (6, 15)
    x = np.sort(df["value"].to_numpy())
    med = np.median(x)
    expect = max(x[14] - med, med - x[5]) / med
    last = curve.iloc[-1]
    assert last["half_width_rel"] == pytest.approx(expect)
    assert last["half_width_rel_ci_low"] == pytest.approx(expect)
    assert not curve["reaches_confidence"].iloc[:4].any()  # n = 2..5 cannot reach 95 %
    assert curve["reaches_confidence"].iloc[4:].all()
    assert not curve["extrapolated"].any()


def test_n_needed_by_variability():
    df = pd.concat([_frame(0.02, config="quiet"), _frame(0.4, config="noisy", seed=1)])
    s = repetitions_needed(df, by="config", precision=0.05, n_boot=100, summary=True)
    s = s.set_index("config")
    assert 6 <= s.loc["quiet", "n_needed"] <= 10  # tiny spread: the first n that reaches 95 %
    # CV 40 %: ±5 % needs a few hundred runs, extrapolated from the fitted model ...
    assert 100 < s.loc["noisy", "n_needed"] < 1000
    assert s.loc["noisy", "note"] == "n_needed extrapolated beyond the observed runs"
    # ... and is not reached when the search stops at the 30 observed runs
    s30 = repetitions_needed(df, by="config", precision=0.05, n_boot=100, summary=True,
                             n_max=30).set_index("config")
    assert pd.isna(s30.loc["noisy", "n_needed"]) and "not reached" in s30.loc["noisy", "note"]
    curve = repetitions_needed(df, by="config", precision=0.05, n_boot=100)
    quiet = curve[curve["config"] == "quiet"]
    assert quiet["half_width_rel"].iloc[-1] < quiet["half_width_rel"].iloc[4]  # narrows with n
    again = repetitions_needed(df, by="config", precision=0.05, n_boot=100)
    pd.testing.assert_frame_equal(curve, again)  # deterministic (seed=0)


def test_extrapolation_flagged():
    df = _frame(0.15, n=12)
    curve = repetitions_needed(df, n_max=40, n_boot=50)
    assert curve["extrapolated"].sum() == 28
    s = repetitions_needed(df, n_max=40, n_boot=50, precision=0.08, summary=True)
    assert s["n_needed"].iloc[0] > 12
    assert s["note"].iloc[0] == "n_needed extrapolated beyond the observed runs"
