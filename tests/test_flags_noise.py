"""bimodality under heavy tails and quantised output; flag_outliers on the log scale."""

from __future__ import annotations

import numpy as np
import pandas as pd

import ebsstats as es
from ebsstats.stats.flags import bimodality


def test_heavy_tailed_unimodal_groups_are_not_bimodal():
    # 120 unimodal groups, log values Student t3 (scale 0.1), 20-60 runs: the mixture splits off
    # a few extreme runs; before the weight/run minimums ~20 % of groups were (possibly) bimodal
    rng = np.random.default_rng(0)
    rows = []
    for g in range(120):
        n = int(rng.choice([20, 30, 47, 60]))
        rows += [{"g": g, "value": v} for v in 1000 * np.exp(0.1 * rng.standard_t(3, n))]
    r = bimodality(pd.DataFrame(rows), by="g")
    assert (r["verdict"] != "unimodal").mean() <= 0.04


def test_one_run_component_is_not_a_mode():
    rng = np.random.default_rng(1)
    x = np.r_[rng.normal(100, 1, 46), 60.0]          # one stray run: weight 1/47
    r = bimodality(pd.DataFrame({"value": x})).iloc[0]
    assert r["weight_2"] > 0.97 or r["weight_2"] < 0.03
    assert r["verdict"] == "unimodal" and "runs" in r["reason"]


def test_quantised_neighbouring_codes_are_not_modes():
    # a rate printed as an integer, two codes 0.1 % apart
    x = np.r_[np.full(25, 1000.0), np.full(25, 1001.0)]
    r = bimodality(pd.DataFrame({"value": x})).iloc[0]
    assert r["resolution"] == 1.0
    assert r["verdict"] == "unimodal"
    # genuine bands 20 % apart, same quantisation, still found
    rng = np.random.default_rng(2)
    y = np.round(np.r_[rng.normal(1000, 10, 30), rng.normal(800, 10, 20)])
    assert bimodality(pd.DataFrame({"value": y}))["verdict"].iloc[0] == "bimodal"


def test_flag_outliers_on_log_scale():
    # right-skewed rates: on the raw scale only the long right tail is "outlying"; on the log
    # scale the 1/10-of-typical run is an outlier too
    df = pd.DataFrame({"value": [1.0, 6, 8, 9, 10, 11, 12, 14, 20, 45]})
    raw = es.flag_outliers(df)
    lg = es.flag_outliers(df, log=True)
    assert raw["outlier"].tolist() == [False] * 9 + [True]
    assert lg["outlier"].tolist() == [True] + [False] * 8 + [True]
    assert lg["outlier_method"].iloc[0].endswith("on log(value)")
    q1, q3 = np.percentile(np.log(df["value"]), [25, 75])
    assert lg["outlier_score"].iloc[0] == (np.log(1.0) - q1) / (q3 - q1)
    neg = es.flag_outliers(pd.DataFrame({"value": [0.0, 1, 2, 3]}), log=True)
    assert neg["outlier"].isna().tolist() == [True, False, False, False]
