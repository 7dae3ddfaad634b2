"""first_write's passes: the pass is the unit of replication, the frame's direction is used,
a first pass without a value and a design without an interval say so (an audit's findings)."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ebsstats.stats.firstwrite import first_write, log_ratio_ci
from ebsstats.stats.warmup import snia_windows, steady_state


def _rows(levels, jobs=1, **extra):
    return pd.DataFrame([dict(volume="v1", test="t", op="write", metric="iops", unit="IO/s",
                              job=f"j{j}", value=lv * (1 + 0.01 * j), **{"pass": p}, **extra)
                         for p, lv in enumerate(levels) for j in range(jobs)])


def test_the_rows_of_one_pass_are_one_replicate():
    # 4 jobs a pass: before, 4 first and 12 later "replicates" (coverage 57 %, not 95 %)
    r = first_write(_rows([50, 100, 104, 97], jobs=4), evidence="passes").iloc[0]
    assert (r["n_first"], r["n_later"]) == (1, 3)
    # each pass's 4 jobs are its level times 1.00..1.03: the factor is common to every pass,
    # so the ratio and its interval are those of the levels alone, one value a pass
    assert r["penalty"] == pytest.approx(stats.gmean([100, 104, 97]) / 50)
    ref = log_ratio_ci([50], [100, 104, 97])
    assert (r["penalty_ci_low"], r["penalty_ci_high"]) == pytest.approx(ref[1:])


def test_no_penalty_is_detected_about_alpha_of_the_time_with_several_jobs_a_pass():
    rng = np.random.default_rng(3)
    hits = cover = 0
    for _ in range(120):
        levels = 100 * np.exp(rng.normal(0, 0.05, 4))
        df = _rows(levels, jobs=4)
        df["value"] *= np.exp(rng.normal(0, 0.01, len(df)))
        r = first_write(df, evidence="passes").iloc[0]
        hits += bool(r["detected"])
        cover += r["penalty_ci_low"] <= 1 <= r["penalty_ci_high"]
    assert hits / 120 <= 0.10 and cover / 120 >= 0.88  # (95 % nominal; 57 % before)


def test_the_frames_direction_decides_a_lower_is_better_score():
    df = _rows([20, 10, 10.2, 9.9, 10.1]).assign(metric="score", unit="ms",
                                                higher_is_better=False)
    r = first_write(df, evidence="passes", metrics=["score"]).iloc[0]
    assert r["penalty"] == pytest.approx(20 / stats.gmean([10, 10.2, 9.9, 10.1]))
    assert r["detected"]
    v = np.r_[np.full(30, 20.0), np.full(70, 10.0)]
    s = steady_state(pd.DataFrame({"t": np.arange(100.0), "value": v, "metric": "score",
                                   "unit": "ms", "higher_is_better": False}), by="metric")
    assert bool(s["lower_is_better"].iloc[0]) and s["klass"].iloc[0] == "warmup"


def test_a_first_pass_without_a_value_is_not_replaced_by_the_second():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = first_write(_rows([np.nan, 100, 101, 99]), evidence="passes")
    assert r.empty
    assert "first pass has no positive value: not testable" in r.attrs["reason"]
    assert "one pass only" not in r.attrs["reason"]


def test_one_first_and_one_later_pass_say_why_there_is_no_interval():
    r = first_write(_rows([50, 100]), evidence="passes").iloc[0]
    assert r["penalty"] == pytest.approx(2.0) and np.isnan(r["penalty_ci_low"])
    assert "not testable: 1 first and 1 later pass(es)" in r["method"]


def test_the_snia_limit_itself_passes_at_any_scale():
    # "no more than 20 %": 0.9/1.1 gives 0.2000000000000001 in floating point
    assert snia_windows([0.9, 1.1, 1, 1, 1])["steady"].tolist() == [True]
    assert snia_windows([90, 110, 100, 100, 100])["steady"].tolist() == [True]
    assert snia_windows([0.89, 1.1, 1, 1, 1])["steady"].tolist() == [False]
