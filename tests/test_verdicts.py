"""Verdicts that hold on messy campaigns: one statistical core, compare's one effect, strata and
multiplicity warnings (each test is shaped like a case that went wrong on real data)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import ebsstats as es
from ebsstats.app.cli import main
from ebsstats.stats.comparison import compare
from tests.conftest import ROOT


def test_core_median_ci_is_the_one_every_statistic_uses():
    from ebsstats.stats import _core

    x = np.array([3.0, 1.0, 4.0, 1.5, 5.0])
    med, lo, hi, level = _core.median_ci_array(x)
    assert (med, lo, hi) == (3.0, 1.0, 5.0)
    assert level == pytest.approx(1 - 2 * stats.binom.cdf(0, 5, 0.5))  # 0.9375
    s = es.summarize(pd.DataFrame({"value": x}), n_boot=0).iloc[0]
    assert (s["median_ci_low"], s["median_ci_high"], s["median_ci_level"]) == (lo, hi, level)


def test_core_holm_and_floor():
    from statsmodels.stats.multitest import multipletests

    from ebsstats.stats import _core

    p = np.array([0.01, np.nan, 0.04, 0.03])
    adj = _core.adjust_pvalues(p)
    assert np.isnan(adj[1])
    assert adj[[0, 2, 3]] == pytest.approx(multipletests(p[[0, 2, 3]], method="holm")[1])
    # 20 configs x 5 runs: 19 comparisons, exact floor 2/252 -> Holm best 0.151
    assert _core.best_adjusted_p(_core.min_p(5, 5), 19) == pytest.approx(2 / 252 * 19)
    assert _core.runs_needed(0.05, 19) == 6


def test_cli_summary_counts_the_runs_summarize_of_select_counts(capsys):
    path = ROOT / "data" / "campaign" / "pts"
    assert main(["summary", str(path), "--metric", "iops", "--by", "config"]) == 0
    out = capsys.readouterr().out
    df = es.read(path)
    ref = es.summarize(es.select(df, metric="iops"), by="config", n_boot=0)
    assert (df["flag"] == "reported_mean").any()  # the trap: PTS's mean beside its runs
    for _, r in ref.iterrows():
        line = next(ln for ln in out.splitlines() if ln.startswith(str(r["config"]) + " "))
        assert int(line.split()[1]) == r["n"], line


def _paired_mixed_blocks():
    """21 small volumes +5 %, 20 large volumes -1 %: the raw-difference HL shift is negative,
    the median paired log ratio positive (the case that printed ratio > 1 next to "worse")."""
    rng = np.random.default_rng(3)
    small, large = 21, 20
    x = np.r_[np.full(small, 10.0), np.full(large, 1000.0)] * np.exp(rng.normal(0, 1e-3, 41))
    y = x * np.r_[np.full(small, 1.05), np.full(large, 0.99)]
    vol = np.arange(41)
    return pd.DataFrame({"config": ["a"] * 41 + ["b"] * 41, "volume": np.r_[vol, vol],
                         "value": np.r_[x, y], "higher_is_better": True})


def test_paired_verdict_ratio_and_medians_agree_in_direction():
    r = compare(_paired_mixed_blocks(), baseline="a", paired="volume", n_boot=0).iloc[0]
    assert r["shift"] < 0 < np.log(r["ratio"])  # the two estimates really disagree here
    assert r["verdict"] in ("better", "~")
    if r["verdict"] == "better":
        assert r["ratio"] > 1
    assert r["verdict"] != "worse"


def test_unpaired_verdict_never_contradicts_the_ratio():
    # skewed groups: medians go one way, most of the mass (Mann-Whitney, HL) the other
    rng = np.random.default_rng(5)
    for _ in range(20):
        x = np.r_[rng.normal(100, 1, 12), rng.normal(140, 1, 13)]
        y = np.r_[rng.normal(120, 1, 15), rng.normal(160, 1, 10)]
        r = compare(pd.DataFrame({"config": ["a"] * 25 + ["b"] * 25, "value": np.r_[x, y],
                                  "higher_is_better": True}), baseline="a", n_boot=0).iloc[0]
        if r["verdict"] != "~":
            up = r["verdict"] == "better"
            assert (r["ratio"] > 1) == up and (r["median"] > r["median_baseline"]) == up


def _fs_by_instance():
    rng = np.random.default_rng(2)
    rows = []
    for fs, n_m5, n_c5 in (("xfs", 4, 16), ("ext4", 16, 4)):
        for it, n, level in (("m5", n_m5, 2000.0), ("c5", n_c5, 1000.0)):
            for v in level * np.exp(rng.normal(0, 0.03, n)):
                rows.append({"filesystem": fs, "instance_type": it, "metric": "iops",
                             "value": v, "higher_is_better": True})
    return pd.DataFrame(rows)


def test_unbalanced_strata_warn_and_strata_compares_within():
    df = _fs_by_instance()
    r = compare(df, by="filesystem", baseline="xfs", n_boot=0).iloc[0]
    assert r["verdict"] == "better"  # pooled: a composition effect
    assert "unbalanced strata: instance_type" in r["warning"]
    assert "strata='instance_type'" in r["warning"]
    s = compare(df, by="filesystem", baseline="xfs", n_boot=0, strata="instance_type")
    assert sorted(s["instance_type"]) == ["c5", "m5"]
    assert (s["verdict"] == "~").all()
    assert not s["warning"].fillna("").str.contains("unbalanced").any()


def test_one_volume_per_run_is_not_an_unbalanced_stratum():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"config": ["a"] * 8 + ["b"] * 8, "volume": [f"v{i}" for i in range(16)],
                       "value": rng.normal(100, 1, 16)})
    assert "unbalanced" not in str(compare(df, baseline="a", n_boot=0)["warning"].iloc[0])


def test_holm_with_many_configs_says_significance_is_unattainable():
    rng = np.random.default_rng(1)
    configs = [f"c{i:02d}" for i in range(20)]
    vals = {c: rng.normal(100, 2, 5) for c in configs}
    vals["c07"] = vals["c07"] * 10  # ten times faster
    df = pd.DataFrame([{"config": c, "value": v, "higher_is_better": True}
                       for c in configs for v in vals[c]])
    r = compare(df, baseline="c00", n_boot=0)
    fast = r[r["config"] == "c07"].iloc[0]
    assert fast["p_value"] == pytest.approx(2 / 252)
    assert fast["p_adjusted"] == pytest.approx(2 / 252 * 19)
    assert fast["verdict"] == "~"
    assert "19 comparisons" in fast["warning"] and "cannot reach" in fast["warning"]
    assert "6 runs per side would make it attainable" in fast["warning"]
