"""repetitions_needed meets its target with the stated probability on heavy-tailed data."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ebsstats.stats.planning import repetitions_needed
from ebsstats.stats.summary import median_ci_array


def test_recommended_n_meets_the_target_in_about_90_percent_of_fresh_campaigns():
    # pilot of 20 runs, log values Student t3 scale 0.05 (not the model's... only its family);
    # run n_needed fresh campaigns from the *true* distribution and count how many reach ±5 %
    rng = np.random.default_rng(11)
    met, extrap = [], []
    for _ in range(12):
        pilot = pd.DataFrame({"value": 1000 * np.exp(0.05 * rng.standard_t(3, 20))})
        s = repetitions_needed(pilot, precision=0.05, summary=True).iloc[0]
        n = int(s["n_needed"])
        assert s["n_needed_low"] <= n <= s["n_needed_high"]
        for _ in range(50):
            x = 1000 * np.exp(0.05 * rng.standard_t(3, n))
            med, lo, hi, _ = median_ci_array(x)
            met.append(max(hi / med - 1, 1 - lo / med) <= 0.05)
        extrap.append(n > 20)
    # the mean-half-width rule of the old code met the target in ~50 % of campaigns
    assert np.mean(met) >= 0.8, np.mean(met)
    assert any(extrap)


def test_n_needed_is_where_the_saw_tooth_stays_below_the_target():
    # the order-statistic interval's assured half-width saw-tooths with n: on this pilot
    # ±5 % is met at n = 25, missed at 27, met from 28 on; n_needed is 28, not 25
    from ebsstats.stats.planning import _Model

    rng = np.random.default_rng(1)
    model = _Model(np.exp(rng.normal(0, 0.08, 30)), np.random.default_rng(2), 200, 0.95)
    assert model.met(25, 0.05, 0.9) and not model.met(27, 0.05, 0.9)
    for precision in (0.03, 0.04, 0.05, 0.08):
        n = model.n_needed(precision, 0.9, 200)
        assert not model.met(n - 1, precision, 0.9)
        assert all(model.met(m, precision, 0.9) for m in range(n, 161)), precision
    assert model.n_needed(0.05, 0.9, 200) == 28
    # the summary reports the same size
    pilot = pd.DataFrame({"value": np.exp(rng.normal(0, 0.08, 30))})
    s = repetitions_needed(pilot, precision=0.05, summary=True).iloc[0]
    m2 = _Model(pilot["value"].to_numpy(), np.random.default_rng([0, 0]), 1000, 0.95)
    n2 = int(s["n_needed"])
    assert all(m2.met(m, 0.05, 0.9) for m in range(n2, n2 + 20))
