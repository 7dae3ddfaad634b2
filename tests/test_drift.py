"""Tests of ebsstats.stats.calendar: time zones, equality with statsmodels/scipy, MDE formula, and a small
simulation of coverage and false positives (the >= 200-seed version: benchmarks/validate_drift.py).
"""

from __future__ import annotations

import warnings

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from scipy import stats

from ebsstats.stats.calendar import drift, drift_test, local_calendar, region_tz

WD = np.log([1.00, 1.01, 1.02, 1.00, 0.99, 1.04, 0.95])
HB = np.log([1.03, 1.02, 1.00, 0.97, 0.98, 1.00])


def campaign(rng, days=28, rpd=6, sigma=0.10, day_sd=0.03, vol_sd=0.05, wd=None, hb=None):
    n = days * rpd
    day = np.repeat(np.arange(days), rpd)
    hour = rng.uniform(0, 24, n)
    ts = pd.Timestamp("2024-01-01", tz="UTC") + pd.to_timedelta(day * 24 + hour, unit="h")
    vol = rng.integers(0, 4, n)
    y = (np.log(1000) + rng.normal(0, sigma, n) + rng.normal(0, day_sd, days)[day]
         + rng.normal(0, vol_sd, 4)[vol])
    if wd is not None:
        y += wd[day % 7]
    if hb is not None:
        y += hb[(hour // 4).astype(int)]
    return pd.DataFrame({"timestamp": ts, "volume": [f"v{v}" for v in vol], "value": np.exp(y)})


# --- time zones ------------------------------------------------------------------------------

def test_monday_0200_utc_is_sunday_evening_in_new_york():
    d = pd.DataFrame({"timestamp": [pd.Timestamp("2024-03-04 02:00", tz="UTC")]})  # Monday
    cal = local_calendar(d, tz="America/New_York")
    assert (cal.weekday.iloc[0], cal.hour.iloc[0]) == (6, 21)  # Sunday 21:00 EST (UTC-5)
    assert local_calendar(d, region="us-east-1").hour.iloc[0] == 21
    # from the frame's region / az column; summer time: UTC-4 (2024-07-01 is a Monday)
    d2 = pd.DataFrame({"timestamp": [pd.Timestamp("2024-07-01 02:00", tz="UTC")] * 2,
                       "region": ["us-east-1", "eu-west-1"]})
    cal2 = local_calendar(d2)
    assert cal2.weekday.tolist() == [6, 0] and cal2.hour.tolist() == [22, 3]  # NY 22h, Dublin 3h
    assert local_calendar(d).hour.iloc[0] == 2  # no zone known: UTC


def test_region_map_and_unknown_region():
    assert region_tz("us-west-2") == "America/Los_Angeles"
    assert region_tz("us-east-1c") == "America/New_York"
    with pytest.raises(ValueError, match="unknown region"):
        region_tz("mars-north-1")


def test_timezone_shifts_the_detected_weekday():
    # runs slow on New York Sundays; in UTC most of those runs fall on Sunday/Monday
    rng = np.random.default_rng(3)
    t = pd.Timestamp("2024-01-01", tz="UTC") + pd.to_timedelta(rng.uniform(0, 28 * 24, 600),
                                                                unit="h")
    ny = t.tz_convert("America/New_York")
    v = 100 * np.where(ny.day_of_week == 6, 0.85, 1.0) * np.exp(rng.normal(0, 0.02, 600))
    df = pd.DataFrame({"timestamp": t, "value": v})
    e = drift(df, region="us-east-1", cov="hc3")
    sun = e[(e.factor == "weekday") & (e.level == "Sun")].iloc[0]
    assert sun.ratio == pytest.approx(0.85 * np.exp(-np.log(0.85) / 7), rel=0.01)
    assert drift_test(df, region="us-east-1", cov="hc3").tz.iloc[0] == "America/New_York"


# --- equality with statsmodels and scipy ------------------------------------------------------

def _with_calendar(df, bins_width=4, tz="UTC"):
    d = df.copy()
    local = d.timestamp.dt.tz_convert(tz)
    d["wd"] = local.dt.day_of_week
    d["hb"] = local.dt.hour // bins_width
    d["date"] = local.dt.strftime("%Y-%m-%d")
    d["ly"] = np.log(d.value)
    return d


def test_hc3_equals_statsmodels_formula():
    df = campaign(np.random.default_rng(1), wd=WD, hb=HB)
    eff = drift(df, block="volume", cov="hc3", hour_bins=6, tz="UTC")
    d = _with_calendar(df)
    res = smf.ols("ly ~ C(wd, Sum) + C(hb, Sum) + C(volume, Sum)", d).fit(cov_type="HC3",
                                                                          use_t=True)
    wdn = [c for c in res.params.index if c.startswith("C(wd")]
    # Monday (first level) = exp(coef); Sunday (last level) = exp(-sum of the 6 coefs)
    mon = eff[(eff.factor == "weekday") & (eff.level == "Mon")].iloc[0]
    assert mon.ratio == pytest.approx(np.exp(res.params[wdn[0]]), rel=1e-10)
    lo, hi = res.conf_int().loc[wdn[0]]
    assert (mon.ratio_ci_low, mon.ratio_ci_high) == pytest.approx((np.exp(lo), np.exp(hi)),
                                                                  rel=1e-10)
    L = np.zeros(len(res.params))
    L[[res.params.index.get_loc(c) for c in wdn]] = -1
    tt = res.t_test(L)
    sun = eff[(eff.factor == "weekday") & (eff.level == "Sun")].iloc[0]
    assert sun.ratio == pytest.approx(np.exp(float(tt.effect[0])), rel=1e-10)
    assert sun.ratio_ci_high == pytest.approx(np.exp(tt.conf_int()[0, 1]), rel=1e-10)
    tests = drift_test(df, block="volume", cov="hc3", hour_bins=6, tz="UTC")
    R = np.zeros((6, len(res.params)))
    for i, c in enumerate(wdn):
        R[i, res.params.index.get_loc(c)] = 1
    w = res.wald_test(R, use_f=True, scalar=True)
    row = tests[tests.factor == "weekday"].iloc[0]
    assert row.statistic == pytest.approx(float(w.statistic), rel=1e-9)
    assert row.p_value == pytest.approx(float(w.pvalue), rel=1e-9)
    assert row.df_denom == res.df_resid


def test_cluster_two_strata_equal_statsmodels():
    df = campaign(np.random.default_rng(2), wd=WD, hb=HB)
    eff = drift(df, block="volume", hour_bins=6, tz="UTC")  # cov="cluster", cluster="day"
    tests = drift_test(df, block="volume", hour_bins=6, tz="UTC")
    d = _with_calendar(df)
    # stratum 1: within days, cluster-robust (CR1) by day
    r1 = smf.ols("ly ~ 0 + C(date) + C(hb, Sum) + C(volume, Sum)", d).fit(
        cov_type="cluster", cov_kwds={"groups": pd.factorize(d.date, sort=True)[0]}, use_t=True)
    hbn = [c for c in r1.params.index if c.startswith("C(hb")]
    h0 = eff[(eff.factor == "hour") & (eff.level == "00-04")].iloc[0]
    assert h0.ratio == pytest.approx(np.exp(r1.params[hbn[0]]), rel=1e-8)
    assert h0.ratio_ci_low == pytest.approx(np.exp(r1.conf_int().loc[hbn[0], 0]), rel=1e-8)
    R = np.zeros((5, len(r1.params)))
    for i, c in enumerate(hbn):
        R[i, r1.params.index.get_loc(c)] = 1
    w = r1.wald_test(R, use_f=True, scalar=True)
    g, q = d.date.nunique(), 5
    row = tests[tests.factor == "hour"].iloc[0]
    assert row.statistic == pytest.approx(float(w.statistic) * (g - q) / (g - 1), rel=1e-8)
    assert row.df_denom == g - q
    # stratum 2: the days' adjusted means regressed on weekday, classical OLS
    dm = pd.DataFrame({"m": [r1.params[f"C(date)[{x}]"] for x in sorted(d.date.unique())],
                       "wd": pd.to_datetime(sorted(d.date.unique())).day_of_week})
    r2 = smf.ols("m ~ C(wd, Sum)", dm).fit()
    wdn = [c for c in r2.params.index if c.startswith("C(wd")]
    mon = eff[(eff.factor == "weekday") & (eff.level == "Mon")].iloc[0]
    assert mon.ratio == pytest.approx(np.exp(r2.params[wdn[0]]), rel=1e-8)
    assert mon.ratio_ci_high == pytest.approx(np.exp(r2.conf_int().loc[wdn[0], 1]), rel=1e-8)
    rw = tests[tests.factor == "weekday"].iloc[0]
    assert rw.statistic == pytest.approx(float(r2.f_test(
        np.eye(len(r2.params))[1:]).statistic), rel=1e-8)
    assert rw.df_denom == g - 7


def test_kruskal_equals_scipy_on_block_adjusted_logs():
    df = campaign(np.random.default_rng(4), wd=WD)
    t = drift_test(df, block="volume", hour_bins=6, tz="UTC")
    d = _with_calendar(df)
    resid = smf.ols("ly ~ C(volume, Sum)", d).fit().resid
    kw = stats.kruskal(*[resid[d.wd == k] for k in range(7)])
    row = t[t.factor == "weekday"].iloc[0]
    assert row.kw_statistic == pytest.approx(kw.statistic, rel=1e-10)
    assert row.kw_p_value == pytest.approx(kw.pvalue, rel=1e-10)


def test_mde_formula_one_way_balanced():
    # weekday only (all runs at 12:00 UTC), 8 runs per weekday, classical OLS
    rng = np.random.default_rng(5)
    days = np.arange(56)
    ts = pd.Timestamp("2024-01-01 12:00", tz="UTC") + pd.to_timedelta(days, unit="D")
    df = pd.DataFrame({"timestamp": ts, "value": np.exp(rng.normal(0, 0.1, 56))})
    t = drift_test(df, cov="nonrobust", tz="UTC")
    # (the hour row says why it has no test; it does not count in the multiplicity)
    assert t.factor.tolist() == ["weekday", "hour"]
    assert t.verdict.iloc[1].startswith("not testable: every run in hour bin 12")
    row = t.iloc[0]
    sigma2 = stats.tvar(np.log(df.value) - np.log(df.value).groupby(ts.day_of_week).transform(
        "mean")) * 55 / 49  # residual variance on n - k = 49 df
    k, m, dfd = 7, 8, 49
    fcrit = stats.f.isf(0.05, k - 1, dfd)
    from scipy.optimize import brentq
    lam = brentq(lambda x: stats.ncf.sf(fcrit, k - 1, dfd, x) - 0.8, 1e-6, 200)
    # one level off by delta: lambda = m * delta^2 * (1 - 1/k) / sigma^2
    delta = np.sqrt(lam * sigma2 / (m * (1 - 1 / k)))
    assert row.mde_pct == pytest.approx(np.expm1(delta) * 100, rel=1e-6)
    assert row.df_denom == dfd and row.p_adjusted == row.p_value


def test_excluded_values_counted_and_inputs_untouched():
    df = campaign(np.random.default_rng(6))
    df.loc[:4, "value"] = [np.nan, 0.0, -1.0, np.inf, np.nan]
    before = df.copy()
    t = drift_test(df, tz="UTC")
    assert (t.n_excluded == 5).all() and (t.n == len(df) - 5).all()
    pd.testing.assert_frame_equal(df, before)


def test_groups_and_holm_adjustment():
    rng = np.random.default_rng(7)
    a, b = campaign(rng, wd=WD * 3), campaign(rng)
    df = pd.concat([a.assign(cfg="a"), b.assign(cfg="b")], ignore_index=True)
    t = drift_test(df, by="cfg", block="volume", hour_bins=6, tz="UTC")
    assert len(t) == 4
    from statsmodels.stats.multitest import multipletests
    assert np.allclose(t.p_adjusted, multipletests(t.p_value, method="holm")[1])
    assert t.loc[(t.cfg == "a") & (t.factor == "weekday"), "verdict"].iloc[0].startswith("drift")
    e = drift(df, by="cfg", block="volume", hour_bins=6, tz="UTC")
    assert set(e.groupby(["cfg", "factor"]).size()) == {6, 7}


# --- small simulation (the benchmark does >= 200 seeds) --------------------------------------

def test_coverage_and_null_rate_small_simulation():
    rng = np.random.default_rng(11)
    wd_true, hb_true = np.exp(WD - WD.mean()), np.exp(HB - HB.mean())
    hits, flagged = [], 0
    for _ in range(25):
        e = drift(campaign(rng, wd=WD, hb=HB), block="volume", hour_bins=6, tz="UTC")
        w = e[e.factor == "weekday"].sort_values("level_index")
        h = e[e.factor == "hour"].sort_values("level_index")
        for s, tr in ((w, wd_true), (h, hb_true)):
            hits += list((s.ratio_ci_low < tr) & (tr < s.ratio_ci_high))
        t = drift_test(campaign(rng), block="volume", hour_bins=6, tz="UTC")
        flagged += bool((t.p_adjusted < 0.05).any())
    # 325 level CIs: nominal 0.95, binomial SD ~0.012 (levels within a seed are correlated)
    assert 0.88 <= np.mean(hits) <= 0.995
    assert flagged <= 4  # 25 null campaigns at alpha 0.05: expected 1.25; P(> 4) < 0.01


def test_plots_return_axes_and_figure():
    from ebsstats.plots.calendar import effect_plot, series_plot, weekday_hour_heatmap

    df = campaign(np.random.default_rng(8), wd=WD)
    ax = weekday_hour_heatmap(df, tz="UTC")
    assert ax.get_ylabel() == "weekday"
    fig = effect_plot(drift(df, tz="UTC"))
    assert len(fig.axes) == 2
    ax2 = series_plot(df, trend=True, changepoints=True)
    assert ax2.get_legend() is not None


# --- on the campaign simulator (benchmarks/validate_drift.py section A: >= 200 seeds) --------

def _sim_rows(seed, weekday=None, hour=None):
    """fio randread-4k IOPS of a simulated 4-week campaign: 4 gp3 volumes x 2 runs a day."""
    from ebsstats.simulate.model import campaign

    drift_ = {k: list(v) for k, v in (("weekday", weekday), ("hour", hour)) if v is not None}
    c = campaign(seed, weeks=4, runs_per_day=2, tools=("fio",), fio_jobs=("randread-4k",),
                 offset_logs=0, drift=drift_ or None,
                 volume_types=[{"type": "gp3", "name": f"gp3-{k}"} for k in "abcd"])
    f = c.frame
    return f[(f.metric == "iops") & (f.stage == "run")], c.truth["effects"]["drift"]


def test_simulator_campaigns_coverage_null_and_mde():
    # read in the zone the simulator's effects follow (Spec.tz, its region's; generator
    # version 2 applied them at UTC hours, and this test read them in UTC)
    from ebsstats.simulate.model import Spec

    wd, hr = np.exp(WD), np.repeat(np.exp(HB), 4)  # hour effect constant in 4-hour bins
    hits, flagged, mdes = [], 0, []
    for seed in range(20):
        rows, truth = _sim_rows(seed, wd, hr)
        assert len(rows) == 224
        e = drift(rows, block="config", hour_bins=6, tz=Spec.tz)
        w, h = e[e.factor == "weekday"], e[e.factor == "hour"]
        tw = w.level.map(truth["weekday"]).astype(float)  # truth: geometric mean 1, as drift
        th = np.array([truth["hour"][int(i)] for i in h.level_index])
        hits += list((w.ratio_ci_low < tw) & (tw < w.ratio_ci_high))
        hits += list((h.ratio_ci_low < th) & (th < h.ratio_ci_high))
        null, _ = _sim_rows(100 + seed)
        t = drift_test(null, block="config", hour_bins=6, tz=Spec.tz)
        flagged += bool((t.p_adjusted < 0.05).any())
        mdes.append(t.loc[t.factor == "weekday", "mde_pct"].iloc[0])
    assert 0.88 <= np.mean(hits) <= 1.0  # 260 level CIs at 95 % (200 seeds: see benchmark)
    assert flagged <= 3  # 20 null campaigns at alpha 0.05: expected 1; P(> 3) < 0.02
    # power at the reported MDE (one weekday off by the median reported MDE): nominal 80 %
    mde = float(np.median(mdes))
    assert 1.5 < mde < 8  # sigma 0.03, 28 days: a few %, not the 13 % of one run a day
    power = 0
    for seed in range(20):
        w = np.ones(7)
        w[seed % 7] = 1 + mde / 100
        rows, _ = _sim_rows(200 + seed, weekday=w)
        t = drift_test(rows, block="config", hour_bins=6, tz=Spec.tz)
        power += bool(t.loc[t.factor == "weekday", "p_adjusted"].iloc[0] < 0.05)
    assert 11 <= power <= 20  # Binomial(20, 0.8): P(< 11) < 0.3 %


# --- one run per day (every day-cluster a singleton: the simulator's default schedule) --------

# the zone of the simulator's days and calendar effects (Spec.tz, its region's): its rows are
# read there (generator version 2 had UTC days, and these tests read them in UTC)
SIM_TZ = "America/New_York"


def _one_run_per_day(seed):
    from ebsstats.simulate.model import campaign_frame

    f = campaign_frame(seed, weeks=4, volume_types=["gp3"], tools=("fio",),
                       fio_jobs=("randread-4k",), offset_logs=0)
    return f[(f.metric == "iops") & (f.stage == "run") & (f.op == "read")]


def test_one_run_per_day_is_classical_ols_and_leverage_one_does_not_crash():
    # seed 10008, 6 hour bins: some bin holds a single run (leverage 1): HC3 is undefined there
    # and statsmodels' wald_test raised ValueError before the fix
    rows = _one_run_per_day(10008)
    assert len(rows) == 28 and rows.timestamp.dt.tz_convert(SIM_TZ).dt.date.nunique() == 28
    t = drift_test(rows, hour_bins=6, tz=SIM_TZ)
    assert t.method.str.contains("one run per cluster").all()
    assert t.p_value.notna().all() and (t.n_clusters == 28).all()
    # = classical OLS of log(value) on sum-coded weekday + 4-hour bin (statsmodels formula)
    d = _with_calendar(rows, tz=SIM_TZ)
    res = smf.ols("ly ~ C(wd, Sum) + C(hb, Sum)", d).fit()
    for fac, pref in (("weekday", "C(wd"), ("hour", "C(hb")):
        names = [c for c in res.params.index if c.startswith(pref)]
        R = np.zeros((len(names), len(res.params)))
        for i, c in enumerate(names):
            R[i, res.params.index.get_loc(c)] = 1
        w = res.f_test(R)
        row = t[t.factor == fac].iloc[0]
        assert row.statistic == pytest.approx(float(w.fvalue), rel=1e-9)
        assert row.p_value == pytest.approx(float(w.pvalue), rel=1e-9)
        assert row.df_denom == res.df_resid == 16
    # explicit HC3 on the same frame: NaN statistics and the reason, not an exception
    h = drift_test(rows, hour_bins=6, tz=SIM_TZ, cov="hc3")
    assert h.statistic.isna().all() and h.p_value.isna().all()
    assert h.verdict.str.contains("leverage 1").all()
    e = drift(rows, hour_bins=6, tz=SIM_TZ, cov="hc3")
    assert e.ratio.notna().all() and e.ratio_ci_low.isna().all()


def test_degenerate_designs_give_nan_with_reason():
    # 8 runs for 7 weekdays + 6 hour bins: more parameters than runs
    # 8 runs on 8 days: six weekdays seen once: weekday not estimable (design check), reason
    rows = _one_run_per_day(10008).iloc[:8]
    t = drift_test(rows, hour_bins=6, tz=SIM_TZ)
    w = t[t.factor == "weekday"].iloc[0]
    assert np.isnan(w.statistic) and np.isnan(w.mde_pct)
    assert w.verdict.startswith("not estimable: each weekday must be seen on at least 2 days")
    # weekday and hour bin confounded (run i: weekday i % 7 at hour 3 (i % 7))
    i = np.arange(14)
    ts = pd.Timestamp("2024-01-01", tz="UTC") + pd.to_timedelta(i * 24 + (i % 7) * 3, unit="h")
    d = pd.DataFrame({"timestamp": ts, "value": np.exp(np.random.default_rng(0).normal(0, .1,
                                                                                       14))})
    t = drift_test(d, hour_bins=8, tz="UTC")
    assert t.p_value.isna().all() and t.verdict.str.contains("confounded").all()


def test_one_run_per_day_null_rate_simulator():
    # 40 null simulator campaigns (the 200-seed figure, benchmarks/validate_drift.py A2: 0.030;
    # the former HC3 fallback flagged 0.095, weekday alone 0.135)
    flagged = 0
    for seed in range(10_000, 10_040):
        t = drift_test(_one_run_per_day(seed), hour_bins="auto", tz=SIM_TZ)
        assert t.p_value.notna().all()
        flagged += bool((t.p_adjusted < 0.05).any())
    assert flagged <= 4  # <= 0.10; Binomial(40, 0.05): P(> 4) = 0.05, HC3 (0.095): P(> 4) = 0.5


def test_effect_plot_without_estimable_factors_says_so():
    from ebsstats.plots.calendar import effect_plot

    empty = pd.DataFrame(columns=["factor", "level", "level_index", "ratio", "ratio_ci_low",
                                  "ratio_ci_high"])
    fig = effect_plot(empty)
    assert "no weekday or hour effect" in fig.axes[0].texts[0].get_text()


def test_a_region_without_a_known_zone_is_read_in_utc_saying_so():
    """A region another cloud or a data centre names (``us-central1``, ``eqiad``) raised
    "unknown region" from drift_test, and the report's drift page with it; its rows are read
    in UTC with a warning, as rows without a region are. An explicit ``region=`` still raises."""
    rng = np.random.default_rng(3)
    t = pd.Timestamp("2024-01-01", tz="UTC") + pd.to_timedelta(rng.uniform(0, 28 * 24, 200),
                                                               unit="h")
    df = pd.DataFrame({"timestamp": t, "value": np.exp(rng.normal(0, 0.05, 200)),
                       "region": "eqiad"})
    with pytest.warns(UserWarning, match=r"no time zone known for region\(s\) \['eqiad'\]"):
        got = drift_test(df)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        utc = drift_test(df.drop(columns="region"))
    pd.testing.assert_frame_equal(got, utc)
    assert (local_calendar(df.drop(columns="region"))["tz"] == "UTC").all()
    with pytest.raises(ValueError, match="unknown region"):
        local_calendar(df, region="eqiad")
