"""compare: p-values equal scipy/statsmodels, HL/Moses intervals, verdicts, paired, A/A, tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from ebsstats.app.tables import compare_table, summary_table
from ebsstats.stats.comparison import (
    cliffs_delta,
    compare,
    hodges_lehmann,
    hodges_lehmann_paired,
    ratio_ci,
    signed_rank_null_cdf,
    u_null_cdf,
)
from ebsstats.stats.summary import summarize


def _two(x, y, **extra):
    return pd.DataFrame({"config": ["base"] * len(x) + ["new"] * len(y),
                         "value": np.r_[x, y], **extra})


def test_mannwhitney_p_and_effects_equal_scipy():
    rng = np.random.default_rng(1)
    x, y = rng.normal(100, 5, 9), rng.normal(106, 5, 11)
    r = compare(_two(x, y), baseline="base", n_boot=0).iloc[0]
    assert r["p_value"] == pytest.approx(stats.mannwhitneyu(y, x).pvalue)
    u = stats.mannwhitneyu(y, x).statistic
    assert r["cles"] == pytest.approx(u / (9 * 11))  # no ties: CLES = U / mn
    assert r["cliffs_delta"] == pytest.approx(2 * u / 99 - 1)
    assert r["ratio"] == pytest.approx(np.median(y) / np.median(x))
    assert r["change_pct"] == pytest.approx(100 * (np.median(y) / np.median(x) - 1))
    assert r["shift"] == pytest.approx(np.median(np.subtract.outer(y, x)))
    assert (r["n"], r["n_baseline"]) == (11, 9)


def test_exact_null_distributions_equal_scipy():
    rng = np.random.default_rng(3)
    for m, n in [(4, 6), (7, 9), (10, 10)]:
        x, y = rng.normal(0, 1, m), rng.normal(0.4, 1, n)
        res = stats.mannwhitneyu(y, x, method="exact", alternative="less")
        assert u_null_cdf(m, n)[int(res.statistic)] == pytest.approx(res.pvalue)
    d = rng.normal(0.3, 1, 11)
    w = stats.wilcoxon(d, method="exact", alternative="less")
    assert signed_rank_null_cdf(11)[int(w.statistic)] == pytest.approx(w.pvalue)


def test_moses_interval_hand_computed():
    # m=n=10: P(U <= 23) = 0.0216 <= .025 < P(U <= 24), so C = 24 and the interval is the
    # 24th smallest and 24th largest of the 100 differences, level 1 - 2 P(U <= 23)
    x, y = np.arange(10.0), np.arange(10.0) * 1.01 + 3.5  # no ties: exact distribution
    shift, lo, hi, level = hodges_lehmann(x, y)
    d = np.sort(np.subtract.outer(y, x).ravel())
    cdf = u_null_cdf(10, 10)
    assert cdf[23] <= 0.025 < cdf[24]
    assert (lo, hi) == (d[23], d[100 - 24])
    assert level == pytest.approx(1 - 2 * cdf[23])
    assert shift == pytest.approx(np.median(d))
    # paired: Walsh averages of d = 1..4 -> median 2.5
    assert hodges_lehmann_paired(np.array([1.0, 2, 3, 4]))[0] == 2.5
    assert cliffs_delta([1.0, 3], [2.0, 3]) == 0.25


def test_holm_and_bh_equal_statsmodels_and_within_cells():
    rng = np.random.default_rng(5)
    rows = []
    for metric, hib in [("iops", True), ("lat_mean", False)]:
        for i, c in enumerate(["a", "b", "c", "d"]):
            for v in np.exp(rng.normal(0.1 * i, 0.2, 8)):
                rows.append({"config": c, "metric": metric, "higher_is_better": hib, "value": v})
    df = pd.DataFrame(rows)
    holm = compare(df, baseline="a", n_boot=0)
    assert len(holm) == 6 and set(holm["metric"]) == {"iops", "lat_mean"}
    assert np.allclose(holm["p_adjusted"], multipletests(holm["p_value"], 0.05, "holm")[1])
    bh = compare(df, baseline="a", n_boot=0, padjust="fdr_bh")
    assert np.allclose(bh["p_adjusted"], multipletests(bh["p_value"], 0.05, "fdr_bh")[1])
    with pytest.raises(ValueError):
        compare(df, baseline="zzz")


def test_verdict_respects_direction():
    rng = np.random.default_rng(2)
    x, y = rng.normal(10, 0.5, 12), rng.normal(8, 0.5, 12)  # new is lower
    lat = compare(_two(x, y, higher_is_better=False), baseline="base", n_boot=0)
    assert lat["verdict"].iloc[0] == "better"  # lower latency is better
    bw = compare(_two(x, y, higher_is_better=True), baseline="base", n_boot=0)
    assert bw["verdict"].iloc[0] == "worse"
    unknown = compare(_two(x, y), baseline="base", n_boot=0)
    assert unknown["verdict"].iloc[0] == "lower"
    same = compare(_two(x, x + 0.001), baseline="base", n_boot=0)
    assert same["verdict"].iloc[0] == "~"
    tiny = compare(_two([1.0, 2, 3], [4.0, 5, 6]), baseline="base", n_boot=0)
    assert tiny["verdict"].iloc[0] == "~"  # min p = 2/C(6,3) = 0.1
    assert "cannot go below 0.05" in tiny["warning"].iloc[0]


def test_a_verdict_beside_a_ratio_ci_holding_one_says_so():
    # baseline bimodal (0.9 or 1.1 x 1000), new unimodal at 1.04 x 1000: the rank test is
    # significant (b's runs fall below a's upper mode) but the medians' ratio CI holds 1
    rng = np.random.default_rng(14)
    a = np.where(rng.random(10) < 0.5, 0.9, 1.1) * np.exp(rng.normal(0, 0.02, 10)) * 1000
    b = np.exp(rng.normal(0.04, 0.03, 10)) * 1000
    df = _two(a, b, higher_is_better=True)
    r = compare(df, baseline="base").iloc[0]
    p = stats.mannwhitneyu(b, a, alternative="two-sided").pvalue
    assert r["p_adjusted"] == pytest.approx(p) and p < 0.05
    assert r["ratio_ci_low"] < 1 < r["ratio_ci_high"]
    assert r["verdict"] == "worse" and r["shift_ci_high"] < 0
    assert "holds 1" in r["warning"] and "distributions" in r["warning"]
    # with no CI computed (n_boot=0) there is nothing to say
    assert pd.isna(compare(df, baseline="base", n_boot=0).iloc[0]["warning"])


def test_permutation_option_close_to_scipy():
    rng = np.random.default_rng(4)
    x, y = rng.normal(100, 5, 10), rng.normal(105, 5, 10)
    r = compare(_two(x, y), baseline="base", test="permutation", n_boot=0).iloc[0]
    ref = stats.permutation_test((y, x), lambda a, b, axis: np.median(a, axis=axis)
                                 - np.median(b, axis=axis), vectorized=True,
                                 n_resamples=9999, rng=np.random.default_rng(0)).pvalue
    assert r["p_value"] == pytest.approx(ref, abs=0.02)


def test_paired_blocks():
    rng = np.random.default_rng(8)
    vol = np.arange(12)
    effect = rng.normal(0, 0.3, 12)  # big per-volume effect, shared by both configs
    base = np.exp(5 + effect + rng.normal(0, 0.02, 12))
    new = np.exp(5 + effect + np.log(1.05) + rng.normal(0, 0.02, 12))
    df = pd.DataFrame({"config": ["a"] * 12 + ["b"] * 12, "volume": np.r_[vol, vol],
                       "value": np.r_[base, new], "higher_is_better": True})
    p = compare(df, baseline="a", paired="volume").iloc[0]
    assert p["p_value"] == pytest.approx(stats.wilcoxon(np.log(new), np.log(base)).pvalue)
    assert p["ratio"] == pytest.approx(np.exp(np.median(np.log(new / base))))
    assert p["n_pairs"] == 12 and p["verdict"] == "better"
    lr = np.sort(np.log(new / base))  # n=12: order statistics (3, 10)
    assert (p["ratio_ci_low"], p["ratio_ci_high"]) == pytest.approx((np.exp(lr[2]),
                                                                     np.exp(lr[9])))
    unpaired = compare(df, baseline="a").iloc[0]
    assert unpaired["verdict"] == "~"  # the volume effect hides +5 % without pairing


def test_ratio_ci_small_coverage():
    rng = np.random.default_rng(11)
    reps, hits = 150, 0
    for _ in range(reps):
        x, y = np.exp(rng.normal(0, 0.3, 10)), 1.1 * np.exp(rng.normal(0, 0.3, 10))
        _, lo, hi = ratio_ci(x, y, n_boot=499, rng=rng)
        hits += lo <= 1.1 <= hi
    assert 0.88 <= hits / reps <= 1.0


def test_aa_grid_familywise_error_after_holm():
    rng = np.random.default_rng(12)
    names = [f"c{i}" for i in range(12)]
    reps, fw_holm, fw_raw = 50, 0, 0
    for _ in range(reps):
        df = pd.DataFrame({"config": np.repeat(names, 8),
                           "value": np.exp(rng.normal(0, 0.3, 96))})
        r = compare(df, baseline="c0", n_boot=0)
        fw_holm += bool((r["p_adjusted"] < 0.05).any())
        fw_raw += bool((r["p_value"] < 0.05).any())
    assert fw_holm / reps <= 0.10  # ≤ α = 0.05 + Monte Carlo slack (se ≈ 0.03)
    assert fw_raw > fw_holm  # without correction 11 tests inflate the family-wise rate


def test_tables_fit_100_columns():
    rng = np.random.default_rng(0)
    rows = []
    for c in ["gp2-100GiB-ext4-long-configuration-name", "gp3", "io1"]:
        for test in ["randread-4k-qd32", "seqwrite-1M"]:
            for v in rng.normal(3e8, 1e7, 5):
                rows.append({"config": c, "test": test, "metric": "bandwidth", "unit": "B/s",
                             "higher_is_better": True, "value": v})
    df = pd.DataFrame(rows)
    s = summary_table(summarize(df, by="config", n_boot=0))
    c = compare_table(compare(df, baseline="gp3", n_boot=99))
    for text in (s, c):
        assert max(len(line) for line in text.splitlines()) <= 100
    assert "[MB/s]" in s and "widest covers 93.75 %" in s
    assert "baseline gp3" in c and "verdict" in c


def test_strata_nested_in_the_groups_are_said_not_suggested():
    """Hosts nested in the configurations (wikimedia's Ceph runs): the warning suggested
    strata='host', and following it returned a 0x0 frame without a word. The warning says the
    groups share no host; a call with those strata warns that it found nothing to compare."""
    import warnings

    import ebsstats as es

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"config": ["a"] * 12 + ["b"] * 12,
                       "host": ["h1"] * 6 + ["h2"] * 6 + ["h3"] * 6 + ["h4"] * 6,
                       "value": np.r_[rng.normal(100, 3, 12), rng.normal(130, 3, 12)],
                       "higher_is_better": True})
    w = es.compare(df, by="config", baseline="a", n_boot=199)["warning"].iloc[0]
    assert "share no host" in w and "strata='host'" not in w
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = es.compare(df, by="config", baseline="a", strata="host")
    assert out.empty and "nested in the groups" in out.attrs["reason"]
    assert any("found nothing to compare" in str(x.message) for x in got)


def test_a_ratio_interval_never_excludes_its_estimate_by_rounding():
    """Tied runs: the bootstrap interval is the ratio itself, which exp(log) made
    1.1999999999999993 beside 1.2, an interval excluding its own estimate."""
    import ebsstats as es

    df = pd.DataFrame({"config": ["a"] * 9 + ["b"] * 9, "value": [100.0] * 9 + [120.0] * 9,
                       "higher_is_better": True})
    df.loc[0, "value"], df.loc[17, "value"] = 90.0, 130.0
    r = es.compare(df, by="config", baseline="a", n_boot=499).iloc[0]
    assert r["ratio_ci_low"] <= r["ratio"] <= r["ratio_ci_high"]
    assert r["ratio"] == 1.2
