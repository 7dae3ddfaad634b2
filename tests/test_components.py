"""variance_components: hand-computed ANOVA, recovery of known variances, REML = ANOVA, advice."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ebsstats.stats.components import variance_components


def test_anova_hand_example():
    # volume A: 1, 3; volume B: 5, 7. Grand mean 4; MS_volume = 2 * ((2-4)^2 + (6-4)^2) / 1 = 16
    # MS_error = (1 + 1 + 1 + 1) / 2 = 2; var_volume = (16 - 2) / 2 = 7; var_run = 2
    df = pd.DataFrame({"volume": ["A", "A", "B", "B"], "value": [1.0, 3, 5, 7]})
    r = variance_components(df, levels=["volume"], log=False, method="anova").set_index("level")
    assert r.loc["volume", "variance"] == pytest.approx(7.0)
    assert r.loc["run", "variance"] == pytest.approx(2.0)
    assert r.loc["volume", "share"] == pytest.approx(7 / 9)
    assert r.loc["volume", "icc"] == pytest.approx(7 / 9)


def _nested(rng, sd, n_az=3, n_inst=4, n_vol=4, n_run=4):
    rows = []
    for a in range(n_az):
        ea = rng.normal(0, sd["az"])
        for i in range(n_inst):
            ei = rng.normal(0, sd["instance"])
            for v in range(n_vol):
                ev = rng.normal(0, sd["volume"])
                for k in range(n_run):
                    # the same instance/volume names recur under every parent: labels nest
                    rows.append({"az": f"az{a}", "instance": f"i{i}", "volume": f"v{v}",
                                 "repetition": k,
                                 "value": 500 * math.exp(ea + ei + ev + rng.normal(0, sd["run"]))})
    return pd.DataFrame(rows)


def test_recovers_known_variances_and_reml_equals_anova():
    rng = np.random.default_rng(42)
    sd = {"az": 0.0, "instance": 0.0, "volume": 0.12, "run": 0.03}
    df = _nested(rng, sd, n_az=1, n_inst=1, n_vol=60, n_run=5)
    r = variance_components(df, levels=["volume"]).set_index("level")
    assert r.loc["volume", "variance"] == pytest.approx(0.12**2, rel=0.4)
    assert r.loc["run", "variance"] == pytest.approx(0.03**2, rel=0.2)
    a = variance_components(df, levels=["volume"], method="anova").set_index("level")
    assert np.allclose(r["variance"], a["variance"], rtol=0.01)
    assert r.loc["volume", "cv"] == pytest.approx(math.sqrt(math.expm1(r.loc["volume", "variance"])))

    sd3 = {"az": 0.05, "instance": 0.08, "volume": 0.1, "run": 0.04}
    # REML = ANOVA for balanced data when no ANOVA estimate is negative (seed 4: none is)
    three = _nested(np.random.default_rng(4), sd3)
    reml = variance_components(three, levels=["az", "instance", "volume"])
    anova = variance_components(three, levels=["az", "instance", "volume"], method="anova")
    assert (anova["variance"] > 0).all()
    assert reml["level"].tolist() == ["az", "instance", "volume", "run"]
    assert reml["n_units"].tolist() == [3, 12, 48, 192]
    assert np.allclose(reml["variance"], anova["variance"], rtol=0.03, atol=1e-5)
    assert reml["share"].sum() == pytest.approx(1.0)
    assert reml.loc[3, "variance"] == pytest.approx(0.04**2, rel=0.25)
    # seed 7: the ANOVA az estimate is negative (set to 0); REML puts az on the boundary too
    seven = variance_components(_nested(np.random.default_rng(7), sd3),
                                levels=["az", "instance", "volume"])
    assert seven.loc[0, "variance"] < 1e-6
    assert "az variance at the boundary" in seven.loc[0, "note"]


def test_kalibera_jones_advice():
    df = pd.DataFrame({"volume": ["A", "A", "B", "B"], "value": [1.0, 3, 5, 7]})
    # var_volume = 7, var_run = 2: runs per volume = sqrt((c_vol / c_run) * (2 / 7))
    r = variance_components(df, levels=["volume"], log=False, method="anova",
                            costs={"volume": 14, "run": 1}).set_index("level")
    assert r.loc["run", "optimal_per_parent"] == round(math.sqrt(14 * 2 / 7))  # = 2
    assert "optimal runs per volume ≈ 2" in r.loc["run", "advice"]
    cheap = variance_components(df, levels=["volume"], log=False, method="anova")
    assert "spend effort on more volumes" in cheap.set_index("level").loc["run", "advice"]


def test_confounded_level_is_dropped():
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"instance": np.repeat([f"i{i}" for i in range(6)], 4),
                       "volume": np.repeat([f"v{i}" for i in range(6)], 4),
                       "value": np.exp(rng.normal(0, 0.1, 24))})
    r = variance_components(df, levels=["instance", "volume"]).set_index("level")
    assert np.isnan(r.loc["volume", "variance"])
    assert "volume dropped" in r.loc["run", "note"]
