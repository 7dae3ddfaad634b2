"""variance_components when REML's first optimizer fails, share intervals, boundary advice."""

from __future__ import annotations

import numpy as np
import pandas as pd

import ebsstats as es


def _vms(seed, share=0.2, vms=30, runs=3, total=0.01):
    rng = np.random.default_rng(seed)
    vm = np.repeat(np.arange(vms), runs)
    y = np.exp(rng.normal(0, np.sqrt(share * total), vms)[vm]
               + rng.normal(0, np.sqrt((1 - share) * total), vms * runs))
    return pd.DataFrame({"vm": vm.astype(str), "value": y})


def test_lbfgs_linalgerror_falls_back_to_the_next_optimizer():
    # 30 VMs x 3 runs, VM share 0.2: lbfgs raises LinAlgError (singular matrix); the old code
    # let it end the fit and reported NaN
    r = es.variance_components(_vms(15), levels=["vm"], n_boot=100).set_index("level")
    assert np.isfinite(r.loc["vm", "share"])
    assert "optimizer bfgs" in r.loc["vm", "method"]
    assert r.loc["vm", "share_ci_low"] < 0.2 < r.loc["vm", "share_ci_high"]
    # the REML estimate of a balanced one-way design equals the ANOVA one when positive
    a = es.variance_components(_vms(15), levels=["vm"], method="anova", n_boot=0)
    assert np.allclose(r["variance"].to_numpy(), a["variance"].to_numpy(), rtol=1e-3)


def test_boundary_estimate_gives_not_estimable_advice():
    # hosts add no variance: host variance at the boundary 0; the ratio vm/host is unbounded
    rng = np.random.default_rng(4)
    host = np.repeat(np.arange(6), 15)
    vm = np.repeat(np.arange(30), 3)
    y = np.exp(rng.normal(0, 0.05, 30)[vm] + rng.normal(0, 0.05, 90))
    df = pd.DataFrame({"host": host.astype(str), "vm": vm.astype(str), "value": y})
    r = es.variance_components(df, levels=["host", "vm"], method="anova",
                               n_boot=0).set_index("level")
    assert r.loc["host", "variance"] == 0.0
    assert np.isnan(r.loc["vm", "optimal_per_parent"])
    assert "not estimable" in r.loc["vm", "advice"]


def test_unbalanced_one_level_has_a_moment_fallback():
    # one-way ANOVA with unequal groups, hand formula n0 = (N - sum n_i^2 / N) / (k - 1)
    df = pd.DataFrame({"vm": list("aaabbc"), "value": np.exp([0.0, 0.1, 0.2, 1.0, 1.2, 2.0])})
    r = es.variance_components(df, levels=["vm"], method="anova", n_boot=0).set_index("level")
    y = np.array([0.0, 0.1, 0.2, 1.0, 1.2, 2.0])
    msw = (((y[:3] - 0.1) ** 2).sum() + ((y[3:5] - 1.1) ** 2).sum()) / 3
    means, n_i = np.array([0.1, 1.1, 2.0]), np.array([3, 2, 1])
    msb = (n_i * (means - y.mean()) ** 2).sum() / 2
    n0 = (6 - (n_i ** 2).sum() / 6) / 2
    assert np.isclose(r.loc["run", "variance"], msw)
    assert np.isclose(r.loc["vm", "variance"], (msb - msw) / n0)
