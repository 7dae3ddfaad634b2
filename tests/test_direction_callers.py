"""The callers that took a direction around ``metric_direction`` (a review's findings): a group
whose ``higher_is_better`` holds both True and False (a PTS test's TPS and its latency, both
``score``) is ``not testable: rows mix …`` in ``steady_state``, ``first_write`` (passes and
offsets) and ``compare_reported``, the other groups as before; ``weekday_hour_heatmap`` refuses
such a frame unless given ``cmap``, and reverses its map for a latency without the column."""

from __future__ import annotations

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ebsstats.stats.firstwrite import first_write, log_ratio_ci, synthetic_touch_log
from ebsstats.stats.reported import compare_reported
from ebsstats.stats.warmup import segments, steady_state

MIX = "rows mix higher- and lower-is-better metrics; filter to one metric"
MIXED = f"not testable: {MIX}"


# --- weekday_hour_heatmap ---------------------------------------------------------------------

def _hourly(**cols) -> pd.DataFrame:
    t = pd.date_range("2024-01-01", periods=24 * 14, freq="h", tz="UTC")
    v = 100 * np.exp(np.random.default_rng(0).normal(0, 0.05, len(t)))
    return pd.DataFrame({"timestamp": t, "value": v, **cols})


def _red_for_low(ax) -> bool:
    """Whether the heatmap paints values below 1 red (red = worse: higher is better)."""
    r, _, b, _ = ax.collections[0].cmap(0.0)
    return r > b


def test_heatmap_refuses_a_mixed_frame_unless_given_a_colour_map():
    from ebsstats.plots.calendar import weekday_hour_heatmap

    df = _hourly(metric="score")
    df["higher_is_better"] = np.arange(len(df)) % 2 == 0  # TPS and latency rows
    n_figs = len(plt.get_fignums())
    with pytest.raises(ValueError, match=MIX):
        weekday_hour_heatmap(df, tz="UTC")
    assert len(plt.get_fignums()) == n_figs  # (refused before a figure is made)
    ax = weekday_hour_heatmap(df, tz="UTC", cmap="viridis")  # the caller chose: drawn
    assert ax.get_ylabel() == "weekday"
    plt.close("all")


def test_heatmap_colours_one_metric_as_before_and_a_latency_by_its_name():
    from ebsstats.plots.calendar import weekday_hour_heatmap

    # (the column, as before: a rate red when low, a lower-is-better score blue when low)
    assert _red_for_low(weekday_hour_heatmap(_hourly(higher_is_better=True), tz="UTC"))
    assert not _red_for_low(weekday_hour_heatmap(_hourly(higher_is_better=False), tz="UTC"))
    assert _red_for_low(weekday_hour_heatmap(_hourly(metric="iops"), tz="UTC"))
    # a latency without the column is lower-is-better by its name or unit (before: red = low)
    assert not _red_for_low(weekday_hour_heatmap(_hourly(metric="clat_p99"), tz="UTC"))
    assert not _red_for_low(weekday_hour_heatmap(_hourly(metric="x", unit="s"), tz="UTC"))
    plt.close("all")


# --- steady_state / segments ------------------------------------------------------------------

def _series() -> pd.DataFrame:
    """A clean latency series (lower is better: 20 ms for 30 rounds, then 10 ms: warm-up) and
    a PTS ``score`` series whose rows are TPS and latency, alternately."""
    t = np.arange(100.0)
    clean = pd.DataFrame({"t": t, "value": np.where(t < 30, 20.0, 10.0), "metric": "lat_ms",
                          "unit": "ms", "higher_is_better": False})
    mixed = pd.DataFrame({"t": t, "value": np.where(t % 2 == 0, 1000.0, 5.0), "metric": "score",
                          "unit": np.where(t % 2 == 0, "TPS", "ms"),
                          "higher_is_better": t % 2 == 0})
    return pd.concat([clean, mixed], ignore_index=True)


def test_steady_state_leaves_a_mixed_series_untested_and_analyses_the_other():
    r = steady_state(_series(), by="metric").set_index("metric")
    bad = r.loc["score"]
    assert bad["method"] == MIXED
    assert pd.isna(bad["klass"]) and pd.isna(bad["lower_is_better"])
    assert np.isnan(bad["steady_level"]) and bad["n"] == 100
    ok = r.loc["lat_ms"]  # (the clean series: what it gives alone, and the hard facts)
    alone = steady_state(_series().query("metric == 'lat_ms'"), by="metric").iloc[0]
    pd.testing.assert_series_equal(ok, alone.drop("metric"), check_names=False)
    assert ok["klass"] == "warmup" and bool(ok["lower_is_better"])
    assert ok["steady_start"] == 30.0 and ok["steady_level"] == pytest.approx(10.0)
    assert ok["first_level"] == pytest.approx(20.0) and ok["method"].startswith("PELT")
    seg = segments(_series(), by="metric")
    assert set(seg["metric"]) == {"lat_ms"} and seg["level"].tolist() == pytest.approx([20, 10])
    # an explicit direction is the caller's: the mixed series is then analysed
    forced = steady_state(_series(), by="metric", higher_is_better=True).set_index("metric")
    assert forced.loc["score", "method"].startswith("PELT")
    assert not forced.loc["score", "lower_is_better"]


def test_steady_state_plot_of_a_mixed_series_says_why_it_is_not_analysed():
    from ebsstats.plots.warmup import steady_state_plot

    mixed = _series().query("metric == 'score'")
    ax = steady_state_plot(mixed)  # (its title was "nan: nan regime(s)")
    try:
        assert ax.get_title() == MIXED
        assert not ax.lines[1:] and not ax.collections  # (the observations only: no regime
        # level, changepoint or steady band)
    finally:
        plt.close("all")
    ax = steady_state_plot(_series().query("metric == 'lat_ms'"))
    try:
        assert ax.get_title() == "warmup: 2 regime(s)"
    finally:
        plt.close("all")


# --- first_write: passes ----------------------------------------------------------------------

def _passes() -> pd.DataFrame:
    """Test ``a``: a lower-is-better score, 20 ms on the fresh volume, ~10 after; test ``b``:
    TPS and latency rows, both ``score``, in every pass."""
    rows = []
    for p, lat in enumerate([20, 10, 10.2, 9.9, 10.1]):
        rows.append(dict(test="a", value=lat, unit="ms", higher_is_better=False, **{"pass": p}))
        rows.append(dict(test="b", value=100 * (0.5 if p == 0 else 1) + p, unit="TPS",
                         higher_is_better=True, **{"pass": p}))
        rows.append(dict(test="b", value=lat, unit="ms", higher_is_better=False, **{"pass": p}))
    return pd.DataFrame(rows).assign(volume="v1", op="write", metric="score")


def test_first_write_passes_leave_a_mixed_test_untested_and_estimate_the_other():
    r = first_write(_passes(), evidence="passes", metrics=["score"]).set_index("test")
    bad = r.loc["b"]
    assert bad["method"].endswith("; " + MIXED)
    assert bad["method"].startswith("first pass vs later passes of the same volume")
    assert (bad["n_first"], bad["n_later"]) == (1, 4)
    assert bad[["penalty", "penalty_ci_low", "p_value", "p_adjusted"]].isna().all()
    assert pd.isna(bad["detected"])
    ok = r.loc["a"]
    later = [10, 10.2, 9.9, 10.1]
    assert ok["penalty"] == pytest.approx(20 / stats.gmean(later))
    ref = log_ratio_ci(later, [20])
    assert (ok["penalty_ci_low"], ok["penalty_ci_high"]) == pytest.approx(ref[1:])
    # the mixed test is no test: Holm over the one real test leaves its p unchanged
    assert ok["p_adjusted"] == pytest.approx(ok["p_value"]) and bool(ok["detected"])
    assert ok["method"] == ("first pass vs later passes of the same volume (one value a pass: "
                            "the geometric mean of its rows): ratio of geometric means, pooled "
                            "t interval on logs; bytes/time to clear = the first pass "
                            "(upper bound)")


# --- first_write: offsets ---------------------------------------------------------------------

def test_first_write_offsets_leave_a_mixed_volume_untested_and_estimate_the_other():
    clean = synthetic_touch_log(seed=1, factor=5.0).assign(config="clean",
                                                           higher_is_better=False)
    mixed = synthetic_touch_log(seed=2, factor=5.0).assign(config="mixed")
    mixed["higher_is_better"] = np.arange(len(mixed)) % 2 == 0
    r = first_write(pd.concat([clean, mixed], ignore_index=True), evidence="offsets",
                    by="config").set_index("config")
    bad = r.loc["mixed"]
    assert bad["method"] == f"offsets: {MIXED}"
    assert np.isnan(bad["penalty"]) and bad["n_first"] > 0 and bad["n_later"] > 0
    ok = r.loc["clean"]
    alone = first_write(clean, evidence="offsets", by="config").iloc[0]
    assert ok["penalty"] == pytest.approx(alone["penalty"])
    assert ok["penalty_ci_low"] < 5.0 < ok["penalty_ci_high"]
    assert ok["attribution"] == "first_touch"
    # without the column or a metric column, the log's metric (clat) still makes it a latency
    bare = clean.drop(columns=["higher_is_better", "metric", "unit"])
    got = first_write(bare, evidence="offsets", by="config").iloc[0]
    assert got["penalty"] == pytest.approx(alone["penalty"])


# --- compare_reported -------------------------------------------------------------------------

def _table() -> pd.DataFrame:
    """fio: one score a configuration (higher is better); pgbench: TPS and latency rows, both
    ``score``, for each configuration."""
    rows = []
    for cfg, s, e in (("a", 10.0, 0.5), ("b", 12.0, 0.2)):
        rows += [dict(test="fio", config=cfg, metric="score", value=s, higher_is_better=True),
                 dict(test="fio", config=cfg, metric="score_max_deviation", value=e,
                      higher_is_better=True)]
        rows += [dict(test="pgbench", config=cfg, metric="score", value=s * 100,
                      higher_is_better=True),
                 dict(test="pgbench", config=cfg, metric="score", value=100 / s,
                      higher_is_better=False),
                 dict(test="pgbench", config=cfg, metric="score_max_deviation", value=e)]
    return pd.DataFrame(rows)


def test_compare_reported_leaves_a_mixed_test_untested_and_compares_the_other():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (no pandas warning from the untested rows)
        r = compare_reported(_table(), baseline="a").set_index("test")
    bad = r.loc["pgbench"]
    assert bad["verdict"] == MIXED and bad["note"] == MIXED
    assert bad[["ratio", "ratio_bound_low", "ratio_bound_high"]].isna().all()
    assert bad["score"] == 1200.0 and bad["best_p"] == pytest.approx(0.1)
    ok = r.loc["fio"]
    assert ok["verdict"] == "separated, better" and bool(ok["ranges_overlap"]) is False
    assert ok["ratio"] == pytest.approx(1.2)
    assert ok["ratio_bound_low"] == pytest.approx(11.8 / 10.5)
    assert ok["ratio_bound_high"] == pytest.approx(12.2 / 9.5)
    assert ok["note"].startswith("bounds, not a CI; with 3 runs per side")
    # a lower-is-better test labelled one way: 'worse' for the higher score, as before
    low = _table().query("test == 'fio'").assign(higher_is_better=False)
    assert compare_reported(low, baseline="a")["verdict"].tolist() == ["separated, worse"]
