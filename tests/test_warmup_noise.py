"""steady_state on data the changepoint model does not assume: a steady decline, AR(1) noise,
short dips in a flat run."""

from __future__ import annotations

import numpy as np
import pandas as pd

import ebsstats as es
from benchmarks._noise import ar1_series as ar1
from benchmarks._noise import dips, falling
from ebsstats.stats.warmup import robust_ar1, trend_excursion


def test_a_series_still_falling_has_no_steady_state():
    rng = np.random.default_rng(0)
    for _ in range(3):
        r = es.steady_state(falling(rng), by="metric").iloc[0]
        assert r["klass"] == "no_steady_state"
        assert not r["snia_steady"]                 # every 5-round window passes, the run not
        assert pd.isna(r["steady_level"])


def test_stationary_ar1_is_mostly_flat():
    rng = np.random.default_rng(1)
    k = [es.steady_state(ar1(rng), by="metric")["klass"].iloc[0] for _ in range(12)]
    assert np.mean([c == "flat" for c in k]) >= 0.5, k   # i.i.d. cost: ~0 %


def test_robust_ar1_and_trend_excursion_hand_values():
    rng = np.random.default_rng(2)
    e = ar1(rng, n=3000, rho=0.6)["value"].pipe(np.log).to_numpy()
    assert abs(robust_ar1(e) - 0.6) < 0.1
    # a level shift does not move it
    assert abs(robust_ar1(np.r_[e[:1500], e[1500:] + 1.0]) - 0.6) < 0.1
    # exact line: slope 0.001 per round over a horizon of 101 rounds -> excursion 0.1
    exc, p = trend_excursion(0.001 * np.arange(50) + 1e-9 * rng.normal(size=50), 101)
    assert abs(exc - 0.1) < 1e-6 and p < 1e-6


def test_short_dips_in_a_flat_run_are_not_warmup():
    rng = np.random.default_rng(3)
    ts = dips(rng)
    t = ts["t"]
    r = es.steady_state(ts, by="metric").iloc[0]
    assert r["klass"] == "flat"
    assert r["n_steady"] == r["n_rounds"] == len(t)     # nothing discarded as warm-up
    assert r["n_dips"] == 2
