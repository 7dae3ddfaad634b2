"""first_write compares passes of one volume only, says why it returns nothing, and adjusts for
the many tests it runs (shaped like a campaign of one fresh volume per run)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from ebsstats.stats._core import adjust_pvalues
from ebsstats.stats.firstwrite import first_write

T0 = pd.Timestamp("2024-03-04", tz="UTC")


def _fresh_volume_per_run():
    # six runs of one config, each on its own fresh volume; the earliest volume is just slow
    v = [26.0, 100.0, 98.0, 103.0, 101.0, 99.0]
    return pd.DataFrame({"config": "gp3", "volume": [f"vol-{i}" for i in range(6)],
                         "test": "seqwrite", "op": "write", "metric": "bandwidth",
                         "unit": "B/s", "value": np.array(v) * 1e6,
                         "timestamp": [T0 + pd.Timedelta(hours=i) for i in range(6)]})


def test_different_volumes_are_not_passes_of_one_volume():
    df = _fresh_volume_per_run()
    with pytest.warns(UserWarning, match="one pass only"):
        r = first_write(df, evidence="passes")
    assert r.empty and "one fresh volume per run" in r.attrs["reason"]
    with pytest.warns(UserWarning, match="passes of different volumes are not compared"):
        r = first_write(df, evidence="passes", by="config")
    assert r.empty


def test_repetition_orders_passes_and_empty_results_say_why():
    rep = pd.DataFrame({"volume": "v", "test": "t", "op": "write", "metric": "bandwidth",
                        "value": [20.0, 100.0, 101.0, 99.0], "repetition": [0, 1, 2, 3]})
    r = first_write(rep, evidence="passes").iloc[0]
    assert r["penalty"] == pytest.approx(np.exp(np.log([100, 101, 99]).mean()) / 20)
    with pytest.warns(UserWarning, match="no 'pass', 'repetition' or 'timestamp'"):
        assert first_write(rep.drop(columns="repetition"), evidence="passes").empty


def test_many_tests_are_adjusted_for_multiplicity():
    rng = np.random.default_rng(3)
    rows = []
    for k in range(128):  # 128 null tests: no first-write penalty anywhere
        for p, v in enumerate(np.exp(rng.normal(np.log(100), 0.1, 4))):
            rows.append({"volume": "v", "test": f"t{k}", "op": "write", "metric": "iops",
                         "value": v, "pass": p})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = first_write(pd.DataFrame(rows), evidence="passes")
    assert len(r) == 128
    assert (r["penalty_ci_low"] > 1).sum() >= 1  # unadjusted intervals "detect" something
    assert r["p_adjusted"].to_numpy() == pytest.approx(adjust_pvalues(r["p_value"].to_numpy()))
    assert not r["detected"].astype(bool).any()
