"""Series generators that do not share the estimators' assumptions (a steady decline with t3 noise,
stationary AR(1), short dips in a flat run). Used by ``validate_estimators.py`` and by the tests,
so a test and the benchmark measure the same data. Nothing here imports ebsstats."""

from __future__ import annotations

import numpy as np
import pandas as pd


def falling(rng, hours=3.0, step_s=60, rate=0.20, noise=0.03):
    t = np.arange(0, hours * 3600, step_s, dtype=float)
    v = 1000 * (1 - rate) ** (t / 3600) * np.exp(noise * rng.standard_t(3, len(t)) / np.sqrt(3))
    return pd.DataFrame({"t": t, "value": v, "metric": "iops"})


def ar1(n, rho, rng, sd=0.05):
    """``n`` values ``1000·exp(e)`` with ``e`` a stationary AR(1) of lag-1 correlation ``rho``
    and innovation sd ``sd`` (started from its stationary distribution)."""
    e = np.zeros(n)
    e[0] = rng.normal(0, sd / np.sqrt(1 - rho**2))
    for i in range(1, n):
        e[i] = rho * e[i - 1] + rng.normal(0, sd)
    return 1000 * np.exp(e)


def ar1_series(rng, n=300, rho=0.9, sd=0.03):
    return pd.DataFrame({"t": np.arange(n, dtype=float), "value": ar1(n, rho, rng, sd),
                         "metric": "iops"})


def dips(rng, step_s=300, noise=0.02):
    t = np.arange(0, 24 * 3600, step_s, dtype=float)
    h = t / 3600
    f = np.where((h >= 6) & (h < 7), 0.92, 1.0) * np.where((h >= 17) & (h < 18.5), 0.93, 1.0)
    return pd.DataFrame({"t": t, "value": 1000 * f * np.exp(rng.normal(0, noise, len(t))),
                         "metric": "iops"})
