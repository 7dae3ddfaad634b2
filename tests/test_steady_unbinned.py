"""steady_state(bin=None) on a long series warns that PELT's time grows with the square of the
points (no pruning on a series with no change): 200,000 points took about 100 s, silently."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.stats import warmup


def _flat(n: int) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    return pd.DataFrame({"t": np.arange(n, dtype=float), "metric": "iops",
                         "value": 1000 * np.exp(0.03 * rng.normal(size=n))})


def test_unbinned_long_series_warns(monkeypatch):
    monkeypatch.setattr(warmup, "PELT_UNBINNED_WARN", 500)
    with pytest.warns(UserWarning, match=r"1,000 points without binning \(bin=None\)") as got:
        out = es.steady_state(_flat(1000), bin=None)
    assert got[0].filename == __file__  # (pointed at the caller's line)
    assert int(out["n_rounds"].iloc[0]) == 1000  # (still analysed, every point a round)


def test_binned_or_short_series_do_not_warn(monkeypatch):
    monkeypatch.setattr(warmup, "PELT_UNBINNED_WARN", 500)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        es.steady_state(_flat(1000))  # bin="auto": 300 rounds
        es.steady_state(_flat(400), bin=None)
