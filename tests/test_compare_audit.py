"""compare on what an audit fed it: tiny groups, float keys, missing keys, text directions,
levels out of range, few pairs."""

import warnings

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.stats._core import direction
from ebsstats.stats.comparison import RATIO_CI_MIN_N, ratio_ci


def _frame(n_a: int, n_b: int, seed: int = 0, **extra) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"config": ["a"] * n_a + ["b"] * n_b,
                         "value": np.r_[rng.normal(100, 3, n_a), rng.normal(120, 3, n_b)],
                         **extra})


def test_no_ratio_ci_below_five_runs_a_side():
    """2 vs 30 runs: the bootstrap interval stating 95 % covered 72 % (600 simulations); it is
    now NaN and the row says why; the ratio itself stays (median 120ish / 100ish)."""
    r = es.compare(_frame(2, 30), baseline="a").iloc[0]
    assert r["ratio"] == pytest.approx(r["median"] / r["median_baseline"])
    assert np.isnan(r["ratio_ci_low"]) and np.isnan(r["ratio_ci_high"])
    assert "no ratio CI: n=30 vs 2" in r["warning"]
    lo, hi = ratio_ci(np.full(RATIO_CI_MIN_N, 1.0) * [1, 1.1, 0.9, 1, 1.05],
                      np.array([2.0, 2.2, 1.8, 2.1, 1.9]))[1:]
    assert lo < 2 < hi  # five a side: an interval again


def test_ratio_ci_coverage_at_five_a_side():
    """The smallest size given an interval covers what it states: 300 log-normal pairs of
    groups of 5 with the same median, percentile bootstrap of 999: at least 92 %."""
    rng = np.random.default_rng(42)
    hits = 0
    for i in range(300):
        x, y = np.exp(rng.normal(0, 0.1, 5)), np.exp(rng.normal(0, 0.1, 5))
        _, lo, hi = ratio_ci(x, y, 0.95, 999, rng=i)
        hits += lo <= 1 <= hi
    assert hits / 300 >= 0.92


def test_baseline_found_by_value():
    df = _frame(10, 10).assign(size_gib=[100.0] * 10 + [200.0] * 10)
    for b in (100, 100.0, np.int64(100)):
        assert es.compare(df, by="size_gib", baseline=b)["size_gib"].tolist() == [200.0]
    ints = df.assign(size_gib=df["size_gib"].astype(int))
    assert es.compare(ints, by="size_gib", baseline=100.0)["size_gib"].tolist() == [200]


def test_rows_without_a_group_are_left_out_with_a_warning():
    df = _frame(10, 10)
    df.loc[0, "config"] = None  # the first row: the default baseline is the next row's
    df.loc[15, "config"] = None
    with pytest.warns(UserWarning, match=r"2 row\(s\) without a value in config left out"):
        r = es.compare(df)
    assert r["config"].tolist() == ["b"] and r["n_baseline"].iloc[0] == 9
    assert r["n"].iloc[0] == 9
    # one comparison: Holm leaves its p as it is (a None group made it a family of two)
    assert r["p_adjusted"].iloc[0] == r["p_value"].iloc[0]


@pytest.mark.parametrize("kw", [{"confidence": 95}, {"confidence": 0}, {"confidence": 1.5},
                                {"alpha": 5}, {"alpha": 0}])
def test_levels_outside_zero_one_are_refused(kw):
    name = next(iter(kw))
    with pytest.raises(ValueError, match=f"{name} must be in \\(0, 1\\)"):
        es.compare(_frame(5, 5), baseline="a", **kw)


def test_text_direction_read_back_from_csv():
    """A latency 20 % higher is worse whether higher_is_better is False or its text "False"
    (bool("False") is True: it was called better)."""
    df = _frame(10, 10).assign(metric="clat_mean")
    for hib in (False, "False", "false", "0"):
        got = es.compare(df.assign(higher_is_better=hib), baseline="a")["verdict"].tolist()
        assert got == ["worse"], hib
    assert direction(pd.DataFrame({"higher_is_better": ["True", "True"]})) is True
    with pytest.raises(ValueError, match="expected True or False"):
        direction(pd.DataFrame({"higher_is_better": ["maybe"]}))


@pytest.mark.parametrize(("pairs", "level"), [(3, "75 %"), (4, "87.5 %"), (5, "93.75 %")])
def test_paired_ratio_ci_states_its_level(pairs, level):
    """Up to 5 pairs the order-statistic interval is the extreme pair ratios, of exact level
    1 - 2 / 2^n: 0.75, 0.875, 0.9375."""
    rng = np.random.default_rng(pairs)
    base = rng.normal(100, 5, pairs)
    df = pd.DataFrame({"config": ["a"] * pairs + ["b"] * pairs,
                       "volume": [f"v{i}" for i in range(pairs)] * 2,
                       "value": np.r_[base, base * 1.05 * np.exp(rng.normal(0, .01, pairs))]})
    r = es.compare(df, baseline="a", paired="volume").iloc[0]
    ratios = np.sort(df["value"].to_numpy()[pairs:] / df["value"].to_numpy()[:pairs])
    assert (r["ratio_ci_low"], r["ratio_ci_high"]) == pytest.approx((ratios[0], ratios[-1]))
    assert f"the ratio CI (the extreme pair ratios) covers {level}, not 95 %" in r["warning"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        six = es.compare(pd.concat([df, df.assign(volume=df["volume"] + "x")]), baseline="a",
                         paired="volume").iloc[0]
    assert pd.isna(six["warning"]) or "covers" not in six["warning"]  # 6+ pairs: >= 96.9 %
