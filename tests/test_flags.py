"""flag_outliers on hand examples; bimodality on bimodal vs unimodal data."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ebsstats.stats.flags import bimodality, bimodality_coefficient, flag_outliers, gmm2


def test_tukey_hand_example_keeps_rows():
    df = pd.DataFrame({"value": [10.0, 11, 12, 13, 14, 40, np.nan]})
    before = df.copy()
    out = flag_outliers(df)
    # np.percentile (linear): Q1 = 11.25, Q3 = 13.75, IQR = 2.5, fences 7.5 and 17.5
    assert len(out) == 7
    assert out["outlier"].tolist()[:6] == [False] * 5 + [True]
    assert pd.isna(out["outlier"].iloc[6])
    assert out["outlier_side"].iloc[5] == "high"
    assert out["outlier_score"].iloc[5] == pytest.approx((40 - 13.75) / 2.5)
    pd.testing.assert_frame_equal(df, before)


def test_mad_hand_example_and_groups():
    df = pd.DataFrame({"config": ["a"] * 6 + ["b"] * 6,
                       "value": [10.0, 11, 12, 13, 14, 40, 1, 2, 3, 4, 5, 6]})
    out = flag_outliers(df, by="config", method="mad")
    # a: median 12.5, |dev| = 2.5 1.5 .5 .5 1.5 27.5 -> MAD 1.5; z(40) = .6745 * 27.5 / 1.5
    assert out["outlier_score"].iloc[5] == pytest.approx(0.6745 * 27.5 / 1.5)
    assert out["outlier_score"].iloc[0] == pytest.approx(0.6745 * -2.5 / 1.5)
    assert out["outlier"].tolist() == [False] * 5 + [True] + [False] * 6


def test_bimodality_coefficient_hand_value():
    x = np.r_[np.zeros(10), np.ones(10)]
    # skew 0; bias-corrected excess kurtosis G2 = ((n+1)(-2) + 6)(n-1)/((n-2)(n-3)) = -2.2353
    g2 = (21 * -2 + 6) * 19 / (18 * 17)
    assert stats.kurtosis(x, bias=False) == pytest.approx(g2)
    assert bimodality_coefficient(x) == pytest.approx(1 / (g2 + 3 * 19**2 / (18 * 17)))


def test_bimodal_vs_unimodal():
    rng = np.random.default_rng(3)
    bands = np.r_[rng.normal(100, 3, 40), rng.normal(80, 3, 20)]
    uni = rng.normal(100, 3, 60)
    df = pd.DataFrame({"config": ["bands"] * 60 + ["uni"] * 60, "value": np.r_[bands, uni]})
    r = bimodality(df, by="config").set_index("config")
    assert r.loc["bands", "verdict"] == "bimodal"
    assert r.loc["bands", "bc"] > 5 / 9
    assert r.loc["bands", "mean_1"] == pytest.approx(80, abs=2)
    assert r.loc["bands", "mean_2"] == pytest.approx(100, abs=2)
    assert r.loc["bands", "weight_2"] == pytest.approx(2 / 3, abs=0.05)
    assert r.loc["uni", "verdict"] == "unimodal"
    assert r.loc["uni", "delta_bic"] < 2
    few = bimodality(pd.DataFrame({"value": [1.0, 2, 3]}))
    assert few["verdict"].iloc[0] == "too few"


def test_gmm2_loglik_at_least_one_normal():
    x = np.random.default_rng(0).normal(0, 1, 50)
    g = gmm2(x)
    assert g["loglik"] >= stats.norm.logpdf(x, x.mean(), x.std()).sum() - 1e-6
