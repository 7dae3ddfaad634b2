"""steady_state on data the changepoint model does not assume: a steady decline, AR(1) noise,
short dips in a flat run."""

from __future__ import annotations

import numpy as np
import pandas as pd

import ebsstats as es
from ebsstats.stats.warmup import robust_ar1, trend_excursion


def falling(rng, hours=3.0, step_s=60, rate=0.20, noise=0.03):
    t = np.arange(0, hours * 3600, step_s, dtype=float)
    v = 1000 * (1 - rate) ** (t / 3600) * np.exp(noise * rng.standard_t(3, len(t)) / np.sqrt(3))
    return pd.DataFrame({"t": t, "value": v, "metric": "iops"})


def ar1(rng, n=300, rho=0.9, sd=0.03):
    e = np.zeros(n)
    e[0] = rng.normal(0, sd / np.sqrt(1 - rho**2))
    for i in range(1, n):
        e[i] = rho * e[i - 1] + rng.normal(0, sd)
    return pd.DataFrame({"t": np.arange(n, dtype=float), "value": 1000 * np.exp(e),
                         "metric": "iops"})


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
    t = np.arange(0, 24 * 3600, 300, dtype=float)
    h = t / 3600
    f = np.where((h >= 6) & (h < 7), 0.92, 1.0) * np.where((h >= 17) & (h < 18.5), 0.93, 1.0)
    ts = pd.DataFrame({"t": t, "value": 1000 * f * np.exp(rng.normal(0, 0.02, len(t))),
                       "metric": "iops"})
    r = es.steady_state(ts, by="metric").iloc[0]
    assert r["klass"] == "flat"
    assert r["n_steady"] == r["n_rounds"] == len(t)     # nothing discarded as warm-up
    assert r["n_dips"] == 2
